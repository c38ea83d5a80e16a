// Whole games of Pig in the terminal, driven in-process by a scripted person.

#include <gtest/gtest.h>

#include "tests/build_paths.h"
#include "tests/play_scripted.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "engine/core/record.h"
#include "engine/pig/pig.h"
#include "play/play_session.h"
#include "play/replay_session.h"
#include "play/scripted_input.h"

namespace sling::play {
namespace {

using pig::PigGame;
using pig::PigState;

// The limit keeps a confused script from looping forever.
struct ScriptedPig : ScriptedSession<PigGame> {
  ScriptedPig(const PigGame& game, PlayConfig config, Person person)
      : ScriptedSession(game, std::move(config), std::move(person), 5000) {}
};

PlayConfig pig_config(const std::string& first, const std::string& second, std::uint64_t seed) {
  PlayConfig config;
  config.sides = {first, second};
  config.seed = seed;
  config.hint = "off";
  return config;
}

TEST(PlayPig, AFullGameAgainstTheExactSolverShowsEveryDie) {
  const PigGame game;
  // Hold at 20, typed in every accepted form.
  int turn = 0;
  ScriptedPig play(
      game, pig_config("human", "strong", 4), [&](const PigState& s) -> std::optional<std::string> {
        if (game.is_terminal(s)) return "quit";
        ++turn;
        const bool hold = s.turn_total >= 20 || s.scores[0] + s.turn_total >= game.goal();
        static const char* kRoll[] = {"roll", "r", "1"};
        static const char* kHold[] = {"hold", "h", "2"};
        return std::string(hold ? kHold[turn % 3] : kRoll[turn % 3]);
      });
  EXPECT_TRUE(play.session.run());
  const std::string text = play.out.str();
  const GameRecord record = play.session.record();
  PigState s = game.initial_state();
  int dice = 0;
  for (Action a : record.history) {
    if (game.current_player(s) == kChancePlayer) ++dice;
    apply_any(game, s, a);
  }
  EXPECT_EQ(count_occurrences(text, " rolls ["), dice);
  EXPECT_TRUE(game.is_terminal(play.session.state()));
  EXPECT_NE(text.find(" wins with "), std::string::npos);
  EXPECT_NE(text.find("Second (strong)"), std::string::npos);
  EXPECT_EQ(count_occurrences(text, "Not understood"), 0);
}

TEST(PlayPig, HintIsTheExactSolversAndBadInputIsExplained) {
  const PigGame game;
  PlayConfig config = pig_config("human", "easy", 6);
  config.hint = "auto";
  const std::vector<std::string> script = {"hint", "Roll", "3", "throw", "", "roll", "quit"};
  std::size_t step = 0;
  ScriptedPig play(game, config, [&](const PigState&) -> std::optional<std::string> {
    if (step == script.size()) return std::nullopt;
    return script[step++];
  });
  EXPECT_FALSE(play.session.run());
  const std::string text = play.out.str();
  EXPECT_NE(text.find("Hint (solver): exact win chance"), std::string::npos) << text;
  EXPECT_NE(text.find("roll  win "), std::string::npos);
  EXPECT_NE(text.find("hold  win "), std::string::npos);
  EXPECT_EQ(count_occurrences(text, "Not understood"),
            2);  // "Roll" (typed forms are lower case) and "throw"
  EXPECT_NE(text.find("There is no option 3"), std::string::npos);
  EXPECT_NE(text.find("First plays roll"), std::string::npos);
}

TEST(PlayPig, UndoRetracesTheSameDice) {
  const PigGame game;
  std::vector<Action> before_undo;
  int decisions = 0;
  ScriptedPig* self = nullptr;
  ScriptedPig play(game, pig_config("human", "easy", 8),
                   [&](const PigState&) -> std::optional<std::string> {
                     ++decisions;
                     if (decisions == 4) {
                       before_undo = self->session.record().history;
                       return "undo";
                     }
                     if (decisions == 8) return "quit";
                     return "roll";
                   });
  self = &play;
  play.session.run();
  const std::vector<Action> after = play.session.record().history;
  ASSERT_FALSE(before_undo.empty());
  ASSERT_GE(after.size(), before_undo.size());
  EXPECT_TRUE(std::equal(before_undo.begin(), before_undo.end(), after.begin()));
}

TEST(PlayPig, ReplayStepsThroughAGame) {
  const PigGame game;
  std::istringstream none;
  std::ostringstream out, status;
  PlaySession<PigGame> session(game, pig_config("easy", "random", 10), none, out, status);
  ASSERT_TRUE(session.run());
  const ReplaySession<PigGame> replay_session(game, session.record(), Style{});
  std::istringstream in("n\nn\nend\np\nq\n");
  std::ostringstream replayed;
  replay_session.run(in, replayed);
  EXPECT_NE(replayed.str().find("Ply 2 of "), std::string::npos);
  EXPECT_NE(replayed.str().find(" wins with "), std::string::npos);
}

}  // namespace
}  // namespace sling::play

namespace sling::play {
namespace {

TEST(PlayPig, ASolutionFileDrivesTheStrongPresetAndTheHints) {
  const std::string table = (std::filesystem::temp_directory_path() /
                             ("sling_play_pig_" + std::to_string(::getpid()) + ".table"))
                                .string();
  ASSERT_EQ(std::system(
                (std::string(SLING_BINARY) + " solve pig --out " + table + " > /dev/null").c_str()),
            0);
  const PigGame game;
  EXPECT_EQ(resolve_preset(game, "strong", table), "solver:table=" + table);
  PlayConfig config = pig_config("human", "strong", 3);
  config.hint = "auto";
  config.solution_file = table;
  std::istringstream in("hint\nquit\n");
  std::ostringstream out, status;
  PlaySession<PigGame> session(game, config, in, out, status);
  session.run();
  EXPECT_NE(out.str().find("strong = solver:table=" + table), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("Hint (solver:table=" + table + "): exact win chance"),
            std::string::npos);
  std::filesystem::remove(table);
}

}  // namespace
}  // namespace sling::play

namespace sling::play {
namespace {

// After the game, `analyse` rates the person's decisions by the exact solution and measures the
// luck; holding at 20 early in the game is a known error of the rule of thumb.
TEST(PlayPig, AnalyseAfterTheGameRatesThePersonsDecisions) {
  const PigGame game;
  bool analysed = false;
  ScriptedPig play(
      game, pig_config("human", "strong", 4), [&](const PigState& s) -> std::optional<std::string> {
        if (game.is_terminal(s)) {
          if (analysed) return "quit";
          analysed = true;
          return "analyse";
        }
        const bool hold = s.turn_total >= 20 || s.scores[0] + s.turn_total >= game.goal();
        return std::string(hold ? "hold" : "roll");
      });
  EXPECT_TRUE(play.session.run());
  const std::string text = play.out.str();
  EXPECT_TRUE(analysed);
  EXPECT_NE(text.find("Values: the exact solution (goal 100) (exact)."), std::string::npos)
      << text.substr(text.size() > 3000 ? text.size() - 3000 : 0);
  EXPECT_NE(text.find("First (human): "), std::string::npos);
  EXPECT_NE(text.find("Second (strong): "), std::string::npos);
  EXPECT_NE(text.find("adjusted for luck"), std::string::npos);
}

}  // namespace
}  // namespace sling::play
