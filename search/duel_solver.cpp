#include "search/duel_solver.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include <cereal/archives/binary.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include "engine/core/errors.h"
#include "engine/core/io.h"

namespace sling::duel {

namespace {

constexpr std::uint8_t kStone = kDavidHasStone;
constexpr std::uint8_t kShield = kGoliathShield;
constexpr std::uint8_t kJavelin = kGoliathJavelin;
constexpr std::uint8_t kGod = kGodAvailable;
constexpr std::uint8_t kDazed = kGoliathDazed;
constexpr std::uint8_t kBehead = kBeheadPending;

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Flags of a layer (God and Goliath's kit) and of a slot (stone, daze, pending behead).
std::uint8_t layer_flags(int layer) {
  std::uint8_t f = 0;
  if (layer >= 3) f |= kGod;
  const int kit = layer % 3;
  if (kit >= 1) f |= kShield;
  if (kit == 2) f |= kJavelin;
  return f;
}
std::uint8_t slot_flags(int slot) {
  if (slot < 4) return static_cast<std::uint8_t>(((slot & 2) ? kStone : 0) | ((slot & 1) ? kDazed : 0));
  const int g = slot - 4;
  std::uint8_t f = g >= 3 ? kStone : 0;
  const int k = g % 3;
  if (k >= 1) f |= kDazed;
  if (k == 2) f |= kBehead;
  return f;
}
const char* layer_name(int layer) {
  static const char* kNames[] = {"no-god/no-kit",  "no-god/shield",  "no-god/shield+javelin",
                                 "god/no-kit",     "god/shield",     "god/shield+javelin"};
  return kNames[layer];
}

// ---------------------------------------------------------------------------------------------
// Geometry: lattice centres, the movement offsets of each side sorted by length, and per position
// pair the contact flag and the shooting capabilities (all taken from DuelGame, so they agree).

struct Offset {
  int dx, dy;
};

struct Geometry {
  const DuelGame& game;
  DuelIndex index;
  int cols[2], rows[2], points[2];
  std::vector<int> cx[2], cy[2];
  std::vector<Offset> offsets[2];
  std::array<int, 13> within[2]{};
  std::int64_t overlap2 = 0, far2[2] = {0, 0};
  std::vector<std::uint8_t> contact, cap_david, cap_goliath, valid;
  std::vector<std::uint32_t> canonical_pairs;  // valid pairs with x on the canonical half
  std::size_t start_pair = 0;
  std::array<std::array<int, 7>, 7> melee_sign_shield{}, melee_sign_two_handed{};

  explicit Geometry(const DuelGame& g) : game(g), index(g) {
    const DuelRules& r = g.rules();
    for (int side = 0; side < 2; ++side) {
      const Side s = static_cast<Side>(side);
      cols[side] = g.lattice_width(s);
      rows[side] = g.lattice_height(s);
      points[side] = cols[side] * rows[side];
      for (int x = 0; x < cols[side]; ++x) cx[side].push_back(g.centre_x(s, x));
      for (int y = 0; y < rows[side]; ++y) cy[side].push_back(g.centre_y(s, y));
      const int max_move = side == kDavid ? r.david_move - 1
                                          : std::max(r.goliath_move_shield, r.goliath_move_two_handed) - 1;
      const int reach = std::max(0, max_move) / r.pitch_cm;
      for (int dy = -reach; dy <= reach; ++dy) {
        for (int dx = -reach; dx <= reach; ++dx) {
          if ((dx * dx + dy * dy) * r.pitch_cm * r.pitch_cm <= max_move * max_move) {
            offsets[side].push_back({dx, dy});
          }
        }
      }
      std::stable_sort(offsets[side].begin(), offsets[side].end(), [](Offset a, Offset b) {
        return a.dx * a.dx + a.dy * a.dy < b.dx * b.dx + b.dy * b.dy;
      });
      for (int cm = 0; cm <= 12; ++cm) {
        within[side][cm] = static_cast<int>(std::count_if(
            offsets[side].begin(), offsets[side].end(), [&](Offset o) {
              return (o.dx * o.dx + o.dy * o.dy) * r.pitch_cm * r.pitch_cm <= cm * cm;
            }));
      }
    }
    const std::int64_t sum_radii = r.david_base_mm + r.goliath_base_mm;
    overlap2 = sum_radii * sum_radii;
    for (int side = 0; side < 2; ++side) {
      // Beyond this centre distance no path of the mover can touch the other base.
      const std::int64_t reach =
          static_cast<std::int64_t>(side == kDavid ? r.david_move
                                                   : std::max(r.goliath_move_shield,
                                                              r.goliath_move_two_handed)) *
              DuelGame::kUnitsPerCm + sum_radii + 1;
      far2[side] = reach * reach;
    }
    const std::size_t pairs = index.pairs();
    contact.resize(pairs);
    cap_david.resize(pairs);
    cap_goliath.resize(pairs);
    valid.resize(pairs);
    DuelState s = g.initial_state();
    start_pair = index.pair(s.david_x, s.david_y, s.goliath_x, s.goliath_y);
    for (int gy = 0; gy < rows[1]; ++gy) {
      for (int gx = 0; gx < cols[1]; ++gx) {
        for (int dy = 0; dy < rows[0]; ++dy) {
          for (int dx = 0; dx < cols[0]; ++dx) {
            s.david_x = static_cast<std::uint8_t>(dx);
            s.david_y = static_cast<std::uint8_t>(dy);
            s.goliath_x = static_cast<std::uint8_t>(gx);
            s.goliath_y = static_cast<std::uint8_t>(gy);
            const std::size_t p = index.pair(dx, dy, gx, gy);
            valid[p] = g.centre_distance2(s) >= overlap2;
            contact[p] = g.in_contact(s);
            cap_david[p] = static_cast<std::uint8_t>(g.shooting_capability(s, kDavid));
            cap_goliath[p] = static_cast<std::uint8_t>(g.shooting_capability(s, kGoliath));
            if (valid[p] && index.canonical(p)) canonical_pairs.push_back(static_cast<std::uint32_t>(p));
          }
        }
      }
    }
    for (int d = 1; d <= 6; ++d) {
      for (int o = 1; o <= 6; ++o) {
        const int david = d + r.combat_david;
        melee_sign_shield[d][o] = (david > o + r.combat_goliath_shield) - (david < o + r.combat_goliath_shield);
        melee_sign_two_handed[d][o] =
            (david > o + r.combat_goliath_two_handed) - (david < o + r.combat_goliath_two_handed);
      }
    }
  }

  // DuelGame::destination_legal for an in-disc, in-board, non-zero step, without the division of
  // work between bounds and allowance (the offset lists already bound the step).
  bool path_clear(std::int64_t px, std::int64_t py, std::int64_t qx, std::int64_t qy, std::int64_t cx0,
                  std::int64_t cy0) const {
    const std::int64_t end2 = (qx - cx0) * (qx - cx0) + (qy - cy0) * (qy - cy0);
    if (end2 < overlap2) return false;
    const std::int64_t step2 = (qx - px) * (qx - px) + (qy - py) * (qy - py);
    const std::int64_t dot = (cx0 - px) * (qx - px) + (cy0 - py) * (qy - py);
    if (dot > 0 && dot < step2) {
      const std::int64_t cross = (qx - px) * (cy0 - py) - (qy - py) * (cx0 - px);
      if (static_cast<__int128>(cross) * cross < static_cast<__int128>(overlap2) * step2) return false;
    }
    return true;
  }
};

int faces_at_most(int value) { return std::clamp(value, 0, 6); }
int faces_at_least(int value) { return std::clamp(7 - value, 0, 6); }

// ---------------------------------------------------------------------------------------------
// Value types.  The plain solve carries one value per node.  The certification passes carry a
// pair: `g`, the value under the guide (the solved values, both sides optimal), which fixes the
// choices of the side whose policy is being evaluated, and `e`, the value being iterated.

enum class Mode { kOptimal, kDavidFixed, kGoliathFixed, kBothFixed };

struct Pair {
  double g, e;
};
inline Pair operator+(Pair a, Pair b) { return {a.g + b.g, a.e + b.e}; }
inline Pair operator*(double w, Pair a) { return {w * a.g, w * a.e}; }

template <Mode M>
struct Ops {
  using T = Pair;
  // David's choice between options a and b (a listed first: it wins ties).
  static T david(T a, T b) {
    if constexpr (M == Mode::kGoliathFixed) {
      return {std::max(a.g, b.g), std::max(a.e, b.e)};
    } else {
      return b.g > a.g ? b : a;
    }
  }
  static T goliath(T a, T b) {
    if constexpr (M == Mode::kDavidFixed) {
      return {std::min(a.g, b.g), std::min(a.e, b.e)};
    } else {
      return b.g < a.g ? b : a;
    }
  }
  static double e(T v) { return v.e; }
  // Does the choice between a (first) and b take b?  Used to record a fixed side's destinations.
  static bool takes_second(T a, T b, bool david) { return david ? b.g > a.g : b.g < a.g; }
};
template <>
struct Ops<Mode::kOptimal> {
  using T = double;
  static T david(T a, T b) { return b > a ? b : a; }
  static T goliath(T a, T b) { return b < a ? b : a; }
  static double e(T v) { return v; }
  static bool takes_second(T a, T b, bool david) { return david ? b > a : b < a; }
};

// ---------------------------------------------------------------------------------------------
// One turn, evaluated exactly from the values at the start of the next turn.  Every function
// mirrors a path through DuelGame::dice_final / begin_turn (tests compare the two).

template <Mode M>
class TurnEvaluator {
 public:
  using O = Ops<M>;
  using T = typename O::T;

  TurnEvaluator(const Geometry& geo, const double* guide, const double* eval, T david_win,
                T goliath_win)
      : geo_(geo), r_(geo.game.rules()), guide_(guide), eval_(eval), win_(david_win),
        lose_(goliath_win) {}

  // Destination records (see DestinationMode): per (slot, pair) of the layer being swept, the
  // offset index of the chosen destination for each allowance.
  enum class Destinations : std::uint8_t { kFull, kRecord, kReplay };
  void set_destinations(std::uint16_t* records, int layer, Destinations david, Destinations goliath) {
    records_ = records;
    records_layer_ = layer;
    destinations_[kDavid] = david;
    destinations_[kGoliath] = goliath;
  }

  // No-God movement values of the current God layer (see fill_cache), or null.
  void set_cache(const T* cache, int layer) {
    cache_ = cache;
    cache_layer_ = layer;
  }

  T read(std::size_t i) const {
    if constexpr (M == Mode::kOptimal) {
      return eval_[i];
    } else {
      return T{guide_[i], eval_[i]};
    }
  }
  static int layer_of(std::uint8_t f) {
    return DuelIndex::layer((f & kGod) != 0, (f & kShield) != 0, (f & kJavelin) != 0);
  }
  T vd(std::size_t pair, std::uint8_t f) const {
    return read(geo_.index.at(layer_of(f), DuelIndex::david_slot(f & kStone, f & kDazed), pair));
  }
  T vg(std::size_t pair, std::uint8_t f) const {
    return read(geo_.index.at(layer_of(f),
                              DuelIndex::goliath_slot(f & kStone, f & kDazed, f & kBehead), pair));
  }
  // David's turn begins (DuelGame::begin_turn): a pending behead of a still dazed Goliath wins.
  T leaf_david(std::size_t pair, std::uint8_t f) const {
    if (f & kBehead) {
      if (f & kDazed) return win_;
      f = static_cast<std::uint8_t>(f & ~kBehead);
    }
    return vd(pair, f);
  }
  // The value after the acting side's turn ends.
  T leaf_after(Side actor, std::size_t pair, std::uint8_t f) const {
    return actor == kDavid ? vg(pair, f) : leaf_david(pair, f);
  }

  // A single die with David's God decision: accept (first option) or re-roll into the no-God
  // world, whose value is `reroll`.
  static T god_die(double p_success, T success, T failure, T reroll) {
    return p_success * O::david(success, reroll) + (1 - p_success) * O::david(failure, reroll);
  }
  static T plain_die(double p_success, T success, T failure) {
    return p_success * success + (1 - p_success) * failure;
  }

  // best[a] for a = 0..max_allowance: the mover's best destination within a cm.  The disc of
  // a + 1 contains the disc of a, so one pass over the offsets sorted by length gives every
  // allowance (best(a + 1) = best of best(a) and the ring between).
  template <Side kMover>
  void disc(std::size_t pair, std::uint8_t f, Side actor, int max_allowance, T* best) const {
    const int np_david = geo_.points[kDavid];
    const std::size_t david = pair % static_cast<std::size_t>(np_david);
    const std::size_t goliath = pair / static_cast<std::size_t>(np_david);
    const int cols = geo_.cols[kMover], rows = geo_.rows[kMover];
    const std::size_t me = kMover == kDavid ? david : goliath;
    const int x0 = static_cast<int>(me % static_cast<std::size_t>(cols));
    const int y0 = static_cast<int>(me / static_cast<std::size_t>(cols));
    constexpr int kOther = kMover == kDavid ? kGoliath : kDavid;
    const std::size_t other = kMover == kDavid ? goliath : david;
    const int ocols = geo_.cols[kOther];
    const std::int64_t ox = geo_.cx[kOther][other % static_cast<std::size_t>(ocols)];
    const std::int64_t oy = geo_.cy[kOther][other / static_cast<std::size_t>(ocols)];
    const std::int64_t px = geo_.cx[kMover][static_cast<std::size_t>(x0)];
    const std::int64_t py = geo_.cy[kMover][static_cast<std::size_t>(y0)];
    const bool far = (px - ox) * (px - ox) + (py - oy) * (py - oy) > geo_.far2[kMover];
    // Leaf values: after David's own turn Goliath declares; after Goliath's turn David does.
    const bool leaf_goliath = actor == kDavid;
    const int layer = layer_of(f);
    const int slot = leaf_goliath ? DuelIndex::goliath_slot(f & kStone, f & kDazed, f & kBehead)
                                  : DuelIndex::david_slot(f & kStone, f & kDazed);
    const std::size_t base = geo_.index.at(layer, slot, 0);
    const auto& offsets = geo_.offsets[kMover];
    const auto& within = geo_.within[kMover];
    // Only the moves of the side whose turn it is, in the layer being swept, are recorded: the
    // mover's state is then (slot, pair) of that layer.
    const Destinations mode = (records_ != nullptr && layer == records_layer_ && actor == kMover)
                                  ? destinations_[kMover]
                                  : Destinations::kFull;
    std::uint16_t* record =
        mode == Destinations::kFull
            ? nullptr
            : records_ + (static_cast<std::size_t>(
                              actor == kDavid ? DuelIndex::david_slot(f & kStone, f & kDazed)
                                              : DuelIndex::goliath_slot(f & kStone, false, false)) *
                              geo_.index.pairs() +
                          pair) *
                             13;
    auto next_of = [&](int i) {
      const int x = x0 + offsets[static_cast<std::size_t>(i)].dx;
      const int y = y0 + offsets[static_cast<std::size_t>(i)].dy;
      const std::size_t to = static_cast<std::size_t>(y * cols + x);
      return kMover == kDavid ? goliath * static_cast<std::size_t>(np_david) + to
                              : to * static_cast<std::size_t>(np_david) + david;
    };
    if (mode == Destinations::kReplay) {
      for (int a = 0; a <= max_allowance; ++a) best[a] = read(base + next_of(record[a]));
      return;
    }
    T run{};
    int chosen = 0;
    bool have = false;
    int i = 0;
    for (int a = 0; a <= max_allowance; ++a) {
      const int end = within[static_cast<std::size_t>(std::min(a, 12))];
      for (; i < end; ++i) {
        const int x = x0 + offsets[static_cast<std::size_t>(i)].dx;
        const int y = y0 + offsets[static_cast<std::size_t>(i)].dy;
        if (x < 0 || y < 0 || x >= cols || y >= rows) continue;
        if (i != 0 && !far &&
            !geo_.path_clear(px, py, geo_.cx[kMover][static_cast<std::size_t>(x)],
                             geo_.cy[kMover][static_cast<std::size_t>(y)], ox, oy)) {
          continue;
        }
        const std::size_t next = next_of(i);
        // The next side declares with the same flags (a mover never has a pending behead).
        const T v = read(base + next);
        if (!have) {
          run = v;
          chosen = i;
          have = true;
        } else {
          if (record != nullptr && O::takes_second(run, v, kMover == kDavid)) chosen = i;
          run = kMover == kDavid ? O::david(run, v) : O::goliath(run, v);
        }
      }
      best[a] = run;
      if (record != nullptr) record[a] = static_cast<std::uint16_t>(chosen);
    }
  }

  // David's movement roll (Move, or the movement after a successful flee or a tied melee) and
  // destination, then the turn of `actor` ends.  f carries God when it is available.
  T david_move(std::size_t pair, std::uint8_t f, Side actor) const {
    T best[13];
    const int top = r_.david_move - 1;
    disc<kDavid>(pair, f, actor, top, best);
    const T stay = leaf_after(actor, pair, f);
    if (!(f & kGod)) {
      T sum = (1.0 / 6) * stay;
      for (int die = 1; die <= 5; ++die) sum = sum + (1.0 / 6) * best[r_.david_move - die];
      return sum;
    }
    const T reroll = no_god_david_move(pair, f, actor);
    T sum = (1.0 / 6) * O::david(stay, reroll);
    for (int die = 1; die <= 5; ++die) sum = sum + (1.0 / 6) * O::david(best[r_.david_move - die], reroll);
    return sum;
  }
  T no_god_david_move(std::size_t pair, std::uint8_t f, Side actor) const {
    if (cache_ != nullptr && actor == kDavid && layer_of(f) == cache_layer_) {
      return cache_[geo_.index.at(0, DuelIndex::david_slot(f & kStone, f & kDazed), pair)];
    }
    return david_move(pair, static_cast<std::uint8_t>(f & ~kGod), actor);
  }

  T goliath_move(std::size_t pair, std::uint8_t f) const {
    T best[13];
    const int base_move = (f & kShield) ? r_.goliath_move_shield : r_.goliath_move_two_handed;
    disc<kGoliath>(pair, f, kGoliath, std::max(0, base_move - 1), best);
    if (!(f & kGod)) {
      T sum = (1.0 / 6) * best[std::max(0, base_move - 1)];
      for (int die = 2; die <= 6; ++die) sum = sum + (1.0 / 6) * best[std::max(0, base_move - die)];
      return sum;
    }
    const T reroll = no_god_goliath_move(pair, f);
    T sum = (1.0 / 6) * O::david(best[std::max(0, base_move - 1)], reroll);
    for (int die = 2; die <= 6; ++die) {
      sum = sum + (1.0 / 6) * O::david(best[std::max(0, base_move - die)], reroll);
    }
    return sum;
  }
  T no_god_goliath_move(std::size_t pair, std::uint8_t f) const {
    if (cache_ != nullptr && layer_of(f) == cache_layer_) {
      return cache_[geo_.index.at(0, DuelIndex::goliath_slot(f & kStone, false, false), pair)];
    }
    return goliath_move(pair, static_cast<std::uint8_t>(f & ~kGod));
  }

  // Shoot: the stone is used up; to-hit, damage and daze, each a die David may re-roll.
  T shoot(std::size_t pair, std::uint8_t f) const {
    const std::uint8_t used = static_cast<std::uint8_t>(f & ~kStone);
    const double p_hit = faces_at_most(geo_.cap_david[pair]) / 6.0;
    const int protection = (f & kShield) ? r_.protection_shield : r_.protection_two_handed;
    const double p_damage = (6 - std::clamp(protection, 0, 6)) / 6.0;
    const double p_daze = faces_at_most(r_.daze_max) / 6.0;
    // A stone-dazed Goliath loses his next turn: David declares again at once.
    const std::uint8_t n = static_cast<std::uint8_t>(used & ~kGod);
    const T miss_n = vg(pair, n);
    const T daze_n = plain_die(p_daze, vd(pair, n | kDazed), miss_n);
    const T damage_n = plain_die(p_damage, daze_n, miss_n);
    const T hit_n = plain_die(p_hit, damage_n, miss_n);
    if (!(f & kGod)) return hit_n;
    const T miss = vg(pair, used);
    const T daze = god_die(p_daze, vd(pair, used | kDazed), miss, daze_n);
    const T damage = god_die(p_damage, daze, miss, damage_n);
    return god_die(p_hit, damage, miss, hit_n);
  }

  T search(std::size_t pair, std::uint8_t f) const {
    const double p = faces_at_least(r_.search_min) / 6.0;
    const std::uint8_t n = static_cast<std::uint8_t>(f & ~kGod);
    const T plain = plain_die(p, vg(pair, n | kStone), vg(pair, n));
    if (!(f & kGod)) return plain;
    return god_die(p, vg(pair, f | kStone), vg(pair, f), plain);
  }

  T flee(std::size_t pair, std::uint8_t f) const {
    const double p = faces_at_least(r_.flee_min) / 6.0;
    const std::uint8_t n = static_cast<std::uint8_t>(f & ~kGod);
    const T plain = plain_die(p, no_god_david_move(pair, f, kDavid), vg(pair, n));
    if (!(f & kGod)) return plain;
    return god_die(p, david_move(pair, f, kDavid), vg(pair, f), plain);
  }

  // The melee declared by `actor`: each die may be re-rolled by God (either die).
  T melee(std::size_t pair, std::uint8_t f, Side actor) const {
    const auto& sign = (f & kShield) ? geo_.melee_sign_shield : geo_.melee_sign_two_handed;
    auto outcomes = [&](std::uint8_t flags, T tie_flee) {
      std::array<T, 3> o;  // David loses, tie, David wins
      o[0] = lose_;
      o[1] = O::david(tie_flee, leaf_after(actor, pair, flags));
      o[2] = leaf_after(actor, pair, static_cast<std::uint8_t>(flags | kDazed));
      return o;
    };
    const std::uint8_t n = static_cast<std::uint8_t>(f & ~kGod);
    const T flee_n = actor == kDavid ? no_god_david_move(pair, f, kDavid) : david_move(pair, n, actor);
    const auto plain = outcomes(n, flee_n);
    if (!(f & kGod)) {
      T sum{};
      for (int d = 1; d <= 6; ++d) {
        for (int o = 1; o <= 6; ++o) sum = sum + (1.0 / 36) * plain[static_cast<std::size_t>(sign[d][o] + 1)];
      }
      return sum;
    }
    const auto with_god = outcomes(f, david_move(pair, f, actor));
    std::array<T, 7> reroll_david{}, reroll_goliath{};  // indexed by the die kept
    for (int k = 1; k <= 6; ++k) {
      T by_goliath_die{}, by_david_die{};
      for (int j = 1; j <= 6; ++j) {
        by_goliath_die = by_goliath_die + (1.0 / 6) * plain[static_cast<std::size_t>(sign[j][k] + 1)];
        by_david_die = by_david_die + (1.0 / 6) * plain[static_cast<std::size_t>(sign[k][j] + 1)];
      }
      reroll_david[static_cast<std::size_t>(k)] = by_goliath_die;   // keeps Goliath's die k
      reroll_goliath[static_cast<std::size_t>(k)] = by_david_die;   // keeps David's die k
    }
    T sum{};
    for (int d = 1; d <= 6; ++d) {
      for (int o = 1; o <= 6; ++o) {
        const T accept = with_god[static_cast<std::size_t>(sign[d][o] + 1)];
        const T v = O::david(O::david(accept, reroll_david[static_cast<std::size_t>(o)]),
                             reroll_goliath[static_cast<std::size_t>(d)]);
        sum = sum + (1.0 / 36) * v;
      }
    }
    return sum;
  }

  // David declares: the best of his legal actions (in DuelGame's order).
  T david_turn(std::size_t pair, std::uint8_t f) const {
    const bool contact = geo_.contact[pair] != 0;
    T best{};
    bool have = false;
    auto consider = [&](T v) {
      best = have ? O::david(best, v) : v;
      have = true;
    };
    if (!contact) consider(david_move(pair, f, kDavid));
    if ((f & kStone) && geo_.cap_david[pair] >= 1) consider(shoot(pair, f));
    if (contact) consider(melee(pair, f, kDavid));
    if (!(f & kStone)) consider(search(pair, f));
    if (contact && (f & kDazed)) consider(vg(pair, f | kBehead));
    if (contact) consider(flee(pair, f));
    return best;
  }

  T goliath_turn(std::size_t pair, std::uint8_t f) const {
    if (f & kDazed) {
      const double p = faces_at_least(r_.recover_min) / 6.0;
      const std::uint8_t up = static_cast<std::uint8_t>(f & ~kDazed);
      const std::uint8_t n = static_cast<std::uint8_t>(f & ~kGod);
      const T plain = plain_die(p, leaf_david(pair, static_cast<std::uint8_t>(up & ~kGod)),
                                leaf_david(pair, n));
      if (!(f & kGod)) return plain;
      return god_die(p, leaf_david(pair, up), leaf_david(pair, f), plain);
    }
    const bool contact = geo_.contact[pair] != 0;
    T best = goliath_move(pair, f);
    if ((f & kJavelin) && geo_.cap_goliath[pair] >= 1) {
      const double p = faces_at_most(geo_.cap_goliath[pair]) / 6.0;
      const std::uint8_t thrown = static_cast<std::uint8_t>(f & ~kJavelin);
      const T plain = plain_die(p, lose_, vd(pair, static_cast<std::uint8_t>(thrown & ~kGod)));
      best = O::goliath(best, (f & kGod) ? god_die(p, lose_, vd(pair, thrown), plain) : plain);
    }
    if (contact) best = O::goliath(best, melee(pair, f, kGoliath));
    if (f & kShield) best = O::goliath(best, vd(pair, static_cast<std::uint8_t>(f & ~(kShield | kJavelin))));
    return best;
  }

  T state_value(int layer, int slot, std::size_t pair) const {
    const std::uint8_t f = static_cast<std::uint8_t>(layer_flags(layer) | slot_flags(slot));
    return slot < 4 ? david_turn(pair, f) : goliath_turn(pair, f);
  }

  // The initiative: both dice, ties rolled again, David may re-roll either die (God).  Solved as
  // a one-variable fixed point (a tie comes back with probability 1/6); `from` is where the
  // iteration starts (0 gives lower bounds at every step, 1 upper bounds).
  T initiative(bool god, double from) const {
    const std::size_t p = geo_.start_pair;
    const std::uint8_t kit = kShield | kJavelin;
    auto solve = [&](std::uint8_t f, auto&& value_of_tie) {
      T v = T{} + from * one();
      for (int it = 0; it < 400; ++it) v = value_of_tie(f, v);
      return v;
    };
    const T first_n = vd(p, kit), second_n = vg(p, kit);
    auto plain_step = [&](std::uint8_t, T tie) {
      return (15.0 / 36) * first_n + (15.0 / 36) * second_n + (6.0 / 36) * tie;
    };
    const T plain = solve(kit, plain_step);
    if (!god) return plain;
    const std::uint8_t f = kit | kGod;
    const T first = vd(p, f), second = vg(p, f);
    auto outcome_n = [&](int d, int o) { return d > o ? first_n : (d < o ? second_n : plain); };
    auto god_step = [&](std::uint8_t, T tie) {
      T sum{};
      for (int d = 1; d <= 6; ++d) {
        for (int o = 1; o <= 6; ++o) {
          const T accept = d > o ? first : (d < o ? second : tie);
          T reroll_david{}, reroll_goliath{};
          for (int j = 1; j <= 6; ++j) {
            reroll_david = reroll_david + (1.0 / 6) * outcome_n(j, o);
            reroll_goliath = reroll_goliath + (1.0 / 6) * outcome_n(d, j);
          }
          sum = sum + (1.0 / 36) * O::david(O::david(accept, reroll_david), reroll_goliath);
        }
      }
      return sum;
    };
    return solve(f, god_step);
  }

 private:
  static T one() {
    if constexpr (M == Mode::kOptimal) {
      return 1.0;
    } else {
      return T{1.0, 1.0};
    }
  }

  const Geometry& geo_;
  const DuelRules& r_;
  const double* guide_;
  const double* eval_;
  T win_, lose_;
  const T* cache_ = nullptr;
  int cache_layer_ = -1;
  std::uint16_t* records_ = nullptr;
  int records_layer_ = -1;
  Destinations destinations_[2] = {Destinations::kFull, Destinations::kFull};
};

// ---------------------------------------------------------------------------------------------
// Sweeps.

struct SweepResult {
  double max_change = 0;    // largest |new - old|
  double max_increase = 0;  // largest new - old (0 when nothing rose)
  SweepResult combine(const SweepResult& o) const {
    return {std::max(max_change, o.max_change), std::max(max_increase, o.max_increase)};
  }
};

// The slots of a layer in the order a sweep updates them: no slot of a group reads another slot
// of the same group, so each group is updated in parallel in place and the sweep is Gauss-Seidel
// (deterministic whatever the thread count).  A stone can daze Goliath inside David's turn, and
// then David declares again: dazed David slots go first.
constexpr std::array<std::array<int, 6>, 4> kGroups = {{{1, -1, -1, -1, -1, -1},
                                                         {3, -1, -1, -1, -1, -1},
                                                         {0, 2, -1, -1, -1, -1},
                                                         {4, 5, 6, 7, 8, 9}}};

template <Mode M>
SweepResult sweep(const Geometry& geo, const TurnEvaluator<M>& ev, double* values, int layer,
                  double continuation, bool monotone) {
  SweepResult total;
  const auto& pairs = geo.canonical_pairs;
  for (const auto& group : kGroups) {
    SweepResult part = tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, pairs.size(), 256), SweepResult{},
        [&](const tbb::blocked_range<std::size_t>& range, SweepResult acc) {
          for (std::size_t k = range.begin(); k != range.end(); ++k) {
            const std::size_t p = pairs[k];
            const std::size_t mirror = geo.index.mirror(p);
            for (int slot : group) {
              if (slot < 0) break;
              const std::size_t i = geo.index.at(layer, slot, p);
              const double old = values[i];
              double v = continuation * Ops<M>::e(ev.state_value(layer, slot, p));
              if (monotone) v = std::max(v, old);
              acc.max_change = std::max(acc.max_change, std::abs(v - old));
              acc.max_increase = std::max(acc.max_increase, v - old);
              values[i] = v;
              values[geo.index.at(layer, slot, mirror)] = v;
            }
          }
          return acc;
        },
        [](const SweepResult& a, const SweepResult& b) { return a.combine(b); });
    total = total.combine(part);
  }
  return total;
}

// The no-God movement values of a God layer: they read only the finished no-God layers, so they
// are computed once per layer instead of once per sweep.
template <Mode M>
std::vector<typename Ops<M>::T> fill_cache(const Geometry& geo, const TurnEvaluator<M>& ev, int layer) {
  using T = typename Ops<M>::T;
  std::vector<T> cache(geo.index.at(0, DuelIndex::kSlots, 0));
  const auto& pairs = geo.canonical_pairs;
  const std::uint8_t lf = static_cast<std::uint8_t>(layer_flags(layer) & ~kGod);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pairs.size(), 256),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      for (std::size_t k = range.begin(); k != range.end(); ++k) {
                        const std::size_t p = pairs[k];
                        for (int slot : {0, 1, 2, 3}) {
                          const std::uint8_t f = static_cast<std::uint8_t>(lf | slot_flags(slot));
                          cache[geo.index.at(0, slot, p)] = ev.david_move(p, f, kDavid);
                        }
                        for (int slot : {4, 7}) {
                          const std::uint8_t f = static_cast<std::uint8_t>(lf | slot_flags(slot));
                          cache[geo.index.at(0, slot, p)] = ev.goliath_move(p, f);
                        }
                      }
                    });
  return cache;
}

