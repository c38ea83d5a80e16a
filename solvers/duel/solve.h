#pragma once
// The entry point of the exact duel solver.

#include <cstdint>

#include "engine/duel/duel.h"
#include "solvers/duel/solution.h"
#include "solvers/duel/solve_options.h"

namespace sling::duel {

// Throws RulesError for rules the solver does not support (a turn cap, which capped_solve.h
// solves, or a David movement that can be negative).
void check_solvable(const DuelGame& game);

// Solves the duel and certifies the bracket.
DuelSolution solve_duel(const DuelGame& game, const SolverOptions& options = {});

// Peak resident memory of this process (bytes), from /proc/self/status.
std::uint64_t peak_memory_bytes();

}  // namespace sling::duel
