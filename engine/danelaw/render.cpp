#include "engine/danelaw/render.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

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

std::string svg_map(const DanelawGame& game, const State* state) {
  const HexMap& map = game.map();
  constexpr double kSize = 18.0;  // centre to corner, in SVG units
  const double sqrt3 = std::sqrt(3.0);
  double x_min = 1e9, y_min = 1e9, x_max = -1e9, y_max = -1e9;
  auto centre = [&](const HexInfo& h) {
    return std::pair<double, double>{kSize * sqrt3 * (h.q + h.r / 2.0), kSize * 1.5 * h.r};
  };
  for (const HexInfo& h : map.hexes()) {
    const auto [x, y] = centre(h);
    x_min = std::min(x_min, x);
    x_max = std::max(x_max, x);
    y_min = std::min(y_min, y);
    y_max = std::max(y_max, y);
  }
  const double margin = 40.0, legend = 70.0;
  const double dx = margin - x_min, dy = margin - y_min;
  const double width = x_max - x_min + 2 * margin, height = y_max - y_min + 2 * margin + legend;
  auto corner = [&](const HexInfo& h, int i) {
    const auto [cx, cy] = centre(h);
    const double a = (60.0 * i - 30.0) * M_PI / 180.0;
    return std::pair<double, double>{cx + dx + kSize * std::cos(a), cy + dy - kSize * std::sin(a)};
  };
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(1);
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << ' ' << height << "\" font-family=\"sans-serif\">\n";
  out << "<title>" << map.name()
      << "</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  // 1. Hexes.
  out << "<g stroke=\"#7a7a7a\" stroke-width=\"0.6\">\n";
  for (const HexInfo& h : map.hexes()) {
    out << "<polygon fill=\"" << terrain_colour(h.terrain) << "\" points=\"";
    for (int i = 0; i < 6; ++i) {
      const auto [x, y] = corner(h, i);
      out << x << ',' << y << (i < 5 ? " " : "");
    }
    out << "\"/>\n";
  }
  out << "</g>\n";
  // 2. Hex labels, small, for typing moves.
  out << "<g font-size=\"5\" fill=\"#555\" text-anchor=\"middle\">\n";
  for (int i = 0; i < map.size(); ++i) {
    const auto [x, y] = centre(map.hex(i));
    out << "<text x=\"" << x + dx << "\" y=\"" << y + dy - kSize * 0.55 << "\">" << map.label(i)
        << "</text>\n";
  }
  out << "</g>\n";
  // 3. Sea sector numbers: one large number at the middle of each sector, small ones per hex.
  for (int sector = 1; sector <= kSeaSectors; ++sector) {
    double sx = 0, sy = 0;
    int n = 0;
    int best = -1;
    for (int i = 0; i < map.size(); ++i) {
      if (map.hex(i).sector != sector) continue;
      const auto [x, y] = centre(map.hex(i));
      sx += x;
      sy += y;
      ++n;
    }
    if (n == 0) continue;
    sx /= n;
    sy /= n;
    double best_d = 1e18;
    for (int i = 0; i < map.size(); ++i) {  // the sector's own hex nearest its centroid
      if (map.hex(i).sector != sector) continue;
      const auto [x, y] = centre(map.hex(i));
      const double d = (x - sx) * (x - sx) + (y - sy) * (y - sy);
      if (d < best_d) {
        best_d = d;
        best = i;
      }
    }
    const auto [x, y] = centre(map.hex(best));
    out << "<text x=\"" << x + dx << "\" y=\"" << y + dy + 9 << "\" font-size=\"28\" "
        << "font-weight=\"bold\" fill=\"#2d5f8f\" text-anchor=\"middle\">" << sector << "</text>\n";
  }
  out << "<g font-size=\"7\" fill=\"#4d7faf\" text-anchor=\"middle\">\n";
  for (int i = 0; i < map.size(); ++i) {
    if (!map.hex(i).is_sea()) continue;
    const auto [x, y] = centre(map.hex(i));
    out << "<text x=\"" << x + dx << "\" y=\"" << y + dy + kSize * 0.75 << "\">"
        << map.hex(i).sector << "</text>\n";
  }
  out << "</g>\n";
  // 4. Rivers on hexsides.
  out << "<g stroke=\"#1f5fbf\" stroke-width=\"3\" stroke-linecap=\"round\">\n";
  for (const River& river : map.rivers()) {
    for (const auto& side : river.sides) {
      const int d = map.direction_to(side[0], side[1]);
      const auto [x1, y1] = corner(map.hex(side[0]), d);
      const auto [x2, y2] = corner(map.hex(side[0]), d + 1);
      out << "<line x1=\"" << x1 << "\" y1=\"" << y1 << "\" x2=\"" << x2 << "\" y2=\"" << y2
          << "\"><title>" << river.name << "</title></line>\n";
    }
  }
  out << "</g>\n";
  // 5. Towns: a ring coloured by control, and the name.
  for (std::size_t t = 0; t < map.towns().size(); ++t) {
    const Town& town = map.towns()[t];
    const auto [x, y] = centre(map.hex(town.hex));
    const bool danish = state && game.town_held_by_danes(*state, static_cast<int>(t));
    // With an army on the town the ring is drawn wider, so that control shows around the marker.
    const bool occupied = state && game.army_at(*state, town.hex) >= 0;
    out << "<circle cx=\"" << x + dx << "\" cy=\"" << y + dy << "\" r=\"" << (occupied ? 10 : 5)
        << "\" fill=\"" << (danish ? "#c0392b" : "#ffffff")
        << "\" stroke=\"#222\" stroke-width=\"1.5\"/>\n";
    out << "<text x=\"" << x + dx << "\" y=\"" << y + dy + (occupied ? 18 : 13)
        << "\" font-size=\"8\" "
        << "text-anchor=\"middle\" fill=\"#111\" stroke=\"white\" stroke-width=\"2\" "
        << "paint-order=\"stroke\">" << town.name << "</text>\n";
  }
  // 6. Armies.
  if (state) {
    for (int i = 0; i < state->army_count; ++i) {
      const Army& a = state->armies[i];
      const auto [x, y] = centre(map.hex(a.hex));
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
  // 7. Legend.
  const double ly = height - legend + 10;
  const std::pair<Terrain, const char*> items[] = {{Terrain::kSea, "sea (sector number)"},
                                                   {Terrain::kPlain, "plain"},
                                                   {Terrain::kHills, "hills"},
                                                   {Terrain::kWetland, "wetland"},
                                                   {Terrain::kForest, "forest"}};
  double lx = margin;
  for (const auto& [terrain, name] : items) {
    out << "<rect x=\"" << lx << "\" y=\"" << ly << "\" width=\"14\" height=\"14\" fill=\""
        << terrain_colour(terrain) << "\" stroke=\"#555\"/>\n<text x=\"" << lx + 18 << "\" y=\""
        << ly + 11 << "\" font-size=\"10\">" << name << "</text>\n";
    lx += 110;
  }
  out << "<line x1=\"" << margin << "\" y1=\"" << ly + 30 << "\" x2=\"" << margin + 20 << "\" y2=\""
      << ly + 30 << "\" stroke=\"#1f5fbf\" stroke-width=\"3\"/>\n<text x=\"" << margin + 26
      << "\" y=\"" << ly + 34
      << "\" font-size=\"10\">river (+1 to cross, -1 to attack across)   "
         "town: white English, red Danish   armies: D Danes, E English field army, M militia"
      << "</text>\n";
  out << "</svg>\n";
  return out.str();
}

}  // namespace sling::danelaw