struct PassOptions {
  std::string name;
  bool upper = false;         // the upper pass: certified once a sweep raises nothing
  double tolerance = 1e-11;
  int max_sweeps = 20000;
  double continuation = 1.0;  // the solve pass discounts each turn by this factor
};

// A sweep "raises nothing" when no value rose by more than floating-point rounding of the
// evaluation (a few ulps of values below 1).
constexpr double kRoundingAllowance = 1e-15;

constexpr int kFullSweepEvery = 4;

// Runs one pass over every layer in order; returns per-layer reports.
template <Mode M>
void run_pass(const Geometry& geo, const double* guide, double* eval, typename Ops<M>::T win,
              typename Ops<M>::T lose, const std::vector<int>& layers, const PassOptions& po,
              const SolverOptions& options, SolveSummary& summary,
              const std::function<void(int layer)>& before_layer = {}) {
  for (int layer : layers) {
    const auto start = Clock::now();
    if (before_layer) before_layer(layer);
    TurnEvaluator<M> ev(geo, guide, eval, win, lose);
    std::vector<std::uint16_t> records(geo.index.at(0, DuelIndex::kSlots, 0) * 13);
    std::vector<typename Ops<M>::T> cache;
    if (layer >= 3) {
      cache = fill_cache(geo, ev, layer);
      ev.set_cache(cache.data(), layer);
    }
    PassReport report;
    report.layer = layer_name(layer);
    report.pass = po.name;
    report.certified = !po.upper;
    // An upper pass that cannot certify within this many sweeps is retried with a larger margin.
    const int uncertified_limit = 400;
    using D = typename TurnEvaluator<M>::Destinations;
    for (int s = 0; s < po.max_sweeps; ++s) {
      // Destinations: a side whose policy is fixed records its choices on the first sweep and
      // replays them after.  In the solve pass David chooses afresh (and records) every
      // kFullSweepEvery sweeps and replays his recorded destinations in between; the pass stops
      // only on a full sweep.  Only David may replay there: a replayed choice is worth at most
      // the best one, so with values never lowered (monotone) the iterates stay below the least
      // fixed point and converge to it.  A replayed Goliath choice could lift them above it, to
      // another fixed point of a game whose fixed points are not unique (play can cycle forever).
      bool full = true;
      if constexpr (M == Mode::kOptimal) {
        full = s % kFullSweepEvery == 0;
        ev.set_destinations(records.data(), layer, full ? D::kRecord : D::kReplay, D::kFull);
      } else {
        const D fixed = s == 0 ? D::kRecord : D::kReplay;
        const bool david_fixed = M == Mode::kDavidFixed || M == Mode::kBothFixed;
        const bool goliath_fixed = M == Mode::kGoliathFixed || M == Mode::kBothFixed;
        ev.set_destinations(records.data(), layer, david_fixed ? fixed : D::kFull,
                            goliath_fixed ? fixed : D::kFull);
      }
      const SweepResult r = sweep(geo, ev, eval, layer, po.continuation, M == Mode::kOptimal);
      ++report.sweeps;
      report.max_change.push_back(r.max_change);
      // The upper pass certifies once a whole sweep raised nothing (beyond rounding): then
      // T y <= y holds for the vector it leaves.
      if (po.upper && r.max_increase <= kRoundingAllowance) report.certified = true;
      if (full && r.max_change <= po.tolerance && (!po.upper || report.certified)) break;
      if (po.upper && !report.certified && report.sweeps >= uncertified_limit) break;
    }
    report.seconds = seconds_since(start);
    summary.sweeps += report.sweeps;
    if (options.log) {
      char line[256];
      std::snprintf(line, sizeof(line), "%-11s %-22s sweeps %5d  last change %.3g  %.1f s%s",
                    po.name.c_str(), report.layer.c_str(), report.sweeps,
                    report.max_change.empty() ? 0.0 : report.max_change.back(), report.seconds,
                    po.upper ? (report.certified ? "  certified" : "  NOT certified") : "");
      options.log(line);
    }
    summary.passes.push_back(std::move(report));
  }
}

