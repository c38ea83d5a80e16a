#pragma once
// `external:cmd=...`: an agent that is a program of its own, in any language, speaking the agent
// protocol (docs/protocol.md) over its stdin and stdout.  Sling starts the program on the first
// game, tells it every ply, and asks it for each of its side's decisions under a time limit.
//
// A program that crashes, hangs, answers an action that is not legal, or writes garbage loses the
// game it is playing: act() throws an error that names the cause ("external agent timed out after
// 1.0 s"), play_game records it in the game's error column, and the next game starts a fresh
// program.  With process=keep one program plays game after game, in a match and in a tournament
// (one per worker thread, experiments/tournament/agent_pool.h).  Failures outside act() (in
// new_game or observe, which cannot lose a game on their own) are kept and reported by the next
// act().

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "agents/agent.h"
#include "agents/external_process.h"
#include "agents/external_protocol.h"
#include "agents/spec.h"
#include "engine/core/state_io.h"

namespace sling {

struct ExternalAgentOptions {
  std::string command;
  double move_seconds = 10;
  double game_seconds = 0;
  double startup_seconds = 30;
  std::string working_directory;
  bool process_per_game = false;
  std::string log_file = "sling-external.log";
};

// Declares and reads the options of `external` (also lists them for `sling agents`).
ExternalAgentOptions read_external_options(OptionReader& reader);
// The spec string that rebuilds an external agent with every option spelled out.
std::string external_spec(const ExternalAgentOptions& options);

// The game-independent half of an external agent: the program, its handshake and the checks of
// every answer.  Errors are thrown as SlingError with the cause in Sling's words.
class ExternalConnection {
 public:
  using Clock = ChildProcess::Clock;
  explicit ExternalConnection(ExternalAgentOptions options) : options_(std::move(options)) {}
  ~ExternalConnection();

  // Starts the program and shakes hands unless it is already running (process=keep).
  void start();
  // Sends a message that needs no answer.  A failure is kept for the next request.
  void send(const std::string& message);
  // Sends a message and reads its answer of type `expected` within `seconds` (0: no limit).
  protocol::Answer request(const std::string& message, const char* expected, double seconds);
  // Ends the program, politely first (quit, then a grace period).
  void stop();
  bool running() const { return process_ != nullptr; }
  // The failure kept by send() or the game's set-up, thrown by the next request.
  void fail_later(std::string cause) {
    if (pending_error_.empty()) pending_error_ = std::move(cause);
  }
  void clear_pending() { pending_error_.clear(); }
  const ExternalAgentOptions& options() const { return options_; }

 private:
  [[noreturn]] void fail(const std::string& cause);
  std::string describe_exit();

  ExternalAgentOptions options_;
  std::unique_ptr<ChildProcess> process_;
  std::string pending_error_;
};

template <Game G>
class ExternalAgent final : public Agent<G> {
 public:
  using State = typename G::State;

  ExternalAgent(const G& game, ExternalAgentOptions options)
      : game_(game), connection_(std::move(options)) {}
  ~ExternalAgent() override { finish_game("abandoned"); }

  // The protocol's new_game names the side the program plays, which an Agent learns only at its
  // first decision: so the program hears of a game just before that decision, with the plies
  // played so far right after its `ready` (docs/protocol.md).  A game in which this side never
  // decides is not sent at all, and no program is started for it.
  void new_game(std::uint64_t seed) override {
    finish_game("abandoned");
    seed_ = seed;
    state_ = game_.initial_state();
    plies_ = 0;
    game_seconds_used_ = 0;
    started_ = false;
    over_ = false;
    analysis_ = {};
    connection_.clear_pending();
    if (connection_.options().process_per_game) connection_.stop();
  }

  Action act(const State& state) override {
    const int side = game_.current_player(state);
    ensure_started(side);
    // The state sent is the truth: a driver that asks about a position it never reported ply by
    // ply (a hint on a position set up by hand) still gets an answer about that position.
    protocol::ActRequest request;
    request.ply = plies_;
    request.player = side;
    const double move_limit = connection_.options().move_seconds;
    const double game_limit = connection_.options().game_seconds;
    double limit = move_limit;
    if (game_limit > 0) {
      const double left = std::max(0.0, game_limit - game_seconds_used_);
      limit = limit > 0 ? std::min(limit, left) : left;
      if (left <= 0) throw SlingError("external agent ran out of its game time");
    }
    request.time_left = limit;
    request.state_json = state_to_json(state);
    request.state_text = game_.state_to_string(state);
    ActionList<G> legal;
    game_.legal_actions(state, legal);
    request.legal.reserve(legal.size());
    for (const Action a : legal) request.legal.push_back({a, game_.action_to_string(state, a)});
    const auto start = ExternalConnection::Clock::now();
    const protocol::Answer answer =
        connection_.request(protocol::act_message(request), "action", limit);
    game_seconds_used_ +=
        std::chrono::duration<double>(ExternalConnection::Clock::now() - start).count();
    bool is_legal = false;
    for (const Action a : legal) is_legal = is_legal || a == answer.id;
    if (!is_legal) {
      connection_.stop();
      throw SlingError("external agent answered an illegal action " + std::to_string(answer.id));
    }
    analysis_ = answer.analysis.value_or(Analysis{});
    return answer.id;
  }

