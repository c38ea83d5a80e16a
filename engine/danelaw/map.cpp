#include "engine/danelaw/map.h"

#include <cereal/archives/json.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

#include "engine/core/embedded.h"
#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "engine/core/random.h"

namespace sling::danelaw {

namespace {

// The file layout, read by cereal before validation turns it into a HexMap.
struct RawHex {
  int q = 0, r = 0;
  std::string terrain;
  int sector = 0;
  template <class A>
  void serialize(A& ar) {
    ar(CEREAL_NVP(q), CEREAL_NVP(r), CEREAL_NVP(terrain), CEREAL_NVP(sector));
  }
};
struct RawTown {
  std::string name;
  int q = 0, r = 0;
  template <class A>
  void serialize(A& ar) {
    ar(CEREAL_NVP(name), CEREAL_NVP(q), CEREAL_NVP(r));
  }
};
struct RawRiver {
  std::string name;
  std::vector<std::array<int, 4>> edges;  // q1, r1, q2, r2
  template <class A>
  void serialize(A& ar) {
    ar(CEREAL_NVP(name), CEREAL_NVP(edges));
  }
};
struct RawMap {
  std::string name;
  double hex_km = 0;
  std::vector<RawHex> hexes;
  std::vector<RawTown> towns;
  std::vector<RawRiver> rivers;
  template <class A>
  void serialize(A& ar) {
    ar(CEREAL_NVP(name), CEREAL_NVP(hex_km), CEREAL_NVP(hexes), CEREAL_NVP(towns),
       CEREAL_NVP(rivers));
  }
};

constexpr std::array<std::string_view, 5> kTerrainNames = {"sea", "plain", "hills", "wetland",
                                                           "forest"};

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string axial_text(int q, int r) {
  return "(q=" + std::to_string(q) + ", r=" + std::to_string(r) + ")";
}

std::string offset_label(int q, int r) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%02d%02d", HexMap::column_of(q, r), r);
  return buffer;
}

}  // namespace

std::string_view terrain_name(Terrain terrain) {
  return kTerrainNames[static_cast<std::size_t>(terrain)];
}

HexMap HexMap::load(const std::string& name_or_path) {
  std::string text;
  try {
    text = std::string(embedded_file(name_or_path));
  } catch (const FileFormatError&) {
    try {
      text = read_file(name_or_path);
    } catch (const FileFormatError& e) {
      throw RulesError("map '" + name_or_path + "': not an embedded map, and " + e.what());
    }
  }
  return parse(text, name_or_path);
}