std::uint64_t checksum(const std::vector<double>& values) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (double v : values) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    h = (h ^ bits) * 0x100000001b3ULL;
    h ^= h >> 31;
  }
  return h;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// DuelIndex.

DuelIndex::DuelIndex(const DuelGame& game)
    : david_cols_(game.lattice_width(kDavid)), david_rows_(game.lattice_height(kDavid)),
      goliath_cols_(game.lattice_width(kGoliath)), goliath_rows_(game.lattice_height(kGoliath)) {
  david_points_ = david_cols_ * david_rows_;
  goliath_points_ = goliath_cols_ * goliath_rows_;
  pairs_ = static_cast<std::size_t>(david_points_) * static_cast<std::size_t>(goliath_points_);
}

std::size_t DuelIndex::mirror(std::size_t p) const {
  const std::size_t nd = static_cast<std::size_t>(david_points_);
  const int d = static_cast<int>(p % nd), g = static_cast<int>(p / nd);
  const int dx = d % david_cols_, dy = d / david_cols_;
  const int gx = g % goliath_cols_, gy = g / goliath_cols_;
  return pair(david_cols_ - 1 - dx, dy, goliath_cols_ - 1 - gx, gy);
}

bool DuelIndex::canonical(std::size_t p) const {
  const std::size_t nd = static_cast<std::size_t>(david_points_);
  const int d = static_cast<int>(p % nd), g = static_cast<int>(p / nd);
  const int dx = d % david_cols_, gx = g % goliath_cols_;
  const int dhalf = (david_cols_ - 1) / 2, ghalf = (goliath_cols_ - 1) / 2;
  return dx < dhalf || (dx == dhalf && gx <= ghalf);
}

