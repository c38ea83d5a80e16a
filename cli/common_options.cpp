#include "cli/common_options.h"

#include <algorithm>
#include <thread>

namespace sling::cli {

CLI::Option* add_threads_option(CLI::App& sub, int& threads) {
  return sub
      .add_option("--threads", threads,
                  "Worker threads: 0 = every core, at most " + std::to_string(kMaxThreads) +
                      " (capped at the core count; results do not depend on it)")
      ->check(CLI::Range(0, kMaxThreads))
      ->capture_default_str();
}

CLI::Option* add_turn_limit_option(CLI::App& sub, int& turns) {
  return sub
      .add_option("--turn-limit", turns,
                  "Draw a game between agents still going after this many turns, both sides' "
                  "turns counted (0 = no limit; the duel: docs/rules/duel.md)")
      ->check(CLI::Range(0, 65535))
      ->capture_default_str();
}

int resolve_threads(int requested) {
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return requested <= 0 ? cores : std::min(requested, cores);
}

CLI::Option* add_seed_option(CLI::App& sub, std::uint64_t& seed, const std::string& help) {
  const CLI::Validator seed_check(
      [](std::string& text) -> std::string {
        const std::string why = "must be an integer from 0 to 18446744073709551615 (2^64 - 1)";
        if (text.empty() || text.size() > 20 ||
            !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
          return why + ", not '" + text + "'";
        }
        if (text.size() == 20 && text > "18446744073709551615") return why + ", not " + text;
        return "";
      },
      "SEED");
  return sub.add_option("--seed", seed, help)->check(seed_check)->capture_default_str();
}

void set_examples(CLI::App& sub, std::initializer_list<std::string_view> examples) {
  std::string footer = "\nExamples:";
  for (std::string_view example : examples) footer += "\n  " + std::string(example);
  sub.footer(footer);
}

}  // namespace sling::cli
