// Rules of the duel, one test (or a few) per rule and per decision of docs/rules/duel.md.
// Probabilities are checked exactly by enumerating every chance outcome.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "engine/core/record.h"
#include "engine/core/state_io.h"
#include "engine/duel/duel.h"
#include "tests/conformance.h"

namespace sling::duel {
namespace {

using StatePredicate = std::function<bool(const DuelState&)>;

// The lattice point whose centre is (x_cm, y_cm); fails the test if there is none.
std::pair<int, int> lattice_point(const DuelGame& game, Side side, double x_cm, double y_cm) {
  for (int x = 0; x < game.lattice_width(side); ++x) {
    for (int y = 0; y < game.lattice_height(side); ++y) {
      if (std::abs(game.centre_x(side, x) - x_cm * 20) < 1e-9 &&
          std::abs(game.centre_y(side, y) - y_cm * 20) < 1e-9) {
        return {x, y};
      }
    }
  }
  ADD_FAILURE() << "no lattice point at " << x_cm << ", " << y_cm;
  return {0, 0};
}

// A state where `actor` is to declare, with the figures at the given centres (cm).
DuelState position(const DuelGame& game, double dx, double dy, double gx, double gy,
                   Side actor = kDavid, std::uint8_t extra_flags = 0) {
  DuelState s = game.initial_state();
  const auto [david_x, david_y] = lattice_point(game, kDavid, dx, dy);
  const auto [goliath_x, goliath_y] = lattice_point(game, kGoliath, gx, gy);
  s.david_x = static_cast<std::uint8_t>(david_x);
  s.david_y = static_cast<std::uint8_t>(david_y);
  s.goliath_x = static_cast<std::uint8_t>(goliath_x);
  s.goliath_y = static_cast<std::uint8_t>(goliath_y);
  s.phase = Phase::kDeclare;
  s.roll = Roll::kNone;
  s.actor = actor;
  s.turn = 5;
  s.flags |= extra_flags;
  return s;
}

// Applies a die roll and accepts it if God is offered.
void roll(const DuelGame& game, DuelState& s, Action outcome) {
  ASSERT_EQ(s.phase, Phase::kRoll);
  game.apply_chance(s, outcome);
  if (s.phase == Phase::kGod) game.apply_action(s, act::kAccept);
}

// Exact probability that `event` holds when play first reaches a state where `stop` holds,
// enumerating every chance outcome; decisions on the way take `policy` (default: accept the dice,
// stay after a tied melee, stay put when moving).
double probability(const DuelGame& game, const DuelState& s, const StatePredicate& stop,
                   const StatePredicate& event,
                   const std::function<Action(const DuelState&)>& policy = nullptr) {
  if (stop(s)) return event(s) ? 1.0 : 0.0;
  if (game.current_player(s) == kChancePlayer) {
    return chance_expectation(
        game, s, [&](const DuelState& t) { return probability(game, t, stop, event, policy); });
  }
  DuelState t = s;
  Action a;
  if (policy) {
    a = policy(s);
  } else if (s.phase == Phase::kGod) {
    a = act::kAccept;
  } else if (s.phase == Phase::kTieFlee) {
    a = act::kTieStay;
  } else {
    ActionList<DuelGame> actions;
    game.legal_actions(s, actions);
    a = actions[0];  // destinations are listed nearest first: the first is staying put
  }
  game.apply_action(t, a);
  return probability(game, t, stop, event, policy);
}

bool turn_over(const DuelState& s, Side actor) {
  return s.phase == Phase::kTerminal || (s.phase == Phase::kDeclare && s.actor != actor);
}

DuelGame game_without_god() {
  DuelRules rules;
  rules.god_enabled = false;
  return DuelGame(rules);
}

bool has_action(const DuelGame& game, const DuelState& s, Action a) {
  ActionList<DuelGame> actions;
  game.legal_actions(s, actions);
  return std::find(actions.begin(), actions.end(), a) != actions.end();
}

// --- Setup -----------------------------------------------------------------------------------

TEST(DuelSetup, FiguresStartTouchingTheMiddleOfTheirBorders) {
  const DuelGame game;
  const DuelState s = game.initial_state();
  EXPECT_EQ(game.centre_x(kDavid, s.david_x), 15 * 20);
  EXPECT_EQ(game.centre_y(kDavid, s.david_y), 25);  // radius 1.25 cm: the base touches y = 0
  EXPECT_EQ(game.centre_x(kGoliath, s.goliath_x), 15 * 20);
  EXPECT_EQ(game.centre_y(kGoliath, s.goliath_y), 30 * 20 - 40);  // radius 2 cm from y = 30
  EXPECT_TRUE(s.has(kGoliathShield));
  EXPECT_TRUE(s.has(kGoliathJavelin));
  EXPECT_TRUE(s.has(kGodAvailable));
  EXPECT_FALSE(s.has(kDavidHasStone));  // David starts without stones
  EXPECT_EQ(game.current_player(s), kChancePlayer);
  EXPECT_EQ(s.roll, Roll::kInitiative);
}

TEST(DuelSetup, InitiativeHigherDieGoesFirstTiesRollAgain) {
  const DuelGame game = game_without_god();
  DuelState s = game.initial_state();
  DuelState tie = s;
  game.apply_chance(tie, act::dice_pair(4, 4));
  EXPECT_EQ(tie.phase, Phase::kRoll);
  EXPECT_EQ(tie.roll, Roll::kInitiative);
  DuelState david = s;
  game.apply_chance(david, act::dice_pair(5, 2));
  EXPECT_EQ(david.phase, Phase::kDeclare);
  EXPECT_EQ(david.actor, kDavid);
  DuelState goliath = s;
  game.apply_chance(goliath, act::dice_pair(1, 6));
  EXPECT_EQ(goliath.actor, kGoliath);
  // Who goes first is a fair coin once ties are rolled again: 15 of the 30 untied pairs.
  int david_first = 0, untied = 0;
  ChanceList<DuelGame> outcomes;
  game.chance_outcomes(s, outcomes);
  ASSERT_EQ(outcomes.size(), 36u);
  for (const auto& o : outcomes) {
    DuelState t = s;
    game.apply_chance(t, o.outcome);
    if (t.phase != Phase::kDeclare) continue;
    ++untied;
    david_first += t.actor == kDavid;
  }
  EXPECT_EQ(untied, 30);
  EXPECT_EQ(david_first, 15);
}

// --- Board and geometry ----------------------------------------------------------------------

TEST(DuelBoard, BasesStayOnTheBoardAndNeverOverlapInRandomPlay) {
  const DuelGame game;
  Rng rng(3, 0);
  for (int g = 0; g < 200; ++g) {
    DuelState s = game.initial_state();
    while (!game.is_terminal(s)) {
      const int dx = game.centre_x(kDavid, s.david_x), dy = game.centre_y(kDavid, s.david_y);
      const int gx = game.centre_x(kGoliath, s.goliath_x),
                gy = game.centre_y(kGoliath, s.goliath_y);
      ASSERT_GE(dx - 25, 0);
      ASSERT_LE(dx + 25, 600);
      ASSERT_GE(dy - 25, 0);
      ASSERT_LE(dy + 25, 600);
      ASSERT_GE(gx - 40, 0);
      ASSERT_LE(gx + 40, 600);
      ASSERT_GE(gy - 40, 0);
      ASSERT_LE(gy + 40, 600);
      ASSERT_GE(game.centre_distance2(s), 65 * 65);
      if (game.current_player(s) == kChancePlayer) {
        game.apply_chance(s, sample_chance(game, s, rng));
      } else {
        game.apply_action(s, sample_uniform_action(game, s, rng));
      }
    }
  }
}

TEST(DuelBoard, ContactIsReachableFromEveryDirection) {
  // Goliath in the middle; for every direction in 5-degree steps, some David lattice point lies in
  // contact (edge distance within the tolerance) within 10 degrees of that direction.
  const DuelGame game;
  DuelState s = position(game, 15, 2.25, 15, 15);
  const double gx = game.centre_x(kGoliath, s.goliath_x), gy = game.centre_y(kGoliath, s.goliath_y);
  for (int degrees = 0; degrees < 360; degrees += 5) {
    bool found = false;
    for (int x = 0; x < game.lattice_width(kDavid) && !found; ++x) {
      for (int y = 0; y < game.lattice_height(kDavid) && !found; ++y) {
        DuelState t = s;
        t.david_x = static_cast<std::uint8_t>(x);
        t.david_y = static_cast<std::uint8_t>(y);
        if (game.centre_distance2(t) < 65 * 65 || !game.in_contact(t)) continue;
        const double angle =
            std::atan2(game.centre_y(kDavid, y) - gy, game.centre_x(kDavid, x) - gx);
        double diff = std::abs(angle - degrees * M_PI / 180.0);
        diff = std::min(diff, 2 * M_PI - diff);
        found = diff <= 10 * M_PI / 180.0;
      }
    }
    EXPECT_TRUE(found) << "no contact point towards " << degrees << " degrees";
  }
  EXPECT_EQ(game.contact_tolerance_units(), 29);  // ceil(sqrt(2) * 1 cm) in half-millimetres
}

TEST(DuelBoard, DistanceIsMeasuredEdgeToEdge) {
  const DuelGame game;
  // Centres 15 cm apart on a line: edges 15 - 1.25 - 2 = 11.75 cm apart.
  const DuelState s = position(game, 15, 10.25, 15, 25);
  EXPECT_NEAR(game.edge_distance_cm(s), 25 - 10.25 - 3.25, 1e-12);
}

// The declarations read contact and both shooting ranges from one table indexed by the figures'
// separation; on every pair of lattice points of several rules files it must say what the
// distances say: contact as in_contact, a missile in range as a capability of at least 1.
TEST(DuelBoard, TheSeparationTableAgreesWithTheDistancesOnEveryPairOfPoints) {
  std::vector<DuelRules> variants(5);
  variants[1].pitch_cm = 3;
  variants[2].board_cm = 20;
  variants[2].shooting_band_cm = 3;
  variants[3].david_shooting = 0;
  variants[3].goliath_shooting = 6;
  variants[4].pitch_cm = 2;
  variants[4].david_shooting = 1;
  for (const DuelRules& rules : variants) {
    const DuelGame game(rules);
    const DuelGeometry& geometry = game.geometry();
    DuelState s = game.initial_state();
    int mismatches = 0, contacts = 0, david_in_range = 0;
    for (int dx = 0; dx < game.lattice_width(kDavid); ++dx) {
      for (int dy = 0; dy < game.lattice_height(kDavid); ++dy) {
        for (int gx = 0; gx < game.lattice_width(kGoliath); ++gx) {
          for (int gy = 0; gy < game.lattice_height(kGoliath); ++gy) {
            s.david_x = static_cast<std::uint8_t>(dx);
            s.david_y = static_cast<std::uint8_t>(dy);
            s.goliath_x = static_cast<std::uint8_t>(gx);
            s.goliath_y = static_cast<std::uint8_t>(gy);
            const std::uint8_t bits = geometry.separation(dx, dy, gx, gy);
            const bool contact = (bits & DuelGeometry::kInContact) != 0;
            const bool david = (bits & DuelGeometry::kDavidInRange) != 0;
            const bool goliath = (bits & DuelGeometry::kGoliathInRange) != 0;
            mismatches += contact != game.in_contact(s) ||
                          david != (game.shooting_capability(s, kDavid) >= 1) ||
                          goliath != (game.shooting_capability(s, kGoliath) >= 1);
            contacts += contact;
            david_in_range += david;
          }
        }
      }
    }
    EXPECT_EQ(mismatches, 0) << "pitch " << rules.pitch_cm << " board " << rules.board_cm;
    EXPECT_GT(contacts, 0);  // the table is not all zeros
    EXPECT_EQ(david_in_range > 0, rules.david_shooting > 0);
  }
}

// Listing a state's destinations tests each offset of the disc with the centres computed once;
// it must list exactly the lattice points that destination_legal allows, in random positions.
TEST(DuelBoard, ListedDestinationsAreExactlyTheLegalOnes) {
  const DuelGame game;
  Rng rng(57, 1);
  int checked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    DuelState s = game.initial_state();
    s.david_x = static_cast<std::uint8_t>(rng.uniform(game.lattice_width(kDavid)));
    s.david_y = static_cast<std::uint8_t>(rng.uniform(game.lattice_height(kDavid)));
    s.goliath_x = static_cast<std::uint8_t>(rng.uniform(game.lattice_width(kGoliath)));
    s.goliath_y = static_cast<std::uint8_t>(rng.uniform(game.lattice_height(kGoliath)));
    if (game.geometry().overlapping(game.centre_distance2(s))) continue;
    s.phase = Phase::kDestination;
    s.roll = trial % 2 == 0 ? Roll::kDavidMove : Roll::kGoliathMove;
    // Up to the longest allowance a roll grants: the longest move less a die of 1.
    const DuelRules& rules = game.rules();
    s.allowance_cm = static_cast<std::uint8_t>(rng.uniform(static_cast<std::uint32_t>(
        std::max({rules.david_move, rules.goliath_move_shield, rules.goliath_move_two_handed}))));
    const Side mover = trial % 2 == 0 ? kDavid : kGoliath;
    ActionList<DuelGame> listed;
    game.legal_actions(s, listed);
    std::set<Action> expected;
    for (int x = 0; x < game.lattice_width(mover); ++x) {
      for (int y = 0; y < game.lattice_height(mover); ++y) {
        if (game.destination_legal(s, mover, x, y, s.allowance_cm)) {
          expected.insert(act::destination(x, y));
        }
      }
    }
    EXPECT_EQ(std::set<Action>(listed.begin(), listed.end()), expected) << trial;
    EXPECT_EQ(listed.size(), expected.size());  // and none twice
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

// --- Movement --------------------------------------------------------------------------------

TEST(DuelMove, DavidMovesTwelveMinusTheDieAndTripsOnASix) {
  const DuelGame game = game_without_god();
  for (int die = 1; die <= 6; ++die) {
    DuelState s = position(game, 15, 1.25, 15, 28);
    game.apply_action(s, act::kMove);
    roll(game, s, static_cast<Action>(die));
    if (die == 6) {
      EXPECT_EQ(s.phase, Phase::kDeclare);  // tripped: the turn passes with no movement
      EXPECT_EQ(s.actor, kGoliath);
      continue;
    }
    ASSERT_EQ(s.phase, Phase::kDestination);
    EXPECT_EQ(s.allowance_cm, 12 - die);
    ActionList<DuelGame> actions;
    game.legal_actions(s, actions);
    double farthest = 0;
    for (Action a : actions) {
      const double ddx = (game.centre_x(kDavid, act::destination_x(a)) - 300) / 20.0;
      const double ddy = (game.centre_y(kDavid, act::destination_y(a)) - 25) / 20.0;
      const double moved = std::sqrt(ddx * ddx + ddy * ddy);
      EXPECT_LE(moved, 12 - die + 1e-9);
      farthest = std::max(farthest, moved);
    }
    EXPECT_DOUBLE_EQ(farthest, 12 - die);  // straight up the board reaches the full allowance
  }
}

TEST(DuelMove, GoliathMovesSevenWithShieldOrNineTwoHandedMinusTheDie) {
  const DuelGame game = game_without_god();
  DuelState s = position(game, 15, 1.25, 15, 28, kGoliath);
  game.apply_action(s, act::kMove);
  roll(game, s, 6);
  EXPECT_EQ(s.allowance_cm, 1);  // no trip for Goliath: 7 - 6
  DuelState t = position(game, 15, 1.25, 15, 28, kGoliath);
  t.flags &= static_cast<std::uint8_t>(~kGoliathShield);
  game.apply_action(t, act::kMove);
  roll(game, t, 2);
  EXPECT_EQ(t.allowance_cm, 7);  // 9 - 2 with the khopesh in both hands
}

TEST(DuelMove, StayingPutIsALegalMoveOfZero) {
  const DuelGame game = game_without_god();
  DuelState s = position(game, 15, 1.25, 15, 28);
  game.apply_action(s, act::kMove);
  roll(game, s, 1);
  EXPECT_TRUE(has_action(game, s, act::destination(s.david_x, s.david_y)));
}

TEST(DuelMove, ThePathMayNotCrossTheOtherFigure) {
  const DuelGame game = game_without_god();
  // David south of Goliath with 4 cm between centres' line... jumping straight over him is illegal,
  // going around is legal.
  DuelState s = position(game, 15, 8.25, 15, 14, kDavid);
  game.apply_action(s, act::kMove);
  roll(game, s, 1);  // 11 cm
  const auto [over_x, over_y] = lattice_point(game, kDavid, 15, 19.25);
  EXPECT_FALSE(game.destination_legal(s, kDavid, over_x, over_y, 11));
  EXPECT_FALSE(has_action(game, s, act::destination(over_x, over_y)));
  const auto [side_x, side_y] = lattice_point(game, kDavid, 22, 8.25);
  EXPECT_TRUE(has_action(game, s, act::destination(side_x, side_y)));
  // Landing on top of him is illegal too.
  const auto [on_x, on_y] = lattice_point(game, kDavid, 15, 14.25);
  EXPECT_FALSE(has_action(game, s, act::destination(on_x, on_y)));
}

TEST(DuelMove, DavidMayNotMoveInContactButMustFlee) {
  const DuelGame game;
  const DuelState s = position(game, 15, 10.25, 15, 14);  // centres 3.75 apart: 0.5 cm gap
  ASSERT_TRUE(game.in_contact(s));
  EXPECT_FALSE(has_action(game, s, act::kMove));
  EXPECT_TRUE(has_action(game, s, act::kFlee));
  EXPECT_TRUE(has_action(game, s, act::kFight));
  const DuelState g = position(game, 15, 10.25, 15, 14, kGoliath);
  EXPECT_TRUE(has_action(game, g, act::kMove));  // Goliath may step away
  EXPECT_THROW(
      {
        DuelState t = s;
        game.apply_action(t, act::kMove);
      },
      IllegalActionError);
}

// --- Shooting --------------------------------------------------------------------------------

TEST(DuelShoot, CapabilityDropsOnePerFullFiveCentimetres) {
  // With the default bases, figures on one file are a half-integer number of cm apart, edge to
  // edge; with a 2 cm David base the gaps are whole centimetres, which pins the band boundaries.
  const DuelGame game;
  auto at_gap = [&](double gap_cm) { return position(game, 15, 28 - 3.25 - gap_cm, 15, 28); };
  EXPECT_EQ(game.shooting_capability(at_gap(16.5), kDavid), 2);
  EXPECT_EQ(game.shooting_capability(at_gap(14.5), kDavid), 3);
  EXPECT_EQ(game.shooting_capability(at_gap(4.5), kDavid), 5);
  EXPECT_EQ(game.shooting_capability(at_gap(4.5), kGoliath), 2);
  EXPECT_EQ(game.shooting_capability(at_gap(5.5), kGoliath), 1);
  EXPECT_EQ(game.shooting_capability(at_gap(10.5), kGoliath), 0);
  EXPECT_EQ(game.shooting_capability(at_gap(23.5), kDavid), 1);
  DuelRules rules;
  rules.david_base_mm = 20;
  const DuelGame exact(rules);
  auto exact_gap = [&](double gap_cm) { return position(exact, 15, 28 - 3 - gap_cm, 15, 28); };
  EXPECT_EQ(exact.shooting_capability(exact_gap(16), kDavid), 2);  // the rules' own example
  EXPECT_EQ(exact.shooting_capability(exact_gap(15), kDavid), 2);  // exactly three full bands
  EXPECT_EQ(exact.shooting_capability(exact_gap(14), kDavid), 3);
  EXPECT_EQ(exact.shooting_capability(exact_gap(5), kGoliath), 1);
  EXPECT_EQ(exact.shooting_capability(exact_gap(4), kGoliath), 2);
}

TEST(DuelShoot, ShootingNeedsAStoneAndCapabilityAtLeastOne) {
  const DuelGame game;
  DuelState near = position(game, 15, 10.25, 15, 28);
  EXPECT_FALSE(has_action(game, near, act::kShoot));  // no stone
  near.flags |= kDavidHasStone;
  EXPECT_TRUE(has_action(game, near, act::kShoot));
  EXPECT_FALSE(has_action(game, near, act::kSearch));  // David carries at most one stone
  // 25 cm apart (edge): capability 5 - 5 = 0, so no shot.
  DuelGame wide([] {
    DuelRules r;
    r.board_cm = 40;
    return r;
  }());
  DuelState far = position(wide, 20, 1.25, 20, 38);
  far.flags |= kDavidHasStone;
  ASSERT_GE(wide.edge_distance_cm(far), 25.0);
  EXPECT_FALSE(has_action(wide, far, act::kShoot));
}

TEST(DuelShoot, AStoneFromTwelveCentimetresDazesAShieldedGoliathOneTimeInNine) {
  DuelRules rules;
  rules.god_enabled = false;
  rules.david_base_mm = 20;  // whole-centimetre gaps (see CapabilityDropsOnePerFullFiveCentimetres)
  const DuelGame game(rules);
  DuelState s = position(game, 15, 28 - 3 - 12, 15, 28, kDavid, kDavidHasStone);
  ASSERT_EQ(game.shooting_capability(s, kDavid), 3);
  game.apply_action(s, act::kShoot);
  EXPECT_FALSE(s.has(kDavidHasStone));  // the stone is used up when thrown
  const double p = probability(
      game, s, [](const DuelState& t) { return turn_over(t, kDavid); },
      [](const DuelState& t) { return t.has(kGoliathDazed); });
  EXPECT_NEAR(p, 3.0 / 6 * 2.0 / 6 * 4.0 / 6, 1e-12);
  // Two-handed, the protection is 3: damage on 4-6.
  DuelState t = position(game, 15, 28 - 3 - 12, 15, 28, kDavid, kDavidHasStone);
  t.flags &= static_cast<std::uint8_t>(~kGoliathShield);
  game.apply_action(t, act::kShoot);
  EXPECT_NEAR(probability(
                  game, t, [](const DuelState& u) { return turn_over(u, kDavid); },
                  [](const DuelState& u) { return u.has(kGoliathDazed); }),
              3.0 / 6 * 3.0 / 6 * 4.0 / 6, 1e-12);
}

TEST(DuelShoot, AStoneDazedGoliathLosesHisNextTurn) {
  const DuelGame game = game_without_god();
  DuelState s = position(game, 15, 16.25, 15, 28, kDavid, kDavidHasStone);
  game.apply_action(s, act::kShoot);
  roll(game, s, 1);  // hit
  roll(game, s, 6);  // damage
  roll(game, s, 2);  // dazed
  EXPECT_TRUE(s.has(kGoliathDazed));
  EXPECT_EQ(s.phase, Phase::kDeclare);
  EXPECT_EQ(s.actor, kDavid);  // David acts again: Goliath's turn was spent on the daze
  EXPECT_FALSE(s.has(kGoliathSkipsTurn));
  // After David's next action Goliath's turn comes, and he can only try to recover.
  game.apply_action(s, act::kSearch);
  roll(game, s, 1);
  EXPECT_EQ(s.actor, kGoliath);
  ActionList<DuelGame> actions;
  game.legal_actions(s, actions);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0], act::kRecover);
}

TEST(DuelShoot, AbsorbedOrBlockedStonesHaveNoEffect) {
  const DuelGame game = game_without_god();
  DuelState s = position(game, 15, 16.25, 15, 28, kDavid, kDavidHasStone);
  game.apply_action(s, act::kShoot);
  roll(game, s, 1);
  roll(game, s, 4);  // not more than the shield's protection 4
  EXPECT_FALSE(s.has(kGoliathDazed));
  EXPECT_EQ(s.actor, kGoliath);
  DuelState t = position(game, 15, 16.25, 15, 28, kDavid, kDavidHasStone);
  game.apply_action(t, act::kShoot);
  roll(game, t, 1);
  roll(game, t, 5);
  roll(game, t, 5);  // absorbed on 5-6
  EXPECT_FALSE(t.has(kGoliathDazed));
}

// --- Searching -------------------------------------------------------------------------------

TEST(DuelSearch, AStoneIsFoundOnThreeToSix) {
  const DuelGame game = game_without_god();
  DuelState s = position(game, 15, 1.25, 15, 28);
  game.apply_action(s, act::kSearch);
  EXPECT_NEAR(probability(
                  game, s, [](const DuelState& t) { return turn_over(t, kDavid); },
                  [](const DuelState& t) { return t.has(kDavidHasStone); }),
              4.0 / 6, 1e-12);
}

// --- Goliath's javelin and khopesh -----------------------------------------------------------

TEST(DuelJavelin, AHitKillsDavidAndTheJavelinIsThrownOnce) {
  const DuelGame game = game_without_god();
  DuelState s = position(game, 15, 28 - 3.25 - 4.5, 15, 28, kGoliath);
  ASSERT_EQ(game.shooting_capability(s, kGoliath), 2);
  EXPECT_TRUE(has_action(game, s, act::kShoot));
  game.apply_action(s, act::kShoot);
  EXPECT_FALSE(s.has(kGoliathJavelin));
  EXPECT_NEAR(probability(
                  game, s, [](const DuelState& t) { return turn_over(t, kGoliath); },
                  [](const DuelState& t) { return t.end == EndReason::kJavelin; }),
              2.0 / 6, 1e-12);
  DuelState miss = s;
  roll(game, miss, 3);
  ASSERT_EQ(miss.actor, kDavid);
  miss.actor = kGoliath;
  EXPECT_FALSE(has_action(game, miss, act::kShoot));
}

TEST(DuelKhopesh, DroppingTheShieldTakesTheTurnAndLosesAnUnusedJavelin) {
  const DuelGame game;
  DuelState s = position(game, 15, 1.25, 15, 28, kGoliath);
  EXPECT_EQ(game.protection(s), 4);
  EXPECT_EQ(game.combat_value(s, kGoliath), 5);
  game.apply_action(s, act::kDropShield);
  EXPECT_EQ(s.actor, kDavid);
  EXPECT_FALSE(s.has(kGoliathShield));
  EXPECT_FALSE(s.has(kGoliathJavelin));
  EXPECT_EQ(game.protection(s), 3);
  EXPECT_EQ(game.combat_value(s, kGoliath), 6);
  EXPECT_EQ(game.move_base(s, kGoliath), 9);
  s.actor = kGoliath;
  EXPECT_FALSE(has_action(game, s, act::kDropShield));  // once done it cannot change again
}

// --- Melee -----------------------------------------------------------------------------------

TEST(DuelMelee, EachSideAddsItsCombatValueToADie) {
  const DuelGame game = game_without_god();
  DuelState s = position(game, 15, 10.25, 15, 14);
  game.apply_action(s, act::kFight);
  const auto stop = [](const DuelState& t) {
    return t.phase == Phase::kTerminal || t.phase == Phase::kTieFlee || t.actor == kGoliath;
  };
  // David 2 + d6 against Goliath 5 + d6: David wins on a difference of 4 or more (3/36), ties on
  // exactly 3 (3/36) and dies otherwise (30/36).
  EXPECT_NEAR(probability(game, s, stop, [](const DuelState& t) { return t.has(kGoliathDazed); }),
              3.0 / 36, 1e-12);
  EXPECT_NEAR(
      probability(game, s, stop, [](const DuelState& t) { return t.phase == Phase::kTieFlee; }),
      3.0 / 36, 1e-12);
  EXPECT_NEAR(
      probability(game, s, stop, [](const DuelState& t) { return t.end == EndReason::kMelee; }),
      30.0 / 36, 1e-12);
}

TEST(DuelMelee, ATieLetsDavidFleeAtOnceWithoutTheTest) {
  const DuelGame game = game_without_god();
  DuelState s = position(game, 15, 10.25, 15, 14, kGoliath);
  game.apply_action(s, act::kFight);
  game.apply_chance(s, act::dice_pair(4, 1));  // 6 against 6
  ASSERT_EQ(s.phase, Phase::kTieFlee);
  EXPECT_EQ(game.current_player(s), kDavid);
  DuelState stay = s;
  game.apply_action(stay, act::kTieStay);
  EXPECT_EQ(stay.actor, kDavid);  // Goliath's turn is over
  game.apply_action(s, act::kTieFlee);
  EXPECT_EQ(s.roll, Roll::kFleeMove);  // straight to the movement roll
  DuelState slip = s;
  roll(game, slip, 6);
  EXPECT_EQ(slip.phase, Phase::kDeclare);  // a 6: he cannot move
  roll(game, s, 2);
  EXPECT_EQ(s.phase, Phase::kDestination);
  EXPECT_EQ(s.allowance_cm, 10);
  EXPECT_EQ(game.current_player(s), kDavid);
}

TEST(DuelMelee, LosingTheMeleeDazesGoliathWhoCanOnlyRecover) {
  const DuelGame game = game_without_god();
  DuelState s = position(game, 15, 10.25, 15, 14);
  game.apply_action(s, act::kFight);
  game.apply_chance(s, act::dice_pair(6, 1));  // 8 against 6
  EXPECT_TRUE(s.has(kGoliathDazed));
  EXPECT_FALSE(s.has(kGoliathSkipsTurn));  // unlike a stone, the melee costs no extra turn
  EXPECT_EQ(s.actor, kGoliath);
  ActionList<DuelGame> actions;
  game.legal_actions(s, actions);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0], act::kRecover);
}

