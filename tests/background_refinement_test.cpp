// Refined values computed while a person plays (agents/duel_background_value.h,
// `lookahead:background=1`), the rise tolerance that ends the rising sweeps once they settle, and
// a cancelled refinement (solvers/duel/refinement.h).

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <string>
#include <thread>

#include "agents/duel_lookahead_agent.h"
#include "agents/registry.h"
#include "engine/duel/duel.h"
#include "experiments/analysis/analysis_values.h"
#include "play/play_agents.h"
#include "solvers/duel/refinement.h"
#include "solvers/duel/solution_cache.h"
#include "solvers/duel/solver.h"
#include "tests/duel_positions.h"

namespace sling {
namespace {

using duel_positions::board16;

// A cache directory of the test's own, removed at the end.
class OwnCache {
 public:
  OwnCache()
      : path_(::testing::TempDir() + "sling_background_" + std::to_string(::getpid()) + "_" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name()) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
    disk_cache_settings.set_directory(path_);
  }
  ~OwnCache() {
    disk_cache_settings.set_directory("");
    std::filesystem::remove_all(path_);
  }
  std::size_t refined_files() const {
    std::size_t count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(path_))
      count += entry.path().filename().string().rfind("duel-refined-", 0) == 0;
    return count;
  }

 private:
  std::string path_;
};

// The rising sweeps stop once no value rises by more than the tolerance: fewer sweeps, values
// still below the game's value and within a small distance of the values of every sweep.
TEST(DuelRefinement, TheRiseToleranceStopsTheRisingSweepsOnceTheySettle) {
  const duel::DuelGame fine(board16(2));
  const duel::DuelSolution exact = duel::solve_duel(fine);
  const duel::CoarseDuelValue interpolated(fine, std::make_shared<const duel::DuelSolution>(
                                                     duel::solve_duel(duel::DuelGame(board16(4)))));
  duel::RefinementOptions every;
  every.sweeps = 200;
  duel::RefinementOptions settled = every;
  settled.rise_tolerance = 1e-5;
  const duel::DuelSolution full = duel::refine_interpolated_values(interpolated, every);
  const duel::DuelSolution early = duel::refine_interpolated_values(interpolated, settled);
  EXPECT_LT(early.summary().sweeps, full.summary().sweeps);
  double worst = 0, total = 0;
  for (std::size_t i = 0; i < exact.values().size(); ++i) {
    EXPECT_LE(early.values()[i], exact.values()[i] + 1e-4) << i;
    EXPECT_LE(early.values()[i], full.values()[i] + 1e-12) << i;  // rising only raises
    worst = std::max(worst, full.values()[i] - early.values()[i]);
    total += full.values()[i] - early.values()[i];
  }
  EXPECT_LT(total / static_cast<double>(exact.values().size()), 1e-3);
  EXPECT_LT(worst, 0.05);
  EXPECT_NEAR(early.summary().start, full.summary().start, 1e-3);
}

// A cancelled refinement stops at its next sweep and leaves nothing in the cache; asked again, it
// runs.
TEST(DuelRefinement, ACancelledRefinementStopsAndCachesNothing) {
  OwnCache cache;
  const duel::DuelGame game(board16(2));
  int asked = 0;
  const auto cancel_at_third_sweep = [&asked] { return ++asked >= 3; };
  EXPECT_THROW(duel::cached_refined_values(game, 4, {20, 0.0}, cancel_at_third_sweep),
               duel::RefinementCancelled);
  EXPECT_EQ(asked, 3);
  EXPECT_EQ(cache.refined_files(), 0u);
  EXPECT_FALSE(duel::coarse_value_is_ready(game, 4, false,
                                           duel::CoarseDuelValue::Scope::kCandidates, {20, 0.0}));
  EXPECT_TRUE(duel::cached_refined_values(game, 4, {20, 0.0}) != nullptr);
  EXPECT_EQ(cache.refined_files(), 1u);
  EXPECT_TRUE(duel::coarse_value_is_ready(game, 4, false, duel::CoarseDuelValue::Scope::kCandidates,
                                          {20, 0.0}));
}

// The spec a person's table builds: a refining lookahead refines in the background unless its spec
// says otherwise; other agents and tables without a person are built as given.
TEST(DuelBackgroundRefinement, OnlyAPersonsTableRefinesInTheBackground) {
  const duel::DuelGame game(board16(2));
  const std::string refining = "lookahead:refine=100,refine_tolerance=1e-05";
  EXPECT_EQ(spec_at_a_persons_table(game, refining), refining + ",background=1");
  EXPECT_EQ(spec_at_a_persons_table(game, refining + ",background=0"), refining + ",background=0");
  EXPECT_EQ(spec_at_a_persons_table(game, std::string("lookahead:refine=0")), "lookahead:refine=0");
  EXPECT_EQ(spec_at_a_persons_table(game, std::string("heuristic")), "heuristic");
  const pig::PigGame pig;
  EXPECT_EQ(spec_at_a_persons_table(pig, std::string("solver")), "solver");
  EXPECT_EQ(play::table_of(std::array<std::string, 2>{"human", "strong"}),
            play::Table::kWithPerson);
  EXPECT_EQ(play::table_of(std::array<std::string, 2>{"easy", "strong"}), play::Table::kAgentsOnly);
  // Up to the default board's 1 cm lattice `strong` refines, with the tolerance.
  EXPECT_EQ(*preset_spec(duel::DuelGame(), "strong"), duel::kStrongRefinedLookahead);
  EXPECT_EQ(*preset_spec(game, "strong"), duel::kStrongRefinedLookahead);
  duel::DuelRules wide;
  wide.board_cm = 40;
  EXPECT_EQ(*preset_spec(duel::DuelGame(wide), "strong"), "lookahead");
}

