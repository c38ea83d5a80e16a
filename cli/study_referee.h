#pragma once
// `sling study referee danelaw`: an agent against exact play on danelaw scenarios small enough to
// solve (experiments/studies/danelaw_referee.h; registered under `sling study` by cmd_study.cpp).
#include <CLI/CLI.hpp>

namespace sling::cli {

void add_referee_study(CLI::App& study);

}  // namespace sling::cli
