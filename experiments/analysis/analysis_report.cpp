#include "experiments/analysis/analysis_report.h"

#include "engine/core/cereal_json.h"  // first: rapidjson failures become plain errors

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "engine/core/errors.h"
#include "engine/core/xml_text.h"
#include "experiments/analysis/json_fields.h"

namespace sling {

namespace {

std::string fixed(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

// Win probability as a percentage, and a change of it in points (signed).
std::string percent(double p) {
  return fixed(100 * p, 1) + " %";
}
std::string points(double change) {
  return (change >= 0 ? "+" : "") + fixed(100 * change, 1) + " points";
}

std::string capitalised(std::string text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 32);
  return text;
}

// "David's", "Danes'".
std::string possessive(const std::string& name) {
  return name + (!name.empty() && name.back() == 's' ? "'" : "'s");
}

std::string who(const GameAnalysis& a, int side) {
  const std::string name = capitalised(a.sides[static_cast<std::size_t>(side)]);
  const std::string& player = a.players[static_cast<std::size_t>(side)];
  return player.empty() ? name : name + " (" + player + ")";
}

std::string result_word(double result) {
  return result >= 0.75 ? "won" : (result <= 0.25 ? "lost" : "drew");
}

std::string totals_line(const GameAnalysis& a, int side) {
  const SideTotals& t = a.totals[static_cast<std::size_t>(side)];
  std::ostringstream out;
  out << who(a, side) << ": " << t.decisions << (t.decisions == 1 ? " decision, " : " decisions, ")
      << t.errors() << (t.errors() == 1 ? " error" : " errors");
  if (t.errors() > 0) {
    out << " (" << t.by_class[1] << " doubtful, " << t.by_class[2] << " bad, " << t.by_class[3]
        << " very bad)";
  }
  out << ", lost " << fixed(100 * t.total_loss, 1) << " points by them (mean "
      << fixed(100 * t.mean_loss(), 2) << " a decision); luck " << points(t.luck) << "; "
      << result_word(t.result) << " (" << fixed(t.result, 1) << "), " << fixed(t.adjusted, 3)
      << " adjusted for luck\n";
  return out.str();
}

std::string ply_line(const GameAnalysis& a, const PlyAnalysis& p) {
  std::ostringstream out;
  out << "  ply " << p.ply;
  if (p.turn > 0) out << ", turn " << p.turn;
  if (p.side < 0) {
    out << ": dice " << p.text << "  luck for " << capitalised(a.sides[0]) << " " << points(p.luck)
        << " (" << percent(p.expected) << " expected, " << percent(p.after) << " after)";
  } else {
    out << ": " << capitalised(a.sides[static_cast<std::size_t>(p.side)]) << " " << p.text;
    if (p.automatic) out << "  (answered automatically, not rated)";
    if (p.alternatives > 1) {
      out << "  " << percent(p.chosen);
      if (p.loss > 0 && !p.best_text.empty()) {
        out << ", best " << p.best_text << " " << percent(p.best) << ": " << points(-p.loss);
      }
      if (p.error != ErrorClass::kNone) {
        out << " (" << kErrorClassNames[static_cast<std::size_t>(p.error)] << ")";
      }
    }
  }
  out << "\n";
  return out.str();
}

}  // namespace

std::string analysis_text(const GameAnalysis& a, bool every_ply) {
  std::ostringstream out;
  // The plain answer first: who lost to the dice and who to their own decisions.
  const int luckier = a.totals[0].luck >= 0 ? 0 : 1;
  out << capitalised(a.game) << ": " << who(a, 0) << " against " << who(a, 1) << ", seed " << a.seed
      << ", " << a.plies.size() << " plies; " << (a.finished ? a.end_reason : "not over") << ".\n";
  out << capitalised(a.sides[0]) << " started at " << percent(a.start) << " and "
      << result_word(a.totals[0].result) << "; the dice gave "
      << capitalised(a.sides[static_cast<std::size_t>(luckier)]) << " "
      << points(std::abs(a.totals[0].luck)) << ", the decisions cost " << capitalised(a.sides[0])
      << " " << fixed(100 * a.totals[0].total_loss, 1) << " and " << capitalised(a.sides[1]) << " "
      << fixed(100 * a.totals[1].total_loss, 1) << " points.\n";
  out << "Values: " << a.source << (a.exact ? " (exact)" : "") << ".\n\n";
  out << totals_line(a, 0) << totals_line(a, 1);
  if (!a.exact) {
    out << "Value drift " << points(a.drift)
        << " (what the approximate values leave unexplained; 0 for exact values)\n";
  }
  if (every_ply) {
    out << "\nEvery ply:\n";
    for (const PlyAnalysis& p : a.plies) out << ply_line(a, p);
    return out.str();
  }
  std::string errors, rolls;
  for (const PlyAnalysis& p : a.plies) {
    if (p.side >= 0 && p.error != ErrorClass::kNone) errors += ply_line(a, p);
    if (p.side < 0 && std::abs(p.luck) >= kBigLuck) rolls += ply_line(a, p);
  }
  out << "\nErrors (a loss of at least " << fixed(100 * kErrorThresholds[0], 0) << " points):\n"
      << (errors.empty() ? "  none\n" : errors);
  out << "Big rolls (luck of at least " << fixed(100 * kBigLuck, 0) << " points either way):\n"
      << (rolls.empty() ? "  none\n" : rolls);
  return out.str();
}

namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

void write_totals(Writer& w, const SideTotals& t) {
  w.StartObject();
  write_field(w, "decisions", t.decisions);
  write_key(w, "errors");
  w.StartObject();
  for (std::size_t c = 1; c < 4; ++c) write_field(w, kErrorClassNames[c], t.by_class[c]);
  w.EndObject();
  write_field(w, "total_loss", t.total_loss);
  write_field(w, "mean_loss", t.mean_loss());
  write_field(w, "luck", t.luck);
  write_field(w, "result", t.result);
  write_field(w, "adjusted_result", t.adjusted);
  w.EndObject();
}

// A decision rated against the best action: both values, the loss between them and its class.
void write_rating(Writer& w, const PlyAnalysis& p) {
  write_field(w, "chosen", p.chosen);
  write_field(w, "best", p.best);
  write_field(w, "loss", p.loss);
  write_field(w, "best_action", p.best_action);
  write_field(w, "best_text", p.best_text);
  write_field(w, "error", kErrorClassNames[static_cast<std::size_t>(p.error)]);
}

void write_ply(Writer& w, const PlyAnalysis& p) {
  w.StartObject();
  write_field(w, "ply", p.ply);
  write_field(w, "side", p.side);
  if (p.turn > 0) write_field(w, "turn", p.turn);
  write_field(w, "action", p.action);
  write_field(w, "text", p.text);
  write_field(w, "before", p.before);
  write_field(w, "after", p.after);
  if (p.side < 0) {
    write_field(w, "expected", p.expected);
    write_field(w, "luck", p.luck);
  } else {
    write_field(w, "alternatives", p.alternatives);
    if (p.automatic) write_field(w, "automatic", true);
    write_rating(w, p);
  }
  w.EndObject();
}

}  // namespace

