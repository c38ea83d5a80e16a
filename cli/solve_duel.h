#pragma once
// `sling solve duel`: solves the duel exactly and writes the solution file (docs/solver.md).

#include <CLI/CLI.hpp>

namespace sling::cli {

// Adds `duel` (with its options and callback) under the `solve` command.
void add_solve_duel_subcommand(CLI::App& solve);
// Sets up the options and the callback of an existing subcommand as the duel solver.
void configure_solve_duel(CLI::App& sub);

}  // namespace sling::cli
