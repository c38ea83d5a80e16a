// libFuzzer target: the agent protocol's lines (docs/protocol.md), read by both of its sides.  The
// input is a stream of lines: each is parsed as an agent program's answer and as a host's message,
// and the whole stream is fed to a served Pig agent (`sling protocol`'s loop) after a valid hello.
// Every refusal must be one line in Sling's words, and nothing may crash or hang.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "agents/external_server.h"
#include "engine/pig/pig.h"
#include "fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::size_t start = 0;
  while (start < input.size()) {
    std::size_t end = input.find('\n', start);
    if (end == std::string_view::npos) end = input.size();
    const std::string_view line = input.substr(start, end - start);
    start = end + 1;
    try {
      (void)sling::protocol::parse_answer(line);
    } catch (const sling::SlingError& e) {
      sling::fuzz::check_message(e, line);
    }
    try {
      const sling::protocol::HostMessage message = sling::protocol::parse_host_message(line);
      if (!message.state_json.empty())
        (void)sling::state_from_json<sling::pig::PigState>(message.state_json);
    } catch (const sling::SlingError& e) {
      sling::fuzz::check_message(e, line);
    }
  }
  std::istringstream in("{\"type\":\"hello\",\"protocol\":1}\n" + std::string(input));
  std::ostringstream out;
  try {
    sling::protocol::serve_agent(in, out, "random", [](const sling::protocol::NewGame& message) {
      if (message.game != "pig") throw sling::OptionError("pig only here");
      return std::unique_ptr<sling::protocol::ServedGame>(
          std::make_unique<sling::protocol::ServedGameOf<sling::pig::PigGame>>(
              sling::pig::PigGame::from_rules_json(message.rules_json), "random",
              message.rules_json));
    });
  } catch (const sling::SlingError& e) {
    sling::fuzz::check_message(e, input);
  }
  return 0;
}
