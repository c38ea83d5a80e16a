#pragma once
// The duel's value function for search: the exact solution of the same rules on a coarser lattice,
// interpolated onto the game's own lattice (docs/search.md, "The duel's value function").
//
// At a state where a side declares (the states the solver stores), a fine-lattice position pair is
// mapped to continuous coarse-lattice coordinates of both figures, and the value is the bilinear
// interpolation over the 2 x 2 nearest coarse points of each figure (16 position pairs) with the
// same flags (stone, kit, dazed, God, side to move).  Coarse pairs whose bases would overlap are
// skipped; pairs at the same range as the fine state (in contact, or the same number of shooting
// bands) are preferred, so a value never mixes positions where a stone or a melee is possible
// with positions where it is not.  Elsewhere (dice pending, God's decision, a destination) the
// value is the exact expectation over the rest of the current turn on the fine lattice, with the
// interpolated values at the next turn's start.
//
// A solution of the game's own lattice, when one is given (or cached), is used instead: the
// interpolation over an identical lattice returns the stored values exactly.
//
// The class is immutable after construction and safe to share between threads.  The solutions it
// reads are computed on first use and cached on disk, and its instances shared, by
// solution_cache.h (shared_coarse_value).

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/duel/duel.h"
#include "solvers/duel/solver.h"

namespace sling::duel {

class CoarseDuelValue {
 public:
  // Which actions the turn expectation maximises over: every legal action (exact within the
  // turn; a destination decision lists hundreds) or the game's candidate actions (about 20; what
  // search expands anyway, and a hundred times cheaper at the leaves of a search).
  enum class Scope : std::uint8_t { kAllActions, kCandidates };

  // `source` must be a solution of `game`'s rules on any lattice pitch (board, bases, dice and
  // options identical; DuelRules other than pitch_cm are checked), without a turn cap: a capped
  // game is valued as if it had none (the game itself scores the draw at the cap).
  // `refined`: the source holds refined values of the game's lattice (refinement.h), not a
  // solution; exact() then never holds.
  CoarseDuelValue(const DuelGame& game, std::shared_ptr<const DuelSolution> source,
                  Scope leaf_scope = Scope::kCandidates, bool refined = false);

  const DuelGame& game() const { return game_; }
  int source_pitch_cm() const { return source_->game().rules().pitch_cm; }
  // Exact only on the source's own lattice and without a turn cap (the values ignore the cap).
  bool exact() const {
    return !refined_ && source_pitch_cm() == game_.rules().pitch_cm && game_.rules().turn_cap == 0;
  }
  // Refined values: a sub-solution, whose greedy David wins at least its values.
  bool refined() const { return refined_; }

  // David's win probability at a declare state that the solver indexes (DuelIndex::index_of).
  double declare_value(const DuelState& s) const;
  // David's win probability of any state: a stored turn start is interpolated, anything else is
  // the expectation over the rest of its turn (with `scope`'s actions at each decision).
  double win_probability(const DuelState& s, Scope scope) const;
  // The leaf value for search: side 0's (David's) payoff in [-1, 1].
  double operator()(const DuelState& s) const { return 2 * win_probability(s, leaf_scope_) - 1; }
  // David's win probability after each legal action of a decision state (legal_actions order),
  // each valued to the end of the current turn over every legal action.
  std::vector<std::pair<Action, double>> action_values(const DuelState& s) const;

 private:
  struct Axis {  // one fine lattice coordinate on the coarse lattice
    std::uint8_t low = 0, high = 0;
    float high_weight = 0;
  };
  // Destination decisions recur within a turn (God's re-roll often gives an allowance already
  // seen), and each lists hundreds of destinations: their values are kept for the rest of one
  // evaluation, in a small table on the stack.
  struct TurnMemo {
    static constexpr int kSize = 48;
    std::array<DuelState, kSize> states;
    std::array<double, kSize> values;
    int used = 0;
  };
  double turn_value(const DuelState& s, bool root, Scope scope, int depth, TurnMemo& memo) const;

  DuelGame game_;
  DuelIndex fine_index_;
  std::shared_ptr<const DuelSolution> source_;
  Scope leaf_scope_;
  bool refined_;
  std::vector<Axis> david_x_, david_y_, goliath_x_, goliath_y_;
  // Per coarse position pair: 0 where the bases overlap, else 1 + its range class (contact or the
  // number of full shooting bands).
  std::vector<std::uint8_t> coarse_range_;
};

}  // namespace sling::duel
