// The agents' shared cache of solutions: bounded, least recently used out, keyed by content.

#include "agents/shared_cache.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "engine/core/io.h"

namespace sling {
namespace {

TEST(SharedCache, BuildsOncePerKeyAndDropsTheLeastRecentlyUsed) {
  SharedCache<int> cache(2);
  int builds = 0;
  auto get = [&](const std::string& key, int value) {
    return *cache.get(key, [&] {
      ++builds;
      return value;
    });
  };
  EXPECT_EQ(get("a", 1), 1);
  EXPECT_EQ(get("b", 2), 2);
  EXPECT_EQ(get("a", 99), 1);  // cached: not rebuilt
  EXPECT_EQ(builds, 2);
  EXPECT_EQ(get("c", 3), 3);  // evicts b, the least recently used
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(get("a", 99), 1);
  EXPECT_EQ(get("b", 20), 20);  // rebuilt
  EXPECT_EQ(builds, 4);
}

TEST(SharedCache, AFileRewrittenUnderTheSameNameGetsANewKey) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("sling_cache_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "table.bin").string();
  write_file_atomic(path, "first");
  const std::string first = file_content_key(path);
  EXPECT_EQ(file_content_key(path), first);
  write_file_atomic(path, "second content");
  EXPECT_NE(file_content_key(path), first);
  EXPECT_THROW(file_content_key((dir / "missing.bin").string()), FileFormatError);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sling