// --- Fleeing, beheading, recovering ----------------------------------------------------------

TEST(DuelFlee, FiveOrSixEscapesThenTheMovementRoll) {
  const DuelGame game = game_without_god();
  DuelState s = position(game, 15, 10.25, 15, 14);
  game.apply_action(s, act::kFlee);
  DuelState fail = s;
  roll(game, fail, 4);
  EXPECT_EQ(fail.actor, kGoliath);
  EXPECT_EQ(fail.david_y, s.david_y);
  roll(game, s, 5);
  EXPECT_EQ(s.roll, Roll::kFleeMove);
  DuelState slip = s;
  roll(game, slip, 6);
  EXPECT_EQ(slip.actor, kGoliath);  // slips and stays
  roll(game, s, 3);
  EXPECT_EQ(s.allowance_cm, 9);
  EXPECT_NEAR(
      probability(
          game, position(game, 15, 10.25, 15, 14),
          [](const DuelState& t) { return t.phase == Phase::kDestination || turn_over(t, kDavid); },
          [](const DuelState& t) { return t.phase == Phase::kDestination; },
          [](const DuelState& t) {
            return t.phase == Phase::kDeclare ? act::kFlee : act::kAccept;
          }),
      2.0 / 6 * 5.0 / 6, 1e-12);
}

