#pragma once
// `sling study best-response GAME`: the exact best response to the game's heuristic (registered
// under `sling study` by cmd_study.cpp).
#include <CLI/CLI.hpp>

namespace sling::cli {

void add_best_response_study(CLI::App& study);

}  // namespace sling::cli