std::string analysis_json(const GameAnalysis& a) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.SetIndent(' ', 2);
  w.StartObject();
  write_field(w, "game", a.game);
  write_field(w, "seed", a.seed);
  write_key(w, "values");
  w.StartObject();
  write_field(w, "source", a.source);
  write_field(w, "exact", a.exact);
  w.EndObject();
  write_key(w, "sides");
  w.StartArray();
  for (std::size_t side = 0; side < 2; ++side) {
    w.StartObject();
    write_field(w, "side", a.sides[side]);
    write_field(w, "player", a.players[side]);
    write_key(w, "totals");
    write_totals(w, a.totals[side]);
    w.EndObject();
  }
  w.EndArray();
  write_field(w, "start", a.start);
  write_field(w, "result", a.result);
  write_field(w, "finished", a.finished);
  write_field(w, "end_reason", a.end_reason);
  write_field(w, "drift", a.drift);
  write_key(w, "plies");
  w.StartArray();
  for (const PlyAnalysis& p : a.plies) write_ply(w, p);
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

std::string analysis_svg(const GameAnalysis& a, const AnalysisSvgOptions& options) {
  const double kWidth = options.width, kHeight = options.height;
  const double kLeft = options.titles ? 70 : 48, kRight = options.titles ? 20 : 14;
  const double kTop = options.titles ? 50 : 10, kBottom = options.titles ? 80 : 42;
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  const double n = std::max<double>(1, static_cast<double>(a.plies.size()));
  auto x_of = [&](double ply) { return kLeft + plot_w * ply / n; };
  auto y_of = [&](double p) { return kTop + plot_h * (1 - p); };
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" viewBox=\"0 0 " << kWidth << " " << kHeight
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  if (options.titles) {
    out << "<text x=\"" << kLeft << "\" y=\"22\" font-size=\"15\" font-weight=\"bold\">"
        << xml_escaped(possessive(capitalised(a.sides[0])))
        << " win probability, ply by ply</text>\n"
        << "<text x=\"" << kLeft << "\" y=\"40\" fill=\"#555\">" << xml_escaped(who(a, 0))
        << " against " << xml_escaped(who(a, 1)) << "; values: " << xml_escaped(a.source)
        << "</text>\n";
  }
  for (int tick = 0; tick <= 4; ++tick) {
    const double y = y_of(tick / 4.0);
    out << "<line x1=\"" << kLeft << "\" x2=\"" << kLeft + plot_w << "\" y1=\"" << y << "\" y2=\""
        << y << "\" stroke=\"" << (tick == 2 ? "#999" : "#ddd") << "\"/>\n"
        << "<text x=\"" << kLeft - 8 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">" << tick * 25
        << " %</text>\n";
  }
  // Ply numbers every power of ten that leaves room for them (about 60 px each).
  double step = std::max(1.0, std::pow(10.0, std::floor(std::log10(n / 2))));
  while (plot_w * step / n < 60) {
    const double leading = step / std::pow(10.0, std::floor(std::log10(step)));
    step *= leading > 1.5 && leading < 2.5 ? 2.5 : 2;  // 1, 2, 5, 10, 20, 50, ...
  }
  for (double ply = 0; ply <= n; ply += step) {
    out << "<text x=\"" << x_of(ply) << "\" y=\"" << kTop + plot_h + 18
        << "\" text-anchor=\"middle\">" << static_cast<long long>(ply) << "</text>\n";
  }
  out << "<text x=\"" << kLeft + plot_w / 2 << "\" y=\"" << kTop + plot_h + 36
      << "\" text-anchor=\"middle\" fill=\"#555\">ply (decisions and dice)</text>\n";
  out << "<polyline fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"1.6\" points=\"" << x_of(0)
      << "," << y_of(a.start);
  for (const PlyAnalysis& p : a.plies) out << " " << x_of(p.ply) << "," << y_of(p.after);
  out << "\"/>\n";
  static constexpr const char* kErrorColours[] = {"", "#e0b000", "#e07000", "#d01010"};
  for (const PlyAnalysis& p : a.plies) {
    if (p.side >= 0 && p.error != ErrorClass::kNone) {
      out << "<circle cx=\"" << x_of(p.ply) << "\" cy=\"" << y_of(p.after) << "\" r=\"5\" fill=\""
          << kErrorColours[static_cast<int>(p.error)] << "\" stroke=\"black\" stroke-width=\"0.6\">"
          << "<title>ply " << p.ply << ": "
          << xml_escaped(a.sides[static_cast<std::size_t>(p.side)]) << " " << xml_escaped(p.text)
          << ", " << points(-p.loss) << "</title></circle>\n";
    } else if (p.side < 0 && std::abs(p.luck) >= kBigLuck) {
      const double x = x_of(p.ply), y = y_of(p.after), d = p.luck > 0 ? -6 : 6;
      out << "<path d=\"M" << x - 5 << "," << y - d / 2 << " L" << x + 5 << "," << y - d / 2 << " L"
          << x << "," << y + d / 2 << " Z\" fill=\"#2a9d4a\" stroke=\"black\" "
          << "stroke-width=\"0.6\"><title>ply " << p.ply << ": dice " << xml_escaped(p.text)
          << ", luck " << points(p.luck) << "</title></path>\n";
    }
  }
  if (!options.titles) {
    out << "</svg>\n";
    return out.str();
  }
  const double legend_y = kHeight - 10;
  const char* labels[] = {"doubtful", "bad", "very bad"};
  out << "<text x=\"" << kLeft << "\" y=\"" << legend_y << "\">decisions:</text>\n";
  double lx = kLeft + 80;
  for (int c = 1; c <= 3; ++c) {
    out << "<circle cx=\"" << lx + 5 << "\" cy=\"" << legend_y - 4 << "\" r=\"5\" fill=\""
        << kErrorColours[c] << "\" stroke=\"black\" stroke-width=\"0.6\"/><text x=\"" << lx + 14
        << "\" y=\"" << legend_y << "\">" << labels[c - 1] << "</text>\n";
    lx += 100;
  }
  out << "<path d=\"M" << lx << "," << legend_y - 7 << " L" << lx + 10 << "," << legend_y - 7
      << " L" << lx + 5 << "," << legend_y + 1 << " Z\" fill=\"#2a9d4a\"/><text x=\"" << lx + 14
      << "\" y=\"" << legend_y << "\">a roll worth " << fixed(100 * kBigLuck, 0)
      << " points or more, pointing the way it went</text>\n";
  out << "</svg>\n";
  return out.str();
}