TEST(DuelBehead, GoliathStillDazedWhenDavidsNextTurnComesIsBeheaded) {
  const DuelGame game = game_without_god();
  DuelState s = position(game, 15, 10.25, 15, 14, kDavid, kGoliathDazed);
  EXPECT_TRUE(has_action(game, s, act::kBehead));
  game.apply_action(s, act::kBehead);
  EXPECT_EQ(s.actor, kGoliath);
  DuelState recovered = s;
  game.apply_action(s, act::kRecover);
  roll(game, s, 4);  // fails to recover
  EXPECT_EQ(s.phase, Phase::kTerminal);
  EXPECT_EQ(s.winner, kDavid);
  EXPECT_EQ(s.end, EndReason::kBeheaded);
  game.apply_action(recovered, act::kRecover);
  roll(game, recovered, 5);
  EXPECT_EQ(recovered.phase, Phase::kDeclare);  // recovered in time: the beheading fails
  EXPECT_EQ(recovered.actor, kDavid);
  EXPECT_FALSE(recovered.has(kBeheadPending));
  EXPECT_FALSE(recovered.has(kGoliathDazed));
}

TEST(DuelBehead, NeedsContactWithADazedGoliath) {
  const DuelGame game;
  EXPECT_FALSE(has_action(game, position(game, 15, 10.25, 15, 14), act::kBehead));
  EXPECT_FALSE(
      has_action(game, position(game, 15, 1.25, 15, 28, kDavid, kGoliathDazed), act::kBehead));
}

