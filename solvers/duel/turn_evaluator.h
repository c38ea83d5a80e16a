#pragma once
// The solver's view of a turn: the values it reads at the start of the next turn (in every mode,
// with the transposed and packed copies that keep the movement discs in cache), the movement
// discs, and the entry points that evaluate a whole turn with a Turn (turn_rules.h).

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "solvers/duel/lattice_tables.h"
#include "solvers/duel/layers.h"
#include "solvers/duel/values.h"

namespace sling::duel::detail {

template <Mode M>
class Turn;

// The values a turn is evaluated from, in mode M, and how they are read.  Shared by the threads
// of a sweep (every method is const); what changes while one state's turn is evaluated (the
// cursor of its choice tape) belongs to that evaluation's Turn.
template <Mode M>
class TurnEvaluator {
 public:
  using O = Ops<M>;
  using T = typename O::T;

  TurnEvaluator(const LatticeTables& lattice, const double* guide, const double* eval, T david_win,
                T goliath_win, const double* free_guide = nullptr)
      : lattice_(lattice),
        r_(lattice.game.rules()),
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
  // `width` 2 (the both-fixed mode): guide and value of a state side by side, eval_t being
  // guide_t + 1, so a Goliath move reads one cache line per destination, not two.
  void set_transposed(const double* guide_t, const double* eval_t, int layer,
                      const double* free_guide_t = nullptr, std::size_t width = 1) {
    guide_t_ = guide_t;
    free_guide_t_ = free_guide_t;
    eval_t_ = eval_t;
    transposed_layer_ = layer;
    transposed_width_ = width;
  }

