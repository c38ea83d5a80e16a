// sling protocol AGENT: serves one of Sling's own agents over the agent protocol on stdin and
// stdout (docs/protocol.md), so that any built-in agent is an agent program that a host (Sling's
// `external` agent, or another tournament manager) can start.
#include <iostream>
#include <optional>

#include "agents/external_server.h"
#include "cli/command.h"
#include "cli/common_options.h"
#include "cli/games.h"

namespace sling::cli {
namespace {

// The served game for a new_game: its game type by name, built from the rules it carries.
std::unique_ptr<protocol::ServedGame> make_served_game(const std::string& agent_spec,
                                                       const protocol::NewGame& message) {
  require_game(message.game, "new_game");
  return with_registered_game(
      message.game, [&]<class G>(std::type_identity<G>) -> std::unique_ptr<protocol::ServedGame> {
        return std::make_unique<protocol::ServedGameOf<G>>(G::from_rules_json(message.rules_json),
                                                           agent_spec, message.rules_json);
      });
}

// Whether `text` names a preset or an agent of `game` (its options are not checked here).
template <class G>
bool names_an_agent(const G& game, const std::string& text, const std::string& name) {
  if (preset_spec(game, text).has_value()) return true;
  for (const AgentInfo& info : agent_catalogue(game)) {
    if (info.name == name) return true;
  }
  return false;
}

struct ProtocolCommand {
  std::string agent;
};

const RegisterCommand kRegister(
    "protocol",
    "Serve one of Sling's agents over the agent protocol on stdin/stdout (docs/protocol.md)",
    [](CLI::App& sub) {
      auto command = std::make_shared<ProtocolCommand>();
      sub.add_option("agent", command->agent,
                     "The agent to serve: a spec or a preset (easy, normal, strong); it is built "
                     "for the game of each new_game")
          ->required();
      set_examples(sub, {"sling protocol strong",
                         "sling tournament pig --agent strong --agent \"external:cmd='sling "
                         "protocol strong'\" --games 20 --out runs/ref"});
      sub.footer(
          "\nReads the host's messages (hello, new_game, ply, act, game_over, quit), one JSON "
          "object a line, and answers hello, ready and action.  A message that breaks the "
          "protocol ends it with one line on stderr and exit status 2.");
      sub.callback([command] {
        // An agent that no game has is refused before a host is kept waiting; its options are
        // checked when a game names the game (building an agent may solve a lattice first).
        const AgentSpec spec = parse_agent_spec(command->agent);
        bool known = false;
        for_each_registered_game([&]<class G>(std::type_identity<G>) {
          known = known || names_an_agent(G{}, command->agent, spec.name);
        });
        if (!known) {
          throw OptionError("unknown agent '" + spec.name + "' (see `sling agents`)");
        }
        std::ios::sync_with_stdio(false);
        protocol::serve_agent(std::cin, std::cout, command->agent,
                              [&](const protocol::NewGame& message) {
                                return make_served_game(command->agent, message);
                              });
      });
    });

}  // namespace
}  // namespace sling::cli
