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
// Solutions are computed on first use and cached on disk, keyed by the rules' content
// (duel_solution_cache_path).  The class is immutable after construction and safe to share
// between threads.

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
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

// ---------------------------------------------------------------------------------------------
// The on-disk cache of duel solutions.

// The cache directory: set_duel_cache_directory's, else $XDG_CACHE_HOME/sling, else
// ~/.cache/sling (else ./.sling-cache when HOME is unset).
std::string duel_cache_directory();
// Moves the cache (`sling --cache DIR`); "" restores the default.  Process-wide.
void set_duel_cache_directory(const std::string& directory);

// The file that caches the solution of `game`'s rules: duel-<64-bit FNV-1a of the rules JSON>.sol.
std::string duel_solution_cache_path(const DuelGame& game, const std::string& directory);
// A cache file of the directory named `prefix`-<64-bit FNV-1a of `key`>.sol (other tables that
// derive from a solution: refined values, best-response values).
std::string duel_cache_file(const std::string& directory, const std::string& prefix,
                            const std::string& key);

// Progress and notice lines of the cache (defaults to stderr).  Process-wide.
void set_duel_cache_log(std::function<void(const std::string&)> log);
// Writes one line to the cache's log.
void duel_cache_log_line(const std::string& line);

// Saves a solution just solved (`save(path)`) into the cache directory and logs how long the solve
// took; a failure to save is logged, not thrown (the solution in memory serves all the same).
// `what` names the solution in the failure's line.
void save_solved_in_duel_cache(const std::function<void(const std::string&)>& save,
                               const std::string& directory, const std::string& path,
                               double seconds, const std::string& what,
                               const std::function<void(const std::string&)>& log);

// A table that derives from a solution (refined values, best-response values: an unfinished
// solution file of `game`'s rules) loaded from `path`; null when there is none, and null after a
// notice to `log` when it is unusable (corrupt, truncated, foreign, or a complete solution under
// a table's name).  `what` names the table, `redoing` what is done instead ("computing").
std::shared_ptr<const DuelSolution> load_unfinished_cache_file(
    const DuelGame& game, const std::string& path, const std::string& what,
    const std::string& redoing, const std::function<void(const std::string&)>& log);

// The solution of `game`'s rules: loaded from the cache, else solved (with a progress line) and
// saved there.  A corrupt, truncated or foreign cache file is solved again with a one-line notice.
// Shared per rules and process.  Thread-safe.
std::shared_ptr<const DuelSolution> cached_duel_solution(const DuelGame& game);

// The cached solution of `game`'s own rules when the cache holds one (never solves), else null.
std::shared_ptr<const DuelSolution> cached_duel_solution_if_present(const DuelGame& game);

// The refined values (refinement.h) of `game`'s lattice from the solution at `coarse_pitch_cm`
// with `sweeps` rising sweeps: loaded from the cache (duel-refined-<hash of the rules, the pitch
// and the sweeps>.sol, an unfinished solution file), else computed with a progress line and saved
// there.  A corrupt, truncated or foreign file is computed again with a one-line notice.  The turn
// cap is ignored (the values are the uncapped game's).  Shared per key and process.  Thread-safe.
std::shared_ptr<const DuelSolution> cached_refined_values(const DuelGame& game, int coarse_pitch_cm,
                                                          int sweeps);

// Whether refining `game`'s lattice takes seconds rather than minutes: at most
// kCheapRefinementPairs position pairs.  The 30 cm board at 2 cm has 33,124 (100 sweeps: about
// 10 s on 2 cores), at 1 cm 551,124 (several minutes).
inline constexpr std::size_t kCheapRefinementPairs = 60000;
bool refinement_is_cheap(const DuelGame& game);

// The coarse pitch used when none is asked for: one centimetre coarser than the game's lattice,
// and at least 3 (on the default 30 cm board pitch 3 solves in about 20 s on 2 cores, pitch 2 in
// about 9 minutes on one); the coarsest allowed pitch (5) is solved as it is.
int default_coarse_pitch(const DuelGame& game);

// The value function of `game` from a solution at `coarse_pitch_cm` (0: default_coarse_pitch), or
// from the game's own solution when the cache already holds it and `allow_same_lattice` is set.
// With `refine_sweeps` > 0 (and no own solution used) the interpolated values are refined on the
// game's lattice first (cached_refined_values).  Shared per (rules, pitch, refinement, scope) and
// process.  Thread-safe.
std::shared_ptr<const CoarseDuelValue> shared_coarse_value(
    const DuelGame& game, int coarse_pitch_cm, bool allow_same_lattice = true,
    CoarseDuelValue::Scope leaf_scope = CoarseDuelValue::Scope::kCandidates, int refine_sweeps = 0);

}  // namespace sling::duel
