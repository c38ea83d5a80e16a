#pragma once
// The danelaw referee's measurement (docs/results/danelaw-referee/report.md): on a scenario small
// enough to solve exactly, how far is an agent (`strong`) from exact play on each side, and how
// far is the learned value model from the exact values?
//
// Paired games: on each game seed the agent plays the Danes against the exact English, the exact
// sides play each other, and the exact Danes play the agent as the English, all three on the same
// dice (a ply's dice come from the game seed, so two games agree until a decision differs).  A
// seat's loss is the mean per-seed difference from exact against exact, in points of the Danes'
// win rate, with its paired interval.  A second, tighter estimate of the same loss needs no luck
// at all: at each of the agent's decisions the exact values say how much win probability the
// chosen action gave away (the best action's value less the chosen one's); a game's sum of these
// has the loss as its expectation (the exact value is a martingale under exact play and chance).

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "experiments/analysis/luck.h"

namespace sling::danelaw {

// The kinds of decision a loss is counted under.
enum class DecisionKind { kPlacing, kMovement, kFight, kDecline, kAdvance, kRout, kCount };
inline constexpr int kDecisionKinds = static_cast<int>(DecisionKind::kCount);
const char* decision_kind_name(DecisionKind kind);

struct RefereeSeat {
  double score = 0;      // the Danes' win rate in the agent's games on this seat
  MeanInterval paired;   // the agent's loss: per seed, against exact play on that seat (points)
  MeanInterval regret;   // the agent's loss: per game, the exact values its decisions gave away
  int games_differ = 0;  // seeds where the agent's game and exact play's differ in result
  int decisions = 0;     // the agent's decisions, all games
  int mistakes = 0;      // decisions that gave away more than 1e-9
  std::array<double, kDecisionKinds> regret_by_kind{};  // points a game, by kind of decision
};

struct RefereeRow {
  std::string scenario;
  std::string agent;
  int hexes = 0, land = 0, towns = 0, turns = 0;
  int danes = 0, english = 0;  // armies a side at the start (the English counting militia)
  std::size_t states = 0;
  double solve_seconds = 0;
  double value = 0;           // P(the Danes win) under exact play
  double exact_vs_exact = 0;  // the Danes' win rate in the exact games
  // The Danes' win rate when the rule of thumb plays both sides on the same seeds: what the
  // searches' heuristic playouts score from the start, beside the exact value.
  double rule_of_thumb = 0;
  int games = 0;
  RefereeSeat danes_seat, english_seat;
  // The learned model's P(the Danes win) against the exact value (absolute errors, points).
  double model_start_error = 0;  // at the initial state
  MeanInterval model_reached;    // over the half-turn starts of the exact games, as visited
  MeanInterval model_table;      // over every half-turn start the solve reached, once each
};

struct RefereeOptions {
  std::string agent;  // the measured agent's spec
  int games = 1000;   // seeds
  std::uint64_t seed = 1;
  int threads = 0;
};

RefereeRow measure_referee(const DanelawGame& game, const std::string& name,
                           const RefereeOptions& options);

// The rows as Markdown tables: the scenarios and their exact values; each agent's score and loss
// on each side; where it loses, by kind of decision; the model's errors.
std::string referee_tables(const std::vector<RefereeRow>& rows);

}  // namespace sling::danelaw
