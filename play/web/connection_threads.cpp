#include "play/web/connection_threads.h"

namespace sling::web {

void ConnectionThreads::enqueue(std::function<void()> connection) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;  // the server is going down: the connection is dropped
    queue_.push_back(std::move(connection));
    // A thread for every connection that finds none idle: an idle browser or a slow client holds
    // its own thread, never one that a new request is waiting for.
    if (idle_ < queue_.size() && threads_.size() < max_threads_) {
      threads_.emplace_back([this] { work(); });
    }
  }
  ready_.notify_one();
}

void ConnectionThreads::work() {
  std::unique_lock lock(mutex_);
  while (true) {
    ++idle_;
    ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    --idle_;
    if (queue_.empty()) return;  // stopping, and nothing left to answer
    std::function<void()> connection = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    connection();
    lock.lock();
  }
}

void ConnectionThreads::shutdown() {
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    threads.swap(threads_);
  }
  ready_.notify_all();
  for (std::thread& thread : threads) thread.join();
}

std::size_t ConnectionThreads::threads() const {
  std::lock_guard lock(mutex_);
  return threads_.size();
}

}  // namespace sling::web
