// The danelaw game's optional hooks for search and agents: a rule-based policy and a reduced
// action set for movement (see engine/core/game.h and docs/rules/danelaw.md).  The learned
// evaluation and the movement-plan search are danelaw's AI, beside the duel's: the value model in
// solvers/danelaw/, the planner in agents/danelaw_planner.h.

#include <algorithm>
#include <cmath>

#include "engine/danelaw/danelaw.h"

namespace sling::danelaw {

namespace {

using HexList = FixedVector<std::uint16_t, kMaxHexes>;

// Probability that one roll gives at least `good` (a defender destroyed or routed) and at most
// `bad` (the roller routed or destroyed) after the modifier.
struct Odds {
  double good = 0;  // modified total >= 9
  double bad = 0;   // modified total <= 5
};

Odds roll_odds(bool three_dice, int modifier) {
  const auto& p = battle_total_distribution(three_dice);
  Odds odds;
  for (int total = 2; total <= 12; ++total) {
    const int m = total + modifier;
    if (m >= 9) odds.good += p[total];
    if (m <= 5) odds.bad += p[total];
  }
  return odds;
}

}  // namespace

// Hexes a side's armies want to reach: for the Danes, English-held towns no English army stands
// in (fall back to every English-held town); for the English, Danish-held towns and the hexes next
// to Danish armies on land (to attack them).
static void movement_targets(const DanelawGame& game, const State& s, Side side, HexList& out) {
  const HexMap& map = game.map();
  out.clear();
  if (side == kDanes) {
    for (std::size_t t = 0; t < map.towns().size(); ++t) {
      const int hex = map.towns()[t].hex;
      if (!game.town_held_by_danes(s, static_cast<int>(t)) && game.army_at(s, hex) < 0) {
        out.push_back(static_cast<std::uint16_t>(hex));
      }
    }
    if (out.empty()) {
      for (std::size_t t = 0; t < map.towns().size(); ++t) {
        if (!game.town_held_by_danes(s, static_cast<int>(t))) {
          out.push_back(static_cast<std::uint16_t>(map.towns()[t].hex));
        }
      }
    }
    return;
  }
  HexSet seen;
  for (std::size_t t = 0; t < map.towns().size(); ++t) {
    if (game.town_held_by_danes(s, static_cast<int>(t))) {
      seen.set(map.towns()[t].hex);
      out.push_back(static_cast<std::uint16_t>(map.towns()[t].hex));
    }
  }
  for (int i = 0; i < s.army_count; ++i) {
    const Army& a = s.armies[i];
    if (a.side != kDanes || map.hex(a.hex).is_sea()) continue;
    for (int n : map.hex(a.hex).neighbours) {
      if (n >= 0 && !map.hex(n).is_sea() && !seen.test(n)) {
        seen.set(n);
        out.push_back(static_cast<std::uint16_t>(n));
      }
    }
  }
}

namespace {

// Scores for moving the armies of the side to move, built once per decision.
struct MovePlanner {
  const DanelawGame& game;
  const State& s;
  ScratchPool::Lease scratch;  // the movement queries' scratch, for this decision
  Side side;
  HexSet occupied, enemy;
  std::array<int, kMaxHexes> field{};

  MovePlanner(const DanelawGame& g, const State& state)
      : game(g), s(state), scratch(g.borrow_scratch()) {
    side = static_cast<Side>(s.side);
    game.occupancy(s, side, occupied, enemy);
    HexList targets;
    movement_targets(game, s, side, targets);
    game.movement().distance_field(
        side, std::span<const std::uint16_t>(targets.data(), targets.size()), enemy,
        std::span<int>(field.data(), game.map().size()), scratch->movement);
  }

  // Whether the army at `hex` should hold its ground: it holds a town of its side with an enemy
  // army close by.
  bool should_hold(int hex) const {
    const HexMap& map = game.map();
    const int town = map.hex(hex).town;
    if (town < 0 || game.town_held_by_danes(s, town) != (side == kDanes)) return false;
    for (int i = 0; i < s.army_count; ++i) {
      const Army& a = s.armies[i];
      if (a.side != side && !(a.flags & kMilitia) && map.distance(a.hex, hex) <= 3) return true;
    }
    return false;
  }

