#pragma once
// The threads that answer `sling serve`'s connections.  cpp-httplib gives each connection a thread
// for as long as it stays open: while a browser keeps it alive between requests, and while a slow
// client trickles its headers in.  Its own pool has a fixed eight threads, so eight idle or slow
// connections stalled every other request.  This pool starts a thread whenever a connection finds
// none free, up to a bound, so that open connections cost threads, not other people's time.

#include <httplib.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sling::web {

class ConnectionThreads final : public httplib::TaskQueue {
 public:
  // Beyond `max_threads` connections at once, new ones wait for a thread to come free.
  explicit ConnectionThreads(std::size_t max_threads) : max_threads_(max_threads) {}
  ~ConnectionThreads() override { shutdown(); }

  void enqueue(std::function<void()> connection) override;
  void shutdown() override;  // finishes the queued connections, then joins every thread

  std::size_t threads() const;

 private:
  void work();

  const std::size_t max_threads_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> queue_;
  std::vector<std::thread> threads_;
  std::size_t idle_ = 0;
  bool stopping_ = false;
};

}  // namespace sling::web
