#pragma once
// A bounded, thread-safe cache of immutable objects that are expensive to build (exact solutions
// read from disk or solved in memory, value functions over them), shared by every solver and agent
// that uses one.
//
// Entries are keyed by what determines their content, never by a name alone: a file by its
// identity and last change (file_content_key), a computed table by its parameters.  The cache
// holds at most `max_entries` entries and, when given a size function, at most `max_bytes` bytes,
// and drops the least recently used ones first; a caller keeps its own shared_ptr, so an evicted
// entry lives on as long as someone uses it.
//
// A build runs outside the cache's lock: a solve of minutes for one key never holds up a caller
// of another key, and a build may itself use the cache (a value function built over a cached
// solution).  Callers of a key that is being built wait for that one build and share its result;
// when it throws, each of them gets the exception and nothing is stored, so the next call builds
// again.  A build that returns null stores nothing: its own caller gets null, and a caller that was
// waiting for it builds for itself (its build may find what the other's did not).

#include <sys/stat.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <exception>
#include <functional>
#include <future>
#include <limits>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "engine/core/errors.h"

namespace sling {

template <class T>
class KeyedCache {
 public:
  using Pointer = std::shared_ptr<const T>;
  // The bytes an entry holds (its tables, not its header), for the byte bound.
  using SizeOf = std::function<std::size_t(const T&)>;

  explicit KeyedCache(std::size_t max_entries,
                      std::size_t max_bytes = std::numeric_limits<std::size_t>::max(),
                      SizeOf size_of = {})
      : max_entries_(max_entries), max_bytes_(max_bytes), size_of_(std::move(size_of)) {}

  KeyedCache(const KeyedCache&) = delete;
  KeyedCache& operator=(const KeyedCache&) = delete;

  // The entry for `key`; when absent, `build()` makes it (returning a T, or a shared_ptr to one,
  // which may be null: see above).  Rethrows what the build of this key threw.
  template <class Build>
  Pointer get(const std::string& key, Build&& build) {
    for (;;) {
      std::unique_lock<std::mutex> lock(mutex_);
      if (const auto found = slots_.find(key); found != slots_.end()) {
        Slot& slot = found->second;
        if (slot.value) {
          lru_.splice(lru_.begin(), lru_, slot.lru);  // most recently used first
          return slot.value;
        }
        const std::shared_future<Pointer> pending = slot.pending;
        ++slot.waiting;
        lock.unlock();
        if (Pointer value = pending.get()) return value;  // rethrows the build's exception
        continue;  // the other caller's build found nothing: build for ourselves
      }
      std::promise<Pointer> promise;
      slots_[key].pending = promise.get_future().share();
      lock.unlock();
      Pointer value;
      try {
        value = make(build);
      } catch (...) {
        lock.lock();
        slots_.erase(key);
        lock.unlock();
        promise.set_exception(std::current_exception());
        throw;
      }
      lock.lock();
      if (value) {
        store(key, value);
      } else {
        slots_.erase(key);
      }
      lock.unlock();
      promise.set_value(value);
      return value;
    }
  }

  // The entry for `key` when it is built (never builds, never waits), else null.
  Pointer find(const std::string& key) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto found = slots_.find(key);
    if (found == slots_.end() || !found->second.value) return nullptr;
    lru_.splice(lru_.begin(), lru_, found->second.lru);
    return found->second.value;
  }

  // Callers waiting for the build of `key` under way (0 when none is), for tests and diagnostics.
  std::size_t waiting(const std::string& key) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto found = slots_.find(key);
    return found == slots_.end() || found->second.value ? 0 : found->second.waiting;
  }

  // Entries built and held (builds under way are not counted), and their bytes.
  std::size_t size() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return lru_.size();
  }
  std::size_t bytes() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return bytes_;
  }

 private:
  struct Slot {
    Pointer value;                        // set once built
    std::shared_future<Pointer> pending;  // while being built
    std::size_t waiting = 0;              // callers waiting for that build
    typename std::list<std::string>::iterator lru;
    std::size_t bytes = 0;
  };

  template <class Build>
  static Pointer make(Build& build) {
    using Result = std::invoke_result_t<Build&>;
    if constexpr (std::is_convertible_v<Result, Pointer>) {
      return build();
    } else {
      return std::make_shared<const T>(build());
    }
  }

  // Stores a built entry (under the lock) and drops the least recently used ones beyond the
  // bounds; never the entry just stored, which its caller is about to use.
  void store(const std::string& key, const Pointer& value) {
    Slot& slot = slots_[key];
    slot.value = value;
    slot.pending = {};
    slot.waiting = 0;
    slot.bytes = size_of_ ? size_of_(*value) : 0;
    lru_.push_front(key);
    slot.lru = lru_.begin();
    bytes_ += slot.bytes;
    while (lru_.size() > 1 && (lru_.size() > max_entries_ || bytes_ > max_bytes_)) {
      const auto oldest = slots_.find(lru_.back());
      bytes_ -= oldest->second.bytes;
      slots_.erase(oldest);
      lru_.pop_back();
    }
  }

  const std::size_t max_entries_;
  const std::size_t max_bytes_;
  const SizeOf size_of_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Slot> slots_;  // built and being built
  std::list<std::string> lru_;                   // built keys, most recently used first
  std::size_t bytes_ = 0;
};

// The key of a file's current content: its identity and last change (device, inode, size,
// modification time; write_file_atomic gives a rewritten file a new inode).  A missing file has no
// key (FileFormatError, with the path), so the error is the same as the loader's.
inline std::string file_content_key(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    throw FileFormatError("cannot read '" + path + "': " + std::strerror(errno));
  }
  return std::to_string(info.st_dev) + ":" + std::to_string(info.st_ino) + ":" +
         std::to_string(info.st_size) + ":" + std::to_string(info.st_mtim.tv_sec) + "." +
         std::to_string(info.st_mtim.tv_nsec);
}

}  // namespace sling