std::optional<std::size_t> DuelIndex::index_of(const DuelState& s) const {
  if (s.phase != Phase::kDeclare) return std::nullopt;
  if (s.has(kGoliathSkipsTurn)) return std::nullopt;
  const bool god = s.has(kGodAvailable), shield = s.has(kGoliathShield), jav = s.has(kGoliathJavelin);
  if (jav && !shield) return std::nullopt;
  const std::size_t p = pair(s.david_x, s.david_y, s.goliath_x, s.goliath_y);
  if (s.actor == kDavid) {
    if (s.has(kBeheadPending)) return std::nullopt;
    return at(layer(god, shield, jav), david_slot(s.has(kDavidHasStone), s.has(kGoliathDazed)), p);
  }
  if (s.has(kBeheadPending) && !s.has(kGoliathDazed)) return std::nullopt;
  return at(layer(god, shield, jav),
            goliath_slot(s.has(kDavidHasStone), s.has(kGoliathDazed), s.has(kBeheadPending)), p);
}

// ---------------------------------------------------------------------------------------------
// Solving.

std::uint64_t peak_memory_bytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) {
      std::istringstream fields(line.substr(6));
      std::uint64_t kib = 0;
      fields >> kib;
      return kib * 1024;
    }
  }
  return 0;
}