TEST(DuelRecover, FiveOrSixRecoversAndThenDavidActs) {
  const DuelGame game = game_without_god();
  DuelState s = position(game, 15, 1.25, 15, 28, kGoliath, kGoliathDazed);
  game.apply_action(s, act::kRecover);
  EXPECT_NEAR(probability(
                  game, s, [](const DuelState& t) { return turn_over(t, kGoliath); },
                  [](const DuelState& t) { return !t.has(kGoliathDazed); }),
              2.0 / 6, 1e-12);
  roll(game, s, 6);
  EXPECT_EQ(s.actor, kDavid);
}

// --- Invoking God ----------------------------------------------------------------------------

TEST(DuelGod, OfferedAfterEveryRollOfEitherSideWhileUnused) {
  const DuelGame game;
  DuelState s = game.initial_state();
  game.apply_chance(s, act::dice_pair(2, 5));
  ASSERT_EQ(s.phase, Phase::kGod);  // after the initiative dice
  EXPECT_EQ(game.current_player(s), kDavid);
  EXPECT_EQ(s.dice[0], 2);
  EXPECT_EQ(s.dice[1], 5);
  game.apply_action(s, act::kAccept);
  EXPECT_EQ(s.actor, kGoliath);
  EXPECT_THROW(game.apply_action(s, act::kShoot), IllegalActionError);  // javelin out of range
  game.apply_action(s, act::kMove);
  game.apply_chance(s, 3);
  EXPECT_EQ(s.phase, Phase::kGod);  // after Goliath's movement die as well
}

