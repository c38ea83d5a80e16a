#include "engine/danelaw/render.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "engine/danelaw/danelaw.h"

namespace sling::danelaw {

namespace {

char terrain_glyph(Terrain t) {
  switch (t) {
    case Terrain::kSea:
      return '~';
    case Terrain::kPlain:
      return '.';
    case Terrain::kHills:
      return '^';
    case Terrain::kWetland:
      return '%';
    case Terrain::kForest:
      return '&';
  }
  return '?';
}

const char* terrain_colour(Terrain t) {
  switch (t) {
    case Terrain::kSea:
      return "#9cc3e6";
    case Terrain::kPlain:
      return "#efe6b8";
    case Terrain::kHills:
      return "#b89470";
    case Terrain::kWetland:
      return "#8fc4b0";
    case Terrain::kForest:
      return "#5f9a5a";
  }
  return "#ffffff";
}

// Text extents are estimated, not measured: a sans-serif glyph is at most about 0.6 em wide on
// average over a word, and a line is about 1.2 em tall.  Placement uses these boxes, so labels
// that do not overlap here do not overlap when drawn (tests/svg_check.h uses the same estimate).
constexpr double kGlyphWidthEm = 0.6;

struct Box {
  double x0, y0, x1, y1;
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

// The box of a text whose anchor point is (x, y): middle-anchored, baseline at y.
Box text_box(double x, double y, double font_size, std::size_t characters) {
  const double half = 0.5 * kGlyphWidthEm * font_size * static_cast<double>(characters);
  return {x - half, y - 0.9 * font_size, x + half, y + 0.3 * font_size};
}

// Town names, placed greedily one after the other at the first candidate position (below, above,
// right, left, then the diagonals, then farther out with a leader line) whose box overlaps no name
// placed before, no town marker and no army.  Each result is the text's anchor and whether a
// leader line joins it to its town.
struct PlacedLabel {
  double x, y;
  bool leader;
};

std::vector<PlacedLabel> place_town_labels(const std::vector<std::pair<double, double>>& towns,
                                           const std::vector<std::string>& names,
                                           const std::vector<double>& marker_radius,
                                           std::vector<Box> taken, double font_size, double width,
                                           double height) {
  for (std::size_t t = 0; t < towns.size(); ++t) {
    const auto [x, y] = towns[t];
    const double r = marker_radius[t];
    taken.push_back({x - r, y - r, x + r, y + r});
  }
  std::vector<PlacedLabel> placed(towns.size());
  for (std::size_t t = 0; t < towns.size(); ++t) {
    const auto [x, y] = towns[t];
    const double r = marker_radius[t];
    const double half = 0.5 * kGlyphWidthEm * font_size * static_cast<double>(names[t].size());
    const double gap = 2.0;
    // (dx, dy) of the anchor for each candidate, nearest first.
    std::vector<std::pair<double, double>> candidates;
    for (double reach : {1.0, 2.2, 3.4}) {
      const double down = r + gap + 0.9 * font_size + (reach - 1) * font_size * 1.2;
      const double up = -(r + gap + 0.3 * font_size + (reach - 1) * font_size * 1.2);
      const double side = r + gap + half + (reach - 1) * font_size;
      const double mid = 0.3 * font_size;
      candidates.insert(candidates.end(), {{0, down},
                                           {0, up},
                                           {side, mid},
                                           {-side, mid},
                                           {side, down},
                                           {-side, down},
                                           {side, up},
                                           {-side, up}});
    }
    bool found = false;
    Box best_box{};
    for (std::size_t c = 0; c < candidates.size() && !found; ++c) {
      const double ax = x + candidates[c].first, ay = y + candidates[c].second;
      const Box box = text_box(ax, ay, font_size, names[t].size());
      if (box.x0 < 0 || box.y0 < 0 || box.x1 > width || box.y1 > height) continue;
      if (std::any_of(taken.begin(), taken.end(), [&](const Box& b) { return b.overlaps(box); }))
        continue;
      placed[t] = {ax, ay, c >= 8};
      best_box = box;
      found = true;
    }
    if (!found) {  // nowhere free: below, as before
      placed[t] = {x, y + r + gap + 0.9 * font_size, false};
      best_box = text_box(placed[t].x, placed[t].y, font_size, names[t].size());
    }
    taken.push_back(best_box);
  }
  return placed;
}

// Legend entries laid out left to right, wrapping onto a new row when the next would not fit.
struct LegendItem {
  const char* swatch;  // fill colour, or nullptr for a river line
  std::string text;
};

}  // namespace

std::string text_map(const DanelawGame& game, const State* state) {
  const HexMap& map = game.map();
  int row_min = 99, row_max = 0, col_min = 99, col_max = 0;
  for (const HexInfo& h : map.hexes()) {
    row_min = std::min(row_min, h.r);
    row_max = std::max(row_max, h.r);
    col_min = std::min(col_min, HexMap::column_of(h.q, h.r));
    col_max = std::max(col_max, HexMap::column_of(h.q, h.r));
  }
  std::ostringstream out;
  out << "    ";
  for (int c = col_min; c <= col_max; ++c) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "%02d ", c);
    out << buffer;
  }
  out << '\n';
  for (int r = row_min; r <= row_max; ++r) {
    std::string line;
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "%02d  ", r);
    line += buffer;
    if (r & 1) line += ' ';  // odd rows sit half a hex to the right
    for (int c = col_min; c <= col_max; ++c) {
      const int hex = map.find(c - (r - (r & 1)) / 2, r);
      if (hex < 0) {
        line += "   ";
        continue;
      }
      const HexInfo& h = map.hex(hex);
      char first = terrain_glyph(h.terrain);
      char second = first;
      if (h.is_sea()) second = static_cast<char>('0' + h.sector);
      if (h.town >= 0) {
        second = (state && game.town_held_by_danes(*state, h.town)) ? '*' : '@';
      }
      if (state) {
        const int a = game.army_at(*state, hex);
        if (a >= 0) {
          const Army& army = state->armies[a];
          first = army.side == kDanes ? 'D' : ((army.flags & kMilitia) ? 'M' : 'E');
        }
      }
      line += first;
      line += second;
      line += ' ';
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  }
  out << "Towns (@ English, * Danish):";
  int column = 0;
  for (const Town& t : map.towns()) {
    const bool danish =
        state && game.town_held_by_danes(*state, static_cast<int>(&t - &map.towns()[0]));
    const std::string entry = " " + t.name + " " + map.label(t.hex) + (danish ? "*" : "@");
    if (column + static_cast<int>(entry.size()) > 96) {
      out << "\n ";
      column = 0;
    }
    out << entry;
    column += static_cast<int>(entry.size());
  }
  out << '\n';
  return out.str();
}

