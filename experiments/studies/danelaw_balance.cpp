#include "experiments/studies/danelaw_balance.h"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "agents/registry.h"
#include "engine/core/io.h"
#include "experiments/play_game.h"

namespace sling::danelaw {

std::vector<BalanceVariant> default_balance_variants(const DanelawRules& base) {
  std::vector<BalanceVariant> out;
  auto add = [&](std::string name, auto change) {
    DanelawRules rules = base;
    change(rules);
    out.push_back({std::move(name), rules});
  };
  add("default", [](DanelawRules&) {});
  add("+10 Danes", [](DanelawRules& r) { r.danes_extra = true; });
  for (int limit : {12, 36, 48}) {
    add("turn limit " + std::to_string(limit), [=](DanelawRules& r) { r.turn_limit = limit; });
  }
  for (int towns : {13, 11, 9}) {
    add("towns needed " + std::to_string(towns), [=](DanelawRules& r) { r.towns_to_win = towns; });
  }
  for (int towns : {13, 11}) {
    add("+10 Danes, towns needed " + std::to_string(towns), [=](DanelawRules& r) {
      r.danes_extra = true;
      r.towns_to_win = towns;
    });
  }
  return out;
}

namespace {

struct GameSummary {
  bool danes_won = false;
  int final_towns = 0, peak_towns = 0, peak_turn = 0;
  int danes_lost = 0, english_lost = 0;
  bool wiped_out = false;
};

std::array<int, 2> armies_of(const State& s) {
  std::array<int, 2> count = {s.pool[kDanes] + s.to_place, s.pool[kEnglish]};
  for (int i = 0; i < s.army_count; ++i) ++count[s.armies[i].side];
  return count;
}

GameSummary summarise(const DanelawGame& game, const GameResult& result) {
  GameSummary g;
  State s = game.initial_state();
  // Armies are counted after the Danes' placement (placing moves armies, it destroys none).
  const std::array<int, 2> start = armies_of(s);
  for (Action a : result.record.history) {
    apply_any(game, s, a);
    if (s.phase == Phase::kMovementDice) {
      const int towns = game.danish_town_count(s);
      if (towns > g.peak_towns) {
        g.peak_towns = towns;
        g.peak_turn = s.turn;
      }
    }
  }
  const std::array<int, 2> end = armies_of(s);
  g.danes_won = result.winner == kDanes;
  g.final_towns = game.danish_town_count(s);
  g.peak_towns = std::max(g.peak_towns, g.final_towns);
  g.danes_lost = start[kDanes] - end[kDanes];
  g.english_lost = start[kEnglish] - end[kEnglish];
  g.wiped_out = s.end_reason == EndReason::kDanesWipedOut;
  return g;
}

}  // namespace

BalanceResult run_balance_study(const std::vector<BalanceVariant>& variants,
                                const std::array<std::string, 2>& specs,
                                const BalanceOptions& options) {
  if (options.games < 1) throw OptionError("the balance study needs at least one game a variant");
  if (variants.empty()) throw OptionError("the balance study needs at least one variant");
  const auto start = std::chrono::steady_clock::now();
  BalanceResult result;
  tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
  for (const BalanceVariant& variant : variants) {
    const DanelawGame game(variant.rules);
    VariantOutcome outcome;
    outcome.variant = variant;
    outcome.agent_specs = {make_agent(game, specs[0])->spec(), make_agent(game, specs[1])->spec()};
    outcome.games = options.games;
    std::vector<GameSummary> games(static_cast<std::size_t>(options.games));
    struct Players {
      AgentPtr<DanelawGame> agents[2];
    };
    tbb::enumerable_thread_specific<Players> workers([&] {
      return Players{{make_agent(game, specs[0]), make_agent(game, specs[1])}};
    });
    arena.execute([&] {
      tbb::parallel_for(0, options.games, [&](int index) {
        Players& players = workers.local();
        const GameResult played = play_game(game, *players.agents[0], *players.agents[1],
                                            match_game_seed(options.seed, index));
        if (!played.error.empty()) throw SlingError("balance study game: " + played.error);
        games[index] = summarise(game, played);
      });
    });
    for (const GameSummary& g : games) {
      outcome.danish_wins += g.danes_won;
      outcome.mean_final_towns += g.final_towns;
      outcome.mean_peak_towns += g.peak_towns;
      outcome.mean_peak_turn += g.peak_turn;
      outcome.mean_danes_lost += g.danes_lost;
      outcome.mean_english_lost += g.english_lost;
      outcome.wiped_out += g.wiped_out;
    }
    const double n = options.games;
    outcome.mean_final_towns /= n;
    outcome.mean_peak_towns /= n;
    outcome.mean_peak_turn /= n;
    outcome.mean_danes_lost /= n;
    outcome.mean_english_lost /= n;
    outcome.interval = wilson_interval(outcome.danish_wins, options.games);
    result.variants.push_back(outcome);
  }
  for (std::size_t i = 1; i < result.variants.size(); ++i) {
    if (std::abs(result.variants[i].danish_win_rate() - 0.5) <
        std::abs(result.variants[result.closest].danish_win_rate() - 0.5)) {
      result.closest = static_cast<int>(i);
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

namespace {

std::string percent(double x) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", 100 * x);
  return buffer;
}

std::string fixed(double x, int digits = 1) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, x);
  return buffer;
}

}  // namespace

std::string balance_svg(const BalanceResult& result) {
  // Horizontal dot plot: one row per variant, the win rate with its 95% interval, 50% marked.
  const int row = 28, left = 230, width = 420, top = 50;
  const int height = top + row * static_cast<int>(result.variants.size()) + 40;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << left + width + 40 << "\" height=\""
      << height << "\" font-family=\"sans-serif\" font-size=\"13\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"10\" y=\"22\" font-size=\"15\">Danes' win rate by rule variant (95% "
         "interval)</text>\n";
  const int axis = top + row * static_cast<int>(result.variants.size());
  for (int tick = 0; tick <= 100; tick += 10) {
    const double x = left + width * tick / 100.0;
    svg << "<line x1=\"" << x << "\" y1=\"" << top - 10 << "\" x2=\"" << x << "\" y2=\"" << axis
        << "\" stroke=\"" << (tick == 50 ? "#c00" : "#ddd") << "\"/>\n"
        << "<text x=\"" << x - 10 << "\" y=\"" << axis + 18 << "\">" << tick << "%</text>\n";
  }
  for (std::size_t i = 0; i < result.variants.size(); ++i) {
    const VariantOutcome& v = result.variants[i];
    const double y = top + row * static_cast<double>(i) + row / 2.0;
    const bool closest = static_cast<int>(i) == result.closest;
    svg << "<text x=\"10\" y=\"" << y + 4 << "\"" << (closest ? " font-weight=\"bold\"" : "") << ">"
        << v.variant.name << "</text>\n"
        << "<line x1=\"" << left + width * v.interval.low << "\" y1=\"" << y << "\" x2=\""
        << left + width * v.interval.high << "\" y2=\"" << y
        << "\" stroke=\"#246\" stroke-width=\"3\"/>\n"
        << "<circle cx=\"" << left + width * v.danish_win_rate() << "\" cy=\"" << y
        << "\" r=\"5\" fill=\"" << (closest ? "#c60" : "#246") << "\"/>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

void write_balance_report(const BalanceResult& result, const BalanceOptions& options,
                          const std::string& command, const std::string& dir) {
  std::filesystem::create_directories(dir);
  const VariantOutcome& best = result.variants[result.closest];
  std::ostringstream md;
  md << "# Danelaw balance: which rules make a fair game?\n\n"
     << "**Answer.** Of the variants played, **" << best.variant.name << "** is closest to an even "
     << "game: the Danes win " << percent(best.danish_win_rate()) << " (95% interval "
     << percent(best.interval.low) << " to " << percent(best.interval.high) << ", " << best.games
     << " games).";
  const VariantOutcome& base = result.variants[0];
  md << " Under the default rules they win " << percent(base.danish_win_rate()) << " ("
     << percent(base.interval.low) << " to " << percent(base.interval.high) << ").\n\n"
     << "The Danes are played by `" << base.agent_specs[0] << "` (`" << options.agents[0]
     << "`), the English by `" << base.agent_specs[1] << "` (`" << options.agents[1]
     << "`); every variant plays the same " << options.games
     << " game seeds, so the dice are common across variants.\n\n"
     << "Reproduce: `" << command << "`\n\n"
     << "![Danes' win rate by variant](danes_win_rate.svg)\n\n"
     << "| variant | Danes win | 95% interval | towns at end | most towns held | at turn | "
        "Danes lost | English lost | Danes wiped out |\n"
     << "|---|---|---|---|---|---|---|---|---|\n";
  std::ostringstream csv;
  csv << "variant,pool,danes_extra,turn_limit,towns_to_win,games,danish_wins,low,high,"
         "final_towns,peak_towns,peak_turn,danes_lost,english_lost,wiped_out\n";
  for (const VariantOutcome& v : result.variants) {
    const DanelawRules& r = v.variant.rules;
    md << "| " << v.variant.name << " (" << r.danish_pool() << " v " << r.pool << ", "
       << r.turn_limit << " turns, " << r.towns_to_win << " towns) | "
       << percent(v.danish_win_rate()) << " | " << percent(v.interval.low) << " - "
       << percent(v.interval.high) << " | " << fixed(v.mean_final_towns) << " | "
       << fixed(v.mean_peak_towns) << " | " << fixed(v.mean_peak_turn) << " | "
       << fixed(v.mean_danes_lost) << " | " << fixed(v.mean_english_lost) << " | " << v.wiped_out
       << " |\n";
    csv << '"' << v.variant.name << "\"," << r.pool << ',' << r.danes_extra << ',' << r.turn_limit
        << ',' << r.towns_to_win << ',' << v.games << ',' << v.danish_wins << ',' << v.interval.low
        << ',' << v.interval.high << ',' << v.mean_final_towns << ',' << v.mean_peak_towns << ','
        << v.mean_peak_turn << ',' << v.mean_danes_lost << ',' << v.mean_english_lost << ','
        << v.wiped_out << "\n";
  }
  md << "\nColumns: towns at end and most towns held are means over the games (the most is taken "
        "at the start of each half-turn and at the end); *at turn* is the mean turn of that "
        "peak; armies lost are destroyed in battle (routs and placements excluded).\n";
  md << "\n" << result.seconds << " s of play.\n";
  write_file_atomic((std::filesystem::path(dir) / "report.md").string(), md.str());
  write_file_atomic((std::filesystem::path(dir) / "danes_win_rate.svg").string(),
                    balance_svg(result));
  write_file_atomic((std::filesystem::path(dir) / "variants.csv").string(), csv.str());
}

}  // namespace sling::danelaw
