#pragma once
// The difficulty presets `easy`, `normal` and `strong`: names that stand for one agent spec each
// in every game.  make_agent accepts them wherever a spec is accepted (play, match, tournament,
// hints), and `sling agents GAME` lists what each stands for.  docs/strength.md measures them.
//
// Each preset is chosen by measurement: each is clearly stronger than the one below, `normal`
// takes about 0.2 s a decision and `strong` at most about a second on two cores.

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "engine/core/game.h"
#include "engine/danelaw/danelaw.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "solvers/duel/capped_cache.h"
#include "solvers/duel/solution_cache.h"

namespace sling {

struct PresetInfo {
  std::string name;  // easy, normal, strong
  std::string spec;
  std::string help;
};

// Danelaw's games are long (hundreds of decisions, 24 turns) and its movement combinatorial, so a
// tree over single moves is weaker than its heuristic; its presets search whole movement plans
// scored by the learned value model instead (`planner`, engine/danelaw/planner.h; docs/strength.md,
// "Danelaw", measures them).
template <Game G>
inline constexpr bool kPlansMovement = std::is_same_v<G, danelaw::DanelawGame>;

template <Game G>
std::vector<PresetInfo> agent_presets([[maybe_unused]] const G& game) {
  if constexpr (std::is_same_v<G, duel::DuelGame>) {
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
  } else if constexpr (std::is_same_v<G, pig::PigGame>) {
    return {
        {"easy", "heuristic", "the rule-of-thumb policy"},
        {"normal", "mcts:iterations=2000,rollout=heuristic", "a quick search"},
        {"strong", "solver", "the exact optimal policy (solved in about a second)"},
    };
  } else if constexpr (kPlansMovement<G>) {
    return {
        // A random move costs much more in danelaw (an army marched away, a turn's points
        // wasted), so its easy preset blunders less often than the duel's.
        {"easy", "heuristic:blunder=0.1",
         "the rule-of-thumb policy, with a random move instead one time in ten"},
        // Measured per side: plan search with the value model makes much better Danes, but
        // battle decisions by playouts and the model made worse English, and the English plan
        // search gained nothing measurable; so battles follow the heuristic and the English play
        // the heuristic's plan (english_plans=1).
        {"normal", "planner:plans=8,samples=2,battle=0,english_plans=1",
         "the Danes: movement plans scored by the learned value model (a small budget); "
         "the English and all battles: the rule-of-thumb policy"},
        {"strong", "planner:plans=64,samples=4,battle=0,english_plans=1",
         "the Danes: movement plans scored by the learned value model (a larger budget); "
         "the English and all battles: the rule-of-thumb policy"},
    };
  } else {
    return {
        {"easy", HasHeuristicPolicy<G> ? "heuristic" : "mcts:iterations=200", "a weak policy"},
        {"normal", "mcts:iterations=2000", "a quick search"},
        {"strong", "mcts:iterations=20000", "a deeper search"},
    };
  }
}

// The spec a preset name stands for in game G, or nullopt when `text` names no preset.
template <Game G>
std::optional<std::string> preset_spec(const G& game, std::string_view text) {
  for (const PresetInfo& preset : agent_presets(game)) {
    if (preset.name == text) return preset.spec;
  }
  return std::nullopt;
}

}  // namespace sling
