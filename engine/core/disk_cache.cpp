#include "engine/core/disk_cache.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <utility>

#include "engine/core/fnv1a.h"

namespace sling {

DiskCacheSettings disk_cache_settings;

std::string DiskCacheSettings::directory() const {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!directory_.empty()) return directory_;
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return std::string(xdg) + "/sling";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::string(home) + "/.cache/sling";
  }
  return ".sling-cache";
}

void DiskCacheSettings::set_directory(const std::string& directory) {
  const std::lock_guard<std::mutex> lock(mutex_);
  directory_ = directory;
}

void DiskCacheSettings::set_log(CacheLog log) {
  const std::lock_guard<std::mutex> lock(mutex_);
  log_ = std::move(log);
  log_set_ = true;
}

void DiskCacheSettings::log(const std::string& line) const {
  // Under the lock, so that lines from concurrent builds never interleave.
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!log_set_) {
    std::cerr << line << '\n';
  } else if (log_) {
    log_(line);
  }
}

std::string disk_cache_file(const std::string& directory, const std::string& prefix,
                            const std::string& key) {
  char hash[24];
  std::snprintf(hash, sizeof(hash), "%016llx", static_cast<unsigned long long>(fnv1a(key)));
  return directory + "/" + prefix + "-" + hash + ".sol";
}

void save_to_disk_cache(const std::function<void(const std::string&)>& save,
                        const std::string& directory, const std::string& path, double seconds,
                        const std::string& what, const CacheLog& log) {
  try {
    std::filesystem::create_directories(directory);
    save(path);
    char line[64];
    std::snprintf(line, sizeof(line), "%.1f", seconds);
    log("sling: solved in " + std::string(line) + " s; saved " + path);
  } catch (const std::exception& e) {
    log("sling: could not save the " + what + " to the cache (" + std::string(e.what()) + ")");
  }
}

}  // namespace sling