void check_solvable(const DuelGame& game) {
  const DuelRules& r = game.rules();
  if (r.turn_cap != 0) {
    throw RulesError(
        "the exact duel solver needs turn_cap 0 (a turn cap makes the turn count part of the "
        "state; solve the game without a cap)");
  }
  if (r.david_move < 5) {
    throw RulesError("the exact duel solver needs david_move >= 5 (a smaller value gives a "
                     "negative movement allowance in the engine)");
  }
}

DuelSolution solve_duel(const DuelGame& game, const SolverOptions& options) {
  check_solvable(game);
  const auto start = Clock::now();
  const Geometry geo(game);
  SolveSummary summary;
  summary.threads = options.threads;
  const bool god = game.rules().god_enabled;
  std::vector<int> layers = {0, 1, 2};
  if (god) layers.insert(layers.end(), {3, 4, 5});
  summary.layers = static_cast<int>(layers.size());
  summary.canonical_states = geo.canonical_pairs.size() * DuelIndex::kSlots * layers.size();
  std::uint64_t valid = 0;
  for (std::uint8_t v : geo.valid) valid += v;
  summary.states = valid * DuelIndex::kSlots * layers.size();
  if (options.log) {
    options.log("duel solver: " + std::to_string(summary.states) + " declare states (" +
                std::to_string(summary.canonical_states) + " after symmetry), " +
                std::to_string(layers.size()) + " layers, " + std::to_string(options.threads) +
                " threads");
  }

  std::vector<double> x(geo.index.size(), 0.0);
  tbb::task_arena arena(std::max(1, options.threads));
  arena.execute([&] {
    // 1. Value iteration from zero, layer by layer: both sides optimal.
    PassOptions solve{"solve", false, options.tolerance, options.max_sweeps, 1.0 - options.discount};
    run_pass<Mode::kOptimal>(geo, x.data(), x.data(), 1.0, 0.0, layers, solve, options, summary);
    {
      TurnEvaluator<Mode::kOptimal> ev(geo, x.data(), x.data(), 1.0, 0.0);
      const std::uint8_t kit = kShield | kJavelin;
      summary.start_without_god = ev.initiative(false, 0.0);
      summary.david_first_without_god = ev.vd(geo.start_pair, kit);
      summary.goliath_first_without_god = ev.vg(geo.start_pair, kit);
      summary.start = god ? ev.initiative(true, 0.0) : summary.start_without_god;
      summary.david_first = god ? ev.vd(geo.start_pair, kit | kGod) : summary.david_first_without_god;
      summary.goliath_first = god ? ev.vg(geo.start_pair, kit | kGod) : summary.goliath_first_without_god;
    }

    // 2. Lower bound: David's policy (greedy on x) fixed, Goliath best-responding; value
    //    iteration from zero, so every iterate is a lower bound.
    {
      std::vector<double> z(geo.index.size(), 0.0);
      PassOptions lower{"lower", false, options.tolerance, options.max_sweeps, 1.0};
      run_pass<Mode::kDavidFixed>(geo, x.data(), z.data(), Pair{1, 1}, Pair{0, 0}, layers, lower,
                                  options, summary);
      TurnEvaluator<Mode::kDavidFixed> ev(geo, x.data(), z.data(), Pair{1, 1}, Pair{0, 0});
      summary.lower_bound_without_god = ev.initiative(false, 0.0).e;
      summary.lower_bound = god ? ev.initiative(true, 0.0).e : summary.lower_bound_without_god;
    }

    // 3. Upper bound: Goliath's policy fixed, David best-responding.  Start just above the solved
    //    values and iterate (optimistic value iteration); once a whole Gauss-Seidel sweep raises
    //    nothing, the vector it leaves is a pre-fixed point (T y <= y: each value was computed
    //    from values at least as large as the final ones), and a pre-fixed point bounds the least
    //    fixed point, the value of Goliath's policy, from above.
    {
      std::vector<double> y(geo.index.size(), 1.0);
      // The solved values sit below the game's values by the discount (about discount times the
      // game's length), so the start must sit above by more than that.
      double margin = std::max(options.target_gap / 10, 1000 * options.discount);
      PassOptions upper{"upper", true, options.tolerance, options.max_sweeps, 1.0};
      for (int attempt = 0; attempt < 4; ++attempt) {
        const std::size_t before = summary.passes.size();
        run_pass<Mode::kGoliathFixed>(
            geo, x.data(), y.data(), Pair{1, 1}, Pair{0, 0}, layers, upper, options, summary,
            [&](int layer) {
              const std::size_t begin = geo.index.at(layer, 0, 0);
              const std::size_t end = geo.index.at(layer + 1, 0, 0);
              for (std::size_t i = begin; i < end; ++i) y[i] = std::min(1.0, x[i] + margin);
            });
        bool certified = true;
        for (std::size_t k = before; k < summary.passes.size(); ++k) {
          certified = certified && summary.passes[k].certified;
        }
        if (certified) break;
        margin *= 10;
        if (options.log) options.log("upper pass not certified; retrying with a larger margin");
      }
      TurnEvaluator<Mode::kGoliathFixed> ev(geo, x.data(), y.data(), Pair{1, 1}, Pair{0, 0});
      summary.upper_bound_without_god = ev.initiative(false, 1.0).e;
      summary.upper_bound = god ? ev.initiative(true, 1.0).e : summary.upper_bound_without_god;
    }

    // 4. Termination: both policies fixed, Goliath's win probability from zero (lower bounds),
    //    so 1 - lower_bound - goliath_win bounds the mass of games that never end.
    if (options.nontermination) {
      std::vector<double> w(geo.index.size(), 0.0);
      PassOptions term{"termination", false, options.tolerance, options.max_sweeps, 1.0};
      run_pass<Mode::kBothFixed>(geo, x.data(), w.data(), Pair{1, 0}, Pair{0, 1}, layers, term,
                                 options, summary);
      TurnEvaluator<Mode::kBothFixed> ev(geo, x.data(), w.data(), Pair{1, 0}, Pair{0, 1});
      summary.goliath_win_lower = ev.initiative(god, 0.0).e;
      summary.nontermination_upper =
          std::max(0.0, 1.0 - summary.lower_bound - summary.goliath_win_lower);
      summary.nontermination_computed = true;
    }
  });
  summary.seconds = seconds_since(start);
  summary.peak_memory_bytes = peak_memory_bytes();
  return DuelSolution(game, std::move(x), std::move(summary));
}

