#include "solvers/duel/solver.h"

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
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <tuple>
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
  if (slot < 4)
    return static_cast<std::uint8_t>(((slot & 2) ? kStone : 0) | ((slot & 1) ? kDazed : 0));
  const int g = slot - 4;
  std::uint8_t f = g >= 3 ? kStone : 0;
  const int k = g % 3;
  if (k >= 1) f |= kDazed;
  if (k == 2) f |= kBehead;
  return f;
}
const char* layer_name(int layer) {
  static const char* kNames[] = {"no-god/no-kit", "no-god/shield", "no-god/shield+javelin",
                                 "god/no-kit",    "god/shield",    "god/shield+javelin"};
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
  std::int64_t overlap2 = 0;
  double sum_radii = 0;
  std::vector<std::int64_t> length2[2];         // squared length of each offset, in units
  std::vector<int> offset_dx[2], offset_dy[2];  // the offsets as plain arrays (the hot loop)
  std::vector<std::uint8_t> contact, cap_david, cap_goliath, valid;
  std::vector<std::uint32_t> canonical_pairs;  // valid pairs with x on the canonical half
  // The same pairs in the order of Goliath's group in a sweep: tiles of kDavidTile consecutive
  // David points, Goliath's point slower than David's within a tile.  A Goliath move reads the
  // David values of one David point (a block of the transposed copy), so a tile's few blocks stay
  // in cache, where pair order needed a new block for every pair and the disc scan waited on
  // memory; and the tile's states of one Goliath point share cache lines that no other tile
  // writes (ordering by David's point alone had two threads writing the same lines).
  static constexpr std::uint32_t kDavidTile = 8;
  std::vector<std::uint32_t> goliath_group_order;
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
      const int max_move = side == kDavid
                               ? r.david_move - 1
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
        within[side][cm] = static_cast<int>(
            std::count_if(offsets[side].begin(), offsets[side].end(), [&](Offset o) {
              return (o.dx * o.dx + o.dy * o.dy) * r.pitch_cm * r.pitch_cm <= cm * cm;
            }));
      }
    }
    const std::int64_t radii = r.david_base_mm + r.goliath_base_mm;
    overlap2 = radii * radii;
    sum_radii = static_cast<double>(radii);
    const std::int64_t step = static_cast<std::int64_t>(r.pitch_cm) * DuelGame::kUnitsPerCm;
    for (int side = 0; side < 2; ++side) {
      for (Offset o : offsets[side]) {
        length2[side].push_back((o.dx * o.dx + o.dy * o.dy) * step * step);
        offset_dx[side].push_back(o.dx);
        offset_dy[side].push_back(o.dy);
      }
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
            if (valid[p] && index.canonical(p))
              canonical_pairs.push_back(static_cast<std::uint32_t>(p));
          }
        }
      }
    }
    goliath_group_order = canonical_pairs;
    const auto np_david = static_cast<std::uint32_t>(points[kDavid]);
    auto tiled = [np_david](std::uint32_t p) {
      const std::uint32_t david = p % np_david, goliath = p / np_david;
      return std::tuple(david / kDavidTile, goliath, david % kDavidTile);
    };
    std::sort(goliath_group_order.begin(), goliath_group_order.end(),
              [&](std::uint32_t a, std::uint32_t b) { return tiled(a) < tiled(b); });
    for (int d = 1; d <= 6; ++d) {
      for (int o = 1; o <= 6; ++o) {
        const int david = d + r.combat_david;
        melee_sign_shield[d][o] =
            (david > o + r.combat_goliath_shield) - (david < o + r.combat_goliath_shield);
        melee_sign_two_handed[d][o] =
            (david > o + r.combat_goliath_two_handed) - (david < o + r.combat_goliath_two_handed);
      }
    }
  }

  // Position of (David slot, pair) in a transposed copy: the four David slots of a pair side by
  // side, then Goliath's point, then David's.  The slots go in the order 0, 2, 1, 3, so the two
  // that a Goliath move leads to (David without and with the stone, Goliath fit: slots 0 and 2)
  // are adjacent and his disc folds both streams with one load per destination.
  static constexpr std::size_t kTransposedSlots = 4;
  std::size_t transposed(int slot, std::size_t pair) const {
    constexpr std::array<std::size_t, kTransposedSlots> kPosition = {0, 2, 1, 3};
    const std::size_t nd = static_cast<std::size_t>(points[kDavid]);
    return ((pair % nd) * static_cast<std::size_t>(points[kGoliath]) + pair / nd) *
               kTransposedSlots +
           kPosition[static_cast<std::size_t>(slot)];
  }

  // DuelGame::destination_legal for an in-disc, in-board, non-zero step, without the division of
  // work between bounds and allowance (the offset lists already bound the step).
  bool path_clear(std::int64_t px, std::int64_t py, std::int64_t qx, std::int64_t qy,
                  std::int64_t cx0, std::int64_t cy0) const {
    const std::int64_t end2 = (qx - cx0) * (qx - cx0) + (qy - cy0) * (qy - cy0);
    if (end2 < overlap2) return false;
    const std::int64_t step2 = (qx - px) * (qx - px) + (qy - py) * (qy - py);
    const std::int64_t dot = (cx0 - px) * (qx - px) + (cy0 - py) * (qy - py);
    if (dot > 0 && dot < step2) {
      const std::int64_t cross = (qx - px) * (cy0 - py) - (qy - py) * (cx0 - px);
      if (static_cast<__int128>(cross) * cross < static_cast<__int128>(overlap2) * step2)
        return false;
    }
    return true;
  }
};

int faces_at_most(int value) {
  return std::clamp(value, 0, 6);
}
int faces_at_least(int value) {
  return std::clamp(7 - value, 0, 6);
}

// ---------------------------------------------------------------------------------------------
// Value types.  The solve and the bounds carry one value per node.  The termination pass carries a
// pair: `g`, the value under the guide (the solved values, both sides optimal), which fixes both
// sides' choices, and `e`, the value being iterated (Goliath's win probability).

// kOptimal: both sides choose on the values.  kBothFixed: both sides' choices are fixed by a guide.
// kDavidFixed: David's choices are fixed by a guide, Goliath chooses on his own guide (his best
// response, see improve_layer).
// kLinearForm: each state's turn as a linear form of the layer's values, every choice replayed
// from the records and the tape that a sweep of a fixed mode left (PolicyEvaluation compiles
// its operator with it).
enum class Mode { kOptimal, kBothFixed, kDavidFixed, kLinearForm };

struct Pair {
  double g, e;
};
inline Pair operator+(Pair a, Pair b) {
  return {a.g + b.g, a.e + b.e};
}
inline Pair operator*(double w, Pair a) {
  return {w * a.g, w * a.e};
}

// The David-fixed mode carries three values: `a`, both sides choosing on David's guide (which
// fixes David's choices: his policy greedy on that guide); `b`, David choosing on `a` and Goliath
// on his own guide (which fixes Goliath's choices); `e`, the value being evaluated under both.
struct Triple {
  double a, b, e;
};
inline Triple operator+(Triple x, Triple y) {
  return {x.a + y.a, x.b + y.b, x.e + y.e};
}
inline Triple operator*(double w, Triple x) {
  return {w * x.a, w * x.b, w * x.e};
}

template <Mode M>
struct Ops {
  using T = Pair;
  // David's choice between options a and b (a listed first: it wins ties).
  static T david(T a, T b) { return b.g > a.g ? b : a; }
  static T goliath(T a, T b) { return b.g < a.g ? b : a; }
  static double e(T v) { return v.e; }
  // Does the choice between a (first) and b take b?  Used to record a fixed side's destinations.
  static bool takes_second(T a, T b, bool david) { return david ? b.g > a.g : b.g < a.g; }
};
template <>
struct Ops<Mode::kDavidFixed> {
  using T = Triple;
  static T david(T x, T y) { return y.a > x.a ? y : x; }
  static T goliath(T x, T y) {
    T c = y.b < x.b ? y : x;
    c.a = std::min(x.a, y.a);
    return c;
  }
  static double e(T v) { return v.e; }
  static bool takes_second(T x, T y, bool david) { return david ? y.a > x.a : y.b < x.b; }
};
// sum w_k v[col_k] over the layer's canonical states (col = canonical position * kSlots + slot);
// values outside the layer and the wins are constants, which a linear form leaves out.  Copies
// move only the terms in use.
struct LinearForm {
  static constexpr int kTerms = 24;
  int n = 0;
  std::uint32_t col[kTerms];
  double w[kTerms];
  LinearForm() {}
  LinearForm(const LinearForm& o) { *this = o; }
  LinearForm& operator=(const LinearForm& o) {
    n = o.n;
    for (int k = 0; k < n && k < kTerms; ++k) {
      col[k] = o.col[k];
      w[k] = o.w[k];
    }
    return *this;
  }
  void add(std::uint32_t c, double weight) {
    for (int k = 0; k < n; ++k) {
      if (col[k] == c) {
        w[k] += weight;
        return;
      }
    }
    if (n == kTerms) throw std::logic_error("duel solver: a turn reads too many states");
    col[n] = c;
    w[n] = weight;
    ++n;
  }
};
inline LinearForm operator+(LinearForm a, const LinearForm& b) {
  for (int k = 0; k < b.n; ++k) a.add(b.col[k], b.w[k]);
  return a;
}
inline LinearForm operator*(double s, LinearForm a) {
  for (int k = 0; k < a.n; ++k) a.w[k] *= s;
  return a;
}
template <>
struct Ops<Mode::kLinearForm> {  // (choices come from the tape and the records: none is made)
  using T = LinearForm;
  static T david(T a, T) { return a; }
  static T goliath(T a, T) { return a; }
  static double e(const T&) { return 0; }
  static bool takes_second(const T&, const T&, bool) { return false; }
};

