#pragma once
// The agent's side of the agent protocol (docs/protocol.md): serves one of Sling's own agents to a
// host over a pair of streams.  `sling protocol AGENT` runs it on stdin and stdout, which makes any
// built-in agent an agent program, and the reference against which an agent program's host (Sling's
// `external` agent, or another) is checked.
//
// The server keeps its own copy of the game from the host's `ply` messages and checks every
// message against it: a ply out of order, an illegal action, an `act` whose state is not the one
// the plies lead to, or for the wrong side, is a protocol error, which ends the server (`sling
// protocol` prints it as one line and exits with status 2).

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>

#include "agents/external_protocol.h"
#include "agents/registry.h"
#include "engine/core/state_io.h"

namespace sling::protocol {

// One game type's half of the server: its game, its agent and the copy of the current game.
class ServedGame {
 public:
  virtual ~ServedGame() = default;
  virtual void new_game(const NewGame& message) = 0;
  virtual void ply(const HostMessage& message) = 0;
  virtual std::string act(const HostMessage& message) = 0;  // the answer line
  virtual void game_over() = 0;
  // The game and rules it was built for: a new_game of the same keeps the agent (and its caches).
  virtual bool plays(const NewGame& message) const = 0;
};

template <Game G>
class ServedGameOf final : public ServedGame {
 public:
  using State = typename G::State;

  ServedGameOf(G game, const std::string& agent_spec, std::string rules_json)
      : game_(std::move(game)),
        agent_(make_agent(game_, agent_spec)),
        rules_json_(std::move(rules_json)) {}

  void new_game(const NewGame& message) override {
    const State given = read_state(message.state_json, "new_game");
    if (!(given == game_.initial_state())) {
      throw ProtocolError("new_game's state is not the initial state of its rules");
    }
    state_ = given;
    plies_ = 0;
    side_ = message.side;
    agent_->new_game(message.seed);
  }

  void ply(const HostMessage& message) override {
    if (message.ply != plies_) {
      throw ProtocolError("ply " + std::to_string(message.ply) + " arrived where ply " +
                          std::to_string(plies_) + " was due");
    }
    if (message.player != game_.current_player(state_)) {
      throw ProtocolError("ply " + std::to_string(message.ply) + " is said to be player " +
                          std::to_string(message.player) + "'s, but player " +
                          std::to_string(game_.current_player(state_)) + " is to move");
    }
    State after = state_;
    try {
      apply_any(game_, after, message.action);
    } catch (const SlingError& e) {
      throw ProtocolError("ply " + std::to_string(message.ply) + ": " + e.what());
    }
    agent_->observe(state_, message.action);
    state_ = after;
    ++plies_;
  }

  std::string act(const HostMessage& message) override {
    if (message.ply != plies_) {
      throw ProtocolError("act at ply " + std::to_string(message.ply) + " where ply " +
                          std::to_string(plies_) + " was due");
    }
    if (game_.current_player(state_) != side_ || message.player != side_) {
      throw ProtocolError("act for player " + std::to_string(message.player) +
                          ", but this agent plays side " + std::to_string(side_) + " and player " +
                          std::to_string(game_.current_player(state_)) + " is to move");
    }
    if (!(read_state(message.state_json, "act") == state_)) {
      throw ProtocolError("act's state is not the state its plies lead to");
    }
    const Action action = agent_->act(state_);
    return action_answer(action, agent_->last_analysis());
  }

  void game_over() override {
    GameEnd end;
    if (game_.is_terminal(state_)) {
      end.returns = game_.returns(state_);
      end.winner = end.returns[0] > end.returns[1] ? 0 : (end.returns[1] > end.returns[0] ? 1 : -1);
      end.reason = "end";
    }
    end.plies = plies_;
    agent_->game_over(end);
  }

  bool plays(const NewGame& message) const override {
    return message.game == game_.info().name && message.rules_json == rules_json_;
  }

 private:
  State read_state(const std::string& json, const char* where) const {
    try {
      return state_from_json<State>(json);
    } catch (const SlingError& e) {
      throw ProtocolError(std::string(where) + ": " + e.what());
    }
  }

  G game_;
  AgentPtr<G> agent_;
  std::string rules_json_;
  State state_{};
  int plies_ = 0;
  int side_ = 0;
};

// Builds the served game for a new_game's game and rules (throws on an unknown game or bad rules).
using ServedGameFactory = std::function<std::unique_ptr<ServedGame>(const NewGame& message)>;

// Answers the host's messages from `in` on `out` until quit or the end of `in`.  Throws
// ProtocolError ("the host broke the protocol (line 3): ...") when the host breaks it.
void serve_agent(std::istream& in, std::ostream& out, const std::string& agent_spec,
                 const ServedGameFactory& make_game);

}  // namespace sling::protocol
