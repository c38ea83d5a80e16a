#pragma once
// The exact solver of the duel (docs/solver.md).
//
// Values are stored only where a turn begins: "David declares" and "Goliath declares" states,
// indexed by (layer, slot, position pair).  Everything inside a turn (the dice, David's God
// decisions, the movement disc, a tied melee) is evaluated exactly from those values each sweep.
// The turn counter of DuelState is not part of the index: without a turn cap the game is
// stationary.  A game that never ends counts as no David win.
//
// The layers are the irreversible flags: God (available -> used) and Goliath's kit (shield and
// javelin -> shield -> neither); they are solved one after another, each by Gauss-Seidel value
// iteration from zero, accelerated by reduced-rank extrapolation whose jumps are kept only when
// the layer is still a sub-solution (x <= T x).  Strategy improvement follows: the values become
// those of David's policy greedy on them against Goliath's best response (policy iteration for
// Goliath, each pair of policies evaluated exactly by BiCGSTAB over the pair's compiled operator),
// until they stop moving; this is what reaches the value where a stand-off makes value iteration
// crawl.  Then the answer is certified by a bracket: the solved values, checked to be a
// sub-solution of the discounted game, bound the value of David's greedy policy against any
// Goliath from below; a vector y with T y <= y, found by value iteration from above, bounds the
// game's value and that of Goliath's policy greedy on y against David's best response from above.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/duel/duel.h"