// The choices of one state's turn (outside the movement discs, which have their own records),
// one bit each, in the order the turn makes them: at most about 100 (a God layer's melee).
constexpr std::size_t kTapeWords = 2;
struct TapeCursor {
  std::uint64_t* words = nullptr;
  unsigned bit = 0;
};
thread_local TapeCursor tape_cursor;

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
                T goliath_win, const double* free_guide = nullptr)
      : geo_(geo),
        r_(geo.game.rules()),
        guide_(guide),
        free_guide_(free_guide),
        eval_(eval),
        win_(david_win),
        lose_(goliath_win) {}

  // Destination records (see DestinationMode): per (slot, pair) of the layer being swept, the
  // offset index of the chosen destination for each allowance.
  enum class Destinations : std::uint8_t { kFull, kRecord, kReplay };
  // `cross`, when given, holds the destinations of David's flight in Goliath's turn (per
  // Goliath slot without and with David's stone, and pair).
  void set_destinations(std::uint16_t* records, int layer, Destinations david, Destinations goliath,
                        std::uint16_t* cross = nullptr) {
    records_ = records;
    cross_records_ = cross;
    records_layer_ = layer;
    destinations_[kDavid] = david;
    destinations_[kGoliath] = goliath;
  }

  // David's values of the layer being swept, transposed (Goliath's point varying fastest), so a
  // Goliath move reads its disc of leaves along rows instead of one cache line per destination.
  void set_transposed(const double* guide_t, const double* eval_t, int layer,
                      const double* free_guide_t = nullptr) {
    guide_t_ = guide_t;
    free_guide_t_ = free_guide_t;
    eval_t_ = eval_t;
    transposed_layer_ = layer;
  }

  // Goliath's values that David's own moves lead to (the leaves of david_move_discs), copied for
  // `layer` with the four streams of a pair side by side, so a destination is one cache line,
  // not four.  The copy is a cache of `eval`: refresh_packed_leaves() renews it, and the sweep
  // calls it before David's group, whose discs read it (Goliath's values do not change there).
  void set_packed_leaves(double* packed, int layer) {
    packed_ = packed;
    packed_layer_ = layer;
  }
  static constexpr std::size_t kPackedStreams = 4;
  void refresh_packed_leaves() const {
    if constexpr (M == Mode::kOptimal) {
      if (packed_ == nullptr) return;
      const std::uint8_t lf = layer_flags(packed_layer_);
      std::array<std::size_t, kPackedStreams> base;
      for (std::size_t k = 0; k < kPackedStreams; ++k) {
        const std::uint8_t f = static_cast<std::uint8_t>(lf | slot_flags(static_cast<int>(k)));
        base[k] = geo_.index.at(packed_layer_,
                                DuelIndex::goliath_slot(f & kStone, f & kDazed, f & kBehead), 0);
      }
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, geo_.index.pairs(), 4096),
                        [&](const tbb::blocked_range<std::size_t>& range) {
                          for (std::size_t p = range.begin(); p != range.end(); ++p) {
                            for (std::size_t k = 0; k < kPackedStreams; ++k)
                              packed_[p * kPackedStreams + k] = eval_[base[k] + p];
                          }
                        });
    }
  }

  // No-God movement values of the current God layer (see fill_cache), or null.
  void set_cache(const T* cache, int layer) {
    cache_ = cache;
    cache_layer_ = layer;
  }

  // The choice tape (kTapeWords per state of the layer being swept, indexed slot * pairs +
  // pair): a fixed mode records it (each sweep's state_value overwrites its state's), the linear
  // form mode replays it.
  void set_tape(std::uint64_t* tape) { tape_ = tape; }
  // Linear form mode: the layer whose values are the form's variables, and each pair's canonical
  // position (a pair and its mirror image share one).
  void set_form_layer(int layer, const std::uint32_t* canonical_position) {
    form_layer_begin_ = geo_.index.at(layer, 0, 0);
    form_layer_end_ = geo_.index.at(layer + 1, 0, 0);
    canonical_position_ = canonical_position;
  }

  // The choice of `chooser` between a (listed first: it wins ties) and b.  The turn functions
  // make every choice through here, each in its own statement or as an argument, so the order
  // of the choices is the same in every mode.
  T choose(Side chooser, T a, T b) const {
    if constexpr (M == Mode::kLinearForm) {
      TapeCursor& c = tape_cursor;
      const bool second = (c.words[c.bit >> 6] >> (c.bit & 63)) & 1;
      ++c.bit;
      return second ? b : a;
    } else {
      if constexpr (M != Mode::kOptimal) {
        if (tape_ != nullptr) {
          TapeCursor& c = tape_cursor;
          if (c.bit >= 64 * kTapeWords) throw std::logic_error("duel solver: choice tape full");
          if (O::takes_second(a, b, chooser == kDavid)) c.words[c.bit >> 6] |= 1ull << (c.bit & 63);
          ++c.bit;
        }
      }
      return chooser == kDavid ? O::david(a, b) : O::goliath(a, b);
    }
  }

  T read(std::size_t i) const {
    if constexpr (M == Mode::kLinearForm) {
      T form;
      if (i >= form_layer_begin_ && i < form_layer_end_) {
        const std::size_t offset = i - form_layer_begin_, npairs = geo_.index.pairs();
        form.col[0] = canonical_position_[offset % npairs] * DuelIndex::kSlots +
                      static_cast<std::uint32_t>(offset / npairs);
        form.w[0] = 1;
        form.n = 1;
      }
      return form;
    } else if constexpr (M == Mode::kOptimal) {
      return eval_[i];
    } else if constexpr (kOneFixed) {
      return T{guide_[i], free_guide_[i], eval_[i]};
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
  T god_die(double p_success, T success, T failure, T reroll) const {
    const T on_success = choose(kDavid, success, reroll);  // (in this order: see choose)
    const T on_failure = choose(kDavid, failure, reroll);
    return p_success * on_success + (1 - p_success) * on_failure;
  }
  static T plain_die(double p_success, T success, T failure) {
    return p_success * success + (1 - p_success) * failure;
  }

  // best[k][a] for a = 0..max_allowance: the mover's best destination within a cm, for each of N
  // streams of leaves at once.  The streams are states of one pair that differ only in flags
  // (David's stone, Goliath's daze): they share every destination and its legality, so one pass
  // over the offsets serves them all.  The disc of a + 1 contains the disc of a, so one pass over
  // the offsets sorted by length gives every allowance (best(a + 1) = best of best(a) and the ring
  // between).
  template <Side kMover, std::size_t N>
  void discs(std::size_t pair, const std::array<std::uint8_t, N>& flags, Side actor,
             int max_allowance, T (&best)[N][13]) const {
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
    // A step shorter than (centre distance - sum of radii) cannot reach the other base: only
    // longer steps need the path test.
    const double clearance =
        std::sqrt(static_cast<double>((px - ox) * (px - ox) + (py - oy) * (py - oy))) -
        geo_.sum_radii;
    const std::int64_t clear2 =
        clearance > 1 ? static_cast<std::int64_t>((clearance - 1) * (clearance - 1)) : -1;
    const auto& length2 = geo_.length2[kMover];
    // Leaf values: after David's own turn Goliath declares; after Goliath's turn David does.
    const bool leaf_goliath = actor == kDavid;
    const int layer = layer_of(flags[0]);
    // Only the moves of the side whose turn it is, in the layer being swept, are recorded: the
    // mover's state is then (slot, pair) of that layer.
    // A fixed mode also records David's flight from a tied melee in Goliath's turn (David's
    // choice, made from a Goliath state of the layer), so that a taped sweep can replay it.
    const bool cross = kMover == kDavid && actor == kGoliath && cross_records_ != nullptr &&
                       layer == records_layer_;
    const Destinations mode = (records_ != nullptr && layer == records_layer_ && actor == kMover)
                                  ? destinations_[kMover]
                              : cross ? destinations_[kGoliath]
                                      : Destinations::kFull;
    if constexpr (M == Mode::kLinearForm) {
      // Only the discs of the layer's own states are recorded; any other leads to another
      // layer, whose values are constants to the form.
      if (mode == Destinations::kFull) {
        for (std::size_t k = 0; k < N; ++k) std::fill(best[k], best[k] + max_allowance + 1, T{});
        return;
      }
    }
    // Leaf (x, y) of the mover's lattice: for David, a run of the pair array (David's point
    // varies fastest); for Goliath, a run of the transposed copy when the leaves are David's
    // states of the layer being swept, else a strided read.
    const bool transposed = kMover == kGoliath && eval_t_ != nullptr && layer == transposed_layer_;
    const double* source = transposed ? eval_t_ : eval_;  // (or the packed copy, below)
    const double* guide_source = transposed ? guide_t_ : guide_;
    const double* free_guide_source = transposed ? free_guide_t_ : free_guide_;
    // David's own move in the layer of the packed copy: its streams must be the four David
    // slots in order (david_move_discs), whose leaves the copy holds.
    bool packed = false;
    if constexpr (M == Mode::kOptimal && kMover == kDavid && N == kPackedStreams) {
      packed = packed_ != nullptr && leaf_goliath && layer == packed_layer_;
      for (std::size_t k = 0; k < N && packed; ++k)
        packed = flags[k] == (layer_flags(layer) | slot_flags(static_cast<int>(k)));
    }
    if (packed) source = packed_;
    const std::size_t stride = packed             ? kPackedStreams
                               : kMover == kDavid ? 1
                               : transposed       ? Geometry::kTransposedSlots
                                                  : static_cast<std::size_t>(np_david);
    std::array<std::size_t, N> offset;
    std::array<std::uint16_t*, N> record{};
    for (std::size_t k = 0; k < N; ++k) {
      const std::uint8_t f = flags[k];
      const int slot = leaf_goliath ? DuelIndex::goliath_slot(f & kStone, f & kDazed, f & kBehead)
                                    : DuelIndex::david_slot(f & kStone, f & kDazed);
      const std::size_t base = geo_.index.at(layer, slot, 0);
      if (packed) {
        offset[k] = goliath * static_cast<std::size_t>(np_david) * kPackedStreams + k;
      } else if (kMover == kDavid) {
        offset[k] = base + goliath * static_cast<std::size_t>(np_david);
      } else if (transposed) {
        offset[k] = geo_.transposed(slot, david);  // (slot, David's point, Goliath's point 0)
      } else {
        offset[k] = base + david;
      }
      if (mode != Destinations::kFull && cross) {
        record[k] =
            cross_records_ + ((f & kStone ? 1 : 0) * geo_.index.pairs() + pair) * std::size_t{13};
      } else if (mode != Destinations::kFull) {
        const int mover_slot = actor == kDavid ? DuelIndex::david_slot(f & kStone, f & kDazed)
                                               : DuelIndex::goliath_slot(f & kStone, false, false);
        record[k] =
            records_ + (static_cast<std::size_t>(mover_slot) * geo_.index.pairs() + pair) * 13;
      }
    }
    // The leaf of stream k at lattice cell `cell` (y * cols + x, times the stride).
    auto leaf_of_cell = [&](std::size_t k, std::size_t cell) -> T {
      const std::size_t i = offset[k] + cell;
      if constexpr (M == Mode::kLinearForm) {
        return read(i);  // (no transposed or packed copy in this mode)
      } else if constexpr (M == Mode::kOptimal) {
        return source[i];
      } else if constexpr (kOneFixed) {
        return T{guide_source[i], free_guide_source[i], source[i]};
      } else {
        return T{guide_source[i], source[i]};
      }
    };
    auto leaf_at = [&](std::size_t k, int x, int y) -> T {
      return leaf_of_cell(k, static_cast<std::size_t>(y * cols + x) * stride);
    };
    const int* odx = geo_.offset_dx[kMover].data();
    const int* ody = geo_.offset_dy[kMover].data();
    if (mode == Destinations::kReplay) {
      // A movement roll of one die reads only the six (David: five, a six trips) allowances at
      // the top; the ones below are never read, so a replay fills them with the lowest read.
      const int lowest = std::max(0, max_allowance - (kMover == kDavid ? 4 : 5));
      for (std::size_t k = 0; k < N; ++k) {
        for (int a = lowest; a <= max_allowance; ++a) {
          const int i = record[k][a];
          best[k][a] = leaf_at(k, x0 + odx[i], y0 + ody[i]);
        }
        for (int a = 0; a < lowest; ++a) best[k][a] = best[k][lowest];
      }
      return;
    }
    // Staying put (offset 0) is always legal, so the running best starts there.  The loop is
    // the solver's hot spot: destinations outside the lattice are skipped with one unsigned
    // compare per axis, and only steps longer than the clearance pay for the path test.
    const std::int64_t* len2 = length2.data();
    const int* cxm = geo_.cx[kMover].data();
    const int* cym = geo_.cy[kMover].data();
    const auto& within = geo_.within[kMover];
    const auto ucols = static_cast<unsigned>(cols), urows = static_cast<unsigned>(rows);
    int i = 1;
    // Calls at_cell(offset index, cell) for every legal destination among offsets [i, end), and
    // moves i to end.
    auto visit = [&](int end, auto&& at_cell) {
      for (; i < end; ++i) {
        const int x = x0 + odx[i];
        const int y = y0 + ody[i];
        if (static_cast<unsigned>(x) >= ucols || static_cast<unsigned>(y) >= urows) continue;
        if (len2[i] > clear2 && !geo_.path_clear(px, py, cxm[x], cym[y], ox, oy)) continue;
        at_cell(i, static_cast<std::size_t>(y * cols + x) * stride);
      }
    };
    const bool recording = mode == Destinations::kRecord;
    // Streams whose leaves lie side by side (David's packed copy; Goliath's two streams in the
    // transposed copy) are folded two at a time in SSE2 lanes: one load, one compare and one
    // max or min per lane, and the choice a masked select.
    if constexpr (M == Mode::kOptimal && N % 2 == 0) {
      bool adjacent = true;
      for (std::size_t k = 1; k < N; ++k) adjacent = adjacent && offset[k] == offset[0] + k;
      if (adjacent) {
        using Lanes = double __attribute__((vector_size(16)));
        constexpr std::size_t kLanes = N / 2;
        const double* leaves = source + offset[0];
        std::array<Lanes, kLanes> run, choice{};
        auto load = [leaves](std::size_t cell, std::size_t lane) {
          Lanes v;
          std::memcpy(&v, leaves + cell + 2 * lane, sizeof v);
          return v;
        };
        for (std::size_t l = 0; l < kLanes; ++l)
          run[l] = load(static_cast<std::size_t>(y0 * cols + x0) * stride, l);
        auto fold = [&]<bool kRecord>(int offset_index, std::size_t cell) {
          for (std::size_t l = 0; l < kLanes; ++l) {
            const Lanes v = load(cell, l);
            const auto takes = kMover == kDavid ? v > run[l] : v < run[l];
            if constexpr (kRecord) {
              const double at = offset_index;
              choice[l] = takes ? Lanes{at, at} : choice[l];
            }
            run[l] = takes ? v : run[l];
          }
        };
        for (int a = 0; a <= max_allowance; ++a) {
          const int end = within[static_cast<std::size_t>(std::min(a, 12))];
          if (recording) {
            visit(end, [&](int at, std::size_t cell) { fold.template operator()<true>(at, cell); });
            for (std::size_t k = 0; k < N; ++k)
              record[k][a] = static_cast<std::uint16_t>(choice[k / 2][k % 2]);
          } else {
            visit(end,
                  [&](int at, std::size_t cell) { fold.template operator()<false>(at, cell); });
          }
          for (std::size_t k = 0; k < N; ++k) best[k][a] = run[k / 2][k % 2];
        }
        return;
      }
    }
    // The running bests and choices are locals and the streams are unrolled, so they stay in
    // registers and a choice is a conditional move, not a branch (a recording scan used to cost
    // twice a plain one).
    std::array<T, N> run;
    std::array<int, N> chosen{};
    for (std::size_t k = 0; k < N; ++k) run[k] = leaf_at(k, x0, y0);
    auto fold = [&]<bool kRecord>(int offset_index, std::size_t cell) {
#pragma GCC unroll 4
      for (std::size_t k = 0; k < N; ++k) {
        const T v = leaf_of_cell(k, cell);
        if constexpr (kRecord) {
          chosen[k] = O::takes_second(run[k], v, kMover == kDavid) ? offset_index : chosen[k];
        }
        run[k] = kMover == kDavid ? O::david(run[k], v) : O::goliath(run[k], v);
      }
    };
    for (int a = 0; a <= max_allowance; ++a) {
      const int end = within[static_cast<std::size_t>(std::min(a, 12))];
      if (recording) {
        visit(end, [&](int at, std::size_t cell) { fold.template operator()<true>(at, cell); });
        for (std::size_t k = 0; k < N; ++k) record[k][a] = static_cast<std::uint16_t>(chosen[k]);
      } else {
        visit(end, [&](int at, std::size_t cell) { fold.template operator()<false>(at, cell); });
      }
      for (std::size_t k = 0; k < N; ++k) best[k][a] = run[k];
    }
  }
  template <Side kMover>
  void disc(std::size_t pair, std::uint8_t f, Side actor, int max_allowance, T* best) const {
    T one[1][13];
    discs<kMover, 1>(pair, {f}, actor, max_allowance, one);
    std::copy(one[0], one[0] + max_allowance + 1, best);
  }

  // The movement discs of every declare state of a pair that can move: David's four slots and
  // Goliath's two fit ones (slots 4 and 7).  Each side's are filled on their own: they read the
  // other side's values, which a sweep updates in between.
  struct MoveDiscs {
    T david[4][13];
    T goliath[2][13];
    // The disc for state_value at `slot`, or null for a slot that cannot move.
    const T* of(int slot) const {
      return slot < 4 ? david[slot] : slot == 4 ? goliath[0] : slot == 7 ? goliath[1] : nullptr;
    }
  };
  void david_move_discs(std::size_t pair, int layer, MoveDiscs& discs_of_pair) const {
    const std::uint8_t lf = layer_flags(layer);
    discs<kDavid, 4>(pair,
                     {static_cast<std::uint8_t>(lf | slot_flags(0)),
                      static_cast<std::uint8_t>(lf | slot_flags(1)),
                      static_cast<std::uint8_t>(lf | slot_flags(2)),
                      static_cast<std::uint8_t>(lf | slot_flags(3))},
                     kDavid, r_.david_move - 1, discs_of_pair.david);
  }
  void goliath_move_discs(std::size_t pair, int layer, MoveDiscs& discs_of_pair) const {
    const std::uint8_t lf = layer_flags(layer);
    const int base_move = (lf & kShield) ? r_.goliath_move_shield : r_.goliath_move_two_handed;
    discs<kGoliath, 2>(pair,
                       {static_cast<std::uint8_t>(lf | slot_flags(4)),
                        static_cast<std::uint8_t>(lf | slot_flags(7))},
                       kGoliath, std::max(0, base_move - 1), discs_of_pair.goliath);
  }

  // David's movement roll (Move, or the movement after a successful flee or a tied melee) and
  // destination, then the turn of `actor` ends.  f carries God when it is available.
  // `move_best`, when given, is disc<kDavid>'s result for (pair, f, actor), already computed.
  T david_move(std::size_t pair, std::uint8_t f, Side actor, const T* move_best = nullptr) const {
    T computed[13];
    const T* best = move_best;
    if (best == nullptr) {
      disc<kDavid>(pair, f, actor, r_.david_move - 1, computed);
      best = computed;
    }
    const T stay = leaf_after(actor, pair, f);
    if (!(f & kGod)) {
      T sum = (1.0 / 6) * stay;
      for (int die = 1; die <= 5; ++die) sum = sum + (1.0 / 6) * best[r_.david_move - die];
      return sum;
    }
    const T reroll = no_god_david_move(pair, f, actor);
    T sum = (1.0 / 6) * choose(kDavid, stay, reroll);
    for (int die = 1; die <= 5; ++die)
      sum = sum + (1.0 / 6) * choose(kDavid, best[r_.david_move - die], reroll);
    return sum;
  }
  // The value of re-rolling David's movement: the same roll without God.  `move_best` is the disc
  // of (pair, f, actor) when known; it serves only when f has no God (then nothing changes).
  T no_god_david_move(std::size_t pair, std::uint8_t f, Side actor,
                      const T* move_best = nullptr) const {
    if (cache_ != nullptr && actor == kDavid && layer_of(f) == cache_layer_) {
      return cache_[geo_.index.at(0, DuelIndex::david_slot(f & kStone, f & kDazed), pair)];
    }
    return david_move(pair, static_cast<std::uint8_t>(f & ~kGod), actor,
                      (f & kGod) ? nullptr : move_best);
  }

  // `move_best`, when given, is disc<kGoliath>'s result for (pair, f), already computed.
  T goliath_move(std::size_t pair, std::uint8_t f, const T* move_best = nullptr) const {
    T computed[13];
    const T* best = move_best;
    const int base_move = (f & kShield) ? r_.goliath_move_shield : r_.goliath_move_two_handed;
    if (best == nullptr) {
      disc<kGoliath>(pair, f, kGoliath, std::max(0, base_move - 1), computed);
      best = computed;
    }
    if (!(f & kGod)) {
      T sum = (1.0 / 6) * best[std::max(0, base_move - 1)];
      for (int die = 2; die <= 6; ++die) sum = sum + (1.0 / 6) * best[std::max(0, base_move - die)];
      return sum;
    }
    const T reroll = no_god_goliath_move(pair, f);
    T sum = (1.0 / 6) * choose(kDavid, best[std::max(0, base_move - 1)], reroll);
    for (int die = 2; die <= 6; ++die) {
      sum = sum + (1.0 / 6) * choose(kDavid, best[std::max(0, base_move - die)], reroll);
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

  T flee(std::size_t pair, std::uint8_t f, const T* move_best = nullptr) const {
    const double p = faces_at_least(r_.flee_min) / 6.0;
    const std::uint8_t n = static_cast<std::uint8_t>(f & ~kGod);
    const T plain = plain_die(p, no_god_david_move(pair, f, kDavid, move_best), vg(pair, n));
    if (!(f & kGod)) return plain;
    return god_die(p, david_move(pair, f, kDavid, move_best), vg(pair, f), plain);
  }

  // The melee declared by `actor`: each die may be re-rolled by God (either die).
  // `move_best`: as for flee, when David declared the melee.
  T melee(std::size_t pair, std::uint8_t f, Side actor, const T* move_best = nullptr) const {
    const auto& sign = (f & kShield) ? geo_.melee_sign_shield : geo_.melee_sign_two_handed;
    auto outcomes = [&](std::uint8_t flags, T tie_flee) {
      std::array<T, 3> o;  // David loses, tie, David wins
      o[0] = lose_;
      o[1] = choose(kDavid, tie_flee, leaf_after(actor, pair, flags));
      o[2] = leaf_after(actor, pair, static_cast<std::uint8_t>(flags | kDazed));
      return o;
    };
    const std::uint8_t n = static_cast<std::uint8_t>(f & ~kGod);
    const T flee_n = actor == kDavid ? no_god_david_move(pair, f, kDavid, move_best)
                                     : david_move(pair, n, actor);
    const auto plain = outcomes(n, flee_n);
    if (!(f & kGod)) {
      T sum{};
      for (int d = 1; d <= 6; ++d) {
        for (int o = 1; o <= 6; ++o)
          sum = sum + (1.0 / 36) * plain[static_cast<std::size_t>(sign[d][o] + 1)];
      }
      return sum;
    }
    const auto with_god =
        outcomes(f, david_move(pair, f, actor, actor == kDavid ? move_best : nullptr));
    std::array<T, 7> reroll_david{}, reroll_goliath{};  // indexed by the die kept
    for (int k = 1; k <= 6; ++k) {
      T by_goliath_die{}, by_david_die{};
      for (int j = 1; j <= 6; ++j) {
        by_goliath_die =
            by_goliath_die + (1.0 / 6) * plain[static_cast<std::size_t>(sign[j][k] + 1)];
        by_david_die = by_david_die + (1.0 / 6) * plain[static_cast<std::size_t>(sign[k][j] + 1)];
      }
      reroll_david[static_cast<std::size_t>(k)] = by_goliath_die;  // keeps Goliath's die k
      reroll_goliath[static_cast<std::size_t>(k)] = by_david_die;  // keeps David's die k
    }
    T sum{};
    for (int d = 1; d <= 6; ++d) {
      for (int o = 1; o <= 6; ++o) {
        const T accept = with_god[static_cast<std::size_t>(sign[d][o] + 1)];
        const T v =
            choose(kDavid, choose(kDavid, accept, reroll_david[static_cast<std::size_t>(o)]),
                   reroll_goliath[static_cast<std::size_t>(d)]);
        sum = sum + (1.0 / 36) * v;
      }
    }
    return sum;
  }

  // David declares: the best of his legal actions (in DuelGame's order).  `move_best`, when given,
  // is his movement disc from this state (see david_move_discs).
  T david_turn(std::size_t pair, std::uint8_t f, const T* move_best = nullptr) const {
    const bool contact = geo_.contact[pair] != 0;
    T best{};
    bool have = false;
    auto consider = [&](T v) {
      best = have ? choose(kDavid, best, v) : v;
      have = true;
    };
    if (!contact) consider(david_move(pair, f, kDavid, move_best));
    if ((f & kStone) && geo_.cap_david[pair] >= 1) consider(shoot(pair, f));
    if (contact) consider(melee(pair, f, kDavid, move_best));
    if (!(f & kStone)) consider(search(pair, f));
    if (contact && (f & kDazed)) consider(vg(pair, f | kBehead));
    if (contact) consider(flee(pair, f, move_best));
    return best;
  }

  // Goliath declares.  `move_best`, when given, is his movement disc from this state.
  T goliath_turn(std::size_t pair, std::uint8_t f, const T* move_best = nullptr) const {
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
    T best = goliath_move(pair, f, move_best);
    if ((f & kJavelin) && geo_.cap_goliath[pair] >= 1) {
      const double p = faces_at_most(geo_.cap_goliath[pair]) / 6.0;
      const std::uint8_t thrown = static_cast<std::uint8_t>(f & ~kJavelin);
      const T plain = plain_die(p, lose_, vd(pair, static_cast<std::uint8_t>(thrown & ~kGod)));
      best =
          choose(kGoliath, best, (f & kGod) ? god_die(p, lose_, vd(pair, thrown), plain) : plain);
    }
    if (contact) best = choose(kGoliath, best, melee(pair, f, kGoliath));
    if (f & kShield)
      best = choose(kGoliath, best, vd(pair, static_cast<std::uint8_t>(f & ~(kShield | kJavelin))));
    return best;
  }

  T state_value(int layer, int slot, std::size_t pair, const T* move_best = nullptr) const {
    const std::uint8_t f = static_cast<std::uint8_t>(layer_flags(layer) | slot_flags(slot));
    if constexpr (M != Mode::kOptimal) {
      if (tape_ != nullptr) {
        std::uint64_t* words =
            tape_ + (static_cast<std::size_t>(slot) * geo_.index.pairs() + pair) * kTapeWords;
        if constexpr (M != Mode::kLinearForm) std::fill(words, words + kTapeWords, 0);
        tape_cursor = {words, 0};
        const T v = slot < 4 ? david_turn(pair, f, move_best) : goliath_turn(pair, f, move_best);
        tape_cursor = {};
        return v;
      }
    }
    return slot < 4 ? david_turn(pair, f, move_best) : goliath_turn(pair, f, move_best);
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
    if constexpr (M == Mode::kLinearForm) {
      return T{};
    } else if constexpr (M == Mode::kOptimal) {
      return 1.0;
    } else if constexpr (kOneFixed) {
      return T{1.0, 1.0, 1.0};
    } else {
      return T{1.0, 1.0};
    }
  }

  const Geometry& geo_;
  const DuelRules& r_;
  static constexpr bool kOneFixed = M == Mode::kDavidFixed;
  const double* guide_;
  const double* free_guide_ = nullptr;  // one-side-fixed modes: the free side's guide
  const double* eval_;
  T win_, lose_;
  const T* cache_ = nullptr;
  int cache_layer_ = -1;
  std::uint16_t* records_ = nullptr;
  std::uint16_t* cross_records_ = nullptr;
  int records_layer_ = -1;
  const double* guide_t_ = nullptr;
  const double* free_guide_t_ = nullptr;
  const double* eval_t_ = nullptr;
  int transposed_layer_ = -1;
  std::uint64_t* tape_ = nullptr;
  std::size_t form_layer_begin_ = 0, form_layer_end_ = 0;
  const std::uint32_t* canonical_position_ = nullptr;
  double* packed_ = nullptr;
  int packed_layer_ = -1;
  Destinations destinations_[2] = {Destinations::kFull, Destinations::kFull};
};

// ---------------------------------------------------------------------------------------------
// Sweeps.

struct SweepResult {
  double max_change = 0;    // largest |new - old|
  double max_increase = 0;  // largest new - old (0 when nothing rose)
  double max_decrease = 0;  // largest old - new (0 when nothing fell)
  SweepResult combine(const SweepResult& o) const {
    return {std::max(max_change, o.max_change), std::max(max_increase, o.max_increase),
            std::max(max_decrease, o.max_decrease)};
  }
};

// The slots of a layer in the order a sweep updates them, in two groups: David's, then Goliath's.
// A slot reads the other side's slots of any pair, and its own side's slots only at the same
// pair: a stone can daze Goliath inside David's turn, and then David declares again where he
// stands (so the dazed David slots come first), and a dazed Goliath's lost turn is resolved at
// once.  Each group is updated pair by pair, in parallel and in place, and the sweep is
// Gauss-Seidel (Goliath's slots read David's values of the same sweep) and deterministic whatever
// the thread count.
constexpr std::array<int, 4> kDavidSlots = {1, 3, 0, 2};
constexpr std::array<int, 6> kGoliathSlots = {4, 5, 6, 7, 8, 9};

// Writes value v of (layer, slot, canonical pair p) to the state and to its mirror image, and to
// the transposed copy of David's slots.
inline void store(const Geometry& geo, double* values, double* transposed, int layer, int slot,
                  std::size_t p, std::size_t mirror, double v) {
  values[geo.index.at(layer, slot, p)] = v;
  values[geo.index.at(layer, slot, mirror)] = v;
  if (slot < 4) {
    transposed[geo.transposed(slot, p)] = v;
    transposed[geo.transposed(slot, mirror)] = v;
  }
}

// Which way a sweep may move the values.  From a sub-solution (x <= T x) a true update never lowers
// a value, and from a pre-fixed point (T y <= y) it never raises one: the clamp only absorbs
// rounding, and it keeps the property exact in floating point.
enum class Clamp { kNone, kNoLower, kNoRaise };

// Calls visit(slot, pair, discs, acc) at every computed state of a layer in the order of a sweep:
// David's group, then Goliath's (only Goliath's when goliath_only), each pair by pair in parallel,
// and reduces the accumulators with `combine`.  A side's discs read only the other side's slots,
// which its group does not change, so they are computed once per pair; and since a state reads
// its own side only at its own pair, results do not depend on the order within a group, so each
// group runs in the order that keeps its discs' leaves in cache.
template <Mode M, class Acc, class Visit, class Combine>
Acc reduce_by_group(const Geometry& geo, const TurnEvaluator<M>& ev, int layer, bool goliath_only,
                    Acc zero, const Visit& visit, const Combine& combine) {
  Acc total = zero;
  for (const bool david : {true, false}) {
    if (goliath_only && david) continue;
    const auto& pairs = david ? geo.canonical_pairs : geo.goliath_group_order;
    if (david) ev.refresh_packed_leaves();
    const Acc part = tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, pairs.size(), 256), zero,
        [&](const tbb::blocked_range<std::size_t>& range, Acc acc) {
          typename TurnEvaluator<M>::MoveDiscs discs;
          for (std::size_t k = range.begin(); k != range.end(); ++k) {
            const std::size_t p = pairs[k];
            if (david) {
              ev.david_move_discs(p, layer, discs);
              for (int slot : kDavidSlots) visit(slot, p, discs, acc);
            } else {
              ev.goliath_move_discs(p, layer, discs);
              for (int slot : kGoliathSlots) visit(slot, p, discs, acc);
            }
          }
          return acc;
        },
        combine);
    total = combine(total, part);
  }
  return total;
}

// One Gauss-Seidel sweep of a layer.  `change`, when given, receives new - old of every computed
// David state (indexed slot * pairs + pair) for the extrapolation.
template <Mode M>
SweepResult sweep(const Geometry& geo, const TurnEvaluator<M>& ev, double* values,
                  double* transposed, double* change, int layer, double continuation, Clamp clamp,
                  bool goliath_only = false, const double* floor = nullptr,
                  float* last_change = nullptr) {
  const std::size_t npairs = geo.index.pairs();
  auto update = [&](int slot, std::size_t p, const typename TurnEvaluator<M>::MoveDiscs& discs,
                    SweepResult& acc) {
    const std::size_t mirror = geo.index.mirror(p);
    const double old = values[geo.index.at(layer, slot, p)];
    double v = continuation * Ops<M>::e(ev.state_value(layer, slot, p, discs.of(slot)));
    if (clamp == Clamp::kNoLower) v = std::max(v, old);
    if (clamp == Clamp::kNoRaise) v = std::min(v, old);
    if (floor != nullptr) v = std::max(v, floor[geo.index.at(0, slot, p)]);
    acc.max_change = std::max(acc.max_change, std::abs(v - old));
    acc.max_increase = std::max(acc.max_increase, v - old);
    acc.max_decrease = std::max(acc.max_decrease, old - v);
    if (change != nullptr && slot < 4)
      change[static_cast<std::size_t>(slot) * npairs + p] = v - old;
    if (last_change != nullptr) {
      const float d = static_cast<float>(std::abs(v - old));
      last_change[geo.index.at(layer, slot, p)] = d;
      last_change[geo.index.at(layer, slot, mirror)] = d;
    }
    store(geo, values, transposed, layer, slot, p, mirror, v);
  };
  return reduce_by_group(geo, ev, layer, goliath_only, SweepResult{}, update,
                         [](const SweepResult& a, const SweepResult& b) { return a.combine(b); });
}

// Reduced-rank extrapolation (RRE) over David's values of a layer (slots 0-3; Goliath's values are
// a function of David's).  It keeps the changes of the last depth + 1 sweeps, u_0 .. u_m, finds
// the weights xi (summing to 1) that minimise |sum xi_i u_i|, and proposes
// sum xi_i x_(i+1), the iterates' combination whose change cancels best: for a linear iteration
// this is a Krylov (GMRES-like) estimate of the fixed point that removes the slow modes that plain
// sweeps only shrink by their ratio each time.  Reductions run over fixed blocks summed in order,
// so the result does not depend on the thread count.
class RankExtrapolation {
 public:
  RankExtrapolation(const Geometry& geo, int depth)
      : geo_(geo),
        depth_(depth),
        history_(static_cast<std::size_t>(depth + 1),
                 std::vector<double>(4 * geo.index.pairs(), 0.0)) {}

  // Where the next sweep writes David's changes.
  double* next_change() { return history_[static_cast<std::size_t>(count_ % (depth_ + 1))].data(); }
  void recorded() { ++count_; }
  void restart() { count_ = 0; }
  bool ready() const { return count_ >= depth_ + 1; }

  // Coefficients c_j of the step sum_j c_j u_j from the latest iterate to the estimate; false
  // when the changes are degenerate (all zero).
  bool coefficients(std::vector<double>& c) const {
    const int m = depth_ + 1;
    const auto& pairs = geo_.canonical_pairs;
    const std::size_t npairs = geo_.index.pairs();
    constexpr std::size_t kBlock = 2048;
    const std::size_t blocks = (pairs.size() + kBlock - 1) / kBlock;
    const std::size_t terms = static_cast<std::size_t>(m * m);
    std::vector<double> partial(blocks * terms, 0.0);
    std::vector<const double*> u(static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i) {
      u[static_cast<std::size_t>(i)] =
          history_[static_cast<std::size_t>((count_ - m + i) % m)].data();
    }
    tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
      double* out = partial.data() + b * terms;
      const std::size_t end = std::min(pairs.size(), (b + 1) * kBlock);
      for (std::size_t k = b * kBlock; k < end; ++k) {
        for (int slot = 0; slot < 4; ++slot) {
          const std::size_t j = static_cast<std::size_t>(slot) * npairs + pairs[k];
          for (int r = 0; r < m; ++r) {
            const double ur = u[static_cast<std::size_t>(r)][j];
            for (int q = 0; q <= r; ++q) out[r * m + q] += ur * u[static_cast<std::size_t>(q)][j];
          }
        }
      }
    });
    // Gram matrix in long double, a tiny ridge against collinear changes, then G xi = 1.
    std::vector<long double> g(terms, 0.0L);
    for (std::size_t b = 0; b < blocks; ++b) {
      for (int r = 0; r < m; ++r) {
        for (int q = 0; q <= r; ++q) g[r * m + q] += partial[b * terms + r * m + q];
      }
    }
    long double trace = 0;
    for (int r = 0; r < m; ++r) {
      for (int q = 0; q < r; ++q) g[q * m + r] = g[r * m + q];
      trace += g[r * m + r];
    }
    if (!(trace > 0)) return false;
    for (int r = 0; r < m; ++r) g[r * m + r] += 1e-12L * trace / m;
    std::vector<long double> xi(static_cast<std::size_t>(m), 1.0L);
    for (int col = 0; col < m; ++col) {  // Gaussian elimination with partial pivoting
      int pivot = col;
      for (int r = col + 1; r < m; ++r) {
        if (std::fabs(g[r * m + col]) > std::fabs(g[pivot * m + col])) pivot = r;
      }
      for (int q = 0; q < m; ++q) std::swap(g[col * m + q], g[pivot * m + q]);
      std::swap(xi[static_cast<std::size_t>(col)], xi[static_cast<std::size_t>(pivot)]);
      for (int r = col + 1; r < m; ++r) {
        const long double f = g[r * m + col] / g[col * m + col];
        for (int q = col; q < m; ++q) g[r * m + q] -= f * g[col * m + q];
        xi[static_cast<std::size_t>(r)] -= f * xi[static_cast<std::size_t>(col)];
      }
    }
    for (int r = m - 1; r >= 0; --r) {
      long double v = xi[static_cast<std::size_t>(r)];
      for (int q = r + 1; q < m; ++q) v -= g[r * m + q] * xi[static_cast<std::size_t>(q)];
      xi[static_cast<std::size_t>(r)] = v / g[r * m + r];
    }
    long double sum = 0;
    for (long double v : xi) sum += v;
    if (!(std::fabs(sum) > 0)) return false;
    // Estimate sum xi_i x_(i+1) minus the latest iterate x_m: c_j = xi_j - sum_(i<=j) xi_i.
    c.assign(static_cast<std::size_t>(m), 0.0);
    long double prefix = 0;
    for (int j = 0; j < m; ++j) {
      const long double w = xi[static_cast<std::size_t>(j)] / sum;
      prefix += w;
      c[static_cast<std::size_t>(j)] = static_cast<double>(w - prefix);
    }
    return true;
  }

  // The change u_j (oldest first) at David state (slot, pair).
  double change(int j, std::size_t index) const {
    const int m = depth_ + 1;
    return history_[static_cast<std::size_t>((count_ - m + j) % m)][index];
  }
  int size() const { return depth_ + 1; }

 private:
  const Geometry& geo_;
  int depth_;
  int count_ = 0;
  std::vector<std::vector<double>> history_;
};

