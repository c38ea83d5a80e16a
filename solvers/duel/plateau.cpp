#include "solvers/duel/plateau.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <array>

#include "solvers/duel/sweep.h"

namespace sling::duel::detail {
namespace {

// A state "rises" when the last sweep raised it by more than floating-point rounding.
constexpr double kRisen = 1e-15;
// A guard: a plateau is flat after about its diameter in lattice steps of rounds.
constexpr int kMaxRounds = 1000;

// The pair p itself and the valid pairs one lattice step away from it (either figure, along an
// axis); returns how many were written.
int neighbour_pairs(const LatticeTables& lattice, std::size_t p, std::array<std::size_t, 9>& out) {
  const std::size_t david_points = static_cast<std::size_t>(lattice.points[kDavid]);
  const int david = static_cast<int>(p % david_points);
  const int goliath = static_cast<int>(p / david_points);
  const int dcols = lattice.cols[kDavid], drows = lattice.rows[kDavid];
  const int gcols = lattice.cols[kGoliath], grows = lattice.rows[kGoliath];
  const int dx = david % dcols, dy = david / dcols, gx = goliath % gcols, gy = goliath / gcols;
  static constexpr std::array<std::array<int, 2>, 4> kSteps = {{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
  int n = 0;
  out[n++] = p;
  auto add = [&](std::size_t q) {
    if (lattice.valid[q]) out[n++] = q;
  };
  for (const auto& [sx, sy] : kSteps) {
    if (dx + sx >= 0 && dx + sx < dcols && dy + sy >= 0 && dy + sy < drows)
      add(lattice.index.pair(dx + sx, dy + sy, gx, gy));
    if (gx + sx >= 0 && gx + sx < gcols && gy + sy >= 0 && gy + sy < grows)
      add(lattice.index.pair(dx, dy, gx + sx, gy + sy));
  }
  return n;
}

}  // namespace

std::size_t flatten_plateaus(const LatticeTables& lattice, double* values, double* transposed,
                             int layer, const std::vector<double>& before, double threshold) {
  const std::size_t npairs = lattice.index.pairs();
  const std::size_t base = lattice.index.at(layer, 0, 0);
  // The rising states of canonical pairs (a mirror image follows its pair), in a fixed order.
  std::vector<std::size_t> rising;
  for (std::uint32_t p : lattice.canonical_pairs) {
    for (int slot = 0; slot < DuelIndex::kSlots; ++slot) {
      const std::size_t j = lattice.index.at(0, slot, p);
      if (values[base + j] - before[j] > kRisen) rising.push_back(j);
    }
  }
  // Each state may rise at most `threshold` above where it started: a plateau's slope is far
  // smaller, and a chain of small steps cannot climb out of one plateau onto another.
  std::vector<double> start(rising.size()), next(rising.size());
  for (std::size_t k = 0; k < rising.size(); ++k) start[k] = values[base + rising[k]];
  std::vector<std::uint8_t> raised(rising.size(), 0);
  for (int round = 0; round < kMaxRounds; ++round) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rising.size(), 1024),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        std::array<std::size_t, 9> around{};
                        for (std::size_t k = range.begin(); k != range.end(); ++k) {
                          const std::size_t p = rising[k] % npairs;
                          const double ceiling = start[k] + threshold;
                          double best = values[base + rising[k]];
                          const int n = neighbour_pairs(lattice, p, around);
                          for (int i = 0; i < n; ++i) {
                            for (int slot = 0; slot < DuelIndex::kSlots; ++slot) {
                              const double v = values[lattice.index.at(layer, slot, around[i])];
                              if (v > best && v <= ceiling) best = v;
                            }
                          }
                          next[k] = best;
                        }
                      });
    // Applied in order after the round (Jacobi), so the result is the same on any thread count.
    std::size_t changed = 0;
    for (std::size_t k = 0; k < rising.size(); ++k) {
      const std::size_t j = rising[k];
      if (next[k] <= values[base + j]) continue;
      const std::size_t p = j % npairs;
      store(lattice, values, transposed, layer, static_cast<int>(j / npairs), p,
            lattice.index.mirror(p), next[k]);
      raised[k] = 1;
      ++changed;
    }
    if (changed == 0) break;
  }
  std::size_t count = 0;
  for (std::uint8_t r : raised) count += r;
  return count;
}

}  // namespace sling::duel::detail
