// Tests of the tournament harness on a tiny game with agents of known strength: the paired
// schedule, determinism across thread counts, resuming after an interruption, malformed logs,
// configuration checks, failing agents and the report.

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "engine/core/io.h"
#include "experiments/csv.h"
#include "experiments/tournament/tournament.h"

namespace sling {
namespace {

namespace fs = std::filesystem;

// Guess race: each turn a fair coin is tossed (chance), then the player to move guesses it; a
// right guess scores a point.  First to `points` wins; after `turn_cap` turns it is a draw.  The
// coin is visible in the state, so an agent's strength is exactly its accuracy.
class GuessRace {
 public:
  static constexpr std::size_t kMaxActions = 2;
  static constexpr std::size_t kMaxChanceOutcomes = 2;
  struct State {
    std::uint8_t score[2] = {0, 0};
    std::uint8_t to_move = 0;
    std::uint8_t coin_pending = 1;  // 1: the coin is about to be tossed
    std::uint8_t coin = 0;
    std::uint8_t turns = 0;
    bool operator==(const State&) const = default;
  };

  int points = 3;
  int turn_cap = 12;

  const GameInfo& info() const {
    static const GameInfo kInfo{"guessrace", {"first", "second"}, 2, 2, true};
    return kInfo;
  }
  State initial_state() const { return {}; }
  bool is_terminal(const State& s) const {
    return s.score[0] >= points || s.score[1] >= points || s.turns >= turn_cap;
  }
  Player current_player(const State& s) const {
    if (is_terminal(s)) return kTerminalPlayer;
    return s.coin_pending ? kChancePlayer : static_cast<Player>(s.to_move);
  }
  void legal_actions(const State&, ActionList<GuessRace>& actions) const {
    actions.clear();
    actions.push_back(0);
    actions.push_back(1);
  }
  void chance_outcomes(const State&, ChanceList<GuessRace>& outcomes) const {
    outcomes.clear();
    outcomes.push_back({0, 0.5});
    outcomes.push_back({1, 0.5});
  }
  void apply_action(State& s, Action a) const {
    if (a > 1 || current_player(s) < 0) throw IllegalActionError("illegal guess");
    if (a == s.coin) ++s.score[s.to_move];
    s.to_move ^= 1;
    s.coin_pending = 1;
    ++s.turns;
  }
  void apply_chance(State& s, Action a) const {
    if (a > 1 || current_player(s) != kChancePlayer) throw IllegalActionError("illegal toss");
    s.coin = static_cast<std::uint8_t>(a);
    s.coin_pending = 0;
  }
  Returns returns(const State& s) const {
    if (s.score[0] >= points) return {1, -1};
    if (s.score[1] >= points) return {-1, 1};
    return {0, 0};
  }
  std::string_view end_reason(const State& s) const {
    return s.score[0] >= points || s.score[1] >= points ? "points" : "turn cap";
  }
  std::string action_to_string(const State&, Action a) const { return a ? "tails" : "heads"; }
  Action parse_action(const State&, std::string_view text) const {
    if (text == "heads") return 0;
    if (text == "tails") return 1;
    throw ParseError("not a guess");
  }
  std::string state_to_string(const State& s) const {
    return std::to_string(s.score[0]) + "-" + std::to_string(s.score[1]);
  }
  std::string rules_json() const {
    return "{\"points\": " + std::to_string(points) +
           ", \"turn_cap\": " + std::to_string(turn_cap) + "}";
  }
  static std::uint64_t hash(const State& s) { return hash_bytes(s); }
  static GuessRace from_rules_json(std::string_view) { return {}; }
};
static_assert(Game<GuessRace>);

// Guesses right with probability `accuracy`; "throwing" throws on its second move, "crashing"
// aborts the process there.
class TestAgent final : public Agent<GuessRace> {
 public:
  TestAgent(double accuracy, bool throws, std::string spec, bool crashes = false)
      : accuracy_(accuracy), throws_(throws), crashes_(crashes), spec_(std::move(spec)) {}
  void new_game(std::uint64_t seed) override {
    rng_ = Rng(seed, 7);
    moves_ = 0;
  }
  Action act(const GuessRace::State& state) override {
    ++moves_;
    if (throws_ && moves_ == 2) throw std::runtime_error("test agent failure");
    if (crashes_ && moves_ == 2) std::abort();
    return rng_.uniform01() < accuracy_ ? state.coin : 1u - state.coin;
  }
  std::string spec() const override { return spec_; }

