#include "play/progress.h"

#include <chrono>
#include <cstdio>

namespace sling::play {

Spinner::Spinner(std::ostream* stream, std::string label)
    : stream_(stream), label_(std::move(label)) {
  if (stream_ != nullptr) thread_ = std::thread([this] { run(); });
}

Spinner::~Spinner() {
  if (stream_ == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Spinner::run() {
  static constexpr char kFrames[] = {'|', '/', '-', '\\'};
  const auto start = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  for (int frame = 0; !done_; ++frame) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char line[128];
    std::snprintf(line, sizeof(line), "\r%s %c %.1f s ", label_.c_str(), kFrames[frame % 4],
                  seconds);
    *stream_ << line << std::flush;
    wake_.wait_for(lock, std::chrono::milliseconds(120), [this] { return done_; });
  }
  *stream_ << "\r" << std::string(label_.size() + 16, ' ') << "\r" << std::flush;
}

}  // namespace sling::play
