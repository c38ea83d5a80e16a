#pragma once
// `sling study sweep`: one duel rule over several values, each variant solved exactly and studied
// for God (registered under `sling study` by cmd_study.cpp).
#include <CLI/CLI.hpp>

namespace sling::cli {

void add_sweep_study(CLI::App& study);

}  // namespace sling::cli
