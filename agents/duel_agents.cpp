#include "agents/duel_agents.h"

#include "agents/spec.h"
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
      // (the lookahead's values ignore the cap, which decides play near its end).  Up to the
      // default board's 1 cm lattice, the refined values: within a point of exact play, where
      // the interpolated ones are about 4 points off (docs/strength.md); a table with a person
      // computes them while it plays.  Beyond it the refinement would take too long, and the
      // interpolated values serve.
      duel::capped_solve_is_cheap(game)
          ? PresetInfo{"strong", "solver",
                       "exact play of this capped game (solved once, about a minute at most, "
                       "then cached)"}
      : duel::refinement_is_affordable(game)
          ? PresetInfo{"strong", std::string(duel::kStrongRefinedLookahead),
                       "the rest of the turn exactly, valued by the exact solution one "
                       "centimetre coarser refined on this lattice (a sub-solution raised until "
                       "it settles; computed once, then cached: seconds at 2 cm, about a minute "
                       "on the default 1 cm lattice, in the background when a person plays)"}
          : PresetInfo{"strong", "lookahead",
                       "the rest of the turn exactly, valued by the exact solution one "
                       "centimetre coarser (3 cm at the default 1 cm lattice; solved once, about "
                       "10-20 s, then cached)"},
  };
}

std::string GameAgents<duel::DuelGame>::at_a_persons_table(const duel::DuelGame&,
                                                           const std::string& spec) {
  const AgentSpec parsed = parse_agent_spec(spec);
  if (parsed.name != "lookahead" || parsed.options.count("background") != 0) return spec;
  const auto refine = parsed.options.find("refine");
  if (refine == parsed.options.end() || refine->second == "0") return spec;
  return spec + ",background=1";
}

}  // namespace sling
