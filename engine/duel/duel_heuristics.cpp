// The duel's rule-of-thumb policy, static evaluation and candidate destinations, used by the
// `heuristic` agent, by rollouts and by search to keep movement branching small.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "engine/duel/duel.h"

namespace sling::duel {

// David keeps just beyond the reach of Goliath's next move, as close as that allows (for his
// sling), and away from the corners where he could be trapped; Goliath closes in.
Action DuelGame::heuristic_action(const State& s, Rng& rng) const {
  (void)rng;
  const bool contact = in_contact(s);
  switch (s.phase) {
    case Phase::kGod: {
      // Spend God only on a roll that would otherwise lose the game or waste a dazed Goliath.
      const int die = s.dice[0], second = s.dice[1];
      switch (s.roll) {
        case Roll::kJavelin:
          return die <= shooting_capability(s, kGoliath) ? act::kRerollFirst : act::kAccept;
        case Roll::kMelee:
          if (die + combat_value(s, kDavid) < second + combat_value(s, kGoliath)) {
            return second >= 4 ? act::kRerollSecond : act::kRerollFirst;
          }
          return act::kAccept;
        case Roll::kRecover:
          return (die >= rules_.recover_min && s.has(kBeheadPending)) ? act::kRerollFirst
                                                                      : act::kAccept;
        default:
          return act::kAccept;
      }
    }
    case Phase::kTieFlee:
      return act::kTieFlee;
    case Phase::kDeclare:
      if (s.actor == kDavid) {
        if (contact) return s.has(kGoliathDazed) ? act::kBehead : act::kFlee;
        if (s.has(kGoliathDazed)) {
          return s.has(kDavidHasStone) && shooting_capability(s, kDavid) >= 4 ? act::kShoot
                                                                              : act::kMove;
        }
        if (s.has(kDavidHasStone) && shooting_capability(s, kDavid) >= 3) return act::kShoot;
        // Out of Goliath's reach, a missing stone is worth a turn; otherwise keep moving.
        const double reach = move_base(s, kGoliath) - 1 + contact_tolerance_units() / 20.0;
        if (!s.has(kDavidHasStone) && edge_distance_cm(s) > reach) return act::kSearch;
        if (s.has(kDavidHasStone) && shooting_capability(s, kDavid) >= 2 &&
            edge_distance_cm(s) > reach) {
          return act::kShoot;
        }
        return act::kMove;
      }
      if (s.has(kGoliathDazed)) return act::kRecover;
      if (contact) return act::kFight;
      if (s.has(kGoliathJavelin) && shooting_capability(s, kGoliath) >= 2) return act::kShoot;
      if (!s.has(kGoliathJavelin) && s.has(kGoliathShield) && edge_distance_cm(s) > 12.0) {
        return act::kDropShield;
      }
      return act::kMove;
    case Phase::kDestination: {
      ActionList<DuelGame> actions;
      legal_actions(s, actions);
      const Side mover = mover_of(s);
      Action best = actions[0];
      double best_score = -1e18;
      const double reach = move_base(s, kGoliath) - 1 + contact_tolerance_units() / 20.0 + 0.5;
      const double half_board = rules_.board_cm / 2.0;
      if (mover == kGoliath || s.has(kGoliathDazed)) {
        // Close in (David also closes on a dazed Goliath to behead him): the first destination
        // of the least edge gap.  The gap is max(0, distance - radii), increasing in the squared
        // centre distance clamped below at radii^2, so that integer orders the destinations as
        // the gap does, ties included, without a square root each.
        const std::int64_t touching =
            static_cast<std::int64_t>(geometry_.sum_radii_units()) * geometry_.sum_radii_units();
        std::int64_t best_key = INT64_MAX;
        for (Action a : actions) {
          const State t = moved(s, mover, act::destination_x(a), act::destination_y(a));
          const std::int64_t key = std::max(centre_distance2(t), touching);
          if (key < best_key) {
            best_key = key;
            best = a;
          }
        }
        return best;
      }
      // David keeps just out of Goliath's reach, near the centre.
      for (Action a : actions) {
        const State t = moved(s, mover, act::destination_x(a), act::destination_y(a));
        const double gap = edge_distance_cm(t);
        const double cx = centre_x(kDavid, t.david_x) / 20.0 - half_board;
        const double cy = centre_y(kDavid, t.david_y) / 20.0 - half_board;
        const double from_centre = std::sqrt(cx * cx + cy * cy);
        const double score =
            -std::abs(gap - reach) - (gap < reach ? 10.0 : 0.0) - 0.3 * from_centre;
        if (score > best_score) {
          best_score = score;
          best = a;
        }
      }
      return best;
    }
    case Phase::kRoll:
    case Phase::kTerminal:
      break;
  }
  return kInvalidAction;
}

double DuelGame::evaluate(const State& s) const {
  if (s.phase == Phase::kTerminal) return returns(s)[0];
  // Rough value for David: Goliath is the favourite; a dazed Goliath, a stone in hand, God in
  // reserve and a spent javelin all help David, contact with a fit Goliath is deadly.
  double v = -0.5;
  const bool contact = in_contact(s);
  if (s.has(kGoliathDazed)) v += contact ? 0.6 : 0.35;
  if (s.has(kBeheadPending)) v += 0.2;
  if (s.has(kDavidHasStone)) v += 0.1;
  if (s.has(kGodAvailable)) v += 0.1;
  if (!s.has(kGoliathJavelin)) v += 0.1;
  if (!s.has(kGoliathShield)) v -= 0.05;
  if (contact && !s.has(kGoliathDazed)) v -= 0.25;
  return std::clamp(v, -0.95, 0.95);
}

// In kDestination: staying, the point nearest the opponent, the point farthest from it, and the
// farthest point in each of 16 compass sectors (on a tie, the first destination listed).  What this
// loses: fine adjustments of distance within a sector, which matter for the exact 5 cm shooting
// bands; the exact solver does not use it.
namespace {

constexpr int kCompassSectors = 16;

// The compass sector (0..15, by the angle of atan2 from -pi) of a step of at most 12 lattice
// points each way, from a table computed once: atan2 was a tenth of an MCTS expansion.
int compass_sector(int dx, int dy) {
  constexpr int kReach = MovementDisc::kMaxRow, kSide = 2 * kReach + 1;
  static const std::array<std::uint8_t, kSide* kSide> table = [] {
    std::array<std::uint8_t, kSide * kSide> sectors{};
    for (int y = -kReach; y <= kReach; ++y) {
      for (int x = -kReach; x <= kReach; ++x) {
        const double angle = std::atan2(static_cast<double>(y), static_cast<double>(x));
        sectors[static_cast<std::size_t>((y + kReach) * kSide + x + kReach)] =
            static_cast<std::uint8_t>(
                static_cast<int>(std::floor((angle + M_PI) / (2 * M_PI) * kCompassSectors)) %
                kCompassSectors);
      }
    }
    return sectors;
  }();
  return table[static_cast<std::size_t>((dy + kReach) * kSide + dx + kReach)];
}

}  // namespace

void DuelGame::candidate_actions(const State& s, ActionList<DuelGame>& out) const {
  if (s.phase != Phase::kDestination) {
    legal_actions(s, out);
    return;
  }
  ActionList<DuelGame> all;
  legal_actions(s, all);
  out.clear();
  const Side mover = mover_of(s);
  const int from_x = mover == kDavid ? s.david_x : s.goliath_x;
  const int from_y = mover == kDavid ? s.david_y : s.goliath_y;
  constexpr int kSectors = kCompassSectors;
  std::array<Action, kSectors> sector_best;
  std::array<int, kSectors> sector_reach;
  sector_best.fill(kInvalidAction);
  sector_reach.fill(-1);
  Action nearest = kInvalidAction, farthest = kInvalidAction, stay = kInvalidAction;
  std::int64_t nearest_d2 = INT64_MAX, farthest_d2 = -1;
  for (Action a : all) {
    const int dx = act::destination_x(a) - from_x, dy = act::destination_y(a) - from_y;
    const State t = moved(s, mover, act::destination_x(a), act::destination_y(a));
    const std::int64_t d2 = centre_distance2(t);
    if (d2 < nearest_d2) nearest_d2 = d2, nearest = a;
    if (d2 > farthest_d2) farthest_d2 = d2, farthest = a;
    if (dx == 0 && dy == 0) {
      stay = a;
      continue;
    }
    const int sector = compass_sector(dx, dy);
    const int reach = dx * dx + dy * dy;
    if (reach > sector_reach[sector]) sector_reach[sector] = reach, sector_best[sector] = a;
  }
  auto add = [&](Action a) {
    if (a == kInvalidAction) return;
    if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
  };
  add(nearest);
  add(farthest);
  add(stay);
  for (Action a : sector_best) add(a);
}

}  // namespace sling::duel