 private:
  double accuracy_;
  bool throws_;
  bool crashes_;
  std::string spec_;
  Rng rng_;
  int moves_ = 0;
};

// "oracle:accuracy=0.8", "throwing", or any agent the registry knows ("random").
AgentPtr<GuessRace> make_test_agent(const GuessRace& game, const std::string& text) {
  const AgentSpec spec = parse_agent_spec(text);
  if (spec.name == "oracle") {
    OptionReader reader(spec);
    const double accuracy = reader.real("accuracy", 0.75, 0.0, 1.0);
    reader.finish();
    return std::make_unique<TestAgent>(accuracy, false, text);
  }
  if (spec.name == "throwing") return std::make_unique<TestAgent>(0.5, true, text);
  if (spec.name == "crashing") return std::make_unique<TestAgent>(0.5, false, text, true);
  return make_agent(game, text);
}

TournamentConfig test_config(int pairs = 6, std::uint64_t seed = 5) {
  TournamentConfig config;
  config.game = "guessrace";
  config.rules = GuessRace{}.rules_json();
  config.agents = {"random", "oracle:accuracy=0.7", "oracle:accuracy=0.9"};
  config.pairs_per_pairing = pairs;
  config.seed = seed;
  return config;
}

fs::path fresh_dir(const std::string& name) {
  // The process id keeps concurrent test runs (ctest -j, other checkouts) apart.
  const fs::path dir = fs::temp_directory_path() /
                       ("sling_tournament_test_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

TournamentReport run(const TournamentConfig& config, const fs::path& dir, int threads,
                     bool resume = false, std::ostream* log = nullptr,
                     std::atomic<int>* agents_built = nullptr, bool isolate = false) {
  TournamentOptions options;
  options.out_dir = dir.string();
  options.threads = threads;
  options.resume = resume;
  options.isolate = isolate;
  std::ostringstream sink;
  const GuessRace game;
  return run_tournament<GuessRace>(game, config, options, log ? *log : sink,
                                   [agents_built](const GuessRace& g, const std::string& spec) {
                                     if (agents_built) ++*agents_built;
                                     return make_test_agent(g, spec);
                                   });
}

// Every file of the directory except timing.csv (wall times), by relative path.
std::map<std::string, std::string> reproducible_files(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string relative = fs::relative(entry.path(), dir).string();
    if (relative == "timing.csv") continue;
    files[relative] = read_file(entry.path().string());
  }
  return files;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

TEST(TournamentCsv, QuotesFieldsThatNeedIt) {
  EXPECT_EQ(csv_line({"a", "mcts:iterations=10,c=1.4", "say \"hi\""}),
            "a,\"mcts:iterations=10,c=1.4\",\"say \"\"hi\"\"\"");
  std::vector<std::string> fields;
  std::string error;
  ASSERT_TRUE(parse_csv_line(csv_line({"x,y", "", "z\"", ""}), fields, error));
  EXPECT_EQ(fields, (std::vector<std::string>{"x,y", "", "z\"", ""}));
  EXPECT_FALSE(parse_csv_line("a,\"open", fields, error));
  EXPECT_FALSE(parse_csv_line("a,\"b\"c", fields, error));
}

TEST(TournamentSchedule, PairsShareTheirSeedAndSwapSides) {
  const TournamentConfig config = test_config(4);
  const Schedule schedule(config);
  ASSERT_EQ(schedule.total_games(), 2 * 3 * 4);
  std::map<std::pair<int, int>, int> games_per_side;
  std::set<std::uint64_t> seeds;
  for (std::int64_t g = 0; g < schedule.total_games(); g += 2) {
    const ScheduledGame first = schedule.game(g), second = schedule.game(g + 1);
    EXPECT_EQ(first.pair_id, second.pair_id);
    EXPECT_EQ(first.seed, second.seed);
    EXPECT_EQ(first.agent0, second.agent1);
    EXPECT_EQ(first.agent1, second.agent0);
    ++games_per_side[{first.agent0, first.agent1}];
    ++games_per_side[{second.agent0, second.agent1}];
    seeds.insert(first.seed);
  }
  EXPECT_EQ(seeds.size(), 12u);  // every pair has its own dice
  EXPECT_EQ(games_per_side.size(), 6u);
  for (const auto& [sides, count] : games_per_side) EXPECT_EQ(count, 4);
}

TEST(Tournament, PairedGamesShareTheirDice) {
  const fs::path dir = fresh_dir("dice");
  run(test_config(3), dir, 1);
  // The first coin of both games in a pair is the same draw of the pair's dice stream.
  int differing_pairs = 0;
  for (int pair = 0; pair < 9; ++pair) {
    const GameRecord a = load_tournament_record(dir.string(), 2 * pair);
    const GameRecord b = load_tournament_record(dir.string(), 2 * pair + 1);
    EXPECT_EQ(a.seed, b.seed);
    EXPECT_EQ(a.history.at(0), b.history.at(0));
    const GameRecord next = load_tournament_record(dir.string(), 2 * ((pair + 1) % 9));
    differing_pairs += next.history != a.history;
  }
  EXPECT_GT(differing_pairs, 0);
  fs::remove_all(dir);
}

TEST(Tournament, RecordsReplayToTheLoggedResult) {
  const fs::path dir = fresh_dir("replay");
  run(test_config(2), dir, 2);
  const GuessRace game;
  const auto rows = lines_of(read_file((dir / "games.csv").string()));
  ASSERT_EQ(rows.size(), 1u + 12u);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    std::vector<std::string> fields;
    std::string error;
    ASSERT_TRUE(parse_csv_line(rows[i], fields, error));
    const GameRecord record = load_tournament_record(dir.string(), std::stoll(fields[0]));
    const GuessRace::State final_state = replay(game, record);
    ASSERT_TRUE(game.is_terminal(final_state));
    const Returns r = game.returns(final_state);
    const std::string winner = r[0] > r[1] ? "first" : (r[1] > r[0] ? "second" : "draw");
    EXPECT_EQ(fields[5], winner) << rows[i];
    EXPECT_EQ(fields[7], std::to_string(record.history.size()));
  }
  fs::remove_all(dir);
}

TEST(Tournament, OutputsAreIdenticalForOneAndTwoThreads) {
  const fs::path one = fresh_dir("threads1"), two = fresh_dir("threads2");
  const TournamentReport a = run(test_config(), one, 1);
  const TournamentReport b = run(test_config(), two, 2);
  const auto files_one = reproducible_files(one), files_two = reproducible_files(two);
  EXPECT_EQ(files_one.size(), 5u);  // config, games, records, ratings.json, ratings.svg
  EXPECT_EQ(lines_of(files_one.at("records.jsonl")).size(), 36u);
  EXPECT_TRUE(files_one == files_two);
  EXPECT_EQ(report_table(a), report_table(b));
  EXPECT_TRUE(fs::exists(one / "timing.csv"));
  EXPECT_EQ(lines_of(read_file((one / "timing.csv").string())).size(), 37u);
  fs::remove_all(one);
  fs::remove_all(two);
}

TEST(Tournament, ResumeAfterTornAndMissingRowsGivesTheSameFiles) {
  const fs::path reference = fresh_dir("reference"), broken = fresh_dir("broken");
  const TournamentConfig config = test_config();
  run(config, reference, 2);
  const auto expected = reproducible_files(reference);

  // Simulate an interruption: rows in completion order, then the last one cut mid-line, and two
  // rows missing from the middle (as if a worker's game had not finished).  The report files do not
  // exist yet either.
  fs::copy(reference, broken, fs::copy_options::recursive);
  fs::remove(broken / "ratings.json");
  fs::remove(broken / "ratings.svg");
  const auto rows = lines_of(read_file((broken / "games.csv").string()));
  std::string text = rows[0] + "\n";
  int kept = 0;
  for (std::size_t i = 1; i + 1 < 25; ++i) {
    if (i == 7 || i == 8) continue;  // dropped
    text += rows[i] + "\n";
    ++kept;
  }
  text += rows[25].substr(0, rows[25].size() / 2);  // torn: no line break
  write_text(broken / "games.csv", text);
  // The records of games 0-23 are whole (some have no row), game 24's is cut off.
  const auto records = lines_of(read_file((broken / "records.jsonl").string()));
  std::string records_text;
  for (int id = 0; id < 24; ++id) records_text += records[id] + "\n";
  records_text += records[24].substr(0, 40);
  write_text(broken / "records.jsonl", records_text);

  // Without --resume an unfinished directory is refused and left alone.
  EXPECT_THROW(run(config, broken, 1), OptionError);
  EXPECT_EQ(read_file((broken / "games.csv").string()), text);

  std::atomic<int> agents_built{0};
  std::ostringstream log;
  run(config, broken, 1, /*resume=*/true, &log, &agents_built);
  // Two agents per replayed game, plus one validation build per agent spec.
  EXPECT_EQ(agents_built.load(), 2 * (36 - kept) + 3);
  EXPECT_NE(log.str().find("line 23 was cut off"), std::string::npos) << log.str();
  EXPECT_TRUE(reproducible_files(broken) == expected);

  // Resuming a finished tournament plays nothing and rewrites the same files.
  agents_built = 0;
  run(config, broken, 2, true, nullptr, &agents_built);
  EXPECT_EQ(agents_built.load(), 3);
  EXPECT_TRUE(reproducible_files(broken) == expected);
  fs::remove_all(reference);
  fs::remove_all(broken);
}

TEST(Tournament, MalformedLogNamesTheLineAndKeepsTheValidRows) {
  const fs::path dir = fresh_dir("malformed");
  const TournamentConfig config = test_config(2);
  run(config, dir, 1);
  auto rows = lines_of(read_file((dir / "games.csv").string()));
  rows[3] = "2,1,not-a-seed,random,oracle:accuracy=0.7";
  std::string text;
  for (const auto& line : rows) text += line + "\n";
  write_text(dir / "games.csv", text);

  try {
    run(config, dir, 1, true);
    FAIL() << "a malformed games.csv was accepted";
  } catch (const FileFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("games.csv line 4: expected 9 fields"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("11 valid rows"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_file((dir / "games.csv").string()), text);  // left unchanged

  const GuessRace game;
  const ParsedGamesCsv parsed = parse_games_csv(text, config, {"first", "second"}, "games.csv");
  EXPECT_EQ(parsed.rows.size(), 11u);
  ASSERT_EQ(parsed.problems.size(), 1u);

  // A row that contradicts the schedule is caught too, by line.
  rows[3] = rows[2];
  text.clear();
  for (const auto& line : rows) text += line + "\n";
  const ParsedGamesCsv duplicate = parse_games_csv(text, config, {"first", "second"}, "games.csv");
  ASSERT_EQ(duplicate.problems.size(), 1u);
  EXPECT_NE(duplicate.problems[0].find("line 4: game 1 is already on line 3"), std::string::npos)
      << duplicate.problems[0];
  fs::remove_all(dir);
}

TEST(Tournament, AnotherConfigurationIsRefused) {
  const fs::path dir = fresh_dir("config");
  run(test_config(1, 5), dir, 1);
  try {
    run(test_config(1, 6), dir, 1, true);
    FAIL() << "a different seed was accepted";
  } catch (const OptionError& e) {
    EXPECT_NE(std::string(e.what()).find("--seed 5 vs 6"), std::string::npos) << e.what();
  }
  TournamentConfig other = test_config(1, 5);
  other.agents.pop_back();
  EXPECT_THROW(run(other, dir, 1, true), OptionError);
  // The same configuration, finished, just reports again.
  EXPECT_NO_THROW(run(test_config(1, 5), dir, 1));
  // A directory that is not a tournament is refused.
  const fs::path stranger = fresh_dir("stranger");
  fs::create_directories(stranger);
  write_text(stranger / "notes.txt", "mine");
  EXPECT_THROW(run(test_config(1, 5), stranger, 1), OptionError);
  fs::remove_all(dir);
  fs::remove_all(stranger);
}

TEST(Tournament, AFailingAgentLosesAndTheRunGoesOn) {
  const fs::path dir = fresh_dir("errors");
  TournamentConfig config = test_config(3);
  config.agents = {"random", "throwing"};
  std::ostringstream log;
  const TournamentReport report = run(config, dir, 2, false, &log);
  EXPECT_EQ(report.games, 6);
  // Every game lasts at least two moves of the throwing agent unless it ends before (3 points
  // need at least 5 moves in total), so it fails every game.
  EXPECT_EQ(report.errors, 6);
  EXPECT_EQ(report.fit.agents[1].score, 0.0);
  EXPECT_NE(log.str().find("game 0: agent 'throwing' (second) failed"), std::string::npos)
      << log.str();
  const std::string games = read_file((dir / "games.csv").string());
  EXPECT_NE(games.find(",error,"), std::string::npos);
  EXPECT_NE(games.find("test agent failure"), std::string::npos);
  fs::remove_all(dir);
}

TEST(Tournament, IsolatedGamesGiveTheSameFiles) {
  const fs::path threaded = fresh_dir("threaded"), isolated = fresh_dir("isolated");
  run(test_config(3), threaded, 2);
  run(test_config(3), isolated, 2, false, nullptr, nullptr, /*isolate=*/true);
  EXPECT_TRUE(reproducible_files(threaded) == reproducible_files(isolated));
  fs::remove_all(threaded);
  fs::remove_all(isolated);
}

TEST(Tournament, AnIsolatedCrashingAgentLosesAndTheRunGoesOn) {
  const fs::path dir = fresh_dir("crash");
  TournamentConfig config = test_config(2);
  config.agents = {"oracle:accuracy=0.5", "crashing", "throwing"};
  std::ostringstream log;
  const TournamentReport report = run(config, dir, 2, false, &log, nullptr, /*isolate=*/true);
  EXPECT_EQ(report.games, 12);
  // Each failing agent fails on its second move in every game it plays (as above); when the two
  // failing agents meet, the first to reach its second move fails, which is the side-0 agent.
  EXPECT_EQ(report.errors, 12);
  EXPECT_EQ(report.fit.agents[0].score, 8.0);
  EXPECT_NE(log.str().find("agent 'crashing'"), std::string::npos) << log.str();
  const std::string games = read_file((dir / "games.csv").string());
  EXPECT_NE(games.find("agent crashed (Aborted)"), std::string::npos) << games;
  // Game 0 (oracle first, crashing second) keeps its history up to the crash: three tosses and
  // moves (oracle, crashing, oracle), then the toss before crashing's second move.
  const GameRecord record = load_tournament_record(dir.string(), 0);
  EXPECT_EQ(record.history.size(), 7u);
  fs::remove_all(dir);
}

TEST(Tournament, RatingsFollowTheKnownStrengths) {
  const fs::path dir = fresh_dir("strengths");
  const TournamentReport report = run(test_config(40), dir, 2);
  // random < oracle 0.7 < oracle 0.9, each clearly (LOS > 0.99 with 160 games per agent).
  EXPECT_GT(report.fit.likelihood_of_superiority(1, 0), 0.99);
  EXPECT_GT(report.fit.likelihood_of_superiority(2, 1), 0.99);
  EXPECT_EQ(report.games_between[0][1], 80);
  const std::string json = read_file((dir / "ratings.json").string());
  for (const char* key : {"\"agents\"", "\"name\"", "\"elo\"", "\"ci95_low\"", "\"ci95_high\"",
                          "\"games\"", "\"side_advantage_elo\"", "\"score_as_first\"",
                          "\"score_matrix\"", "\"likelihood_of_superiority\"", "\"ends\""}) {
    EXPECT_NE(json.find(key), std::string::npos) << key;
  }
  EXPECT_NE(read_file((dir / "ratings.svg").string()).find("<svg"), std::string::npos);
  const std::string table = report_table(report);
  EXPECT_NE(table.find("oracle:accuracy=0.9"), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sling
