// Refined values (solvers/duel/refinement.h): the interpolated coarse values settled to a
// sub-solution on the game's own lattice and raised by sweeps of the exact turn.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>

#include "agents/registry.h"
#include "engine/core/io.h"
#include "engine/duel/duel.h"
#include "experiments/match.h"
#include "solvers/duel/refinement.h"
#include "solvers/duel/solution_cache.h"
#include "solvers/duel/solver.h"
#include "tests/duel_positions.h"
#include "tests/run_sling.h"

namespace sling {
namespace {

using duel_positions::board16;

struct Lattices {
  duel::DuelGame fine{board16(2)};
  std::shared_ptr<const duel::DuelSolution> exact =
      std::make_shared<const duel::DuelSolution>(duel::solve_duel(fine));
  std::shared_ptr<const duel::DuelSolution> coarse =
      std::make_shared<const duel::DuelSolution>(duel::solve_duel(duel::DuelGame(board16(4))));
};

const Lattices& lattices() {
  static const Lattices solved;
  return solved;
}

// Mean |v - exact| over the states the interpolation values (the bases apart).
double mean_error(const std::vector<double>& values, const std::vector<double>& exact,
                  const std::vector<double>& interpolated) {
  double total = 0;
  std::size_t count = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (interpolated[i] == 0 && exact[i] == 0) continue;
    total += std::abs(values[i] - exact[i]);
    ++count;
  }
  return total / static_cast<double>(count);
}

// Settling only lowers the interpolated values, and the result lies below the game's value
// everywhere (a sub-solution); the rising sweeps bring it closer, still below.
TEST(DuelRefinement, RefinedValuesLieBelowTheValueAndApproachIt) {
  const Lattices& l = lattices();
  const duel::CoarseDuelValue interpolated(l.fine, l.coarse);
  duel::RefinementOptions settle_only;
  settle_only.sweeps = 0;
  const duel::DuelSolution settled = duel::refine_interpolated_values(interpolated, settle_only);
  duel::RefinementOptions risen;
  risen.sweeps = 60;
  const duel::DuelSolution refined = duel::refine_interpolated_values(interpolated, risen);
  EXPECT_FALSE(settled.complete());
  EXPECT_FALSE(refined.complete());

  const duel::DuelSolution plain = duel::refine_interpolated_values(interpolated, [] {
    duel::RefinementOptions none;
    none.sweeps = 0;
    none.settle_tolerance = 1e9;  // one settling sweep a layer only
    return none;
  }());
  const std::vector<double>& exact = l.exact->values();
  // The sub-solution's bound holds up to the settling tolerance, carried over the turns.
  constexpr double kSlack = 1e-4;
  std::size_t raised = 0;
  for (std::size_t i = 0; i < exact.size(); ++i) {
    EXPECT_LE(settled.values()[i], exact[i] + kSlack) << i;
    EXPECT_LE(refined.values()[i], exact[i] + kSlack) << i;
    EXPECT_GE(refined.values()[i], settled.values()[i] - 1e-12) << i;
    raised += refined.values()[i] > settled.values()[i] + 1e-9;
  }
  EXPECT_GT(raised, exact.size() / 10);
  const double exact_start = l.exact->summary().start;
  EXPECT_LE(settled.summary().start, exact_start + kSlack);
  EXPECT_LE(refined.summary().start, exact_start + kSlack);
  EXPECT_GT(refined.summary().start, settled.summary().start);
  EXPECT_LT(mean_error(refined.values(), exact, plain.values()),
            mean_error(settled.values(), exact, plain.values()));
  EXPECT_NEAR(refined.summary().start, exact_start, 0.03);
}

// The point of the sub-solution: David greedy on it wins at least its start value against any
// Goliath, here the exact one.  400 games: the win rate's standard deviation is at most 0.025,
// so 3 of them are allowed below the bound.
TEST(DuelRefinement, GreedyDavidWinsAtLeastTheRefinedStartValue) {
  const Lattices& l = lattices();
  const std::string dir = ::testing::TempDir() + "sling_refined_greedy";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  disk_cache_settings.set_directory(dir);
  const double bound =
      duel::cached_refined_values(l.fine, 4, duel::RefinementRequest{20, 0.0})->summary().start;
  const std::string exact_file = dir + "/exact.sol";
  l.exact->save(exact_file);
  MatchOptions games;
  games.games = 400;
  games.seed = 17;
  games.threads = 2;
  games.max_plies = 5000;
  const MatchResult r = run_match(
      l.fine,
      {"lookahead:value_pitch=4,same_lattice=0,refine=20,tie=0", "solver:file=" + exact_file},
      games);
  disk_cache_settings.set_directory("");
  const double sd = std::sqrt(bound * (1 - bound) / games.games);
  EXPECT_GT(bound, 0.2);
  EXPECT_GE(r.win_rate(0), bound - 3 * sd) << match_to_text(r);
  EXPECT_EQ(r.draws, 0) << match_to_text(r);
  std::filesystem::remove_all(dir);
}

// The cache: refined on first use with a progress line, reused, and a corrupt, truncated or
// foreign file (a finished solution under its name) is refined again with a one-line notice.
TEST(DuelRefinement, CacheIsWrittenReusedAndRepaired) {
  using testing_support::run_sling;
  const std::string dir = ::testing::TempDir() + "sling_refined_cache";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string rules = dir + "/rules.json";
  write_file_atomic(rules, duel::rules_to_json(board16(3)));
  const std::string command =
      "--cache " + dir + " match duel --rules " + rules +
      " --david lookahead:value_pitch=5,same_lattice=0,refine=5,tie=0 --goliath heuristic "
      "--games 2 --threads 1";
  const auto first = run_sling(command);
  ASSERT_EQ(first.status, 0) << first.output;
  EXPECT_NE(first.output.find("refining the 5 cm values on the 3 cm lattice"), std::string::npos)
      << first.output;
  std::string file;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("duel-refined-", 0) == 0) file = entry.path();
  }
  ASSERT_FALSE(file.empty());
  const auto second = run_sling(command);
  ASSERT_EQ(second.status, 0) << second.output;
  EXPECT_EQ(second.output.find("refining"), std::string::npos) << second.output;

  const std::string good = read_file(file);
  for (const std::string& broken :
       {std::string("not a table"), good.substr(0, good.size() / 2), std::string()}) {
    write_file_atomic(file, broken);
    const auto repaired = run_sling(command);
    ASSERT_EQ(repaired.status, 0) << repaired.output;
    EXPECT_NE(repaired.output.find("are unusable"), std::string::npos) << repaired.output;
    EXPECT_EQ(read_file(file).size(), good.size());
  }
  duel::solve_duel(duel::DuelGame(board16(3))).save(file);  // a finished solution: foreign here
  const auto foreign = run_sling(command);
  ASSERT_EQ(foreign.status, 0) << foreign.output;
  EXPECT_NE(foreign.output.find("a solution, not refined values"), std::string::npos)
      << foreign.output;
  EXPECT_FALSE(
      duel::DuelSolution::load(file, nullptr, duel::DuelSolution::Accept::kSolutionOrCheckpoint)
          .complete());
  std::filesystem::remove_all(dir);
}

TEST(DuelRefinement, TheOptionIsInTheSpecAndChecked) {
  const duel::DuelGame game(board16(3));
  EXPECT_NE(make_agent(game, "lookahead:value_pitch=5,refine=0")->spec().find(",refine=0,"),
            std::string::npos);
  EXPECT_THROW(make_agent(game, "lookahead:refine=-1"), OptionError);
  EXPECT_THROW(make_agent(game, "expectimax:leaf=value,refine=x"), OptionError);
}

}  // namespace
}  // namespace sling
