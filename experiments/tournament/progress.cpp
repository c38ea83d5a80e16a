#include "experiments/tournament/progress.h"

#include <cmath>
#include <cstdio>
#include <ostream>

namespace sling {

std::string duration_text(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const auto total = static_cast<long long>(seconds + 0.5);
  char buffer[32];
  if (total >= 3600) {
    std::snprintf(buffer, sizeof buffer, "%lldh%02lldm", total / 3600, total / 60 % 60);
  } else if (total >= 60) {
    std::snprintf(buffer, sizeof buffer, "%lldm%02llds", total / 60, total % 60);
  } else {
    std::snprintf(buffer, sizeof buffer, "%llds", total);
  }
  return buffer;
}

TournamentProgress::TournamentProgress(std::ostream& out, ProgressStyle style, double interval,
                                       std::int64_t total, std::int64_t done)
    : out_(out),
      style_(style),
      interval_(interval),
      total_(total),
      start_done_(done),
      start_(Clock::now()),
      last_(start_) {}

void TournamentProgress::update(std::int64_t done, const std::string& leader) {
  if (style_ == ProgressStyle::kNone) return;
  const auto now = Clock::now();
  const double since = std::chrono::duration<double>(now - last_).count();
  const double wait = style_ == ProgressStyle::kBar ? 0.1 : interval_;
  if (since < wait && done < total_) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done - start_done_) / elapsed : 0.0;
  const double eta = rate > 0 ? static_cast<double>(total_ - done) / rate : -1.0;
  char numbers[160];
  std::snprintf(numbers, sizeof numbers, "%lld/%lld games  %.2f games/s  ETA %s",
                static_cast<long long>(done), static_cast<long long>(total_), rate,
                duration_text(eta).c_str());
  std::string text = numbers;
  if (!leader.empty()) text += "  leader: " + leader;
  if (style_ == ProgressStyle::kBar) {
    constexpr int kWidth = 24;
    const int filled = total_ > 0 ? static_cast<int>(kWidth * done / total_) : kWidth;
    out_ << "\r[" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] " << text
         << "\x1b[K" << std::flush;
    drawn_ = true;
  } else {
    out_ << "tournament: " << text << '\n' << std::flush;
  }
}

void TournamentProgress::message(const std::string& text) {
  clear();
  out_ << text << '\n' << std::flush;
}

void TournamentProgress::finish(std::int64_t done) {
  if (style_ == ProgressStyle::kNone) return;
  clear();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  char line[160];
  std::snprintf(line, sizeof line, "tournament: %lld games played in %s (%.2f games/s)",
                static_cast<long long>(done - start_done_), duration_text(elapsed).c_str(),
                elapsed > 0 ? static_cast<double>(done - start_done_) / elapsed : 0.0);
  out_ << line << '\n' << std::flush;
}

void TournamentProgress::clear() {
  if (drawn_) out_ << "\r\x1b[K";
  drawn_ = false;
}

}  // namespace sling
