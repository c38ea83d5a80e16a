// Agent programs in a tournament (experiments/tournament/agent_pool.h): with process=keep each
// worker keeps one program for game after game, as a match does, and the files are the same for
// any number of threads, after a resume, and as with a fresh program per game; a program that fails
// a game is started again for the next one.  The program is the Python example
// (examples/python/random_agent.py), which seeds itself from new_game's seed.

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/core/io.h"
#include "engine/pig/pig.h"
#include "experiments/csv.h"
#include "experiments/tournament/tournament.h"
#include "tests/build_paths.h"

namespace sling {
namespace {

namespace fs = std::filesystem;
using pig::PigGame;

class TournamentExternal : public ::testing::Test {
 protected:
  void SetUp() override {
    // The process id keeps concurrent test runs (ctest -j, other checkouts) apart.
    base_ = fs::temp_directory_path() / ("sling_tournament_external_" + std::to_string(::getpid()));
    fs::remove_all(base_);
    fs::create_directories(base_);
  }
  void TearDown() override { fs::remove_all(base_); }

  std::string log_file() const { return (base_ / "agent.log").string(); }

  // The Python example as an agent spec; `options` adds to it (process=game).
  std::string python_agent(const std::string& program, const std::string& options = "") const {
    return "external:cmd='/usr/bin/python3 " + program + "',log=" + log_file() +
           (options.empty() ? "" : "," + options);
  }
  std::string random_agent_program() const {
    return std::string(SLING_SOURCE_DIR) + "/examples/python/random_agent.py";
  }

  TournamentConfig config(const std::string& external_spec, int pairs = 10) const {
    TournamentConfig c;
    c.game = "pig";
    c.rules = PigGame{}.rules_json();
    c.agents = {"random", external_spec};
    c.pairs_per_pairing = pairs;
    c.seed = 7;
    c.turn_limit = kDefaultAgentTurnLimit;
    return c;
  }

  void run(const TournamentConfig& c, const fs::path& out, int threads, bool resume = false) const {
    TournamentOptions options;
    options.out_dir = out.string();
    options.threads = threads;
    options.resume = resume;
    std::ostringstream sink;
    run_tournament(PigGame{}, c, options, sink);
  }

  // How many programs were started since the log was last cleared.
  int programs_started() const {
    const std::string text = fs::exists(log_file()) ? read_file(log_file()) : "";
    int n = 0;
    const std::string what = "--- sling: started pid";
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
      ++n;
    }
    return n;
  }
  void clear_log() const { fs::remove(log_file()); }

  fs::path base_;
};

// Every file of a tournament's directory but timing.csv (wall times), by name.
std::map<std::string, std::string> reproducible_files(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name != "timing.csv") {
      files[name] = read_file(entry.path().string());
    }
  }
  return files;
}

std::vector<std::vector<std::string>> game_rows(const fs::path& dir) {
  std::istringstream in(read_file((dir / "games.csv").string()));
  std::vector<std::vector<std::string>> rows;
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::string error;
    EXPECT_TRUE(parse_csv_line(line, fields, error)) << error;
    rows.push_back(fields);
  }
  return rows;
}

// The error column of games.csv, by game id (empty for a game without an agent failure).
std::map<std::int64_t, std::string> errors_by_game(const fs::path& dir) {
  std::map<std::int64_t, std::string> errors;
  for (const auto& row : game_rows(dir)) errors[std::stoll(row.front())] = row.back();
  return errors;
}

TEST_F(TournamentExternal, OneProgramPerWorkerPlaysEveryGameAndTheFilesDoNotDependOnThreads) {
  const TournamentConfig kept = config(python_agent(random_agent_program()));
  const int games = 2 * kept.pairs_per_pairing;
  const fs::path one = base_ / "one", two = base_ / "two";
  run(kept, one, 1);
  EXPECT_EQ(programs_started(), 1);
  for (const auto& [id, error] : errors_by_game(one)) EXPECT_EQ(error, "") << "game " << id;
  EXPECT_EQ(errors_by_game(one).size(), static_cast<std::size_t>(games));

  clear_log();
  run(kept, two, 2);
  EXPECT_GE(programs_started(), 1);
  EXPECT_LE(programs_started(), 2);  // one per worker thread, not one per game
  EXPECT_TRUE(reproducible_files(one) == reproducible_files(two));

  // A fresh program for every game plays the very same games.
  clear_log();
  const fs::path fresh = base_ / "fresh";
  run(config(python_agent(random_agent_program(), "process=game")), fresh, 2);
  EXPECT_EQ(programs_started(), games);
  for (std::int64_t id = 0; id < games; ++id) {
    EXPECT_EQ(load_tournament_record(one.string(), id).history,
              load_tournament_record(fresh.string(), id).history)
        << "game " << id;
  }
}

TEST_F(TournamentExternal, AResumedTournamentWithAKeptProgramWritesTheSameFiles) {
  const TournamentConfig kept = config(python_agent(random_agent_program()));
  const fs::path reference = base_ / "reference", broken = base_ / "broken";
  run(kept, reference, 1);
  // An interrupted run: the first 7 games logged (rows and records in the order one thread wrote
  // them), no report yet.
  fs::create_directories(broken);
  fs::copy_file(reference / "config.json", broken / "config.json");
  for (const char* name : {"games.csv", "records.jsonl"}) {
    std::istringstream in(read_file((reference / name).string()));
    std::string text, line;
    for (int i = 0; i < (std::string(name) == "games.csv" ? 8 : 7) && std::getline(in, line); ++i) {
      text += line + "\n";
    }
    std::ofstream((broken / name).string(), std::ios::binary) << text;
  }
  clear_log();
  run(kept, broken, 2, /*resume=*/true);
  EXPECT_LE(programs_started(), 2);
  EXPECT_TRUE(reproducible_files(broken) == reproducible_files(reference));
}

TEST_F(TournamentExternal, AProgramThatFailsAGameIsStartedAgainForTheNextAndTheRunCompletes) {
  // The example agent, but it exits at once when told of one particular game: the new_game whose
  // seed is the one the program gets in game 5.
  const TournamentConfig probe = config("external:cmd=unused");
  const ScheduledGame doomed = Schedule(probe).game(5);
  const int side = doomed.agent0 == 1 ? 0 : 1;
  const fs::path program = base_ / "crash_on_one_seed.py";
  std::ofstream(program.string()) << "import os, sys\n"
                                  << "sys.path.insert(0, '" << SLING_SOURCE_DIR
                                  << "/examples/python')\n"
                                  << "from random_agent import RandomAgent\n"
                                  << "from sling_client import run\n"
                                  << "class CrashOnOneSeed(RandomAgent):\n"
                                  << "    def new_game(self, info):\n"
                                  << "        if info['seed'] == " << agent_seed(doomed.seed, side)
                                  << ":\n"
                                  << "            os._exit(3)\n"
                                  << "        super().new_game(info)\n"
                                  << "run(CrashOnOneSeed())\n";
  const fs::path out = base_ / "crash";
  run(config(python_agent(program.string())), out, 1);
  EXPECT_EQ(programs_started(), 2);  // the first, and the one started after game 5
  const auto errors = errors_by_game(out);
  ASSERT_EQ(errors.size(), 20u);
  for (const auto& [id, error] : errors) {
    if (id == 5) {
      EXPECT_EQ(error, "external agent exited with status 3");
    } else {
      EXPECT_EQ(error, "") << "game " << id;
    }
  }
}

}  // namespace
}  // namespace sling
