// Danelaw's encoding for learning code (engine/danelaw/encoding.h): the dense action index is a
// bijection between the decision codes and 0..N-1, the mask marks exactly the legal decisions, and
// the planes say what the state says, on the map's offset grid.

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "engine/danelaw/encoding.h"

namespace sling::danelaw {
namespace {

const DanelawGame& england() {
  static const DanelawGame game;
  return game;
}

float plane_sum(const DanelawEncoding& e, const std::vector<float>& obs, Plane p) {
  const auto begin =
      obs.begin() + static_cast<std::ptrdiff_t>(plane_index(p)) * e.height() * e.width();
  return std::accumulate(begin, begin + e.height() * e.width(), 0.0f);
}

float plane_at(const DanelawEncoding& e, const std::vector<float>& obs, Plane p, int hex) {
  return obs[static_cast<std::size_t>(plane_index(p) * e.height() * e.width() +
                                      e.hex_cells()[static_cast<std::size_t>(hex)])];
}

TEST(DanelawEncoding, EveryIndexNamesOneDecisionCode) {
  const DanelawEncoding e(england().map());
  ASSERT_EQ(england().map().size(), 605);
  EXPECT_EQ(e.action_count(), 7 * 605 + 5);
  std::set<Action> codes;
  for (int i = 0; i < e.action_count(); ++i) {
    const Action code = e.action_code(i);
    EXPECT_EQ(e.action_index(code), i) << code;
    codes.insert(code);
  }
  EXPECT_EQ(static_cast<int>(codes.size()), e.action_count());
  EXPECT_THROW(e.action_code(-1), std::out_of_range);
  EXPECT_THROW(e.action_code(e.action_count()), std::out_of_range);
}

TEST(DanelawEncoding, CodesThatAreNoDecisionHaveNoIndex) {
  const DanelawEncoding e(england().map());
  EXPECT_EQ(e.action_index(make_action(ActionKind::kMovementDice, 1 * 8 + 1)), -1);
  EXPECT_EQ(e.action_index(make_action(ActionKind::kBattleDice, 7)), -1);
  EXPECT_EQ(e.action_index(make_action(ActionKind::kRoutDice, 3)), -1);
  EXPECT_EQ(e.action_index(make_action(ActionKind::kNone)), -1);
  EXPECT_EQ(e.action_index(make_action(ActionKind::kPlace, 605)), -1);  // off the map
  EXPECT_EQ(e.action_index(make_action(ActionKind::kEndMove, 1)), -1);  // no payload there
  EXPECT_EQ(e.action_index(Action{1} << 24), -1);
  EXPECT_EQ(e.action_index(make_action(ActionKind::kPlace, 0)), 0);
  EXPECT_EQ(e.action_index(make_action(ActionKind::kEndMove)), 7 * 605);
  EXPECT_EQ(e.action_index(make_action(ActionKind::kHold)), 7 * 605 + 4);
}

// Random playouts: at every decision, each legal code has its own index below N and comes back
// from it, and the mask is exactly the legal set; at chance nodes the mask is empty.
TEST(DanelawEncoding, LegalCodesOfRandomPlayoutsMapToUniqueIndices) {
  const DanelawGame& game = england();
  const DanelawEncoding e(game.map());
  std::vector<std::uint8_t> mask(static_cast<std::size_t>(e.action_count()));
  std::set<ActionKind> kinds_seen;
  long decisions = 0;
  for (int seed = 0; seed < 12; ++seed) {
    Rng rng(41, static_cast<std::uint64_t>(seed));
    State s = game.initial_state();
    while (!game.is_terminal(s)) {
      e.legal_action_mask(game, s, mask);
      if (game.current_player(s) == kChancePlayer) {
        ASSERT_EQ(std::count(mask.begin(), mask.end(), 1), 0);
        game.apply_chance(s, sample_chance(game, s, rng));
        continue;
      }
      ActionList<DanelawGame> legal;
      game.legal_actions(s, legal);
      std::set<int> indices;
      for (const Action code : legal) {
        const int index = e.action_index(code);
        ASSERT_GE(index, 0) << game.action_to_string(s, code);
        ASSERT_LT(index, e.action_count());
        ASSERT_EQ(e.action_code(index), code);
        ASSERT_TRUE(indices.insert(index).second) << "two legal codes share index " << index;
        ASSERT_EQ(mask[static_cast<std::size_t>(index)], 1);
        kinds_seen.insert(action_kind(code));
      }
      ASSERT_EQ(std::count(mask.begin(), mask.end(), 1), static_cast<long>(legal.size()));
      ++decisions;
      game.apply_action(s, legal[rng.uniform(static_cast<std::uint32_t>(legal.size()))]);
    }
    e.legal_action_mask(game, s, mask);
    EXPECT_EQ(std::count(mask.begin(), mask.end(), 1), 0);
  }
  EXPECT_GT(decisions, 1000);
  // The playouts reach every kind of decision but the rare ones that need a battle won outright.
  EXPECT_GE(kinds_seen.size(), 10u);
}

TEST(DanelawEncoding, HexesSitOnTheOffsetGridOfTheirLabels) {
  const HexMap& map = england().map();
  const DanelawEncoding e(map);
  EXPECT_EQ(e.height(), 36);
  EXPECT_EQ(e.width(), 25);
  std::set<int> cells;
  for (int h = 0; h < map.size(); ++h) {
    const std::string label = map.label(h);  // "CCRR"; the England map's grid starts at 0000
    const int column = std::stoi(label.substr(0, 2)), row = std::stoi(label.substr(2, 2));
    EXPECT_EQ(e.hex_cells()[static_cast<std::size_t>(h)], row * e.width() + column) << label;
    cells.insert(e.hex_cells()[static_cast<std::size_t>(h)]);
  }
  EXPECT_EQ(static_cast<int>(cells.size()), map.size());
}

TEST(DanelawEncoding, PlanesSayWhatTheStateSays) {
  const DanelawGame& game = england();
  const DanelawEncoding e(game.map());
  std::vector<float> obs(static_cast<std::size_t>(e.observation_size()));
  EXPECT_EQ(e.observation_size(), kPlaneCount * 36 * 25);
  Rng rng(5, 0);
  State s = game.initial_state();
  for (int ply = 0; ply < 400 && !game.is_terminal(s); ++ply) {
    e.observation(game, s, obs);
    for (const float x : obs) ASSERT_TRUE(x >= 0.0f && x <= 1.0f);
    const float cells = static_cast<float>(e.height() * e.width());
    EXPECT_EQ(plane_sum(e, obs, Plane::kOnMap), static_cast<float>(game.map().size()));
    int danes = 0, field = 0, militia = 0;
    for (int i = 0; i < s.army_count; ++i) {
      const Army& a = s.armies[i];
      const Plane p = a.side == kDanes       ? Plane::kDanes
                      : (a.flags & kMilitia) ? Plane::kEnglishMilitia
                                             : Plane::kEnglishField;
      EXPECT_EQ(plane_at(e, obs, p, a.hex), 1.0f);
      (a.side == kDanes ? danes : (a.flags & kMilitia) ? militia : field) += 1;
    }
    EXPECT_EQ(plane_sum(e, obs, Plane::kDanes), static_cast<float>(danes));
    EXPECT_EQ(plane_sum(e, obs, Plane::kEnglishField), static_cast<float>(field));
    EXPECT_EQ(plane_sum(e, obs, Plane::kEnglishMilitia), static_cast<float>(militia));
    EXPECT_EQ(plane_sum(e, obs, Plane::kDanishTown), static_cast<float>(game.danish_town_count(s)));
    EXPECT_EQ(plane_sum(e, obs, Plane::kDanishTown) + plane_sum(e, obs, Plane::kEnglishTown),
              static_cast<float>(game.map().towns().size()));
    EXPECT_EQ(plane_sum(e, obs, Plane::kSelected), s.selected == kNoHex ? 0.0f : 1.0f);
    EXPECT_EQ(plane_sum(e, obs, Plane::kTarget), s.target == kNoHex ? 0.0f : 1.0f);
    const Plane phase = static_cast<Plane>(plane_index(Plane::kPhase) + static_cast<int>(s.phase));
    EXPECT_EQ(plane_sum(e, obs, phase), cells);
    EXPECT_EQ(plane_sum(e, obs, Plane::kToActEnglish),
              game.current_player(s) == kEnglish ? cells : 0.0f);
    if (game.current_player(s) == kChancePlayer) {
      game.apply_chance(s, sample_chance(game, s, rng));
    } else {
      ActionList<DanelawGame> legal;
      game.legal_actions(s, legal);
      game.apply_action(s, legal[rng.uniform(static_cast<std::uint32_t>(legal.size()))]);
    }
  }
}

TEST(DanelawEncoding, PlaneNames) {
  EXPECT_EQ(plane_name(plane_index(Plane::kOnMap)), "on_map");
  EXPECT_EQ(plane_name(plane_index(Plane::kDanes)), "danes");
  EXPECT_EQ(plane_name(plane_index(Plane::kPhase) + static_cast<int>(Phase::kMove)), "phase_move");
  EXPECT_EQ(plane_name(plane_index(Plane::kTurn)), "turn");
  EXPECT_EQ(plane_name(kPlaneCount - 1), "danish_town_count");
  EXPECT_THROW(plane_name(kPlaneCount), std::out_of_range);
}

}  // namespace
}  // namespace sling::danelaw
