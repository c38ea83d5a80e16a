// Games between agents end (engine/core/game_limit.h, docs/rules/duel.md "Games between agents"):
// the duel's turn limit is the rules' turn cap under another name, a game between agents that
// stand off ends at it everywhere Sling plays one, and records and tournaments carry it.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "agents/registry.h"
#include "engine/core/game_limit.h"
#include "engine/core/record.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "experiments/play_game.h"
#include "experiments/tournament/config.h"
#include "run_sling.h"

namespace sling {
namespace {

using duel::DuelGame;
using duel::DuelRules;
using duel::DuelState;
using duel::EndReason;

// Plays random games under the rules' cap and under the limit side by side: every state is the
// same, but for the end reason of a game that reaches the count.
TEST(DuelTurnLimit, DrawsWhereTheRulesCapWouldWithItsOwnReason) {
  DuelRules capped_rules;
  capped_rules.board_cm = 16;
  capped_rules.pitch_cm = 2;
  DuelRules open_rules = capped_rules;
  capped_rules.turn_cap = 6;
  const DuelGame capped(capped_rules);
  const DuelGame limited = DuelGame(open_rules).with_turn_limit(6);
  EXPECT_EQ(limited.turn_limit(), 6);
  EXPECT_EQ(limited.rules_json(), DuelGame(open_rules).rules_json());  // the limit is not a rule
  EXPECT_TRUE(limited.info().has_draws);
  int limit_ends = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    Rng rng(seed, 0);
    DuelState a = capped.initial_state();
    DuelState b = limited.initial_state();
    while (!capped.is_terminal(a)) {
      const Action action = capped.current_player(a) == kChancePlayer
                                ? capped.sample_chance_outcome(a, rng)
                                : capped.sample_legal_action(a, rng);
      apply_any(capped, a, action);
      apply_any(limited, b, action);
      if (a.end == EndReason::kTurnCap) {
        ASSERT_EQ(b.end, EndReason::kTurnLimit) << seed;
        DuelState relabelled = b;
        relabelled.end = EndReason::kTurnCap;
        ASSERT_EQ(relabelled, a) << seed;
        EXPECT_EQ(limited.end_reason(b), "turn limit");
        EXPECT_EQ(limited.returns(b)[0], 0.0);
        ++limit_ends;
      } else {
        ASSERT_EQ(a, b) << seed;
      }
    }
  }
  EXPECT_GT(limit_ends, 20);  // the comparison covered games that reached the count
}

TEST(DuelTurnLimit, ALowerRulesCapStillEndsTheGameAndTheRangeIsChecked) {
  DuelRules rules;
  rules.turn_cap = 2;
  rules.god_enabled = false;
  const DuelGame game = DuelGame(rules).with_turn_limit(5);
  Rng rng(3, 0);
  DuelState s = game.initial_state();
  while (!game.is_terminal(s)) {
    apply_any(game, s,
              game.current_player(s) == kChancePlayer ? game.sample_chance_outcome(s, rng)
                                                      : game.sample_legal_action(s, rng));
  }
  EXPECT_LE(s.turn, 2);
  EXPECT_NE(s.end, EndReason::kTurnLimit);
  EXPECT_THROW(DuelGame().with_turn_limit(-1), RulesError);
  EXPECT_THROW(DuelGame().with_turn_limit(65536), RulesError);
  EXPECT_EQ(DuelGame().with_turn_limit(0).turn_limit(), 0);
}

// Two `normal` duel agents hold their ground: with seed 31 they stood off for ever before the
// limit.  Now the game ends at the limit, the record says so, and its replay stops there too.
TEST(AgentGames, TwoDuelAgentsThatStandOffEndAtTheTurnLimit) {
  const DuelGame game;
  auto david = make_agent(game, "lookahead:value_pitch=5,same_lattice=1,refine=0,tie=0.02");
  auto goliath = make_agent(game, "lookahead:value_pitch=5,same_lattice=1,refine=0,tie=0.02");
  const GameResult result = play_game(game, *david, *goliath, 31, 1'000'000, 300);
  ASSERT_EQ(result.end_reason, "turn limit") << result.error;
  EXPECT_EQ(result.winner, -1);
  EXPECT_EQ(result.record.turn_limit, 300);
  const GameRecord loaded = record_from_text(record_to_json(result.record));
  EXPECT_EQ(loaded, result.record);
  const DuelState end = replay(game, loaded);
  EXPECT_TRUE(game.is_terminal(end));
  EXPECT_EQ(end.end, EndReason::kTurnLimit);
  EXPECT_EQ(end.turn, 300);
  // Without the record's limit the same history is a game still going.
  GameRecord unlimited = loaded;
  unlimited.turn_limit = 0;
  EXPECT_FALSE(game.is_terminal(replay(game, unlimited)));
}

// Pig has no turns: its games between agents end by its rules or at the ply limit, and its
// records carry no turn limit.
TEST(AgentGames, AGameWithoutTurnsIsPlayedAsItIs) {
  const pig::PigGame game;
  auto first = make_agent(game, "random");
  auto second = make_agent(game, "random");
  const GameResult result = play_game(game, *first, *second, 5, 1'000'000, 40);
  EXPECT_EQ(result.record.turn_limit, 0);
  EXPECT_NE(result.end_reason, "turn limit");
  EXPECT_TRUE(game.is_terminal(replay(game, result.record)));
}

TEST(GameRecordFile, TheTurnLimitIsReadBackAndABadOneIsNamed) {
  GameRecord record{"duel", "{}", 7, {1, 2}};
  record.turn_limit = 1000;
  const std::string json = record_to_json(record);
  EXPECT_NE(json.find("\"turn_limit\": 1000"), std::string::npos);
  EXPECT_EQ(record_from_text(json).turn_limit, 1000);
  EXPECT_EQ(record_to_json(GameRecord{"duel", "{}", 7, {1}}).find("turn_limit"),
            std::string::npos);  // written only when set: older readers see the same file
  std::string bad = json;
  bad.replace(bad.find("1000"), 4, "-3");
  try {
    record_from_text(bad);
    FAIL() << "a negative turn limit was accepted";
  } catch (const FileFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("turn_limit"), std::string::npos) << e.what();
  }
}

