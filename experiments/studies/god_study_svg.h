#pragma once
// The God study's figures: SVG heat maps of the solved values and bar charts.  Only drawing lives
// here; the numbers come from god_study.cpp.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "solvers/duel/solver.h"

namespace sling::duel::god_study {

// A colour for a win probability: 0 (Goliath wins) dark red, 0.5 pale yellow, 1 dark green.
std::string colour(double v);

// David's win probability, David to declare, for every David position with Goliath fixed.  The
// colours span the values on this map (they differ by a few points across the board, so a fixed
// 0-1 scale would paint one flat colour), with a labelled colour bar under the board.
std::string heat_map_svg(const DuelSolution& solution, const DuelState& goliath_at,
                         std::uint8_t flags, const std::string& title, double* min_out,
                         double* max_out);

// Horizontal bars, one per row with its whole label on the left, so long labels never collide.
std::string bar_chart_svg(const std::vector<std::pair<std::string, double>>& bars,
                          const std::string& title);

// A line of a chart: its name in the legend, its colour and its points (x, y).
struct ChartSeries {
  std::string name;
  std::string colour;
  std::vector<std::pair<double, double>> points;
  bool dashed = false;
};

// How a chart spaces x: in doublings (turn caps, turns left: 1, 2, 4, ...) or evenly (a rule's
// values), with a gridline at every whole step of 1, 2 or 5 in a power of ten.
enum class XScale { kDoubling, kLinear };

// Lines over x and y on a linear scale fitted to the data, y shown in percent; the legend under
// the plot, one row per line.
std::string line_chart_svg(const std::vector<ChartSeries>& series, const std::string& title,
                           const std::string& x_label, const std::string& y_label,
                           XScale x_scale = XScale::kDoubling);

// Distinct colours for up to twelve lines (Paul Tol's muted scheme, readable by colour-blind
// eyes, with orange and black).
const char* series_colour(std::size_t k);

}  // namespace sling::duel::god_study
