#pragma once
// The exact evaluation of a fixed pair of policies (or of one fixed side against the other's
// best response) by BiCGSTAB over the pair's compiled operator.

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "solvers/duel/sweep.h"

namespace sling::duel::detail {

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

  PolicyEvaluation(const LatticeTables& lattice, int layer, double continuation)
      : lattice_(lattice),
        layer_(layer),
        continuation_(continuation),
        n_(lattice.canonical_pairs.size() * DuelIndex::kSlots),
        work_(lattice.index.size(), 0.0),
        work_t_(4 * lattice.index.pairs(), 0.0),
        guide_t_(4 * lattice.index.pairs(), 0.0),
        free_guide_t_(free_guide_size(lattice), 0.0),
        records_(lattice.index.at(0, DuelIndex::kSlots, 0) * 13),
        cross_records_(2 * lattice.index.pairs() * 13),
        tape_(lattice.index.at(0, DuelIndex::kSlots, 0) * kTapeWords),
        canonical_position_(lattice.index.pairs(), 0) {
    for (std::size_t k = 0; k < lattice.canonical_pairs.size(); ++k) {
      const std::size_t p = lattice.canonical_pairs[k];
      canonical_position_[p] = static_cast<std::uint32_t>(k);
      canonical_position_[lattice.index.mirror(p)] = static_cast<std::uint32_t>(k);
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
    const std::size_t npairs = lattice_.index.pairs();
    for (int slot = 0; slot < 4; ++slot) {
      for (std::size_t p = 0; p < npairs; ++p) {
        guide_t_[lattice_.transposed(slot, p)] = guide[lattice_.index.at(layer_, slot, p)];
        if (!free_guide_t_.empty())
          free_guide_t_[lattice_.transposed(slot, p)] =
              free_guide[lattice_.index.at(layer_, slot, p)];
        work_t_[lattice_.transposed(slot, p)] =
            from_zero ? 0.0 : values[lattice_.index.at(layer_, slot, p)];
      }
    }
    // A layer reads only itself and the layers before it, which are final: they are copied once.
    const std::size_t begin = lattice_.index.at(layer_, 0, 0),
                      end = lattice_.index.at(layer_ + 1, 0, 0);
    std::copy(values + (finished_copied_ ? begin : 0), values + end,
              work_.begin() + static_cast<std::ptrdiff_t>(finished_copied_ ? begin : 0));
    finished_copied_ = true;
    if (from_zero) std::fill(work_.begin() + begin, work_.begin() + end, 0.0);
    std::vector<double> start(n_);
    gather(work_.data(), start.data());
    const auto& pairs = lattice_.canonical_pairs;
    using D = typename TurnEvaluator<M>::Destinations;
    const double* free_t = free_guide_t_.empty() ? nullptr : free_guide_t_.data();
    // r = S(start) - start, recording both sides' choices.
    TurnEvaluator<M> affine(lattice_, guide, work_.data(), win, lose, free_guide);
    affine.set_transposed(guide_t_.data(), work_t_.data(), layer_, free_t);
    // The no-God movement values read only the finished layers too: computed on the first solve
    // (refilled every round, they had made a god/no-kit step at pitch 1 take 45 to 100 s, not 30).
    if (layer_ >= 3) {
      if (cache_.empty()) cache_ = fill_cache(lattice_, affine, layer_);
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
          store(lattice_, work_.data(), work_t_.data(), layer_, slot, p, lattice_.index.mirror(p),
                scratch_[at(k, slot)]);
      });
    }
    sweep(lattice_, affine, work_.data(), work_t_.data(), nullptr, layer_, continuation_,
          Clamp::kNone, david_from_rows);
    std::vector<double> r(n_);
    gather(work_.data(), r.data());
    // L, compiled: each state's turn as a linear form of the layer's states, with the choices
    // this sweep recorded.  David's rows depend only on his choices, which a David guide kept
    // from the last solve leaves as they were.
    TurnEvaluator<Mode::kLinearForm> linear(lattice_, nullptr, work_.data(), LinearForm{},
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
        values[lattice_.index.at(layer_, slot, p)] = v;
        values[lattice_.index.at(layer_, slot, lattice_.index.mirror(p))] = v;
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
    const auto& pairs = david_group ? lattice_.canonical_pairs : lattice_.goliath_group_order;
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

  static std::size_t free_guide_size(const LatticeTables& lattice) {
    return M == Mode::kBothFixed ? 0 : 4 * lattice.index.pairs();
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
    const auto& pairs = lattice_.canonical_pairs;
    tbb::parallel_for(std::size_t{0}, pairs.size(), [&](std::size_t k) {
      for (int slot = 0; slot < DuelIndex::kSlots; ++slot)
        to[at(k, slot)] = from[lattice_.index.at(layer_, slot, pairs[k])];
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

  const LatticeTables& lattice_;
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

}  // namespace sling::duel::detail
