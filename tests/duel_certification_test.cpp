// Certification of the duel solver's bracket on more boards than the default one: the fast part
// of the board grid (docs/solver.md, "The board grid"; the long part is the experiment test
// DuelSolverGrid.TwentyCentimetresAtPitchOneCertifies), and the flattening of stand-off plateaus
// that lets the upper pass certify where the exact value is flat (solvers/duel/plateau.h).

#include <gtest/gtest.h>

#include "solvers/duel/lattice_tables.h"
#include "solvers/duel/plateau.h"
#include "solvers/duel/solver.h"

namespace sling::duel {
namespace {

// The default route of `sling solve duel`, without the termination pass.
SolverOptions route() {
  SolverOptions options;
  options.tolerance = kRouteTolerance;
  options.policy_improvements = kRouteImprovements;
  options.nontermination = false;
  return options;
}

// Every board of the grid at the 5 cm lattice, and the smaller ones at 4 cm: each bracket, with
// God and without, is a certified result within the default tolerance, and every layer's upper
// and lower certificate held.
TEST(DuelSolverGrid, CoarseLatticesCertifyOnEveryBoard) {
  for (int pitch : {5, 4}) {
    for (int board = 16; board <= (pitch == 5 ? 30 : 22); board += 2) {
      DuelRules rules;
      rules.board_cm = board;
      rules.pitch_cm = pitch;
      const SolveSummary s = solve_duel(DuelGame(rules), route()).summary();
      const std::string where = std::to_string(board) + " cm, pitch " + std::to_string(pitch);
      EXPECT_TRUE(s.certified) << where << ": " << s.failed_pass << " " << s.failed_layer;
      EXPECT_TRUE(s.certified_without_god) << where;
      EXPECT_LE(s.gap(), 1e-6) << where;
      EXPECT_LE(s.gap_without_god(), 1e-6) << where;
      EXPECT_LE(s.lower_bound_without_god, s.lower_bound) << where;  // God never hurts David
      for (const PassReport& pass : s.passes) {
        if (pass.pass == "upper" || pass.pass == "lower") {
          EXPECT_TRUE(pass.certified) << where << ": " << pass.pass << " " << pass.layer;
        }
      }
    }
  }
}

// A sloping plateau of David-with-a-stone states (David on rows 0 to 3, Goliath on his first row)
// still rising toward its top (David on row 4, rising too): the flattening raises every rising
// state to the top, leaves the top, the states that did not rise and everything lower alone,
// never climbs more than its threshold (row 5 lies 5e-9 above the top, out of reach), and keeps
// mirror images and the transposed copy equal.
TEST(DuelSolverPlateau, FlatteningRaisesARisingSlopeToItsTopAndNoFurther) {
  DuelRules rules;
  rules.board_cm = 16;
  rules.pitch_cm = 2;
  const DuelGame game(rules);
  const detail::LatticeTables lattice(game);
  const DuelIndex& index = lattice.index;
  const int layer = 3, slot = DuelIndex::david_slot(true, false);
  const int dcols = lattice.cols[kDavid], gcols = lattice.cols[kGoliath];
  const int goliath_row = 0;  // at his own border, far from David's rows
  ASSERT_GE(lattice.rows[kDavid], 6);
  constexpr double kBase = 0.3, kStep = 4e-12, kTop = kBase + 4 * kStep, kCliff = kBase + 5e-9;
  std::vector<double> values(index.size(), 0.1);
  auto plateau_value = [&](int row) { return row <= 4 ? kBase + kStep * row : kCliff; };
  for (int row = 0; row <= 5; ++row)
    for (int dx = 0; dx < dcols; ++dx)
      for (int gx = 0; gx < gcols; ++gx)
        values[index.at(layer, slot, index.pair(dx, row, gx, goliath_row))] = plateau_value(row);
  // Before the last sweep the slope's lower rows stood 1e-13 lower (they rose); the top did not.
  std::vector<double> before(
      values.begin() + static_cast<std::ptrdiff_t>(index.at(layer, 0, 0)),
      values.begin() + static_cast<std::ptrdiff_t>(index.at(layer + 1, 0, 0)));
  std::size_t below_top = 0;
  for (int row = 0; row <= 4; ++row)
    for (int dx = 0; dx < dcols; ++dx)
      for (int gx = 0; gx < gcols; ++gx) {
        const std::size_t p = index.pair(dx, row, gx, goliath_row);
        before[index.at(0, slot, p)] -= 1e-13;
        below_top += row < 4 && index.canonical(p) && lattice.valid[p];
      }
  const std::vector<double> original = values;
  std::vector<double> transposed(detail::LatticeTables::kTransposedSlots * index.pairs());
  const std::size_t raised =
      detail::flatten_plateaus(lattice, values.data(), transposed.data(), layer, before, 1e-9);
  EXPECT_EQ(raised, below_top);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::size_t local = i - index.at(layer, 0, 0);
    const bool was_rising = i >= index.at(layer, 0, 0) && i < index.at(layer + 1, 0, 0) &&
                            lattice.valid[local % index.pairs()] && original[i] - before[local] > 0;
    if (was_rising) {
      EXPECT_EQ(values[i], kTop) << i;
    } else {
      EXPECT_EQ(values[i], original[i]) << i;
    }
  }
  for (int dx = 0; dx < dcols; ++dx) {
    const std::size_t p = index.pair(dx, 2, 0, goliath_row);
    EXPECT_EQ(values[index.at(layer, slot, p)], values[index.at(layer, slot, index.mirror(p))]);
    // The transposed copy of David's slots follows the values.
    EXPECT_EQ(transposed[lattice.transposed(slot, p)], kTop);
  }
}

}  // namespace
}  // namespace sling::duel
