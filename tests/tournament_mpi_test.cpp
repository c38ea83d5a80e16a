// `sling tournament`, `sling match` and `sling train danelaw --generations` under mpirun on this
// machine: the files are the ones one process writes, for 1, 3 and 4 ranks; a killed worker stops
// the run cleanly and --resume on another number of ranks finishes it to the same files; a rank
// started with another configuration is refused; an agent program is kept by each worker rank.
// Built only when the build has MPI (SLING_MPIEXEC is set by CMake).
#ifdef SLING_MPIEXEC

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "solvers/danelaw/value_model.h"
#include "tests/build_paths.h"

extern char** environ;

namespace sling {
namespace {

namespace fs = std::filesystem;

// mpirun as CI runs it: as root, more ranks than cores, no leak report from Open MPI's own
// allocations under the sanitizers.
std::vector<std::string> mpirun(int ranks) {
  return {
      SLING_MPIEXEC, "--allow-run-as-root", "--oversubscribe", "-x", "ASAN_OPTIONS=detect_leaks=0",
      "-np",         std::to_string(ranks)};
}

// Starts the command with stdout and stderr in `output_file`; returns its pid.
pid_t start(const std::vector<std::string>& command, const std::string& output_file) {
  std::vector<std::string> all = command;
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);  // CI has no stdin
  posix_spawn_file_actions_addopen(&actions, 1, output_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = -1;
  const int error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  EXPECT_EQ(error, 0) << "cannot start " << argv[0];
  return pid;
}

int exit_code(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int wait_status(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

struct Finished {
  int code;
  std::string output;
};

Finished run(const std::vector<std::string>& command, const fs::path& output_file) {
  const int status = wait_status(start(command, output_file.string()));
  return {exit_code(status), read_file(output_file.string())};
}

std::vector<std::string> plus(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
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

std::size_t count_lines(const fs::path& path) {
  std::ifstream in(path);
  return static_cast<std::size_t>(
      std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n'));
}

// The pid of the rank `rank` among mpirun's children (Open MPI starts the ranks of its own node as
// its children and tells each its rank in OMPI_COMM_WORLD_RANK), or -1.
pid_t rank_pid(pid_t launcher, int rank) {
  const std::string wanted = "OMPI_COMM_WORLD_RANK=" + std::to_string(rank);
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const std::size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(line.substr(close + 2));
    std::string state;
    pid_t parent = 0;
    fields >> state >> parent;
    if (parent != launcher) continue;
    std::ifstream environment(entry.path() / "environ", std::ios::binary);
    std::string variable;
    while (std::getline(environment, variable, '\0')) {
      if (variable == wanted) return static_cast<pid_t>(std::stoi(name));
    }
  }
  return -1;
}

class TournamentMpi : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("sling_mpi_test_" + std::to_string(::getpid()));
    fs::remove_all(base_);
    fs::create_directories(base_);
  }
  void TearDown() override { fs::remove_all(base_); }
  fs::path base_;
};

const std::vector<std::string> kTournament = {
    SLING_BINARY, "tournament",         "pig",     "--agent", "random", "--agent", "heuristic",
    "--agent",    "mcts:iterations=30", "--games", "6",       "--seed", "5",       "--quiet"};

TEST_F(TournamentMpi, FilesAreTheSingleProcessFilesForOneThreeAndFourRanks) {
  const fs::path reference = base_ / "reference";
  ASSERT_EQ(
      run(plus(kTournament, {"--threads", "1", "--out", reference.string()}), base_ / "log").code,
      0);
  const auto expected = reproducible_files(reference);
  ASSERT_EQ(expected.size(), 6u);  // config, games, records, ratings.json, ratings.svg, luck
  for (int ranks : {1, 3, 4}) {
    const fs::path out = base_ / ("ranks" + std::to_string(ranks));
    const Finished r =
        run(plus(plus(mpirun(ranks), kTournament), {"--out", out.string()}), base_ / "log");
    ASSERT_EQ(r.code, 0) << ranks << " ranks:\n" << r.output;
    EXPECT_TRUE(reproducible_files(out) == expected) << ranks << " ranks";
    EXPECT_EQ(count_lines(out / "timing.csv"), count_lines(reference / "timing.csv"));
  }
}

TEST_F(TournamentMpi, AKilledWorkerStopsTheRunCleanlyAndResumeOnOtherRanksFinishesIt) {
  // Enough games that the run is still going when a worker is killed.
  const std::vector<std::string> tournament = {
      SLING_BINARY,          "tournament", "pig", "--agent", "heuristic", "--agent",
      "mcts:iterations=200", "--games",    "150", "--seed",  "8",         "--quiet"};
  const fs::path reference = base_ / "reference", killed = base_ / "killed";
  ASSERT_EQ(
      run(plus(tournament, {"--threads", "2", "--out", reference.string()}), base_ / "log").code,
      0);

  // When a rank dies, Open MPI's launcher sends the others SIGCONT, SIGTERM after a pause and
  // SIGKILL after another; rank 0 writes its stop note on the SIGTERM.  With the default pause of
  // 1 s a loaded machine sometimes had not written it by the SIGKILL (an empty stopped.txt), so
  // here the pause is 5 s, far longer than writing the note takes even then.
  const std::vector<std::string> launcher_with_time = {"--mca", "odls_base_sigkill_timeout", "5"};
  const pid_t launcher =
      start(plus(plus(plus(mpirun(3), launcher_with_time), tournament), {"--out", killed.string()}),
            (base_ / "killed.log").string());
  // The worker is killed once 20 games are on file (and the header), however long a loaded
  // machine takes to get there: then at least those are there after the stop, whatever the other
  // ranks still finish.  Only a run that is stuck gives up.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  while (count_lines(killed / "games.csv") < 21 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (count_lines(killed / "games.csv") < 21) {
    kill(launcher, SIGTERM);
    wait_status(launcher);
    FAIL() << "20 games were not played in 5 minutes:\n"
           << read_file((base_ / "killed.log").string());
  }
  const pid_t worker = rank_pid(launcher, 1);
  ASSERT_GT(worker, 0) << "no rank 1 among mpirun's children";
  ASSERT_EQ(kill(worker, SIGKILL), 0);
  const int status = wait_status(launcher);
  const std::string log = read_file((base_ / "killed.log").string());
  const std::size_t logged = count_lines(killed / "games.csv");
  // Plain MPI cannot carry on without a rank: the job stops, rank 0 says how to continue, and the
  // files hold the finished games.  The launcher may drop rank 0's last output while it aborts the
  // job, so the note that must not be lost is the one in the output directory.
  EXPECT_NE(exit_code(status), 0) << log;
  ASSERT_TRUE(fs::exists(killed / "stopped.txt")) << log;
  EXPECT_NE(read_file((killed / "stopped.txt").string()).find("run again with --resume"),
            std::string::npos)
      << log;
  EXPECT_FALSE(fs::exists(killed / "ratings.json"));
  EXPECT_GE(logged, 21u);
  EXPECT_LT(logged, 301u);  // header and 300 games: the run did not finish

  // Resumed on four ranks: the same files as the uninterrupted single process.
  const Finished resumed =
      run(plus(plus(mpirun(4), tournament), {"--out", killed.string(), "--resume"}), base_ / "log");
  ASSERT_EQ(resumed.code, 0) << resumed.output;
  EXPECT_FALSE(fs::exists(killed / "stopped.txt")) << "the finished run removes the stop note";
  EXPECT_TRUE(reproducible_files(killed) == reproducible_files(reference));
}

TEST_F(TournamentMpi, ARankWithAnotherConfigurationIsRefused) {
  const fs::path out = base_ / "out";
  std::vector<std::string> command = plus(mpirun(1), kTournament);
  command = plus(command, {"--out", out.string(), ":", "-np", "1"});
  std::vector<std::string> other = kTournament;
  other[12] = "6";  // --seed 6 instead of 5
  command = plus(command, plus(other, {"--out", out.string()}));
  const Finished r = run(command, base_ / "log");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.output.find("MPI rank 1 was started with another binary or configuration"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("\"seed\": 5"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out / "games.csv"));
}

TEST_F(TournamentMpi, EachWorkerRankKeepsOneAgentProgramAndTheFilesAreTheSingleProcessFiles) {
  // The Python example agent, kept across games (process=keep): one program per worker rank's
  // thread (two workers here), the same files as one process with one program.
  const fs::path log = base_ / "agent.log";
  const std::vector<std::string> tournament = {
      SLING_BINARY,
      "tournament",
      "pig",
      "--agent",
      "random",
      "--agent",
      "external:cmd='/usr/bin/python3 " + std::string(SLING_SOURCE_DIR) +
          "/examples/python/random_agent.py',log=" + log.string(),
      "--games",
      "8",
      "--seed",
      "5",
      "--quiet",
      "--no-luck"};
  auto programs_started = [&] {
    const std::string text = fs::exists(log) ? read_file(log.string()) : "";
    int n = 0;
    for (std::size_t at = text.find("--- sling: started pid"); at != std::string::npos;
         at = text.find("--- sling: started pid", at + 1)) {
      ++n;
    }
    return n;
  };
  const fs::path one = base_ / "one", three = base_ / "three";
  const Finished single =
      run(plus(tournament, {"--threads", "1", "--out", one.string()}), base_ / "log");
  ASSERT_EQ(single.code, 0) << single.output;
  EXPECT_EQ(programs_started(), 1);
  fs::remove(log);
  const Finished r =
      run(plus(plus(mpirun(3), tournament), {"--out", three.string()}), base_ / "log");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_GE(programs_started(), 1);
  EXPECT_LE(programs_started(), 2);  // not one per game (16)
  EXPECT_TRUE(reproducible_files(three) == reproducible_files(one));
  EXPECT_EQ(read_file((one / "games.csv").string()).find("external agent"), std::string::npos);
}

TEST_F(TournamentMpi, AMatchOnThreeRanksHasTheSingleProcessResultAndRecords) {
  const std::vector<std::string> match = {
      SLING_BINARY,         "match",   "pig", "--first", "heuristic", "--second",
      "mcts:iterations=30", "--games", "40",  "--seed",  "3"};
  const fs::path one = base_ / "one", three = base_ / "three";
  ASSERT_EQ(run(plus(match, {"--threads", "1", "--json", (base_ / "one.json").string(), "--record",
                             one.string()}),
                base_ / "log")
                .code,
            0);
  const Finished r = run(plus(plus(mpirun(3), match), {"--json", (base_ / "three.json").string(),
                                                       "--record", three.string()}),
                         base_ / "log");
  ASSERT_EQ(r.code, 0) << r.output;
  auto without_seconds = [](const std::string& json) {
    std::string kept;
    std::istringstream lines(json);
    for (std::string line; std::getline(lines, line);) {
      if (line.find("\"seconds\"") == std::string::npos) kept += line + "\n";
    }
    return kept;
  };
  EXPECT_EQ(without_seconds(read_file((base_ / "three.json").string())),
            without_seconds(read_file((base_ / "one.json").string())));
  EXPECT_TRUE(reproducible_files(three) == reproducible_files(one));
  EXPECT_EQ(reproducible_files(one).size(), 40u);
}

TEST_F(TournamentMpi, TrainingGenerationsOnThreeRanksAreTheSingleProcessRunAndResume) {
  const std::vector<std::string> train = {
      SLING_BINARY, "train", "danelaw", "--games", "10", "--gate-pairs", "4", "--curve-pairs", "3",
      "--seed", "11", "--agent", "planner:plans=2,samples=1,battle=0,english_plans=2",
      // Not generation 0's agent: generation 0 is rated too.
      "--reference", "planner:plans=2,samples=1,battle=0,english_plans=2"};
  const fs::path one = base_ / "one", three = base_ / "three";
  ASSERT_EQ(run(plus(train, {"--generations", "2", "--threads", "1", "--dir", one.string()}),
                base_ / "log")
                .code,
            0);
  // One generation on three ranks, then the second on three ranks from the directory.
  for (const char* generations : {"1", "2"}) {
    const Finished r =
        run(plus(plus(mpirun(3), train), {"--generations", generations, "--dir", three.string()}),
            base_ / "log");
    ASSERT_EQ(r.code, 0) << r.output;
  }
  for (const char* file : {"run.json", "games.bin"}) {
    EXPECT_EQ(read_file((three / file).string()), read_file((one / file).string())) << file;
  }
}

// A tuned generation (SPSA's games dealt out to the ranks, rank 0 writing the perturbed models
// and stepping the weights) gives the single process's run and model.
TEST_F(TournamentMpi, TunedGenerationsOnThreeRanksAreTheSingleProcessRun) {
  const std::vector<std::string> tuning = {"--generations", "1", "--tune-iterations", "2",
                                           "--tune-pairs",  "2"};
  const std::vector<std::string> train =
      plus({SLING_BINARY, "train", "danelaw", "--games", "10", "--gate-pairs", "4", "--curve-pairs",
            "2", "--seed", "11", "--agent", "planner:plans=2,samples=1,battle=0,english_plans=2"},
           tuning);
  const fs::path one = base_ / "tuned_one", three = base_ / "tuned_three";
  ASSERT_EQ(run(plus(train, {"--threads", "1", "--dir", one.string()}), base_ / "log").code, 0);
  const Finished r = run(plus(plus(mpirun(3), train), {"--dir", three.string()}), base_ / "log");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(read_file((three / "run.json").string()), read_file((one / "run.json").string()));
  // The model files differ only in the command line that names each directory.
  EXPECT_EQ(danelaw::ValueModel::load((three / "gen-1.json").string()).weights,
            danelaw::ValueModel::load((one / "gen-1.json").string()).weights);
}

}  // namespace
}  // namespace sling

#endif  // SLING_MPIEXEC