TEST(DuelGod, OfferedAfterGoliathsRollsToo) {
  const DuelGame game;
  DuelState s = position(game, 15, 10.25, 15, 14, kGoliath, kGodAvailable);
  game.apply_action(s, act::kShoot);
  game.apply_chance(s, 1);  // the javelin hits...
  ASSERT_EQ(s.phase, Phase::kGod);
  DuelState accepted = s;
  game.apply_action(accepted, act::kAccept);
  EXPECT_EQ(accepted.winner, kGoliath);
  game.apply_action(s, act::kRerollFirst);  // ...unless David invokes God
  EXPECT_FALSE(s.has(kGodAvailable));
  ASSERT_EQ(s.phase, Phase::kRoll);
  game.apply_chance(s, 5);  // the re-roll stands, with no second chance
  EXPECT_EQ(s.phase, Phase::kDeclare);
  EXPECT_EQ(s.actor, kDavid);
}

TEST(DuelGod, InAMeleeDavidMayRerollEitherDie) {
  const DuelGame game;
  DuelState s = position(game, 15, 10.25, 15, 14, kDavid);
  game.apply_action(s, act::kFight);
  game.apply_chance(s, act::dice_pair(1, 6));
  ASSERT_EQ(s.phase, Phase::kGod);
  ActionList<DuelGame> actions;
  game.legal_actions(s, actions);
  EXPECT_EQ(actions.size(), 3u);
  DuelState own = s;
  game.apply_action(own, act::kRerollFirst);
  game.apply_chance(own, 6);  // 8 against 11: still lost
  EXPECT_EQ(own.end, EndReason::kMelee);
  game.apply_action(s, act::kRerollSecond);
  game.apply_chance(s, 1);  // 3 against 6: lost anyway, but with Goliath's die re-rolled
  EXPECT_EQ(s.end, EndReason::kMelee);
  DuelState win = position(game, 15, 10.25, 15, 14, kDavid);
  game.apply_action(win, act::kFight);
  game.apply_chance(win, act::dice_pair(6, 6));
  game.apply_action(win, act::kRerollSecond);
  game.apply_chance(win, 1);  // 8 against 6
  EXPECT_TRUE(win.has(kGoliathDazed));
}

