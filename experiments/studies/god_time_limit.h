#pragma once
// The God study under a time limit: "when should David invoke God, with N turns left?", answered
// from the capped duel's exact solutions (solvers/duel/capped_solve.h).  One backward induction
// per objective to the longest cap solves every shorter cap on its way; games at each cap are then
// played by the optimal pair, recording every God decision with the turns left.  Writes
// DIR/report.md with SVG figures (god_time_limit_report.cpp).

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/duel/duel.h"
#include "solvers/duel/capped_solution.h"

namespace sling::duel {

struct TimeLimitStudyOptions {
  std::vector<int> caps = {10, 20, 40, 80, 160, 320, 640};  // turns, each side's turn one
  int games = 2000;        // optimal-versus-optimal games per cap and objective
  std::uint64_t seed = 1;  // game i of a cap and objective has its own dice stream
  int threads = 2;
  // The keyframes of the longest cap's solve are kept in memory within this budget (every turn
  // when it fits, which spares the games any recomputation; otherwise every k-th turn).
  std::uint64_t keyframe_budget_bytes = 2ull << 30;
  // David's win probability (with God) in the duel without a cap, when known: the
  // value the `win` objective tends to as the cap grows.
  std::optional<double> uncapped;
  std::string command;                          // the command that wrote the report, quoted in it
  std::function<void(const std::string&)> log;  // progress lines, when set
};

// Turns-left buckets of the God decisions: 1, 2, 3-4, 5-8, ..., 257+.
inline constexpr int kTurnsLeftBuckets = 10;
int turns_left_bucket(int turns_left);
const char* turns_left_bucket_name(int bucket);

struct TimeLimitRollStats {
  std::int64_t offered = 0;   // God decisions met after this roll (God still available)
  std::int64_t rerolled = 0;  // of which optimal play re-rolled
  double gain = 0;            // summed exact gain of the re-rolls (the objective's value)
};

// The optimal games of one cap under one objective.
struct CapGames {
  int cap = 0;
  int games = 0;
  int david_wins = 0, draws = 0, goliath_wins = 0;
  int god_used = 0;
  double mean_turns = 0;  // turns played, the cap's draw included
  // [roll][turns-left bucket], Roll-indexed.
  std::vector<std::array<TimeLimitRollStats, kTurnsLeftBuckets>> by_roll;
};

struct ObjectiveStudy {
  CappedObjective objective = CappedObjective::kScore;
  CappedSummary summary;         // the longest cap's solve: start_by_cap holds every cap
  std::vector<CapGames> by_cap;  // in the order of options.caps
  int keyframe_every = 0;        // of the solve the games were played from
};

struct TimeLimitStudyResult {
  DuelRules rules;                           // the rules studied (turn_cap: the longest cap)
  std::array<ObjectiveStudy, 2> objectives;  // score, then win
};

// Solves and plays the study.  `game`'s own turn cap is ignored; the caps come from options.
TimeLimitStudyResult run_time_limit_study(const DuelGame& game,
                                          const TimeLimitStudyOptions& options);

// Writes DIR/report.md and DIR/*.svg.
void write_time_limit_report(const TimeLimitStudyResult& result,
                             const TimeLimitStudyOptions& options, const std::string& out_dir);

}  // namespace sling::duel
