#pragma once
// The messages of the agent protocol (docs/protocol.md), written and read in one place for both
// of its sides: Sling hosting an agent program (agents/external_agent.h) and Sling serving one of
// its own agents to a host (agents/external_server.h, `sling protocol`).  Game-independent: states
// and rules arrive here already as JSON text.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agents/agent.h"
#include "engine/core/errors.h"

namespace sling::protocol {

inline constexpr int kVersion = 1;

// A message that breaks the protocol: not a JSON object, a wrong type, a missing field.
class ProtocolError : public SlingError {
 public:
  using SlingError::SlingError;
};

// `text` (any well-formed JSON) on one line without spaces: rules files are indented over many
// lines.
std::string compact_json(std::string_view text);

struct LegalAction {
  Action id;
  std::string text;
};

// ---- Sling (the host) to the agent program.

std::string hello_message(std::string_view sling_version);
struct NewGame {
  std::string game;
  std::string rules_json;  // compact
  int side = 0;
  std::vector<std::string> sides;
  std::uint64_t seed = 0;
  double move_seconds = 0;
  double game_seconds = 0;
  std::string state_json;  // compact
};
std::string new_game_message(const NewGame& game);
std::string ply_message(int ply, int player, Action action, std::string_view text);
struct ActRequest {
  int ply = 0;
  int player = 0;
  double time_left = 0;
  std::string state_json;  // compact
  std::string state_text;
  std::vector<LegalAction> legal;
};
std::string act_message(const ActRequest& request);
std::string game_over_message(int winner, double return0, double return1, std::string_view reason,
                              int plies);
std::string quit_message();

// ---- The agent program's answers.

struct Answer {
  std::string type;                  // hello, ready, action, resign
  int protocol = 0;                  // hello
  std::string name;                  // hello
  Action id = kInvalidAction;        // action
  std::string reason;                // resign
  std::optional<Analysis> analysis;  // action, when it reported any of its optional fields
};
// Throws ProtocolError naming what is wrong.
Answer parse_answer(std::string_view line);

std::string hello_answer(std::string_view name);
std::string ready_answer();
std::string action_answer(Action id, const Analysis& analysis);

// ---- A host's messages, as the agent's side reads them.

struct HostMessage {
  std::string type;
  // new_game
  NewGame new_game;
  // ply, act
  int ply = 0;
  int player = 0;
  Action action = kInvalidAction;
  // act
  std::string state_json;  // compact
  std::vector<Action> legal;
  double time_left = 0;
  // hello
  int protocol = 0;
};
HostMessage parse_host_message(std::string_view line);

}  // namespace sling::protocol
