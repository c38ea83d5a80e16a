#pragma once
// Isolation: with TournamentOptions::isolate every game runs in a child process, so that an agent
// that crashes (a segmentation fault, an abort, a stack overflow) loses that game instead of ending
// the run.  The child reports to the parent through a pipe: the side about to act, every action
// applied (so a crashed game keeps its history), and finally the result.  The parent waits on
// every pipe at once with poll() and keeps `slots` children running.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "experiments/play_game.h"
#include "experiments/tournament/game_store.h"

namespace sling::isolation {

void send_side(int fd, int side);
void send_action(int fd, Action action);
void send_result(int fd, const GameResult& result);

// Plays the pending games `slots` at a time, each in a child process forked from this one, which
// calls `play_in_child(row, fd)` and exits; saves each result (or the crash) in the store.
void run_isolated(TournamentStore& store, const std::vector<std::int64_t>& pending, int slots,
                  const std::string& game_name, const std::string& rules,
                  const std::function<void(const GameRow& row, int fd)>& play_in_child);

// Forwards to an agent and tells the parent process which side is acting and what was played.
template <Game G>
class ReportingAgent final : public Agent<G> {
 public:
  ReportingAgent(AgentPtr<G> inner, int side, int fd)
      : inner_(std::move(inner)), side_(side), fd_(fd) {}
  void new_game(std::uint64_t seed) override {
    send_side(fd_, side_);
    inner_->new_game(seed);
  }
  Action act(const typename G::State& state) override {
    send_side(fd_, side_);
    return inner_->act(state);
  }
  void observe(const typename G::State& before, Action applied) override {
    if (side_ == 0) send_action(fd_, applied);  // once per action: side 0's copy reports it
    send_side(fd_, side_);  // observe is agent code too: a crash in it is this side's
    inner_->observe(before, applied);
  }
  void game_over(const GameEnd& end) override { inner_->game_over(end); }
  Analysis last_analysis() const override { return inner_->last_analysis(); }
  std::string spec() const override { return inner_->spec(); }

 private:
  AgentPtr<G> inner_;
  int side_;
  int fd_;
};

}  // namespace sling::isolation
