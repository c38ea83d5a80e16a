#pragma once
// Capped solutions computed on first use and kept in the duel's solution cache (the directory of
// disk_cache_settings), so that exact play under a turn cap needs no solve by hand when the
// solve is cheap: `solver` without a file under capped rules, and the `strong` preset.

#include <memory>

#include "engine/duel/duel.h"
#include "solvers/duel/capped_solution.h"

namespace sling::duel {

// The capped solve of `game`'s rules is cheap when its estimated time is about a minute or less
// on two cores: the canonical states times the turn cap under a budget measured on this solver
// (with the outcome split, about 3 million canonical states a second over two threads: pitch 2 on
// the default board is about 0.2-0.4 s a turn, pitch 1 about 5 s; the cache solves without the
// split, about twice as fast, so the estimate is cautious).  False without a cap.
bool capped_solve_is_cheap(const DuelGame& game);

// The file that caches `game`'s capped solution for `objective`:
// duel-<hash of the rules JSON>-<objective>.sol beside the uncapped solutions.
std::string capped_solution_cache_path(const DuelGame& game, CappedObjective objective,
                                       const std::string& directory);

// The capped solution of `game`'s rules (which must have a turn cap) for `objective`: loaded from
// the cache, else solved (with progress lines) and saved there.  A corrupt, truncated or foreign
// cache file is solved again with a one-line notice.  Shared per rules, objective and process.
// Thread-safe.
std::shared_ptr<const CappedDuelSolution> cached_capped_duel_solution(const DuelGame& game,
                                                                      CappedObjective objective);

}  // namespace sling::duel
