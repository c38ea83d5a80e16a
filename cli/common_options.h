#pragma once
// The options several commands share, declared one way: --threads N (0: every core; at most 256;
// a request above the machine's core count is served with its core count) and --seed S (an
// integer from 0 to 2^64 - 1; anything else is refused rather than wrapped).

#include <CLI/CLI.hpp>

#include <string>

namespace sling::cli {

inline constexpr int kMaxThreads = 256;

// Adds --threads with the shared range and help; `threads` holds the default.
CLI::Option* add_threads_option(CLI::App& sub, int& threads);

// The worker count to use for a --threads value: every core for 0, and never more than the
// machine's core count (results do not depend on it; oversubscription only slows a run down).
int resolve_threads(int requested);

// Adds --turn-limit: games between agents are drawn when turn N + 1 would begin (0: no limit; at
// most 65,535; engine/core/game_limit.h).  `turns` holds the default.
CLI::Option* add_turn_limit_option(CLI::App& sub, int& turns);

// Adds --seed with the shared check; `seed` holds the default.
CLI::Option* add_seed_option(CLI::App& sub, std::uint64_t& seed, const std::string& help);

// Sets the help footer of a command: one example per line, shown under "Examples:".
void set_examples(CLI::App& sub, std::initializer_list<std::string_view> examples);

}  // namespace sling::cli