// Moves David's values of the layer (slots 0-3) up by `factor` times the extrapolation's step
// where it is positive (clamped to 1).  Goliath's values are not extrapolated: they are a function
// of David's (a Goliath turn leads to David declaring) and the next sweep recomputes them.
void extrapolate(const Geometry& geo, double* values, double* transposed,
                 const RankExtrapolation& rre, const std::vector<double>& c, int layer,
                 double factor) {
  const auto& pairs = geo.canonical_pairs;
  const std::size_t npairs = geo.index.pairs();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pairs.size(), 256),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      for (std::size_t k = range.begin(); k != range.end(); ++k) {
                        const std::size_t p = pairs[k];
                        const std::size_t mirror = geo.index.mirror(p);
                        for (int slot = 0; slot < 4; ++slot) {
                          const std::size_t j = static_cast<std::size_t>(slot) * npairs + p;
                          double step = 0;
                          for (int q = 0; q < rre.size(); ++q)
                            step += c[static_cast<std::size_t>(q)] * rre.change(q, j);
                          const double v = values[geo.index.at(layer, slot, p)];
                          store(geo, values, transposed, layer, slot, p, mirror,
                                std::min(1.0, v + factor * std::max(0.0, step)));
                        }
                      }
                    });
}

// Marks the states of the layer where x <= T x fails (T evaluated at x, Jacobi), indexed
// slot * pairs + pair; returns how many.
template <Mode M>
std::size_t mark_unsupported(const Geometry& geo, const TurnEvaluator<M>& ev, const double* values,
                             int layer, double continuation, std::vector<std::uint8_t>& marks) {
  auto check = [&](int slot, std::size_t p, const typename TurnEvaluator<M>::MoveDiscs& discs,
                   std::size_t& count) {
    const double x = values[geo.index.at(layer, slot, p)];
    const bool fails = continuation * Ops<M>::e(ev.state_value(layer, slot, p, discs.of(slot))) < x;
    marks[geo.index.at(0, slot, p)] = fails;
    count += fails;
  };
  return reduce_by_group(geo, ev, layer, false, std::size_t{0}, check, std::plus<>());
}