namespace sling::duel {

struct SolveSummary;

struct SolverOptions {
  int threads = 2;           // TBB worker threads
  double tolerance = 1e-13;  // a layer's iteration stops when no value moves by more
  // The solve pass counts each turn as ending without a David win with this probability.  It
  // makes the greedy David policy prefer finishing to stalling in positions whose undiscounted
  // values tie (a maximiser of a reachability objective can otherwise stall forever on a tie);
  // the values it costs (about discount times the game's length) are covered by the bracket.
  double discount = 1e-10;
  int max_sweeps = 20000;  // per layer and per pass
  bool accelerate = true;  // extrapolate (reduced-rank) in the solve passes
  // The certification passes start this far below (lower) and above (upper) the solved values;
  // a margin that does not certify is retried larger.  The solved values are a sub-solution, so
  // the lower pass certifies them as they are; the bracket is then about the upper margin.
  double lower_margin = 0;
  double upper_margin = 1e-8;
  // The upper pass starts higher where the solve was still moving: by upper_slack times the
  // state's last change more (about the distance left when the iteration shrinks it by 0.999 a
  // sweep).  Retries scale it with the margin.
  double upper_slack = 1e3;
  // Once the upper pass has certified (a sweep raised nothing), each further sweep only lowers the
  // bound and still leaves a pre-fixed point: it tightens until a sweep lowers no value by more
  // than rounding, for at most this many sweeps per layer.
  int upper_tightening_sweeps = 100;
  // The upper pass starts each layer from the undiscounted value of the pair of policies greedy
  // on the solved values where it lies above them (docs/solver.md), instead of from the solved
  // values alone.
  bool shaped_upper_start = true;
  // After each layer's solve, strategy improvement: at most this many times per layer, the
  // layer's values become those of David's policy greedy on them against Goliath's best response
  // (0: off).  From a loosely converged solve it reaches the value in a few steps (see
  // docs/solver.md); from a tightly converged one its first step only confirms it.
  int policy_improvements = 0;
  // Gauss-Seidel sweeps of the solve between two strategy-improvement steps (docs/solver.md).
  int improvement_sweeps = 10;
  bool nontermination = true;  // also bound the probability that optimal play never ends
  // Values to start from instead of zero: those of an earlier solution of the same game (for
  // example a run whose strategy improvement stopped at its step limit).  A solution's values are
  // a certified sub-solution, so every pass stays valid from them (docs/solver.md).
  const std::vector<double>* start_values = nullptr;
  // Called with the values so far after a layer's solve and after each strategy-improvement step,
  // once at least checkpoint_seconds have passed since the start or the last call.  The values
  // are a sub-solution at every such point, so a run stopped after a checkpoint continues from it
  // with start_values (`sling solve duel --checkpoint FILE`, then `--start FILE`).
  std::function<void(const std::vector<double>& values, const SolveSummary& so_far)> checkpoint;
  double checkpoint_seconds = 600;
  std::function<void(const std::string&)> log;  // progress lines; may be empty
};

// The route `sling solve duel` and `sling study god` take unless told otherwise: value iteration
// to a per-sweep change of 1e-6, then strategy improvement until each layer converges.  On the
// default board (pitch 1) value iteration alone would need thousands of sweeps a layer to close
// the bracket; strategy improvement converged in 43 steps on the first layer and needs more
// than 100 on god/no-kit (docs/solver.md).  The step limit only guards against a layer that
// never settles.
inline constexpr double kRouteTolerance = 1e-6;
inline constexpr int kRouteImprovements = 1000;

// One pass over one layer: how many sweeps and the largest change of each sweep.
struct PassReport {
  std::string layer;
  std::string pass;  // "solve", "improve", "lower", "upper", "termination", "termination-lower"
  int sweeps = 0;    // best-response and termination passes: products, one sweep each
  int extrapolations = 0;      // solve passes: extrapolation jumps kept
  int check_sweeps = 0;        // sweeps spent checking the jumps (x <= T x at every state)
  std::uint64_t rejected = 0;  // jumps that failed the check and were undone
  std::uint64_t put_back = 0;  // states put back to their value before a kept jump
  int tightening_sweeps = 0;   // upper passes: sweeps after certifying that lowered the bound
  int rounds = 0;              // best-response passes: policy-iteration rounds
  double seconds = 0;
  bool certified = true;  // upper pass: a sweep changed no value upwards; best response: settled
  // Per sweep; best-response passes: the largest move of each round; termination: the residual
  // left by each BiCGSTAB solve.
  std::vector<double> max_change;
};

struct SolveSummary {
  // David's win probability at the start (before the initiative roll) and once the initiative is
  // settled (David acts first / Goliath acts first); with God and without God.
  double start = 0, david_first = 0, goliath_first = 0;
  double start_without_god = 0, david_first_without_god = 0, goliath_first_without_god = 0;
  // The certified bracket for the start value, with God and without.
  double lower_bound = 0, upper_bound = 1;
  double lower_bound_without_god = 0, upper_bound_without_god = 1;
  // Under the computed policies of both sides, a lower bound on Goliath's win probability, and
  // so an upper bound on the probability that the game never ends (1 - lower - goliath).
  double goliath_win_lower = 0;
  double nontermination_upper = 1;
  bool nontermination_computed = false;
  std::uint64_t states = 0;            // declare states in the index (both sides, every layer)
  std::uint64_t canonical_states = 0;  // after the left-right symmetry
  int layers = 0;
  int sweeps = 0;        // all passes (a policy-evaluation product counts as a sweep)
  int improvements = 0;  // strategy-improvement steps run by the layer that ran the most
  double seconds = 0;
  std::uint64_t peak_memory_bytes = 0;
  int threads = 0;
  std::vector<PassReport> passes;
};

// Geometry and indexing of the declare states.
class DuelIndex {
 public:
  static constexpr int kLayers = 6;  // (God available, kit) with kit 0 none, 1 shield, 2 both
  static constexpr int kSlots = 10;  // 4 David slots (stone, dazed), 6 Goliath slots
  explicit DuelIndex(const DuelGame& game);

  int david_points() const { return david_points_; }
  int goliath_points() const { return goliath_points_; }
  std::size_t pairs() const { return pairs_; }
  std::size_t size() const { return static_cast<std::size_t>(kLayers) * kSlots * pairs_; }

