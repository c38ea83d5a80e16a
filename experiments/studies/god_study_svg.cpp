#include "experiments/studies/god_study_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>
#include <vector>

namespace sling::duel::god_study {

std::string colour(double v) {
  // 0 (Goliath wins) dark red, 0.5 pale yellow, 1 (David wins) dark green.
  v = std::clamp(v, 0.0, 1.0);
  int r, g, b;
  if (v < 0.5) {
    const double t = v / 0.5;
    r = static_cast<int>(165 + t * (255 - 165));
    g = static_cast<int>(0 + t * 255);
    b = static_cast<int>(38 + t * (191 - 38));
  } else {
    const double t = (v - 0.5) / 0.5;
    r = static_cast<int>(255 - t * (255 - 0));
    g = static_cast<int>(255 - t * (255 - 104));
    b = static_cast<int>(191 - t * (191 - 55));
  }
  char text[16];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", r, g, b);
  return text;
}

namespace {

// One David position of a heat map: its centre in cm and David's exact value there.
struct HeatCell {
  double x, y, value;
};

// David's value at every lattice point where his base clears Goliath's, David to act with the
// given flags; lo and hi get the range (0 and 0 when there is none).
std::vector<HeatCell> heat_cells(const DuelSolution& solution, DuelState s, std::uint8_t flags,
                                 double& lo, double& hi) {
  const DuelGame& game = solution.game();
  std::vector<HeatCell> cells;
  lo = 1;
  hi = 0;
  s.phase = Phase::kDeclare;
  s.actor = kDavid;
  s.roll = Roll::kNone;
  s.flags = flags;
  for (int y = 0; y < game.lattice_height(kDavid); ++y) {
    for (int x = 0; x < game.lattice_width(kDavid); ++x) {
      s.david_x = static_cast<std::uint8_t>(x);
      s.david_y = static_cast<std::uint8_t>(y);
      if (game.centre_distance2(s) <
          static_cast<std::int64_t>(game.rules().david_base_mm + game.rules().goliath_base_mm) *
              (game.rules().david_base_mm + game.rules().goliath_base_mm)) {
        continue;
      }
      const auto i = solution.index().index_of(s);
      if (!i) continue;
      const double v = solution.values()[*i];
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      cells.push_back({game.centre_x(kDavid, x) / 20.0, game.centre_y(kDavid, y) / 20.0, v});
    }
  }
  if (cells.empty()) lo = hi = 0;
  return cells;
}

// The colour bar under a heat map, its top-left corner at (x0, y0): the scale's range in 20
// steps, with its ends and middle labelled.
void write_colour_bar(std::ostream& svg, int x0, int y0, double bar_width, int bar_height,
                      double scale_lo, double scale_hi) {
  constexpr int kSteps = 20;
  for (int k = 0; k < kSteps; ++k) {
    svg << "<rect x=\"" << x0 + k * bar_width / kSteps << "\" y=\"" << y0 << "\" width=\""
        << bar_width / kSteps + 0.5 << "\" height=\"" << bar_height << "\" fill=\""
        << colour((k + 0.5) / kSteps) << "\"/>\n";
  }
  svg << "<rect x=\"" << x0 << "\" y=\"" << y0 << "\" width=\"" << bar_width << "\" height=\""
      << bar_height << "\" fill=\"none\" stroke=\"#555\"/>\n";
  const std::pair<double, const char*> ticks[] = {{0.0, "start"}, {0.5, "middle"}, {1.0, "end"}};
  for (const auto& [t, anchor] : ticks) {
    const double x = x0 + t * bar_width;
    svg << "<line x1=\"" << x << "\" y1=\"" << y0 + bar_height << "\" x2=\"" << x << "\" y2=\""
        << y0 + bar_height + 4 << "\" stroke=\"#555\"/>\n";
    char label[32];
    std::snprintf(label, sizeof label, "%.1f%%", 100 * (scale_lo + t * (scale_hi - scale_lo)));
    svg << "<text x=\"" << x << "\" y=\"" << y0 + bar_height + 16 << "\" text-anchor=\"" << anchor
        << "\">" << label << "</text>\n";
  }
}

}  // namespace

std::string heat_map_svg(const DuelSolution& solution, const DuelState& goliath_at,
                         std::uint8_t flags, const std::string& title, double* min_out,
                         double* max_out) {
  const DuelGame& game = solution.game();
  const int scale = 16;  // pixels per cm
  const int board = game.rules().board_cm;
  const int margin = 40;
  const int bar_height = 14, legend_height = 60;
  const double pitch = game.rules().pitch_cm;
  double lo = 1, hi = 0;
  const std::vector<HeatCell> cells = heat_cells(solution, goliath_at, flags, lo, hi);
  // The scale: the data's range, widened to at least 0.01 so that noise is not painted as news.
  double scale_lo = lo, scale_hi = hi;
  if (scale_hi - scale_lo < 0.01) {
    const double mid = 0.5 * (lo + hi);
    scale_lo = std::max(0.0, mid - 0.005);
    scale_hi = scale_lo + 0.01;
  }
  auto shade = [&](double v) { return colour((v - scale_lo) / (scale_hi - scale_lo)); };

  std::ostringstream svg;
  const char* const caption = "David's win probability on this map (north is up)";
  constexpr double kGlyph = 0.6 * 12;  // estimated width of a 12-unit glyph
  const double width = std::max(
      {static_cast<double>(board * scale + 2 * margin),
       2 * margin + kGlyph * static_cast<double>(title.size()),
       2 * margin + kGlyph * static_cast<double>(std::char_traits<char>::length(caption))});
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\""
      << board * scale + 2 * margin + legend_height
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"" << margin << "\" y=\"20\">" << title << "</text>\n";
  svg << "<rect x=\"" << margin << "\" y=\"" << margin << "\" width=\"" << board * scale
      << "\" height=\"" << board * scale << "\" fill=\"#dddddd\" stroke=\"black\"/>\n";
  for (const HeatCell& c : cells) {
    svg << "<rect x=\"" << margin + (c.x - pitch / 2) * scale << "\" y=\""
        << margin + (board - c.y - pitch / 2) * scale << "\" width=\"" << pitch * scale
        << "\" height=\"" << pitch * scale << "\" fill=\"" << shade(c.value) << "\"><title>"
        << c.value << "</title></rect>\n";
  }
  const double gx = game.centre_x(kGoliath, goliath_at.goliath_x) / 20.0,
               gy = game.centre_y(kGoliath, goliath_at.goliath_y) / 20.0;
  svg << "<circle cx=\"" << margin + gx * scale << "\" cy=\"" << margin + (board - gy) * scale
      << "\" r=\"" << game.rules().goliath_base_mm / 20.0 * scale
      << "\" fill=\"none\" stroke=\"black\" stroke-width=\"2\"/>\n";
  svg << "<text x=\"" << margin + gx * scale << "\" y=\"" << margin + (board - gy) * scale + 4
      << "\" text-anchor=\"middle\">G</text>\n";
  const int ly = margin + board * scale + 10;
  write_colour_bar(svg, margin, ly, board * scale, bar_height, scale_lo, scale_hi);
  svg << "<text x=\"" << margin << "\" y=\"" << ly + bar_height + 34 << "\">" << caption
      << "</text>\n";
  svg << "</svg>\n";
  *min_out = lo;
  *max_out = hi;
  return svg.str();
}

std::string bar_chart_svg(const std::vector<std::pair<std::string, double>>& bars,
                          const std::string& title) {
  constexpr double kFont = 11, kGlyph = 0.6 * kFont, kRow = 22, kBarLength = 320, kMargin = 20;
  std::size_t longest = 0;
  for (const auto& b : bars) longest = std::max(longest, b.first.size());
  const double label_width = kGlyph * static_cast<double>(longest) + 10;
  double top = 0;
  for (const auto& b : bars) top = std::max(top, b.second);
  if (top <= 0) top = 1;
  const double width = std::max(kMargin * 2 + label_width + kBarLength + 60,
                                kMargin * 2 + kGlyph * static_cast<double>(title.size()));
  const double height = 40 + kRow * static_cast<double>(bars.size()) + kMargin;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"" << kFont << "\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"" << kMargin << "\" y=\"20\">" << title << "</text>\n";
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const double y = 36 + kRow * static_cast<double>(i);
    const double length = bars[i].second / top * kBarLength;
    svg << "<text x=\"" << kMargin + label_width - 6 << "\" y=\"" << y + 12
        << "\" text-anchor=\"end\">" << bars[i].first << "</text>\n";
    svg << "<rect x=\"" << kMargin + label_width << "\" y=\"" << y << "\" width=\"" << length
        << "\" height=\"" << kRow - 6 << "\" fill=\"#4477aa\"/>\n";
    char value[32];
    std::snprintf(value, sizeof value, "%.1f%%", 100 * bars[i].second);
    svg << "<text x=\"" << kMargin + label_width + length + 4 << "\" y=\"" << y + 12 << "\">"
        << value << "</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

const char* series_colour(std::size_t k) {
  static const char* const kColours[] = {"#332288", "#88ccee", "#44aa99", "#117733",
                                         "#999933", "#ddcc77", "#cc6677", "#882255",
                                         "#aa4499", "#555555", "#ee7733", "#000000"};
  return kColours[k % 12];
}

namespace {

// A gridline step of 1, 2 or 5 in a power of ten that cuts `range` into about five (at least
// `smallest`).
double nice_step(double range, double smallest) {
  const double raw = std::max(smallest, range / 5);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * magnitude >= 0.999 * raw) return m * magnitude;
  }
  return 10 * magnitude;
}

}  // namespace