// A layer's values and the transposed copy of its David slots, kept to undo an extrapolation.
struct LayerBackup {
  std::vector<double> values, transposed;
  void save(const Geometry& geo, const double* from, const double* from_t, int layer) {
    values.assign(from + geo.index.at(layer, 0, 0), from + geo.index.at(layer + 1, 0, 0));
    transposed.assign(from_t, from_t + 4 * geo.index.pairs());
  }
  void restore(const Geometry& geo, double* to, double* to_t, int layer) const {
    std::copy(values.begin(), values.end(), to + geo.index.at(layer, 0, 0));
    std::copy(transposed.begin(), transposed.end(), to_t);
  }
  // Puts back the saved value of every marked state (and of its mirror image).
  void restore_marked(const Geometry& geo, double* to, double* to_t, int layer,
                      const std::vector<std::uint8_t>& marks) const {
    const auto& pairs = geo.canonical_pairs;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pairs.size(), 256),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t k = range.begin(); k != range.end(); ++k) {
                          const std::size_t p = pairs[k];
                          for (int slot = 0; slot < DuelIndex::kSlots; ++slot) {
                            const std::size_t j = geo.index.at(0, slot, p);
                            if (marks[j]) {
                              store(geo, to, to_t, layer, slot, p, geo.index.mirror(p), values[j]);
                            }
                          }
                        }
                      });
  }
};

