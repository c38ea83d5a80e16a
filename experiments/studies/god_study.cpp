#include "experiments/studies/god_study.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include "agents/duel_solver_agent.h"
#include "agents/registry.h"
#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "experiments/match.h"
#include "experiments/play_game.h"

namespace sling::duel {

namespace {

constexpr int kTurnBuckets = 8;
const char* kTurnBucketNames[kTurnBuckets] = {"1-2",   "3-4",   "5-6",   "7-10",
                                              "11-15", "16-25", "26-50", "51+"};
int turn_bucket(int turn) {
  if (turn <= 2) return 0;
  if (turn <= 4) return 1;
  if (turn <= 6) return 2;
  if (turn <= 10) return 3;
  if (turn <= 15) return 4;
  if (turn <= 25) return 5;
  if (turn <= 50) return 6;
  return 7;
}

const Roll kStudiedRolls[] = {Roll::kInitiative,  Roll::kDavidMove,   Roll::kStoneToHit,
                              Roll::kStoneDamage, Roll::kStoneDaze,   Roll::kSearch,
                              Roll::kFleeTest,    Roll::kFleeMove,    Roll::kMelee,
                              Roll::kJavelin,     Roll::kGoliathMove, Roll::kRecover};

std::string roll_title(Roll roll) {
  switch (roll) {
    case Roll::kInitiative:
      return "Initiative";
    case Roll::kDavidMove:
      return "David's movement";
    case Roll::kStoneToHit:
      return "Stone to-hit";
    case Roll::kStoneDamage:
      return "Stone damage";
    case Roll::kStoneDaze:
      return "Stone daze";
    case Roll::kSearch:
      return "Search for a stone";
    case Roll::kFleeTest:
      return "Flee test";
    case Roll::kFleeMove:
      return "Flee movement";
    case Roll::kMelee:
      return "Melee dice";
    case Roll::kJavelin:
      return "Goliath's javelin to-hit";
    case Roll::kGoliathMove:
      return "Goliath's movement";
    case Roll::kRecover:
      return "Goliath's recovery";
    default:
      return std::string(DuelGame::roll_name(roll));
  }
}

// The roll as a player would name the moment to spend God on it (the roll gone against David).
std::string roll_advice(Roll roll) {
  switch (roll) {
    case Roll::kInitiative:
      return "a lost initiative roll";
    case Roll::kDavidMove:
      return "David's own movement roll";
    case Roll::kStoneToHit:
      return "a stone that misses";
    case Roll::kStoneDamage:
      return "a stone that Goliath's armour absorbs";
    case Roll::kStoneDaze:
      return "a stone that fails to daze Goliath";
    case Roll::kSearch:
      return "a failed search for a stone";
    case Roll::kFleeTest:
      return "a failed flee test";
    case Roll::kFleeMove:
      return "a short flight";
    case Roll::kMelee:
      return "a lost melee";
    case Roll::kJavelin:
      return "a javelin that hits David";
    case Roll::kGoliathMove:
      return "Goliath's movement roll";
    case Roll::kRecover:
      return "Goliath's recovery while David is beheading him";
    default:
      return roll_title(roll);
  }
}

// A God decision's situation in words a player can recognise at the table.
std::string situation(const DuelGame& game, const DuelState& s) {
  const int d = s.dice[0], o = s.dice[1];
  char text[160];
  const int gap = static_cast<int>(std::floor(game.edge_distance_cm(s)));
  switch (s.roll) {
    case Roll::kInitiative:
      std::snprintf(text, sizeof text, "David %d, Goliath %d (%s)", d, o,
                    d > o ? "David first" : (d < o ? "Goliath first" : "tie"));
      break;
    case Roll::kDavidMove:
    case Roll::kFleeMove:
      std::snprintf(
          text, sizeof text, "die %d (%s), gap %d cm%s", d,
          d == 6 ? "no move" : (std::to_string(game.rules().david_move - d) + " cm").c_str(), gap,
          s.has(kDavidHasStone) ? ", stone in hand" : "");
      break;
    case Roll::kGoliathMove:
      std::snprintf(text, sizeof text, "die %d (Goliath moves up to %d cm), gap %d cm%s", d,
                    std::max(0, game.move_base(s, kGoliath) - d), gap,
                    s.has(kGoliathShield) ? "" : ", two-handed");
      break;
    case Roll::kStoneToHit:
      std::snprintf(text, sizeof text, "die %d vs capability %d (%s)", d,
                    game.shooting_capability(s, kDavid),
                    d <= game.shooting_capability(s, kDavid) ? "hit" : "miss");
      break;
    case Roll::kStoneDamage:
      std::snprintf(text, sizeof text, "die %d vs protection %d (%s)", d, game.protection(s),
                    d > game.protection(s) ? "damage" : "blocked");
      break;
    case Roll::kStoneDaze:
      std::snprintf(text, sizeof text, "die %d (%s)", d,
                    d <= game.rules().daze_max ? "dazed" : "absorbed");
      break;
    case Roll::kSearch:
      std::snprintf(text, sizeof text, "die %d (%s), gap %d cm", d,
                    d >= game.rules().search_min ? "found" : "not found", gap);
      break;
    case Roll::kFleeTest:
      std::snprintf(text, sizeof text, "die %d (%s)%s", d,
                    d >= game.rules().flee_min ? "escapes" : "stuck",
                    s.has(kGoliathDazed) ? ", Goliath dazed" : "");
      break;
    case Roll::kJavelin:
      std::snprintf(text, sizeof text, "die %d vs capability %d (%s)", d,
                    game.shooting_capability(s, kGoliath),
                    d <= game.shooting_capability(s, kGoliath) ? "David hit: dead" : "miss");
      break;
    case Roll::kMelee: {
      const int david = d + game.combat_value(s, kDavid),
                goliath = o + game.combat_value(s, kGoliath);
      std::snprintf(text, sizeof text, "David %d+%d vs Goliath %d+%d (%s)", d,
                    game.combat_value(s, kDavid), o, game.combat_value(s, kGoliath),
                    david < goliath ? "David killed" : (david > goliath ? "Goliath dazed" : "tie"));
      break;
    }
    case Roll::kRecover:
      std::snprintf(text, sizeof text, "die %d (%s)%s", d,
                    d >= game.rules().recover_min ? "recovers" : "stays dazed",
                    s.has(kBeheadPending) ? ", David beheading" : "");
      break;
    default:
      std::snprintf(text, sizeof text, "die %d", d);
  }
  return text;
}

struct SituationStats {
  std::int64_t offered = 0, rerolled = 0;
  double gain = 0;
};

struct GameLog {
  bool david_won = false;
  bool cut = false;  // stopped at the ply limit
  std::int64_t plies = 0;
  int god_turn = -1;
  Roll god_roll = Roll::kNone;
  std::vector<std::pair<std::string, std::pair<bool, double>>> decisions;  // key, (rerolled, gain)
  std::vector<Roll> decision_rolls;
};

// One optimal-versus-optimal game, recording each God decision.
GameLog play_optimal(const DuelSolution& solution, std::uint64_t seed, std::int64_t max_plies) {
  const DuelGame& game = solution.game();
  GameLog log;
  Rng dice(seed, 0);
  DuelState s = game.initial_state();
  for (; !game.is_terminal(s) && log.plies < max_plies; ++log.plies) {
    Action a;
    if (game.current_player(s) == kChancePlayer) {
      a = sample_chance(game, s, dice);
    } else {
      const auto values = solution.action_values(s);
      const bool david = game.current_player(s) == kDavid;
      std::size_t best = 0;
      for (std::size_t i = 1; i < values.size(); ++i) {
        if (david ? values[i].second > values[best].second : values[i].second < values[best].second)
          best = i;
      }
      a = values[best].first;
      if (s.phase == Phase::kGod) {
        const bool reroll = a != act::kAccept;
        const double gain = values[best].second - values[0].second;  // values[0] is accept
        log.decisions.push_back({situation(game, s), {reroll, gain}});
        log.decision_rolls.push_back(s.roll);
        if (reroll) {
          log.god_turn = s.turn;
          log.god_roll = s.roll;
        }
      }
    }
    apply_any(game, s, a);
  }
  log.david_won = game.is_terminal(s) && s.winner == kDavid;
  log.cut = !game.is_terminal(s);
  return log;
}

// ---------------------------------------------------------------------------------------------
// SVG.

std::string colour(double v) {
  // 0 (Goliath wins) dark red, 0.5 pale yellow, 1 (David wins) dark green.
  v = std::clamp(v, 0.0, 1.0);
  int r, g, b;
  if (v < 0.5) {
    const double t = v / 0.5;
    r = static_cast<int>(165 + t * (255 - 165));
    g = static_cast<int>(0 + t * 255);
    b = static_cast<int>(38 + t * (191 - 38));
  } else {
    const double t = (v - 0.5) / 0.5;
    r = static_cast<int>(255 - t * (255 - 0));
    g = static_cast<int>(255 - t * (255 - 104));
    b = static_cast<int>(191 - t * (191 - 55));
  }
  char text[16];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", r, g, b);
  return text;
}

// David's win probability, David to declare, for every David position with Goliath fixed.  The
// colours span the values on this map (they differ by a few points across the board, so a fixed
// 0-1 scale would paint one flat colour), with a labelled colour bar under the board.
std::string heat_map_svg(const DuelSolution& solution, const DuelState& goliath_at,
                         std::uint8_t flags, const std::string& title, double* min_out,
                         double* max_out) {
  const DuelGame& game = solution.game();
  const int scale = 16;  // pixels per cm
  const int board = game.rules().board_cm;
  const int margin = 40;
  const int bar_height = 14, legend_height = 60;
  const double pitch = game.rules().pitch_cm;
  struct Cell {
    double x, y, value;
  };
  std::vector<Cell> cells;
  double lo = 1, hi = 0;
  DuelState s = goliath_at;
  s.phase = Phase::kDeclare;
  s.actor = kDavid;
  s.roll = Roll::kNone;
  s.flags = flags;
  for (int y = 0; y < game.lattice_height(kDavid); ++y) {
    for (int x = 0; x < game.lattice_width(kDavid); ++x) {
      s.david_x = static_cast<std::uint8_t>(x);
      s.david_y = static_cast<std::uint8_t>(y);
      if (game.centre_distance2(s) <
          static_cast<std::int64_t>(game.rules().david_base_mm + game.rules().goliath_base_mm) *
              (game.rules().david_base_mm + game.rules().goliath_base_mm)) {
        continue;
      }
      const auto i = solution.index().index_of(s);
      if (!i) continue;
      const double v = solution.values()[*i];
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      cells.push_back({game.centre_x(kDavid, x) / 20.0, game.centre_y(kDavid, y) / 20.0, v});
    }
  }
  if (cells.empty()) lo = hi = 0;
  // The scale: the data's range, widened to at least 0.01 so that noise is not painted as news.
  double scale_lo = lo, scale_hi = hi;
  if (scale_hi - scale_lo < 0.01) {
    const double mid = 0.5 * (lo + hi);
    scale_lo = std::max(0.0, mid - 0.005);
    scale_hi = scale_lo + 0.01;
  }
  auto shade = [&](double v) { return colour((v - scale_lo) / (scale_hi - scale_lo)); };

  std::ostringstream svg;
  const char* const caption = "David's win probability on this map (north is up)";
  constexpr double kGlyph = 0.6 * 12;  // estimated width of a 12-unit glyph
  const double width = std::max(
      {static_cast<double>(board * scale + 2 * margin),
       2 * margin + kGlyph * static_cast<double>(title.size()),
       2 * margin + kGlyph * static_cast<double>(std::char_traits<char>::length(caption))});
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\""
      << board * scale + 2 * margin + legend_height
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"" << margin << "\" y=\"20\">" << title << "</text>\n";
  svg << "<rect x=\"" << margin << "\" y=\"" << margin << "\" width=\"" << board * scale
      << "\" height=\"" << board * scale << "\" fill=\"#dddddd\" stroke=\"black\"/>\n";
  for (const Cell& c : cells) {
    svg << "<rect x=\"" << margin + (c.x - pitch / 2) * scale << "\" y=\""
        << margin + (board - c.y - pitch / 2) * scale << "\" width=\"" << pitch * scale
        << "\" height=\"" << pitch * scale << "\" fill=\"" << shade(c.value) << "\"><title>"
        << c.value << "</title></rect>\n";
  }
  const double gx = game.centre_x(kGoliath, s.goliath_x) / 20.0,
               gy = game.centre_y(kGoliath, s.goliath_y) / 20.0;
  svg << "<circle cx=\"" << margin + gx * scale << "\" cy=\"" << margin + (board - gy) * scale
      << "\" r=\"" << game.rules().goliath_base_mm / 20.0 * scale
      << "\" fill=\"none\" stroke=\"black\" stroke-width=\"2\"/>\n";
  svg << "<text x=\"" << margin + gx * scale << "\" y=\"" << margin + (board - gy) * scale + 4
      << "\" text-anchor=\"middle\">G</text>\n";
  // Colour bar: the scale's range in 20 steps, with its ends and middle labelled.
  const int ly = margin + board * scale + 10;
  const double bar_width = board * scale;
  constexpr int kSteps = 20;
  for (int k = 0; k < kSteps; ++k) {
    svg << "<rect x=\"" << margin + k * bar_width / kSteps << "\" y=\"" << ly << "\" width=\""
        << bar_width / kSteps + 0.5 << "\" height=\"" << bar_height << "\" fill=\""
        << colour((k + 0.5) / kSteps) << "\"/>\n";
  }
  svg << "<rect x=\"" << margin << "\" y=\"" << ly << "\" width=\"" << bar_width << "\" height=\""
      << bar_height << "\" fill=\"none\" stroke=\"#555\"/>\n";
  const std::pair<double, const char*> ticks[] = {{0.0, "start"}, {0.5, "middle"}, {1.0, "end"}};
  for (const auto& [t, anchor] : ticks) {
    const double x = margin + t * bar_width;
    svg << "<line x1=\"" << x << "\" y1=\"" << ly + bar_height << "\" x2=\"" << x << "\" y2=\""
        << ly + bar_height + 4 << "\" stroke=\"#555\"/>\n";
    char label[32];
    std::snprintf(label, sizeof label, "%.1f%%", 100 * (scale_lo + t * (scale_hi - scale_lo)));
    svg << "<text x=\"" << x << "\" y=\"" << ly + bar_height + 16 << "\" text-anchor=\"" << anchor
        << "\">" << label << "</text>\n";
  }
  svg << "<text x=\"" << margin << "\" y=\"" << ly + bar_height + 34 << "\">" << caption
      << "</text>\n";
  svg << "</svg>\n";
  *min_out = lo;
  *max_out = hi;
  return svg.str();
}

// Horizontal bars, one per row with its whole label on the left, so long labels never collide.
std::string bar_chart_svg(const std::vector<std::pair<std::string, double>>& bars,
                          const std::string& title) {
  constexpr double kFont = 11, kGlyph = 0.6 * kFont, kRow = 22, kBarLength = 320, kMargin = 20;
  std::size_t longest = 0;
  for (const auto& b : bars) longest = std::max(longest, b.first.size());
  const double label_width = kGlyph * static_cast<double>(longest) + 10;
  double top = 0;
  for (const auto& b : bars) top = std::max(top, b.second);
  if (top <= 0) top = 1;
  const double width = std::max(kMargin * 2 + label_width + kBarLength + 60,
                                kMargin * 2 + kGlyph * static_cast<double>(title.size()));
  const double height = 40 + kRow * static_cast<double>(bars.size()) + kMargin;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"" << kFont << "\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"" << kMargin << "\" y=\"20\">" << title << "</text>\n";
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const double y = 36 + kRow * static_cast<double>(i);
    const double length = bars[i].second / top * kBarLength;
    svg << "<text x=\"" << kMargin + label_width - 6 << "\" y=\"" << y + 12
        << "\" text-anchor=\"end\">" << bars[i].first << "</text>\n";
    svg << "<rect x=\"" << kMargin + label_width << "\" y=\"" << y << "\" width=\"" << length
        << "\" height=\"" << kRow - 6 << "\" fill=\"#4477aa\"/>\n";
    char value[32];
    std::snprintf(value, sizeof value, "%.1f%%", 100 * bars[i].second);
    svg << "<text x=\"" << kMargin + label_width + length + 4 << "\" y=\"" << y + 12 << "\">"
        << value << "</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

std::string pct(double v, int digits = 1) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f%%", digits, 100 * v);
  return text;
}
std::string num(double v, int digits = 4) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

AgentPtr<DuelGame> study_agent(const DuelGame& game, const std::string& spec,
                               const std::string& file, bool allow_uncertified) {
  const AgentSpec parsed = parse_agent_spec(spec);
  if (parsed.name == "solver") {
    AgentSpec with_file = parsed;
    if (!with_file.options.count("file")) with_file.options["file"] = file;
    if (allow_uncertified && !with_file.options.count("allow_uncertified"))
      with_file.options["allow_uncertified"] = "1";
    return make_duel_solver_agent(game, with_file);
  }
  return make_agent(game, spec);
}

}  // namespace

// "In short": a few plain sentences drawn from the numbers, for a player at the table.
void write_advice(std::ostream& md, const GodStudyResult& result, const SolveSummary& summary,
                  double n) {
  std::vector<std::pair<std::int64_t, Roll>> uses;
  std::vector<Roll> never;
  for (Roll roll : kStudiedRolls) {
    const RollStudy& r = result.by_roll[static_cast<std::size_t>(roll)];
    if (r.rerolled > 0) uses.push_back({r.rerolled, roll});
    if (r.offered > 0 && r.rerolled * 1000 < r.offered) never.push_back(roll);
  }
  std::sort(uses.rbegin(), uses.rend());
  md << "## In short\n\n";
  md << "God is worth " << pct(summary.start - summary.start_without_god, 1)
     << " of win probability to David: with best play he wins " << pct(summary.start, 1)
     << " of games with God and " << pct(summary.start_without_god, 1) << " without. ";
  md << "Save God: optimal David spends it in " << pct(result.god_used_games / n, 0)
     << " of games and keeps it through most rolls";
  if (!uses.empty()) {
    md << ". Spend it on ";
    std::int64_t covered = 0;
    for (std::size_t k = 0; k < uses.size() && k < 4; ++k) {
      md << (k == 0                                           ? ""
             : k + 1 == std::min<std::size_t>(uses.size(), 4) ? " or "
                                                              : ", ")
         << roll_advice(uses[k].second);
      covered += uses[k].first;
    }
    md << " (together "
       << pct(static_cast<double>(covered) / std::max<std::int64_t>(1, result.god_used_games), 0)
       << " of the times optimal David invokes God)";
  }
  if (!never.empty()) {
    md << "; never on ";
    for (std::size_t k = 0; k < never.size() && k < 4; ++k) {
      md << (k == 0                                            ? ""
             : k + 1 == std::min<std::size_t>(never.size(), 4) ? " or "
                                                               : ", ")
         << roll_advice(never[k]);
    }
  }
  md << ".\n\n";
}

void write_rules_of_thumb(std::ostream& md, const GodStudyResult& result,
                          std::map<Roll, std::map<std::string, SituationStats>>& situations,
                          double n) {
  md << "## The optimal policy as rules of thumb\n\n"
     << "The rolls on which optimal David spends God, the most valuable first, each with the "
        "situations that decide it (how often God is spent there when the situation arises, and "
        "the win probability it adds).\n\n";
  std::vector<std::pair<double, Roll>> ranked;
  for (Roll roll : kStudiedRolls) {
    const RollStudy& r = result.by_roll[static_cast<std::size_t>(roll)];
    ranked.push_back({r.gain / n, roll});
  }
  std::sort(ranked.rbegin(), ranked.rend());
  int rule = 1;
  for (const auto& [gain_per_game, roll] : ranked) {
    const RollStudy& r = result.by_roll[static_cast<std::size_t>(roll)];
    if (r.rerolled == 0 || rule > 5) continue;
    // The rule names outcomes ("David killed", "recovers"), not exact dice: situations are
    // grouped by the outcome in their parentheses and the rest of their context.
    std::map<std::string, SituationStats> by_outcome;
    for (const auto& [key, st] : situations[roll]) {
      const auto open = key.find('('), close = key.find(')');
      std::string outcome =
          open == std::string::npos ? key : key.substr(open + 1, close - open - 1);
      if (close != std::string::npos && close + 1 < key.size()) outcome += key.substr(close + 1);
      if (roll == Roll::kGoliathMove || roll == Roll::kDavidMove || roll == Roll::kSearch)
        outcome = key;
      SituationStats& o = by_outcome[outcome];
      o.offered += st.offered;
      o.rerolled += st.rerolled;
      o.gain += st.gain;
    }
    std::vector<std::pair<std::string, SituationStats>> rows(by_outcome.begin(), by_outcome.end());
    std::sort(rows.begin(), rows.end(),
              [](const auto& a, const auto& b) { return a.second.rerolled > b.second.rerolled; });
    std::string when;
    int listed = 0;
    for (const auto& [key, st] : rows) {
      if (st.rerolled == 0 || listed >= 3) continue;
      when += std::string(listed ? "; " : "") + key + ": God spent " +
              pct(static_cast<double>(st.rerolled) / st.offered, 0) + " of the times, +" +
              pct(st.gain / static_cast<double>(st.rerolled), 1);
      ++listed;
    }
    md << rule++ << ". **" << roll_title(roll) << "** (re-roll " << roll_advice(roll)
       << "): God is spent here in " << pct(r.rerolled / n, 1) << " of games ("
       << pct(static_cast<double>(r.rerolled) / std::max<std::int64_t>(1, result.god_used_games), 0)
       << " of all uses), adding " << pct(r.gain / static_cast<double>(r.rerolled), 1)
       << " win probability on average. Situations: " << when << ".\n";
  }
  std::string never;
  for (Roll roll : kStudiedRolls) {
    const RollStudy& r = result.by_roll[static_cast<std::size_t>(roll)];
    if (r.offered > 0 && r.rerolled * 1000 < r.offered)
      never += (never.empty() ? "" : ", ") + roll_title(roll);
  }
  if (!never.empty())
    md << rule << ". **Almost never** (under 0.1% of the times offered): " << never << ".\n";
  md << "\n";
}

GodStudyResult write_god_study(const DuelSolution& solution, const GodStudyOptions& options,
                               const std::string& out_dir) {
  if (options.games < 1) throw OptionError("the study needs at least one game");
  if (options.max_plies < 1) throw OptionError("the study's ply limit must be positive");
  const DuelGame& game = solution.game();
  if (!game.rules().god_enabled)
    throw RulesError("the God study needs rules with god_enabled true");
  std::filesystem::create_directories(out_dir);
  const SolveSummary& summary = solution.summary();

  // 1. Optimal-versus-optimal games, in parallel; game i's dice come from (seed, i) alone and the
  //    results are summed in game order, so the report is the same for any thread count.
  std::vector<GameLog> logs(static_cast<std::size_t>(options.games));
  tbb::task_arena arena(std::max(1, options.threads));
  const auto started = std::chrono::steady_clock::now();
  auto log = [&](const std::string& line) {
    if (!options.log) return;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    char stamp[32];
    std::snprintf(stamp, sizeof stamp, "[%6.1f s] ", seconds);
    options.log(stamp + line);
  };
  log("playing " + std::to_string(options.games) + " optimal games");
  {
    // Progress every tenth of the games, from whichever thread finishes the game that crosses it.
    std::atomic<int> finished{0};
    std::mutex log_mutex;
    const int tenth = std::max(1, options.games / 10);
    arena.execute([&] {
      tbb::parallel_for(0, options.games, [&](int i) {
        logs[static_cast<std::size_t>(i)] = play_optimal(
            solution, Rng(options.seed, 0x676f64).derive(static_cast<std::uint64_t>(i)).next(),
            options.max_plies);
        const int done = ++finished;
        if (done % tenth == 0 && done < options.games) {
          const std::lock_guard<std::mutex> lock(log_mutex);
          log("  " + std::to_string(done) + " of " + std::to_string(options.games) + " games");
        }
      });
    });
  }
  GodStudyResult result;
  result.games = options.games;
  result.by_roll.resize(16);
  result.use_by_turn.assign(kTurnBuckets, 0);
  std::map<Roll, std::map<std::string, SituationStats>> situations;
  std::map<Roll, std::vector<std::int64_t>> use_turns;
  std::int64_t ended_plies = 0;
  for (const GameLog& log : logs) {
    result.david_wins += log.david_won;
    result.cut_games += log.cut;
    if (!log.cut) ended_plies += log.plies;
    result.max_plies = std::max(result.max_plies, log.plies);
    for (std::size_t k = 0; k < log.decisions.size(); ++k) {
      const Roll roll = log.decision_rolls[k];
      RollStudy& r = result.by_roll[static_cast<std::size_t>(roll)];
      SituationStats& st = situations[roll][log.decisions[k].first];
      ++r.offered;
      ++st.offered;
      if (log.decisions[k].second.first) {
        ++r.rerolled;
        ++st.rerolled;
        r.gain += log.decisions[k].second.second;
        st.gain += log.decisions[k].second.second;
      }
    }
    if (log.god_turn >= 0) {
      ++result.god_used_games;
      ++result.use_by_turn[static_cast<std::size_t>(turn_bucket(log.god_turn))];
      auto& turns = use_turns[log.god_roll];
      turns.resize(kTurnBuckets);
      ++turns[static_cast<std::size_t>(turn_bucket(log.god_turn))];
    }
  }
  const double n = options.games;
  if (result.cut_games < options.games)
    result.mean_plies = static_cast<double>(ended_plies) / (options.games - result.cut_games);

  log("drawing the heat maps and charts");
  // 2. Heat maps.
  struct Map {
    std::string file, caption;
    double lo, hi;
  };
  std::vector<Map> maps;
  DuelState goliath_start = game.initial_state();
  DuelState goliath_centre = goliath_start;
  goliath_centre.goliath_y = static_cast<std::uint8_t>((game.lattice_height(kGoliath) - 1) / 2);
  for (int where = 0; where < 2; ++where) {
    for (int god = 1; god >= 0; --god) {
      for (int stone = 0; stone < 2; ++stone) {
        const std::uint8_t flags =
            static_cast<std::uint8_t>(kGoliathShield | kGoliathJavelin | (god ? kGodAvailable : 0) |
                                      (stone ? kDavidHasStone : 0));
        const std::string file = std::string("heat-") + (where ? "centre" : "north") +
                                 (god ? "-god" : "-nogod") + (stone ? "-stone" : "-nostone") +
                                 ".svg";
        const std::string caption =
            std::string("Goliath ") + (where ? "at the centre" : "at his start") +
            " (shield, javelin), David to act, " + (stone ? "with a stone" : "no stone") + ", " +
            (god ? "God available" : "God used");
        Map m{file, caption, 0, 0};
        write_file_atomic((std::filesystem::path(out_dir) / file).string(),
                          heat_map_svg(solution, where ? goliath_centre : goliath_start, flags,
                                       caption, &m.lo, &m.hi));
        maps.push_back(m);
      }
    }
  }

  // 3. When God is used.
  std::vector<std::pair<std::string, double>> turn_bars;
  for (int b = 0; b < kTurnBuckets; ++b)
    turn_bars.push_back({kTurnBucketNames[b], result.use_by_turn[static_cast<std::size_t>(b)] / n});
  write_file_atomic(
      (std::filesystem::path(out_dir) / "god-turn.svg").string(),
      bar_chart_svg(turn_bars, "Turn in which optimal David invokes God (share of all games)"));
  std::vector<std::pair<std::string, double>> roll_bars;
  for (Roll roll : kStudiedRolls) {
    const RollStudy& r = result.by_roll[static_cast<std::size_t>(roll)];
    if (r.rerolled > 0) roll_bars.push_back({roll_title(roll), r.rerolled / n});
  }
  write_file_atomic(
      (std::filesystem::path(out_dir) / "god-roll.svg").string(),
      bar_chart_svg(roll_bars, "Roll on which optimal David invokes God (share of all games)"));

  if (!options.agents.empty() && options.matchup_games > 0) {
    log("playing the matchups: " + std::to_string(options.agents.size() * options.agents.size()) +
        " pairs of agents, " + std::to_string(options.matchup_games) + " games each");
  }
  // 4. Matchups.
  struct Matchup {
    std::string david, goliath;
    int wins = 0, games = 0;
    Interval ci;
  };
  std::vector<Matchup> matchups;
  if (options.matchup_games > 0) {
    for (const std::string& d : options.agents) {
      for (const std::string& g : options.agents) {
        Matchup m{d, g, 0, options.matchup_games, {}};
        std::vector<int> winners(static_cast<std::size_t>(options.matchup_games), -1);
        arena.execute([&] {
          tbb::parallel_for(0, options.matchup_games, [&](int i) {
            auto david = study_agent(game, d, options.solution_file, options.allow_uncertified);
            auto goliath = study_agent(game, g, options.solution_file, options.allow_uncertified);
            const GameResult r =
                play_game(game, *david, *goliath, match_game_seed(options.seed, i));
            if (!r.error.empty()) throw SlingError("matchup " + d + " vs " + g + ": " + r.error);
            winners[static_cast<std::size_t>(i)] = r.winner;
          });
        });
        for (int w : winners) m.wins += w == kDavid;
        m.ci = wilson_interval(m.wins, m.games);
        matchups.push_back(m);
      }
    }
  }

  // 5. The report: plain advice first, the tables behind it in the appendix.
  std::ostringstream md, appendix;
  appendix << "By roll and turn (share of all games):\n\n| roll |";
  for (int b = 0; b < kTurnBuckets; ++b) appendix << " " << kTurnBucketNames[b] << " |";
  appendix << "\n|---|";
  for (int b = 0; b < kTurnBuckets; ++b) appendix << "---|";
  appendix << "\n";
  for (const auto& [roll, turns] : use_turns) {
    appendix << "| " << roll_title(roll) << " |";
    for (int b = 0; b < kTurnBuckets; ++b)
      appendix << " " << pct(turns[static_cast<std::size_t>(b)] / n, 2) << " |";
    appendix << "\n";
  }
  appendix << "\n";

  appendix << "### Each kind of roll: when a re-roll is optimal\n\n";
  appendix
      << "*Offered* counts the rolls after which David still had God (per game, optimal play); "
         "*re-rolled* is how "
         "often optimal play spent God there; *gain* is the exact win probability a re-roll adds "
         "over "
         "accepting, averaged over the re-rolls.\n\n";
  appendix << "| roll | offered per game | re-rolled (share of games) | mean gain per re-roll "
              "|\n|---|---|---|---|\n";
  for (Roll roll : kStudiedRolls) {
    const RollStudy& r = result.by_roll[static_cast<std::size_t>(roll)];
    appendix << "| " << roll_title(roll) << " | " << num(r.offered / n, 2) << " | "
             << pct(r.rerolled / n, 2) << " | "
             << (r.rerolled ? num(r.gain / static_cast<double>(r.rerolled), 4) : std::string("-"))
             << " |\n";
  }
  appendix << "\n";
  for (Roll roll : kStudiedRolls) {
    auto& table = situations[roll];
    std::vector<std::pair<std::string, SituationStats>> rows(table.begin(), table.end());
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
      return a.second.rerolled != b.second.rerolled ? a.second.rerolled > b.second.rerolled
                                                    : a.second.offered > b.second.offered;
    });
    appendix << "#### " << roll_title(roll) << "\n\n";
    const RollStudy& r = result.by_roll[static_cast<std::size_t>(roll)];
    if (r.offered == 0) {
      appendix << "Never met with God available in the simulated games.\n\n";
      continue;
    }
    if (r.rerolled == 0) {
      appendix << "Optimal play never re-rolled this roll (" << r.offered << " times offered).\n\n";
      continue;
    }
    appendix << "| situation | arises (per game) | re-rolled when it arises | mean gain "
                "|\n|---|---|---|---|\n";
    int shown = 0;
    SituationStats rest;
    for (const auto& [key, st] : rows) {
      if (st.rerolled == 0 || shown >= 12) {
        rest.offered += st.offered;
        rest.rerolled += st.rerolled;
        rest.gain += st.gain;
        continue;
      }
      appendix << "| " << key << " | " << num(st.offered / n, 4) << " | "
               << pct(static_cast<double>(st.rerolled) / st.offered, 1) << " | "
               << num(st.gain / static_cast<double>(st.rerolled), 4) << " |\n";
      ++shown;
    }
    if (rest.offered > 0) {
      appendix << "| every other situation of this roll | " << num(rest.offered / n, 4) << " | "
               << pct(static_cast<double>(rest.rerolled) / rest.offered, 1) << " | "
               << (rest.rerolled ? num(rest.gain / static_cast<double>(rest.rerolled), 4)
                                 : std::string("-"))
               << " |\n";
    }
    appendix << "\n";
  }

  md << "# When should David invoke God?\n\n";
  write_advice(md, result, summary, n);
  md << "An exact study of the duel (rules: board " << game.rules().board_cm
     << " cm, lattice pitch " << game.rules().pitch_cm
     << " cm; every other rule at the values below). Every number marked *exact* "
     << "comes from the solution; every frequency comes from " << options.games
     << " simulated games with both sides playing the solved optimal policies (seed "
     << options.seed
     << "), so it carries sampling error (a share p measured over N games has a standard error "
        "of sqrt(p(1-p)/N)).\n\n";
  md << "## Headline (exact)\n\n";
  md << "| | with God | without God |\n|---|---|---|\n";
  md << "| David's win probability at the start | " << num(summary.start, 6) << " | "
     << num(summary.start_without_god, 6) << " |\n";
  md << "| ... David acts first | " << num(summary.david_first, 6) << " | "
     << num(summary.david_first_without_god, 6) << " |\n";
  md << "| ... Goliath acts first | " << num(summary.goliath_first, 6) << " | "
     << num(summary.goliath_first_without_god, 6) << " |\n";
  auto verdict = [](bool certified) { return certified ? "" : " **not certified**"; };
  md << "| certified bracket | [" << num(summary.lower_bound, 8) << ", "
     << num(summary.upper_bound, 8) << "]" << verdict(summary.certified) << " | ["
     << num(summary.lower_bound_without_god, 8) << ", " << num(summary.upper_bound_without_god, 8)
     << "]" << verdict(summary.certified_without_god) << " |\n\n";
  if (!solution.certified()) {
    md << "**Warning: this solution is " << solution.certificate_problem()
       << ".** Its values are estimates, not certified results (studied with "
          "`--allow-uncertified`).\n\n";
  }
  md << "**The value of God** (the difference at the start): **"
     << num(summary.start - summary.start_without_god, 6)
     << "** win probability: God multiplies David's chances by "
     << num(summary.start / std::max(1e-12, summary.start_without_god), 2) << ".\n\n";
  {
    // The exact value against the simulated rate: a game cut at the ply limit is neither a win
    // nor a loss, so the rate is bracketed by counting the cut games as losses and as wins.
    const Interval ci = wilson_interval(result.david_wins, options.games);
    const double se = std::sqrt(summary.start * (1 - summary.start) / n);
    md << "Simulated optimal games: David won " << pct(result.david_wins / n, 2) << " (95 % ["
       << pct(ci.low, 2) << ", " << pct(ci.high, 2) << "]; exact: " << pct(summary.start, 2) << ", "
       << num((result.david_wins / n - summary.start) / se, 2)
       << " standard errors away); God was invoked in " << pct(result.god_used_games / n, 1)
       << " of the games. The games that ended lasted " << num(result.mean_plies, 0)
       << " plies (decisions and dice) on average, the longest " << result.max_plies;
    if (result.cut_games > 0) {
      md << "; " << result.cut_games << " games reached the limit of " << options.max_plies
         << " plies and were stopped (counted as no David win; counted as David wins the rate "
            "would be "
         << pct((result.david_wins + result.cut_games) / n, 2) << ")";
    }
    md << ".\n\n";
  }

  md << "## When in the game God is used\n\n![turn](god-turn.svg)\n\n![roll](god-roll.svg)\n\n";
  md << "| turn | share of games in which God is used then |\n|---|---|\n";
  for (int b = 0; b < kTurnBuckets; ++b)
    md << "| " << kTurnBucketNames[b] << " | "
       << pct(result.use_by_turn[static_cast<std::size_t>(b)] / n, 2) << " |\n";
  md << "| never | " << pct(1 - result.god_used_games / n, 2) << " |\n\n";
  // The rules of thumb, then the tables behind them in the appendix.
  write_rules_of_thumb(md, result, situations, n);
  md << "## Where David stands: heat maps (exact)\n\n";
  md << "Each map fixes Goliath (black circle) with shield and javelin and colours every David "
        "position by "
        "David's optimal win probability with David to act.\n\n";
  for (const Map& m : maps) {
    md << "- " << m.caption << ": from " << num(m.lo, 3) << " to " << num(m.hi, 3)
       << "\n\n  ![map](" << m.file << ")\n\n";
  }

  if (!matchups.empty()) {
    md << "## Matchups\n\nDavid's win rate (95% Wilson interval), " << options.matchup_games
       << " games each; rows are David's agent, columns Goliath's. `solver` plays the exact "
          "solution.\n\n| David \\ Goliath |";
    for (const std::string& g : options.agents) md << " " << g << " |";
    md << "\n|---|";
    for (std::size_t k = 0; k < options.agents.size(); ++k) md << "---|";
    md << "\n";
    std::size_t k = 0;
    for (const std::string& d : options.agents) {
      md << "| " << d << " |";
      for (std::size_t j = 0; j < options.agents.size(); ++j, ++k) {
        const Matchup& m = matchups[k];
        md << " " << pct(static_cast<double>(m.wins) / m.games, 1) << " [" << pct(m.ci.low, 1)
           << ", " << pct(m.ci.high, 1) << "] |";
      }
      md << "\n";
    }
    md << "\n";
  }
  md << "## Appendix: the tables behind the advice\n\n" << appendix.str();
  md << "## Method\n\nThe solution (`sling solve duel`, docs/solver.md): " << summary.states
     << " declare states, " << summary.layers << " layers, " << summary.sweeps << " sweeps, "
     << num(summary.seconds, 1) << " s. "
     << "Convergence, per pass and layer (the largest change of the first, tenth and last "
        "sweep):\n\n"
     << "| pass | layer | sweeps | first | 10th | last | certified "
        "|\n|---|---|---|---|---|---|---|\n";
  for (const PassReport& p : summary.passes) {
    auto change = [&](std::size_t k) {
      if (p.max_change.empty()) return std::string("-");
      char text[32];
      std::snprintf(text, sizeof text, "%.2e", p.max_change[std::min(k, p.max_change.size() - 1)]);
      return std::string(text);
    };
    md << "| " << p.pass << " | " << p.layer << " | " << p.sweeps << " | " << change(0) << " | "
       << change(9) << " | " << change(p.max_change.size() - 1) << " | "
       << (p.certified ? "yes" : "NO") << " |\n";
  }
  md << "\nRules:\n\n```json\n" << game.rules_json() << "\n```\n";
  write_file_atomic((std::filesystem::path(out_dir) / "report.md").string(), md.str());
  return result;
}

}  // namespace sling::duel