  // Value of moving the army at `from` to `to` at `cost`; <= 0 means not worth it.
  double score(int from, int to, int cost) const {
    const HexMap& map = game.map();
    const int town = map.hex(to).town;
    if (town >= 0 && game.town_held_by_danes(s, town) != (side == kDanes)) {
      return 100.0 - cost;  // take an enemy town
    }
    if (should_hold(from)) return -1.0;
    const int before = field[from], after = field[to];
    if (after >= kUnreachable) return -1.0;
    if (before >= kUnreachable) return 50.0 - after;
    return static_cast<double>(before - after) - 0.05 * cost;
  }

  // The best destination of the army at `hex` within the points left, or -1.
  int best_destination(int hex, double& best_score) const {
    ReachList reach;
    game.destinations(s, hex, s.points, reach, *scratch);
    int best = -1;
    best_score = 0.0;
    for (const Reach& r : reach) {
      const double v = score(hex, r.hex, r.cost);
      if (v > best_score) {
        best_score = v;
        best = r.hex;
      }
    }
    return best;
  }
};

}  // namespace

Action DanelawGame::heuristic_action(const State& s, Rng& rng) const {
  const HexMap& map = *map_;
  ActionList<DanelawGame> legal;
  legal_actions(s, legal);
  if (legal.empty()) return kInvalidAction;
  switch (s.phase) {
    case Phase::kPlace:
    case Phase::kReinforce: {
      if (s.side == kEnglish) {
        // The field town nearest to a Danish army.
        Action best = legal[0];
        int best_distance = 1 << 20;
        for (Action a : legal) {
          for (int i = 0; i < s.army_count; ++i) {
            if (s.armies[i].side != kDanes) continue;
            const int d = map.distance(action_payload(a), s.armies[i].hex);
            if (d < best_distance) {
              best_distance = d;
              best = a;
            }
          }
        }
        return best;
      }
      // The Danes: the sea hex nearest to an English-held town that no army defends, with a little
      // noise so that placements spread along the coast.
      HexList targets;
      movement_targets(*this, s, kDanes, targets);
      Action best = legal[0];
      double best_score = -1e9;
      for (Action a : legal) {
        int nearest = 1 << 20;
        for (std::uint16_t t : targets)
          nearest = std::min(nearest, map.distance(action_payload(a), t));
        const double v = -nearest + 0.9 * rng.uniform01();
        if (v > best_score) {
          best_score = v;
          best = a;
        }
      }
      return best;
    }
    case Phase::kMove: {
      if (legal.size() == 1) return legal[0];
      const MovePlanner planner(*this, s);
      // Look at up to eight armies, in random order, and move the one with the best move.
      std::array<Action, 8> sample{};
      std::size_t count = 0;
      for (std::size_t i = 0; i + 1 < legal.size(); ++i) {
        if (count < sample.size()) {
          sample[count++] = legal[i];
        } else {
          const std::uint32_t j = rng.uniform(static_cast<std::uint32_t>(i + 1));
          if (j < sample.size()) sample[j] = legal[i];
        }
      }
      Action best = make_action(ActionKind::kEndMove);
      double best_score = 0.0;
      for (std::size_t i = 0; i < count; ++i) {
        double v = 0;
        if (planner.best_destination(action_payload(sample[i]), v) >= 0 && v > best_score) {
          best_score = v;
          best = sample[i];
        }
      }
      return best;
    }
    case Phase::kMoveDestination: {
      const MovePlanner planner(*this, s);
      double v = 0;
      const int best = planner.best_destination(s.selected, v);
      return best >= 0 ? make_action(ActionKind::kMoveTo, best)
                       : legal[rng.uniform(static_cast<std::uint32_t>(legal.size()))];
    }
    case Phase::kChooseTarget: {
      // The target where the best available roller has the best odds, if they favour us.
      Action best = make_action(ActionKind::kEndBattles);
      double best_value = 0.0;
      for (Action a : legal) {
        if (action_kind(a) != ActionKind::kAttack) continue;
        const int target = action_payload(a);
        double value = -1.0;
        int rollers = 0;
        for (int i = 0; i < s.army_count; ++i) {
          const Army& r = s.armies[i];
          if (r.side != s.side || (r.flags & kRolled) || !map.adjacent(r.hex, target)) continue;
          ++rollers;
          const Odds o = roll_odds(defender_in_open(target), battle_modifier(s, r.hex, target));
          const double risk = map.hex(r.hex).is_sea() || (r.flags & kMilitia) ? 1.5 : 1.0;
          value = std::max(value, o.good - risk * o.bad);
        }
        value += 0.08 * (rollers - 1);  // more rollers: more chances to improve a bad roll
        const int town = map.hex(target).town;
        if (town >= 0) value += 0.05;
        if (value > best_value) {
          best_value = value;
          best = a;
        }
      }
      return best;
    }
    case Phase::kChooseRoller: {
      Action best = kInvalidAction;
      double best_value = -1e9;
      for (Action a : legal) {
        if (action_kind(a) != ActionKind::kRoll) continue;
        const int hex = action_payload(a);
        const Odds o = roll_odds(defender_in_open(s.target), battle_modifier(s, hex, s.target));
        const Army& r = s.armies[army_at(s, hex)];
        const double risk = map.hex(hex).is_sea() || (r.flags & kMilitia) ? 1.5 : 1.0;
        const double value = o.good - risk * o.bad;
        if (value > best_value) {
          best_value = value;
          best = a;
        }
      }
      if (s.attack_rolls == 0) return best;
      const int standing = s.battle_roll + battle_modifier(s, s.selected, s.target);
      if (best == kInvalidAction || standing >= 9) return make_action(ActionKind::kStop);
      if (standing <= 5) return best;  // a bad result stands unless replaced
      return best_value > 0.0 ? best : make_action(ActionKind::kStop);
    }
    case Phase::kAdvance: {
      const int town = map.hex(s.selected).town;
      const bool holding_own_town = town >= 0 &&
                                    town_held_by_danes(s, town) == (s.side == kDanes) &&
                                    !map.hex(s.selected).is_sea();
      return make_action(holding_own_town && map.hex(s.target).town < 0 ? ActionKind::kHold
                                                                        : ActionKind::kAdvance);
    }
    case Phase::kRoutStep: {
      // The step with the most free land around it (least likely to be trapped).
      Action best = legal[0];
      int best_free = -1;
      for (Action a : legal) {
        int free = 0;
        for (int n : map.hex(action_payload(a)).neighbours) {
          free += n >= 0 && !map.hex(n).is_sea() && army_at(s, n) < 0;
        }
        if (free > best_free) {
          best_free = free;
          best = a;
        }
      }
      return best;
    }
    default:
      return legal[rng.uniform(static_cast<std::uint32_t>(legal.size()))];
  }
}

void DanelawGame::candidate_actions(const State& s, ActionList<DanelawGame>& out) const {
  const HexMap& map = *map_;
  legal_actions(s, out);
  if (s.phase != Phase::kPlace && s.phase != Phase::kReinforce &&
      s.phase != Phase::kMoveDestination) {
    return;
  }
  if (s.phase == Phase::kPlace || s.phase == Phase::kReinforce) {
    // Sea hexes next to land (where a landing can start); land hexes are all kept.
    ActionList<DanelawGame> kept;
    for (Action a : out) {
      const HexInfo& h = map.hex(action_payload(a));
      bool near_land = !h.is_sea();
      for (int n : h.neighbours) near_land |= n >= 0 && !map.hex(n).is_sea();
      if (near_land) kept.push_back(a);
    }
    if (!kept.empty()) out = kept;
    return;
  }
  // Destinations: towns, hexes next to an enemy army, and the three with the best progress along
  // the side's distance field.
  const MovePlanner planner(*this, s);
  ActionList<DanelawGame> kept;
  std::array<std::pair<int, Action>, 3> farthest;
  farthest.fill({kUnreachable, kInvalidAction});
  for (Action a : out) {
    const int hex = action_payload(a);
    bool keep = map.hex(hex).town >= 0;
    for (int n : map.hex(hex).neighbours) keep |= n >= 0 && planner.enemy.test(n);
    if (keep) {
      kept.push_back(a);
      continue;
    }
    // Keep the three lowest distances to the targets seen so far.
    const int f = planner.field[hex];
    auto worst = std::max_element(farthest.begin(), farthest.end(),
                                  [](const auto& x, const auto& y) { return x.first < y.first; });
    if (f < worst->first) *worst = {f, a};
  }
  for (const auto& [f, a] : farthest) {
    if (a != kInvalidAction) kept.push_back(a);
  }
  if (!kept.empty()) out = kept;
}

}  // namespace sling::danelaw