// ---------------------------------------------------------------------------------------------
// DuelSolution: values anywhere, by expectimax over the rest of the turn with DuelGame itself.

DuelSolution::DuelSolution(const DuelGame& game, std::vector<double> values, SolveSummary summary)
    : game_(game), index_(game), values_(std::move(values)), summary_(std::move(summary)) {
  if (values_.size() != index_.size()) throw FileFormatError("duel solution: wrong number of values");
}

double DuelSolution::initiative_value(bool god) const {
  return god ? summary_.start : summary_.start_without_god;
}

namespace {

struct StateHash {
  std::size_t operator()(const DuelState& s) const { return DuelGame::hash(s); }
};

}  // namespace

double DuelSolution::turn_value(const DuelState& root_state, bool root) const {
  std::unordered_map<DuelState, double, StateHash> memo;
  std::function<double(const DuelState&, bool)> value_of = [&](const DuelState& raw, bool is_root) {
    DuelState s = raw;
    s.turn = 0;
    switch (s.phase) {
      case Phase::kTerminal:
        return s.winner == kDavid ? 1.0 : 0.0;
      case Phase::kDeclare:
        if (!is_root) {
          const auto i = index_.index_of(s);
          if (!i) throw IllegalActionError("duel solution: state outside the solved index");
          return values_[*i];
        }
        break;
      case Phase::kRoll:
        if (!is_root && s.roll == Roll::kInitiative && s.rerolling == 0) {
          return initiative_value(s.has(kGodAvailable));
        }
        break;
      default:
        break;
    }
    if (!is_root) {
      const auto found = memo.find(s);
      if (found != memo.end()) return found->second;
    }
    double result = 0;
    if (s.phase == Phase::kRoll) {
      ChanceList<DuelGame> outcomes;
      game_.chance_outcomes(s, outcomes);
      for (const ChanceOutcome& o : outcomes) {
        DuelState t = s;
        game_.apply_chance(t, o.outcome);
        result += o.probability * value_of(t, false);
      }
    } else {
      ActionList<DuelGame> actions;
      game_.legal_actions(s, actions);
      const bool david = game_.current_player(s) == kDavid;
      bool have = false;
      for (Action a : actions) {
        DuelState t = s;
        game_.apply_action(t, a);
        const double v = value_of(t, false);
        if (!have || (david ? v > result : v < result)) result = v;
        have = true;
      }
    }
    if (!is_root) memo.emplace(s, result);
    return result;
  };
  return value_of(root_state, root);
}