HexMap HexMap::parse(std::string_view json, std::string_view source) {
  const std::string where = "map '" + std::string(source) + "'";
  RawMap raw;
  try {
    std::istringstream in{std::string(json)};
    cereal::JSONInputArchive archive(in);
    raw.serialize(archive);
  } catch (const std::exception& e) {
    throw RulesError(where + ": malformed map JSON: " + e.what());
  }
  auto fail = [&](const std::string& message) { throw RulesError(where + ": " + message); };

  HexMap map;
  map.name_ = raw.name;
  if (raw.name.find('"') != std::string::npos || raw.name.find('\\') != std::string::npos) {
    fail("the map name has a quote or backslash");
  }
  map.hex_km_ = raw.hex_km;
  if (raw.hexes.empty()) fail("no hexes");
  if (raw.hexes.size() > static_cast<std::size_t>(kMaxHexes)) {
    fail("too many hexes (" + std::to_string(raw.hexes.size()) + ", at most " +
         std::to_string(kMaxHexes) + ")");
  }
  if (!(raw.hex_km > 0)) fail("hex_km must be positive");

  // 1. Hexes: coordinates, labels, terrain, sectors.
  int q_max = raw.hexes[0].q, r_max = raw.hexes[0].r;
  map.q_min_ = q_max;
  map.r_min_ = r_max;
  for (const RawHex& h : raw.hexes) {
    map.q_min_ = std::min(map.q_min_, h.q);
    map.r_min_ = std::min(map.r_min_, h.r);
    q_max = std::max(q_max, h.q);
    r_max = std::max(r_max, h.r);
  }
  map.grid_width_ = q_max - map.q_min_ + 1;
  map.grid_height_ = r_max - map.r_min_ + 1;
  if (static_cast<long long>(map.grid_width_) * map.grid_height_ > 4'000'000) {
    fail("hex coordinates span too wide an area");
  }
  map.grid_.assign(static_cast<std::size_t>(map.grid_width_) * map.grid_height_, -1);
  for (const RawHex& h : raw.hexes) {
    const std::string at = "hex " + axial_text(h.q, h.r);
    const int column = column_of(h.q, h.r);
    if (h.r < 0 || h.r > 99 || column < 0 || column > 99) {
      fail(at + ": outside the labelled area (offset column and row must be 0..99)");
    }
    const std::string named = "hex " + offset_label(h.q, h.r);
    auto it = std::find(kTerrainNames.begin(), kTerrainNames.end(), h.terrain);
    if (it == kTerrainNames.end()) fail(named + ": unknown terrain '" + h.terrain + "'");
    HexInfo info;
    info.q = h.q;
    info.r = h.r;
    info.terrain = static_cast<Terrain>(it - kTerrainNames.begin());
    info.sector = h.sector;
    if (info.is_sea() && (h.sector < 1 || h.sector > kSeaSectors)) {
      fail(named + ": sea sector " + std::to_string(h.sector) + " is outside 1-6");
    }
    if (!info.is_sea() && h.sector != 0) {
      fail(named + ": a land hex has sea sector " + std::to_string(h.sector) + " (must be 0)");
    }
    int& slot = map.grid_[static_cast<std::size_t>((h.q - map.q_min_) +
                                                   (h.r - map.r_min_) * map.grid_width_)];
    if (slot != -1) fail(named + ": listed twice");
    slot = static_cast<int>(map.hexes_.size());
    map.hexes_.push_back(info);
  }
  for (HexInfo& info : map.hexes_) {
    for (int d = 0; d < kDirections; ++d) {
      info.neighbours[d] =
          map.find(info.q + kAxialDirections[d][0], info.r + kAxialDirections[d][1]);
    }
  }
  for (HexInfo& info : map.hexes_) {
    if (info.is_sea()) continue;
    for (int n : info.neighbours) info.coastal |= (n >= 0 && map.hexes_[n].is_sea());
  }

  // 2. Towns: on land, one per hex, unique names.
  if (raw.towns.size() > static_cast<std::size_t>(kMaxTowns)) {
    fail("too many towns (at most " + std::to_string(kMaxTowns) + ")");
  }
  std::set<std::string> town_names;
  for (const RawTown& t : raw.towns) {
    const int hex = map.find(t.q, t.r);
    if (t.name.empty()) fail("a town at " + axial_text(t.q, t.r) + " has no name");
    if (hex < 0) fail("town " + t.name + ": no hex at " + axial_text(t.q, t.r));
    const std::string named = "hex " + map.label(hex);
    if (map.hexes_[hex].is_sea()) fail(named + ": town " + t.name + " is on a sea hex");
    if (map.hexes_[hex].town >= 0) {
      fail(named + ": holds two towns (" + map.towns_[map.hexes_[hex].town].name + " and " +
           t.name + ")");
    }
    if (!town_names.insert(lower(t.name)).second) fail("duplicate town name '" + t.name + "'");
    const bool looks_like_hex =
        t.name.find(',') != std::string::npos ||
        (t.name.size() == 4 && std::all_of(t.name.begin(), t.name.end(), [](char c) {
           return std::isdigit(static_cast<unsigned char>(c));
         }));
    // Such a name would make "--from 0712" or "--from 3,4" ambiguous.
    if (looks_like_hex) fail(named + ": town name '" + t.name + "' reads as a hex coordinate");
    if (t.name.find('"') != std::string::npos || t.name.find('\\') != std::string::npos) {
      fail(named + ": town name '" + t.name + "' has a quote or backslash");
    }
    map.hexes_[hex].town = static_cast<int>(map.towns_.size());
    map.towns_.push_back({t.name, hex, map.hexes_[hex].coastal});
  }

  // 3. Rivers on hexsides between neighbouring land hexes.
  std::set<std::string> river_names;
  for (const RawRiver& r : raw.rivers) {
    if (!river_names.insert(lower(r.name)).second) fail("duplicate river name '" + r.name + "'");
    if (r.name.find('"') != std::string::npos || r.name.find('\\') != std::string::npos) {
      fail("river name '" + r.name + "' has a quote or backslash");
    }
    River river{r.name, {}};
    for (const auto& e : r.edges) {
      const int a = map.find(e[0], e[1]);
      const int b = map.find(e[2], e[3]);
      const std::string side = "river " + r.name + " on the side " + axial_text(e[0], e[1]) + "-" +
                               axial_text(e[2], e[3]);
      if (a < 0 || b < 0) fail(side + ": no such hex");
      const int d = map.direction_to(a, b);
      if (d < 0)
        fail("hex " + map.label(a) + ": " + side + " lies between hexes that are not neighbours");
      if (map.hexes_[a].is_sea() || map.hexes_[b].is_sea()) {
        fail("hex " + map.label(map.hexes_[a].is_sea() ? a : b) + ": " + side + " touches the sea");
      }
      map.hexes_[a].river_sides |= static_cast<std::uint8_t>(1u << d);
      map.hexes_[b].river_sides |= static_cast<std::uint8_t>(1u << ((d + 3) % kDirections));
      river.sides.push_back({a, b});
    }
    map.rivers_.push_back(std::move(river));
  }

  // 4. All land must be one connected region (an island could never be reached by the English).
  int first_land = -1;
  for (int i = 0; i < map.size(); ++i) {
    if (!map.hexes_[i].is_sea()) {
      first_land = i;
      break;
    }
  }
  if (first_land < 0) fail("no land hexes");
  std::vector<char> seen(map.hexes_.size(), 0);
  std::vector<int> stack{first_land};
  seen[first_land] = 1;
  while (!stack.empty()) {
    const int h = stack.back();
    stack.pop_back();
    for (int n : map.hexes_[h].neighbours) {
      if (n >= 0 && !seen[n] && !map.hexes_[n].is_sea()) {
        seen[n] = 1;
        stack.push_back(n);
      }
    }
  }
  for (int i = 0; i < map.size(); ++i) {
    if (!map.hexes_[i].is_sea() && !seen[i]) {
      fail("hex " + map.label(i) + ": land not connected to hex " + map.label(first_land));
    }
  }

  // 5. The content digest: terrain, sectors, towns and rivers, in file order.
  std::uint64_t h = 0x64616e656c6177ULL;
  for (const HexInfo& info : map.hexes_) {
    h = hash_combine(h, static_cast<std::uint64_t>(static_cast<std::uint32_t>(info.q)));
    h = hash_combine(h, static_cast<std::uint64_t>(static_cast<std::uint32_t>(info.r)));
    h = hash_combine(h, static_cast<std::uint64_t>(info.terrain) * 16 + info.sector);
  }
  for (const Town& t : map.towns_) {
    for (char c : t.name) h = hash_combine(h, static_cast<unsigned char>(c));
    h = hash_combine(h, static_cast<std::uint64_t>(t.hex));
  }
  for (const River& r : map.rivers_) {
    for (const auto& s : r.sides)
      h = hash_combine(h, static_cast<std::uint64_t>(s[0] * 4096 + s[1]));
  }
  char digest[17];
  std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(h));
  map.content_hash_ = digest;
  return map;
}

