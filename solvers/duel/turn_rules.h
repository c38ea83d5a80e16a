#pragma once
// The rules of one turn, evaluated exactly from the values at the start of the next turn.  Every
// function mirrors a path through DuelGame::dice_final / begin_turn (tests compare the two).
// (Part of turn_evaluator.h.)

#include <stdexcept>

#include "solvers/duel/turn_evaluator.h"

namespace sling::duel::detail {

inline int faces_at_most(int value) {
  return std::clamp(value, 0, 6);
}
inline int faces_at_least(int value) {
  return std::clamp(7 - value, 0, 6);
}

// One evaluation of a turn.  A Turn lives for one state's turn (or one movement roll): it owns
// the cursor of that state's choice tape, so evaluations on different threads share nothing but
// the const TurnEvaluator.
template <Mode M>
class Turn {
 public:
  using O = Ops<M>;
  using T = typename O::T;

  // `tape`: the state's kTapeWords words of choices, written (fixed modes) or read (the linear
  // form mode) one bit per choice; null when no tape is kept.
  explicit Turn(const TurnEvaluator<M>& ev, std::uint64_t* tape = nullptr) : ev_(ev), tape_(tape) {}

  // The choice of `chooser` between a (listed first: it wins ties) and b.  The turn functions
  // make every choice through here, each in its own statement or as an argument, so the order
  // of the choices is the same in every mode.
  T choose(Side chooser, T a, T b) {
    if constexpr (M == Mode::kLinearForm) {
      const bool second = (tape_[bit_ >> 6] >> (bit_ & 63)) & 1;
      ++bit_;
      return second ? b : a;
    } else {
      if constexpr (M != Mode::kOptimal) {
        if (tape_ != nullptr) {
          if (bit_ >= 64 * kTapeWords) throw std::logic_error("duel solver: choice tape full");
          if (O::takes_second(a, b, chooser == kDavid)) tape_[bit_ >> 6] |= 1ull << (bit_ & 63);
          ++bit_;
        }
      }
      return chooser == kDavid ? O::david(a, b) : O::goliath(a, b);
    }
  }

  // A single die with David's God decision: accept (first option) or re-roll into the no-God
  // world, whose value is `reroll`.
  T god_die(double p_success, T success, T failure, T reroll) {
    const T on_success = choose(kDavid, success, reroll);  // (in this order: see choose)
    const T on_failure = choose(kDavid, failure, reroll);
    return p_success * on_success + (1 - p_success) * on_failure;
  }
  static T plain_die(double p_success, T success, T failure) {
    return p_success * success + (1 - p_success) * failure;
  }

  // David's movement roll (Move, or the movement after a successful flee or a tied melee) and
  // destination, then the turn of `actor` ends.  f carries God when it is available.
  // `move_best`, when given, is disc<kDavid>'s result for (pair, f, actor), already computed.
  T david_move(std::size_t pair, std::uint8_t f, Side actor, const T* move_best = nullptr) {
    T computed[13];
    const T* best = move_best;
    if (best == nullptr) {
      ev_.template disc<kDavid>(pair, f, actor, ev_.r_.david_move - 1, computed);
      best = computed;
    }
    const T stay = ev_.leaf_after(actor, pair, f);
    if (!(f & kGod)) {
      T sum = (1.0 / 6) * stay;
      for (int die = 1; die <= 5; ++die) sum = sum + (1.0 / 6) * best[ev_.r_.david_move - die];
      return sum;
    }
    const T reroll = no_god_david_move(pair, f, actor);
    T sum = (1.0 / 6) * choose(kDavid, stay, reroll);
    for (int die = 1; die <= 5; ++die)
      sum = sum + (1.0 / 6) * choose(kDavid, best[ev_.r_.david_move - die], reroll);
    return sum;
  }
  // The value of re-rolling David's movement: the same roll without God.  `move_best` is the disc
  // of (pair, f, actor) when known; it serves only when f has no God (then nothing changes).
  T no_god_david_move(std::size_t pair, std::uint8_t f, Side actor, const T* move_best = nullptr) {
    if (ev_.cache_ != nullptr && actor == kDavid && ev_.layer_of(f) == ev_.cache_layer_) {
      return ev_
          .cache_[ev_.lattice_.index.at(0, DuelIndex::david_slot(f & kStone, f & kDazed), pair)];
    }
    if constexpr (M == Mode::kOptimal) {
      if (ev_.flight_cache_ != nullptr && actor == kGoliath &&
          ev_.layer_of(f) == ev_.flight_cache_layer_ && (f & (kDazed | kBehead)) == 0) {
        return ev_.flight_cache_[((f & kStone) ? ev_.lattice_.index.pairs() : 0) + pair];
      }
    }
    return david_move(pair, static_cast<std::uint8_t>(f & ~kGod), actor,
                      (f & kGod) ? nullptr : move_best);
  }

