// The danelaw map: the validator on broken maps, the England map's contents, and movement costs
// and paths (Boost.Graph Dijkstra and A*) against hand-computed values.

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include "engine/core/embedded.h"
#include "engine/core/errors.h"
#include "engine/core/random.h"
#include "engine/danelaw/danelaw.h"
#include "engine/danelaw/movement.h"
#include "tests/danelaw_strip.h"

namespace sling::danelaw {
namespace {

std::string error_of(const std::string& json) {
  try {
    HexMap::parse(json, "test");
  } catch (const RulesError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(DanelawMap, StripMapIsValid) {
  const HexMap map = HexMap::parse(strip_map(), "strip");
  EXPECT_EQ(map.size(), 21);
  EXPECT_EQ(map.towns().size(), 3u);
  EXPECT_TRUE(map.river_between(map.find(2, 1), map.find(3, 1)));
  EXPECT_TRUE(map.river_between(map.find(3, 1), map.find(2, 1)));
  EXPECT_FALSE(map.river_between(map.find(1, 1), map.find(2, 1)));
  EXPECT_TRUE(map.towns()[0].coastal);
  EXPECT_EQ(map.find_hex("Beta"), map.find(3, 1));
  EXPECT_EQ(map.find_hex("beta"), map.find(3, 1));
  EXPECT_EQ(map.find_hex("3,1"), map.find(3, 1));
  EXPECT_EQ(map.find_hex(map.label(map.find(3, 1))), map.find(3, 1));
  EXPECT_EQ(map.find_hex("Nowhere"), -1);
}

TEST(DanelawMapValidator, UnknownTerrainNamesTheHex) {
  std::string json = strip_map();
  json.replace(json.find("\"forest\""), 8, "\"jungle\"");
  const std::string error = error_of(json);
  EXPECT_TRUE(contains(error, "hex 0401")) << error;
  EXPECT_TRUE(contains(error, "unknown terrain 'jungle'")) << error;
}

TEST(DanelawMapValidator, TownOnSeaHex) {
  const std::string error = error_of(strip_map("", R"(, {"name": "Atlantis", "q": 4, "r": 0})"));
  EXPECT_TRUE(contains(error, "hex 0400")) << error;
  EXPECT_TRUE(contains(error, "town Atlantis is on a sea hex")) << error;
}

TEST(DanelawMapValidator, RiverBetweenHexesThatAreNotNeighbours) {
  const std::string error = error_of(strip_map("", "", "[[1, 1, 3, 1]]"));
  EXPECT_TRUE(contains(error, "hex 0101")) << error;
  EXPECT_TRUE(contains(error, "not neighbours")) << error;
}

TEST(DanelawMapValidator, RiverTouchingTheSea) {
  const std::string error = error_of(strip_map("", "", "[[1, 1, 1, 0]]"));
  EXPECT_TRUE(contains(error, "touches the sea")) << error;
}

TEST(DanelawMapValidator, SeaSectorOutsideOneToSix) {
  std::string json = strip_map();
  json.replace(json.find("\"sector\": 2"), 11, "\"sector\": 7");
  std::string error = error_of(json);
  EXPECT_TRUE(contains(error, "sea sector 7 is outside 1-6")) << error;
  EXPECT_TRUE(contains(error, "hex 0102")) << error;  // (q=0, r=2) is column 1 in offset layout
  json = strip_map();
  json.replace(json.find("\"sector\": 1"), 11, "\"sector\": 0");
  error = error_of(json);
  EXPECT_TRUE(contains(error, "sea sector 0 is outside 1-6")) << error;
}

TEST(DanelawMapValidator, LandNotConnected) {
  // A land hex out at (9, 1), separated from the strip by the sea hex (8, 1)... and the gap at 7.
  const std::string error = error_of(strip_map(
      R"({"q": 8, "r": 1, "terrain": "sea", "sector": 1}, {"q": 9, "r": 1, "terrain": "plain", "sector": 0})"));
  EXPECT_TRUE(contains(error, "hex 0901")) << error;
  EXPECT_TRUE(contains(error, "land not connected")) << error;
}

TEST(DanelawMapValidator, DuplicateTownNameAndDuplicateHex) {
  std::string error = error_of(strip_map("", R"(, {"name": "beta", "q": 6, "r": 1})"));
  EXPECT_TRUE(contains(error, "duplicate town name 'beta'")) << error;
  error = error_of(strip_map(R"({"q": 3, "r": 1, "terrain": "plain", "sector": 0})"));
  EXPECT_TRUE(contains(error, "hex 0301: listed twice")) << error;
  error = error_of(strip_map("", R"(, {"name": "Bis", "q": 3, "r": 1})"));
  EXPECT_TRUE(contains(error, "hex 0301: holds two towns")) << error;
}

TEST(DanelawMapValidator, MalformedJsonAndMissingKeys) {
  EXPECT_TRUE(contains(error_of("{\"name\": "), "malformed JSON at line 1"));
  EXPECT_TRUE(contains(error_of(R"({"name": "x", "hex_km": 22, "towns": [], "rivers": []})"),
                       "missing key 'hexes'"));
  EXPECT_TRUE(contains(error_of(R"({"name": "x", "hex_km": 22, "hexes": [], "towns": [],
                                   "rivers": []})"),
                       "no hexes"));
}

TEST(DanelawMapValidator, LandSectorMustBeZero) {
  std::string json = strip_map();
  const std::string land = "\"plain\", \"sector\": 0";
  json.replace(json.find(land), land.size(), "\"plain\", \"sector\": 3");
  EXPECT_TRUE(contains(error_of(json), "a land hex has sea sector 3")) << error_of(json);
}

// ------------------------------------------------------------------------------------------------
// The England map.

TEST(DanelawEnglandMap, HasTownsSectorsRiversAndCoast) {
  const HexMap map = HexMap::load("england.json");
  EXPECT_GE(map.towns().size(), 30u);
  for (const char* name : {"Winchester", "York", "Carlisle", "London"}) {
    EXPECT_GE(map.find_town(name), 0) << name;
  }
  std::set<int> sectors;
  for (const HexInfo& h : map.hexes()) {
    if (h.is_sea()) sectors.insert(h.sector);
  }
  EXPECT_EQ(sectors, (std::set<int>{1, 2, 3, 4, 5, 6}));
  std::set<std::string> rivers;
  for (const River& r : map.rivers()) {
    if (!r.sides.empty()) rivers.insert(r.name);
  }
  for (const char* name :
       {"Thames", "Severn", "Trent", "Ouse", "Great Ouse", "Tyne", "Tees", "Avon"}) {
    EXPECT_TRUE(rivers.count(name)) << name;
  }
  // Towns the reference puts on the sea are coastal; Winchester and York are inland.
  for (const char* name :
       {"London", "Lindisfarne", "Bamburgh", "Jarrow", "Whitby", "Chester", "Ipswich", "Colchester",
        "Rochester", "Sandwich", "Wareham", "Exeter", "Southampton", "Chichester"}) {
    EXPECT_TRUE(map.towns()[map.find_town(name)].coastal) << name;
  }
  EXPECT_FALSE(map.towns()[map.find_town("Winchester")].coastal);
  EXPECT_FALSE(map.towns()[map.find_town("York")].coastal);
  // Terrain regions: the Fens are wetland, the Weald forest, the Pennines hills.
  EXPECT_EQ(map.hex(map.find_hex("Stamford")).terrain, Terrain::kPlain);
  int wetland = 0, forest = 0, hills = 0;
  for (const HexInfo& h : map.hexes()) {
    wetland += h.terrain == Terrain::kWetland;
    forest += h.terrain == Terrain::kForest;
    hills += h.terrain == Terrain::kHills;
  }
  EXPECT_GT(wetland, 5);
  EXPECT_GT(forest, 10);
  EXPECT_GT(hills, 60);
}

TEST(DanelawEnglandMap, ContentHashIgnoresFormatting) {
  const std::string text(embedded_file("england.json"));
  std::string reformatted;
  for (char c : text) {
    if (c != '\n') reformatted += c;
  }
  EXPECT_EQ(HexMap::parse(text, "a").content_hash(),
            HexMap::parse(reformatted, "b").content_hash());
  std::string changed = text;
  changed.replace(changed.find("\"Winchester\""), 12, "\"Wintancestr\"");
  EXPECT_NE(HexMap::parse(text, "a").content_hash(), HexMap::parse(changed, "c").content_hash());
}

TEST(DanelawEnglandMap, ExportJsonListsEveryHex) {
  const HexMap map = HexMap::load("england.json");
  const std::string json = map.export_json();
  EXPECT_TRUE(contains(json, "\"label\": \"" + map.label(map.find_hex("York")) + "\""));
  EXPECT_TRUE(contains(json, "\"town\": \"York\""));
  EXPECT_TRUE(contains(json, "\"coastal\": true"));
  EXPECT_TRUE(contains(json, "\"name\": \"Thames\""));
  // Round trip through the parser that reads options files: it is well-formed JSON.
  std::size_t count = 0, at = 0;
  while ((at = json.find("\"index\":", at)) != std::string::npos) {
    ++count;
    ++at;
  }
  EXPECT_EQ(count, static_cast<std::size_t>(map.size()));
}

// A map given as text (an upload to `sling serve`): the export of `sling map danelaw --json` reads
// back as the same map, and the text loader refuses what the file loader refuses, on one line.
TEST(DanelawMapText, TheExportParsesBackAndBadTextIsRefusedOnOneLine) {
  const HexMap england = HexMap::load("england.json");
  const HexMap again = HexMap::parse(england.export_json(), "upload.json");
  EXPECT_EQ(again.content_hash(), england.content_hash());
  EXPECT_EQ(again.size(), england.size());
  EXPECT_EQ(again.towns().size(), england.towns().size());

  std::string unknown = strip_map();
  unknown.insert(unknown.find("\"hex_km\""), "\"colour\": 1, ");
  for (const std::string& bad : {unknown, std::string("{\"name\": \"x\", "), std::string("[]"),
                                 strip_map("{\"q\": 3, \"r\": 1, \"terrain\": \"sea\"}")}) {
    const std::string message = error_of(bad);
    EXPECT_EQ(message.rfind("map (test): ", 0), 0u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  EXPECT_TRUE(contains(error_of(unknown), "unknown key 'colour'"));
}

// A game on a map already loaded: the rules' map only names it (nothing is opened), and the
// content hash in the rules still pins the map.
TEST(DanelawMapText, AGameIsBuiltOnAMapAlreadyLoaded) {
  const auto strip = std::make_shared<const HexMap>(HexMap::parse(strip_map(), "strip.json"));
  DanelawRules rules;
  rules.map = "no-such-file-anywhere/strip.json";
  rules.field_army_towns = {"Beta"};
  rules.towns_to_win = 2;
  rules.danes_at_sea = 2;
  const DanelawGame game(rules, strip);
  EXPECT_EQ(game.map().find_town("Gamma"), 2);
  EXPECT_EQ(game.rules().map, rules.map);
  EXPECT_EQ(game.rules().map_hash, strip->content_hash());
  // Its rules JSON rebuilds the same game on the same map, and on no other.
  const DanelawGame same = DanelawGame::from_rules_json(game.rules_json(), strip);
  EXPECT_EQ(same.rules_json(), game.rules_json());
  const auto other =
      std::make_shared<const HexMap>(HexMap::parse(strip_map("", "", "[[1, 1, 2, 1]]"), "other"));
  EXPECT_THROW(DanelawGame::from_rules_json(game.rules_json(), other), RulesError);
  // The map's towns are checked against the rules as for a map file.
  rules.field_army_towns = {"Winchester"};
  EXPECT_THROW(DanelawGame(rules, strip), RulesError);
}

// ------------------------------------------------------------------------------------------------
// Movement costs and paths.

class DanelawStrip : public ::testing::Test {
 protected:
  DanelawStrip()
      : map_(std::make_shared<const HexMap>(HexMap::parse(strip_map(), "strip"))),
        movement_(map_) {}
  int at(int q, int r) const { return map_->find(q, r); }
  std::shared_ptr<const HexMap> map_;
  Movement movement_;
  MovementWorkspace workspace_;
  HexSet none_;
};

TEST_F(DanelawStrip, StepCostsFollowTheRules) {
  const HexMap& m = *map_;
  // Plain -> hills: 2 + 2 entering from outside; hills -> hills: 2.
  EXPECT_EQ(step_cost(m, kEnglish, at(0, 1), at(1, 1)), 4);
  EXPECT_EQ(step_cost(m, kEnglish, at(1, 1), at(2, 1)), 2);
  // Hills -> plain across the river: 1 + 1 leaving hills + 1 river.
  EXPECT_EQ(step_cost(m, kEnglish, at(2, 1), at(3, 1)), 3);
  // Plain -> hills across the river: 2 + 2 + 1.
  EXPECT_EQ(step_cost(m, kEnglish, at(3, 1), at(2, 1)), 5);
  // Plain -> forest: 3 + 3; forest -> plain: 1 + 2.
  EXPECT_EQ(step_cost(m, kEnglish, at(3, 1), at(4, 1)), 6);
  EXPECT_EQ(step_cost(m, kEnglish, at(4, 1), at(5, 1)), 3);
  // Wetland: 4 + 3 for the Danes, 4 + 0 for the English; leaving costs nothing extra.
  EXPECT_EQ(step_cost(m, kDanes, at(5, 1), at(6, 1)), 7);
  EXPECT_EQ(step_cost(m, kEnglish, at(5, 1), at(6, 1)), 4);
  EXPECT_EQ(step_cost(m, kEnglish, at(6, 1), at(5, 1)), 1);
  // Sea: 1 for the Danes, never for the English.
  EXPECT_EQ(step_cost(m, kDanes, at(0, 0), at(1, 0)), 1);
  EXPECT_EQ(step_cost(m, kEnglish, at(0, 0), at(1, 0)), kImpassable);
  EXPECT_EQ(step_cost(m, kEnglish, at(3, 1), at(3, 0)), kImpassable);
  // Landing: 2 + the cost of entering the land hex (from outside).
  EXPECT_EQ(step_cost(m, kDanes, at(3, 0), at(3, 1)), 3);  // plain
  EXPECT_EQ(step_cost(m, kDanes, at(1, 0), at(1, 1)), 6);  // hills 2 + 2
  EXPECT_EQ(step_cost(m, kDanes, at(4, 0), at(4, 1)), 8);  // forest 3 + 3
  EXPECT_EQ(step_cost(m, kDanes, at(6, 0), at(6, 1)), 9);  // wetland 4 + 3
  // Re-embarking leaves the land terrain: forest +2, hills +1.
  EXPECT_EQ(step_cost(m, kDanes, at(4, 1), at(4, 0)), 3);
  EXPECT_EQ(step_cost(m, kDanes, at(1, 1), at(1, 0)), 2);
}

TEST_F(DanelawStrip, AsymmetricCostsGiveDifferentCostsEachWay) {
  // East along the strip: 4 + 2 + 3 + 6 + 3 + 4 = 22 for the English.
  const PathResult east = movement_.path(kEnglish, at(0, 1), at(6, 1), none_);
  EXPECT_EQ(east.cost, 22);
  std::vector<int> expected;
  for (int q = 0; q <= 6; ++q) expected.push_back(at(q, 1));
  EXPECT_EQ(east.hexes, expected);
  // West: 1 + 6 + 3 + 5 + 2 + 2 = 19.
  const PathResult west = movement_.path(kEnglish, at(6, 1), at(0, 1), none_);
  EXPECT_EQ(west.cost, 19);
}

TEST_F(DanelawStrip, DanesSailRoundAndLand) {
  // Embark (1), five sea hexes (5), land on the wetland (2 + 4 + 3): 15, cheaper than walking (25).
  const PathResult path = movement_.path(kDanes, at(0, 1), at(6, 1), none_);
  EXPECT_EQ(path.cost, 15);
  EXPECT_TRUE(map_->hex(path.hexes[1]).is_sea());
  EXPECT_EQ(path.hexes.back(), at(6, 1));
}

TEST_F(DanelawStrip, EnemyHexesBlockThePath) {
  HexSet blocked;
  blocked.set(at(3, 1));
  EXPECT_EQ(movement_.path(kEnglish, at(0, 1), at(6, 1), blocked).cost, -1);
  // The Danes sail round the blocked hex.
  EXPECT_EQ(movement_.path(kDanes, at(0, 1), at(6, 1), blocked).cost, 15);
  ReachList reach;
  movement_.reachable(kEnglish, at(0, 1), 100, blocked, reach, workspace_);
  std::set<int> hexes;
  for (const Reach& r : reach) hexes.insert(r.hex);
  EXPECT_EQ(hexes, (std::set<int>{at(1, 1), at(2, 1)}));
}

TEST_F(DanelawStrip, ReachableStopsAtTheBudget) {
  ReachList reach;
  movement_.reachable(kEnglish, at(0, 1), 6, none_, reach, workspace_);
  std::map<int, int> cost;
  for (const Reach& r : reach) cost[r.hex] = r.cost;
  EXPECT_EQ(cost, (std::map<int, int>{{at(1, 1), 4}, {at(2, 1), 6}}));
  movement_.reachable(kEnglish, at(0, 1), 3, none_, reach, workspace_);
  EXPECT_TRUE(reach.empty());
}

TEST_F(DanelawStrip, DistanceFieldIsTheCostToTheNearestTarget) {
  const std::uint16_t targets[] = {static_cast<std::uint16_t>(at(6, 1))};
  std::vector<int> field(map_->size());
  movement_.distance_field(kEnglish, targets, none_, field, workspace_);
  EXPECT_EQ(field[at(6, 1)], 0);
  EXPECT_EQ(field[at(5, 1)], 4);
  EXPECT_EQ(field[at(0, 1)], 22);
  EXPECT_EQ(field[at(0, 0)], kUnreachable);  // the English never go to sea
}

TEST(DanelawMovement, EnglandHandComputedPaths) {
  const DanelawGame game;
  const HexMap& map = game.map();
  const HexSet none;
  // Winchester and Southampton are neighbouring plain hexes with no river between them.
  EXPECT_EQ(game.movement()
                .path(kEnglish, map.find_hex("Winchester"), map.find_hex("Southampton"), none)
                .cost,
            1);
  // Wallingford to Reading: the Thames runs between them; crossing costs 1 + 1, and no way round
  // is cheaper.
  EXPECT_TRUE(map.river_between(map.find_hex("Wallingford"), map.find_hex("Reading")));
  EXPECT_EQ(step_cost(map, kEnglish, map.find_hex("Wallingford"), map.find_hex("Reading")), 2);
  EXPECT_EQ(game.movement()
                .path(kEnglish, map.find_hex("Wallingford"), map.find_hex("Reading"), none)
                .cost,
            2);
}

TEST(DanelawMovement, DijkstraAndAStarAgreeAcrossEngland) {
  // Every reachable hex's Dijkstra cost equals the A* path cost, and the path's steps sum to it.
  const DanelawGame game;
  const HexMap& map = game.map();
  const HexSet none;
  MovementWorkspace workspace;
  Rng rng(5, 0);
  for (int trial = 0; trial < 20; ++trial) {
    const Side side = trial % 2 ? kEnglish : kDanes;
    int from;
    do {
      from = static_cast<int>(rng.uniform(static_cast<std::uint32_t>(map.size())));
    } while (side == kEnglish && map.hex(from).is_sea());
    ReachList reach;
    game.movement().reachable(side, from, 12, none, reach, workspace);
    ASSERT_FALSE(reach.empty());
    for (std::size_t i = 0; i < reach.size(); i += 7) {
      const PathResult path = game.movement().path(side, from, reach[i].hex, none);
      ASSERT_EQ(path.cost, reach[i].cost);
      int sum = 0;
      for (std::size_t k = 1; k < path.hexes.size(); ++k) {
        sum += step_cost(map, side, path.hexes[k - 1], path.hexes[k]);
      }
      EXPECT_EQ(sum, path.cost);
    }
  }
}

}  // namespace
}  // namespace sling::danelaw