// The first decision of a game on seed 5's dice.
duel::DuelState first_decision(const duel::DuelGame& game) {
  duel::DuelState s = game.initial_state();
  Rng dice(5, 0);
  while (game.current_player(s) == kChancePlayer) apply_any(game, s, sample_chance(game, s, dice));
  return s;
}

// At a person's table the first move comes from the interpolated values at once; the agent
// switches to the refined values at its first decision after they are ready, says so once, and
// from then on decides as the agent that computed them first.
TEST(DuelBackgroundRefinement, APersonsTableStartsAtOnceAndSwitchesWhenReady) {
  OwnCache cache;
  const duel::DuelGame game(board16(2));
  const std::string spec =
      "lookahead:value_pitch=4,same_lattice=0,refine=30,refine_tolerance=1e-05";
  auto agent = play::make_play_agent(game, spec, "", play::Table::kWithPerson);
  auto* lookahead = dynamic_cast<DuelLookaheadAgent*>(agent.get());
  ASSERT_NE(lookahead, nullptr);
  EXPECT_NE(agent->spec().find(",background=1"), std::string::npos) << agent->spec();
  const duel::DuelState start = first_decision(game);
  const auto request = duel::RefinementRequest{30, 1e-5};
  const auto scope = duel::CoarseDuelValue::Scope::kCandidates;

  // (The agent holds its background work until a decision takes the result.)
  ASSERT_TRUE(lookahead->refining_in_background());
  agent->act(start);
  if (lookahead->refining_in_background()) {  // not finished yet: said once at the first move
    EXPECT_NE(agent->last_analysis().note.find("interpolated values while the refined ones"),
              std::string::npos)
        << agent->last_analysis().note;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  while (!duel::coarse_value_is_ready(game, 4, false, scope, request) &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_TRUE(duel::coarse_value_is_ready(game, 4, false, scope, request));
  // The value is ready for the cache a moment before the agent's thread has ended.
  while (lookahead->refining_in_background()) {
    const Action action = agent->act(start);
    (void)action;
    if (!lookahead->refining_in_background()) {
      EXPECT_NE(agent->last_analysis().note.find("now playing the refined values"),
                std::string::npos)
          << agent->last_analysis().note;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  agent->act(start);
  EXPECT_TRUE(agent->last_analysis().note.empty());

  // Ready now: a new agent at a person's table, and one of a match, play the refined values from
  // the first move, and the three decide alike.
  auto again = play::make_play_agent(game, spec, "", play::Table::kWithPerson);
  EXPECT_FALSE(dynamic_cast<DuelLookaheadAgent*>(again.get())->refining_in_background());
  auto blocking = make_agent(game, spec);
  EXPECT_NE(blocking->spec().find(",background=0"), std::string::npos) << blocking->spec();
  duel::DuelState s = start;
  Rng dice(5, 0);
  for (int ply = 0; ply < 60 && !game.is_terminal(s); ++ply) {
    if (game.current_player(s) == kChancePlayer) {
      apply_any(game, s, sample_chance(game, s, dice));
      continue;
    }
    const Action chosen = blocking->act(s);
    EXPECT_EQ(agent->act(s), chosen) << ply;
    EXPECT_EQ(again->act(s), chosen) << ply;
    game.apply_action(s, chosen);
  }
}

// An agent dropped while its refinement runs cancels it: nothing reaches the cache.
TEST(DuelBackgroundRefinement, ADroppedAgentCancelsItsRefinement) {
  OwnCache cache;
  const duel::DuelGame game(board16(1));
  {
    auto agent = play::make_play_agent(game, "lookahead:value_pitch=3,refine=100", "",
                                       play::Table::kWithPerson);
    EXPECT_TRUE(dynamic_cast<DuelLookaheadAgent*>(agent.get())->refining_in_background());
  }
  EXPECT_EQ(cache.refined_files(), 0u);
}

// The analysis and the luck pass read the finest values at hand: once `strong` has refined the
// game's lattice, its refined values instead of the coarse solution interpolated, and the game's
// own exact solution before either.
TEST(DuelAnalysisValues, TheFinestCachedValuesAreRead) {
  const OwnCache cache;
  const duel::DuelGame game(board16(2));
  AnalysisValueOptions options;
  options.candidates_only = true;
  const auto source = [&] { return analysis_value(game, options).source; };
  EXPECT_NE(source().find("interpolated"), std::string::npos) << source();
  // What `strong` computes as it plays: kStrongRefinement is its preset's request.
  const std::string strong_refinement =
      DuelRefineOptions{duel::kStrongRefinement.sweeps, duel::kStrongRefinement.rise_tolerance}
          .spec()
          .substr(1);
  EXPECT_NE(std::string(duel::kStrongRefinedLookahead).find(strong_refinement), std::string::npos)
      << strong_refinement;
  duel::shared_coarse_value(game, 0, true, duel::CoarseDuelValue::Scope::kCandidates,
                            duel::kStrongRefinement);
  EXPECT_NE(source().find("refined on the 2 cm lattice (at most 100 sweeps, as `strong` plays"),
            std::string::npos)
      << source();
  const duel::DuelState start = game.initial_state();
  const duel::DuelSolution own = duel::solve_duel(game);
  const double refined_start = analysis_value(game, options).value(start);
  EXPECT_LE(refined_start, own.value(start) + 1e-9);  // refined values are a sub-solution
  duel::cached_duel_solution(game);                   // the game's own solution, cached
  const AnalysisValue<duel::DuelGame> exact = analysis_value(game, options);
  EXPECT_TRUE(exact.exact) << exact.source;
  EXPECT_NEAR(exact.value(start), own.value(start), 1e-12);
}

}  // namespace
}  // namespace sling
