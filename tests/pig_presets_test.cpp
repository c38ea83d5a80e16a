// Pig's presets climb in the default tournament (docs/strength.md): `sling tournament pig` with no
// agents plays random, easy, normal and strong, 500 pairs a pairing, and on the scores adjusted for
// the dice's luck (exact values) strong > normal > easy, each difference's 95 % interval above
// zero.  The seeds are fixed; the margins measured are 3 to 10 standard errors.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "agents/pig_agents.h"
#include "engine/core/io.h"
#include "engine/pig/pig.h"
#include "experiments/tournament/tournament.h"
#include "pig_luck_tournament.h"
#include "run_sling.h"

namespace sling {
namespace {

constexpr double kZ95 = 1.959963984540054;

TEST(PigPresets, TheDefaultTournamentPlaysFiveHundredPairsOfThePresets) {
  const auto dir = std::filesystem::temp_directory_path() / "pig-presets-cli";
  std::filesystem::remove_all(dir);
  const auto run = testing_support::run_sling("tournament pig --quiet --out " + dir.string());
  ASSERT_EQ(run.status, 0) << run.output;
  const std::string config = read_file((dir / "config.json").string());
  EXPECT_NE(config.find("\"pairs_per_pairing\": 500"), std::string::npos) << config;
  EXPECT_NE(config.find("\"random\", \"easy\", \"normal\", \"strong\""), std::string::npos)
      << config;
  std::filesystem::remove_all(dir);
}

class PigPresetsClimb : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(PigPresetsClimb, StrongOverNormalOverEasyAdjustedForLuck) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("pig-presets-" + std::to_string(GetParam()));
  const std::vector<std::string> agents = {"random", "easy", "normal", "strong"};
  const TournamentReport report =
      testing_support::pig_luck_tournament(agents, 500, GetParam(), dir);
  ASSERT_TRUE(report.luck);
  const RatingFit& fit = report.adjusted_fit;
  for (const auto& [better, worse] : {std::pair{3, 2}, std::pair{2, 1}, std::pair{1, 0}}) {
    const double difference = fit.agents[better].elo - fit.agents[worse].elo;
    EXPECT_GT(difference - kZ95 * fit.difference_stderr(better, worse), 0)
        << agents[better] << " over " << agents[worse] << ": " << difference
        << " Elo, standard error " << fit.difference_stderr(better, worse);
  }
  // On the plain scores too, normal is clearly over easy (strong over normal needs the
  // adjustment: holding at 20 is close to optimal, a difference of about 20 Elo).
  EXPECT_GT(report.fit.agents[2].elo - report.fit.agents[1].elo -
                kZ95 * report.fit.difference_stderr(2, 1),
            0);
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Seeds, PigPresetsClimb, ::testing::Values(1, 2, 3));

TEST(PigPace, KeepsPaceAndEndsTheRace) {
  const pig::PigGame game;
  pig::PaceAgent pace(game);
  pig::PigState state;
  state.to_move = 0;
  state.scores = {30, 30};
  state.turn_total = 20;
  EXPECT_EQ(pace.act(state), pig::kRoll);  // level: hold at 21
  state.turn_total = 21;
  EXPECT_EQ(pace.act(state), pig::kHold);
  state.scores = {30, 62};  // 32 behind: hold at 21 + 4
  state.turn_total = 24;
  EXPECT_EQ(pace.act(state), pig::kRoll);
  state.turn_total = 25;
  EXPECT_EQ(pace.act(state), pig::kHold);
  state.scores = {30, 71};  // the opponent reached 71: roll for the goal
  state.turn_total = 60;
  EXPECT_EQ(pace.act(state), pig::kRoll);
  state.turn_total = 70;  // 30 + 70 reaches the goal
  EXPECT_EQ(pace.act(state), pig::kHold);
  EXPECT_EQ(pace.spec(), "pace");
}

}  // namespace
}  // namespace sling