  void observe(const State& before, Action applied) override {
    const Player player = game_.current_player(before);
    if (!started_) {
      // The handshake needs this agent's side; before its first decision it is the side that
      // is not acting now, unless this agent acts first (then act() starts the game).
      return record_unstarted(before, applied);
    }
    connection_.send(
        protocol::ply_message(plies_, player, applied, game_.action_to_string(before, applied)));
    advance(applied);
  }

  void game_over(const GameEnd& end) override {
    if (!started_ || over_) return;
    over_ = true;
    connection_.send(protocol::game_over_message(end.winner, end.returns[0], end.returns[1],
                                                 end.reason, end.plies));
    if (connection_.options().process_per_game) connection_.stop();
  }

  Analysis last_analysis() const override { return analysis_; }
  std::string spec() const override { return external_spec(connection_.options()); }
  // process=keep: the program plays a tournament's games one after another, as in a match.  One
  // that failed was stopped, and the next game's first decision starts it again.
  bool reusable_across_games() const override { return !connection_.options().process_per_game; }

 private:
  void advance(Action applied) {
    apply_any(game_, state_, applied);
    ++plies_;
    if (game_.is_terminal(state_)) {
      const Returns r = game_.returns(state_);
      GameEnd end;
      end.winner = r[0] > r[1] ? 0 : (r[1] > r[0] ? 1 : -1);
      end.returns = r;
      end.plies = plies_;
      if constexpr (HasEndReason<G>) {
        end.reason = std::string(game_.end_reason(state_));
      } else {
        end.reason = "end";
      }
      game_over(end);
    }
  }

  // Plies before this agent's side is known are kept and sent once the game is started.
  void record_unstarted(const State& before, Action applied) {
    early_.push_back(
        {game_.current_player(before), applied, game_.action_to_string(before, applied)});
    apply_any(game_, state_, applied);
    ++plies_;
    if (game_.is_terminal(state_)) early_.clear();  // it never had to decide: nothing to tell
  }

  void ensure_started(int side) {
    if (started_) return;
    started_ = true;
    try {
      connection_.start();
      protocol::NewGame message;
      message.game = std::string(game_.info().name);
      message.rules_json = protocol::compact_json(game_.rules_json());
      message.side = side;
      message.sides = {std::string(game_.info().sides[0]), std::string(game_.info().sides[1])};
      message.seed = seed_;
      message.move_seconds = connection_.options().move_seconds;
      message.game_seconds = connection_.options().game_seconds;
      message.state_json = state_to_json(game_.initial_state());
      connection_.request(protocol::new_game_message(message), "ready",
                          connection_.options().startup_seconds);
      for (std::size_t i = 0; i < early_.size(); ++i) {
        connection_.send(protocol::ply_message(static_cast<int>(i), early_[i].player,
                                               early_[i].action, early_[i].text));
      }
      early_.clear();
    } catch (...) {
      early_.clear();
      throw;
    }
  }

  void finish_game(const char* reason) {
    if (started_ && !over_) {
      GameEnd end;
      end.reason = reason;
      end.plies = plies_;
      game_over(end);
    }
  }

  struct EarlyPly {
    int player;
    Action action;
    std::string text;
  };

  const G& game_;
  ExternalConnection connection_;
  std::uint64_t seed_ = 0;
  State state_{};
  int plies_ = 0;
  double game_seconds_used_ = 0;
  bool started_ = false;
  bool over_ = false;
  std::vector<EarlyPly> early_;
  Analysis analysis_;
};

template <Game G>
AgentPtr<G> make_external_agent(const G& game, const AgentSpec& spec) {
  OptionReader reader(spec);
  ExternalAgentOptions options = read_external_options(reader);
  reader.finish();
  return std::make_unique<ExternalAgent<G>>(game, std::move(options));
}

}  // namespace sling