  // `move_best`, when given, is disc<kGoliath>'s result for (pair, f), already computed.
  T goliath_move(std::size_t pair, std::uint8_t f, const T* move_best = nullptr) {
    T computed[13];
    const T* best = move_best;
    const int base_move =
        (f & kShield) ? ev_.r_.goliath_move_shield : ev_.r_.goliath_move_two_handed;
    if (best == nullptr) {
      ev_.template disc<kGoliath>(pair, f, kGoliath, std::max(0, base_move - 1), computed);
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
  T no_god_goliath_move(std::size_t pair, std::uint8_t f) {
    if (ev_.cache_ != nullptr && ev_.layer_of(f) == ev_.cache_layer_) {
      return ev_.cache_[ev_.lattice_.index.at(0, DuelIndex::goliath_slot(f & kStone, false, false),
                                              pair)];
    }
    return goliath_move(pair, static_cast<std::uint8_t>(f & ~kGod));
  }

  // Shoot: the stone is used up; to-hit, damage and daze, each a die David may re-roll.
  T shoot(std::size_t pair, std::uint8_t f) {
    const std::uint8_t used = static_cast<std::uint8_t>(f & ~kStone);
    const double p_hit = faces_at_most(ev_.lattice_.cap_david[pair]) / 6.0;
    const int protection = (f & kShield) ? ev_.r_.protection_shield : ev_.r_.protection_two_handed;
    const double p_damage = (6 - std::clamp(protection, 0, 6)) / 6.0;
    const double p_daze = faces_at_most(ev_.r_.daze_max) / 6.0;
    // A stone-dazed Goliath loses his next turn: David declares again at once.
    const std::uint8_t n = static_cast<std::uint8_t>(used & ~kGod);
    const T miss_n = ev_.vg(pair, n);
    const T daze_n = plain_die(p_daze, ev_.vd_after_lost_turn(pair, n | kDazed), miss_n);
    const T damage_n = plain_die(p_damage, daze_n, miss_n);
    const T hit_n = plain_die(p_hit, damage_n, miss_n);
    if (!(f & kGod)) return hit_n;
    const T miss = ev_.vg(pair, used);
    const T daze = god_die(p_daze, ev_.vd_after_lost_turn(pair, used | kDazed), miss, daze_n);
    const T damage = god_die(p_damage, daze, miss, damage_n);
    return god_die(p_hit, damage, miss, hit_n);
  }

  T search(std::size_t pair, std::uint8_t f) {
    const double p = faces_at_least(ev_.r_.search_min) / 6.0;
    const std::uint8_t n = static_cast<std::uint8_t>(f & ~kGod);
    const T plain = plain_die(p, ev_.vg(pair, n | kStone), ev_.vg(pair, n));
    if (!(f & kGod)) return plain;
    return god_die(p, ev_.vg(pair, f | kStone), ev_.vg(pair, f), plain);
  }

  T flee(std::size_t pair, std::uint8_t f, const T* move_best = nullptr) {
    const double p = faces_at_least(ev_.r_.flee_min) / 6.0;
    const std::uint8_t n = static_cast<std::uint8_t>(f & ~kGod);
    const T plain = plain_die(p, no_god_david_move(pair, f, kDavid, move_best), ev_.vg(pair, n));
    if (!(f & kGod)) return plain;
    return god_die(p, david_move(pair, f, kDavid, move_best), ev_.vg(pair, f), plain);
  }

  // The melee declared by `actor`: each die may be re-rolled by God (either die).
  // `move_best`: as for flee, when David declared the melee.
  T melee(std::size_t pair, std::uint8_t f, Side actor, const T* move_best = nullptr) {
    const auto& sign =
        (f & kShield) ? ev_.lattice_.melee_sign_shield : ev_.lattice_.melee_sign_two_handed;
    auto outcomes = [&](std::uint8_t flags, T tie_flee) {
      std::array<T, 3> o;  // David loses, tie, David wins
      o[0] = ev_.lose_;
      o[1] = choose(kDavid, tie_flee, ev_.leaf_after(actor, pair, flags));
      o[2] = ev_.leaf_after(actor, pair, static_cast<std::uint8_t>(flags | kDazed));
      return o;
    };
    const std::uint8_t n = static_cast<std::uint8_t>(f & ~kGod);
    // (Goliath's melee: the flight without God, david_move(pair, n, actor) unless cached.)
    const T flee_n = actor == kDavid ? no_god_david_move(pair, f, kDavid, move_best)
                                     : no_god_david_move(pair, f, actor);
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
  T david_turn(std::size_t pair, std::uint8_t f, const T* move_best = nullptr) {
    const bool contact = ev_.lattice_.contact[pair] != 0;
    T best{};
    bool have = false;
    auto consider = [&](T v) {
      best = have ? choose(kDavid, best, v) : v;
      have = true;
    };
    if (!contact) consider(david_move(pair, f, kDavid, move_best));
    if ((f & kStone) && ev_.lattice_.cap_david[pair] >= 1) consider(shoot(pair, f));
    if (contact) consider(melee(pair, f, kDavid, move_best));
    if (!(f & kStone)) consider(search(pair, f));
    if (contact && (f & kDazed)) consider(ev_.vg(pair, f | kBehead));
    if (contact) consider(flee(pair, f, move_best));
    return best;
  }

  // Goliath declares.  `move_best`, when given, is his movement disc from this state.
  T goliath_turn(std::size_t pair, std::uint8_t f, const T* move_best = nullptr) {
    if (f & kDazed) {
      const double p = faces_at_least(ev_.r_.recover_min) / 6.0;
      const std::uint8_t up = static_cast<std::uint8_t>(f & ~kDazed);
      const std::uint8_t n = static_cast<std::uint8_t>(f & ~kGod);
      const T plain = plain_die(p, ev_.leaf_david(pair, static_cast<std::uint8_t>(up & ~kGod)),
                                ev_.leaf_david(pair, n));
      if (!(f & kGod)) return plain;
      return god_die(p, ev_.leaf_david(pair, up), ev_.leaf_david(pair, f), plain);
    }
    const bool contact = ev_.lattice_.contact[pair] != 0;
    T best = goliath_move(pair, f, move_best);
    if ((f & kJavelin) && ev_.lattice_.cap_goliath[pair] >= 1) {
      const double p = faces_at_most(ev_.lattice_.cap_goliath[pair]) / 6.0;
      const std::uint8_t thrown = static_cast<std::uint8_t>(f & ~kJavelin);
      const T plain =
          plain_die(p, ev_.lose_, ev_.vd(pair, static_cast<std::uint8_t>(thrown & ~kGod)));
      best = choose(kGoliath, best,
                    (f & kGod) ? god_die(p, ev_.lose_, ev_.vd(pair, thrown), plain) : plain);
    }
    if (contact) best = choose(kGoliath, best, melee(pair, f, kGoliath));
    if (f & kShield)
      best = choose(kGoliath, best,
                    ev_.vd(pair, static_cast<std::uint8_t>(f & ~(kShield | kJavelin))));
    return best;
  }

 private:
  const TurnEvaluator<M>& ev_;
  std::uint64_t* tape_;  // this state's choice tape, or null
  unsigned bit_ = 0;     // the next choice's bit in it
};

template <Mode M>
typename TurnEvaluator<M>::T TurnEvaluator<M>::state_value(int layer, int slot, std::size_t pair,
                                                           const T* move_best) const {
  const std::uint8_t f = static_cast<std::uint8_t>(layer_flags(layer) | slot_flags(slot));
  std::uint64_t* tape = nullptr;
  if constexpr (M != Mode::kOptimal) {
    if (tape_ != nullptr) {
      tape = tape_ + (static_cast<std::size_t>(slot) * lattice_.index.pairs() + pair) * kTapeWords;
      if constexpr (M != Mode::kLinearForm) std::fill(tape, tape + kTapeWords, 0);
    }
  }
  Turn<M> turn(*this, tape);
  return slot < 4 ? turn.david_turn(pair, f, move_best) : turn.goliath_turn(pair, f, move_best);
}

template <Mode M>
typename TurnEvaluator<M>::T TurnEvaluator<M>::david_move(std::size_t pair, std::uint8_t f,
                                                          Side actor) const {
  return Turn<M>(*this).david_move(pair, f, actor);
}

template <Mode M>
typename TurnEvaluator<M>::T TurnEvaluator<M>::goliath_move(std::size_t pair,
                                                            std::uint8_t f) const {
  return Turn<M>(*this).goliath_move(pair, f);
}

}  // namespace sling::duel::detail
