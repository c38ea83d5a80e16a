// Every danelaw rule, each pinned by a named test (docs/rules/danelaw.md cites these names).
// Positions are built by hand on the England map or on a small strip map where paths are forced.

#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "engine/core/json_options.h"
#include "engine/danelaw/danelaw.h"
#include "tests/danelaw_strip.h"

namespace sling::danelaw {
namespace {

// The strip (tests/danelaw_strip.h) as a map file.
std::string strip_map_file() {
  const std::string path =
      ::testing::TempDir() + "danelaw_rules_strip_" + std::to_string(::getpid()) + ".json";
  std::ofstream(path) << strip_map();
  return path;
}

DanelawGame strip_game() {
  DanelawRules rules;
  rules.map = strip_map_file();
  rules.field_army_towns = {"Beta"};
  rules.towns_to_win = 2;
  rules.danes_at_sea = 2;
  return DanelawGame(rules);
}

class DanelawRulesTest : public ::testing::Test {
 protected:
  const DanelawGame& england() {
    static const DanelawGame game;
    return game;
  }
  // An empty board: no armies, the given side and phase, ten armies in each pool.
  static State blank(Side side, Phase phase) {
    State s;
    s.side = side;
    s.phase = phase;
    s.pool = {10, 10};
    return s;
  }
  static void put(State& s, int hex, Side side, std::uint8_t flags = 0) {
    s.armies[s.army_count++] = Army{static_cast<std::uint16_t>(hex), side, flags};
  }
  static std::vector<Action> legal(const DanelawGame& g, const State& s) {
    ActionList<DanelawGame> list;
    g.legal_actions(s, list);
    return {list.begin(), list.end()};
  }
  static bool is_legal(const DanelawGame& g, const State& s, Action a) {
    const auto l = legal(g, s);
    return std::find(l.begin(), l.end(), a) != l.end();
  }
  static std::set<int> payloads(const DanelawGame& g, const State& s, ActionKind kind) {
    std::set<int> out;
    for (Action a : legal(g, s)) {
      if (action_kind(a) == kind) out.insert(action_payload(a));
    }
    return out;
  }
  static Action dice(int low, int high) {
    return make_action(ActionKind::kMovementDice, low * 8 + high);
  }
  // A land hex with a neighbour satisfying `pred(hex, neighbour)`; returns {hex, neighbour}.
  template <class Pred>
  std::pair<int, int> find_pair(Pred pred) {
    const HexMap& map = england().map();
    for (int h = 0; h < map.size(); ++h) {
      for (int n : map.hex(h).neighbours) {
        if (n >= 0 && pred(h, n)) return {h, n};
      }
    }
    ADD_FAILURE() << "no such pair of hexes on the England map";
    return {-1, -1};
  }
};

// ------------------------------------------------------------------------------------------------
// Deployment and turn order.

TEST_F(DanelawRulesTest, DeploymentMilitiaOnCoastalTownsFieldArmiesAtStart) {
  const DanelawGame& g = england();
  const HexMap& map = g.map();
  const State s = g.initial_state();
  std::set<int> field_hexes, militia_hexes;
  for (int i = 0; i < s.army_count; ++i) {
    const Army& a = s.armies[i];
    ASSERT_EQ(a.side, kEnglish);
    ((a.flags & kMilitia) ? militia_hexes : field_hexes).insert(a.hex);
  }
  EXPECT_EQ(field_hexes, (std::set<int>{map.find_hex("Winchester"), map.find_hex("York"),
                                        map.find_hex("Carlisle")}));
  std::set<int> coastal;
  for (const Town& t : map.towns()) {
    if (t.coastal && !field_hexes.count(t.hex)) coastal.insert(t.hex);
  }
  EXPECT_EQ(militia_hexes, coastal);  // Carlisle is coastal: its field army stands in for militia
  EXPECT_EQ(s.pool[kEnglish], 17);    // three of the twenty are in the field
  EXPECT_EQ(s.pool[kDanes], 20);
  EXPECT_EQ(s.to_place, 10);
  EXPECT_EQ(s.phase, Phase::kPlace);
  EXPECT_EQ(s.danish_towns, 0u);

  DanelawRules extra;
  extra.danes_extra = true;
  EXPECT_EQ(DanelawGame(extra).initial_state().pool[kDanes], 30);
}

TEST_F(DanelawRulesTest, DanesBeginByPlacingArmiesOnEmptySeaHexes) {
  const DanelawGame& g = england();
  State s = g.initial_state();
  for (int placed = 0; placed < 10; ++placed) {
    ASSERT_EQ(g.current_player(s), kDanes);
    const auto hexes = payloads(g, s, ActionKind::kPlace);
    int empty_sea = 0;
    for (int h = 0; h < g.map().size(); ++h) {
      empty_sea += g.map().hex(h).is_sea() && g.army_at(s, h) < 0;
    }
    ASSERT_EQ(static_cast<int>(hexes.size()), empty_sea);
    for (int h : hexes) ASSERT_TRUE(g.map().hex(h).is_sea());
    g.apply_action(s, make_action(ActionKind::kPlace, *hexes.begin()));
  }
  EXPECT_EQ(s.pool[kDanes], 10);  // the rest of the pool is in reserve
  EXPECT_EQ(s.phase, Phase::kMovementDice);
  EXPECT_EQ(s.side, kDanes);

  DanelawRules four;
  four.danes_at_sea = 4;
  EXPECT_EQ(DanelawGame(four).initial_state().to_place, 4);
}

TEST_F(DanelawRulesTest, TurnIsDanesThenEnglishAndPointsAreTheDiceTotal) {
  const DanelawGame& g = england();
  State s = blank(kDanes, Phase::kMovementDice);
  ChanceList<DanelawGame> outcomes;
  g.chance_outcomes(s, outcomes);
  ASSERT_EQ(outcomes.size(), 21u);
  double doubles = 0;
  for (const auto& o : outcomes) {
    const int p = action_payload(o.outcome);
    if (p / 8 == p % 8) doubles += o.probability;
  }
  EXPECT_NEAR(doubles, 6.0 / 36.0, 1e-12);
  g.apply_chance(s, dice(3, 5));
  EXPECT_EQ(s.points, 8);
  EXPECT_EQ(s.phase, Phase::kMove);
  g.apply_action(s, make_action(ActionKind::kEndMove));
  EXPECT_EQ(s.phase, Phase::kChooseTarget);
  g.apply_action(s, make_action(ActionKind::kEndBattles));
  EXPECT_EQ(s.side, kEnglish);
  EXPECT_EQ(s.turn, 1);
  EXPECT_EQ(s.phase, Phase::kMovementDice);
  g.apply_chance(s, dice(1, 2));
  g.apply_action(s, make_action(ActionKind::kEndMove));
  g.apply_action(s, make_action(ActionKind::kEndBattles));
  EXPECT_EQ(s.side, kDanes);
  EXPECT_EQ(s.turn, 2);
}

TEST_F(DanelawRulesTest, DanishDoubleBringsReinforcementIntoThatSector) {
  const DanelawGame& g = england();
  State s = blank(kDanes, Phase::kMovementDice);
  g.apply_chance(s, dice(2, 2));
  ASSERT_EQ(s.phase, Phase::kReinforce);
  std::set<int> sector2;
  for (int h = 0; h < g.map().size(); ++h) {
    if (g.map().hex(h).is_sea() && g.map().hex(h).sector == 2) sector2.insert(h);
  }
  EXPECT_EQ(payloads(g, s, ActionKind::kReinforce), sector2);
  g.apply_action(s, make_action(ActionKind::kReinforce, *sector2.begin()));
  EXPECT_EQ(s.pool[kDanes], 9);
  EXPECT_EQ(s.army_count, 1);
  EXPECT_EQ(s.phase, Phase::kMove);
  EXPECT_EQ(s.points, 4);

  State empty = blank(kDanes, Phase::kMovementDice);
  empty.pool[kDanes] = 0;
  g.apply_chance(empty, dice(2, 2));
  EXPECT_EQ(empty.phase, Phase::kMove);  // nothing left to come
}

TEST_F(DanelawRulesTest, EnglishReinforceOnlyOnDoubleFiveOrSixAtHeldEmptyFieldTowns) {
  const DanelawGame& g = england();
  const HexMap& map = g.map();
  State s = blank(kEnglish, Phase::kMovementDice);
  put(s, map.find_hex("Carlisle"), kEnglish);                   // occupied
  s.danish_towns |= std::uint64_t{1} << map.find_town("York");  // held by the Danes
  State four = s;
  g.apply_chance(four, dice(4, 4));
  EXPECT_EQ(four.phase, Phase::kMove);
  for (int d : {5, 6}) {
    State t = s;
    g.apply_chance(t, dice(d, d));
    ASSERT_EQ(t.phase, Phase::kReinforce);
    EXPECT_EQ(payloads(g, t, ActionKind::kReinforce), std::set<int>{map.find_hex("Winchester")});
  }
  State none = s;
  put(none, map.find_hex("Winchester"), kEnglish);
  g.apply_chance(none, dice(6, 6));
  EXPECT_EQ(none.phase, Phase::kMove);
}

// ------------------------------------------------------------------------------------------------
// Movement.

TEST_F(DanelawRulesTest, MoveChargesTheCheapestPathAndUnspentPointsAreLost) {
  const DanelawGame g = strip_game();
  const HexMap& map = g.map();
  State s = blank(kEnglish, Phase::kMove);
  s.points = 12;
  put(s, map.find(5, 1), kEnglish);
  EXPECT_EQ(payloads(g, s, ActionKind::kSelect), std::set<int>{map.find(5, 1)});
  g.apply_action(s, make_action(ActionKind::kSelect, map.find(5, 1)));
  // Forest 6 + plain 3 = 9 to Beta; wetland 4; Beta to the hills beyond would be 14.
  std::set<int> expected{map.find(4, 1), map.find(3, 1), map.find(6, 1)};
  EXPECT_EQ(payloads(g, s, ActionKind::kMoveTo), expected);
  g.apply_action(s, make_action(ActionKind::kMoveTo, map.find(3, 1)));
  EXPECT_EQ(s.points, 3);
  EXPECT_EQ(s.armies[0].hex, map.find(3, 1));
  EXPECT_EQ(s.phase, Phase::kMove);
  g.apply_action(s, make_action(ActionKind::kEndMove));
  EXPECT_EQ(s.points, 0);  // lost, not carried
  g.apply_action(s, make_action(ActionKind::kEndBattles));
  g.apply_chance(s, dice(1, 3));
  EXPECT_EQ(s.points, 4);
}

TEST_F(DanelawRulesTest, ArmiesPassThroughFriendsButNeverEndTogetherOrCrossEnemies) {
  const DanelawGame g = strip_game();
  const HexMap& map = g.map();
  State s = blank(kEnglish, Phase::kMoveDestination);
  s.points = 12;
  s.selected = static_cast<std::uint16_t>(map.find(5, 1));
  put(s, map.find(5, 1), kEnglish);
  put(s, map.find(4, 1), kEnglish);  // a friend in the forest: pass through, not stop
  EXPECT_EQ(payloads(g, s, ActionKind::kMoveTo), (std::set<int>{map.find(3, 1), map.find(6, 1)}));
  s.armies[1].side = kDanes;  // an enemy there: no way past
  EXPECT_EQ(payloads(g, s, ActionKind::kMoveTo), std::set<int>{map.find(6, 1)});
}

TEST_F(DanelawRulesTest, EnteringATownTakesControlUntilTheEnemyEnters) {
  const DanelawGame g = strip_game();
  const HexMap& map = g.map();
  const int beta = map.find_town("Beta");
  State s = blank(kDanes, Phase::kMoveDestination);
  s.points = 12;
  s.selected = static_cast<std::uint16_t>(map.find(3, 0));
  put(s, map.find(3, 0), kDanes);
  g.apply_action(s, make_action(ActionKind::kMoveTo, map.find(3, 1)));  // landing: 2 + 1
  EXPECT_EQ(s.points, 9);
  EXPECT_TRUE(g.town_held_by_danes(s, beta));
  // Leaving does not give the town back.
  g.apply_action(s, make_action(ActionKind::kSelect, map.find(3, 1)));
  g.apply_action(s, make_action(ActionKind::kMoveTo, map.find(3, 0)));
  EXPECT_TRUE(g.town_held_by_danes(s, beta));
  EXPECT_EQ(g.danish_town_count(s), 1);
  // An English army entering takes it back.
  State e = blank(kEnglish, Phase::kMoveDestination);
  e.danish_towns = s.danish_towns;
  e.points = 12;
  e.selected = static_cast<std::uint16_t>(map.find(5, 1));
  put(e, map.find(5, 1), kEnglish);
  g.apply_action(e, make_action(ActionKind::kMoveTo, map.find(3, 1)));
  EXPECT_FALSE(g.town_held_by_danes(e, beta));
}

TEST_F(DanelawRulesTest, MilitiaNeverMove) {
  const DanelawGame& g = england();
  State s = blank(kEnglish, Phase::kMove);
  s.points = 12;
  const int london = g.map().find_hex("London");
  const int york = g.map().find_hex("York");
  put(s, london, kEnglish, kMilitia);
  put(s, york, kEnglish);
  EXPECT_EQ(payloads(g, s, ActionKind::kSelect), std::set<int>{york});
}

// ------------------------------------------------------------------------------------------------
// Battles.

TEST_F(DanelawRulesTest, TargetsAreAdjacentEnemiesAndArmiesAtSeaCannotBeAttacked) {
  const DanelawGame& g = england();
  const HexMap& map = g.map();
  const int london = map.find_hex("London");
  int sea = -1;
  for (int n : map.hex(london).neighbours) {
    if (n >= 0 && map.hex(n).is_sea()) sea = n;
  }
  ASSERT_GE(sea, 0);
  State danes = blank(kDanes, Phase::kChooseTarget);
  put(danes, london, kEnglish, kMilitia);
  put(danes, sea, kDanes);
  EXPECT_EQ(payloads(g, danes, ActionKind::kAttack), std::set<int>{london});  // from the sea
  State english = danes;
  english.side = kEnglish;
  EXPECT_TRUE(payloads(g, english, ActionKind::kAttack).empty());
  // An army that has rolled this turn cannot start another attack.
  danes.armies[1].flags |= kRolled;
  EXPECT_TRUE(payloads(g, danes, ActionKind::kAttack).empty());
}

TEST_F(DanelawRulesTest, BattleModifiersForTerrainTownRiverAndDanes) {
  const DanelawGame& g = england();
  const HexMap& map = g.map();
  auto modifier = [&](int roller, Side attacker, int target, Side defender) {
    State s = blank(attacker, Phase::kChooseTarget);
    put(s, roller, attacker);
    put(s, target, defender);
    return g.battle_modifier(s, roller, target);
  };
  auto plain_open = [&](int h) {
    return map.hex(h).terrain == Terrain::kPlain && map.hex(h).town < 0;
  };
  const auto [a, b] = find_pair(
      [&](int h, int n) { return plain_open(h) && plain_open(n) && !map.river_between(h, n); });
  EXPECT_EQ(modifier(a, kEnglish, b, kDanes), 0);
  EXPECT_EQ(modifier(a, kDanes, b, kEnglish), 1);
  const auto [c, d] = find_pair(
      [&](int h, int n) { return plain_open(h) && plain_open(n) && map.river_between(h, n); });
  EXPECT_EQ(modifier(c, kEnglish, d, kDanes), -1);
  for (Terrain t : {Terrain::kHills, Terrain::kForest}) {
    const auto [e, f] = find_pair([&](int h, int n) {
      return plain_open(h) && map.hex(n).terrain == t && map.hex(n).town < 0 &&
             !map.river_between(h, n);
    });
    EXPECT_EQ(modifier(e, kEnglish, f, kDanes), -2);
    EXPECT_EQ(modifier(e, kDanes, f, kEnglish), -1);
  }
  const auto [w, x] = find_pair([&](int h, int n) {
    return plain_open(h) && map.hex(n).terrain == Terrain::kWetland && map.hex(n).town < 0 &&
           !map.river_between(h, n);
  });
  EXPECT_EQ(modifier(w, kDanes, x, kEnglish), -1);  // English in wetland: -2, Danes +1
  EXPECT_EQ(modifier(w, kEnglish, x, kDanes), 0);   // Danes in wetland: no modifier
  const auto [y, town] = find_pair([&](int h, int n) {
    return plain_open(h) && map.hex(n).terrain == Terrain::kPlain && map.hex(n).town >= 0 &&
           !map.river_between(h, n);
  });
  EXPECT_EQ(modifier(y, kEnglish, town, kDanes), -2);
  EXPECT_TRUE(g.defender_in_open(b));
  EXPECT_FALSE(g.defender_in_open(town));
}

// Sets up one attacker next to one defender, attacks, rolls, and returns the probability of each
// outcome class by applying every chance outcome of the battle roll.
struct BattleOutcome {
  double defender_destroyed = 0, defender_routs = 0, stand_off = 0, attacker_routs = 0,
         attacker_destroyed = 0;
};

BattleOutcome battle(const DanelawGame& g, int roller, Side attacker, int target, Side defender,
                     std::uint8_t defender_flags = 0) {
  State s;
  s.side = attacker;
  s.phase = Phase::kChooseTarget;
  s.pool = {5, 5};
  s.armies[0] = Army{static_cast<std::uint16_t>(roller), attacker, 0};
  s.armies[1] = Army{static_cast<std::uint16_t>(target), defender, defender_flags};
  s.army_count = 2;
  g.apply_action(s, make_action(ActionKind::kAttack, target));
  g.apply_action(s, make_action(ActionKind::kRoll, roller));
  ChanceList<DanelawGame> outcomes;
  g.chance_outcomes(s, outcomes);
  BattleOutcome result;
  for (const ChanceOutcome& o : outcomes) {
    State t = s;
    g.apply_chance(t, o.outcome);
    const bool roller_alive = g.army_at(t, roller) >= 0;
    const bool defender_alive = g.army_at(t, target) >= 0;
    if (t.phase == Phase::kRoutDice && t.rout_hex == target) {
      result.defender_routs += o.probability;
    } else if (t.phase == Phase::kRoutDice && t.rout_hex == roller) {
      result.attacker_routs += o.probability;
    } else if (!defender_alive) {
      result.defender_destroyed += o.probability;
    } else if (!roller_alive) {
      result.attacker_destroyed += o.probability;
    } else {
      result.stand_off += o.probability;
    }
  }
  return result;
}

TEST_F(DanelawRulesTest, BattleTableDanishAttackOnEnglishInForestAcrossRiverIsExact) {
  const DanelawGame& g = england();
  const HexMap& map = g.map();
  const auto [roller, forest] = find_pair([&](int h, int n) {
    return map.hex(h).terrain == Terrain::kPlain && map.hex(h).town < 0 &&
           map.hex(n).terrain == Terrain::kForest && map.hex(n).town < 0 && map.river_between(h, n);
  });
  // +1 Danes, -2 forest, -1 river: 2d6 - 2.  >= 11 needs 13: never; 9-10 is 11-12 (3/36);
  // 6-8 is 8-10 (12/36); 4-5 is 6-7 (11/36); <= 3 is 2-5 (10/36).
  const BattleOutcome o = battle(g, roller, kDanes, forest, kEnglish);
  EXPECT_NEAR(o.defender_destroyed, 0.0, 1e-12);
  EXPECT_NEAR(o.defender_routs, 3.0 / 36, 1e-12);
  EXPECT_NEAR(o.stand_off, 12.0 / 36, 1e-12);
  EXPECT_NEAR(o.attacker_routs, 11.0 / 36, 1e-12);
  EXPECT_NEAR(o.attacker_destroyed, 10.0 / 36, 1e-12);
}

TEST_F(DanelawRulesTest, BattleTableInTheOpenRollsBestTwoOfThreeDice) {
  const DanelawGame& g = england();
  const HexMap& map = g.map();
  const auto [roller, open] = find_pair([&](int h, int n) {
    return map.hex(h).terrain == Terrain::kPlain && map.hex(n).terrain == Terrain::kPlain &&
           map.hex(n).town < 0 && map.hex(h).town < 0 && !map.river_between(h, n);
  });
  // English attack, no modifier, best two of 3d6 (216 rolls): totals 2..12 occur
  // 1, 3, 7, 12, 19, 27, 34, 36, 34, 27, 16 times.
  const BattleOutcome o = battle(g, roller, kEnglish, open, kDanes);
  EXPECT_NEAR(o.defender_destroyed, (27.0 + 16) / 216, 1e-12);
  EXPECT_NEAR(o.defender_routs, (36.0 + 34) / 216, 1e-12);
  EXPECT_NEAR(o.stand_off, (19.0 + 27 + 34) / 216, 1e-12);
  EXPECT_NEAR(o.attacker_routs, (7.0 + 12) / 216, 1e-12);
  EXPECT_NEAR(o.attacker_destroyed, (1.0 + 3) / 216, 1e-12);
  const auto& p = battle_total_distribution(true);
  EXPECT_NEAR(p[9], 36.0 / 216, 1e-12);
}

TEST_F(DanelawRulesTest, MilitiaThatRoutAreDestroyed) {
  const DanelawGame& g = england();
  const HexMap& map = g.map();
  const auto [roller, town] = find_pair([&](int h, int n) {
    return map.hex(h).terrain == Terrain::kPlain && map.hex(h).town < 0 && map.hex(n).town >= 0 &&
           map.hex(n).terrain == Terrain::kPlain && !map.river_between(h, n);
  });
  // Danes +1, town -2: 2d6 - 1.  Destroyed at 12 (1/36); routed, so destroyed, at 10-11 (5/36).
  const BattleOutcome o = battle(g, roller, kDanes, town, kEnglish, kMilitia);
  EXPECT_NEAR(o.defender_destroyed, 6.0 / 36, 1e-12);
  EXPECT_NEAR(o.defender_routs, 0.0, 1e-12);
  EXPECT_NEAR(o.stand_off, 15.0 / 36, 1e-12);
  EXPECT_NEAR(o.attacker_routs, 9.0 / 36, 1e-12);
  EXPECT_NEAR(o.attacker_destroyed, 6.0 / 36, 1e-12);
}

TEST_F(DanelawRulesTest, LastRollStandsWhenRollingAgainWithAnotherArmy) {
  const DanelawGame g = strip_game();
  const HexMap& map = g.map();
  // Danes at (2,0) sea and (4,0) sea are both next to Beta (3,1); the English hold Beta.
  State s = blank(kDanes, Phase::kChooseTarget);
  const int first = map.find(3, 0), second = map.find(4, 0), beta = map.find(3, 1);
  put(s, first, kDanes);
  put(s, second, kDanes);
  put(s, beta, kEnglish);
  g.apply_action(s, make_action(ActionKind::kAttack, beta));
  EXPECT_FALSE(is_legal(g, s, make_action(ActionKind::kStop)));  // at least one roll
  g.apply_action(s, make_action(ActionKind::kRoll, first));
  State good_then_bad = s, bad_then_good = s;

  g.apply_chance(good_then_bad, make_action(ActionKind::kBattleDice, 12));  // 12 - 1: destroyed
  ASSERT_EQ(good_then_bad.phase, Phase::kChooseRoller);
  EXPECT_EQ(payloads(g, good_then_bad, ActionKind::kRoll), std::set<int>{second});
  EXPECT_TRUE(is_legal(g, good_then_bad, make_action(ActionKind::kStop)));
  g.apply_action(good_then_bad, make_action(ActionKind::kRoll, second));
  g.apply_chance(good_then_bad, make_action(ActionKind::kBattleDice, 2));  // 2 - 1: destroyed
  EXPECT_GE(g.army_at(good_then_bad, beta), 0);
  EXPECT_LT(g.army_at(good_then_bad, second), 0);
  EXPECT_GE(g.army_at(good_then_bad, first), 0);

  g.apply_chance(bad_then_good, make_action(ActionKind::kBattleDice, 2));
  g.apply_action(bad_then_good, make_action(ActionKind::kRoll, second));
  g.apply_chance(bad_then_good, make_action(ActionKind::kBattleDice, 12));
  EXPECT_LT(g.army_at(bad_then_good, beta), 0);
  EXPECT_GE(g.army_at(bad_then_good, first), 0);  // the first, bad roll did not stand
  EXPECT_EQ(bad_then_good.phase, Phase::kAdvance);
}

TEST_F(DanelawRulesTest, StoppingAppliesTheStandingRollAndEachArmyRollsOncePerTurn) {
  const DanelawGame g = strip_game();
  const HexMap& map = g.map();
  State s = blank(kDanes, Phase::kChooseTarget);
  const int first = map.find(3, 0), second = map.find(4, 0), beta = map.find(3, 1);
  put(s, first, kDanes);
  put(s, second, kDanes);
  put(s, beta, kEnglish);
  g.apply_action(s, make_action(ActionKind::kAttack, beta));
  g.apply_action(s, make_action(ActionKind::kRoll, first));
  g.apply_chance(s, make_action(ActionKind::kBattleDice, 7));  // 7 - 1 = 6: stand off
  g.apply_action(s, make_action(ActionKind::kStop));
  EXPECT_EQ(s.phase, Phase::kChooseTarget);
  EXPECT_GE(g.army_at(s, beta), 0);
  // The second army has not rolled and may attack again; the first may not roll again.
  g.apply_action(s, make_action(ActionKind::kAttack, beta));
  EXPECT_EQ(payloads(g, s, ActionKind::kRoll), std::set<int>{second});
  g.apply_action(s, make_action(ActionKind::kRoll, second));
  g.apply_chance(s, make_action(ActionKind::kBattleDice, 8));  // stand off; nobody else to roll
  EXPECT_EQ(s.phase, Phase::kChooseTarget);
  EXPECT_TRUE(payloads(g, s, ActionKind::kAttack).empty());
  // The next half-turn clears the marks.
  g.apply_action(s, make_action(ActionKind::kEndBattles));
  for (int i = 0; i < s.army_count; ++i) EXPECT_FALSE(s.armies[i].flags & kRolled);
}

TEST_F(DanelawRulesTest, DestroyedDefenderLetsTheRollerAdvanceAndTakeTheTown) {
  const DanelawGame g = strip_game();
  const HexMap& map = g.map();
  State s = blank(kDanes, Phase::kChooseTarget);
  const int roller = map.find(3, 0), beta = map.find(3, 1);
  put(s, roller, kDanes);
  put(s, beta, kEnglish);
  g.apply_action(s, make_action(ActionKind::kAttack, beta));
  g.apply_action(s, make_action(ActionKind::kRoll, roller));
  g.apply_chance(s, make_action(ActionKind::kBattleDice, 12));
  ASSERT_EQ(s.phase, Phase::kAdvance);
  State hold = s;
  g.apply_action(s, make_action(ActionKind::kAdvance));
  EXPECT_EQ(g.army_at(s, beta), 0);
  EXPECT_TRUE(g.town_held_by_danes(s, map.find_town("Beta")));
  g.apply_action(hold, make_action(ActionKind::kHold));
  EXPECT_EQ(g.army_at(hold, roller), 0);
  EXPECT_FALSE(g.town_held_by_danes(hold, map.find_town("Beta")));
}

// ------------------------------------------------------------------------------------------------
// Routs.

TEST_F(DanelawRulesTest, RoutStepsGoFartherNeverIntoOccupiedHexesOrTheSea) {
  const DanelawGame g = strip_game();
  const HexMap& map = g.map();
  // The English at Beta (3,1) were beaten by the Danes at (2,1): they rout east.
  State s = blank(kDanes, Phase::kRoutDice);
  put(s, map.find(2, 1), kDanes);
  put(s, map.find(3, 1), kEnglish);
  s.rout_hex = static_cast<std::uint16_t>(map.find(3, 1));
  s.rout_from = static_cast<std::uint16_t>(map.find(2, 1));
  g.apply_chance(s, make_action(ActionKind::kRoutDice, 2));
  ASSERT_EQ(s.phase, Phase::kRoutStep);
  EXPECT_EQ(g.current_player(s), kEnglish);  // the owner moves it
  EXPECT_EQ(payloads(g, s, ActionKind::kRoutStep), std::set<int>{map.find(4, 1)});  // not the sea
  g.apply_action(s, make_action(ActionKind::kRoutStep, map.find(4, 1)));
  g.apply_action(s, make_action(ActionKind::kRoutStep, map.find(5, 1)));
  EXPECT_EQ(s.phase, Phase::kChooseTarget);
  EXPECT_GE(g.army_at(s, map.find(5, 1)), 0);

  // With Gamma (5,1) occupied it cannot complete three hexes: destroyed after the first step.
  State blocked = blank(kDanes, Phase::kRoutDice);
  put(blocked, map.find(2, 1), kDanes);
  put(blocked, map.find(3, 1), kEnglish);
  put(blocked, map.find(5, 1), kEnglish);
  blocked.rout_hex = static_cast<std::uint16_t>(map.find(3, 1));
  blocked.rout_from = static_cast<std::uint16_t>(map.find(2, 1));
  g.apply_chance(blocked, make_action(ActionKind::kRoutDice, 3));
  g.apply_action(blocked, make_action(ActionKind::kRoutStep, map.find(4, 1)));
  EXPECT_EQ(blocked.phase, Phase::kChooseTarget);
  EXPECT_LT(g.army_at(blocked, map.find(4, 1)), 0);
  EXPECT_EQ(blocked.army_count, 2);
}

TEST_F(DanelawRulesTest, AnArmyRoutingAtSeaIsDestroyed) {
  const DanelawGame g = strip_game();
  const HexMap& map = g.map();
  State s = blank(kDanes, Phase::kChooseTarget);
  const int roller = map.find(3, 0), beta = map.find(3, 1);
  put(s, roller, kDanes);
  put(s, beta, kEnglish);
  g.apply_action(s, make_action(ActionKind::kAttack, beta));
  g.apply_action(s, make_action(ActionKind::kRoll, roller));
  g.apply_chance(s, make_action(ActionKind::kBattleDice, 5));  // 5 + 1 - 2 = 4: the roller routs
  EXPECT_LT(g.army_at(s, roller), 0);
  EXPECT_EQ(s.phase, Phase::kChooseTarget);
}

// ------------------------------------------------------------------------------------------------
// The end.

TEST_F(DanelawRulesTest, AfterTheTurnLimitTheDanesWinWithFifteenTowns) {
  const DanelawGame& g = england();
  for (int towns : {14, 15}) {
    State s = blank(kEnglish, Phase::kChooseTarget);
    s.turn = 24;
    put(s, g.map().find_hex("York"), kDanes);
    for (int t = 0; t < towns; ++t) s.danish_towns |= std::uint64_t{1} << t;
    g.apply_action(s, make_action(ActionKind::kEndBattles));
    ASSERT_TRUE(g.is_terminal(s));
    EXPECT_EQ(s.winner, towns >= 15 ? kDanes : kEnglish);
    EXPECT_EQ(g.returns(s)[0], towns >= 15 ? 1.0 : -1.0);
    EXPECT_EQ(g.end_reason(s), towns >= 15 ? "danes hold the towns" : "english hold out");
  }
  // Before the limit the game goes on, whatever the towns.
  State early = blank(kEnglish, Phase::kChooseTarget);
  early.turn = 23;
  early.danish_towns = ~std::uint64_t{0};
  g.apply_action(early, make_action(ActionKind::kEndBattles));
  EXPECT_FALSE(g.is_terminal(early));
  DanelawRules short_game;
  short_game.turn_limit = 3;
  State three = blank(kEnglish, Phase::kChooseTarget);
  three.turn = 3;
  const DanelawGame g3(short_game);
  g3.apply_action(three, make_action(ActionKind::kEndBattles));
  EXPECT_TRUE(g3.is_terminal(three));
}

TEST_F(DanelawRulesTest, EnglishWinAtOnceWhenNoDanesAreLeftToCome) {
  const DanelawGame& g = england();
  const HexMap& map = g.map();
  const auto [english, danes] = find_pair([&](int h, int n) {
    return map.hex(h).terrain == Terrain::kPlain && map.hex(n).terrain == Terrain::kPlain &&
           map.hex(n).town < 0 && !map.river_between(h, n);
  });
  for (int pool : {0, 1}) {
    State s = blank(kEnglish, Phase::kChooseTarget);
    s.pool[kDanes] = static_cast<std::uint8_t>(pool);
    put(s, english, kEnglish);
    put(s, danes, kDanes);
    g.apply_action(s, make_action(ActionKind::kAttack, danes));
    g.apply_action(s, make_action(ActionKind::kRoll, english));
    g.apply_chance(s, make_action(ActionKind::kBattleDice, 12));  // in the open: destroyed
    if (pool == 0) {
      ASSERT_TRUE(g.is_terminal(s));
      EXPECT_EQ(s.winner, kEnglish);
      EXPECT_EQ(g.end_reason(s), "danes wiped out");
    } else {
      EXPECT_FALSE(g.is_terminal(s));  // an army in the pool may still come on a double
      EXPECT_EQ(s.phase, Phase::kAdvance);
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Rules files and action text.

TEST_F(DanelawRulesTest, RulesJsonRebuildsTheExactGameAndRejectsMistakes) {
  const DanelawGame& g = england();
  const std::string json = g.rules_json();
  EXPECT_NE(json.find(g.map().content_hash()), std::string::npos);
  const DanelawGame copy = DanelawGame::from_rules_json(json);
  EXPECT_EQ(copy.rules_json(), json);
  EXPECT_EQ(copy.initial_state(), g.initial_state());
  EXPECT_THROW(DanelawGame::from_rules_json(R"({"turns": 3})"), RulesError);
  EXPECT_THROW(DanelawGame::from_rules_json(R"({"map_hash": "0000000000000000"})"), RulesError);
  EXPECT_THROW(DanelawGame::from_rules_json(R"({"map": "no-such-map.json"})"), RulesError);
  EXPECT_THROW(DanelawGame::from_rules_json(R"({"field_army_towns": ["Atlantis"]})"), RulesError);
  EXPECT_THROW(DanelawGame::from_rules_json(R"({"turn_limit": 0})"), RulesError);
  EXPECT_THROW(DanelawGame::from_rules_json(R"({"towns_to_win": 60})"), RulesError);
  const DanelawGame extra =
      DanelawGame::from_rules_json(R"({"danes_extra": true, "turn_limit": 12})");
  EXPECT_EQ(extra.rules().turn_limit, 12);
  EXPECT_EQ(extra.initial_state().pool[kDanes], 30);
}

TEST_F(DanelawRulesTest, ActionsPrintAndParseByHexLabelOrTownName) {
  const DanelawGame& g = england();
  const HexMap& map = g.map();
  State s = blank(kEnglish, Phase::kMoveDestination);
  s.points = 6;
  const int winchester = map.find_hex("Winchester");
  s.selected = static_cast<std::uint16_t>(winchester);
  put(s, winchester, kEnglish);
  const Action to_southampton = make_action(ActionKind::kMoveTo, map.find_hex("Southampton"));
  EXPECT_EQ(g.action_to_string(s, to_southampton),
            "to " + map.label(map.find_hex("Southampton")) + " Southampton");
  EXPECT_EQ(g.parse_action(s, "to Southampton"), to_southampton);
  EXPECT_EQ(g.parse_action(s, "TO " + map.label(map.find_hex("Southampton"))), to_southampton);
  EXPECT_THROW(g.parse_action(s, "to Atlantis"), ParseError);
  EXPECT_THROW(g.parse_action(s, "to York"), ParseError);  // too far: not legal now
  EXPECT_THROW(g.parse_action(s, "fly home"), ParseError);
  EXPECT_THROW(g.apply_action(s, make_action(ActionKind::kMoveTo, map.find_hex("York"))),
               IllegalActionError);
}

// A player's words name a hex as the unzoomed map does: its town, else its label (shown only
// when zoomed) and the nearest town.  They are typed moves too: each parses to its action.
TEST_F(DanelawRulesTest, PlayerWordsNameHexesByTheMapsTownsAndParseBack) {
  const DanelawGame& g = england();
  const HexMap& map = g.map();
  State s = g.initial_state();
  const int york = map.find_hex("York");
  EXPECT_EQ(g.hex_words(york), "York");
  EXPECT_EQ(g.action_words(s, make_action(ActionKind::kSelect, york)), "army York");
  // A hex beside York without a town of its own is named by its label and York (one hex away).
  int beside = -1;
  for (int d = 0; d < kDirections && beside < 0; ++d) {
    const int n = map.neighbour(york, d);
    if (n >= 0 && map.hex(n).town < 0 && !map.hex(n).is_sea()) beside = n;
  }
  ASSERT_GE(beside, 0);
  const std::string words = g.hex_words(beside);
  EXPECT_EQ(words.substr(0, 4), map.label(beside));
  // Another town as near as York may be named instead, never one farther away.
  const std::string near = words.substr(words.find(" near ") + 6);
  ASSERT_GE(map.find_town(near), 0) << words;
  EXPECT_EQ(map.distance(beside, map.towns()[map.find_town(near)].hex), 1) << words;
  EXPECT_EQ(g.action_words(s, make_action(ActionKind::kMoveTo, beside)), "to " + words);
  // Chance outcomes and moves without a hex read as the records write them.
  EXPECT_EQ(g.action_words(s, make_action(ActionKind::kEndMove)), "end move");
  Rng rng(9, 0);
  int checked = 0;
  for (int ply = 0; ply < 400 && !g.is_terminal(s); ++ply) {
    ActionList<DanelawGame> legal;
    if (g.current_player(s) != kChancePlayer) {
      g.legal_actions(s, legal);
      for (Action a : legal) {
        ASSERT_EQ(g.parse_action(s, g.action_words(s, a)), a) << g.action_words(s, a);
        ++checked;
      }
    }
    g.apply_unchecked(s, g.current_player(s) == kChancePlayer ? sample_chance(g, s, rng)
                                                              : sample_uniform_action(g, s, rng));
  }
  EXPECT_GT(checked, 1000);
}

TEST_F(DanelawRulesTest, StatesReadFromFilesAreChecked) {
  const DanelawGame& g = england();
  Rng rng(4, 0);
  State s = g.initial_state();
  while (!g.is_terminal(s)) {  // every state of a game passes
    ASSERT_NO_THROW(g.check_state(s));
    g.apply_unchecked(s, g.current_player(s) == kChancePlayer ? sample_chance(g, s, rng)
                                                              : sample_uniform_action(g, s, rng));
  }
  EXPECT_NO_THROW(g.check_state(s));
  State off = g.initial_state();
  off.armies[0].hex = 5000;
  EXPECT_THROW(g.check_state(off), FileFormatError);
  State twice = g.initial_state();
  twice.armies[1].hex = twice.armies[0].hex;
  EXPECT_THROW(g.check_state(twice), FileFormatError);
  State side = g.initial_state();
  side.armies[0].side = 7;
  EXPECT_THROW(g.check_state(side), FileFormatError);
  State routing = blank(kDanes, Phase::kRoutStep);
  EXPECT_THROW(g.check_state(routing), FileFormatError);
}

}  // namespace
}  // namespace sling::danelaw