std::vector<PlayerSummary> player_summaries(const std::vector<GameAnalysis>& analyses,
                                            const std::string& player) {
  std::map<std::string, PlayerSummary> by_name;
  std::vector<std::string> order;
  for (std::size_t g = 0; g < analyses.size(); ++g) {
    const GameAnalysis& a = analyses[g];
    for (std::size_t side = 0; side < 2; ++side) {
      const std::string name = a.players[side].empty()
                                   ? a.sides[side] + " of game " + std::to_string(g + 1)
                                   : a.players[side];
      if (!player.empty() && name != player) continue;
      auto [it, added] = by_name.try_emplace(name);
      if (added) order.push_back(name);
      PlayerSummary& s = it->second;
      s.player = name;
      ++s.games;
      const SideTotals& t = a.totals[side];
      s.totals.decisions += t.decisions;
      for (std::size_t c = 0; c < 4; ++c) s.totals.by_class[c] += t.by_class[c];
      s.totals.total_loss += t.total_loss;
      s.totals.luck += t.luck;
      s.totals.result += t.result;
      s.totals.adjusted += t.adjusted;
      s.expected += side == 0 ? a.start : 1 - a.start;
    }
  }
  if (!player.empty() && by_name.empty()) {
    throw OptionError("--player: '" + player + "' played none of these games");
  }
  std::vector<PlayerSummary> out;
  for (const std::string& name : order) out.push_back(by_name[name]);
  return out;
}

