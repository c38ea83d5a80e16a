#pragma once
// The duel's solutions and the value functions over them, computed on first use, cached on disk
// (engine/core/disk_cache.h: one file per rules, named by a hash of their JSON) and shared in
// memory per content and process (engine/core/keyed_cache.h).  Every function here is
// thread-safe; a solve of minutes for one key never holds up a caller of another.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

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

// How the interpolated values are refined (refinement.h): at most `sweeps` rising sweeps a layer
// (0 = not refined), stopping early once no value rises by more than `rise_tolerance` (0 = never).
struct RefinementRequest {
  int sweeps = 0;
  double rise_tolerance = 0;
  bool operator==(const RefinementRequest&) const = default;
};

// The refined values (refinement.h) of `game`'s lattice from the solution at `coarse_pitch_cm`:
// loaded from the cache (duel-refined-<hash of the rules, the pitch and the request>.sol, an
// unfinished solution file), else computed with a progress line and saved there.  A corrupt,
// truncated or foreign file is computed again with a one-line notice.  The turn cap is ignored
// (the values are the uncapped game's).  `cancelled` (may be empty) stops a computation with
// RefinementCancelled; nothing is cached then.
std::shared_ptr<const DuelSolution> cached_refined_values(
    const DuelGame& game, int coarse_pitch_cm, RefinementRequest request,
    const std::function<bool()>& cancelled = {});

// Whether `strong` refines `game`'s lattice (agents/duel_agents.cpp): at most the pairs of the
// default 30 cm board at 1 cm (551,124; about a minute and 400 MB once, then cached).  Larger
// lattices (boards over 30 cm at 1 cm) would take much longer.
inline constexpr std::size_t kAffordableRefinementPairs = 560000;
bool refinement_is_affordable(const DuelGame& game);

// The `strong` lookahead where refinement is affordable: at most 100 rising sweeps a layer,
// stopping once no value rises by more than 1e-5 (docs/strength.md measures the choice).
// kStrongRefinement is the same request, for those that look for the values `strong` computed.
inline constexpr std::string_view kStrongRefinedLookahead =
    "lookahead:refine=100,refine_tolerance=1e-05";
inline constexpr RefinementRequest kStrongRefinement{100, 1e-5};

// The coarse pitch used when none is asked for: one centimetre coarser than the game's lattice,
// and at least 3 (on the default 30 cm board pitch 3 solves in about 20 s on 2 cores, pitch 2 in
// about 9 minutes on one); the coarsest allowed pitch (5) is solved as it is.
int default_coarse_pitch(const DuelGame& game);

// The value function of `game` from a solution at `coarse_pitch_cm` (0: default_coarse_pitch), or
// from the game's own solution when the cache already holds it and `allow_same_lattice` is set.
// With `refine.sweeps` > 0 (and no own solution used) the interpolated values are refined on the
// game's lattice first (cached_refined_values, which `cancelled` may stop).  Shared per (rules,
// pitch, refinement, scope, cache directory) and process.
std::shared_ptr<const CoarseDuelValue> shared_coarse_value(
    const DuelGame& game, int coarse_pitch_cm, bool allow_same_lattice = true,
    CoarseDuelValue::Scope leaf_scope = CoarseDuelValue::Scope::kCandidates,
    RefinementRequest refine = {}, const std::function<bool()>& cancelled = {});

// Whether shared_coarse_value with these arguments returns without solving or refining anything:
// the value function is held in memory, or every file it needs is in the disk cache (loading a
// large one still takes seconds).
bool coarse_value_is_ready(const DuelGame& game, int coarse_pitch_cm, bool allow_same_lattice,
                           CoarseDuelValue::Scope leaf_scope, RefinementRequest refine);

}  // namespace sling::duel