// The no-God movement values of a God layer: they read only the finished no-God layers, so they
// are computed once per layer instead of once per sweep.
template <Mode M>
std::vector<typename Ops<M>::T> fill_cache(const Geometry& geo, const TurnEvaluator<M>& ev,
                                           int layer) {
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

// ---------------------------------------------------------------------------------------------
// sum a[j] b[j] over [lo, hi) in a fixed order: eight interleaved partial sums (so the adds do
// not wait on each other and the loop vectorises without reassociating), added at the end.
inline double block_dot(const double* a, const double* b, std::size_t lo, std::size_t hi) {
  constexpr std::size_t kWays = 8;
  double part[kWays] = {};
  std::size_t j = lo;
  for (; j + kWays <= hi; j += kWays) {
    for (std::size_t k = 0; k < kWays; ++k) part[k] += a[j + k] * b[j + k];
  }
  for (; j < hi; ++j) part[0] += a[j] * b[j];
  double sum = 0;
  for (double v : part) sum += v;
  return sum;
}

// Evaluation of fixed policies by a Krylov method (the termination pass, strategy improvement).
// With both sides' choices fixed by a guide, one sweep of a layer is an affine map
// S(v) = L v + c of the layer's values, and the policies' values solve (I - L) v = c.  Value
// iteration shrinks a stand-off's error by its small chance of ending each sweep; a Krylov
// method, which needs only products L v, removes such slow modes in a few products each.
// A sweep in a fixed mode records every choice of the pair of policies: the destinations, a tape
// of the other choices (God decisions, actions) and David's flight from a tied melee in Goliath's
// turn.  From them each state's turn is compiled once into a sparse row (a linear form of the
// layer's canonical states: 5 to 20 terms), so a product reads each state's successors instead of
// evaluating its turn again (at pitch 1: 15 ms instead of 175 ms).  Started from zero, the Krylov
// vectors are zero on states from which the policies never end the game, so those states get the
// least solution's zero.  Vectors hold the layer's canonical states, slot-minor; reductions run
// over fixed blocks summed in order, so the result does not depend on the threads.
template <Mode M>
class PolicyEvaluation {
 public:
  using T = typename Ops<M>::T;

  PolicyEvaluation(const Geometry& geo, int layer, double continuation)
      : geo_(geo),
        layer_(layer),
        continuation_(continuation),
        n_(geo.canonical_pairs.size() * DuelIndex::kSlots),
        work_(geo.index.size(), 0.0),
        work_t_(4 * geo.index.pairs(), 0.0),
        guide_t_(4 * geo.index.pairs(), 0.0),
        free_guide_t_(free_guide_size(geo), 0.0),
        records_(geo.index.at(0, DuelIndex::kSlots, 0) * 13),
        cross_records_(2 * geo.index.pairs() * 13),
        tape_(geo.index.at(0, DuelIndex::kSlots, 0) * kTapeWords),
        canonical_position_(geo.index.pairs(), 0) {
    for (std::size_t k = 0; k < geo.canonical_pairs.size(); ++k) {
      const std::size_t p = geo.canonical_pairs[k];
      canonical_position_[p] = static_cast<std::uint32_t>(k);
      canonical_position_[geo.index.mirror(p)] = static_cast<std::uint32_t>(k);
    }
  }

  // Inexact policy iteration: the relative residual reduction asked of the solver is at least
  // kForcingScale times the start's largest residual (at most kForcingMax): far from the solution
  // a rough solve is enough to choose the next policies, near it the solve is as exact as asked.
  // At pitch 2 the first layer's strategy improvement took 911 products with it, 1,031 with a
  // forcing of 1 x the residual (at most 1e-2).
  static constexpr double kForcingScale = 100, kForcingMax = 0.1;
  void set_forcing(bool on) { forcing_ = on; }
  // The next solves use the same guide for David as the last one (David-fixed mode): his
  // destinations recorded then are replayed instead of chosen again.
  void set_david_destinations_recorded(bool recorded) { david_recorded_ = recorded; }

  struct Result {
    int products = 0;         // products L v (one sweep each)
    double residual = 0;      // |S(v) - v| at the start (Euclidean, the layer's canonical states)
    double reduction = 1;     // the final (true) residual relative to it
    double max_residual = 0;  // max |S(v) - v| at the start
  };

  // Improves the layer of `values` (earlier layers final) toward the fixed point of the guide's
  // policies, from its current values or from zero; the values are clamped to [0, 1].
  // `guide` fixes the choices of the fixed side(s), `free_guide` those of the free side (one-side
  // modes only).
  // The solver stops once its residual is `target` times the start's or at most `absolute`.
  Result solve(const double* guide, const double* free_guide, double* values, T win, T lose,
               bool from_zero, int max_products, double target, double absolute = 0) {
    Result result;
    const std::size_t npairs = geo_.index.pairs();
    for (int slot = 0; slot < 4; ++slot) {
      for (std::size_t p = 0; p < npairs; ++p) {
        guide_t_[geo_.transposed(slot, p)] = guide[geo_.index.at(layer_, slot, p)];
        if (!free_guide_t_.empty())
          free_guide_t_[geo_.transposed(slot, p)] = free_guide[geo_.index.at(layer_, slot, p)];
        work_t_[geo_.transposed(slot, p)] =
            from_zero ? 0.0 : values[geo_.index.at(layer_, slot, p)];
      }
    }
    // A layer reads only itself and the layers before it, which are final: they are copied once.
    const std::size_t begin = geo_.index.at(layer_, 0, 0), end = geo_.index.at(layer_ + 1, 0, 0);
    std::copy(values + (finished_copied_ ? begin : 0), values + end,
              work_.begin() + static_cast<std::ptrdiff_t>(finished_copied_ ? begin : 0));
    finished_copied_ = true;
    if (from_zero) std::fill(work_.begin() + begin, work_.begin() + end, 0.0);
    std::vector<double> start(n_);
    gather(work_.data(), start.data());
    const auto& pairs = geo_.canonical_pairs;
    using D = typename TurnEvaluator<M>::Destinations;
    const double* free_t = free_guide_t_.empty() ? nullptr : free_guide_t_.data();
    // r = S(start) - start, recording both sides' choices.
    TurnEvaluator<M> affine(geo_, guide, work_.data(), win, lose, free_guide);
    affine.set_transposed(guide_t_.data(), work_t_.data(), layer_, free_t);
    // The no-God movement values read only the finished layers too: computed on the first solve
    // (refilled every round, they had made a god/no-kit step at pitch 1 take 45 to 100 s, not 30).
    if (layer_ >= 3) {
      if (cache_.empty()) cache_ = fill_cache(geo_, affine, layer_);
      affine.set_cache(cache_.data(), layer_);
    }
    // David's destinations depend only on his guide: once recorded for a guide they are replayed.
    affine.set_destinations(records_.data(), layer_, david_recorded_ ? D::kReplay : D::kRecord,
                            D::kRecord, cross_records_.data());
    affine.set_tape(tape_.data());
    // David's group: his rows, constants included, once compiled for this guide (the same
    // values as sweeping his group, to rounding); then Goliath's group is swept and recorded.
    const bool david_from_rows = david_recorded_ && !david_rows_.empty();
    if (david_from_rows) {
      scratch_ = start;
      apply_rows<true>(david_rows_, scratch_.data());
      tbb::parallel_for(std::size_t{0}, pairs.size(), [&](std::size_t k) {
        const std::size_t p = pairs[k];
        for (int slot = 0; slot < 4; ++slot)
          store(geo_, work_.data(), work_t_.data(), layer_, slot, p, geo_.index.mirror(p),
                scratch_[at(k, slot)]);
      });
    }
    sweep(geo_, affine, work_.data(), work_t_.data(), nullptr, layer_, continuation_, Clamp::kNone,
          david_from_rows);
    std::vector<double> r(n_);
    gather(work_.data(), r.data());
    // L, compiled: each state's turn as a linear form of the layer's states, with the choices
    // this sweep recorded.  David's rows depend only on his choices, which a David guide kept
    // from the last solve leaves as they were.
    TurnEvaluator<Mode::kLinearForm> linear(geo_, nullptr, work_.data(), LinearForm{},
                                            LinearForm{});
    using LD = TurnEvaluator<Mode::kLinearForm>::Destinations;
    linear.set_destinations(records_.data(), layer_, LD::kReplay, LD::kReplay,
                            cross_records_.data());
    linear.set_tape(tape_.data());
    linear.set_form_layer(layer_, canonical_position_.data());
    if (!david_from_rows) {
      compile(true, linear, david_rows_);
      scratch_ = start;
      set_constants(david_rows_, r, scratch_.data());
    }
    for (std::size_t j = 0; j < n_; ++j) r[j] -= start[j];
    compile(false, linear, goliath_rows_);
    auto apply = [&](const std::vector<double>& v, std::vector<double>& out) {  // out = v - L v
      std::copy(v.begin(), v.end(), out.begin());
      apply_rows(david_rows_, out.data());  // in place, in the order of a sweep (Gauss-Seidel)
      apply_rows(goliath_rows_, out.data());
      for_each_entry([&](std::size_t j) { out[j] = v[j] - out[j]; });
      ++result.products;
    };
    std::vector<double> d(n_, 0.0);
    result.residual = std::sqrt(dot(r, r));
    for (double v : r) result.max_residual = std::max(result.max_residual, std::abs(v));
    if (forcing_) target = std::clamp(kForcingScale * result.max_residual, target, kForcingMax);
    if (result.residual > 0 && result.residual > absolute) {
      bicgstab(apply, r, d, max_products, std::max(target, absolute / result.residual), result);
    }
    tbb::parallel_for(std::size_t{0}, pairs.size(), [&](std::size_t k) {
      const std::size_t p = pairs[k];
      for (int slot = 0; slot < DuelIndex::kSlots; ++slot) {
        const double v = std::clamp(start[at(k, slot)] + d[at(k, slot)], 0.0, 1.0);
        values[geo_.index.at(layer_, slot, p)] = v;
        values[geo_.index.at(layer_, slot, geo_.index.mirror(p))] = v;
      }
    });
    return result;
  }

 private:
  static constexpr std::size_t kBlock = 4096;

  static std::size_t at(std::size_t k, int slot) {
    return k * DuelIndex::kSlots + static_cast<std::size_t>(slot);
  }
  // One chunk of a group's compiled rows: row i sets the canonical state target[i] to
  // sum_e w[e] v[col[e]] over e in [begin[i], begin[i + 1]).  David's rows also keep the
  // constant part of S at each row (values of finished layers, the wins), so that later rounds
  // of a step can evaluate his group from the rows instead of sweeping it.
  struct Rows {
    std::vector<std::uint32_t> target, begin, col;
    std::vector<double> w, constant;
  };
  static constexpr std::size_t kChunkPairs = 256;

  // Compiles one group (David's or Goliath's) of the layer, in the order of a sweep, in fixed
  // chunks of pairs (so the rows, and the products, do not depend on the threads).
  void compile(bool david_group, const TurnEvaluator<Mode::kLinearForm>& ev,
               std::vector<Rows>& chunks) const {
    const auto& pairs = david_group ? geo_.canonical_pairs : geo_.goliath_group_order;
    chunks.resize((pairs.size() + kChunkPairs - 1) / kChunkPairs);
    tbb::parallel_for(std::size_t{0}, chunks.size(), [&](std::size_t c) {
      Rows& rows = chunks[c];
      rows.target.clear();
      rows.begin.assign(1, 0);
      rows.col.clear();
      rows.w.clear();
      typename TurnEvaluator<Mode::kLinearForm>::MoveDiscs discs;
      auto emit = [&](int slot, std::size_t p) {
        const LinearForm form = ev.state_value(layer_, slot, p, discs.of(slot));
        rows.target.push_back(canonical_position_[p] * DuelIndex::kSlots +
                              static_cast<std::uint32_t>(slot));
        for (int k = 0; k < form.n; ++k) {
          rows.col.push_back(form.col[k]);
          rows.w.push_back(continuation_ * form.w[k]);
        }
        rows.begin.push_back(static_cast<std::uint32_t>(rows.col.size()));
      };
      const std::size_t stop = std::min(pairs.size(), (c + 1) * kChunkPairs);
      for (std::size_t k = c * kChunkPairs; k < stop; ++k) {
        const std::size_t p = pairs[k];
        if (david_group) {
          ev.david_move_discs(p, layer_, discs);
          for (int slot : kDavidSlots) emit(slot, p);
        } else {
          ev.goliath_move_discs(p, layer_, discs);
          for (int slot : kGoliathSlots) emit(slot, p);
        }
      }
    });
  }
  // Row i's sum_e w[e] v[col[e]].
  static double linear_part(const Rows& rows, std::size_t i, const double* v) {
    double sum = 0;
    for (std::uint32_t e = rows.begin[i]; e < rows.begin[i + 1]; ++e)
      sum += rows.w[e] * v[rows.col[e]];
    return sum;
  }
  // Applies compiled rows to v in place (a group reads the other group and, within a pair, the
  // rows before it: the order of a sweep).
  template <bool kAffine = false>
  static void apply_rows(const std::vector<Rows>& chunks, double* v) {
    tbb::parallel_for(std::size_t{0}, chunks.size(), [&](std::size_t c) {
      const Rows& rows = chunks[c];
      for (std::size_t i = 0; i < rows.target.size(); ++i) {
        double sum = linear_part(rows, i, v);
        if constexpr (kAffine) sum += rows.constant[i];
        v[rows.target[i]] = sum;
      }
    });
  }
  // Sets each David row's constant: what the recording sweep gave it (s, gathered) minus its
  // linear part, read in the order of the sweep from u (the start, overwritten row by row).
  static void set_constants(std::vector<Rows>& chunks, const std::vector<double>& s, double* u) {
    tbb::parallel_for(std::size_t{0}, chunks.size(), [&](std::size_t c) {
      Rows& rows = chunks[c];
      rows.constant.resize(rows.target.size());
      for (std::size_t i = 0; i < rows.target.size(); ++i) {
        rows.constant[i] = s[rows.target[i]] - linear_part(rows, i, u);
        u[rows.target[i]] = s[rows.target[i]];
      }
    });
  }

  static std::size_t free_guide_size(const Geometry& geo) {
    return M == Mode::kBothFixed ? 0 : 4 * geo.index.pairs();
  }

  // BiCGSTAB for A d = r from d = 0 (van der Vorst): two products and a fixed number of vector
  // passes a step, where GMRES's orthogonalisation grows with its basis (at pitch 1 a vector is
  // 21 MB, and GMRES spent several times a product on it).  The recursive residual drifts from
  // r - A d in floating point, so convergence is confirmed on the true residual, and the method
  // restarts from it (also after a breakdown, a vanishing rho).
  template <typename Apply>
  void bicgstab(const Apply& apply, const std::vector<double>& r, std::vector<double>& d,
                int max_products, double target, Result& result) const {
    const double goal = target * result.residual;
    std::vector<double> res = r, shadow, p(n_), v(n_), s(n_), t(n_);
    while (result.products < max_products) {
      const double start = std::sqrt(dot(res, res));
      result.reduction = start / result.residual;
      if (!(start > goal)) return;
      shadow = res;
      double rho = 1, alpha = 1, omega = 1;
      std::fill(p.begin(), p.end(), 0.0);
      std::fill(v.begin(), v.end(), 0.0);
      bool converged = false;
      while (result.products + 2 <= max_products) {
        const double rho_next = dot(shadow, res);
        if (!(std::abs(rho_next) > 0) || !(std::abs(omega) > 0)) break;  // breakdown: restart
        const double beta = (rho_next / rho) * (alpha / omega);
        rho = rho_next;
        for_each_entry([&](std::size_t j) { p[j] = res[j] + beta * (p[j] - omega * v[j]); });
        apply(p, v);
        const double shadow_v = dot(shadow, v);
        if (!(std::abs(shadow_v) > 0)) break;
        alpha = rho / shadow_v;
        for_each_entry([&](std::size_t j) { s[j] = res[j] - alpha * v[j]; });
        if (std::sqrt(dot(s, s)) <= goal) {
          axpy(alpha, p, d);
          converged = true;
          break;
        }
        apply(s, t);
        const double tt = dot(t, t);
        omega = tt > 0 ? dot(t, s) / tt : 0;
        for_each_entry([&](std::size_t j) {
          d[j] += alpha * p[j] + omega * s[j];
          res[j] = s[j] - omega * t[j];
        });
        if (std::sqrt(dot(res, res)) <= goal) {
          converged = true;
          break;
        }
      }
      // The true residual r - A d, from which the next cycle starts (or which confirms the end).
      apply(d, t);
      for_each_entry([&](std::size_t j) { res[j] = r[j] - t[j]; });
      if (!converged && result.products + 2 > max_products) break;
    }
    result.reduction = std::sqrt(dot(res, res)) / result.residual;
  }

  void gather(const double* from, double* to) const {
    const auto& pairs = geo_.canonical_pairs;
    tbb::parallel_for(std::size_t{0}, pairs.size(), [&](std::size_t k) {
      for (int slot = 0; slot < DuelIndex::kSlots; ++slot)
        to[at(k, slot)] = from[geo_.index.at(layer_, slot, pairs[k])];
    });
  }
  double dot(const std::vector<double>& a, const std::vector<double>& b) const {
    const std::size_t blocks = (n_ + kBlock - 1) / kBlock;
    std::vector<double> partial(blocks);
    tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t blk) {
      partial[blk] = block_dot(a.data(), b.data(), blk * kBlock, std::min(n_, (blk + 1) * kBlock));
    });
    double s = 0;
    for (double v : partial) s += v;
    return s;
  }
  void axpy(double alpha, const std::vector<double>& x, std::vector<double>& y) const {
    for_each_entry([&](std::size_t j) { y[j] += alpha * x[j]; });
  }
  // body(j) for every entry j of a vector of the layer, in parallel over fixed blocks.
  template <typename Body>
  void for_each_entry(const Body& body) const {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n_, kBlock),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t j = range.begin(); j != range.end(); ++j) body(j);
                      });
  }

  const Geometry& geo_;
  int layer_;
  double continuation_;
  bool forcing_ = false;
  bool david_recorded_ = false;
  bool finished_copied_ = false;  // the layers before this one are in work_
  std::size_t n_;
  std::vector<double> work_, work_t_, guide_t_, free_guide_t_;
  std::vector<std::uint16_t> records_, cross_records_;
  std::vector<std::uint64_t> tape_;
  std::vector<std::uint32_t> canonical_position_;  // per pair: its canonical pair's position
  std::vector<Rows> david_rows_, goliath_rows_;
  std::vector<T> cache_;         // a God layer's no-God movement values (fill_cache), once filled
  std::vector<double> scratch_;  // David's row pass of a solve (one layer vector, reused)
};