std::string players_text(const std::vector<PlayerSummary>& players, const std::string& source) {
  std::ostringstream out;
  for (const PlayerSummary& p : players) {
    const SideTotals& t = p.totals;
    // The plain answer: did the dice or the decisions decide the score?
    const double dice = t.luck, decisions = -t.total_loss;
    out << p.player << ": scored " << fixed(t.result, 1) << " of " << p.games << " games (an even "
        << "player from the same starts: " << fixed(p.expected, 1) << "); the dice gave "
        << points(dice) << ", the decisions cost " << fixed(100 * t.total_loss, 1)
        << " points: " << (std::abs(dice) > std::abs(decisions) ? "the dice" : "the decisions")
        << " weighed more.\n"
        << "  " << t.decisions << " decisions, " << t.errors() << " errors ("
        << fixed(t.decisions ? 100.0 * t.errors() / t.decisions : 0, 1) << " %: " << t.by_class[1]
        << " doubtful, " << t.by_class[2] << " bad, " << t.by_class[3] << " very bad), mean loss "
        << fixed(100 * t.mean_loss(), 2) << " points a decision; score adjusted for luck "
        << fixed(t.adjusted, 2) << "\n";
  }
  out << "Values: " << source << ".\n";
  return out.str();
}

std::string players_json(const std::vector<PlayerSummary>& players, const std::string& source) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.SetIndent(' ', 2);
  w.StartObject();
  write_field(w, "values", source);
  write_key(w, "players");
  w.StartArray();
  for (const PlayerSummary& p : players) {
    w.StartObject();
    write_field(w, "player", p.player);
    write_field(w, "games", p.games);
    write_field(w, "expected_score", p.expected);
    write_key(w, "totals");
    write_totals(w, p.totals);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

}  // namespace sling
