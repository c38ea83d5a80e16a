// The time-limit God study's report: plain advice first, then the exact values by cap, the
// figures, the re-roll tables by turns left, and the method.  The numbers come from
// god_time_limit.cpp; the words and drawing helpers are the God study's.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <ostream>
#include <set>
#include <sstream>

#include "engine/core/io.h"
#include "experiments/match.h"
#include "experiments/studies/god_study_svg.h"
#include "experiments/studies/god_study_words.h"
#include "experiments/studies/god_time_limit.h"

namespace sling::duel {

using namespace god_study;

namespace {

// The turn counts the curves are drawn at: every count up to 16, then eight a doubling, and the
// studied caps.
std::vector<int> curve_points(int longest, const std::vector<int>& caps) {
  std::set<int> points(caps.begin(), caps.end());
  for (int j = 0; j <= 8 * 17; ++j) {
    const int k = static_cast<int>(std::lround(std::pow(2.0, j / 8.0)));
    if (k <= longest) points.insert(k);
  }
  return {points.begin(), points.end()};
}

// Re-rolls and offers of one kind of roll over every turns-left bucket of one cap's games.
TimeLimitRollStats total(const CapGames& games, Roll roll) {
  TimeLimitRollStats sum;
  for (const TimeLimitRollStats& b : games.by_roll[static_cast<std::size_t>(roll)]) {
    sum.offered += b.offered;
    sum.rerolled += b.rerolled;
    sum.gain += b.gain;
  }
  return sum;
}

// The same pooled over every cap, per turns-left bucket.
std::array<TimeLimitRollStats, kTurnsLeftBuckets> pooled(const ObjectiveStudy& study, Roll roll) {
  std::array<TimeLimitRollStats, kTurnsLeftBuckets> out{};
  for (const CapGames& games : study.by_cap) {
    for (int b = 0; b < kTurnsLeftBuckets; ++b) {
      const auto& from = games.by_roll[static_cast<std::size_t>(roll)][static_cast<std::size_t>(b)];
      auto& to = out[static_cast<std::size_t>(b)];
      to.offered += from.offered;
      to.rerolled += from.rerolled;
      to.gain += from.gain;
    }
  }
  return out;
}

// The rolls optimal David spends God on in one cap's games, most used first: "a stone that
// misses (31 %), ...", with each roll's share of the God uses.
std::string spent_on(const CapGames& games, int most) {
  std::vector<std::pair<std::int64_t, Roll>> uses;
  std::int64_t all = 0;
  for (Roll roll : kStudiedRolls) {
    const std::int64_t n = total(games, roll).rerolled;
    if (n > 0) uses.push_back({n, roll});
    all += n;
  }
  std::sort(uses.begin(), uses.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string out;
  for (std::size_t k = 0; k < uses.size() && static_cast<int>(k) < most; ++k) {
    if (!out.empty())
      out += k + 1 == uses.size() || static_cast<int>(k) + 1 == most ? " or " : ", ";
    out += roll_advice(uses[k].second) + " (" +
           pct(static_cast<double>(uses[k].first) / static_cast<double>(all), 0) + ")";
  }
  return out.empty() ? std::string("nothing: optimal David never invoked God") : out;
}

const CappedOutcome& at_cap(const ObjectiveStudy& study, int cap, bool god) {
  return (god ? study.summary.start_by_cap
              : study.summary.start_by_cap_without_god)[static_cast<std::size_t>(cap - 1)];
}

void write_figures(const TimeLimitStudyResult& result, const TimeLimitStudyOptions& options,
                   const std::string& dir) {
  const ObjectiveStudy& score = result.objectives[0];
  const ObjectiveStudy& win = result.objectives[1];
  const std::vector<int> xs = curve_points(result.rules.turn_cap, options.caps);
  auto curve = [&](const std::string& name, std::size_t colour, auto value, bool dashed = false) {
    ChartSeries line{name, series_colour(colour), {}, dashed};
    for (int k : xs) line.points.push_back({static_cast<double>(k), value(k)});
    return line;
  };
  std::vector<ChartSeries> value_lines = {
      curve("score objective: David's expected score (win 1, draw 1/2)", 0,
            [&](int k) { return at_cap(score, k, true).value; }),
      curve("score objective: David's win probability", 2,
            [&](int k) { return at_cap(score, k, true).david_wins; }),
      curve("win objective: David's win probability", 6,
            [&](int k) { return at_cap(win, k, true).david_wins; })};
  if (options.uncapped) {
    value_lines.push_back(curve(
        "no time limit: David's win probability (exact)", 9, [&](int) { return *options.uncapped; },
        true));
  }
  write_file_atomic((std::filesystem::path(dir) / "value-by-cap.svg").string(),
                    line_chart_svg(value_lines, "David's value at the start, by the game's length",
                                   "turn cap (each side's turn counts one; doubling scale)",
                                   "optimal play, with God (exact)"));
  write_file_atomic(
      (std::filesystem::path(dir) / "god-value-by-cap.svg").string(),
      line_chart_svg(
          {curve(
               "score objective: expected score with God minus without", 0,
               [&](int k) { return at_cap(score, k, true).value - at_cap(score, k, false).value; }),
           curve("win objective: win probability with God minus without", 6,
                 [&](int k) { return at_cap(win, k, true).value - at_cap(win, k, false).value; })},
          "The value of God, by the game's length",
          "turn cap (each side's turn counts one; doubling scale)",
          "what God adds at the start (exact)"));
  write_file_atomic((std::filesystem::path(dir) / "draw-by-cap.svg").string(),
                    line_chart_svg({curve("score objective: the game reaches the cap", 0,
                                          [&](int k) { return at_cap(score, k, true).draw; }),
                                    curve("win objective: the game reaches the cap", 6,
                                          [&](int k) { return at_cap(win, k, true).draw; })},
                                   "How often optimal play runs out of time",
                                   "turn cap (each side's turn counts one; doubling scale)",
                                   "probability of the draw at the cap (exact)"));
  for (const ObjectiveStudy* study : {&score, &win}) {
    std::vector<ChartSeries> lines;
    for (Roll roll : kStudiedRolls) {
      const auto buckets = pooled(*study, roll);
      ChartSeries line{roll_title(roll), series_colour(lines.size()), {}, false};
      std::int64_t rerolls = 0;
      for (int b = 0; b < kTurnsLeftBuckets; ++b) {
        const TimeLimitRollStats& s = buckets[static_cast<std::size_t>(b)];
        rerolls += s.rerolled;
        // A share over fewer than 30 offers is mostly noise: left out.
        if (s.offered >= 30) {
          line.points.push_back(
              {std::pow(2.0, b), static_cast<double>(s.rerolled) / static_cast<double>(s.offered)});
        }
      }
      if (rerolls > 0 && !line.points.empty()) lines.push_back(line);
    }
    write_file_atomic(
        (std::filesystem::path(dir) /
         (std::string("reroll-by-turns-left-") + objective_name(study->objective) + ".svg"))
            .string(),
        line_chart_svg(lines,
                       std::string("When optimal David re-rolls (") +
                           objective_name(study->objective) + " objective)",
                       "turns left, the current one included (a bucket's top; doubling scale)",
                       "share of the offers re-rolled, by the roll God was offered after"));
  }
}

// What every section of the report reads: the study, its options, and the two objectives.
struct Report {
  const TimeLimitStudyResult& result;
  const TimeLimitStudyOptions& options;
  const ObjectiveStudy& score;  // objectives[0]: a draw worth half
  const ObjectiveStudy& win;    // objectives[1]: only a win counts
  const std::vector<int>& caps;
  int shortest;  // the shortest studied cap
  int longest;   // the longest cap solved (every shorter one on its way)
};

// In short: the plain answer first.
void write_in_short(std::ostream& md, const Report& r) {
  md << "## In short\n\n";
  const CappedOutcome &s0 = at_cap(r.score, r.shortest, true),
                      &s1 = at_cap(r.score, r.longest, true);
  const double god0 = s0.value - at_cap(r.score, r.shortest, false).value,
               god1 = s1.value - at_cap(r.score, r.longest, false).value;
  md << "A game with a time limit ends in a draw when the turns run out (each side's turn counts "
        "one). Counting a draw as half a win, David with best play scores "
     << pct(s0.value, 1) << " in a game of " << r.shortest << " turns (wins "
     << pct(s0.david_wins, 1) << ", draws " << pct(s0.draw, 1) << ") and " << pct(s1.value, 1)
     << " in one of " << r.longest << " turns (wins " << pct(s1.david_wins, 1) << ", draws "
     << pct(s1.draw, 1) << "). God is worth " << pct(god0, 1)
     << " of that score in the short game and " << pct(god1, 1) << " in the long one.";
  if (r.options.uncapped) {
    md << " If only a win counts, David's chance climbs with the length of the game toward "
       << pct(*r.options.uncapped, 1)
       << ", its value without a time limit: " << pct(at_cap(r.win, r.shortest, true).david_wins, 1)
       << " at " << r.shortest << " turns, " << pct(at_cap(r.win, r.longest, true).david_wins, 1)
       << " at " << r.longest << ".";
  }
  md << "\n\n";
  const CapGames& short_games = r.score.by_cap.front();
  const CapGames& long_games = r.score.by_cap.back();
  md << "Which rolls deserve God depends on the length of the game. In a game of "
     << short_games.cap << " turns optimal David invokes God in "
     << pct(short_games.god_used / double(short_games.games), 0) << " of games, mostly on "
     << spent_on(short_games, 3) << "; in a game of " << long_games.cap << " turns in "
     << pct(long_games.god_used / double(long_games.games), 0) << ", mostly on "
     << spent_on(long_games, 3) << ". The table \"A game of a given length\" below gives every "
     << "length studied.\n\n";
}

// Where the numbers come from, and the two objectives.
void write_sources(std::ostream& md, const Report& r) {
  md << "An exact study of the duel under a turn cap (rules: board " << r.result.rules.board_cm
     << " cm, lattice pitch " << r.result.rules.pitch_cm
     << " cm, every other rule at the values in the appendix). Every value marked *exact* comes "
        "from backward induction over the turns left (`sling solve duel --turn-cap`): exact up to "
        "floating-point rounding, with no iteration and no tolerance. Every frequency comes from "
     << r.options.games
     << " simulated games per cap and objective with both sides playing the solved optimal "
        "policies (seed "
     << r.options.seed
     << "), so it carries sampling error: a share p over N games has a standard error of "
        "sqrt(p(1-p)/N), at most "
     << pct(0.5 / std::sqrt(static_cast<double>(r.options.games)), 1) << " here.\n\n";
  md << "Two objectives are solved. **score**: David maximises his expected score, a win 1 and a "
        "draw 1/2 (the tournaments' convention), and Goliath minimises it. **win**: David "
        "maximises his chance of winning, a draw counting as a loss, and Goliath minimises it.\n\n";
}

// One row per studied cap: the score objective's values and where God is spent.
void write_length_table(std::ostream& md, const Report& r) {
  md << "## A game of a given length\n\n";
  md << "| turns | David's score (score objective) | wins | draws | God is worth | God spent in "
        "| mostly on |\n|---|---|---|---|---|---|---|\n";
  for (std::size_t c = 0; c < r.caps.size(); ++c) {
    const CappedOutcome& o = at_cap(r.score, r.caps[c], true);
    const CapGames& g = r.score.by_cap[c];
    md << "| " << r.caps[c] << " | " << pct(o.value, 2) << " | " << pct(o.david_wins, 2) << " | "
       << pct(o.draw, 2) << " | " << pct(o.value - at_cap(r.score, r.caps[c], false).value, 2)
       << " | " << pct(g.god_used / double(g.games), 0) << " of games | " << spent_on(g, 3)
       << " |\n";
  }
  md << "\nThe values are exact; \"God spent in\" and \"mostly on\" come from the simulated games "
        "(each roll's share of the God uses at that length).\n\n";
}

// The exact values of both objectives by cap, with the figures.
void write_value_table(std::ostream& md, const Report& r) {
  md << "## David's value and God's by the length of the game (exact)\n\n"
     << "![value](value-by-cap.svg)\n\n![God](god-value-by-cap.svg)\n\n"
     << "![draw](draw-by-cap.svg)\n\n";
  md << "| turns | score: value | score: David / draw / Goliath | score: God's worth | win: "
        "David | win: draw | win: God's worth |\n|---|---|---|---|---|---|---|\n";
  for (int cap : r.caps) {
    const CappedOutcome &s = at_cap(r.score, cap, true), &w = at_cap(r.win, cap, true);
    md << "| " << cap << " | " << num(s.value, 6) << " | " << pct(s.david_wins, 2) << " / "
       << pct(s.draw, 2) << " / " << pct(s.goliath_wins, 2) << " | "
       << num(s.value - at_cap(r.score, cap, false).value, 6) << " | " << num(w.david_wins, 6)
       << " | " << pct(w.draw, 2) << " | " << num(w.value - at_cap(r.win, cap, false).value, 6)
       << " |\n";
  }
  md << "\n";
}

// How long a game must be for the long plan to pay: the cap by which the win objective's value
// has made half and nine tenths of its climb from one turn to the longest cap.
void write_waiting_finding(std::ostream& md, const Report& r) {
  const CappedOutcome& w_long = at_cap(r.win, r.longest, true);
  const double v1 = at_cap(r.win, 1, true).david_wins;
  int half = r.longest, most = r.longest;
  for (int k = r.longest; k >= 1; --k) {
    const double v = at_cap(r.win, k, true).david_wins;
    if (v >= v1 + 0.5 * (w_long.david_wins - v1)) half = k;
    if (v >= v1 + 0.9 * (w_long.david_wins - v1)) most = k;
  }
  md << "- **When waiting starts to pay.** With only a win counting, David's chance rises from "
     << pct(v1, 1) << " in a one-turn game to " << pct(w_long.david_wins, 1) << " at " << r.longest
     << " turns; half of that climb is made by " << half << " turns and nine tenths by " << most
     << ". Below about " << half
     << " turns there is no time for the long plan (find a stone, hold the range, strike at the "
        "right moment); above "
     << most << " turns more time adds little.\n";
}

// How a draw worth half changes the results and the games' length.
void write_draw_finding(std::ostream& md, const Report& r) {
  const CappedOutcome& w_long = at_cap(r.win, r.longest, true);
  const CappedOutcome& s_long = at_cap(r.score, r.longest, true);
  md << "- **A draw worth half changes both sides' play.** With a draw worth 1/2, David would "
        "rather draw than take a fight he wins "
     << pct(w_long.david_wins, 0)
     << " of the time, and Goliath must win outright to score more than half. At " << r.longest
     << " turns the score objective gives David " << pct(s_long.david_wins, 2) << " wins and "
     << pct(s_long.draw, 2) << " draws, against " << pct(w_long.david_wins, 2) << " wins and "
     << pct(w_long.draw, 2) << " draws when only a win counts";
  const CappedOutcome& s_short = at_cap(r.score, r.shortest, true);
  const CappedOutcome& w_short = at_cap(r.win, r.shortest, true);
  md << "; at " << r.shortest << " turns " << pct(s_short.david_wins, 2) << " wins and "
     << pct(s_short.draw, 2) << " draws against " << pct(w_short.david_wins, 2) << " and "
     << pct(w_short.draw, 2) << ". Goliath wins " << pct(s_short.goliath_wins, 1) << " and "
     << pct(w_short.goliath_wins, 1) << " of the short games under the two objectives.";
  // Who waits: the games' length under the two objectives at the longest cap.
  const CapGames &score_games = r.score.by_cap.back(), &win_games = r.win.by_cap.back();
  md << " At " << score_games.cap << " turns the optimal games last "
     << num(score_games.mean_turns, 1) << " turns on average when a draw is worth half and "
     << num(win_games.mean_turns, 1) << " when only David's win counts";
  if (win_games.mean_turns > score_games.mean_turns) {
    md << ": when a draw costs Goliath nothing he has no reason to hurry, and the waiting "
          "game of the duel without a limit comes back";
  } else {
    md << ": when a draw costs Goliath half a point he has to force the fight";
  }
  md << ". David wins " << (s_long.david_wins >= w_long.david_wins ? "more" : "less")
     << " often under the score objective (" << pct(s_long.david_wins, 2) << " against "
     << pct(w_long.david_wins, 2) << "), and Goliath " << pct(s_long.goliath_wins, 2) << " against "
     << pct(w_long.goliath_wins, 2) << ".\n";
}

// God's worth under the score objective: in a one-turn game, where it peaks, and at the longest.
void write_god_worth_finding(std::ostream& md, const Report& r) {
  int best_cap = 1;
  double best = -1;
  for (int k = 1; k <= r.longest; ++k) {
    const double g = at_cap(r.score, k, true).value - at_cap(r.score, k, false).value;
    if (g > best) {
      best = g;
      best_cap = k;
    }
  }
  const CappedOutcome& s_long = at_cap(r.score, r.longest, true);
  md << "- **God's worth by length.** Under the score objective God adds "
     << pct(at_cap(r.score, 1, true).value - at_cap(r.score, 1, false).value, 2)
     << " to a one-turn game, at most " << pct(best, 2) << " (at " << best_cap << " turns) and "
     << pct(s_long.value - at_cap(r.score, r.longest, false).value, 2) << " at " << r.longest
     << " turns.\n";
}

// What the numbers show.
void write_findings(std::ostream& md, const Report& r) {
  md << "## Findings\n\n";
  if (r.options.uncapped) {
    const CappedOutcome& w_long = at_cap(r.win, r.longest, true);
    md << "- **The `win` objective tends to the game without a time limit.** At " << r.longest
       << " turns David wins " << num(w_long.david_wins, 6) << " against "
       << num(*r.options.uncapped, 6) << " without a limit (a gap of "
       << num(*r.options.uncapped - w_long.david_wins, 6)
       << "); the value can only rise with the cap, since a longer game leaves every plan of a "
          "shorter one open.\n";
  }
  write_waiting_finding(md, r);
  write_draw_finding(md, r);
  write_god_worth_finding(md, r);
  md << "- **Simulated against exact.** Each cap's simulated results agree with the exact "
        "probabilities within their sampling error (table \"Simulated games\" in the "
        "appendix).\n\n";
}

// The share of offers re-rolled by kind of roll and turns left, one table per objective.
void write_reroll_tables(std::ostream& md, const Report& r) {
  md << "## When a re-roll is optimal, by the turns left\n\n"
     << "![score](reroll-by-turns-left-score.svg)\n\n![win](reroll-by-turns-left-win.svg)\n\n"
     << "Each point is the share of God's offers after that kind of roll that optimal David "
        "accepted to re-roll, pooled over the games of every cap, by the turns left when the roll "
        "came (the current turn included); points over fewer than 30 offers are left out. The "
        "tables give every count.\n\n";
  for (const ObjectiveStudy* study : {&r.score, &r.win}) {
    md << "### " << objective_name(study->objective)
       << " objective: re-rolled / offered, by turns left\n\n| roll |";
    for (int b = 0; b < kTurnsLeftBuckets; ++b) md << " " << turns_left_bucket_name(b) << " |";
    md << "\n|---|";
    for (int b = 0; b < kTurnsLeftBuckets; ++b) md << "---|";
    md << "\n";
    for (Roll roll : kStudiedRolls) {
      const auto buckets = pooled(*study, roll);
      std::int64_t offered = 0;
      for (const auto& s : buckets) offered += s.offered;
      if (offered == 0) continue;
      md << "| " << roll_title(roll) << " |";
      for (const auto& s : buckets) {
        if (s.offered == 0) {
          md << " - |";
        } else {
          md << " " << pct(static_cast<double>(s.rerolled) / static_cast<double>(s.offered), 0)
             << " of " << s.offered << " |";
        }
      }
      md << "\n";
    }
    md << "\n";
  }
}

// The appendix: the simulated games against the exact values, the method and the rules.
void write_appendix(std::ostream& md, const Report& r) {
  md << "## Appendix\n\n### Simulated games\n\n"
     << "| objective | turns | games | David wins (95 %) | exact | draws | exact | mean turns "
        "played | God used |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const ObjectiveStudy* study : {&r.score, &r.win}) {
    for (std::size_t c = 0; c < r.caps.size(); ++c) {
      const CapGames& g = study->by_cap[c];
      const CappedOutcome& o = at_cap(*study, r.caps[c], true);
      const Interval ci = wilson_interval(g.david_wins, g.games);
      md << "| " << objective_name(study->objective) << " | " << r.caps[c] << " | " << g.games
         << " | " << pct(g.david_wins / double(g.games), 2) << " [" << pct(ci.low, 1) << ", "
         << pct(ci.high, 1) << "] | " << pct(o.david_wins, 2) << " | "
         << pct(g.draws / double(g.games), 2) << " | " << pct(o.draw, 2) << " | "
         << num(g.mean_turns, 1) << " | " << pct(g.god_used / double(g.games), 1) << " |\n";
    }
  }
  md << "\n### Method\n\nOne backward induction per objective to " << r.longest
     << " turns solves every shorter cap on its way: the values with k turns left come from those "
        "with k - 1 and k - 2 in one pass, with the uncapped solver's turn evaluation (movement "
        "discs, God's choices, symmetry). A game capped at C turns is played from the same "
        "values by starting its turn counter "
     << r.longest << " - C turns in. Solve times: score " << num(r.score.summary.seconds, 0)
     << " s, win " << num(r.win.summary.seconds, 0) << " s; " << r.score.summary.states
     << " declare states a turn. The games read the values of every turn from keyframes kept "
        "every "
     << r.score.keyframe_every << " turn(s).\n\n";
  if (!r.options.command.empty()) md << "Command: `" << r.options.command << "`\n\n";
  DuelRules shown = r.result.rules;
  shown.turn_cap = 0;
  md << "Rules (the turn cap is the study's):\n\n```json\n" << rules_to_json(shown) << "\n```\n";
}

}  // namespace

void write_time_limit_report(const TimeLimitStudyResult& result,
                             const TimeLimitStudyOptions& options, const std::string& out_dir) {
  std::filesystem::create_directories(out_dir);
  write_figures(result, options, out_dir);
  const std::vector<int>& caps = options.caps;
  const Report report{result,
                      options,
                      result.objectives[0],
                      result.objectives[1],
                      caps,
                      *std::min_element(caps.begin(), caps.end()),
                      result.rules.turn_cap};
  std::ostringstream md;
  md << "# When should David invoke God, with the clock running?\n\n";
  write_in_short(md, report);
  write_sources(md, report);
  write_length_table(md, report);
  write_value_table(md, report);
  write_findings(md, report);
  write_reroll_tables(md, report);
  write_appendix(md, report);
  write_file_atomic((std::filesystem::path(out_dir) / "report.md").string(), md.str());
}

}  // namespace sling::duel
