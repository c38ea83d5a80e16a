// The long part of the duel solver's board grid (docs/solver.md, "The board grid"): the board
// whose stand-off plateau once kept the upper pass from certifying.  About 3 minutes on 2 cores.

#include <gtest/gtest.h>

#include "solvers/duel/solver.h"

namespace sling::duel {
namespace {

// 20 cm at the 1 cm lattice: without the plateau flattening the upper pass fails on god/no-kit
// (values still rising by about 8.6e-12 a sweep after 120 sweeps, at every start), and the
// bracket with God was [0.2986, 1].  The value agrees with an independent solve of the same
// rules (0.2985864105, within the 1e-10 discount's effect).
TEST(DuelSolverGrid, TwentyCentimetresAtPitchOneCertifies) {
  DuelRules rules;
  rules.board_cm = 20;
  rules.pitch_cm = 1;
  SolverOptions options;
  options.tolerance = kRouteTolerance;
  options.policy_improvements = kRouteImprovements;
  options.nontermination = false;
  const SolveSummary s = solve_duel(DuelGame(rules), options).summary();
  EXPECT_TRUE(s.certified) << s.failed_pass << " " << s.failed_layer;
  EXPECT_TRUE(s.certified_without_god);
  EXPECT_LE(s.gap(), 1e-6);
  EXPECT_LE(s.gap_without_god(), 1e-6);
  EXPECT_NEAR(s.lower_bound, 0.2985864105, 1e-8);
  EXPECT_NEAR(s.lower_bound_without_god, 0.1425217329, 1e-8);
}

}  // namespace
}  // namespace sling::duel