namespace {

// The SVG picture's geometry: where each hex lies, the picture's size, and the legend's rows
// below the map.
struct SvgLayout {
  static constexpr double kSize = 18.0;  // centre to corner, in SVG units
  static constexpr double kLegendFont = 10, kLegendRow = 18;
  const double sqrt3 = std::sqrt(3.0);
  double margin = 40.0;
  double dx = 0, dy = 0;  // added to a hex centre to place it in the picture
  double width = 0, height = 0;
  double legend_height = 0;
  std::vector<std::pair<double, double>> legend_positions;  // each legend item's anchor

  // A hex's centre before the shift (dx, dy).
  std::pair<double, double> centre(const HexInfo& h) const {
    return {kSize * sqrt3 * (h.q + h.r / 2.0), kSize * 1.5 * h.r};
  }
  // Corner i of a hex, in the picture (corner i and i + 1 bound the hexside in direction i).
  std::pair<double, double> corner(const HexInfo& h, int i) const {
    const auto [cx, cy] = centre(h);
    const double a = (60.0 * i - 30.0) * M_PI / 180.0;
    return {cx + dx + kSize * std::cos(a), cy + dy - kSize * std::sin(a)};
  }
};

std::vector<LegendItem> svg_legend_items() {
  return {{terrain_colour(Terrain::kSea), "sea (numbers: sea sectors)"},
          {terrain_colour(Terrain::kPlain), "plain"},
          {terrain_colour(Terrain::kHills), "hills"},
          {terrain_colour(Terrain::kWetland), "wetland"},
          {terrain_colour(Terrain::kForest), "forest"},
          {nullptr, "river: +1 to cross, -1 to attack across"},
          {"#ffffff", "town held by the English"},
          {"#c0392b", "town held by the Danes"},
          {"#b03020", "D Danish army"},
          {"#2a4f9a", "E English field army"},
          {"#8a9bb5", "M militia"}};
}

// The picture fits the map with a margin; the legend's rows wrap at the picture's width, and the
// picture grows to hold them.
SvgLayout layout_svg(const HexMap& map, const std::vector<LegendItem>& legend_items) {
  SvgLayout layout;
  double x_min = 1e9, y_min = 1e9, x_max = -1e9, y_max = -1e9;
  for (const HexInfo& h : map.hexes()) {
    const auto [x, y] = layout.centre(h);
    x_min = std::min(x_min, x);
    x_max = std::max(x_max, x);
    y_min = std::min(y_min, y);
    y_max = std::max(y_max, y);
  }
  const double margin = layout.margin;
  layout.dx = margin - x_min;
  layout.dy = margin - y_min;
  layout.width = x_max - x_min + 2 * margin;
  double legend_x = margin, legend_row = 0;
  for (const LegendItem& item : legend_items) {
    const double item_width = 18 + kGlyphWidthEm * SvgLayout::kLegendFont * item.text.size() + 16;
    if (legend_x > margin && legend_x + item_width > layout.width - margin / 2) {
      legend_x = margin;
      legend_row += 1;
    }
    layout.legend_positions.emplace_back(legend_x, legend_row * SvgLayout::kLegendRow);
    legend_x += item_width;
  }
  layout.legend_height = (legend_row + 1) * SvgLayout::kLegendRow + 16;
  layout.height = y_max - y_min + 2 * margin + layout.legend_height;
  for (auto& position : layout.legend_positions)
    position.second += layout.height - layout.legend_height + 14;
  return layout;
}

// The hexes, coloured by terrain, then their labels, small, for typing moves.
void write_svg_hexes(std::ostream& out, const HexMap& map, const SvgLayout& layout) {
  out << "<g stroke=\"#7a7a7a\" stroke-width=\"0.6\">\n";
  for (const HexInfo& h : map.hexes()) {
    out << "<polygon fill=\"" << terrain_colour(h.terrain) << "\" points=\"";
    for (int i = 0; i < 6; ++i) {
      const auto [x, y] = layout.corner(h, i);
      out << x << ',' << y << (i < 5 ? " " : "");
    }
    out << "\"/>\n";
  }
  out << "</g>\n";
  out << "<g font-size=\"5\" fill=\"#555\" text-anchor=\"middle\">\n";
  for (int i = 0; i < map.size(); ++i) {
    const auto [x, y] = layout.centre(map.hex(i));
    out << "<text x=\"" << x + layout.dx << "\" y=\"" << y + layout.dy - SvgLayout::kSize * 0.55
        << "\">" << map.label(i) << "</text>\n";
  }
  out << "</g>\n";
}

// The hex of a sea sector nearest the sector's centroid (-1 when the sector has no hex).
int sector_middle_hex(const HexMap& map, const SvgLayout& layout, int sector) {
  double sx = 0, sy = 0;
  int n = 0;
  int best = -1;
  for (int i = 0; i < map.size(); ++i) {
    if (map.hex(i).sector != sector) continue;
    const auto [x, y] = layout.centre(map.hex(i));
    sx += x;
    sy += y;
    ++n;
  }
  if (n == 0) return -1;
  sx /= n;
  sy /= n;
  double best_d = 1e18;
  for (int i = 0; i < map.size(); ++i) {
    if (map.hex(i).sector != sector) continue;
    const auto [x, y] = layout.centre(map.hex(i));
    const double d = (x - sx) * (x - sx) + (y - sy) * (y - sy);
    if (d < best_d) {
      best_d = d;
      best = i;
    }
  }
  return best;
}

// Sea sector numbers: one large number at the middle of each sector, small ones per hex. Returns
// the large numbers' boxes, which town names keep clear of.
std::vector<Box> write_svg_sea_sectors(std::ostream& out, const HexMap& map,
                                       const SvgLayout& layout) {
  const double dx = layout.dx, dy = layout.dy;
  std::vector<Box> sector_labels;
  for (int sector = 1; sector <= kSeaSectors; ++sector) {
    const int best = sector_middle_hex(map, layout, sector);
    if (best < 0) continue;
    const auto [x, y] = layout.centre(map.hex(best));
    sector_labels.push_back(text_box(x + dx, y + dy + 9, 28, std::to_string(sector).size()));
    out << "<text x=\"" << x + dx << "\" y=\"" << y + dy + 9 << "\" font-size=\"28\" "
        << "font-weight=\"bold\" fill=\"#2d5f8f\" text-anchor=\"middle\">" << sector << "</text>\n";
  }
  out << "<g font-size=\"7\" fill=\"#4d7faf\" text-anchor=\"middle\">\n";
  for (int i = 0; i < map.size(); ++i) {
    if (!map.hex(i).is_sea()) continue;
    const auto [x, y] = layout.centre(map.hex(i));
    out << "<text x=\"" << x + dx << "\" y=\"" << y + dy + SvgLayout::kSize * 0.75 << "\">"
        << map.hex(i).sector << "</text>\n";
  }
  out << "</g>\n";
  return sector_labels;
}

// Rivers on hexsides, each named in its title.
void write_svg_rivers(std::ostream& out, const HexMap& map, const SvgLayout& layout) {
  out << "<g stroke=\"#1f5fbf\" stroke-width=\"3\" stroke-linecap=\"round\">\n";
  for (const River& river : map.rivers()) {
    for (const auto& side : river.sides) {
      const int d = map.direction_to(side[0], side[1]);
      const auto [x1, y1] = layout.corner(map.hex(side[0]), d);
      const auto [x2, y2] = layout.corner(map.hex(side[0]), d + 1);
      out << "<line x1=\"" << x1 << "\" y1=\"" << y1 << "\" x2=\"" << x2 << "\" y2=\"" << y2
          << "\"><title>" << river.name << "</title></line>\n";
    }
  }
  out << "</g>\n";
}

// Towns: a ring coloured by control, and the name where it collides with nothing else (no other
// name, town, army or large sector number).
void write_svg_towns(std::ostream& out, const DanelawGame& game, const State* state,
                     const SvgLayout& layout, const std::vector<Box>& sector_labels) {
  const HexMap& map = game.map();
  const double dx = layout.dx, dy = layout.dy;
  std::vector<std::pair<double, double>> town_points;
  std::vector<std::string> town_names;
  std::vector<double> town_radius;
  for (std::size_t t = 0; t < map.towns().size(); ++t) {
    const Town& town = map.towns()[t];
    const auto [x, y] = layout.centre(map.hex(town.hex));
    // With an army on the town the ring is drawn wider, so that control shows around the marker.
    const bool occupied = state && game.army_at(*state, town.hex) >= 0;
    town_points.emplace_back(x + dx, y + dy);
    town_names.push_back(town.name);
    town_radius.push_back(occupied ? 10 : 5);
  }
  std::vector<Box> armies = sector_labels;  // obstacles for the town names
  for (int i = 0; state != nullptr && i < state->army_count; ++i) {
    const auto [x, y] = layout.centre(map.hex(state->armies[i].hex));
    armies.push_back({x + dx - 6, y + dy - 6, x + dx + 6, y + dy + 6});
  }
  constexpr double kTownFont = 8;
  const std::vector<PlacedLabel> labels =
      place_town_labels(town_points, town_names, town_radius, armies, kTownFont, layout.width,
                        layout.height - layout.legend_height);
  for (std::size_t t = 0; t < map.towns().size(); ++t) {
    const auto [x, y] = town_points[t];
    const bool danish = state && game.town_held_by_danes(*state, static_cast<int>(t));
    out << "<circle cx=\"" << x << "\" cy=\"" << y << "\" r=\"" << town_radius[t] << "\" fill=\""
        << (danish ? "#c0392b" : "#ffffff") << "\" stroke=\"#222\" stroke-width=\"1.5\"/>\n";
    if (labels[t].leader) {
      out << "<line x1=\"" << x << "\" y1=\"" << y << "\" x2=\"" << labels[t].x << "\" y2=\""
          << labels[t].y - 0.3 * kTownFont << "\" stroke=\"#222\" stroke-width=\"0.6\"/>\n";
    }
    out << "<text class=\"town\" x=\"" << labels[t].x << "\" y=\"" << labels[t].y
        << "\" font-size=\"" << kTownFont << "\" "
        << "text-anchor=\"middle\" fill=\"#111\" stroke=\"white\" stroke-width=\"2\" "
        << "paint-order=\"stroke\">" << town_names[t] << "</text>\n";
  }
}

// The armies: a square coloured by side and kind, with its letter.
void write_svg_armies(std::ostream& out, const HexMap& map, const State& state,
                      const SvgLayout& layout) {
  const double dx = layout.dx, dy = layout.dy;
  for (int i = 0; i < state.army_count; ++i) {
    const Army& a = state.armies[i];
    const auto [x, y] = layout.centre(map.hex(a.hex));
    const bool dane = a.side == kDanes;
    const char* fill = dane ? "#b03020" : ((a.flags & kMilitia) ? "#8a9bb5" : "#2a4f9a");
    const char* letter = dane ? "D" : ((a.flags & kMilitia) ? "M" : "E");
    out << "<rect x=\"" << x + dx - 6 << "\" y=\"" << y + dy - 6
        << "\" width=\"12\" height=\"12\" rx=\"2\" fill=\"" << fill
        << "\" stroke=\"#111\" stroke-width=\"1\"/>\n";
    out << "<text x=\"" << x + dx << "\" y=\"" << y + dy + 3.5 << "\" font-size=\"9\" "
        << "font-weight=\"bold\" fill=\"white\" text-anchor=\"middle\">" << letter << "</text>\n";
  }
}

// The legend, wrapped to the picture's width.
void write_svg_legend(std::ostream& out, const std::vector<LegendItem>& legend_items,
                      const SvgLayout& layout) {
  out << "<g class=\"legend\" font-size=\"" << SvgLayout::kLegendFont << "\">\n";
  for (std::size_t i = 0; i < legend_items.size(); ++i) {
    const auto [lx, ly] = layout.legend_positions[i];
    const LegendItem& item = legend_items[i];
    if (item.swatch != nullptr) {
      out << "<rect x=\"" << lx << "\" y=\"" << ly - 11 << "\" width=\"14\" height=\"14\" fill=\""
          << item.swatch << "\" stroke=\"#555\"/>\n";
    } else {
      out << "<line x1=\"" << lx << "\" y1=\"" << ly - 4 << "\" x2=\"" << lx + 14 << "\" y2=\""
          << ly - 4 << "\" stroke=\"#1f5fbf\" stroke-width=\"3\"/>\n";
    }
    out << "<text x=\"" << lx + 18 << "\" y=\"" << ly << "\">" << item.text << "</text>\n";
  }
  out << "</g>\n";
}

}  // namespace

std::string svg_map(const DanelawGame& game, const State* state) {
  const HexMap& map = game.map();
  const std::vector<LegendItem> legend_items = svg_legend_items();
  const SvgLayout layout = layout_svg(map, legend_items);
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(1);
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << layout.width << "\" height=\""
      << layout.height << "\" viewBox=\"0 0 " << layout.width << ' ' << layout.height
      << "\" font-family=\"sans-serif\">\n";
  out << "<title>" << map.name()
      << "</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  write_svg_hexes(out, map, layout);
  const std::vector<Box> sector_labels = write_svg_sea_sectors(out, map, layout);
  write_svg_rivers(out, map, layout);
  write_svg_towns(out, game, state, layout, sector_labels);
  if (state) write_svg_armies(out, map, *state, layout);
  write_svg_legend(out, legend_items, layout);
  out << "</svg>\n";
  return out.str();
}

}  // namespace sling::danelaw
