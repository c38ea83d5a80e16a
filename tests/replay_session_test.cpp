// `sling replay` in-process (ReplaySession) and through the real binary, with `sling play`'s saves
// and the records of play_game (the tournament's format).

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "agents/random_agent.h"
#include "engine/core/record.h"
#include "engine/duel/duel.h"
#include "experiments/play_game.h"
#include "experiments/tournament/tournament.h"
#include "play/play_agents.h"
#include "play/replay_session.h"
#include "tests/play_scripted.h"
#include "tests/run_sling.h"

namespace sling::play {
namespace {

using duel::DuelGame;

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("sling_replay_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

GameRecord agents_game(const DuelGame& game, std::uint64_t seed) {
  auto david = make_play_agent(game, "easy");
  RandomAgent<DuelGame> goliath(game);
  const GameResult result = play_game(game, *david, goliath, seed);
  EXPECT_EQ(result.error, "");
  return result.record;
}

TEST(ReplayDuel, StepsForwardsAndBackwardsWithTheBoard) {
  const DuelGame game;
  const GameRecord record = agents_game(game, 31);
  const std::size_t n = record.history.size();
  ASSERT_GT(n, 10u);
  const ReplaySession<DuelGame> session(game, record, Style{});
  std::istringstream in("n\n\np\ng 5\ng " + std::to_string(n + 1) +
                        "\ng x\ngoto 0\np\nend\nn\nlog\nfrobnicate\nstart\nq\nn\n");
  std::ostringstream out;
  session.run(in, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("Ply 1 of " + std::to_string(n) + ": Initiative"), std::string::npos) << text;
  EXPECT_NE(text.find("Ply 2 of " + std::to_string(n)), std::string::npos);
  EXPECT_NE(text.find("Ply 5 of " + std::to_string(n)), std::string::npos);
  EXPECT_NE(text.find("Usage: g N, with N from 0 to " + std::to_string(n)), std::string::npos);
  EXPECT_EQ(count_occurrences(text, "Usage: g N"), 2);
  EXPECT_NE(text.find("That is the start"), std::string::npos);
  EXPECT_NE(text.find("That is the last ply"), std::string::npos);
  EXPECT_NE(text.find("Unknown command 'frobnicate'"), std::string::npos);
  EXPECT_NE(text.find(GameView<DuelGame>::result(game, replay(game, record))), std::string::npos);
  // The board is shown at every step: start, n, empty line, p, g 5, goto 0, end, start.
  EXPECT_EQ(count_occurrences(text, "north: Goliath's border"), 8);
  // `log` lists every ply once.
  EXPECT_NE(text.find(" > " + std::to_string(n) + ". "), std::string::npos);  // marks where we are
  // Input after `q` is not read.
  EXPECT_EQ(text.rfind("replay 0/"), text.rfind("replay "));
}

TEST(ReplayDuel, ToEndPrintsTheFinalPosition) {
  const DuelGame game;
  const GameRecord record = agents_game(game, 32);
  const ReplaySession<DuelGame> session(game, record, Style{});
  std::ostringstream out;
  session.to_end(out);
  EXPECT_NE(out.str().find("Ply " + std::to_string(record.history.size()) + " of"),
            std::string::npos);
  EXPECT_NE(out.str().find(GameView<DuelGame>::result(game, replay(game, record))),
            std::string::npos);
}

TEST(ReplayDuel, ACorruptedRecordIsRefusedWithThePly) {
  const DuelGame game;
  GameRecord record = agents_game(game, 33);
  record.history[3] = 0xdead;
  EXPECT_THROW(ReplaySession<DuelGame>(game, record, Style{}), IllegalActionError);
  record.game = "pig";
  EXPECT_THROW(ReplaySession<DuelGame>(game, record, Style{}), FileFormatError);
}

// Runs the sling binary with `script` on standard input; returns (exit status, stdout + stderr).
std::pair<int, std::string> run_sling(const std::string& arguments, const std::string& script) {
  const std::string input = temp_path("stdin.txt");
  std::ofstream(input) << script;
  const auto run = testing_support::run_sling(arguments + " < " + input);
  std::filesystem::remove(input);
  return {run.status, run.output};
}

TEST(PlayBinary, PlaysSavesAndReplaysThroughStandardInput) {
  const std::string save = temp_path("binary_save.json");
  // David searches and accepts every die until the third prompt, saves and quits.
  const auto [status, output] = run_sling("play duel --david human --goliath easy --seed 4",
                                          "1\n1\n1\nsave " + save + "\nquit\n");
  EXPECT_EQ(status, 0) << output;
  EXPECT_NE(
      output.find("Duel: David (human)  against  Goliath (easy)\n  easy = heuristic:blunder=0.25"),
      std::string::npos)
      << output;
  EXPECT_NE(output.find("Saved "), std::string::npos) << output;
  EXPECT_EQ(output.find("\x1b["), std::string::npos);  // not a terminal: plain text
  const GameRecord saved = load_record(save);
  EXPECT_EQ(saved.seed, 4u);

  // Continue it with --load, both sides agents now, to the end.
  const auto [status2, output2] =
      run_sling("play --load " + save + " --david easy --goliath easy", "");
  EXPECT_EQ(status2, 0) << output2;
  EXPECT_NE(output2.find("wins"), std::string::npos) << output2;

  const auto [status3, output3] = run_sling("replay " + save + " --to-end", "");
  EXPECT_EQ(status3, 0) << output3;
  EXPECT_NE(output3.find("Ply " + std::to_string(saved.history.size()) + " of " +
                         std::to_string(saved.history.size())),
            std::string::npos)
      << output3;
  const auto [status4, output4] = run_sling("replay " + save, "n\np\nend\nq\n");
  EXPECT_EQ(status4, 0) << output4;
  EXPECT_NE(output4.find("Ply 1 of"), std::string::npos);
  std::filesystem::remove(save);
}

TEST(PlayBinary, ReplaysAGameOfATournamentFolder) {
  const DuelGame game;
  const std::filesystem::path folder = temp_path("tournament");
  std::filesystem::create_directories(folder);
  const GameRecord first = agents_game(game, 41), second = agents_game(game, 42);
  std::ofstream(folder / "records.jsonl") << record_line(0, first) << record_line(1, second);
  const auto [status, output] = run_sling("replay " + folder.string() + " --game 1 --to-end", "");
  EXPECT_EQ(status, 0) << output;
  EXPECT_NE(output.find("seed 42, " + std::to_string(second.history.size()) + " plies"),
            std::string::npos)
      << output;
  EXPECT_NE(output.find(GameView<DuelGame>::result(game, replay(game, second))), std::string::npos);
  const auto [status2, output2] =
      run_sling("replay " + (folder / "records.jsonl").string() + " --game 0", "n\nq\n");
  EXPECT_EQ(status2, 0) << output2;
  EXPECT_NE(output2.find("seed 41"), std::string::npos);
  EXPECT_NE(output2.find("Ply 1 of " + std::to_string(first.history.size())), std::string::npos);
  const auto [status3, output3] = run_sling("replay " + folder.string(), "");
  EXPECT_EQ(status3, 2);
  EXPECT_NE(output3.find("choose one with --game N"), std::string::npos);
  const auto [status4, output4] = run_sling("replay " + folder.string() + " --game 7", "");
  EXPECT_EQ(status4, 2);
  EXPECT_NE(output4.find("no record of game 7"), std::string::npos) << output4;
  std::filesystem::remove_all(folder);
}

TEST(PlayBinary, BadOptionsAreOneLineErrors) {
  for (const std::string& arguments :
       {std::string("play duel --danes human"), std::string("play duel --goliath nonsense"),
        std::string("play duel --goliath mcts:bogus=1"), std::string("play chess"),
        std::string("play duel --colour purple"), std::string("play duel --svg board.svg"),
        std::string("replay /nonexistent/record.json"),
        std::string("play --load /nonexistent/record.json")}) {
    const auto [status, output] = run_sling(arguments, "quit\n");
    EXPECT_EQ(status, 2) << arguments << "\n" << output;
    EXPECT_EQ(output.rfind("sling: ", 0), 0u) << arguments << "\n" << output;
    EXPECT_EQ(count_occurrences(output, "\n"), 1) << arguments << "\n" << output;
  }
}

}  // namespace
}  // namespace sling::play