int HexMap::find(int q, int r) const {
  const int x = q - q_min_, y = r - r_min_;
  if (x < 0 || y < 0 || x >= grid_width_ || y >= grid_height_) return -1;
  return grid_[static_cast<std::size_t>(x + y * grid_width_)];
}

int HexMap::direction_to(int a, int b) const {
  for (int d = 0; d < kDirections; ++d) {
    if (hexes_[a].neighbours[d] == b) return d;
  }
  return -1;
}

bool HexMap::adjacent(int a, int b) const {
  return direction_to(a, b) >= 0;
}

bool HexMap::river_between(int a, int b) const {
  const int d = direction_to(a, b);
  return d >= 0 && (hexes_[a].river_sides >> d & 1u);
}

int HexMap::distance(int a, int b) const {
  const int dq = hexes_[a].q - hexes_[b].q;
  const int dr = hexes_[a].r - hexes_[b].r;
  return std::max({std::abs(dq), std::abs(dr), std::abs(dq + dr)});
}

std::string HexMap::label(int hex) const {
  return offset_label(hexes_[hex].q, hexes_[hex].r);
}

int HexMap::find_town(std::string_view name) const {
  const std::string wanted = lower(name);
  for (std::size_t i = 0; i < towns_.size(); ++i) {
    if (lower(towns_[i].name) == wanted) return static_cast<int>(i);
  }
  return -1;
}