TEST(TournamentConfig, TheTurnLimitIsPartOfTheConfiguration) {
  TournamentConfig config;
  config.game = "duel";
  config.rules = "{}";
  config.agents = {"random", "heuristic"};
  config.turn_limit = 1000;
  const TournamentConfig back = TournamentConfig::from_json(config.to_json(), "config.json");
  EXPECT_EQ(back.turn_limit, 1000);
  EXPECT_EQ(back.first_difference(config), "");
  TournamentConfig older = config;
  older.turn_limit = 0;  // a configuration written before the limit
  EXPECT_EQ(TournamentConfig::from_json(older.to_json(), "config.json").turn_limit, 0);
  EXPECT_EQ(config.first_difference(older), "--turn-limit 1000 vs 0");
}

// The commands: two agents watched in the terminal end with the reason said; a person's game has
// no limit unless one is asked for, and then the person is told at the start.
TEST(AgentGames, TheCommandsSayWhyAGameEnded) {
  using testing_support::run_sling;
  const auto watched = run_sling(
      "play duel --david 'lookahead:value_pitch=5,same_lattice=1,refine=0,tie=0.02' "
      "--goliath 'lookahead:value_pitch=5,same_lattice=1,refine=0,tie=0.02' --seed 31 "
      "--turn-limit 200 --colour never < /dev/null");
  EXPECT_EQ(watched.status, 0) << watched.output;
  EXPECT_NE(watched.output.find("A game still going after 200 turns is a draw"), std::string::npos);
  EXPECT_NE(watched.output.find("A draw: games between agents end after 200 turns"),
            std::string::npos)
      << watched.output.substr(watched.output.size() > 2000 ? watched.output.size() - 2000 : 0);
  const auto person = run_sling("play duel --seed 31 --colour never < /dev/null");
  EXPECT_EQ(person.output.find("is a draw"), std::string::npos);
  const auto bad = run_sling("match duel --games 1 --turn-limit -4");
  EXPECT_NE(bad.status, 0);
  EXPECT_EQ(testing_support::count_lines(bad.output), 1) << bad.output;
  const auto match = run_sling(
      "match duel --david 'lookahead:value_pitch=5,same_lattice=1,refine=0,tie=0.02' "
      "--goliath 'lookahead:value_pitch=5,same_lattice=1,refine=0,tie=0.02' --games 2 "
      "--seed 31 --turn-limit 150");
  EXPECT_EQ(match.status, 0) << match.output;
  EXPECT_NE(match.output.find("turn limit 150 (a game still going then is a draw)"),
            std::string::npos)
      << match.output;
}

}  // namespace
}  // namespace sling
