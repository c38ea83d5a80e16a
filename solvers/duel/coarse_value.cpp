#include "solvers/duel/coarse_value.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "engine/core/errors.h"

namespace sling::duel {
namespace {

// Past this many plies inside one turn (a tied melee thrown again and again) the expectation is
// cut off and the game's own evaluation stands in; the probability of getting there is below
// 6^-10.
constexpr int kMaxTurnPlies = 40;

// The rules a value source must share with the game: all but the lattice pitch and the turn cap.
// A capped game is valued by the uncapped solution (the time limit ignored: it counts only near
// the cap, where the game itself scores the draw; the capped game's exact values are
// solve_capped_duel's).
DuelRules uncapped_without_pitch(DuelRules rules) {
  rules.pitch_cm = 0;
  rules.turn_cap = 0;
  return rules;
}

// A figure's coordinate on the coarse lattice, from its centre (in units) on the fine one.
std::vector<float> coarse_coordinates(int fine_points, int coarse_points,
                                      const std::function<int(int)>& fine_centre,
                                      const std::function<int(int)>& coarse_centre) {
  std::vector<float> out;
  const double origin = coarse_centre(0);
  const double step = coarse_centre(1) - origin;  // negative for Goliath's rows
  for (int i = 0; i < fine_points; ++i) {
    const double u = (fine_centre(i) - origin) / step;
    out.push_back(static_cast<float>(std::clamp(u, 0.0, static_cast<double>(coarse_points - 1))));
  }
  return out;
}

std::uint8_t range_class(const DuelGame& game, const DuelState& s) {
  return game.in_contact(s) ? 1 : static_cast<std::uint8_t>(2 + game.distance_bands(s));
}

}  // namespace

CoarseDuelValue::CoarseDuelValue(const DuelGame& game, std::shared_ptr<const DuelSolution> source,
                                 Scope leaf_scope, bool refined)
    : game_(game),
      fine_index_(game_),
      source_(std::move(source)),
      leaf_scope_(leaf_scope),
      refined_(refined) {
  const DuelGame& coarse = source_->game();
  if (!(uncapped_without_pitch(coarse.rules()) == uncapped_without_pitch(game_.rules()))) {
    throw RulesError("duel value function: the solution was solved for other rules");
  }
  auto axis = [&](Side side, bool columns) {
    const int fine_points = columns ? game_.lattice_width(side) : game_.lattice_height(side);
    const int coarse_points = columns ? coarse.lattice_width(side) : coarse.lattice_height(side);
    const auto fine_centre = [&](int i) {
      return columns ? game_.centre_x(side, i) : game_.centre_y(side, i);
    };
    const auto coarse_centre = [&](int i) {
      return columns ? coarse.centre_x(side, i) : coarse.centre_y(side, i);
    };
    std::vector<Axis> out;
    for (float u : coarse_coordinates(fine_points, coarse_points, fine_centre, coarse_centre)) {
      Axis a;
      a.low = static_cast<std::uint8_t>(std::floor(u));
      a.high = static_cast<std::uint8_t>(std::min<int>(a.low + 1, coarse_points - 1));
      a.high_weight = u - static_cast<float>(a.low);
      out.push_back(a);
    }
    return out;
  };
  david_x_ = axis(kDavid, true);
  david_y_ = axis(kDavid, false);
  goliath_x_ = axis(kGoliath, true);
  goliath_y_ = axis(kGoliath, false);

  const DuelIndex& index = source_->index();
  coarse_range_.assign(index.pairs(), 0);
  DuelState s;
  for_each_placement(coarse, s, [&] {
    coarse_range_[index.pair(s.david_x, s.david_y, s.goliath_x, s.goliath_y)] =
        range_class(coarse, s);
  });
}

double CoarseDuelValue::declare_value(const DuelState& s) const {
  const DuelIndex& index = source_->index();
  const bool god = s.has(kGodAvailable), shield = s.has(kGoliathShield);
  const bool javelin = s.has(kGoliathJavelin), stone = s.has(kDavidHasStone);
  const bool dazed = s.has(kGoliathDazed);
  const int slot = s.actor == kDavid ? DuelIndex::david_slot(stone, dazed)
                                     : DuelIndex::goliath_slot(stone, dazed, s.has(kBeheadPending));
  const double* values =
      source_->values().data() + index.at(DuelIndex::layer(god, shield, javelin), slot, 0);
  const std::uint8_t wanted = range_class(game_, s);
  const Axis axes[4] = {david_x_[s.david_x], david_y_[s.david_y], goliath_x_[s.goliath_x],
                        goliath_y_[s.goliath_y]};
  double same_sum = 0, same_weight = 0, any_sum = 0, any_weight = 0;
  for (int corner = 0; corner < 16; ++corner) {
    int at[4];
    double weight = 1;
    for (int k = 0; k < 4; ++k) {
      const bool high = (corner >> k) & 1;
      at[k] = high ? axes[k].high : axes[k].low;
      weight *= high ? axes[k].high_weight : 1 - axes[k].high_weight;
    }
    if (weight <= 0) continue;
    const std::size_t pair = index.pair(at[0], at[1], at[2], at[3]);
    const std::uint8_t range = coarse_range_[pair];
    if (range == 0) continue;
    any_sum += weight * values[pair];
    any_weight += weight;
    if (range == wanted) {
      same_sum += weight * values[pair];
      same_weight += weight;
    }
  }
  if (same_weight > 0) return same_sum / same_weight;
  if (any_weight > 0) return any_sum / any_weight;
  // Every nearby coarse pair overlaps (the fine figures touch where the coarse lattice has no
  // room): the nearest coarse pair where they do not.
  double best_distance = 1e300, best_value = 0;
  const DuelGame& coarse = source_->game();
  const float targets[4] = {
      static_cast<float>(axes[0].low) + axes[0].high_weight,
      static_cast<float>(axes[1].low) + axes[1].high_weight,
      static_cast<float>(axes[2].low) + axes[2].high_weight,
      static_cast<float>(axes[3].low) + axes[3].high_weight,
  };
  for (int gy = 0; gy < coarse.lattice_height(kGoliath); ++gy) {
    for (int gx = 0; gx < coarse.lattice_width(kGoliath); ++gx) {
      for (int dy = 0; dy < coarse.lattice_height(kDavid); ++dy) {
        for (int dx = 0; dx < coarse.lattice_width(kDavid); ++dx) {
          const std::size_t pair = index.pair(dx, dy, gx, gy);
          if (coarse_range_[pair] == 0) continue;
          const double d =
              (dx - targets[0]) * (dx - targets[0]) + (dy - targets[1]) * (dy - targets[1]) +
              (gx - targets[2]) * (gx - targets[2]) + (gy - targets[3]) * (gy - targets[3]);
          if (d < best_distance) {
            best_distance = d;
            best_value = values[pair];
          }
        }
      }
    }
  }
  return best_value;
}

double CoarseDuelValue::turn_value(const DuelState& s, bool root, Scope scope, int depth,
                                   TurnMemo& memo) const {
  if (game_.is_terminal(s)) return s.winner == kDavid ? 1.0 : 0.0;
  if (!root && fine_index_.index_of(s)) return declare_value(s);
  // A tied initiative roll is thrown again, so an expectation through it would recurse without
  // end: the game's start is the solution's own start value (physically the same positions).
  if (!root && s.phase == Phase::kRoll && s.roll == Roll::kInitiative && s.rerolling == 0) {
    return s.has(kGodAvailable) ? source_->summary().start : source_->summary().start_without_god;
  }
  if (depth >= kMaxTurnPlies) return (game_.evaluate(s) + 1) / 2;
  const Player player = game_.current_player(s);
  if (player == kChancePlayer) {
    return chance_expectation(game_, s, [&](const DuelState& child) {
      return turn_value(child, false, scope, depth + 1, memo);
    });
  }
  const bool remembered = s.phase == Phase::kDestination;
  if (remembered) {
    for (int i = 0; i < memo.used; ++i) {
      if (memo.states[i] == s) return memo.values[i];
    }
  }
  ActionList<DuelGame> actions;
  if (scope == Scope::kAllActions) {
    game_.legal_actions(s, actions);
  } else {
    game_.candidate_actions(s, actions);
  }
  const bool david = player == kDavid;
  double best = david ? -1.0 : 2.0;
  for (Action a : actions) {
    DuelState child = s;
    game_.apply_unchecked(child, a);
    const double v = turn_value(child, false, scope, depth + 1, memo);
    best = david ? std::max(best, v) : std::min(best, v);
  }
  if (remembered && memo.used < TurnMemo::kSize) {
    memo.states[memo.used] = s;
    memo.values[memo.used] = best;
    ++memo.used;
  }
  return best;
}

double CoarseDuelValue::win_probability(const DuelState& s, Scope scope) const {
  TurnMemo memo;
  return turn_value(s, false, scope, 0, memo);
}

std::vector<std::pair<Action, double>> CoarseDuelValue::action_values(const DuelState& s) const {
  std::vector<std::pair<Action, double>> out;
  const Player player = game_.current_player(s);
  if (player != kDavid && player != kGoliath) return out;
  // On the solution's own lattice its own action values, which the solver plays: computed here
  // they lost the ordering that makes the solver act on a plateau, and `lookahead` David stalled
  // (13 of 20 games at the 3,000-ply limit against the exact Goliath at 3 cm).
  if (exact()) return source_->action_values(s);
  ActionList<DuelGame> actions;
  game_.legal_actions(s, actions);
  TurnMemo memo;
  for (Action a : actions) {
    DuelState child = s;
    game_.apply_unchecked(child, a);
    out.emplace_back(a, turn_value(child, false, Scope::kAllActions, 1, memo));
  }
  return out;
}

}  // namespace sling::duel
