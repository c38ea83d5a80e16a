#pragma once
// `sling study regret`: an agent's loss decision by decision against a solved duel (registered
// under `sling study` by cmd_study.cpp).
#include <CLI/CLI.hpp>

namespace sling::cli {

void add_regret_study(CLI::App& study);

}  // namespace sling::cli
