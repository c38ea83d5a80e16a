// A uniformly random agent for any Sling game, as its own program: it speaks the agent protocol
// (docs/protocol.md) on stdin and stdout and links nothing of Sling's, only nlohmann-json.
//
//   g++ -std=c++20 -O2 random_agent.cpp -o random_agent
//   ./sling tournament pig --agent random --agent "external:cmd=./random_agent"
//
// Start your own agent from here: replace choose() with your search.  The loop around it is the
// whole protocol, and it keeps up with tens of thousands of decisions a second.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>

namespace {

using nlohmann::json;

class RandomAgent {
 public:
  // A game starts.  Every random choice of the game comes from its seed, so the same seed plays
  // the same game again.
  void new_game(const json& info) { rng_.seed(info.at("seed").get<std::uint64_t>()); }

  // Returns one id of the request's "legal" list.  The modulo's bias is negligible for lists far
  // shorter than 2^64, and unlike std::uniform_int_distribution it is the same on every compiler.
  std::uint64_t choose(const json& request) {
    const json& legal = request.at("legal");
    if (legal.empty()) throw std::runtime_error("the request lists no legal action");
    return legal.at(rng_() % legal.size()).at("id").get<std::uint64_t>();
  }

 private:
  std::mt19937_64 rng_;
};

// Writes one answer and flushes it: Sling waits for the line.
void send(const std::string& line) {
  std::cout << line << '\n' << std::flush;
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);  // C++ streams without C stdio's locking: much faster I/O
  RandomAgent agent;
  std::string line;  // reused for every message: no allocation once it is large enough
  std::string answer;
  while (std::getline(std::cin, line)) {
    // Only objects matter; anything else is logged to stderr (Sling's log file) and skipped.
    const json message = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!message.is_object()) {
      if (!line.empty()) std::cerr << "random_agent: ignoring a line that is not a JSON object\n";
      continue;
    }
    const auto type = message.find("type");
    if (type == message.end() || !type->is_string()) continue;
    const std::string& kind = type->get_ref<const std::string&>();
    if (kind == "hello") {
      send(R"({"type":"hello","protocol":1,"name":"cpp-random"})");
    } else if (kind == "new_game") {
      agent.new_game(message);
      send(R"({"type":"ready"})");
    } else if (kind == "act") {
      try {
        answer = R"({"type":"action","id":)";
        answer += std::to_string(agent.choose(message));
        answer += '}';
      } catch (const std::exception& error) {  // a request this agent cannot read: give up the game
        std::cerr << "random_agent: " << error.what() << '\n';
        answer = json{{"type", "resign"}, {"reason", error.what()}}.dump();
      }
      send(answer);
    } else if (kind == "quit") {
      return 0;
    }
    // ply and game_over need no answer (a random agent has no use for them), and any other type
    // is from a later protocol version: ignore them.
  }
  return 0;
}
