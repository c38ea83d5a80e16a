#include "agents/external_server.h"

#include <istream>
#include <ostream>

#include "sling_version.h"

namespace sling::protocol {

namespace {

// The server's place in the protocol: what the host may send next.
enum class Stage { kHello, kBetweenGames, kInGame };

class Server {
 public:
  Server(std::ostream& out, std::string agent_spec, const ServedGameFactory& make_game)
      : out_(out), agent_spec_(std::move(agent_spec)), make_game_(make_game) {}

  // False once the host said quit.
  bool handle(const std::string& line) {
    const HostMessage message = parse_host_message(line);
    if (stage_ == Stage::kHello && message.type != "hello") {
      throw ProtocolError("'" + message.type + "' before hello");
    }
    if (message.type == "hello") {
      if (stage_ != Stage::kHello) throw ProtocolError("a second hello");
      if (message.protocol != kVersion) {
        throw ProtocolError("the host speaks protocol " + std::to_string(message.protocol) +
                            "; this agent speaks " + std::to_string(kVersion));
      }
      answer(hello_answer(std::string("sling ") + kSlingVersion + " " + agent_spec_));
      stage_ = Stage::kBetweenGames;
    } else if (message.type == "new_game") {
      if (stage_ == Stage::kInGame) game_->game_over();  // the last game was abandoned
      if (!game_ || !game_->plays(message.new_game)) {
        game_.reset();
        game_ = make_game_(message.new_game);
      }
      game_->new_game(message.new_game);
      stage_ = Stage::kInGame;
      answer(ready_answer());
    } else if (message.type == "ply" || message.type == "act") {
      if (stage_ != Stage::kInGame) throw ProtocolError("'" + message.type + "' outside a game");
      if (message.type == "ply") {
        game_->ply(message);
      } else {
        answer(game_->act(message));
      }
    } else if (message.type == "game_over") {
      if (stage_ != Stage::kInGame) throw ProtocolError("game_over outside a game");
      game_->game_over();
      stage_ = Stage::kBetweenGames;
    } else if (message.type == "quit") {
      return false;
    }
    // Any other type is a later version's, which needs no answer: ignored.
    return true;
  }

 private:
  void answer(const std::string& line) { out_ << line << '\n' << std::flush; }

  std::ostream& out_;
  std::string agent_spec_;
  const ServedGameFactory& make_game_;
  std::unique_ptr<ServedGame> game_;
  Stage stage_ = Stage::kHello;
};

}  // namespace

void serve_agent(std::istream& in, std::ostream& out, const std::string& agent_spec,
                 const ServedGameFactory& make_game) {
  Server server(out, agent_spec, make_game);
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    try {
      if (!server.handle(line)) return;
    } catch (const std::exception& e) {
      throw ProtocolError(error_text("the host broke the protocol",
                                     "line " + std::to_string(line_number), e.what()));
    }
  }
}

}  // namespace sling::protocol