// What a pass does with a layer.
enum class PassKind {
  kSolve,  // iterate until no value moves by more than the tolerance
  kLower,  // certify: iterate until a whole sweep lowers nothing; then x <= T x
  kUpper,  // certify: iterate until a whole sweep raises nothing; then T y <= y
};

struct PassOptions {
  std::string name;
  PassKind kind = PassKind::kSolve;
  double tolerance = 1e-13;
  int max_sweeps = 20000;
  double continuation = 1.0;     // each turn is discounted by this factor
  bool accelerate = false;       // extrapolate (solve passes; see kExtrapolationDepth)
  float* last_change = nullptr;  // when given, receives |change| of every state's last update
  int tightening_sweeps = 0;     // upper passes: sweeps allowed after certifying, to tighten
};

// A sweep "raises nothing" (or "lowers nothing") when no value moved that way by more than
// floating-point rounding of the evaluation (a few ulps of values below 1).
constexpr double kRoundingAllowance = 1e-15;

// A certification pass that has not certified after this many sweeps stops; the caller retries
// with a larger margin.  An upper start that certifies does so within tens of sweeps (24 to 113
// measured); one still raising values after this many is too low somewhere, and a larger start
// certifies sooner.
constexpr int kCertificationSweeps = 120;
constexpr double kNearlyCertified = 1e-12;

// Extrapolation (solve passes).  In a chase value iteration gains only a percent or two of the
// remaining distance per sweep.  Every kExtrapolationDepth + 1 sweeps the layer jumps by a
// fraction (the step factor) of the reduced-rank estimate (RankExtrapolation), then runs
// kSmoothingSweeps ordinary sweeps and checks at every state that it is still a sub-solution
// (x <= T x, so still below the least fixed point).  A jump that fails the check is undone and
// the step factor shrinks; one that passes lets it grow.  The iterates must stay sub-solutions:
// an overshoot is not corrected by further sweeps, because the game's fixed points are not unique
// (play can cycle forever) and iteration from above can settle on a higher one.
constexpr int kExtrapolationDepth = 6;
constexpr int kSmoothingSweeps = 3;
constexpr double kFirstStepFactor = 0.5, kMaxStepFactor = 0.8, kMinStepFactor = 1.0 / 64;
constexpr double kStepGrowth = 2, kStepShrink = 4;
constexpr int kPutBackRounds = 4;

// In the solve pass David chooses his destinations afresh every kFullSweepEvery sweeps and
// replays the recorded ones in between.
constexpr int kFullSweepEvery = 2;

// The termination pass's evaluation of a layer is two BiCGSTAB solves, from zero and then refined
// (a best-response round is one): a product budget per solve, and the residual reduction at which
// the termination pass's solves stop.
constexpr int kEvaluationProducts = 400;
constexpr double kEvaluationTarget = 1e-9;

// Runs one pass over every layer in order; per-layer reports go to the summary.  `before_layer`
// may set a layer's starting values.
template <Mode M>
bool run_pass(const Geometry& geo, const double* guide, double* eval, typename Ops<M>::T win,
              typename Ops<M>::T lose, const std::vector<int>& layers, const PassOptions& po,
              const SolverOptions& options, SolveSummary& summary,
              const std::function<void(int layer)>& before_layer = {}) {
  bool all_certified = true;
  const std::size_t npairs = geo.index.pairs();
  for (int layer : layers) {
    const auto start = Clock::now();
    if (before_layer) before_layer(layer);
    TurnEvaluator<M> ev(geo, guide, eval, win, lose);
    std::vector<std::uint16_t> records(geo.index.at(0, DuelIndex::kSlots, 0) * 13);
    // Transposed copies of David's slots of this layer (guide and iterate).
    std::vector<double> eval_t(4 * npairs), guide_t;
    for (int slot = 0; slot < 4; ++slot) {
      for (std::size_t p = 0; p < npairs; ++p) {
        eval_t[geo.transposed(slot, p)] = eval[geo.index.at(layer, slot, p)];
      }
    }
    if constexpr (M != Mode::kOptimal) {
      guide_t.resize(eval_t.size());
      for (int slot = 0; slot < 4; ++slot) {
        for (std::size_t p = 0; p < npairs; ++p) {
          guide_t[geo.transposed(slot, p)] = guide[geo.index.at(layer, slot, p)];
        }
      }
    }
    ev.set_transposed(M == Mode::kOptimal ? eval_t.data() : guide_t.data(), eval_t.data(), layer);
    std::vector<double> packed;
    if constexpr (M == Mode::kOptimal) {
      packed.resize(TurnEvaluator<M>::kPackedStreams * npairs);
      ev.set_packed_leaves(packed.data(), layer);
    }
    std::vector<typename Ops<M>::T> cache;
    if (layer >= 3) {
      cache = fill_cache(geo, ev, layer);
      ev.set_cache(cache.data(), layer);
    }
    std::optional<RankExtrapolation> rre;
    if (po.accelerate) rre.emplace(geo, kExtrapolationDepth);
    LayerBackup backup;
    std::vector<std::uint8_t> marks(po.accelerate ? DuelIndex::kSlots * npairs : 0);
    std::vector<double> coefficients;
    double step_factor = kFirstStepFactor;
    int smoothing_left = -1;  // sweeps until an extrapolation is checked; -1: none pending
    bool tightening = false;  // upper pass: certified, now lowering the bound
    PassReport report;
    report.layer = layer_name(layer);
    report.pass = po.name;
    report.certified = po.kind == PassKind::kSolve;
    auto last_progress = Clock::now();
    using D = typename TurnEvaluator<M>::Destinations;
    for (int s = 0; s < po.max_sweeps; ++s) {
      // Destinations: a side whose policy is fixed (by the guide) records its choices on the
      // first sweep and replays them after; a free side chooses afresh every sweep.
      // In the solve pass David chooses afresh every kFullSweepEvery sweeps and replays his
      // recorded destinations in between (a replayed choice is worth at most the best one, so
      // x <= T x still holds); the pass stops only on a full sweep.
      bool full = true;
      if constexpr (M == Mode::kOptimal) {
        full = po.kind != PassKind::kSolve || s % kFullSweepEvery == 0;
        ev.set_destinations(records.data(), layer, full ? D::kRecord : D::kReplay, D::kFull);
      } else {
        const D fixed = s == 0 ? D::kRecord : D::kReplay;
        ev.set_destinations(records.data(), layer, fixed, fixed);
      }
      // Solve sweeps never lower a value, except while an extrapolation is being smoothed; an
      // upper pass, once certified, only tightens.
      const Clamp clamp = po.kind == PassKind::kSolve && smoothing_left < 0 ? Clamp::kNoLower
                          : tightening                                      ? Clamp::kNoRaise
                                                                            : Clamp::kNone;
      const SweepResult r = sweep(
          geo, ev, eval, eval_t.data(), rre ? rre->next_change() : nullptr, layer, po.continuation,
          clamp, false, smoothing_left > 0 ? backup.values.data() : nullptr, po.last_change);
      ++report.sweeps;
      if (rre) rre->recorded();
      report.max_change.push_back(r.max_change);
      if (options.log && seconds_since(last_progress) > 60) {
        last_progress = Clock::now();
        char line[160];
        std::snprintf(line, sizeof(line), "  ... %s %s: sweep %d, change %.3g, %.0f s",
                      po.name.c_str(), layer_name(layer), report.sweeps, r.max_change,
                      seconds_since(start));
        options.log(line);
      }
      if (po.kind == PassKind::kLower && r.max_decrease <= kRoundingAllowance) {
        report.certified = true;
        break;
      }
      if (tightening) {
        ++report.tightening_sweeps;
        if (r.max_decrease <= kRoundingAllowance ||
            report.tightening_sweeps >= po.tightening_sweeps)
          break;
        continue;
      }
      if (po.kind == PassKind::kUpper && r.max_increase <= kRoundingAllowance) {
        report.certified = true;
        // From a pre-fixed point every further sweep lowers the values and leaves a pre-fixed
        // point: the bound only tightens.
        if (po.tightening_sweeps == 0 || r.max_decrease <= kRoundingAllowance) break;
        tightening = true;
        continue;
      }
      // A certification that is only rounding away from done (every raise tiny) may run on.
      if (po.kind != PassKind::kSolve && report.sweeps >= kCertificationSweeps &&
          (r.max_increase > kNearlyCertified || report.sweeps >= 3 * kCertificationSweeps))
        break;
      // Extrapolation (solve passes), see kExtrapolationDepth.  After the smoothing sweeps the
      // layer must be a sub-solution again (x <= T x, checked at every state), or the jump is
      // undone and the next one is smaller.
      if (smoothing_left > 0) --smoothing_left;
      if (smoothing_left == 0) {
        smoothing_left = -1;
        ++report.check_sweeps;
        // The check must not record destinations (it may stop early, at a point that depends
        // on the threads); a fixed side keeps replaying its own.
        if constexpr (M == Mode::kOptimal) {
          ev.set_destinations(records.data(), layer, D::kFull, D::kFull);
        }
        // States the jump left unsupported are put back one by one (the smoothing sweeps kept
        // every value at or above its old one, so a state put back is supported for good);
        // when too many remain, the whole jump is undone.
        std::size_t unsupported = mark_unsupported(geo, ev, eval, layer, po.continuation, marks);
        for (int round = 0; unsupported > 0 && round < kPutBackRounds; ++round) {
          report.put_back += unsupported;
          backup.restore_marked(geo, eval, eval_t.data(), layer, marks);
          ++report.check_sweeps;
          unsupported = mark_unsupported(geo, ev, eval, layer, po.continuation, marks);
        }
        if (unsupported == 0) {
          ++report.extrapolations;
          step_factor = std::min(kMaxStepFactor, step_factor * kStepGrowth);
        } else {
          backup.restore(geo, eval, eval_t.data(), layer);
          ++report.rejected;
          step_factor = std::max(kMinStepFactor, step_factor / kStepShrink);
          rre->restart();
          continue;
        }
      }
      if (po.kind == PassKind::kSolve && full && smoothing_left < 0 && r.max_change <= po.tolerance)
        break;
      if (rre && smoothing_left < 0 && rre->ready() && r.max_change > po.tolerance) {
        if (rre->coefficients(coefficients)) {
          backup.save(geo, eval, eval_t.data(), layer);
          extrapolate(geo, eval, eval_t.data(), *rre, coefficients, layer, step_factor);
          // Goliath's values follow David's at once (the smoothing sweeps read them first).
          sweep(geo, ev, eval, eval_t.data(), nullptr, layer, po.continuation, Clamp::kNone, true,
                backup.values.data());
          smoothing_left = kSmoothingSweeps;
        }
        rre->restart();
      }
    }
    report.seconds = seconds_since(start);
    summary.sweeps += report.sweeps + report.check_sweeps;
    all_certified = all_certified && report.certified;
    if (options.log) {
      const std::string tightened =
          ", then tightened by " + std::to_string(report.tightening_sweeps) + " sweeps";
      char line[320];
      std::snprintf(
          line, sizeof(line),
          "%-17s %-22s sweeps %5d +%3d checks  jumps %3d kept %3d undone %7llu put back  "
          "last change %.3g  %.1f s%s%s",
          po.name.c_str(), report.layer.c_str(), report.sweeps, report.check_sweeps,
          report.extrapolations, static_cast<int>(report.rejected),
          static_cast<unsigned long long>(report.put_back),
          report.max_change.empty() ? 0.0 : report.max_change.back(), report.seconds,
          po.kind == PassKind::kSolve ? "" : (report.certified ? "  certified" : "  NOT certified"),
          report.tightening_sweeps > 0 ? tightened.c_str() : "");
      options.log(line);
    }
    summary.passes.push_back(std::move(report));
  }
  return all_certified;
}

