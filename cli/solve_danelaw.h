#pragma once
// `sling solve danelaw`: a small danelaw scenario solved exactly (solvers/danelaw/exact_solver.h).

#include <CLI/CLI.hpp>

namespace sling::cli {

// Adds `danelaw` (with its options and callback) under the `solve` command.
void add_solve_danelaw_subcommand(CLI::App& solve);

}  // namespace sling::cli
