// Danelaw in the terminal, driven in-process by a scripted person: placement at sea, movement
// (typed as one line, "army X to Y"), and battles, with every die shown.

#include <gtest/gtest.h>

#include <unistd.h>
#include "tests/play_scripted.h"

#include <filesystem>
#include <sstream>

#include "engine/core/io.h"
#include "engine/core/record.h"
#include "engine/danelaw/danelaw.h"
#include "play/play_session.h"
#include "play/replay_session.h"
#include "play/scripted_input.h"

namespace sling::play {
namespace {

using danelaw::DanelawGame;
using danelaw::Phase;
using DanelawState = danelaw::State;

// The limit keeps a confused script from looping forever.
struct ScriptedDanelaw : ScriptedSession<DanelawGame> {
  ScriptedDanelaw(const DanelawGame& game, PlayConfig config, Person person)
      : ScriptedSession(game, std::move(config), std::move(person), 3000) {}
};

PlayConfig danelaw_config(const std::string& danes, const std::string& english,
                          std::uint64_t seed) {
  PlayConfig config;
  config.sides = {danes, english};
  config.seed = seed;
  config.hint = "off";
  return config;
}

// The rule of thumb, typed; a move is typed on one line as "army X to Y".
std::string typed_rule_of_thumb(const DanelawGame& game, const DanelawState& s) {
  Rng rng(1, 2);
  const Action a = game.heuristic_action(s, rng);
  if (s.phase == Phase::kMove && danelaw::action_kind(a) == danelaw::ActionKind::kSelect) {
    DanelawState next = s;
    game.apply_action(next, a);
    const Action to = game.heuristic_action(next, rng);
    return game.action_to_string(s, a) + " " + game.action_to_string(next, to);
  }
  return game.action_to_string(s, a);
}

// The Danes' person: the rule of thumb, but attacking whenever an attack is possible.
std::string aggressive(const DanelawGame& game, const DanelawState& s) {
  ActionList<DanelawGame> legal;
  game.legal_actions(s, legal);
  if (s.phase == Phase::kChooseTarget || s.phase == Phase::kChooseRoller) {
    if (s.phase == Phase::kChooseRoller && s.attack_rolls > 0) return "stop";
    for (Action a : legal) {
      const auto kind = danelaw::action_kind(a);
      if (kind == danelaw::ActionKind::kAttack || kind == danelaw::ActionKind::kRoll) {
        return game.action_to_string(s, a);
      }
    }
  }
  if (s.phase == Phase::kAdvance) return "advance";
  return typed_rule_of_thumb(game, s);
}

TEST(PlayDanelaw, ATurnWithMovementAndABattleAsTheDanes) {
  const DanelawGame game;
  const std::string svg = (std::filesystem::temp_directory_path() /
                           ("sling_play_danelaw_" + std::to_string(::getpid()) + ".svg"))
                              .string();
  int battles_seen = 0;
  ScriptedDanelaw play(
      game, danelaw_config("human", "easy", 7),
      [&](const DanelawState& s) -> std::optional<std::string> {
        // Play on until a battle of ours is over and the English have moved.
        if (s.side == danelaw::kDanes && s.phase == Phase::kMove && battles_seen > 0) {
          return "quit";
        }
        if (s.phase == Phase::kChooseRoller) ++battles_seen;
        return aggressive(game, s);
      });
  play.session.set_observer([&](const DanelawGame& g, const DanelawState& s) {
    write_file_atomic(svg, *GameView<DanelawGame>::svg(g, s));
  });
  play.session.run();
  const std::string text = play.out.str();
  ASSERT_GT(battles_seen, 0) << "no battle was reached";
  // Placement, the movement dice, a move typed as one line, a battle with its dice and result.
  EXPECT_EQ(count_occurrences(text, "Danes play place "), 10);
  EXPECT_GE(count_occurrences(text, "Danes' movement: ["), 2);
  EXPECT_GE(count_occurrences(text, "English movement: ["), 1);
  EXPECT_NE(text.find(" movement points"), std::string::npos);
  const auto move = text.find("Danes play army ");
  ASSERT_NE(move, std::string::npos);
  EXPECT_EQ(text.find("Danes play to ", move), text.find('\n', move) + 1);  // one line, two moves
  EXPECT_NE(text.find("Danes play attack "), std::string::npos);
  EXPECT_NE(text.find("Battle: Danes at "), std::string::npos);
  EXPECT_EQ(count_occurrences(text, "Not understood"), 0);
  EXPECT_EQ(count_occurrences(text, "Not legal"), 0);
  // Every die of the record was shown.
  DanelawState s = game.initial_state();
  int dice = 0;
  for (Action a : play.session.record().history) {
    if (game.current_player(s) == kChancePlayer) ++dice;
    apply_any(game, s, a);
  }
  EXPECT_EQ(count_occurrences(text, "  -> "), dice);
  // The SVG follows the position.
  EXPECT_EQ(read_file(svg), *GameView<DanelawGame>::svg(game, play.session.state()));
  std::filesystem::remove(svg);

  // The game replays, with the same dice lines.
  const ReplaySession<DanelawGame> replayed(game, play.session.record(), Style{});
  std::istringstream steps("end\nlog\nq\n");
  std::ostringstream replay_out;
  replayed.run(steps, replay_out);
  EXPECT_NE(replay_out.str().find("Battle: Danes at "), std::string::npos);
}

TEST(PlayDanelaw, PresetsSearchMovementPlansInThisLongGame) {
  const DanelawGame game;
  EXPECT_EQ(resolve_preset(game, "normal"), "planner:plans=8,samples=2,battle=0,english_plans=32");
  EXPECT_EQ(
      resolve_preset(game, "strong"),
      "planner:plans=64,samples=4,battle=0,reply=1,endgame=4,english_endgame=1,endgame_battle=64,"
      "endgame_mcts=32000,endgame_mcts_transpositions=1,endgame_mcts_c=2,"
      "english_endgame_mcts_halves=4,danes_endgame_mcts=128000,danes_endgame_mcts_trees=2,"
      "danes_endgame_mcts_work=80000000");
  EXPECT_EQ(
      default_hint_spec(game),
      "planner:plans=64,samples=4,battle=0,reply=1,endgame=4,english_endgame=1,endgame_battle=64,"
      "endgame_mcts=32000,endgame_mcts_transpositions=1,endgame_mcts_c=2,"
      "english_endgame_mcts_halves=4,danes_endgame_mcts=128000,danes_endgame_mcts_trees=2,"
      "danes_endgame_mcts_work=80000000");
  EXPECT_EQ(make_play_agent(game, "normal")->spec().rfind("planner:plans=8,", 0), 0u);
}

TEST(PlayDanelaw, RandomTypingNeverCrashes) {
  const DanelawGame game;
  const std::vector<std::string> words = {"help",
                                          "rules",
                                          "board",
                                          "log",
                                          "undo",
                                          "1",
                                          "2",
                                          "5",
                                          "24",
                                          "25",
                                          "0",
                                          "end move",
                                          "end battles",
                                          "stop",
                                          "advance",
                                          "hold",
                                          "army York",
                                          "army 1512 to Lincoln",
                                          "to London",
                                          "3 to York",
                                          "army nowhere to nowhere",
                                          "to",
                                          "army",
                                          "attack York",
                                          "roll 0000",
                                          "place 1200",
                                          "place 9999",
                                          "reinforce York",
                                          "rout 1512",
                                          " to  to ",
                                          "ARMY YORK"};
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    Rng rng(seed, 77);
    ScriptedDanelaw play(game, danelaw_config("human", "random", seed),
                         [&](const DanelawState& s) -> std::optional<std::string> {
                           if (rng.uniform(300) == 0) return std::nullopt;
                           if (rng.uniform(3) == 0) return typed_rule_of_thumb(game, s);
                           return words[rng.uniform(static_cast<std::uint32_t>(words.size()))];
                         });
    play.session.run();
    EXPECT_EQ(replay(game, play.session.record()), play.session.state());
  }
}

}  // namespace
}  // namespace sling::play