  // Goliath's values that David's own moves lead to (the leaves of david_move_discs), copied for
  // `layer` with the four streams of a pair side by side, so a destination is one cache line,
  // not four (in the both-fixed mode, guide and value side by side: 8 doubles a pair).  The
  // copy is a cache of `eval`: refresh_packed_leaves() renews it, and the sweep
  // calls it before David's group, whose discs read it (Goliath's values do not change there).
  void set_packed_leaves(double* packed, int layer) {
    packed_ = packed;
    packed_layer_ = layer;
  }
  static constexpr std::size_t kPackedStreams = 4;
  void refresh_packed_leaves() const {
    if constexpr (M == Mode::kOptimal || M == Mode::kBothFixed) {
      if (packed_ == nullptr) return;
      const std::uint8_t lf = layer_flags(packed_layer_);
      std::array<std::size_t, kPackedStreams> base;
      for (std::size_t k = 0; k < kPackedStreams; ++k) {
        const std::uint8_t f = static_cast<std::uint8_t>(lf | slot_flags(static_cast<int>(k)));
        base[k] = lattice_.index.at(
            packed_layer_, DuelIndex::goliath_slot(f & kStone, f & kDazed, f & kBehead), 0);
      }
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, lattice_.index.pairs(), 4096),
                        [&](const tbb::blocked_range<std::size_t>& range) {
                          for (std::size_t p = range.begin(); p != range.end(); ++p) {
                            for (std::size_t k = 0; k < kPackedStreams; ++k) {
                              if constexpr (M == Mode::kBothFixed) {
                                packed_[2 * (p * kPackedStreams + k)] = guide_[base[k] + p];
                                packed_[2 * (p * kPackedStreams + k) + 1] = eval_[base[k] + p];
                              } else {
                                packed_[p * kPackedStreams + k] = eval_[base[k] + p];
                              }
                            }
                          }
                        });
    }
  }

  // The values a stone that dazes Goliath leads to: he loses his next turn, so David declares
  // again two turns later.  Without a turn cap that is the same state as any other David
  // declaration (null: read `eval`); the capped solve (capped_turn.h) reads them from the values
  // two turns back.  Only David's slot without a stone is read (the stone was just thrown).
  void set_lost_turn(const double* guide, const double* eval) {
    lost_turn_guide_ = guide;
    lost_turn_eval_ = eval;
  }
  T vd_after_lost_turn(std::size_t pair, std::uint8_t f) const {
    if constexpr (M == Mode::kOptimal || M == Mode::kBothFixed) {
      if (lost_turn_eval_ != nullptr) {
        const std::size_t i =
            lattice_.index.at(layer_of(f), DuelIndex::david_slot(f & kStone, f & kDazed), pair);
        if constexpr (M == Mode::kOptimal) {
          return lost_turn_eval_[i];
        } else {
          return T{lost_turn_guide_[i], lost_turn_eval_[i]};
        }
      }
    }
    return vd(pair, f);
  }

  // No-God movement values of the current God layer (see fill_cache), or null.
  void set_cache(const T* cache, int layer) {
    cache_ = cache;
    cache_layer_ = layer;
  }
  // The optimal mode's no-God flight values of a God layer (fill_flight_cache): David's movement
  // after a tied melee in Goliath's turn, without God, indexed (David's stone) * pairs + pair.
  // They read only the finished no-God layer, so a sweep reads them instead of scanning the disc
  // again at every melee.
  void set_flight_cache(const double* cache, int layer) {
    flight_cache_ = cache;
    flight_cache_layer_ = layer;
  }

  // The choice tape (kTapeWords per state of the layer being swept, indexed slot * pairs +
  // pair): a fixed mode records it (each sweep's state_value overwrites its state's), the linear
  // form mode replays it.
  void set_tape(std::uint64_t* tape) { tape_ = tape; }
  // Linear form mode: the layer whose values are the form's variables, and each pair's canonical
  // position (a pair and its mirror image share one).
  void set_form_layer(int layer, const std::uint32_t* canonical_position) {
    form_layer_begin_ = lattice_.index.at(layer, 0, 0);
    form_layer_end_ = lattice_.index.at(layer + 1, 0, 0);
    canonical_position_ = canonical_position;
  }

  T read(std::size_t i) const {
    if constexpr (M == Mode::kLinearForm) {
      T form;
      if (i >= form_layer_begin_ && i < form_layer_end_) {
        const std::size_t offset = i - form_layer_begin_, npairs = lattice_.index.pairs();
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
    return read(
        lattice_.index.at(layer_of(f), DuelIndex::david_slot(f & kStone, f & kDazed), pair));
  }
  T vg(std::size_t pair, std::uint8_t f) const {
    return read(lattice_.index.at(
        layer_of(f), DuelIndex::goliath_slot(f & kStone, f & kDazed, f & kBehead), pair));
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

  // best[k][a] for a = 0..max_allowance: the mover's best destination within a cm, for each of N
  // streams of leaves at once.  The streams are states of one pair that differ only in flags
  // (David's stone, Goliath's daze): they share every destination and its legality, so one pass
  // over the offsets serves them all.  The disc of a + 1 contains the disc of a, so one pass over
  // the offsets sorted by length gives every allowance (best(a + 1) = best of best(a) and the ring
  // between).
  template <Side kMover, std::size_t N>
  void discs(std::size_t pair, const std::array<std::uint8_t, N>& flags, Side actor,
             int max_allowance, T (&best)[N][13]) const;  // (movement_discs.h)
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

  // The value of the declare state (layer, slot, pair) from the values of the next turn's start.
  // `move_best`, when given, is the state's movement disc (see david_move_discs).
  T state_value(int layer, int slot, std::size_t pair, const T* move_best = nullptr) const;
  // David's movement roll and destination, after which `actor`'s turn ends; Goliath's movement
  // (Turn::david_move, Turn::goliath_move; fill_cache reads them without a tape).
  T david_move(std::size_t pair, std::uint8_t f, Side actor) const;
  T goliath_move(std::size_t pair, std::uint8_t f) const;

  // The initiative: both dice, ties rolled again, David may re-roll either die (God).  Solved as
  // a one-variable fixed point (a tie comes back with probability 1/6); `from` is where the
  // iteration starts (0 gives lower bounds at every step, 1 upper bounds).
  T initiative(bool god, double from) const {
    const std::size_t p = lattice_.start_pair;
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
  friend class Turn<M>;

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

  const LatticeTables& lattice_;
  const DuelRules& r_;
  static constexpr bool kOneFixed = M == Mode::kDavidFixed;
  const double* guide_;
  const double* free_guide_ = nullptr;  // one-side-fixed modes: the free side's guide
  const double* eval_;
  const double* lost_turn_guide_ = nullptr;
  const double* lost_turn_eval_ = nullptr;
  T win_, lose_;
  const T* cache_ = nullptr;
  int cache_layer_ = -1;
  const double* flight_cache_ = nullptr;
  int flight_cache_layer_ = -1;
  std::uint16_t* records_ = nullptr;
  std::uint16_t* cross_records_ = nullptr;
  int records_layer_ = -1;
  const double* guide_t_ = nullptr;
  const double* free_guide_t_ = nullptr;
  const double* eval_t_ = nullptr;
  int transposed_layer_ = -1;
  std::size_t transposed_width_ = 1;
  std::uint64_t* tape_ = nullptr;
  std::size_t form_layer_begin_ = 0, form_layer_end_ = 0;
  const std::uint32_t* canonical_position_ = nullptr;
  double* packed_ = nullptr;
  int packed_layer_ = -1;
  Destinations destinations_[2] = {Destinations::kFull, Destinations::kFull};
};

}  // namespace sling::duel::detail

#include "solvers/duel/movement_discs.h"
#include "solvers/duel/turn_rules.h"
