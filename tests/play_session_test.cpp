// Whole games of `sling play` driven in-process: a scripted person answers every prompt by looking
// at the position it is asked about (play/scripted_input.h), with fixed seeds.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <thread>

#include "engine/core/record.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "play/play_session.h"
#include "play/scripted_input.h"
#include "tests/play_scripted.h"

namespace sling::play {
namespace {

using duel::DuelGame;
using duel::DuelState;
using duel::Phase;
namespace act = duel::act;

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("sling_play_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

// A duel session whose person is a function of the position asked about; a runaway script ends
// as end of input after 3000 answers.
struct Scripted : ScriptedSession<DuelGame> {
  Scripted(const DuelGame& game, PlayConfig config, Person person)
      : ScriptedSession<DuelGame>(game, std::move(config), std::move(person), 3000) {}
};

PlayConfig duel_config(const std::string& david, const std::string& goliath, std::uint64_t seed) {
  PlayConfig config;
  config.sides = {david, goliath};
  config.seed = seed;
  config.hint = "off";
  return config;
}

// David's rule of thumb, typed as text (`to X Y` for destinations).
std::string typed_rule_of_thumb(const DuelGame& game, const DuelState& s) {
  Rng unused;
  return game.action_to_string(s, game.heuristic_action(s, unused));
}

TEST(PlayDuel, AFullGameAsDavidUsingGodShowsEveryDie) {
  const DuelGame game;
  bool invoked = false;
  Scripted play(game, duel_config("human", "easy", 11),
                [&](const DuelState& s) -> std::optional<std::string> {
                  if (game.is_terminal(s)) return "quit";
                  if (s.phase == Phase::kGod && !invoked && s.roll != duel::Roll::kInitiative) {
                    invoked = true;  // the first die after the initiative is re-rolled
                    return s.roll == duel::Roll::kMelee ? "reroll-goliath" : "reroll";
                  }
                  if (s.phase == Phase::kGod) return "1";  // accept, by number
                  return typed_rule_of_thumb(game, s);
                });
  ASSERT_TRUE(play.session.run()) << play.out.str().substr(0, 4000);
  const std::string text = play.out.str();
  const GameRecord record = play.session.record();
  EXPECT_TRUE(invoked);
  EXPECT_EQ(count_occurrences(text, "God re-rolls"), 1);
  EXPECT_FALSE(play.session.state().has(duel::kGodAvailable));
  EXPECT_TRUE(text.find("wins") != std::string::npos);
  // Every die in the record was shown as it was thrown, with what it decides.
  DuelState s = game.initial_state();
  int dice = 0;
  for (Action a : record.history) {
    if (game.current_player(s) == kChancePlayer) {
      ++dice;
      EXPECT_NE(text.find(GameView<DuelGame>::describe_chance(game, s, a, Style{})),
                std::string::npos);
    }
    apply_any(game, s, a);
  }
  EXPECT_EQ(count_occurrences(text, "  -> "), dice);
  EXPECT_EQ(replay(game, record), play.session.state());
  EXPECT_EQ(count_occurrences(text, "Not understood"), 0);
  EXPECT_EQ(count_occurrences(text, "Not legal"), 0);
}

// --god-prompt: by default God's question follows only a roll that went against David; the other
// rolls are accepted for him, so the game is the one a person accepting every roll would play.
TEST(PlayDuel, GodsQuestionFollowsOnlyBadRollsUnlessEveryRollIsAsked) {
  const DuelGame game;
  struct Run {
    std::vector<Action> history;
    int asked = 0, asked_after_bad_roll = 0, god_states = 0;
  };
  auto run = [&](DiceQuestions questions) {
    Run result;
    PlayConfig config = duel_config("human", "easy", 23);
    config.dice_questions = questions;
    Scripted play(game, config, [&](const DuelState& s) -> std::optional<std::string> {
      if (game.is_terminal(s)) return "quit";
      if (s.phase == Phase::kGod) {
        ++result.asked;
        if (GameView<DuelGame>::roll_went_against_david(game, s)) ++result.asked_after_bad_roll;
        return "accept";
      }
      return typed_rule_of_thumb(game, s);
    });
    EXPECT_TRUE(play.session.run());
    result.history = play.session.record().history;
    DuelState s = game.initial_state();
    for (Action a : result.history) {
      if (s.phase == Phase::kGod) ++result.god_states;
      apply_any(game, s, a);
    }
    return result;
  };
  const Run every = run(DiceQuestions::kAfterEveryRoll);
  const Run bad = run(DiceQuestions::kAfterBadRolls);
  EXPECT_EQ(every.history, bad.history);
  EXPECT_EQ(every.asked, every.god_states);
  EXPECT_GT(every.asked, every.asked_after_bad_roll);  // some rolls went David's way
  EXPECT_GT(bad.asked, 0);
  EXPECT_EQ(bad.asked, bad.asked_after_bad_roll);
  EXPECT_EQ(bad.asked, every.asked_after_bad_roll);
}

TEST(PlayDuel, RollsThatGoAgainstDavid) {
  const DuelGame game;
  DuelState s = game.initial_state();
  s.phase = Phase::kGod;
  s.flags |= duel::kGodAvailable;
  auto against = [&](duel::Roll roll, int first, int second = 0) {
    s.roll = roll;
    s.dice = {static_cast<std::uint8_t>(first), static_cast<std::uint8_t>(second)};
    return GameView<DuelGame>::roll_went_against_david(game, s);
  };
  EXPECT_TRUE(against(duel::Roll::kSearch, game.rules().search_min - 1));
  EXPECT_FALSE(against(duel::Roll::kSearch, game.rules().search_min));
  EXPECT_TRUE(against(duel::Roll::kRecover, game.rules().recover_min));
  EXPECT_FALSE(against(duel::Roll::kRecover, game.rules().recover_min - 1));
  EXPECT_TRUE(against(duel::Roll::kDavidMove, 6));
  EXPECT_FALSE(against(duel::Roll::kDavidMove, 1));
  EXPECT_FALSE(against(duel::Roll::kGoliathMove, 1));  // the bases start 28 cm apart
  // Goliath brought 3 to 5 cm from David: his longest move reaches him.
  for (int x = 0; x < game.lattice_width(duel::kGoliath); ++x) {
    for (int y = 0; y < game.lattice_height(duel::kGoliath); ++y) {
      DuelState near = s;
      near.goliath_x = static_cast<std::uint8_t>(x);
      near.goliath_y = static_cast<std::uint8_t>(y);
      if (game.edge_distance_cm(near) > 3 && game.edge_distance_cm(near) < 5) s = near;
    }
  }
  ASSERT_FALSE(game.in_contact(s));
  ASSERT_LT(game.edge_distance_cm(s), 5);
  EXPECT_TRUE(against(duel::Roll::kGoliathMove, 1));
  EXPECT_FALSE(against(duel::Roll::kInitiative, 1, 6));
  const int david = game.combat_value(s, duel::kDavid),
            goliath = game.combat_value(s, duel::kGoliath);
  EXPECT_EQ(against(duel::Roll::kMelee, 1, 6), 1 + david < 6 + goliath);
  EXPECT_EQ(against(duel::Roll::kMelee, 6, 1), 6 + david < 1 + goliath);
  EXPECT_EQ(against(duel::Roll::kJavelin, 1), 1 <= game.shooting_capability(s, duel::kGoliath));
  EXPECT_FALSE(against(duel::Roll::kJavelin, 6));
}

TEST(PlayDuel, BadInputAtEveryPromptSaysWhyAndAsksAgain) {
  const DuelGame game;
  // At each new prompt: a list of bad answers, then a good one.
  // Each is wrong at every prompt David sees (drop-shield is Goliath's, stay follows a tied melee
  // only and the ties are not reached by the rule of thumb here).
  const std::vector<std::string> bad = {"",
                                        "xyzzy",
                                        "0",
                                        "999",
                                        "99999999999999999999",
                                        "-1",
                                        "to 99 99",
                                        "to 15",
                                        "drop-shield",
                                        "save",
                                        "load",
                                        "load /nonexistent/sling.json",
                                        "\x01\xff garbage",
                                        "move move",
                                        "to 15 1.25 7"};
  std::size_t next_bad = 0;
  DuelState asked{};
  int prompts = 0;
  Scripted play(game, duel_config("human", "random", 3),
                [&](const DuelState& s) -> std::optional<std::string> {
                  if (game.is_terminal(s)) return "quit";
                  if (prompts == 0 || !(s == asked)) {
                    asked = s;
                    ++prompts;
                    next_bad = 0;
                  }
                  if (next_bad < bad.size() && prompts <= 40) return bad[next_bad++];
                  Rng unused;
                  return typed_rule_of_thumb(game, s);
                });
  play.session.run();
  const std::string text = play.out.str();
  EXPECT_GE(prompts, 10);
  EXPECT_GE(count_occurrences(text, "Not understood"), prompts);
  EXPECT_GE(count_occurrences(text, "There is no option"), 3 * std::min(prompts, 40));
  EXPECT_GE(count_occurrences(text, "Usage: save FILE"), std::min(prompts, 40));
  EXPECT_GE(count_occurrences(text, "Cannot load"), std::min(prompts, 40));
  EXPECT_NE(text.find("Not legal now: "), std::string::npos);
  EXPECT_TRUE(game.is_terminal(play.session.state()));
}

TEST(PlayDuel, IllegalActionsAreExplained) {
  const DuelGame game;
  int step = 0;
  // Goliath is a person here: at his first declaration he tries to flee (David's action) and to
  // search; a dazed-free Goliath may not recover.
  const std::vector<std::string> script = {"flee", "search", "recover", "behead", "quit"};
  Scripted play(game, duel_config("random", "human", 4),
                [&](const DuelState&) -> std::optional<std::string> {
                  if (step < static_cast<int>(script.size()))
                    return script[static_cast<std::size_t>(step++)];
                  return std::nullopt;
                });
  EXPECT_FALSE(play.session.run());
  const std::string text = play.out.str();
  EXPECT_NE(text.find("Not legal now: only David can flee"), std::string::npos) << text;
  EXPECT_NE(text.find("Not legal now: only David can search"), std::string::npos);
  EXPECT_NE(text.find("Not legal now: Goliath is not dazed"), std::string::npos);
  EXPECT_NE(text.find("Not legal now: only David can behead"), std::string::npos);
}

TEST(PlayDuel, DestinationsAreSuggestedAndTypedWithReasons) {
  const DuelGame game;
  std::vector<std::string> said;
  Scripted play(game, duel_config("human", "random", 8),
                [&](const DuelState& s) -> std::optional<std::string> {
                  if (s.phase == Phase::kGod) return "accept";
                  if (s.phase == Phase::kDeclare)
                    return s.actor == duel::kDavid ? "move" : std::optional<std::string>("quit");
                  if (s.phase == Phase::kDestination) {
                    if (said.empty())
                      return said.emplace_back("to 15 27.25");  // beyond the allowance
                    if (said.size() == 1)
                      return said.emplace_back("to 15.5 3");              // not a lattice point
                    if (said.size() == 2) return said.emplace_back("1");  // the first suggestion
                  }
                  return std::nullopt;
                });
  play.session.run();
  const std::string text = play.out.str();
  EXPECT_NE(text.find("Some suggestions:"), std::string::npos);
  EXPECT_NE(text.find("':' within reach"), std::string::npos);  // the reachable disc is shaded
  EXPECT_NE(text.find("(rule of thumb)"), std::string::npos);
  EXPECT_NE(text.find("Not legal now: that is 26 cm away; the allowance is"), std::string::npos)
      << text;
  EXPECT_NE(text.find("not a point of the movement lattice"), std::string::npos);
  EXPECT_EQ(said.size(), 3u);
}

TEST(PlayDuel, EndOfInputAtAnyPromptQuitsCleanly) {
  const DuelGame game;
  for (int answers = 0; answers < 12; ++answers) {
    int given = 0;
    Scripted play(game, duel_config("human", "random", 21),
                  [&](const DuelState& s) -> std::optional<std::string> {
                    if (given++ == answers) return std::nullopt;
                    return typed_rule_of_thumb(game, s);
                  });
    EXPECT_FALSE(play.session.run());
    EXPECT_NE(play.out.str().find("End of input"), std::string::npos);
  }
}

TEST(PlayDuel, UndoGoesBackToTheLastMoveAndTheDiceStay) {
  const DuelGame game;
  std::vector<std::size_t> declared_at;  // plies of David's declarations, as asked
  std::vector<Action> before_undo;
  Scripted* self = nullptr;
  Scripted play(game, duel_config("human", "easy", 5),
                [&](const DuelState& s) -> std::optional<std::string> {
                  if (s.phase == Phase::kGod) return "accept";
                  if (s.phase == Phase::kDeclare) {
                    declared_at.push_back(self->session.record().history.size());
                    if (declared_at.size() == 3) {
                      before_undo = self->session.record().history;
                      return "undo";
                    }
                    if (declared_at.size() == 7) return "quit";
                  }
                  return typed_rule_of_thumb(game, s);
                });
  self = &play;
  play.session.run();
  const std::string text = play.out.str();
  EXPECT_NE(text.find("Undone: back to David's previous move"), std::string::npos);
  // The third declaration was undone back to the second...
  ASSERT_EQ(declared_at.size(), 7u);
  EXPECT_EQ(declared_at[3], declared_at[1]);
  // ...and playing the same moves again, the same dice fell: the game retraced its steps.
  const std::vector<Action> after = play.session.record().history;
  ASSERT_GT(after.size(), before_undo.size());
  EXPECT_TRUE(std::equal(before_undo.begin(), before_undo.end(), after.begin()));
}

TEST(PlayDuel, NothingToUndoBeforeTheFirstDecision) {
  const DuelGame game;
  int step = 0;
  Scripted play(game, duel_config("human", "random", 5),
                [&](const DuelState&) -> std::optional<std::string> {
                  return step++ == 0 ? std::optional<std::string>("undo") : std::nullopt;
                });
  play.session.run();
  EXPECT_NE(play.out.str().find("Nothing to undo"), std::string::npos);
}

TEST(PlayDuel, SaveAndLoadRoundTrip) {
  const DuelGame game;
  const std::string path = temp_path("save.json");
  GameRecord saved_at;
  int declarations = 0;
  Scripted* self = nullptr;
  Scripted play(game, duel_config("human", "easy", 9),
                [&](const DuelState& s) -> std::optional<std::string> {
                  if (s.phase == Phase::kDeclare && s.actor == duel::kDavid) {
                    ++declarations;
                    if (declarations == 3) {
                      saved_at = self->session.record();
                      return "save " + path;
                    }
                    if (declarations == 6) return "load " + path;  // back to the third declaration
                    if (declarations == 8) return "quit";
                  }
                  if (s.phase == Phase::kGod) return "accept";
                  return typed_rule_of_thumb(game, s);
                });
  self = &play;
  play.session.run();
  const std::string text = play.out.str();
  EXPECT_NE(text.find("Saved " + std::to_string(saved_at.history.size()) + " plies"),
            std::string::npos);
  EXPECT_NE(text.find("Loaded " + path), std::string::npos) << text;
  const GameRecord on_disk = load_record(path);
  EXPECT_EQ(on_disk, saved_at);
  // After the load the game went on from the saved position: the record starts with the save.
  const GameRecord final_record = play.session.record();
  ASSERT_GE(final_record.history.size(), on_disk.history.size());
  EXPECT_TRUE(
      std::equal(on_disk.history.begin(), on_disk.history.end(), final_record.history.begin()));

  // A fresh session resumes the save at the same position.
  std::istringstream no_input;
  std::ostringstream out, status;
  PlaySession<DuelGame> resumed(game, duel_config("human", "easy", 1), no_input, out, status);
  resumed.resume(on_disk);
  EXPECT_EQ(resumed.state(), replay(game, on_disk));
  EXPECT_EQ(resumed.record(), on_disk);
  std::filesystem::remove(path);
}

TEST(PlayDuel, LoadRefusesOtherGamesRulesAndCorruptFiles) {
  const DuelGame game;
  const std::string garbage = temp_path("garbage.json");
  const std::string other_rules = temp_path("other.json");
  {
    std::FILE* f = std::fopen(garbage.c_str(), "w");
    std::fputs("{\"format\": \"sling-record\", \"version\": 1, \"game\": 3", f);
    std::fclose(f);
  }
  duel::DuelRules variant;
  variant.god_enabled = false;
  const DuelGame no_god(variant);
  save_record(other_rules, GameRecord{"duel", no_god.rules_json(), 1, {}});
  std::istringstream in("load " + garbage + "\nload " + other_rules + "\nload\nquit\n");
  std::ostringstream out, status;
  PlaySession<DuelGame> session(game, duel_config("human", "random", 2), in, out, status);
  EXPECT_FALSE(session.run());
  const std::string text = out.str();
  EXPECT_NE(text.find("Cannot load: bad game record (" + garbage + ")"), std::string::npos) << text;
  EXPECT_NE(text.find("Cannot load: that record was played with other rules"), std::string::npos);
  EXPECT_NE(text.find("Usage: load FILE"), std::string::npos);
  std::filesystem::remove(garbage);
  std::filesystem::remove(other_rules);
}

TEST(PlayDuel, LogListsEveryDieAndAction) {
  const DuelGame game;
  int step = 0;
  Scripted play(game, duel_config("human", "random", 6),
                [&](const DuelState& s) -> std::optional<std::string> {
                  if (++step == 8) return "log";
                  if (step > 8) return std::nullopt;
                  return typed_rule_of_thumb(game, s);
                });
  play.session.run();
  const std::string text = play.out.str();
  const std::string log = text.substr(text.rfind("   1. Initiative"));
  EXPECT_NE(log.find("David: "), std::string::npos);
  EXPECT_NE(log.find("Goliath: "), std::string::npos);
}

TEST(PlayDuel, TwoAgentsPlayToTheEndWithTheBoardAfterEveryMove) {
  const DuelGame game;
  std::istringstream in;
  std::ostringstream out, status;
  PlaySession<DuelGame> session(game, duel_config("easy", "random", 12), in, out, status);
  EXPECT_TRUE(session.run());
  const std::string text = out.str();
  EXPECT_TRUE(game.is_terminal(session.state()));
  EXPECT_NE(text.find("north: Goliath's border"), std::string::npos);
  EXPECT_NE(text.find("Distance "), std::string::npos);
  EXPECT_EQ(text.find("\x1b["), std::string::npos);  // no colour unless asked
}

TEST(PlayDuel, ColourIsUsedOnlyWhenAsked) {
  const DuelGame game;
  std::istringstream in;
  std::ostringstream out, status;
  PlayConfig config = duel_config("easy", "easy", 12);
  config.style.colour = true;
  PlaySession<DuelGame> session(game, config, in, out, status);
  session.run();
  EXPECT_NE(out.str().find("\x1b[1;31m"), std::string::npos);
}

TEST(PlayDuel, SameSeedSameGame) {
  const DuelGame game;
  auto play_once = [&] {
    std::istringstream in;
    std::ostringstream out, status;
    PlaySession<DuelGame> session(game, duel_config("easy", "random", 77), in, out, status);
    session.run();
    return std::make_pair(session.record(), out.str());
  };
  EXPECT_EQ(play_once(), play_once());
}

TEST(PlayDuel, RandomTypingNeverCrashes) {
  // Random lines drawn from commands, actions, numbers and noise, for a few whole sessions.
  const DuelGame game;
  const std::string path = temp_path("fuzz.json");
  const std::vector<std::string> words = {"help",
                                          "rules",
                                          "board",
                                          "log",
                                          "undo",
                                          "save " + path,
                                          "load " + path,
                                          "hint",
                                          "1",
                                          "2",
                                          "3",
                                          "7",
                                          "25",
                                          "0",
                                          "move",
                                          "shoot",
                                          "fight",
                                          "flee",
                                          "search",
                                          "behead",
                                          "recover",
                                          "drop-shield",
                                          "accept",
                                          "reroll",
                                          "reroll-david",
                                          "reroll-goliath",
                                          "stay",
                                          "to 15 5.25",
                                          "to 14 9.25",
                                          "to -3 4",
                                          "to 1e308 2",
                                          "to nan nan",
                                          "  MOVE  ",
                                          "\t",
                                          "%s%n",
                                          "save",
                                          "load /dev/null"};
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    Rng rng(seed, 99);
    Scripted play(game, duel_config("human", seed % 2 ? "random" : "easy", seed),
                  [&](const DuelState&) -> std::optional<std::string> {
                    if (rng.uniform(400) == 0) return std::nullopt;
                    if (rng.uniform(10) == 0) {
                      std::string noise;
                      for (std::uint32_t i = rng.uniform(12); i > 0; --i) {
                        noise += static_cast<char>(1 + rng.uniform(254));
                      }
                      return noise;
                    }
                    return words[rng.uniform(static_cast<std::uint32_t>(words.size()))];
                  });
    play.session.run();
    EXPECT_EQ(replay(game, play.session.record()), play.session.state());
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace sling::play

namespace sling::play {
namespace {

TEST(PlayHints, EveryCandidateIsListedWithItsWinChanceBestFirst) {
  const duel::DuelGame game;
  int step = 0;
  PlayConfig config = duel_config("human", "easy", 5);
  config.hint = "mcts:iterations=3000,rollout=heuristic";  // the default hint, with a test budget
  config.dice_questions = DiceQuestions::kAfterEveryRoll;  // asked about the initiative too
  Scripted play(game, config, [&](const duel::DuelState&) -> std::optional<std::string> {
    return ++step == 1 ? std::optional<std::string>("hint") : std::nullopt;
  });
  play.session.run();
  const std::string text = play.out.str();
  // The first prompt is God's question about the initiative: accept, or re-roll either die.
  const auto at = text.find("Hint (");
  ASSERT_NE(at, std::string::npos) << text;
  const std::string hint = text.substr(at, text.find("David>", at) - at);
  for (const std::string option : {"accept  win ", "reroll-david  win ", "reroll-goliath  win "}) {
    EXPECT_NE(hint.find(option), std::string::npos) << hint;
  }
  EXPECT_EQ(count_occurrences(hint, "<- best"), 1);
  // Best first: the percentages never rise down the list.
  double previous = 101;
  for (auto p = hint.find("win ", hint.find('\n')); p != std::string::npos;
       p = hint.find("win ", p + 1)) {
    const double value = std::stod(hint.substr(p + 4));
    EXPECT_LE(value, previous);
    previous = value;
  }
}

TEST(PlayHints, PlayoutAnalysisIsAnHonestSampleMean) {
  // Goliath's javelin hits (a 1, capability 2 at this range) and God is unused: accepting the die
  // loses at once, so its value is exactly a loss; re-rolling it is worth more.
  const duel::DuelGame game;
  duel::DuelState s = game.initial_state();
  s.phase = duel::Phase::kDeclare;
  s.roll = duel::Roll::kNone;
  s.actor = duel::kGoliath;
  s.turn = 3;
  s.david_y = static_cast<std::uint8_t>(game.lattice_height(duel::kDavid) - 6);
  ASSERT_EQ(game.shooting_capability(s, duel::kGoliath), 2);
  game.apply_action(s, duel::act::kShoot);
  game.apply_chance(s, 1);
  ASSERT_EQ(s.phase, duel::Phase::kGod);
  const Analysis analysis = playout_analysis(game, s, 1, PlayoutOptions{400, 3000});
  ASSERT_EQ(analysis.actions.size(), 2u);
  EXPECT_EQ(analysis.actions.front().action, duel::act::kRerollFirst);
  EXPECT_EQ(analysis.actions.back().action, duel::act::kAccept);
  EXPECT_EQ(analysis.actions.back().value, -1.0);
  EXPECT_GT(analysis.actions.front().value, -1.0);
  EXPECT_EQ(analysis.actions.front().visits, 400);
  EXPECT_EQ(analysis.value, analysis.actions.front().value);
  // The same seed gives the same values.
  const Analysis again = playout_analysis(game, s, 1, PlayoutOptions{400, 3000});
  EXPECT_EQ(again.actions.front().value, analysis.actions.front().value);
}

TEST(PlayPresets, PresetsMapToDocumentedSpecs) {
  const duel::DuelGame duel_game;
  const pig::PigGame pig_game;
  EXPECT_EQ(make_play_agent(duel_game, "easy")->spec(), "heuristic:blunder=0.25");
  EXPECT_EQ(resolve_preset(duel_game, "normal"), "lookahead:value_pitch=5");
  // Up to the default board's 1 cm lattice strong plays the refined values (a person's table
  // refines them in the background); beyond it the interpolated ones.
  EXPECT_EQ(resolve_preset(duel_game, "strong"), duel::kStrongRefinedLookahead);
  duel::DuelRules two_cm;
  two_cm.pitch_cm = 2;
  EXPECT_EQ(resolve_preset(duel::DuelGame(two_cm), "strong"), duel::kStrongRefinedLookahead);
  duel::DuelRules wide;
  wide.board_cm = 40;
  EXPECT_EQ(resolve_preset(duel::DuelGame(wide), "strong"), "lookahead");
  EXPECT_EQ(resolve_preset(pig_game, "strong"), "solver");  // Pig's exact policy builds in a second
  EXPECT_EQ(resolve_preset(duel_game, "random"), "random");
  // (Building the duel's presets solves their value lattice: value_search_test builds them on a
  // small board.)
  EXPECT_EQ(default_hint_spec(duel_game), duel::kStrongRefinedLookahead);
  EXPECT_EQ(default_hint_spec(pig_game), "solver");
  EXPECT_THROW(make_play_agent(duel_game, "grandmaster"), OptionError);
}

}  // namespace
}  // namespace sling::play

namespace sling::play {
namespace {

// Plays the rule of thumb and reports a fixed analysis, as a searching agent would.
class AnalysingAgent final : public Agent<duel::DuelGame> {
 public:
  explicit AnalysingAgent(const duel::DuelGame& game) : game_(game) {}
  void new_game(std::uint64_t) override {}
  Action act(const duel::DuelState& s) override {
    Rng unused;
    const Action chosen = game_.heuristic_action(s, unused);
    ActionList<duel::DuelGame> legal;
    game_.legal_actions(s, legal);
    analysis_ = Analysis{0.2, {{chosen, 0.2, 700}}, 1000, false, ""};
    for (Action a : legal) {
      if (a != chosen) analysis_.actions.push_back({a, -0.1, 300});
    }
    return chosen;
  }
  Analysis last_analysis() const override { return analysis_; }
  std::string spec() const override { return "analysing"; }

 private:
  const duel::DuelGame& game_;
  Analysis analysis_;
};

TEST(PlayAgents, AfterAnAgentMovesItsWinChanceAndAlternativesAreShown) {
  const duel::DuelGame game;
  std::istringstream in;
  std::ostringstream out, status;
  PlaySession<duel::DuelGame> session(game, duel_config("easy", "easy", 3), in, out, status);
  session.set_agent(1, std::make_unique<AnalysingAgent>(game));
  session.run();
  const std::string text = out.str();
  EXPECT_NE(text.find("Goliath (analysing): "), std::string::npos) << text.substr(0, 2000);
  EXPECT_NE(text.find("Goliath's estimated win chance 60.0%; alternatives: "), std::string::npos)
      << text.substr(0, 3000);
  EXPECT_NE(text.find(" 45.0%"), std::string::npos);
  EXPECT_EQ(text.find("David's estimated"), std::string::npos);  // the heuristic does not search
}

}  // namespace
}  // namespace sling::play

namespace sling::play {
namespace {

TEST(PlayProgress, TheSpinnerDrawsWhileAliveAndErasesItself) {
  std::ostringstream stream;
  {
    Spinner spinner(&stream, "Goliath is thinking");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  const std::string text = stream.str();
  EXPECT_NE(text.find("\rGoliath is thinking | 0.0 s"), std::string::npos) << text;
  EXPECT_NE(text.find("Goliath is thinking / "), std::string::npos);  // it turned at least once
  EXPECT_EQ(text.back(), '\r');                                       // and left a clean line
}

}  // namespace
}  // namespace sling::play