TEST(DuelGod, OnceUsedItIsNeverOfferedAgain) {
  const DuelGame game;
  DuelState s = position(game, 15, 1.25, 15, 28, kDavid, kGodAvailable);
  game.apply_action(s, act::kSearch);
  game.apply_chance(s, 1);
  game.apply_action(s, act::kRerollFirst);
  game.apply_chance(s, 2);
  EXPECT_EQ(s.actor, kGoliath);
  game.apply_action(s, act::kMove);
  game.apply_chance(s, 3);
  EXPECT_EQ(s.phase, Phase::kDestination);  // no God decision any more
}

TEST(DuelGod, GodImprovesDavidsChancesOnASearch) {
  // With God, David re-rolls a failed search: 4/6 + 2/6 * 4/6.
  const DuelGame game;
  DuelState s = position(game, 15, 1.25, 15, 28, kDavid, kGodAvailable);
  game.apply_action(s, act::kSearch);
  const double p = probability(
      game, s, [](const DuelState& t) { return turn_over(t, kDavid); },
      [](const DuelState& t) { return t.has(kDavidHasStone); },
      [](const DuelState& t) { return t.dice[0] <= 2 ? act::kRerollFirst : act::kAccept; });
  EXPECT_NEAR(p, 4.0 / 6 + 2.0 / 6 * 4.0 / 6, 1e-12);
}

