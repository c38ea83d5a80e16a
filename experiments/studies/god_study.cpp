#include "experiments/studies/god_study.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
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
#include "experiments/studies/god_study_svg.h"
#include "experiments/studies/god_study_words.h"
#include "solvers/duel/turn_expectation.h"

namespace sling::duel {

using namespace god_study;  // the study's words and figures

namespace {

struct GameLog {
  bool david_won = false;
  bool cut = false;          // stopped at the ply limit
  bool settled = false;      // stopped after settle_plies and scored at its exact value
  double settled_value = 0;  // that value (David's win probability)
  DuelState final_state;
  std::int64_t plies = 0;
  int god_turn = -1;
  Roll god_roll = Roll::kNone;
  std::vector<std::pair<std::string, std::pair<bool, double>>> decisions;  // key, (rerolled, gain)
  std::vector<Roll> decision_rolls;
};

// One optimal-versus-optimal game, recording each God decision.
GameLog play_optimal(const DuelSolution& solution, std::uint64_t seed, std::int64_t max_plies,
                     std::int64_t settle_plies) {
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
      const std::size_t best = best_index_of_actions(game, s, values);
      if (settle_plies > 0 && log.plies >= settle_plies) {
        log.settled = true;
        log.settled_value = values[best].second;
        break;
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
  log.cut = !game.is_terminal(s) && !log.settled;
  log.final_state = s;
  return log;
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

// Progress lines stamped with the seconds since the study began (nothing when options.log is
// unset).
class ProgressLog {
 public:
  explicit ProgressLog(const std::function<void(const std::string&)>& sink) : sink_(sink) {}
  void operator()(const std::string& line) const {
    if (!sink_) return;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    char stamp[32];
    std::snprintf(stamp, sizeof stamp, "[%6.1f s] ", seconds);
    sink_(stamp + line);
  }

 private:
  const std::function<void(const std::string&)>& sink_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

// Optimal-versus-optimal games, in parallel; game i's dice come from (seed, i) alone and the
// results are kept in game order, so the report is the same for any thread count.
std::vector<GameLog> play_optimal_games(const DuelSolution& solution,
                                        const GodStudyOptions& options, tbb::task_arena& arena,
                                        const ProgressLog& log) {
  std::vector<GameLog> logs(static_cast<std::size_t>(options.games));
  log("playing " + std::to_string(options.games) + " optimal games");
  // Progress every tenth of the games, from whichever thread finishes the game that crosses it.
  std::atomic<int> finished{0};
  std::mutex log_mutex;
  const int tenth = std::max(1, options.games / 10);
  arena.execute([&] {
    tbb::parallel_for(0, options.games, [&](int i) {
      logs[static_cast<std::size_t>(i)] = play_optimal(
          solution, Rng(options.seed, 0x676f64).derive(static_cast<std::uint64_t>(i)).next(),
          options.max_plies, options.settle_plies);
      const int done = ++finished;
      if (done % tenth == 0 && done < options.games) {
        const std::lock_guard<std::mutex> lock(log_mutex);
        log("  " + std::to_string(done) + " of " + std::to_string(options.games) + " games");
      }
    });
  });
  return logs;
}

// The God decisions of the simulated games, by kind of roll: per situation, and the turns in
// which God was spent on each.
struct DecisionTally {
  std::map<Roll, std::map<std::string, SituationStats>> situations;
  std::map<Roll, std::vector<std::int64_t>> use_turns;
};

// Sums the games' logs, in game order, into the result and the tally.
DecisionTally tally_games(const DuelGame& game, const std::vector<GameLog>& logs,
                          GodStudyResult& result) {
  DecisionTally tally;
  result.games = static_cast<int>(logs.size());
  result.by_roll.resize(16);
  result.use_by_turn.assign(kTurnBuckets, 0);
  std::int64_t ended_plies = 0;
  for (const GameLog& log : logs) {
    result.david_wins += log.david_won;
    result.cut_games += log.cut;
    if (!log.cut && !log.settled) ended_plies += log.plies;
    if (log.settled) {
      const DuelState& s = log.final_state;
      ++result.settled_games;
      result.settled_value += log.settled_value;
      result.settled_distance_cm.push_back(game.edge_distance_cm(s));
      result.settled_with_god += s.has(kGodAvailable);
      result.settled_with_shield += s.has(kGoliathShield);
      result.settled_with_javelin += s.has(kGoliathJavelin);
      result.settled_david_has_stone += s.has(kDavidHasStone);
    }
    if (!log.settled) result.max_plies = std::max(result.max_plies, log.plies);
    for (std::size_t k = 0; k < log.decisions.size(); ++k) {
      const Roll roll = log.decision_rolls[k];
      RollStudy& r = result.by_roll[static_cast<std::size_t>(roll)];
      SituationStats& st = tally.situations[roll][log.decisions[k].first];
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
      auto& turns = tally.use_turns[log.god_roll];
      turns.resize(kTurnBuckets);
      ++turns[static_cast<std::size_t>(turn_bucket(log.god_turn))];
    }
  }
  const int ended = result.games - result.cut_games - result.settled_games;
  if (ended > 0) result.mean_plies = static_cast<double>(ended_plies) / ended;
  return tally;
}

// A heat map's file, its caption and the range of its values.
struct HeatMap {
  std::string file, caption;
  double lo, hi;
};

// The heat maps of David's exact value, Goliath at his start and at the centre, with and without
// God and a stone.
std::vector<HeatMap> draw_heat_maps(const DuelSolution& solution, const std::string& out_dir) {
  const DuelGame& game = solution.game();
  std::vector<HeatMap> maps;
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
        HeatMap m{file, caption, 0, 0};
        write_file_atomic((std::filesystem::path(out_dir) / file).string(),
                          heat_map_svg(solution, where ? goliath_centre : goliath_start, flags,
                                       caption, &m.lo, &m.hi));
        maps.push_back(m);
      }
    }
  }
  return maps;
}

// The bar charts of when God is used: by turn and by kind of roll.
void draw_god_use_charts(const GodStudyResult& result, double n, const std::string& out_dir) {
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
}

struct Matchup {
  std::string david, goliath;
  int wins = 0, games = 0;
  Interval ci;
};

// Every agent as David against every agent as Goliath, in the order of options.agents.
std::vector<Matchup> play_matchups(const DuelGame& game, const GodStudyOptions& options,
                                   tbb::task_arena& arena, const ProgressLog& log) {
  if (!options.agents.empty() && options.matchup_games > 0) {
    log("playing the matchups: " + std::to_string(options.agents.size() * options.agents.size()) +
        " pairs of agents, " + std::to_string(options.matchup_games) + " games each");
  }
  std::vector<Matchup> matchups;
  if (options.matchup_games <= 0) return matchups;
  for (const std::string& d : options.agents) {
    for (const std::string& g : options.agents) {
      Matchup m{d, g, 0, options.matchup_games, {}};
      std::vector<int> winners(static_cast<std::size_t>(options.matchup_games), -1);
      arena.execute([&] {
        tbb::parallel_for(0, options.matchup_games, [&](int i) {
          auto david = study_agent(game, d, options.solution_file, options.allow_uncertified);
          auto goliath = study_agent(game, g, options.solution_file, options.allow_uncertified);
          const GameResult r = play_game(game, *david, *goliath, match_game_seed(options.seed, i));
          if (!r.error.empty()) throw SlingError("matchup " + d + " vs " + g + ": " + r.error);
          winners[static_cast<std::size_t>(i)] = r.winner;
        });
      });
      for (int w : winners) m.wins += w == kDavid;
      m.ci = wilson_interval(m.wins, m.games);
      matchups.push_back(m);
      log("  " + std::to_string(matchups.size()) + " of " +
          std::to_string(options.agents.size() * options.agents.size()) + ": David " + d +
          " against Goliath " + g + ", David won " + std::to_string(m.wins) + " of " +
          std::to_string(m.games));
    }
  }
  return matchups;
}

// The appendix's table of God uses by kind of roll and turn.
void write_use_by_roll_and_turn(std::ostream& appendix,
                                const std::map<Roll, std::vector<std::int64_t>>& use_turns,
                                double n) {
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
}

// The appendix's table of each kind of roll: how often offered, re-rolled, and the mean gain.
void write_roll_table(std::ostream& appendix, const GodStudyResult& result, double n) {
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
}

// The appendix's table of one kind of roll: its situations most often re-rolled (at most 12),
// then every other situation summed in one row.
void write_situation_table(std::ostream& appendix, Roll roll, const RollStudy& r,
                           const std::map<std::string, SituationStats>& table, double n) {
  std::vector<std::pair<std::string, SituationStats>> rows(table.begin(), table.end());
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second.rerolled != b.second.rerolled ? a.second.rerolled > b.second.rerolled
                                                  : a.second.offered > b.second.offered;
  });
  appendix << "#### " << roll_title(roll) << "\n\n";
  if (r.offered == 0) {
    appendix << "Never met with God available in the simulated games.\n\n";
    return;
  }
  if (r.rerolled == 0) {
    appendix << "Optimal play never re-rolled this roll (" << r.offered << " times offered).\n\n";
    return;
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

// The appendix: the tables behind the advice.  Every studied roll gets an entry in
// tally.situations, as the rules of thumb expect.
std::string appendix_tables(const GodStudyResult& result, DecisionTally& tally, double n) {
  std::ostringstream appendix;
  write_use_by_roll_and_turn(appendix, tally.use_turns, n);
  write_roll_table(appendix, result, n);
  for (Roll roll : kStudiedRolls) {
    write_situation_table(appendix, roll, result.by_roll[static_cast<std::size_t>(roll)],
                          tally.situations[roll], n);
  }
  return appendix.str();
}

// The exact values at the start, with and without God, and their certified brackets.
void write_headline(std::ostream& md, const DuelSolution& solution) {
  const SolveSummary& summary = solution.summary();
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
}

// The exact value against the simulated rate.  A settled game counts its exact value; a game cut
// at the ply limit is neither a win nor a loss, so the rate is bracketed by counting the cut games
// as losses and as wins.  The interval is the binomial one of the score's mean: a settled game's
// score lies in [0, 1] with the same mean, so its variance is no larger (conservative).
void write_simulated_rate(std::ostream& md, const GodStudyResult& result,
                          const SolveSummary& summary, const GodStudyOptions& options, double n) {
  const double score = (result.david_wins + result.settled_value) / n;
  const double sd = std::sqrt(std::max(score * (1 - score), 1e-12) / n);
  const double se = std::sqrt(summary.start * (1 - summary.start) / n);
  md << "Simulated optimal games: David scored " << pct(score, 2) << " (95 % ["
     << pct(std::max(0.0, score - 1.96 * sd), 2) << ", " << pct(std::min(1.0, score + 1.96 * sd), 2)
     << "]; exact: " << pct(summary.start, 2) << ", " << num((score - summary.start) / se, 2)
     << " standard errors away); God was invoked in " << pct(result.god_used_games / n, 1)
     << " of the games.";
  const int ended = result.games - result.cut_games - result.settled_games;
  if (ended > 0) {
    md << " The " << ended << " games that ended lasted " << num(result.mean_plies, 0)
       << " plies (decisions and dice) on average, the longest " << result.max_plies << ".";
  }
  if (result.settled_games > 0) {
    std::vector<double> distances = result.settled_distance_cm;
    std::sort(distances.begin(), distances.end());
    const auto quantile = [&](double q) {
      return distances[static_cast<std::size_t>(q * static_cast<double>(distances.size() - 1))];
    };
    const double settled = result.settled_games;
    md << "\n\n**Stand-offs.** " << result.settled_games << " games (" << pct(settled / n, 1)
       << ") were still running after " << options.settle_plies
       << " plies: optimal play stands off, neither side closing in, and these games were "
          "settled at the exact value of the position reached (on average "
       << pct(result.settled_value / settled, 2)
       << " for David). Optimal play is a martingale of the exact value, so settling leaves "
          "the expected score as it is and spares the simulation the rest of the stand-off; "
          "God decisions after the stop are not in the tables below. Where the settled games "
          "stood: the figures "
       << num(quantile(0.5), 1) << " cm apart edge to edge (median; quartiles "
       << num(quantile(0.25), 1) << " and " << num(quantile(0.75), 1) << " cm), God still "
       << "available in " << pct(result.settled_with_god / settled, 0)
       << ", David holding a stone in " << pct(result.settled_david_has_stone / settled, 0)
       << ", Goliath with his shield in " << pct(result.settled_with_shield / settled, 0)
       << " and his javelin in " << pct(result.settled_with_javelin / settled, 0)
       << " (`--settle-plies 0` plays every game to its end).";
  }
  if (result.cut_games > 0) {
    md << " " << result.cut_games << " games reached the limit of " << options.max_plies
       << " plies and were stopped (counted as no David win; counted as David wins the score "
          "would be "
       << pct(score + result.cut_games / n, 2) << ").";
  }
  md << "\n\n";
}

// The share of games in which God is used, by turn.
void write_use_by_turn(std::ostream& md, const GodStudyResult& result, double n) {
  md << "## When in the game God is used\n\n![turn](god-turn.svg)\n\n![roll](god-roll.svg)\n\n";
  md << "| turn | share of games in which God is used then |\n|---|---|\n";
  for (int b = 0; b < kTurnBuckets; ++b)
    md << "| " << kTurnBucketNames[b] << " | "
       << pct(result.use_by_turn[static_cast<std::size_t>(b)] / n, 2) << " |\n";
  md << "| never | " << pct(1 - result.god_used_games / n, 2) << " |\n\n";
}

void write_heat_maps(std::ostream& md, const std::vector<HeatMap>& maps) {
  md << "## Where David stands: heat maps (exact)\n\n";
  md << "Each map fixes Goliath (black circle) with shield and javelin and colours every David "
        "position by "
        "David's optimal win probability with David to act.\n\n";
  for (const HeatMap& m : maps) {
    md << "- " << m.caption << ": from " << num(m.lo, 3) << " to " << num(m.hi, 3)
       << "\n\n  ![map](" << m.file << ")\n\n";
  }
}

// The matchups as a table: rows are David's agent, columns Goliath's (nothing when none played).
void write_matchups(std::ostream& md, const std::vector<Matchup>& matchups,
                    const GodStudyOptions& options) {
  if (matchups.empty()) return;
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
      md << " " << pct(static_cast<double>(m.wins) / m.games, 1) << " [" << pct(m.ci.low, 1) << ", "
         << pct(m.ci.high, 1) << "] |";
    }
    md << "\n";
  }
  md << "\n";
}