  std::size_t pair(int david_x, int david_y, int goliath_x, int goliath_y) const {
    return static_cast<std::size_t>(goliath_y * goliath_cols_ + goliath_x) * david_points_ +
           static_cast<std::size_t>(david_y * david_cols_ + david_x);
  }
  std::size_t mirror(std::size_t pair) const;
  bool canonical(std::size_t pair) const;
  static int layer(bool god, bool shield, bool javelin) {
    return (god ? 3 : 0) + (shield ? (javelin ? 2 : 1) : 0);
  }
  static int david_slot(bool stone, bool dazed) { return (stone ? 2 : 0) + (dazed ? 1 : 0); }
  static int goliath_slot(bool stone, bool dazed, bool behead_pending) {
    return 4 + (stone ? 3 : 0) + (dazed ? (behead_pending ? 2 : 1) : 0);
  }
  std::size_t at(int layer, int slot, std::size_t pair) const {
    return (static_cast<std::size_t>(layer) * kSlots + static_cast<std::size_t>(slot)) * pairs_ +
           pair;
  }
  // The index of a state at which a side declares (turn ignored); nullopt for other states.
  std::optional<std::size_t> index_of(const DuelState& s) const;

 private:
  int david_cols_, david_rows_, goliath_cols_, goliath_rows_;
  int david_points_, goliath_points_;
  std::size_t pairs_;
};

class DuelSolution {
 public:
  // Version 5 marks checkpoints; version 4 files (solutions only) are still read.
  static constexpr std::uint32_t kFormatVersion = 5;

  // A checkpoint (complete = false) holds the values of an unfinished solve: a sub-solution to
  // continue from, not a solution to play or study.
  DuelSolution(const DuelGame& game, std::vector<double> values, SolveSummary summary,
               bool complete = true);

  const DuelGame& game() const { return game_; }
  const DuelIndex& index() const { return index_; }
  const SolveSummary& summary() const { return summary_; }
  const std::vector<double>& values() const { return values_; }
  bool complete() const { return complete_; }

  // David's optimal win probability at any state (decision, chance or terminal): an exact
  // expectimax over the rest of the current turn with the stored values at the next turn's start.
  double value(const DuelState& s) const;
  // The value (David's win probability) after each legal action of a decision state, in the
  // order of DuelGame::legal_actions.
  std::vector<std::pair<Action, double>> action_values(const DuelState& s) const;
  // The optimal action for the side to move: David maximises, Goliath minimises; the first of
  // equal values wins.
  Action best_action(const DuelState& s) const;

  // Cereal binary with a header (magic, version, whether complete, rules JSON, sizes) and a
  // checksum.
  void save(const std::string& path) const;
  // The same file for values held elsewhere (a checkpoint of a running solve), without copying
  // them into a DuelSolution first.
  static void save(const std::string& path, const DuelGame& game, const std::vector<double>& values,
                   const SolveSummary& summary, bool complete);
  // Throws FileFormatError for a corrupted file or another version, RulesError when `expected`
  // is given and the file was solved for other rules.  A checkpoint is refused unless accepted.
  enum class Accept { kSolution, kSolutionOrCheckpoint };
  static DuelSolution load(const std::string& path, const DuelGame* expected = nullptr,
                           Accept accept = Accept::kSolution);

 private:
  double turn_value(const DuelState& s, bool root) const;
  double initiative_value(bool god) const;

  DuelGame game_;
  DuelIndex index_;
  std::vector<double> values_;
  SolveSummary summary_;
  bool complete_ = true;
};

// Throws RulesError for rules the solver does not support (a turn cap, or a David movement that
// can be negative).
void check_solvable(const DuelGame& game);

// Solves the duel and certifies the bracket.
DuelSolution solve_duel(const DuelGame& game, const SolverOptions& options = {});

// Peak resident memory of this process (bytes), from /proc/self/status.
std::uint64_t peak_memory_bytes();

}  // namespace sling::duel
