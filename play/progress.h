#pragma once
// A "thinking" indicator: while an agent searches, a spinner with the elapsed seconds is redrawn on
// a terminal stream from a helper thread, and erased when the search ends.  Disabled (a no-op) when
// the stream is not a terminal, so pipes and tests see nothing.

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

namespace sling::play {

class Spinner {
 public:
  Spinner(std::ostream* stream, std::string label);  // stream == nullptr: disabled
  ~Spinner();
  Spinner(const Spinner&) = delete;
  Spinner& operator=(const Spinner&) = delete;

 private:
  void run();

  std::ostream* stream_;
  std::string label_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace sling::play
