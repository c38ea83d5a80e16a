// The rules sweep (experiments/studies/rules_sweep.h): each variant's values are its own exact
// solution's, the report and its figure are written and readable, and a bad rule or value is
// refused before anything is solved.

#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "engine/core/disk_cache.h"
#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "experiments/studies/rules_sweep.h"
#include "run_sling.h"
#include "solvers/duel/solver.h"
#include "tests/duel_positions.h"
#include "tests/svg_check.h"

namespace sling::duel {
namespace {

DuelRules small_board() {
  return duel_positions::board16(4);
}

// A directory of the test's own, used as the solution cache too.
class OwnDirectory {
 public:
  OwnDirectory()
      : path_(::testing::TempDir() + "sling_sweep_" + std::to_string(::getpid()) + "_" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name()) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_ + "/cache");
    disk_cache_settings.set_directory(path_ + "/cache");
  }
  ~OwnDirectory() {
    disk_cache_settings.set_directory("");
    std::filesystem::remove_all(path_);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(RulesSweep, EachVariantIsItsOwnExactSolutionAndTheReportReadsThem) {
  const OwnDirectory dir;
  RulesSweepOptions options;
  options.rule = "shooting_band_cm";
  options.values = {"4", "5", "6"};
  options.games = 300;
  const std::string out = dir.path() + "/sweep";
  const std::vector<SweepVariant> variants = write_rules_sweep(small_board(), options, out);
  ASSERT_EQ(variants.size(), 3u);
  for (const SweepVariant& v : variants) {
    DuelRules rules = small_board();
    rules.shooting_band_cm = std::stoi(v.value);
    EXPECT_EQ(v.rules, rules);
    const DuelSolution exact = solve_duel(DuelGame(rules));
    EXPECT_NEAR(v.summary.start, exact.summary().start, 1e-6) << v.value;
    EXPECT_NEAR(v.summary.start_without_god, exact.summary().start_without_god, 1e-6) << v.value;
    EXPECT_TRUE(v.certified) << v.value;
    EXPECT_EQ(v.god.games, 300);
    EXPECT_GT(v.god.god_used_games, 0);
    EXPECT_GT(v.god_roll_share, 0);
    EXPECT_TRUE(std::filesystem::exists(out + "/" + v.report)) << v.report;
  }
  // A wider band leaves David shooting from farther: the variants differ.
  EXPECT_NE(variants[0].summary.start, variants[2].summary.start);
  const std::string report = read_file(out + "/report.md");
  EXPECT_EQ(report.rfind("# David's chances as `shooting_band_cm` varies", 0), 0u);
  EXPECT_LT(report.find("**In short.**"), report.find("| `shooting_band_cm` |"));
  EXPECT_NE(report.find("| 5 | "), std::string::npos);
  const std::string svg = read_file(out + "/sweep.svg");
  for (const std::string& problem : testing_support::svg_label_problems(svg, 1)) {
    ADD_FAILURE() << problem;
  }
  EXPECT_EQ(testing_support::render_svg(svg, "sweep"), "");
}

TEST(RulesSweep, ABadRuleOrValueIsRefusedBeforeAnySolve) {
  RulesSweepOptions options;
  options.rule = "no_such_rule";
  options.values = {"1", "2"};
  EXPECT_THROW(sweep_variants(small_board(), options), RulesError);
  options.rule = "shooting_band_cm";
  options.values = {"5", "-1"};
  EXPECT_THROW(sweep_variants(small_board(), options), RulesError);
  options.values = {"5", "\"wide\""};
  EXPECT_THROW(sweep_variants(small_board(), options), RulesError);
  options.values = {"5"};
  EXPECT_THROW(sweep_variants(small_board(), options), OptionError);
  options.rule = "god_enabled";
  options.values = {"true", "false"};
  EXPECT_THROW(sweep_variants(small_board(), options), RulesError);

  using testing_support::run_sling;
  const auto run = run_sling("study sweep --rule no_such_rule --values 1,2 --pitch 4 --out " +
                             ::testing::TempDir() + "sling_sweep_refused");
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("no_such_rule"), std::string::npos) << run.output;
  EXPECT_FALSE(std::filesystem::exists(::testing::TempDir() + "sling_sweep_refused"));
}

}  // namespace
}  // namespace sling::duel
