#pragma once
// A duel value function computed on a thread of its own while an agent plays on another one: the
// refined values of the 1 cm lattice take minutes the first time, and a person should not wait
// for them before the first move.  Only tables with a person use it (`lookahead:background=1`):
// when the switch happens depends on the clock, so a match or a tournament, which must give the
// same result from the same seeds, computes the values before its first move instead.

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "solvers/duel/coarse_value.h"

namespace sling {

class DuelBackgroundValue {
 public:
  // Computes `compute(cancelled)` on a new thread; `compute` should stop (by throwing) soon after
  // `cancelled()` turns true.
  using Compute = std::function<std::shared_ptr<const duel::CoarseDuelValue>(
      const std::function<bool()>& cancelled)>;
  explicit DuelBackgroundValue(Compute compute);
  // Cancels a computation still running and waits for its thread (at most about one sweep).
  ~DuelBackgroundValue();
  DuelBackgroundValue(const DuelBackgroundValue&) = delete;
  DuelBackgroundValue& operator=(const DuelBackgroundValue&) = delete;

  // Whether the computation has ended, with a value or with an error.
  bool finished() const;
  // The value once computed (null while running and after a failure).
  std::shared_ptr<const duel::CoarseDuelValue> value() const;
  // Why it failed (empty while running and after a success).
  std::string error() const;
  // Seconds from the start to the end (or to now while running).
  double seconds() const;

 private:
  std::atomic<bool> cancel_{false};
  mutable std::mutex mutex_;
  bool finished_ = false;
  std::shared_ptr<const duel::CoarseDuelValue> value_;
  std::string error_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point end_;
  std::thread thread_;  // last: started once every member above exists
};

}  // namespace sling
