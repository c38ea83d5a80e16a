// The solver's movement discs against the engine: for every pair of a lattice, every mover and
// every allowance, the best leaf a disc returns is the best over the destinations that
// DuelGame::destination_legal allows, with and without the destination masks
// (solvers/duel/disc_scan.h).

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#include "solvers/duel/lattice_tables.h"
#include "solvers/duel/solver.h"
#include "solvers/duel/turn_evaluator.h"

namespace sling::duel {
namespace {

using detail::LatticeTables;
using detail::Mode;
using detail::TurnEvaluator;

// The best leaf within each allowance 0..reach by brute force: every cell of the mover's lattice
// that the engine allows, entered at the least allowance that reaches it.
std::vector<double> engine_bests(const DuelGame& game, const DuelIndex& index,
                                 const TurnEvaluator<Mode::kOptimal>& ev, std::size_t pair,
                                 Side mover, Side actor, std::uint8_t flags, int reach) {
  const int np_david = game.lattice_width(kDavid) * game.lattice_height(kDavid);
  const int david = static_cast<int>(pair % static_cast<std::size_t>(np_david));
  const int goliath = static_cast<int>(pair / static_cast<std::size_t>(np_david));
  DuelState s;
  s.david_x = static_cast<std::uint8_t>(david % game.lattice_width(kDavid));
  s.david_y = static_cast<std::uint8_t>(david / game.lattice_width(kDavid));
  s.goliath_x = static_cast<std::uint8_t>(goliath % game.lattice_width(kGoliath));
  s.goliath_y = static_cast<std::uint8_t>(goliath / game.lattice_width(kGoliath));
  const bool maximise = mover == kDavid;
  std::vector<double> best(static_cast<std::size_t>(reach) + 1, maximise ? -1.0 : 2.0);
  for (int y = 0; y < game.lattice_height(mover); ++y) {
    for (int x = 0; x < game.lattice_width(mover); ++x) {
      if (!game.destination_legal(s, mover, x, y, reach)) continue;
      int least = 0;
      while (!game.destination_legal(s, mover, x, y, least)) ++least;
      const std::size_t to = mover == kDavid ? index.pair(x, y, s.goliath_x, s.goliath_y)
                                             : index.pair(s.david_x, s.david_y, x, y);
      const double v = ev.leaf_after(actor, to, flags);
      for (int a = least; a <= reach; ++a) {
        double& b = best[static_cast<std::size_t>(a)];
        b = maximise ? std::max(b, v) : std::min(b, v);
      }
    }
  }
  return best;
}

// Checks every valid pair's discs (David in his own turn and in flight in Goliath's, Goliath in
// his) against the engine, on random leaves; every `pair_stride`-th pair.
void expect_discs_match_the_engine(const DuelRules& rules, bool masks, std::size_t pair_stride) {
  const DuelGame game(rules);
  LatticeTables lattice(game);
  if (masks) lattice.build_destination_masks();
  const DuelIndex& index = lattice.index;
  std::vector<double> values(index.size());
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (double& v : values) v = unit(rng);
  const TurnEvaluator<Mode::kOptimal> ev(lattice, values.data(), values.data(), 1.0, 0.0);
  const int layer = 5;  // God, shield and javelin: every slot of the layer is in play
  const std::uint8_t flags = detail::layer_flags(layer);
  const int david_reach = rules.david_move - 1;
  const int goliath_reach = rules.goliath_move_shield - 1;
  std::size_t checked = 0;
  for (std::size_t pair = 0; pair < index.pairs(); pair += pair_stride) {
    if (!lattice.valid[pair]) continue;
    double david[13], flight[13], goliath[13];
    ev.disc<kDavid>(pair, flags, kDavid, david_reach, david);
    ev.disc<kDavid>(pair, flags, kGoliath, david_reach, flight);
    ev.disc<kGoliath>(pair, flags, kGoliath, goliath_reach, goliath);
    const auto david_ref = engine_bests(game, index, ev, pair, kDavid, kDavid, flags, david_reach);
    const auto flight_ref =
        engine_bests(game, index, ev, pair, kDavid, kGoliath, flags, david_reach);
    const auto goliath_ref =
        engine_bests(game, index, ev, pair, kGoliath, kGoliath, flags, goliath_reach);
    for (int a = 0; a <= david_reach; ++a) {
      ASSERT_EQ(david[a], david_ref[static_cast<std::size_t>(a)])
          << "David's disc, pair " << pair << ", allowance " << a;
      ASSERT_EQ(flight[a], flight_ref[static_cast<std::size_t>(a)])
          << "David's flight, pair " << pair << ", allowance " << a;
    }
    for (int a = 0; a <= goliath_reach; ++a) {
      ASSERT_EQ(goliath[a], goliath_ref[static_cast<std::size_t>(a)])
          << "Goliath's disc, pair " << pair << ", allowance " << a;
    }
    ++checked;
  }
  EXPECT_GT(checked, 1000u);
}

DuelRules board(int board_cm, int pitch_cm) {
  DuelRules rules;
  rules.board_cm = board_cm;
  rules.pitch_cm = pitch_cm;
  return rules;
}

TEST(DuelMovementDiscs, MatchTheEngineWithDestinationMasks) {
  expect_discs_match_the_engine(board(30, 2), true, 7);
  expect_discs_match_the_engine(board(15, 1), true, 2);
}

TEST(DuelMovementDiscs, MatchTheEngineWithoutDestinationMasks) {
  expect_discs_match_the_engine(board(30, 2), false, 7);
  expect_discs_match_the_engine(board(15, 1), false, 2);
}

TEST(DuelMovementDiscs, MatchTheEngineUnderOtherMovementRules) {
  DuelRules rules = board(20, 2);
  rules.david_move = 8;
  rules.goliath_move_shield = 10;
  rules.goliath_base_mm = 60;
  expect_discs_match_the_engine(rules, true, 3);
  expect_discs_match_the_engine(rules, false, 3);
}

}  // namespace
}  // namespace sling::duel