std::string line_chart_svg(const std::vector<ChartSeries>& series, const std::string& title,
                           const std::string& x_label, const std::string& y_label, XScale x_scale) {
  constexpr double kFont = 11, kGlyph = 0.6 * kFont, kLeft = 60, kTop = 48, kPlotWidth = 520,
                   kPlotHeight = 260, kRight = 30, kRow = 18;
  double x_lo = 1e300, x_hi = -1e300, y_lo = 1e300, y_hi = -1e300;
  for (const ChartSeries& line : series) {
    for (const auto& [x, y] : line.points) {
      x_lo = std::min(x_lo, x);
      x_hi = std::max(x_hi, x);
      y_lo = std::min(y_lo, y);
      y_hi = std::max(y_hi, y);
    }
  }
  if (x_lo > x_hi) x_lo = x_hi = 1;
  if (y_lo > y_hi) y_lo = y_hi = 0;
  // x: whole doublings around the data, or whole steps of 1, 2 or 5 in a power of ten; y: such
  // steps, about five gridlines, widened to whole steps.
  const bool doubling = x_scale == XScale::kDoubling;
  const double x_step = doubling ? 1 : nice_step(x_hi - x_lo, 1e-9);
  const double lx_lo =
      doubling ? std::floor(std::log2(std::max(1.0, x_lo))) : std::floor(x_lo / x_step) * x_step;
  const double lx_hi = doubling ? std::max(lx_lo + 1, std::ceil(std::log2(std::max(1.0, x_hi))))
                                : std::max(lx_lo + x_step, std::ceil(x_hi / x_step) * x_step);
  const double step = nice_step(y_hi - y_lo, 1e-4);
  const double g_lo = std::floor(y_lo / step) * step;
  double g_hi = std::ceil(y_hi / step) * step;
  if (g_hi <= g_lo) g_hi = g_lo + step;
  auto px = [&](double x) {
    const double at = doubling ? std::log2(std::max(1.0, x)) : x;
    return kLeft + (at - lx_lo) / (lx_hi - lx_lo) * kPlotWidth;
  };
  auto py = [&](double y) { return kTop + (g_hi - y) / (g_hi - g_lo) * kPlotHeight; };
  std::size_t longest = title.size();
  for (const ChartSeries& line : series) longest = std::max(longest, line.name.size() + 6);
  const double width =
      std::max(kLeft + kPlotWidth + kRight, 2 * 20 + kGlyph * static_cast<double>(longest));
  const double legend_top = kTop + kPlotHeight + 50;
  const double height = legend_top + kRow * static_cast<double>(series.size()) + 10;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"" << kFont << "\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"20\" y=\"18\" font-size=\"13\">" << title << "</text>\n";
  svg << "<text x=\"20\" y=\"36\">" << y_label << "</text>\n";
  const int steps = static_cast<int>(std::lround((g_hi - g_lo) / step));
  const int digits = step >= 0.01 ? 0 : step >= 0.001 ? 1 : 2;
  for (int k = 0; k <= steps; ++k) {
    const double y = g_lo + k * step;
    svg << "<line x1=\"" << kLeft << "\" y1=\"" << py(y) << "\" x2=\"" << kLeft + kPlotWidth
        << "\" y2=\"" << py(y) << "\" stroke=\"#dddddd\"/>\n";
    char label[32];
    std::snprintf(label, sizeof label, "%.*f%%", digits, 100 * y);
    svg << "<text x=\"" << kLeft - 6 << "\" y=\"" << py(y) + 4 << "\" text-anchor=\"end\">" << label
        << "</text>\n";
  }
  const int x_ticks = static_cast<int>(std::lround((lx_hi - lx_lo) / x_step));
  for (int k = 0; k <= x_ticks; ++k) {
    const double at = lx_lo + k * x_step;
    const double x = kLeft + (at - lx_lo) / (lx_hi - lx_lo) * kPlotWidth;
    svg << "<line x1=\"" << x << "\" y1=\"" << kTop << "\" x2=\"" << x << "\" y2=\""
        << kTop + kPlotHeight << "\" stroke=\"#eeeeee\"/>\n";
    char label[32];
    if (doubling) {
      std::snprintf(label, sizeof label, "%ld", 1L << static_cast<int>(std::lround(at)));
    } else {
      std::snprintf(label, sizeof label, "%g", at);
    }
    svg << "<text x=\"" << x << "\" y=\"" << kTop + kPlotHeight + 16 << "\" text-anchor=\"middle\">"
        << label << "</text>\n";
  }
  svg << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << kPlotWidth << "\" height=\""
      << kPlotHeight << "\" fill=\"none\" stroke=\"#555555\"/>\n";
  svg << "<text x=\"" << kLeft + kPlotWidth / 2 << "\" y=\"" << kTop + kPlotHeight + 34
      << "\" text-anchor=\"middle\">" << x_label << "</text>\n";
  for (std::size_t k = 0; k < series.size(); ++k) {
    const ChartSeries& line = series[k];
    const char* dash = line.dashed ? "\" stroke-dasharray=\"6 4" : "";
    if (line.points.size() > 1) {
      svg << "<polyline fill=\"none\" stroke=\"" << line.colour << "\" stroke-width=\"2" << dash
          << "\" points=\"";
      for (const auto& [x, y] : line.points) svg << px(x) << "," << py(y) << " ";
      svg << "\"/>\n";
    }
    for (const auto& [x, y] : line.points) {
      svg << "<circle cx=\"" << px(x) << "\" cy=\"" << py(y) << "\" r=\"2.5\" fill=\""
          << line.colour << "\"/>\n";
    }
    const double ly = legend_top + kRow * static_cast<double>(k);
    svg << "<line x1=\"20\" y1=\"" << ly - 4 << "\" x2=\"46\" y2=\"" << ly - 4 << "\" stroke=\""
        << line.colour << "\" stroke-width=\"2" << dash << "\"/>\n";
    svg << "<text x=\"54\" y=\"" << ly << "\">" << line.name << "</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace sling::duel::god_study