// How the solution was solved: its size and each pass's convergence, then the rules.
void write_method(std::ostream& md, const DuelSolution& solution) {
  const SolveSummary& summary = solution.summary();
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
  md << "\nRules:\n\n```json\n" << solution.game().rules_json() << "\n```\n";
}

}  // namespace

GodStudyResult write_god_study(const DuelSolution& solution, const GodStudyOptions& options,
                               const std::string& out_dir) {
  if (options.games < 1) throw OptionError("the study needs at least one game");
  if (options.max_plies < 1) throw OptionError("the study's ply limit must be positive");
  if (options.settle_plies < 0) throw OptionError("the study's settling point cannot be negative");
  const DuelGame& game = solution.game();
  if (!game.rules().god_enabled)
    throw RulesError("the God study needs rules with god_enabled true");
  std::filesystem::create_directories(out_dir);
  const SolveSummary& summary = solution.summary();
  tbb::task_arena arena(std::max(1, options.threads));
  const ProgressLog log(options.log);

  // 1. Optimal-versus-optimal games, and their God decisions.
  GodStudyResult result;
  DecisionTally tally =
      tally_games(game, play_optimal_games(solution, options, arena, log), result);
  const double n = options.games;

  // 2. The figures: heat maps of the exact values, and when God is used.
  log("drawing the heat maps and charts");
  const std::vector<HeatMap> maps = draw_heat_maps(solution, out_dir);
  draw_god_use_charts(result, n, out_dir);

  // 3. Matchups between agents.
  const std::vector<Matchup> matchups = play_matchups(game, options, arena, log);

  // 4. The report: plain advice first, the tables behind it in the appendix.
  const std::string appendix = appendix_tables(result, tally, n);
  std::ostringstream md;
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
  write_headline(md, solution);
  write_simulated_rate(md, result, summary, options, n);
  write_use_by_turn(md, result, n);
  // The rules of thumb, then the tables behind them in the appendix.
  write_rules_of_thumb(md, result, tally.situations, n);
  write_heat_maps(md, maps);
  write_matchups(md, matchups, options);
  md << "## Appendix: the tables behind the advice\n\n" << appendix;
  write_method(md, solution);
  write_file_atomic((std::filesystem::path(out_dir) / "report.md").string(), md.str());
  return result;
}

}  // namespace sling::duel
