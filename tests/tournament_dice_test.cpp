// One dice convention (engine/core/dice.h): a game played through `sling play` (PlaySession), a
// match, a tournament and a replay of its record throws the same dice for the same game seed.
// Searching agents on both sides make every game long and branchy, so a path with other dice would
// show at once as another history.

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <set>
#include <sstream>

#include "engine/core/dice.h"
#include "engine/core/record.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "experiments/match.h"
#include "experiments/tournament/tournament.h"
#include "play/play_session.h"

namespace sling {
namespace {

std::string temp_dir(const std::string& name) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("sling_dice_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(path);
  return path.string();
}

// The game as `sling play` plays it with an agent on both sides.
template <Game G>
GameRecord played_in_session(const G& game, const std::array<std::string, 2>& specs,
                             std::uint64_t seed) {
  play::PlayConfig config;
  config.sides = specs;
  config.seed = seed;
  config.hint = "off";
  std::istringstream in;
  std::ostringstream out, status;
  play::PlaySession<G> session(game, config, in, out, status);
  EXPECT_TRUE(session.run());
  return session.record();
}

// Every chance outcome of the record is the die the convention throws at that ply.
template <Game G>
int expect_dice_follow_the_convention(const G& game, const GameRecord& record) {
  typename G::State state = game.initial_state();
  int dice = 0;
  for (std::size_t ply = 0; ply < record.history.size(); ++ply) {
    if (game.current_player(state) == kChancePlayer) {
      EXPECT_EQ(record.history[ply], roll_dice(game, state, record.seed, ply)) << "ply " << ply;
      ++dice;
    }
    apply_any(game, state, record.history[ply]);
  }
  return dice;
}

template <Game G>
void expect_every_path_throws_the_same_dice(const G& game, const std::array<std::string, 2>& specs,
                                            const std::string& name) {
  // A match, its records saved.
  const std::string match_dir = temp_dir(name + "_match");
  MatchOptions match_options;
  match_options.games = 2;
  match_options.seed = 11;
  match_options.threads = 1;
  match_options.record_dir = match_dir;
  run_match(game, specs, match_options);
  const GameRecord from_match = load_record(match_dir + "/game-000001.json");
  EXPECT_EQ(from_match.seed, match_game_seed(11, 1));

  // A tournament of the same two agents: game 0 puts specs[0] on side 0.
  TournamentConfig config;
  config.game = std::string(game.info().name);
  config.rules = game.rules_json();
  config.agents = {specs[0], specs[1]};
  config.pairs_per_pairing = 1;
  config.seed = 5;
  TournamentOptions options;
  options.out_dir = temp_dir(name + "_tournament");
  options.threads = 1;
  std::ostringstream log;
  run_tournament(game, config, options, log);
  const GameRecord from_tournament = load_tournament_record(options.out_dir, 0);
  EXPECT_EQ(from_tournament.seed, Schedule(config).game(0).seed);

  for (const GameRecord& record : {from_match, from_tournament}) {
    // `sling play` with the record's seed and the same agents plays the same game, dice included.
    const GameRecord from_play = played_in_session(game, specs, record.seed);
    EXPECT_EQ(from_play.history, record.history) << name << " seed " << record.seed;
    // A replay reads the dice from the record; they are the convention's dice at each ply.
    EXPECT_GT(expect_dice_follow_the_convention(game, record), 5) << name;
    EXPECT_EQ(replay(game, record), replay(game, from_play));
  }
  std::filesystem::remove_all(match_dir);
  std::filesystem::remove_all(options.out_dir);
}

TEST(DiceConvention, PlayMatchTournamentAndReplayThrowTheSameDiceInTheDuel) {
  expect_every_path_throws_the_same_dice(duel::DuelGame(), {"mcts:iterations=50", "heuristic"},
                                         "duel");
}

TEST(DiceConvention, PlayMatchTournamentAndReplayThrowTheSameDiceInPig) {
  expect_every_path_throws_the_same_dice(pig::PigGame(), {"mcts:iterations=50", "heuristic"},
                                         "pig");
}

TEST(DiceConvention, TheDieOfAPlyDependsOnTheSeedAndThePlyAlone) {
  const pig::PigGame game;
  pig::PigGame::State state = game.initial_state();
  game.apply_action(state, pig::kRoll);
  ASSERT_EQ(game.current_player(state), kChancePlayer);
  // Not a fixed die: other plies and other seeds throw other faces.
  std::set<Action> faces;
  for (std::uint64_t ply = 0; ply < 60; ++ply) faces.insert(roll_dice(game, state, 3, ply));
  EXPECT_EQ(faces.size(), 6u);
  std::set<Action> by_seed;
  for (std::uint64_t seed = 0; seed < 60; ++seed) by_seed.insert(roll_dice(game, state, seed, 4));
  EXPECT_EQ(by_seed.size(), 6u);
  // The same (seed, ply) always throws the same face.
  EXPECT_EQ(roll_dice(game, state, 3, 17), roll_dice(game, state, 3, 17));
}

}  // namespace
}  // namespace sling
