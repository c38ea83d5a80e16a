#pragma once
// The tournament's progress output on stderr: a redrawn bar on a terminal, a line every few seconds
// otherwise (logs), and the closing games/s line.  Not thread-safe: the store calls it under its
// lock.

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

#include "experiments/tournament/config.h"

namespace sling {

class TournamentProgress {
 public:
  using Clock = std::chrono::steady_clock;

  TournamentProgress(std::ostream& out, ProgressStyle style, double interval, std::int64_t total,
                     std::int64_t done);

  // `done` games of the total are finished; `leader` names the best agent so far (may be empty).
  void update(std::int64_t done, const std::string& leader);
  // A line of its own, after clearing the bar.
  void message(const std::string& text);
  void finish(std::int64_t done);

 private:
  void clear();

  std::ostream& out_;
  ProgressStyle style_;
  double interval_;
  std::int64_t total_;
  std::int64_t start_done_;
  Clock::time_point start_;
  Clock::time_point last_;
  bool drawn_ = false;
};

// "42s", "3m05s", "1h07m"; "?" for a negative or unknown duration.
std::string duration_text(double seconds);

}  // namespace sling
