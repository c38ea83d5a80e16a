#pragma once
// Sling's disk cache: files of tables that are expensive to compute (solutions, refined values,
// best-response tables), named by a hash of what determines their content and read back instead
// of being computed again.  One hash (FNV-1a, fnv1a.h), one check of a file found there
// (load_cache_file), one way to save (save_to_disk_cache).
//
// Where the cache lives and where its progress lines go are the process's one pair of cache
// settings, `disk_cache_settings`: `sling --cache DIR` and Python's set_cache_directory set them,
// tests point them at temporary directories.  Everything else the caches hold is keyed by content
// and so never changes a result.

#include <exception>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <system_error>
#include <type_traits>

namespace sling {

using CacheLog = std::function<void(const std::string&)>;

// Thread-safe.
class DiskCacheSettings {
 public:
  // The cache directory: set_directory's, else $XDG_CACHE_HOME/sling, else ~/.cache/sling (else
  // ./.sling-cache when HOME is unset).
  std::string directory() const;
  // Moves the cache; "" restores the default.
  void set_directory(const std::string& directory);
  // Where the cache's progress and notice lines go: stderr until set; null silences them.
  void set_log(CacheLog log);
  // Writes one line to the log.
  void log(const std::string& line) const;

 private:
  mutable std::mutex mutex_;
  std::string directory_;
  bool log_set_ = false;
  CacheLog log_;
};

// The process's cache settings (the only mutable state of the caches that is not keyed by
// content).
extern DiskCacheSettings disk_cache_settings;

// The file of `directory` that caches the table determined by `key`:
// `prefix`-<16 hex digits of FNV-1a(key)>.sol.
std::string disk_cache_file(const std::string& directory, const std::string& prefix,
                            const std::string& key);

// The cache file at `path` read by `load(path)` (which returns a shared_ptr); null when there is
// no such file, and null after `unusable(why)` when `load` throws (a corrupt, truncated or
// foreign file: the caller computes the table again).
template <class Load>
auto load_cache_file(const std::string& path, Load&& load,
                     const std::function<void(const std::string& why)>& unusable)
    -> std::invoke_result_t<Load&, const std::string&> {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return nullptr;
  try {
    return load(path);
  } catch (const std::exception& e) {
    if (unusable) unusable(e.what());
    return nullptr;
  }
}

// Saves a table just computed (`save(path)`) into `directory` and logs how long it took; a
// failure to save is logged, not thrown (the table in memory serves all the same).  `what` names
// the table in the failure's line.
void save_to_disk_cache(const std::function<void(const std::string&)>& save,
                        const std::string& directory, const std::string& path, double seconds,
                        const std::string& what, const CacheLog& log);

}  // namespace sling
