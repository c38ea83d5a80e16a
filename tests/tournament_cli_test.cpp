// End-to-end tests of `sling tournament`: the binary is killed with SIGKILL in the middle of a run,
// resumed, and must end with the same files as an uninterrupted run.

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "tests/build_paths.h"

extern char** environ;

namespace sling {
namespace {

namespace fs = std::filesystem;

// Starts `sling` with the arguments, output discarded; returns its pid.
pid_t start_sling(const std::vector<std::string>& arguments) {
  std::vector<std::string> all = {SLING_BINARY};
  all.insert(all.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  const int error = posix_spawn(&pid, SLING_BINARY, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  EXPECT_EQ(error, 0) << "cannot start " << SLING_BINARY;
  return pid;
}

int wait_status(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

int run_sling(const std::vector<std::string>& arguments) {
  const int status = wait_status(start_sling(arguments));
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::size_t count_lines(const fs::path& path) {
  std::string text;
  try {
    text = read_file(path.string());
  } catch (const FileFormatError&) {
    return 0;
  }
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

std::map<std::string, std::string> reproducible_files(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string relative = fs::relative(entry.path(), dir).string();
    if (relative != "timing.csv") files[relative] = read_file(entry.path().string());
  }
  return files;
}

TEST(TournamentCli, KilledRunResumesToTheSameFiles) {
  const fs::path base =
      fs::temp_directory_path() / ("sling_tournament_cli_test_" + std::to_string(::getpid()));
  fs::remove_all(base);
  fs::create_directories(base);
  const fs::path reference = base / "reference", killed = base / "killed";
  // Fast agents, so the run is long in games but short in time: 1,600 pairs = 3,200 games.
  // Without the luck pass, which would cost more than the games (luck.csv's resume and ranks:
  // TournamentMpi).
  const std::vector<std::string> common = {"tournament", "duel",      "--agent", "random",
                                           "--agent",    "heuristic", "--games", "1600",
                                           "--seed",     "9",         "--quiet", "--no-luck"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> all = common;
    all.insert(all.end(), extra.begin(), extra.end());
    return all;
  };
  ASSERT_EQ(run_sling(with({"--out", reference.string(), "--threads", "2"})), 0);

  // Kill the second run once some games are logged, without warning.
  const pid_t pid = start_sling(with({"--out", killed.string(), "--threads", "1"}));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (count_lines(killed / "games.csv") < 50 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  const int status = wait_status(pid);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << "the run ended before it could be killed";
  const std::size_t logged = count_lines(killed / "games.csv");
  EXPECT_GT(logged, 1u);
  EXPECT_LT(logged, 3201u);
  EXPECT_FALSE(fs::exists(killed / "ratings.json"));

  // Without --resume the unfinished directory is refused; with it the run completes.
  EXPECT_EQ(run_sling(with({"--out", killed.string()})), 2);  // a user error
  ASSERT_EQ(run_sling(with({"--out", killed.string(), "--threads", "2", "--resume"})), 0);
  EXPECT_TRUE(reproducible_files(killed) == reproducible_files(reference));
  EXPECT_EQ(count_lines(killed / "games.csv"), 3201u);

  // Another configuration in the same directory is refused.
  std::vector<std::string> other = with({"--out", killed.string(), "--resume"});
  other[9] = "10";  // --seed 10
  EXPECT_EQ(run_sling(other), 2);
  fs::remove_all(base);
}

}  // namespace
}  // namespace sling
