#pragma once
// A small, bounded, thread-safe cache of immutable objects that are expensive to build (exact
// solutions read from disk or solved in memory), shared by every agent that uses one.
//
// Entries are keyed by what determines their content, never by a name alone: a file by its
// identity and last change (device, inode, size, modification time; write_file_atomic gives a
// rewritten file a new inode), a computed table by its parameters.  The cache holds at most
// `capacity` entries and drops the least recently used one; an agent keeps its own shared_ptr, so
// an evicted entry lives on as long as an agent uses it.

#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "engine/core/errors.h"

namespace sling {

template <class T>
class SharedCache {
 public:
  explicit SharedCache(std::size_t capacity) : capacity_(capacity) {}

  // The entry for `key`, built by `build()` (outside no lock: builds are rare and a second caller
  // for the same key waits for the first) when absent.
  template <class Build>
  std::shared_ptr<const T> get(const std::string& key, Build&& build) {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first == key) {
        entries_.splice(entries_.begin(), entries_, it);  // most recently used first
        return entries_.front().second;
      }
    }
    auto value = std::make_shared<const T>(build());
    entries_.emplace_front(key, value);
    if (entries_.size() > capacity_) entries_.pop_back();
    return value;
  }

  std::size_t size() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return entries_.size();
  }

 private:
  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::list<std::pair<std::string, std::shared_ptr<const T>>> entries_;
};

// The key of a file's current content: its identity and last change.  A missing file has no key
// (FileFormatError, with the path), so the error is the same as the loader's.
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