TEST(DuelGod, DisabledByTheRulesFile) {
  const DuelGame game = game_without_god();
  EXPECT_FALSE(game.initial_state().has(kGodAvailable));
}

// --- Turn cap, rules file, text --------------------------------------------------------------

TEST(DuelTurnCap, OffByDefaultAndADrawWhenReached) {
  DuelRules rules;
  EXPECT_EQ(rules.turn_cap, 0);
  rules.turn_cap = 3;
  rules.god_enabled = false;
  const DuelGame game(rules);
  EXPECT_TRUE(game.info().has_draws);
  DuelState s = game.initial_state();
  game.apply_chance(s, act::dice_pair(6, 1));
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(s.phase, Phase::kDeclare);
    game.apply_action(s, act::kMove);
    game.apply_chance(s, s.actor == kDavid ? 6 : 5);
    if (s.phase == Phase::kDestination) {
      ActionList<DuelGame> a;
      game.legal_actions(s, a);
      game.apply_action(s, a[0]);
    }
  }
  EXPECT_EQ(s.phase, Phase::kTerminal);
  EXPECT_EQ(s.end, EndReason::kTurnCap);
  EXPECT_EQ(game.returns(s)[0], 0.0);
}

TEST(DuelRulesFile, DefaultsMatchTheDocumentedChart) {
  const DuelRules r;
  EXPECT_EQ(r.david_shooting, 5);
  EXPECT_EQ(r.goliath_shooting, 2);
  EXPECT_EQ(r.protection_shield, 4);
  EXPECT_EQ(r.protection_two_handed, 3);
  EXPECT_EQ(r.combat_david, 2);
  EXPECT_EQ(r.combat_goliath_shield, 5);
  EXPECT_EQ(r.combat_goliath_two_handed, 6);
  EXPECT_EQ(rules_from_json(rules_to_json(r)), r);
}

TEST(DuelRulesFile, UnknownKeysMalformedJsonAndOutOfRangeValuesAreRejected) {
  auto message = [](const std::string& text) {
    try {
      rules_from_json(text);
    } catch (const RulesError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message(R"({"david_shootin": 4})").find("david_shootin"), std::string::npos);
  EXPECT_NE(message(R"({"pitch_cm": 0})").find("pitch_cm"), std::string::npos);
  EXPECT_NE(message(R"({"david_move": 40})").find("david_move"), std::string::npos);
  EXPECT_NE(message(R"({"god_enabled": "yes"})").find("god_enabled"), std::string::npos);
  EXPECT_NE(message("{\"pitch_cm\": ").find("malformed"), std::string::npos);
  EXPECT_EQ(rules_from_json(R"({"pitch_cm": 2})").pitch_cm, 2);
  // The turn counter is 16 bits and saturates, so a larger cap could never be reached.
  EXPECT_EQ(rules_from_json(R"({"turn_cap": 65535})").turn_cap, 65535);
  EXPECT_NE(message(R"({"turn_cap": 65536})").find("turn_cap"), std::string::npos);
}

TEST(DuelText, ActionsPrintAndParseAndIllegalTextIsRejected) {
  const DuelGame game = game_without_god();
  DuelState s = position(game, 15, 1.25, 15, 28);
  EXPECT_EQ(game.parse_action(s, " Search "), act::kSearch);
  EXPECT_THROW(game.parse_action(s, "dance"), ParseError);
  DuelState t = s;
  EXPECT_THROW(game.apply_action(t, game.parse_action(s, "behead")), IllegalActionError);
  EXPECT_EQ(t, s);  // a rejected action changes nothing
  game.apply_action(s, act::kMove);
  roll(game, s, 2);
  const Action a = game.parse_action(s, "to 15 9.25");
  EXPECT_EQ(game.action_to_string(s, a), "to 15 9.25");
  game.apply_action(s, a);
  EXPECT_THROW(game.parse_action(s, "to 15 9.3"), ParseError);
}

TEST(DuelText, BoardTextShowsFiguresAndStatus) {
  const DuelGame game;
  const std::string text = game.state_to_string(position(game, 15, 1.25, 15, 28));
  EXPECT_NE(text.find('D'), std::string::npos);
  EXPECT_NE(text.find('G'), std::string::npos);
  EXPECT_NE(text.find("God available"), std::string::npos);
  EXPECT_NE(text.find("javelin ready"), std::string::npos);
}

TEST(DuelState, IsASixteenByteValue) {
  EXPECT_LE(sizeof(DuelState), 64u);
  EXPECT_TRUE(std::is_trivially_copyable_v<DuelState>);
}

TEST(DuelRecord, CorruptedSaveIsAClearError) {
  const DuelGame game;
  GameRecord record{"duel", game.rules_json(), 1, {act::dice_pair(3, 2), act::kAccept, 99}};
  EXPECT_THROW(replay(game, record), IllegalActionError);
  record.history = {act::dice_pair(3, 2), act::kAccept, act::kSearch};
  EXPECT_NO_THROW(replay(game, record));
  record.game = "pig";
  EXPECT_THROW(replay(game, record), FileFormatError);
}

}  // namespace
}  // namespace sling::duel

