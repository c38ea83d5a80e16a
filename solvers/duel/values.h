#pragma once
// What a turn evaluation carries per node in each of the solver's modes, and how each side chooses.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace sling::duel::detail {

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
// one bit each, in the order the turn makes them: at most about 100 (a God layer's melee).  A
// Turn (turn_rules.h) writes or reads them through its own cursor.
constexpr std::size_t kTapeWords = 2;

template <>
struct Ops<Mode::kOptimal> {
  using T = double;
  static T david(T a, T b) { return b > a ? b : a; }
  static T goliath(T a, T b) { return b < a ? b : a; }
  static double e(T v) { return v; }
  static bool takes_second(T a, T b, bool david) { return david ? b > a : b < a; }
};

}  // namespace sling::duel::detail
