// One game session under both ways of playing (play/game_table.h): the terminal's PlaySession and
// the page's WebGame hold the same GameTable, so the same person's choices against the same agent
// on the same seed give the same game record through both, dice and God's question included.

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "engine/core/record.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "play/game_table.h"
#include "play/web/web_game.h"
#include "tests/play_scripted.h"

namespace sling::play {
namespace {

// A person who plays the game's rule of thumb (its draws, where it has any, from a fixed stream).
template <Game G>
Action persons_choice(const G& game, const typename G::State& s) {
  Rng rng(7, 0);
  return game.heuristic_action(s, rng);
}

template <Game G>
GameRecord play_in_the_terminal(const G& game, const std::string& opponent, std::uint64_t seed) {
  PlayConfig config;
  config.sides = {"human", opponent};
  config.seed = seed;
  config.hint = "off";
  ScriptedSession<G> play(
      game, config,
      [&game](const typename G::State& s) -> std::optional<std::string> {
        if (game.is_terminal(s)) return "quit";
        return game.action_to_string(s, persons_choice(game, s));
      },
      20000);
  EXPECT_TRUE(play.session.run()) << "the scripted game did not end";
  return play.session.record();
}

template <Game G>
GameRecord play_on_the_page(const G& game, const std::string& opponent, std::uint64_t seed) {
  web::WebGameConfig config;
  config.sides = {"human", opponent};
  config.seed = seed;
  web::WebGame<G> page(game, config);
  for (int decisions = 0; decisions < 20000; ++decisions) {
    while (page.ai_due()) page.run_ai_step();  // the server's worker, in this thread
    const GameRecord now = record_from_text(page.record_json());
    const typename G::State s = replay(game, now);
    if (game.is_terminal(s)) return now;
    rapidjson::Document request;
    request.Parse(("{\"action\": " + std::to_string(persons_choice(game, s)) +
                   ", \"ply\": " + std::to_string(now.history.size()) + "}")
                      .c_str());
    page.act(request);
  }
  ADD_FAILURE() << "the page's game did not end";
  return {};
}

template <Game G>
void expect_the_same_game(const G& game, const std::string& opponent, std::uint64_t seed) {
  const GameRecord terminal = play_in_the_terminal(game, opponent, seed);
  const GameRecord page = play_on_the_page(game, opponent, seed);
  ASSERT_FALSE(terminal.history.empty());
  EXPECT_TRUE(game.is_terminal(replay(game, terminal)));
  EXPECT_EQ(terminal.history, page.history);
  EXPECT_EQ(record_to_json(terminal), record_to_json(page));
}

TEST(GameTable, TheTerminalAndThePagePlayTheSameGameOfPig) {
  expect_the_same_game(pig::PigGame{}, "heuristic", 3);
  expect_the_same_game(pig::PigGame{}, "random", 4);
}

TEST(GameTable, TheTerminalAndThePagePlayTheSameDuelGodsQuestionIncluded) {
  const duel::DuelGame game;
  expect_the_same_game(game, "heuristic", 11);
  // The record holds God's answers that the person was not asked (after rolls that went David's
  // way), applied by the table in both views.
  const GameRecord record = play_in_the_terminal(game, "heuristic", 11);
  duel::DuelState s = game.initial_state();
  int god_answers = 0;
  for (Action a : record.history) {
    if (s.phase == duel::Phase::kGod) ++god_answers;
    apply_any(game, s, a);
  }
  EXPECT_GT(god_answers, 0);
}

TEST(GameTable, UndoKeepsTheDiceAndLoadContinuesTheRecord) {
  const pig::PigGame game;
  GameTable<pig::PigGame> table(game, 0, DiceQuestions::kAfterBadRolls, 5);
  table.set_agent(1, make_play_agent(game, "heuristic"));
  EXPECT_FALSE(table.undo_target().has_value());
  auto play_until = [&](std::size_t plies) {
    while (table.ply() < plies && !game.is_terminal(table.state())) {
      table.advance_chance([](const auto&, Action) {});
      if (game.is_terminal(table.state())) break;
      const auto p = static_cast<std::size_t>(game.current_player(table.state()));
      table.apply(table.has_agent(p) ? table.agent(p).act(table.state())
                                     : persons_choice(game, table.state()));
    }
  };
  play_until(30);
  const std::vector<Action> first = table.history();
  ASSERT_TRUE(table.undo_target().has_value());
  ASSERT_TRUE(table.undo());
  EXPECT_LT(table.ply(), first.size());
  play_until(first.size());
  EXPECT_EQ(table.history(), first);  // the same choices meet the same dice
  GameTable<pig::PigGame> loaded(game, 0, DiceQuestions::kAfterBadRolls, 99);
  loaded.load(table.record({"human", "heuristic"}));
  EXPECT_EQ(loaded.seed(), 5u);
  EXPECT_EQ(loaded.history(), first);
  EXPECT_EQ(loaded.state(), table.state());
  GameRecord other = table.record({});
  other.game = "duel";
  EXPECT_THROW(loaded.load(other), FileFormatError);
}

}  // namespace
}  // namespace sling::play
