#pragma once
// `sling solve duel --turn-cap N`: the capped duel solved by backward induction (docs/solver.md).

#include <string>
#include <vector>

#include "engine/duel/duel.h"

namespace sling::cli {

struct SolveCappedCommand {
  std::string objective = "score";
  int keyframe_every = 10;
  int threads = 2;
  std::string out;
  bool json = false;
  bool quiet = false;
  bool value_only = false;  // --value-only: no outcome split, about twice as fast
  // The options of the uncapped solve that were given (refused: they mean nothing here).
  std::vector<std::string> uncapped_options;
  bool objective_given = false, keyframe_every_given = false, value_only_given = false;
};

// Solves `game` (whose rules have a turn cap), writes the capped solution file and prints the
// results.
void run_solve_capped(const SolveCappedCommand& c, const duel::DuelGame& game);

}  // namespace sling::cli
