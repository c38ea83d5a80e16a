#pragma once
// One game on the server, seen through a type-erased interface (the games differ in type; the
// server holds them all in one table).  Every method locks the session, so requests for the same
// game may arrive on any thread; the AI's move runs on a worker thread without holding the lock.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "play/web/web_json.h"

namespace sling::web {

using Clock = std::chrono::steady_clock;

class WebSession {
 public:
  virtual ~WebSession() = default;

  // The position as JSON: the state at ply `view_ply` (a replay's cursor), or the current one.
  virtual std::string state_json(std::int64_t view_ply = -1) = 0;
  // A human decision: {"action": code, "ply": n}.  The ply, when given, must be the current one
  // (a click on a board that has changed since is refused, not applied somewhere else).
  virtual void act(const rapidjson::Value& request) = 0;
  // The duel: the legal destination nearest {"x": cm, "y": cm}, with how far it is; not applied.
  virtual std::string point(const rapidjson::Value& request) = 0;
  // Back to the previous human decision; the dice stay as they fell.
  virtual void undo() = 0;
  // Starts an analysis of the position for the side to move (run by run_hint on a worker).
  virtual void request_hint() = 0;
  // The game record, in the format of terminal saves.
  virtual std::string record_json() = 0;

  // The work the server's workers do.  ai_due: an agent is to move (and is not already thinking);
  // run_ai_step plays one agent decision (and the dice after it) and returns whether another is
  // due.  run_hint computes a requested hint.
  virtual bool ai_due() = 0;
  virtual bool run_ai_step() = 0;
  virtual void run_hint() = 0;
  // Milliseconds to wait before each agent decision (a watched game's speed).
  virtual int ai_delay_ms() const = 0;
  // The strong agent's view of the current position, on a worker: the stakes of God's question
  // (accepting against re-rolling) and the win-probability strip.  eval_due: one is wanted for the
  // position and has not been made (nor is being made); run_eval makes it.
  virtual bool eval_due() = 0;
  virtual void run_eval() = 0;
  // The file name a save of this game goes by: the game, its seed and its length.
  virtual std::string save_name() = 0;
  // The analysis of a finished game or a replay (play/web/web_analysis.h), on a worker:
  // request_analysis refuses a game in progress (409) and returns whether run_analysis is due;
  // analysis_json is {"status", "error", "analysis", "svg"}.
  virtual bool request_analysis() = 0;
  virtual void run_analysis() = 0;
  virtual std::string analysis_json() = 0;

  void touch() { last_seen_ = Clock::now().time_since_epoch().count(); }
  Clock::time_point last_seen() const {
    return Clock::time_point(Clock::duration(last_seen_.load()));
  }

 private:
  std::atomic<Clock::rep> last_seen_{Clock::now().time_since_epoch().count()};
};

}  // namespace sling::web