namespace sling::testing {
template <>
struct ConformanceTraits<duel::DuelGame> {
  static constexpr int kPlayouts = 300;
  static constexpr int kMaxPlies = 200000;
};
INSTANTIATE_TYPED_TEST_SUITE_P(Duel, Conformance, ::testing::Types<duel::DuelGame>);

// The same suite under rule variants that change what a game can reach: no God decisions at all, a
// turn cap (draws), and a coarse lattice (other movement discs and contact distances).
struct DuelWithoutGod {
  using Game = duel::DuelGame;
  static Game make() { return Game::from_rules_json(R"({"god_enabled": false})"); }
  static constexpr int kPlayouts = 100;
};
struct DuelWithTurnCap {
  using Game = duel::DuelGame;
  static Game make() { return Game::from_rules_json(R"({"turn_cap": 12})"); }
  static constexpr int kPlayouts = 200;
};
struct DuelAtThreeCentimetres {
  using Game = duel::DuelGame;
  static Game make() { return Game::from_rules_json(R"({"pitch_cm": 3})"); }
  static constexpr int kPlayouts = 100;
};
using DuelVariantTypes = ::testing::Types<DuelWithoutGod, DuelWithTurnCap, DuelAtThreeCentimetres>;
INSTANTIATE_TYPED_TEST_SUITE_P(DuelVariants, Conformance, DuelVariantTypes);
}  // namespace sling::testing

namespace sling::duel {
namespace {

TEST(DuelSearchHooks, UncheckedApplyAndChanceSamplerAgreeWithTheCheckedOnes) {
  const DuelGame game;
  Rng rng(17, 0);
  int two_dice_draws = 0, counts[36] = {};
  for (int g = 0; g < 400; ++g) {
    DuelState s = game.initial_state();
    while (!game.is_terminal(s)) {
      DuelState checked = s, unchecked = s;
      Action a;
      if (game.current_player(s) == kChancePlayer) {
        a = game.sample_chance_outcome(s, rng);
        ChanceList<DuelGame> outcomes;
        game.chance_outcomes(s, outcomes);
        ASSERT_TRUE(std::any_of(outcomes.begin(), outcomes.end(),
                                [&](const ChanceOutcome& o) { return o.outcome == a; }));
        if (outcomes.size() == 36) ++counts[(a % 8 - 1) + 6 * (a / 8 - 1)], ++two_dice_draws;
        game.apply_chance(checked, a);
      } else {
        a = sample_uniform_action(game, s, rng);
        game.apply_action(checked, a);
      }
      game.apply_unchecked(unchecked, a);
      ASSERT_EQ(checked, unchecked);
      s = checked;
    }
  }
  // Every pair of faces turns up (the sampler covers all 36 outcomes).
  ASSERT_GT(two_dice_draws, 500);
  for (int c : counts) EXPECT_GT(c, 0);
}

// The game's random playout (HasRandomPlayout) must be the generic loop, written out here with
// the checked rules: the same final state and the same number of draws, from every phase, with
// and without a ply limit, and the rollouts that use it must score the same.
TEST(DuelSearchHooks, TheRandomPlayoutIsTheGenericLoopWithTheSameDraws) {
  const DuelGame game;
  Rng walk(57, 2);
  int starts = 0, terminal_ends = 0, cut_ends = 0;
  for (int g = 0; g < 60; ++g) {
    DuelState s = game.initial_state();
    for (int ply = 0; !game.is_terminal(s); ++ply) {
      if (ply % 7 == 0) {  // a start in whatever phase the walk is in
        for (int max_plies : {0, 1, 2, 7, 40}) {
          Rng generic(g, static_cast<std::uint64_t>(ply * 8 + max_plies));
          Rng fused = generic;
          DuelState expected = s;
          for (int p = 0; (max_plies == 0 || p < max_plies) && !game.is_terminal(expected); ++p) {
            if (game.current_player(expected) == kChancePlayer) {
              game.apply_chance(expected, game.sample_chance_outcome(expected, generic));
            } else {
              game.apply_action(expected, game.sample_legal_action(expected, generic));
            }
          }
          ASSERT_EQ(game.random_playout(s, max_plies, fused), expected) << g << " " << ply;
          ASSERT_EQ(fused.next(), generic.next());  // the same number of draws
          (game.is_terminal(expected) ? terminal_ends : cut_ends) += 1;
          ++starts;
        }
      }
      if (game.current_player(s) == kChancePlayer) {
        game.apply_chance(s, game.sample_chance_outcome(s, walk));
      } else {
        game.apply_action(s, sample_uniform_action(game, s, walk));
      }
    }
  }
  EXPECT_GT(starts, 1000);
  EXPECT_GT(terminal_ends, 100);
  EXPECT_GT(cut_ends, 100);
}

}  // namespace
}  // namespace sling::duel
