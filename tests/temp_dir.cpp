// Every test process works in its own temporary directory, removed when the process ends: files a
// test writes through std::filesystem::temp_directory_path() or ::testing::TempDir() (and any
// `sling` it runs, which inherits TMPDIR) land there, so a run leaves nothing behind in /tmp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace {

class TemporaryDirectory : public ::testing::Environment {
 public:
  TemporaryDirectory() {
    namespace fs = std::filesystem;
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") +
                          "/sling-tests-" + std::to_string(::getpid()) + "-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) return;  // keep the default; tests still run
    path_ = pattern;
    ::setenv("TMPDIR", path_.c_str(), 1);
    ::setenv("TEST_TMPDIR", path_.c_str(), 1);
  }
  ~TemporaryDirectory() override { remove(); }
  void TearDown() override { remove(); }

 private:
  void remove() {
    if (path_.empty()) return;
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
    path_.clear();
  }
  std::string path_;
};

// Created before main(), so the variables are set before any test (or gtest itself) reads them.
[[maybe_unused]] ::testing::Environment* const kTemporaryDirectory =
    ::testing::AddGlobalTestEnvironment(new TemporaryDirectory);

}  // namespace
