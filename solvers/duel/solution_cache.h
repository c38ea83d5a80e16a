#pragma once
// The duel's solutions and the value functions over them, computed on first use, cached on disk
// (engine/core/disk_cache.h: one file per rules, named by a hash of their JSON) and shared in
// memory per content and process (engine/core/keyed_cache.h).  Every function here is
// thread-safe; a solve of minutes for one key never holds up a caller of another.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "engine/core/disk_cache.h"
#include "engine/duel/duel.h"
#include "solvers/duel/coarse_value.h"
#include "solvers/duel/solution.h"

namespace sling::duel {

// The file that caches the solution of `game`'s rules: duel-<64-bit FNV-1a of the rules JSON>.sol.
std::string duel_solution_cache_path(const DuelGame& game, const std::string& directory);

// A table that derives from a solution (refined values, best-response values: an unfinished
// solution file of `game`'s rules) loaded from `path`; null when there is none, and null after a
// notice to `log` when it is unusable (corrupt, truncated, foreign, or a complete solution under
// a table's name).  `what` names the table, `redoing` what is done instead ("computing").
std::shared_ptr<const DuelSolution> load_unfinished_cache_file(const DuelGame& game,
                                                               const std::string& path,
                                                               const std::string& what,
                                                               const std::string& redoing,
                                                               const CacheLog& log);

// The solution of `game`'s rules: loaded from the cache, else solved (with a progress line) and
// saved there.  A corrupt, truncated or foreign cache file is solved again with a one-line notice.
std::shared_ptr<const DuelSolution> cached_duel_solution(const DuelGame& game);

// The cached solution of `game`'s own rules when the cache holds one (never solves), else null.
std::shared_ptr<const DuelSolution> cached_duel_solution_if_present(const DuelGame& game);

// The refined values (refinement.h) of `game`'s lattice from the solution at `coarse_pitch_cm`
// with `sweeps` rising sweeps: loaded from the cache (duel-refined-<hash of the rules, the pitch
// and the sweeps>.sol, an unfinished solution file), else computed with a progress line and saved
// there.  A corrupt, truncated or foreign file is computed again with a one-line notice.  The turn
// cap is ignored (the values are the uncapped game's).
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
// game's lattice first (cached_refined_values).  Shared per (rules, pitch, refinement, scope,
// cache directory) and process.
std::shared_ptr<const CoarseDuelValue> shared_coarse_value(
    const DuelGame& game, int coarse_pitch_cm, bool allow_same_lattice = true,
    CoarseDuelValue::Scope leaf_scope = CoarseDuelValue::Scope::kCandidates, int refine_sweeps = 0);

}  // namespace sling::duel
