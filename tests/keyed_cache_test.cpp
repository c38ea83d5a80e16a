// The one cache of solutions and tables (engine/core/keyed_cache.h): bounded, least recently used
// out, keyed by content; a key is built once however many callers want it, outside the lock.
// Every wait here is on a latch or on the cache's own waiting count, never on a clock.

#include "engine/core/keyed_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <latch>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/core/io.h"

namespace sling {
namespace {

// Waits until `count` callers wait for the build of `key` (they registered under the cache's lock).
template <class T>
void await_waiters(const KeyedCache<T>& cache, const std::string& key, std::size_t count) {
  while (cache.waiting(key) < count) std::this_thread::yield();
}

TEST(KeyedCache, BuildsOncePerKeyAndDropsTheLeastRecentlyUsed) {
  KeyedCache<int> cache(2);
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
  EXPECT_EQ(cache.find("c"), nullptr);  // evicted by b
  ASSERT_NE(cache.find("a"), nullptr);
}

TEST(KeyedCache, BoundsTheBytesHeldButKeepsTheEntryJustBuilt) {
  KeyedCache<std::string> cache(10, 10, [](const std::string& s) { return s.size(); });
  const auto first = cache.get("first", [] { return std::string(6, 'x'); });
  cache.get("second", [] { return std::string(4, 'y'); });
  EXPECT_EQ(cache.bytes(), 10u);
  cache.get("third", [] { return std::string(1, 'z'); });  // 11 bytes: the first goes
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.bytes(), 5u);
  EXPECT_EQ(cache.find("first"), nullptr);
  EXPECT_EQ(*first, std::string(6, 'x'));                  // the caller's own copy lives on
  cache.get("huge", [] { return std::string(50, 'h'); });  // alone over the bound: kept
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_NE(cache.find("huge"), nullptr);
}

TEST(KeyedCache, ConcurrentCallersOfOneKeyShareOneBuild) {
  constexpr int kCallers = 8;
  KeyedCache<int> cache(4);
  std::atomic<int> builds{0};
  std::latch release(1);
  std::vector<std::shared_ptr<const int>> got(kCallers);
  std::vector<std::thread> callers;
  callers.emplace_back([&] {
    got[0] = cache.get("solution", [&] {
      ++builds;
      release.wait();  // held until every other caller waits for this build
      return 42;
    });
  });
  while (builds.load() == 0) std::this_thread::yield();
  for (int i = 1; i < kCallers; ++i) {
    callers.emplace_back([&, i] {
      got[i] = cache.get("solution", [&] {
        ++builds;
        return -1;
      });
    });
  }
  await_waiters(cache, "solution", kCallers - 1);
  release.count_down();
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(builds.load(), 1);
  for (const auto& value : got) EXPECT_EQ(value, got[0]);
  EXPECT_EQ(*got[0], 42);
}

TEST(KeyedCache, AnotherKeyNeverWaitsForASlowBuild) {
  KeyedCache<int> cache(4);
  std::latch started(1), release(1);
  auto slow = std::async(std::launch::async, [&] {
    return cache.get("slow", [&] {
      started.count_down();
      release.wait();
      return 1;
    });
  });
  started.wait();
  // Built while the slow build is under way; a cache that built under its lock would never
  // return (the generous deadline only turns that hang into a failure).
  auto fast = std::async(std::launch::async, [&] { return cache.get("fast", [] { return 2; }); });
  const bool ready = fast.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
  EXPECT_EQ(cache.size(), ready ? 1u : 0u);  // the slow one is not stored yet
  release.count_down();
  ASSERT_TRUE(ready);
  EXPECT_EQ(*fast.get(), 2);
  EXPECT_EQ(*slow.get(), 1);
  EXPECT_EQ(cache.size(), 2u);
}

TEST(KeyedCache, AFailedBuildReachesEveryWaiterAndLeavesNothingBehind) {
  KeyedCache<int> cache(4);
  std::latch started(1), release(1);
  auto builder = std::async(std::launch::async, [&] {
    return cache.get("table", [&]() -> int {
      started.count_down();
      release.wait();
      throw std::runtime_error("solve failed");
    });
  });
  started.wait();
  bool waiter_built = false;
  auto waiter = std::async(std::launch::async, [&] {
    return cache.get("table", [&] {
      waiter_built = true;
      return 0;
    });
  });
  await_waiters(cache, "table", 1);
  release.count_down();
  EXPECT_THROW(builder.get(), std::runtime_error);
  EXPECT_THROW(waiter.get(), std::runtime_error);
  EXPECT_FALSE(waiter_built);
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(*cache.get("table", [] { return 7; }), 7);  // built again, now successfully
}

TEST(KeyedCache, ANullBuildStoresNothing) {
  KeyedCache<int> cache(4);
  EXPECT_EQ(cache.get("absent", [] { return std::shared_ptr<const int>(); }), nullptr);
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(*cache.get("absent", [] { return std::make_shared<const int>(3); }), 3);
}

TEST(KeyedCache, AFileRewrittenUnderTheSameNameGetsANewKey) {
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
