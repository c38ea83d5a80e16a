#include "solvers/duel/certification.h"

#include <algorithm>
#include <cstdio>

#include "solvers/duel/passes.h"
#include "solvers/duel/strategy_improvement.h"

namespace sling::duel::detail {

// Certifies a lower bound: from the estimate `v` minus a margin, Gauss-Seidel sweeps of the
// discounted operator until one lowers nothing.  The vector left satisfies v <= T v, and with
// a discount (T a contraction) that makes it a lower bound of T's fixed point, which lies below
// the undiscounted value.  A margin too small to certify within kCertificationSweeps is
// retried larger.
template <Mode M>
bool certify_lower(const SolveContext& context, const double* guide, std::vector<double>& v,
                   typename Ops<M>::T win, typename Ops<M>::T lose, const std::string& name,
                   std::vector<bool>* layer_certified) {
  const LatticeTables& lattice = context.lattice;
  const SolverOptions& options = context.options;
  const std::vector<double> estimate = v;
  double margin = options.lower_margin;
  for (int attempt = 0; attempt < 5; ++attempt) {
    const PassOptions lower{
        name, PassKind::kLower, options.tolerance, options.max_sweeps, context.continuation, false};
    const bool certified =
        run_pass<M>(lattice, guide == nullptr ? v.data() : guide, v.data(), win, lose,
                    context.layers, lower, options, context.summary, [&](int layer) {
                      const std::size_t begin = lattice.index.at(layer, 0, 0);
                      const std::size_t end = lattice.index.at(layer + 1, 0, 0);
                      for (std::size_t i = begin; i < end; ++i)
                        v[i] = std::max(0.0, estimate[i] - margin);
                    });
    if (layer_certified != nullptr) {  // (run_pass reports each layer in order)
      const auto& passes = context.summary.passes;
      const std::size_t n = context.layers.size();
      layer_certified->assign(n, false);
      for (std::size_t k = 0; k < n; ++k)
        (*layer_certified)[k] = passes[passes.size() - n + k].certified;
    }
    if (certified) return true;
    margin = std::max(1e-12, margin * 100);
    if (options.log) options.log(name + " pass not certified; retrying with a larger margin");
  }
  return false;
}

template bool certify_lower<Mode::kOptimal>(const SolveContext&, const double*,
                                            std::vector<double>&, double, double,
                                            const std::string&, std::vector<bool>*);
template bool certify_lower<Mode::kBothFixed>(const SolveContext&, const double*,
                                              std::vector<double>&, Pair, Pair, const std::string&,
                                              std::vector<bool>*);

// 3. Upper bound: value iteration of T from above.  Start above x and sweep; once a whole
//    Gauss-Seidel sweep raises nothing, the vector it leaves is a pre-fixed point (T y <= y:
//    each value was computed from values at least as large as the final ones).  A pre-fixed
//    point bounds the least fixed point, the game's value, from above; and since T y <= y,
//    Goliath's policy greedy on y holds David's best response to at most y.  Further sweeps
//    only lower y and keep T y <= y, so the bound is then tightened.  The layers are
//    certified one by one (a layer reads only the layers before it); a layer whose start is
//    not high enough to certify within kCertificationSweeps is retried with a larger margin.
bool certify_upper(const SolveContext& context, const std::vector<double>& x,
                   const std::vector<float>& last_change, std::vector<double>& y,
                   std::vector<bool>& layer_certified) {
  layer_certified.clear();
  const LatticeTables& lattice = context.lattice;
  const SolverOptions& options = context.options;
  SolveSummary& summary = context.summary;
  y.assign(lattice.index.size(), 1.0);
  PassOptions upper{"upper", PassKind::kUpper, options.tolerance, options.max_sweeps, 1.0, false};
  upper.tightening_sweeps = options.upper_tightening_sweeps;
  upper.flatten_plateaus = options.flatten_plateaus;
  bool certified = true;
  for (int layer : context.layers) {
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
    const std::size_t begin = lattice.index.at(layer, 0, 0),
                      end = lattice.index.at(layer + 1, 0, 0);
    std::vector<double> shaped;
    if (options.shaped_upper_start) {
      PassReport report =
          evaluate_pair(lattice, x, y, layer, 1.0, Pair{1, 1}, Pair{0, 0}, "upper-start");
      shaped.assign(y.begin() + static_cast<std::ptrdiff_t>(begin),
                    y.begin() + static_cast<std::ptrdiff_t>(end));
      summary.sweeps += report.sweeps;
      if (options.log) {
        double above = 0;
        for (std::size_t i = begin; i < end; ++i)
          if (lattice.valid[(i - begin) % lattice.index.pairs()])
            above = std::max(above, shaped[i - begin] - x[i]);
        char line[200];
        std::snprintf(line, sizeof(line),
                      "%-17s %-22s BiCGSTAB: %d products, largest rise above x %.3g  %.1f s",
                      "upper-start", report.layer.c_str(), report.sweeps, above, report.seconds);
        options.log(line);
      }
      summary.passes.push_back(std::move(report));
    }
    bool certified_here = false;
    for (int attempt = 0; attempt < 5 && !certified_here; ++attempt) {
      certified_here = run_pass<Mode::kOptimal>(
          lattice, y.data(), y.data(), 1.0, 0.0, {layer}, upper, options, summary, [&](int) {
            for (std::size_t i = begin; i < end; ++i) {
              double inherited = 0;
              for (int twin : twins) {
                const std::size_t j = i - begin + lattice.index.at(twin, 0, 0);
                inherited = std::max(inherited, y[j] - x[j]);
              }
              const double base =
                  shaped.empty() ? x[i] + inherited : std::max(shaped[i - begin], x[i] + inherited);
              y[i] = std::min(1.0, base + margin + slack * last_change[i]);
            }
          });
      margin *= 10;
      slack *= 10;
      if (!certified_here && options.log)
        options.log("upper pass not certified; retrying the layer with a larger margin");
    }
    certified = certified && certified_here;
    layer_certified.push_back(certified_here);
  }
  return certified;
}

}  // namespace sling::duel::detail