int HexMap::find_hex(std::string_view text) const {
  if (text.size() == 4 && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      })) {
    const int column = (text[0] - '0') * 10 + (text[1] - '0');
    const int row = (text[2] - '0') * 10 + (text[3] - '0');
    return find(column - (row - (row & 1)) / 2, row);
  }
  const auto comma = text.find(',');
  if (comma != std::string_view::npos) {
    const std::string q_text(text.substr(0, comma)), r_text(text.substr(comma + 1));
    char* end = nullptr;
    const long q = std::strtol(q_text.c_str(), &end, 10);
    if (q_text.empty() || *end != '\0') return -1;
    const long r = std::strtol(r_text.c_str(), &end, 10);
    if (r_text.empty() || *end != '\0') return -1;
    if (q < -10000 || q > 10000 || r < -10000 || r > 10000) return -1;
    return find(static_cast<int>(q), static_cast<int>(r));
  }
  const int town = find_town(text);
  return town >= 0 ? towns_[town].hex : -1;
}

std::string HexMap::export_json() const {
  std::ostringstream out;
  out << "{\n  \"name\": \"" << name_ << "\",\n  \"hex_km\": " << hex_km_
      << ",\n  \"content_hash\": \"" << content_hash_ << "\",\n  \"hexes\": [\n";
  for (int i = 0; i < size(); ++i) {
    const HexInfo& h = hexes_[i];
    out << "    {\"index\": " << i << ", \"label\": \"" << label(i) << "\", \"q\": " << h.q
        << ", \"r\": " << h.r << ", \"terrain\": \"" << terrain_name(h.terrain) << "\", \"town\": ";
    if (h.town >= 0) {
      out << '"' << towns_[h.town].name << '"';
    } else {
      out << "null";
    }
    out << ", \"coastal\": " << (h.coastal ? "true" : "false") << ", \"sector\": " << h.sector
        << "}" << (i + 1 < size() ? ",\n" : "\n");
  }
  out << "  ],\n  \"rivers\": [\n";
  for (std::size_t r = 0; r < rivers_.size(); ++r) {
    out << "    {\"name\": \"" << rivers_[r].name << "\", \"sides\": [";
    for (std::size_t s = 0; s < rivers_[r].sides.size(); ++s) {
      out << (s ? ", " : "") << "[\"" << label(rivers_[r].sides[s][0]) << "\", \""
          << label(rivers_[r].sides[s][1]) << "\"]";
    }
    out << "]}" << (r + 1 < rivers_.size() ? ",\n" : "\n");
  }
  out << "  ]\n}\n";
  return out.str();
}

}  // namespace sling::danelaw
