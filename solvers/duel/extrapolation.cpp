#include "solvers/duel/extrapolation.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

#include "solvers/duel/sweep.h"

namespace sling::duel::detail {

bool RankExtrapolation::coefficients(std::vector<double>& c) const {
  const int m = depth_ + 1;
  const auto& pairs = lattice_.canonical_pairs;
  const std::size_t npairs = lattice_.index.pairs();
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

// Moves David's values of the layer (slots 0-3) up by `factor` times the extrapolation's step
// where it is positive (clamped to 1).  Goliath's values are not extrapolated: they are a function
// of David's (a Goliath turn leads to David declaring) and the next sweep recomputes them.
void extrapolate(const LatticeTables& lattice, double* values, double* transposed,
                 const RankExtrapolation& rre, const std::vector<double>& c, int layer,
                 double factor) {
  const auto& pairs = lattice.canonical_pairs;
  const std::size_t npairs = lattice.index.pairs();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pairs.size(), 256),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      for (std::size_t k = range.begin(); k != range.end(); ++k) {
                        const std::size_t p = pairs[k];
                        const std::size_t mirror = lattice.index.mirror(p);
                        for (int slot = 0; slot < 4; ++slot) {
                          const std::size_t j = static_cast<std::size_t>(slot) * npairs + p;
                          double step = 0;
                          for (int q = 0; q < rre.size(); ++q)
                            step += c[static_cast<std::size_t>(q)] * rre.change(q, j);
                          const double v = values[lattice.index.at(layer, slot, p)];
                          store(lattice, values, transposed, layer, slot, p, mirror,
                                std::min(1.0, v + factor * std::max(0.0, step)));
                        }
                      }
                    });
}

}  // namespace sling::duel::detail
