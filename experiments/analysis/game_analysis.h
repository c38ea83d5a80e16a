#pragma once
// The analysis of a played game, as GNU Backgammon analyses one: every decision rated against the
// best decision by a value function, every chance event's luck, and totals per side.
//
// All values are side 0's win probability (a draw counts a half), read from a value function of
// any non-terminal state (`WinProbability`), or from the result at a terminal one.  For a decision
// of side p at state s, each legal action a is valued by the state it leads to; the loss is the
// best action's value minus the chosen one's, for p.  For a chance event, the luck is the value
// after the outcome minus the expected value over every outcome: with a fixed value function its
// expectation is zero whatever the position, so subtracting it from a result keeps the result's
// expectation (docs/analysis.md).  Along a game the values telescope: the result minus the start
// value equals the sum of the luck and of each decision's change of value; for exact values a
// decision's change is minus its loss, and `drift` (what the value function's own inconsistency
// adds) is zero.

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/game_limit.h"
#include "engine/core/record.h"

namespace sling {

// Losses are classed in win probability, as GNU Backgammon's equity thresholds (0.04, 0.08, 0.16
// of a point of equity, which spans 2) are: at least 2, 4 and 8 points of win probability.
enum class ErrorClass { kNone, kDoubtful, kBad, kVeryBad };
inline constexpr std::array<double, 3> kErrorThresholds = {0.02, 0.04, 0.08};
inline constexpr std::array<const char*, 4> kErrorClassNames = {"", "doubtful", "bad", "very bad"};

inline ErrorClass classify_loss(double loss) {
  if (loss >= kErrorThresholds[2]) return ErrorClass::kVeryBad;
  if (loss >= kErrorThresholds[1]) return ErrorClass::kBad;
  if (loss >= kErrorThresholds[0]) return ErrorClass::kDoubtful;
  return ErrorClass::kNone;
}

// A roll whose luck is at least this (either way) is marked on the graph and listed as big.
inline constexpr double kBigLuck = 0.10;

struct PlyAnalysis {
  int ply = 0;       // 1-based index into the record's history
  int side = -1;     // the deciding side, or -1 for a chance event
  int turn = 0;      // the game's own turn number where it has one (the duel), else 0
  std::string text;  // the action or outcome, in the game's words
  Action action = 0;
  double before = 0;  // side 0's win probability before the ply
  double after = 0;   // and after it
  // Decisions (side >= 0): values for the deciding side.
  int alternatives = 0;  // legal actions; 1 = forced, not rated
  // An answer given for the player to a question they chose not to be asked (the duel's God
  // prompt after a roll in David's favour): not the player's decision, so not rated.
  bool automatic = false;
  double chosen = 0;
  double best = 0;
  double loss = 0;
  std::string best_text;
  Action best_action = 0;
  ErrorClass error = ErrorClass::kNone;
  // Chance events: side 0's expected value before the outcome, and its luck (after - expected).
  double expected = 0;
  double luck = 0;
};

struct SideTotals {
  int decisions = 0;              // rated decisions (more than one legal action)
  std::array<int, 4> by_class{};  // indexed by ErrorClass (kNone: no error)
  double total_loss = 0;
  double luck = 0;      // the sum of the chance events' luck for this side
  double result = 0;    // 1 win, 0.5 draw, 0 loss (the end of the record)
  double adjusted = 0;  // result minus luck: the result with the dice's part taken out
  int errors() const { return by_class[1] + by_class[2] + by_class[3]; }
  double mean_loss() const { return decisions ? total_loss / decisions : 0; }
};

struct GameAnalysis {
  std::string game;
  std::array<std::string, 2> sides;    // side names
  std::array<std::string, 2> players;  // the record's agents, when it names them
  std::string source;                  // the value function, in words
  bool exact = false;                  // the values are the solved game's
  std::uint64_t seed = 0;
  double start = 0;   // side 0's win probability at the start
  double result = 0;  // side 0's result: 1, 0.5 or 0 (a record that ends early: its last value)
  bool finished = false;
  std::string end_reason;
  std::vector<PlyAnalysis> plies;
  std::array<SideTotals, 2> totals;
  // result - start - (side 0's luck) - (side 0's decision changes): zero for exact values.
  double drift = 0;
};

// A value function of non-terminal states: side 0's win probability (a draw a half).
template <Game G>
using WinProbability = std::function<double(const typename G::State&)>;

namespace analysis_detail {

template <Game G>
double value_of(const G& game, const typename G::State& s, const WinProbability<G>& value) {
  if (game.is_terminal(s)) return 0.5 * (1.0 + game.returns(s)[0]);
  const double v = value(s);
  return std::isfinite(v) ? std::clamp(v, 0.0, 1.0) : 0.5;
}

template <Game G>
std::string end_reason_of(const G& game, const typename G::State& s) {
  if constexpr (HasEndReason<G>) {
    return std::string(game.end_reason(s));
  } else {
    (void)game;
    (void)s;
    return "end";
  }
}

}  // namespace analysis_detail

// Analyses `record`, played on `rules_game` (built from record.rules) to the record's turn limit.
// `luck_only` skips the rating of decisions (what a luck-adjusted tournament needs).
// `automatic[i]`, where given, marks ply i + 1 as an answer given for the player (not rated).
// Throws what replay() throws on a record that does not replay.
template <Game G>
GameAnalysis analyse_record(const G& rules_game, const GameRecord& record,
                            const WinProbability<G>& value, bool luck_only = false,
                            const std::vector<bool>& automatic = {}) {
  using State = typename G::State;
  using analysis_detail::value_of;
  (void)replay(rules_game, record);  // every ply checked first, with a message naming it
  const TurnLimited<G> limited(rules_game, record.turn_limit);
  const G& game = limited.game();
  GameAnalysis out;
  out.game = record.game;
  out.sides = {std::string(game.info().sides[0]), std::string(game.info().sides[1])};
  if (record.agents.size() == 2) out.players = {record.agents[0], record.agents[1]};
  out.seed = record.seed;
  State state = game.initial_state();
  out.start = value_of(game, state, value);
  double current = out.start;
  std::array<double, 2> decision_change{};
  ActionList<G> actions;
  ChanceList<G> outcomes;
  out.plies.reserve(record.history.size());
  for (std::size_t i = 0; i < record.history.size(); ++i) {
    const Action action = record.history[i];
    PlyAnalysis ply;
    ply.ply = static_cast<int>(i) + 1;
    ply.action = action;
    ply.before = current;
    ply.text = game.action_to_string(state, action);
    if constexpr (requires { state.turn; }) ply.turn = static_cast<int>(state.turn);
    const Player player = game.current_player(state);
    if (player == kChancePlayer) {
      game.chance_outcomes(state, outcomes);
      double expected = 0;
      double after = 0;
      for (const ChanceOutcome& o : outcomes) {
        State next = state;
        game.apply_chance(next, o.outcome);
        const double v = value_of(game, next, value);
        expected += o.probability * v;
        if (o.outcome == action) after = v;
      }
      ply.expected = expected;
      ply.after = after;
      ply.luck = after - expected;
      out.totals[0].luck += ply.luck;
      out.totals[1].luck -= ply.luck;
      game.apply_chance(state, action);
    } else {
      ply.side = player;
      const double sign = player == 0 ? 1.0 : -1.0;
      State next = state;
      game.apply_action(next, action);
      ply.after = value_of(game, next, value);
      ply.automatic = i < automatic.size() && automatic[i];
      if (!luck_only && !ply.automatic) {
        game.legal_actions(state, actions);
        ply.alternatives = static_cast<int>(actions.size());
        ply.chosen = player == 0 ? ply.after : 1.0 - ply.after;
        ply.best = ply.chosen;
        ply.best_action = action;
        for (const Action a : actions) {
          if (a == action) continue;
          State alternative = state;
          game.apply_action(alternative, a);
          const double v = value_of(game, alternative, value);
          const double own = player == 0 ? v : 1.0 - v;
          if (own > ply.best) {
            ply.best = own;
            ply.best_action = a;
          }
        }
        ply.loss = ply.best - ply.chosen;
        if (ply.best_action != action)
          ply.best_text = game.action_to_string(state, ply.best_action);
        if (ply.alternatives > 1) {
          ply.error = classify_loss(ply.loss);
          SideTotals& totals = out.totals[static_cast<std::size_t>(player)];
          ++totals.decisions;
          ++totals.by_class[static_cast<std::size_t>(ply.error)];
          totals.total_loss += ply.loss;
        }
      }
      decision_change[static_cast<std::size_t>(player)] += sign * (ply.after - ply.before);
      state = next;
    }
    current = ply.after;
    out.plies.push_back(std::move(ply));
  }
  out.finished = game.is_terminal(state);
  out.end_reason = out.finished ? analysis_detail::end_reason_of(game, state) : "not over";
  out.result = current;
  out.totals[0].result = out.result;
  out.totals[1].result = 1.0 - out.result;
  for (int side = 0; side < 2; ++side) {
    SideTotals& totals = out.totals[static_cast<std::size_t>(side)];
    totals.adjusted = totals.result - totals.luck;
  }
  out.drift = out.result - out.start - out.totals[0].luck - decision_change[0] + decision_change[1];
  return out;
}

}  // namespace sling
