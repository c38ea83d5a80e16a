#pragma once
// The value function each game's analysis reads: the best Sling has for it, named in words and
// marked exact or not.
// - duel: an exact solution given (`solution_file`) or cached for the game's own lattice; else the
//   solution one centimetre coarser, interpolated (refined by `refine` sweeps when asked);
// - Pig: the exact solution (solved on first use);
// - danelaw: the learned value model (approximate).

#include <string>

#include "engine/danelaw/danelaw.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "experiments/analysis/game_analysis.h"

namespace sling {

struct AnalysisValueOptions {
  std::string solution_file;  // the duel's exact solution (`sling solve duel --out`)
  int refine = 0;             // the duel without an exact solution: refinement sweeps
  // The duel: value a state inside a turn over the game's candidate actions, not every legal one
  // (about 30 times faster; what luck in tournaments uses: any fixed value function keeps the
  // adjustment unbiased).
  bool candidates_only = false;
};

template <Game G>
struct AnalysisValue {
  WinProbability<G> value;
  std::string source;  // e.g. "exact solution (2 cm lattice)"
  bool exact = false;
};

AnalysisValue<duel::DuelGame> analysis_value(const duel::DuelGame& game,
                                             const AnalysisValueOptions& options);
AnalysisValue<pig::PigGame> analysis_value(const pig::PigGame& game,
                                           const AnalysisValueOptions& options);
AnalysisValue<danelaw::DanelawGame> analysis_value(const danelaw::DanelawGame& game,
                                                   const AnalysisValueOptions& options);

}  // namespace sling