// Strategy improvement for one layer (Hoffman-Karp), from a sub-solution x of the discounted T
// (the solve's values): each step makes David's policy sigma greedy on x and replaces x by
// sigma's value against Goliath's best response, found by policy iteration for Goliath (each
// round evaluates the pair of policies by BiCGSTAB and makes Goliath greedy on the result).  Why it
// is safe: x <= T x = T_sigma x, so x lies below sigma's value against any Goliath, and that value
// lies below the game's; sigma's value v also satisfies v = T_sigma v <= T v, so every step
// leaves a sub-solution (up to the rounding of its last evaluation, which the lower pass absorbs
// in a sweep or two).  A response that does not settle within kResponseRounds is not Goliath's
// best, and its value could lie above the game's: the step is undone and the layer's improvement
// ends there.  Why it is fast where value iteration crawls: a stand-off that value iteration
// crosses one turn a sweep is a few slow eigenvalues of a fixed pair of policies, which a Krylov
// method removes in a few products.
//
// Between two steps, options.improvement_sweeps Gauss-Seidel sweeps of the solve (never lowering
// a value, so the iterate stays a sub-solution) carry each step's gains a few turns further
// before David's next policy is chosen: at pitch 2 with 10 sweeps the first layer took 6 steps
// and 639 products (sweeps included) instead of 8 and 911, god/no-kit 3 and 243 instead of 7 and
// 621.
//
// The round's evaluation starts from the current values (the discounted system has one solution)
// and is inexact far from the solution (PolicyEvaluation::set_forcing): only the policies it
// selects matter there.  The first round of a step starts from Goliath greedy on x too, so its
// starting residual is |T x - x|: when that is below kStrategyConverged, x is the fixed point.
// Both sides greedy at once (Newton's method) is not used: it makes both sides wait where each
// expected the other to move, the pair is worth nothing there, and the iteration cycles (measured
// on the default board at pitch 2 and 3, docs/solver.md).
constexpr double kStrategyConverged = 1e-13;  // max |T x - x| at which a layer is solved
constexpr double kStrategyTarget = 1e-12;     // BiCGSTAB: least relative residual reduction
constexpr double kStrategyAbsolute = 1e-14;   // BiCGSTAB: absolute residual (Euclidean) to stop at
constexpr int kResponseRounds = 30;           // Goliath's policy-iteration rounds per step

// Returns the number of steps taken; report.certified says whether the layer converged.
// `after_step` is called after every step, when x is a sub-solution again (a checkpoint).
int improve_layer(const Geometry& geo, std::vector<double>& x, std::vector<double>& sigma,
                  int layer, double continuation, int max_steps, const SolverOptions& options,
                  PassReport& report, const std::function<void()>& after_step) {
  const std::size_t begin = geo.index.at(layer, 0, 0), end = geo.index.at(layer + 1, 0, 0);
  PolicyEvaluation<Mode::kDavidFixed> evaluation(geo, layer, continuation);
  evaluation.set_forcing(true);
  report.certified = false;
  int steps = 0;
  for (; steps < max_steps && !report.certified; ++steps) {
    // sigma fixes David's policy (greedy on it); x is Goliath's guide and the iterate.
    std::copy(x.begin() + begin, x.begin() + end, sigma.begin() + begin);
    int products = 0, rounds = 0;
    double start_residual = 0;
    bool settled = false;
    for (int round = 0; round < kResponseRounds; ++round) {
      evaluation.set_david_destinations_recorded(round > 0);
      const auto r =
          evaluation.solve(sigma.data(), x.data(), x.data(), Triple{1, 1, 1}, Triple{0, 0, 0},
                           false, kEvaluationProducts, kStrategyTarget, kStrategyAbsolute);
      products += r.products + 1;
      ++rounds;
      if (round == 0) start_residual = r.max_residual;
      if (r.max_residual <= kStrategyConverged) {  // Goliath's response has settled
        settled = true;
        break;
      }
    }
    report.certified = start_residual <= kStrategyConverged;
    report.sweeps += products;
    report.rounds += rounds;
    report.max_change.push_back(start_residual);
    if (!settled) {  // sigma still holds the values at the start of the step
      std::copy(sigma.begin() + begin, sigma.begin() + end, x.begin() + begin);
      if (options.log) options.log("  improve: Goliath's response did not settle; step undone");
      ++steps;
      break;
    }
    // (not after the last step: its values would only be swept, not improved)
    if (options.improvement_sweeps > 0 && !report.certified && steps + 1 < max_steps) {
      SolveSummary scratch;
      SolverOptions quiet = options;
      quiet.log = {};
      const PassOptions sweeps{"improve-sweeps",           PassKind::kSolve, 0.0,
                               options.improvement_sweeps, continuation,     false};
      run_pass<Mode::kOptimal>(geo, x.data(), x.data(), 1.0, 0.0, {layer}, sweeps, quiet, scratch);
      report.sweeps += scratch.sweeps;
    }
    if (options.log) {
      // The sum of the layer's values shows the climb: it never falls, and it stops rising
      // once the layer has converged.
      const double layer_sum = std::accumulate(x.begin() + static_cast<std::ptrdiff_t>(begin),
                                               x.begin() + static_cast<std::ptrdiff_t>(end), 0.0);
      char line[240];
      std::snprintf(line, sizeof(line),
                    "  improve %-22s step %2d: |T x - x| %.3g, Goliath's response %2d rounds, "
                    "%3d products, layer sum %.3f",
                    layer_name(layer), steps + 1, start_residual, rounds, products, layer_sum);
      options.log(line);
    }
    after_step();
  }
  // Later layers read this one through David's guide too.
  std::copy(x.begin() + begin, x.begin() + end, sigma.begin() + begin);
  return steps;
}