double DuelSolution::value(const DuelState& s) const {
  if (s.phase == Phase::kRoll && s.roll == Roll::kInitiative && s.rerolling == 0) {
    return initiative_value(s.has(kGodAvailable));
  }
  return turn_value(s, true);
}

std::vector<std::pair<Action, double>> DuelSolution::action_values(const DuelState& s) const {
  std::vector<std::pair<Action, double>> out;
  if (s.phase == Phase::kRoll || s.phase == Phase::kTerminal) return out;
  ActionList<DuelGame> actions;
  game_.legal_actions(s, actions);
  for (Action a : actions) {
    DuelState t = s;
    game_.apply_action(t, a);
    out.emplace_back(a, turn_value(t, false));
  }
  return out;
}

Action DuelSolution::best_action(const DuelState& s) const {
  const auto values = action_values(s);
  if (values.empty()) throw IllegalActionError("no decision is pending");
  const bool david = game_.current_player(s) == kDavid;
  std::size_t best = 0;
  for (std::size_t i = 1; i < values.size(); ++i) {
    if (david ? values[i].second > values[best].second : values[i].second < values[best].second) best = i;
  }
  return values[best].first;
}

}  // namespace sling::duel

// ---------------------------------------------------------------------------------------------
// The solution file.

namespace sling::duel {

template <class Archive>
void serialize(Archive& ar, PassReport& p) {
  ar(p.layer, p.pass, p.sweeps, p.seconds, p.certified, p.max_change);
}

template <class Archive>
void serialize(Archive& ar, SolveSummary& s) {
  ar(s.start, s.david_first, s.goliath_first, s.start_without_god, s.david_first_without_god,
     s.goliath_first_without_god, s.lower_bound, s.upper_bound, s.lower_bound_without_god,
     s.upper_bound_without_god, s.goliath_win_lower, s.nontermination_upper,
     s.nontermination_computed, s.states, s.canonical_states, s.layers, s.sweeps, s.seconds,
     s.peak_memory_bytes, s.threads, s.passes);
}

namespace {
constexpr const char* kMagic = "sling-duel-solution";
}  // namespace

void DuelSolution::save(const std::string& path) const {
  std::ostringstream out;
  {
    cereal::BinaryOutputArchive archive(out);
    const std::string magic = kMagic;
    const std::uint32_t version = kFormatVersion;
    const std::string rules = game_.rules_json();
    const std::uint64_t pairs = index_.pairs();
    SolveSummary summary = summary_;
    archive(magic, version, rules, pairs, summary, values_, checksum(values_));
  }
  write_file_atomic(path, out.str());
}

DuelSolution DuelSolution::load(const std::string& path, const DuelGame* expected) {
  const std::string bytes = read_file(path);
  std::string magic, rules;
  std::uint32_t version = 0;
  std::uint64_t pairs = 0, sum = 0;
  SolveSummary summary;
  std::vector<double> values;
  const std::string where = "duel solution '" + path + "'";
  try {
    std::istringstream in(bytes);
    cereal::BinaryInputArchive archive(in);
    archive(magic);
    if (magic != kMagic) throw FileFormatError(where + ": not a Sling duel solution file");
    archive(version);
    if (version != kFormatVersion) {
      throw FileFormatError(where + ": format version " + std::to_string(version) +
                            ", this Sling reads version " + std::to_string(kFormatVersion) +
                            " (solve again with `sling solve duel`)");
    }
    archive(rules, pairs, summary, values, sum);
  } catch (const FileFormatError&) {
    throw;
  } catch (const std::exception& e) {
    throw FileFormatError(where + ": corrupted or truncated (" + e.what() + ")");
  }
  if (checksum(values) != sum) throw FileFormatError(where + ": corrupted (checksum mismatch)");
  DuelGame game = [&] {
    try {
      return DuelGame::from_rules_json(rules);
    } catch (const SlingError& e) {
      throw FileFormatError(where + ": corrupted rules (" + e.what() + ")");
    }
  }();
  if (expected != nullptr && !(expected->rules() == game.rules())) {
    // Name the first rules key that differs.
    std::istringstream a(expected->rules_json()), b(game.rules_json());
    std::string la, lb, differ;
    while (std::getline(a, la) && std::getline(b, lb)) {
      if (la != lb) {
        differ = la;
        break;
      }
    }
    const auto first = differ.find_first_not_of(" \t");
    throw RulesError(where + " was solved for other rules (first difference: " +
                     (first == std::string::npos ? differ : differ.substr(first)) +
                     " here); solve these rules with `sling solve duel --rules FILE`");
  }
  const DuelIndex index(game);
  if (pairs != index.pairs() || values.size() != index.size()) {
    throw FileFormatError(where + ": corrupted (sizes do not match its rules)");
  }
  return DuelSolution(game, std::move(values), std::move(summary));
}

}  // namespace sling::duel
