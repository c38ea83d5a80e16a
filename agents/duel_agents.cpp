#include "agents/duel_agents.h"

#include "solvers/duel/capped_cache.h"
#include "solvers/duel/solution_cache.h"

namespace sling {

std::vector<PresetInfo> GameAgents<duel::DuelGame>::presets(const duel::DuelGame& game) {
  return {
      // The plain heuristic is as strong as `normal` in the duel (level head to head), so easy
      // is the heuristic with a blunder a quarter of the time: a beatable opponent, clearly
      // below normal (docs/strength.md measures the ladder).
      {"easy", "heuristic:blunder=0.25",
       "the rule-of-thumb policy, with a random move instead a quarter of the time"},
      {"normal", "lookahead:value_pitch=5",
       "the rest of the turn exactly, valued by the 5 cm lattice's exact solution "
       "(interpolated; solved once, a few seconds, then cached)"},
      // Under a turn cap that solves in about a minute, exact play of the capped game itself
      // (the lookahead's values ignore the cap, which decides play near its end).  Where the
      // refinement takes seconds (2 cm and coarser), the refined values; on the default 1 cm
      // lattice it would take minutes, and the interpolated values serve.
      duel::capped_solve_is_cheap(game)
          ? PresetInfo{"strong", "solver",
                       "exact play of this capped game (solved once, about a minute at most, "
                       "then cached)"}
      : duel::refinement_is_cheap(game)
          ? PresetInfo{"strong", "lookahead:refine=100",
                       "the rest of the turn exactly, valued by the exact solution one "
                       "centimetre coarser refined on this lattice (a sub-solution raised by "
                       "100 sweeps; computed once, seconds, then cached)"}
          : PresetInfo{"strong", "lookahead",
                       "the rest of the turn exactly, valued by the exact solution one "
                       "centimetre coarser (3 cm at the default 1 cm lattice; solved once, about "
                       "10-20 s, then cached)"},
  };
}

}  // namespace sling