// Evaluates the pair of policies greedy on `guide` (both fixed) into `values`'s layer: the
// probability of reaching `win` rather than `lose`, each turn continuing with `continuation`.
// Solved from zero (the least solution: zero where the pair's play never ends), then refined from
// the result.  Serves the upper pass's shaped start and the termination pass.
PassReport evaluate_pair(const Geometry& geo, const std::vector<double>& guide,
                         std::vector<double>& values, int layer, double continuation, Pair win,
                         Pair lose, const char* pass) {
  const auto start = Clock::now();
  PolicyEvaluation<Mode::kBothFixed> evaluation(geo, layer, continuation);
  PassReport report;
  report.layer = layer_name(layer);
  report.pass = pass;
  for (const bool from_zero : {true, false}) {
    const auto r = evaluation.solve(guide.data(), nullptr, values.data(), win, lose, from_zero,
                                    kEvaluationProducts, kEvaluationTarget);
    report.sweeps += r.products + 1;
    report.max_change.push_back(r.residual * r.reduction);
  }
  report.seconds = seconds_since(start);
  return report;
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
    : david_cols_(game.lattice_width(kDavid)),
      david_rows_(game.lattice_height(kDavid)),
      goliath_cols_(game.lattice_width(kGoliath)),
      goliath_rows_(game.lattice_height(kGoliath)) {
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
  const bool god = s.has(kGodAvailable), shield = s.has(kGoliathShield),
             jav = s.has(kGoliathJavelin);
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
    throw RulesError(
        "the exact duel solver needs david_move >= 5 (a smaller value gives a "
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

  const double continuation = 1.0 - options.discount;
  std::vector<double> x(geo.index.size(), 0.0);
  if (options.start_values != nullptr) {
    if (options.start_values->size() != x.size())
      throw std::invalid_argument("duel solver: the start values are for another state space");
    x = *options.start_values;
  }
  tbb::task_arena arena(std::max(1, options.threads));

  // Certifies a lower bound: from the estimate `v` minus a margin, Gauss-Seidel sweeps of the
  // discounted operator until one lowers nothing.  The vector left satisfies v <= T v, and with
  // a discount (T a contraction) that makes it a lower bound of T's fixed point, which lies below
  // the undiscounted value.  A margin too small to certify within kCertificationSweeps is
  // retried larger.
  auto certify_lower = [&]<Mode M>(const double* guide, std::vector<double>& v,
                                   typename Ops<M>::T win, typename Ops<M>::T lose,
                                   const std::string& name) {
    const std::vector<double> estimate = v;
    double margin = options.lower_margin;
    for (int attempt = 0; attempt < 5; ++attempt) {
      const PassOptions lower{
          name, PassKind::kLower, options.tolerance, options.max_sweeps, continuation, false};
      const bool certified = run_pass<M>(geo, guide == nullptr ? v.data() : guide, v.data(), win,
                                         lose, layers, lower, options, summary, [&](int layer) {
                                           const std::size_t begin = geo.index.at(layer, 0, 0);
                                           const std::size_t end = geo.index.at(layer + 1, 0, 0);
                                           for (std::size_t i = begin; i < end; ++i)
                                             v[i] = std::max(0.0, estimate[i] - margin);
                                         });
      if (certified) return true;
      margin = std::max(1e-12, margin * 100);
      if (options.log) options.log(name + " pass not certified; retrying with a larger margin");
    }
    return false;
  };

  arena.execute([&] {
    // 1. Solve: value iteration from zero, layer by layer, both sides optimal, with
    //    extrapolation along the slowest mode.  The result is an estimate; 2 and 3 bound it.
    // The last change of every state: where the solve is still moving, the upper pass starts
    // higher (see 3).
    std::vector<float> last_change(geo.index.size(), 0.0f);
    PassOptions solve{"solve",      PassKind::kSolve,  options.tolerance, options.max_sweeps,
                      continuation, options.accelerate};
    solve.last_change = last_change.data();
    // 1b. Strategy improvement (--improvements N): each layer's solved values are improved by at
    //     most N steps of improve_layer before the next layer is solved, since the next layer
    //     reads them.  A layer whose improvement converged (|T x - x| below kStrategyConverged)
    //     needs no slack above it in the upper pass.
    std::vector<double> sigma;
    if (options.policy_improvements > 0) sigma.assign(x.size(), 0.0);
    // Checkpoints: x is a sub-solution after every layer's solve and every improvement step.
    auto last_checkpoint = Clock::now();
    auto checkpoint = [&] {
      if (!options.checkpoint || seconds_since(last_checkpoint) < options.checkpoint_seconds)
        return;
      SolveSummary so_far = summary;
      so_far.seconds = seconds_since(start);
      so_far.peak_memory_bytes = peak_memory_bytes();
      options.checkpoint(x, so_far);
      last_checkpoint = Clock::now();
    };
    for (int layer : layers) {
      run_pass<Mode::kOptimal>(geo, x.data(), x.data(), 1.0, 0.0, {layer}, solve, options, summary);
      checkpoint();
      if (options.policy_improvements == 0) continue;
      const auto layer_start = Clock::now();
      PassReport report;
      report.layer = layer_name(layer);
      report.pass = "improve";
      const int steps = improve_layer(geo, x, sigma, layer, continuation,
                                      options.policy_improvements, options, report, checkpoint);
      report.seconds = seconds_since(layer_start);
      summary.sweeps += report.sweeps;
      summary.improvements = std::max(summary.improvements, steps);
      if (report.certified) {
        std::fill(last_change.begin() + static_cast<std::ptrdiff_t>(geo.index.at(layer, 0, 0)),
                  last_change.begin() + static_cast<std::ptrdiff_t>(geo.index.at(layer + 1, 0, 0)),
                  0.0f);
      }
      if (options.log) {
        char line[200];
        std::snprintf(line, sizeof(line),
                      "%-17s %-22s steps %2d, %4d evaluations, %5d products and sweeps  %.1f s%s",
                      "improve", report.layer.c_str(), steps, report.rounds, report.sweeps,
                      report.seconds, report.certified ? "  converged" : "  NOT converged");
        options.log(line);
      }
      summary.passes.push_back(std::move(report));
    }
    {
      TurnEvaluator<Mode::kOptimal> ev(geo, x.data(), x.data(), 1.0, 0.0);
      const std::uint8_t kit = kShield | kJavelin;
      summary.start_without_god = ev.initiative(false, 0.0);
      summary.david_first_without_god = ev.vd(geo.start_pair, kit);
      summary.goliath_first_without_god = ev.vg(geo.start_pair, kit);
      summary.start = god ? ev.initiative(true, 0.0) : summary.start_without_god;
      summary.david_first =
          god ? ev.vd(geo.start_pair, kit | kGod) : summary.david_first_without_god;
      summary.goliath_first =
          god ? ev.vg(geo.start_pair, kit | kGod) : summary.goliath_first_without_god;
    }

    // 2. Lower bound: certify x <= T x for the discounted game.  David's policy is greedy on the
    //    certified x, so x bounds the value of that policy against any Goliath from below.
    //    These certified values are the solution's values.
    const bool lower_certified =
        certify_lower.template operator()<Mode::kOptimal>(nullptr, x, 1.0, 0.0, "lower");
    if (lower_certified) {
      TurnEvaluator<Mode::kOptimal> ev(geo, x.data(), x.data(), 1.0, 0.0);
      summary.lower_bound_without_god = ev.initiative(false, 0.0);
      summary.lower_bound = god ? ev.initiative(true, 0.0) : summary.lower_bound_without_god;
    }

    // 3. Upper bound: value iteration of T from above.  Start above x and sweep; once a whole
    //    Gauss-Seidel sweep raises nothing, the vector it leaves is a pre-fixed point (T y <= y:
    //    each value was computed from values at least as large as the final ones).  A pre-fixed
    //    point bounds the least fixed point, the game's value, from above; and since T y <= y,
    //    Goliath's policy greedy on y holds David's best response to at most y.  Further sweeps
    //    only lower y and keep T y <= y, so the bound is then tightened.  The layers are
    //    certified one by one (a layer reads only the layers before it); a layer whose start is
    //    not high enough to certify within kCertificationSweeps is retried with a larger margin.
    {
      std::vector<double> y(geo.index.size(), 1.0);
      PassOptions upper{"upper", PassKind::kUpper, options.tolerance, options.max_sweeps, 1.0,
                        false};
      upper.tightening_sweeps = options.upper_tightening_sweeps;
      bool certified = true;
      for (int layer : layers) {
        // The layer's start: x, plus the margin, plus the slack where the solve was still moving,
        // plus what its twin states in the layers it reads (the same slot and pair without God,
        // and without Goliath's kit) were raised by: a layer's values rise at most as much as
        // the values they read (T is monotone and moves by at most a constant added to all).
        std::vector<int> twins;
        if (layer >= 3) twins.push_back(layer - 3);
        if (layer % 3 != 0) twins.push_back(layer - layer % 3);
        double margin = options.upper_margin, slack = options.upper_slack;
        // The undiscounted value of the pair of policies greedy on x (earlier layers: their upper
        // values), where it lies above x: x is the discounted fixed point, which the undiscounted
        // operator raises by about the discount times the continuation value each turn, and in a
        // long stand-off a uniform margin absorbs that only if it is about the discount times
        // the stand-off's length.  The pair's own undiscounted value carries exactly that.
        const std::size_t begin = geo.index.at(layer, 0, 0), end = geo.index.at(layer + 1, 0, 0);
        std::vector<double> shaped;
        if (options.shaped_upper_start) {
          PassReport report =
              evaluate_pair(geo, x, y, layer, 1.0, Pair{1, 1}, Pair{0, 0}, "upper-start");
          shaped.assign(y.begin() + static_cast<std::ptrdiff_t>(begin),
                        y.begin() + static_cast<std::ptrdiff_t>(end));
          summary.sweeps += report.sweeps;
          if (options.log) {
            double above = 0;
            for (std::size_t i = begin; i < end; ++i)
              if (geo.valid[(i - begin) % geo.index.pairs()])
                above = std::max(above, shaped[i - begin] - x[i]);
            char line[200];
            std::snprintf(line, sizeof(line),
                          "%-17s %-22s BiCGSTAB: %d products, largest rise above x %.3g  %.1f s",
                          "upper-start", report.layer.c_str(), report.sweeps, above,
                          report.seconds);
            options.log(line);
          }
          summary.passes.push_back(std::move(report));
        }
        bool layer_certified = false;
        for (int attempt = 0; attempt < 5 && !layer_certified; ++attempt) {
          layer_certified = run_pass<Mode::kOptimal>(
              geo, y.data(), y.data(), 1.0, 0.0, {layer}, upper, options, summary, [&](int) {
                for (std::size_t i = begin; i < end; ++i) {
                  double inherited = 0;
                  for (int twin : twins) {
                    const std::size_t j = i - begin + geo.index.at(twin, 0, 0);
                    inherited = std::max(inherited, y[j] - x[j]);
                  }
                  const double base = shaped.empty()
                                          ? x[i] + inherited
                                          : std::max(shaped[i - begin], x[i] + inherited);
                  y[i] = std::min(1.0, base + margin + slack * last_change[i]);
                }
              });
          margin *= 10;
          slack *= 10;
          if (!layer_certified && options.log)
            options.log("upper pass not certified; retrying the layer with a larger margin");
        }
        certified = certified && layer_certified;
      }
      if (certified) {
        TurnEvaluator<Mode::kOptimal> ev(geo, y.data(), y.data(), 1.0, 0.0);
        summary.upper_bound_without_god = ev.initiative(false, 1.0);
        summary.upper_bound = god ? ev.initiative(true, 1.0) : summary.upper_bound_without_god;
      }
    }

    // 4. Termination: both policies fixed, Goliath's win probability, solved and certified from
    //    below like David's; 1 - lower_bound - goliath_win bounds the mass of games that never
    //    end.
    if (options.nontermination && lower_certified) {
      std::vector<double> w(geo.index.size(), 0.0);
      for (int layer : layers) {
        PassReport report =
            evaluate_pair(geo, x, w, layer, continuation, Pair{1, 0}, Pair{0, 1}, "termination");
        summary.sweeps += report.sweeps;
        if (options.log) {
          char line[200];
          std::snprintf(line, sizeof(line),
                        "%-17s %-22s BiCGSTAB: %d products, residual %.3g  %.1f s", "termination",
                        report.layer.c_str(), report.sweeps, report.max_change.back(),
                        report.seconds);
          options.log(line);
        }
        summary.passes.push_back(std::move(report));
      }
      if (certify_lower.template operator()<Mode::kBothFixed>(x.data(), w, Pair{1, 0}, Pair{0, 1},
                                                              "termination-lower")) {
        TurnEvaluator<Mode::kBothFixed> ev(geo, x.data(), w.data(), Pair{1, 0}, Pair{0, 1});
        summary.goliath_win_lower = ev.initiative(god, 0.0).e;
        summary.nontermination_upper =
            std::max(0.0, 1.0 - summary.lower_bound - summary.goliath_win_lower);
        summary.nontermination_computed = true;
      }
    }
  });
  summary.seconds = seconds_since(start);
  summary.peak_memory_bytes = peak_memory_bytes();
  return DuelSolution(game, std::move(x), std::move(summary));
}

// ---------------------------------------------------------------------------------------------
// DuelSolution: values anywhere, by expectimax over the rest of the turn with DuelGame itself.

DuelSolution::DuelSolution(const DuelGame& game, std::vector<double> values, SolveSummary summary,
                           bool complete)
    : game_(game),
      index_(game),
      values_(std::move(values)),
      summary_(std::move(summary)),
      complete_(complete) {
  if (values_.size() != index_.size())
    throw FileFormatError("duel solution: wrong number of values");
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
    if (david ? values[i].second > values[best].second : values[i].second < values[best].second)
      best = i;
  }
  return values[best].first;
}

}  // namespace sling::duel

// ---------------------------------------------------------------------------------------------
// The solution file.

namespace sling::duel {

template <class Archive>
void serialize(Archive& ar, PassReport& p) {
  ar(p.layer, p.pass, p.sweeps, p.extrapolations, p.check_sweeps, p.rejected, p.put_back,
     p.tightening_sweeps, p.rounds, p.seconds, p.certified, p.max_change);
}

template <class Archive>
void serialize(Archive& ar, SolveSummary& s) {
  ar(s.start, s.david_first, s.goliath_first, s.start_without_god, s.david_first_without_god,
     s.goliath_first_without_god, s.lower_bound, s.upper_bound, s.lower_bound_without_god,
     s.upper_bound_without_god, s.goliath_win_lower, s.nontermination_upper,
     s.nontermination_computed, s.states, s.canonical_states, s.layers, s.sweeps, s.improvements,
     s.seconds, s.peak_memory_bytes, s.threads, s.passes);
}

namespace {
constexpr const char* kMagic = "sling-duel-solution";
}  // namespace

void DuelSolution::save(const std::string& path) const {
  save(path, game_, values_, summary_, complete_);
}

void DuelSolution::save(const std::string& path, const DuelGame& game,
                        const std::vector<double>& values, const SolveSummary& summary,
                        bool complete) {
  const DuelIndex index(game);
  if (values.size() != index.size()) throw FileFormatError("duel solution: wrong number of values");
  const std::uint64_t pairs = index.pairs();
  std::ostringstream out;
  {
    cereal::BinaryOutputArchive archive(out);
    const std::string magic = kMagic;
    const std::uint32_t version = kFormatVersion;
    const std::string rules = game.rules_json();
    SolveSummary copy = summary;  // (cereal's archive takes non-const references)
    archive(magic, version, complete, rules, pairs, copy, values, checksum(values));
  }
  write_file_atomic(path, out.str());
}

DuelSolution DuelSolution::load(const std::string& path, const DuelGame* expected, Accept accept) {
  const std::string bytes = read_file(path);
  std::string magic, rules;
  std::uint32_t version = 0;
  std::uint64_t pairs = 0, sum = 0;
  SolveSummary summary;
  std::vector<double> values;
  bool complete = true;
  const std::string where = "duel solution '" + path + "'";
  // Cereal writes the magic string after its 8-byte length: check it before trusting any size.
  const std::string magic_text = kMagic;
  if (bytes.size() < 8 + magic_text.size() ||
      bytes.compare(8, magic_text.size(), magic_text) != 0) {
    throw FileFormatError(where + ": not a Sling duel solution file");
  }
  try {
    std::istringstream in(bytes);
    cereal::BinaryInputArchive archive(in);
    archive(magic);
    if (magic != kMagic) throw FileFormatError(where + ": not a Sling duel solution file");
    archive(version);
    constexpr std::uint32_t kOldestReadable = 4;  // the last version without the checkpoint mark
    if (version < kOldestReadable || version > kFormatVersion) {
      throw FileFormatError(where + ": format version " + std::to_string(version) +
                            ", this Sling reads versions " + std::to_string(kOldestReadable) +
                            " to " + std::to_string(kFormatVersion) +
                            " (solve again with `sling solve duel`)");
    }
    if (version >= 5) archive(complete);
    archive(rules, pairs, summary, values, sum);
  } catch (const FileFormatError&) {
    throw;
  } catch (const std::exception& e) {
    throw FileFormatError(where + ": corrupted or truncated (" + e.what() + ")");
  }
  if (checksum(values) != sum) throw FileFormatError(where + ": corrupted (checksum mismatch)");
  if (!complete && accept != Accept::kSolutionOrCheckpoint) {
    throw FileFormatError(where +
                          " is a checkpoint of an unfinished solve, not a solution: "
                          "continue it with `sling solve duel --start " +
                          path + " --out FILE`");
  }
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
  return DuelSolution(game, std::move(values), std::move(summary), complete);
}

}  // namespace sling::duel
