#include "engine/danelaw/map.h"

#include "engine/core/cereal_json.h"  // first: rapidjson failures become plain errors

#include <rapidjson/document.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>

#include "engine/core/embedded.h"
#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "engine/core/json_writer.h"
#include "engine/core/random.h"

namespace sling::danelaw {

namespace {

// The file layout, read field by field before validation turns it into a HexMap.  The keys
// marked derived are what `sling map danelaw --json` adds for other tools; a file may carry them,
// and the loader checks that they agree with what it derives (so an edit to one is never silently
// ignored).
struct RawHex {
  int q = 0, r = 0;
  std::string terrain;
  int sector = 0;
  // Derived, optional.
  std::optional<int> index;
  std::optional<std::string> label;
  std::optional<std::string> town;  // "" for null
  std::optional<bool> coastal;
};
struct RawTown {
  std::string name;
  int q = 0, r = 0;
};
struct RawRiver {
  std::string name;
  std::vector<std::array<int, 4>> edges;  // q1, r1, q2, r2
};
struct RawMap {
  std::string name;
  double hex_km = 0;
  std::vector<RawHex> hexes;
  std::vector<RawTown> towns;
  std::vector<RawRiver> rivers;
  std::optional<std::string> content_hash;  // derived
};

// Reads one JSON object's fields by name: unknown keys are rejected with the valid ones listed,
// and every problem names the field's path ("hexes[3].terrain").
class FieldReader {
 public:
  FieldReader(const rapidjson::Value& object, std::string path,
              std::initializer_list<std::string_view> required,
              std::initializer_list<std::string_view> optional = {})
      : object_(object), path_(std::move(path)) {
    if (!object.IsObject()) throw RulesError(where() + "expected an object");
    for (auto it = object.MemberBegin(); it != object.MemberEnd(); ++it) {
      const std::string_view key(it->name.GetString(), it->name.GetStringLength());
      const bool known = std::find(required.begin(), required.end(), key) != required.end() ||
                         std::find(optional.begin(), optional.end(), key) != optional.end();
      if (!known) {
        std::string names;
        for (const auto list : {required, optional}) {
          for (std::string_view name : list)
            names += (names.empty() ? "" : ", ") + std::string(name);
        }
        throw RulesError(where() + "unknown key '" + std::string(key) + "' (valid keys: " + names +
                         ")");
      }
    }
    for (std::string_view name : required) {
      if (!object.HasMember(std::string(name).c_str())) {
        throw RulesError(where() + "missing key '" + std::string(name) + "'");
      }
    }
  }

  bool has(const char* key) const { return object_.HasMember(key); }
  const rapidjson::Value& value(const char* key) const { return object_[key]; }
  std::string path(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

  int integer(const char* key) const {
    const rapidjson::Value& v = value(key);
    if (!v.IsInt()) throw RulesError(path(key) + ": expected an integer");
    return v.GetInt();
  }
  double number(const char* key) const {
    const rapidjson::Value& v = value(key);
    if (!v.IsNumber()) throw RulesError(path(key) + ": expected a number");
    return v.GetDouble();
  }
  bool boolean(const char* key) const {
    const rapidjson::Value& v = value(key);
    if (!v.IsBool()) throw RulesError(path(key) + ": expected true or false");
    return v.GetBool();
  }
  std::string string(const char* key) const {
    const rapidjson::Value& v = value(key);
    if (!v.IsString()) throw RulesError(path(key) + ": expected a string");
    return std::string(v.GetString(), v.GetStringLength());
  }
  const rapidjson::Value& list(const char* key) const {
    const rapidjson::Value& v = value(key);
    if (!v.IsArray()) throw RulesError(path(key) + ": expected a list");
    return v;
  }

 private:
  std::string where() const { return path_.empty() ? "" : path_ + ": "; }
  const rapidjson::Value& object_;
  std::string path_;
};

RawMap read_raw_map(std::string_view json) {
  if (const std::string problem = json_syntax_problem(json); !problem.empty()) {
    throw RulesError(problem);
  }
  rapidjson::Document document;
  parse_json(document, json);
  const FieldReader top(document, "", {"name", "hex_km", "hexes"},
                        {"towns", "rivers", "content_hash"});
  RawMap raw;
  raw.name = top.string("name");
  raw.hex_km = top.number("hex_km");
  if (top.has("content_hash")) raw.content_hash = top.string("content_hash");
  const rapidjson::Value& hexes = top.list("hexes");
  for (rapidjson::SizeType i = 0; i < hexes.Size(); ++i) {
    const FieldReader h(hexes[i], "hexes[" + std::to_string(i) + "]", {"q", "r", "terrain"},
                        {"sector", "index", "label", "town", "coastal"});
    RawHex hex;
    hex.q = h.integer("q");
    hex.r = h.integer("r");
    hex.terrain = h.string("terrain");
    if (h.has("sector")) hex.sector = h.integer("sector");
    if (h.has("index")) hex.index = h.integer("index");
    if (h.has("label")) hex.label = h.string("label");
    if (h.has("town")) hex.town = h.value("town").IsNull() ? std::string() : h.string("town");
    if (h.has("coastal")) hex.coastal = h.boolean("coastal");
    raw.hexes.push_back(std::move(hex));
  }
  if (top.has("towns")) {
    const rapidjson::Value& towns = top.list("towns");
    for (rapidjson::SizeType i = 0; i < towns.Size(); ++i) {
      const FieldReader t(towns[i], "towns[" + std::to_string(i) + "]", {"name", "q", "r"});
      raw.towns.push_back({t.string("name"), t.integer("q"), t.integer("r")});
    }
  }
  if (top.has("rivers")) {
    const rapidjson::Value& rivers = top.list("rivers");
    for (rapidjson::SizeType i = 0; i < rivers.Size(); ++i) {
      const FieldReader r(rivers[i], "rivers[" + std::to_string(i) + "]", {"name", "edges"});
      RawRiver river{r.string("name"), {}};
      const rapidjson::Value& edges = r.list("edges");
      for (rapidjson::SizeType e = 0; e < edges.Size(); ++e) {
        const rapidjson::Value& edge = edges[e];
        const std::string at = r.path("edges") + "[" + std::to_string(e) + "]";
        if (!edge.IsArray() || edge.Size() != 4) {
          throw RulesError(at + ": expected [q1, r1, q2, r2]");
        }
        std::array<int, 4> numbers{};
        for (rapidjson::SizeType k = 0; k < 4; ++k) {
          if (!edge[k].IsInt()) throw RulesError(at + ": expected [q1, r1, q2, r2] (integers)");
          numbers[k] = edge[k].GetInt();
        }
        river.edges.push_back(numbers);
      }
      raw.rivers.push_back(std::move(river));
    }
  }
  return raw;
}

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
      throw RulesError("map (" + name_or_path + "): no built-in map of that name, and " + e.what());
    }
  }
  return parse(text, name_or_path);
}

// parse()'s steps, each validating one kind of the file's fields into the map; every error
// names the map's source.
class HexMap::Builder {
 public:
  Builder(HexMap& map, const RawMap& raw, std::string where)
      : map_(map), raw_(raw), where_(std::move(where)) {}

  [[noreturn]] void fail(const std::string& message) const {
    throw RulesError(where_ + ": " + message);
  }

  // The name, the scale and the number of hexes.
  void check_header() {
    map_.name_ = raw_.name;
    if (raw_.name.find('"') != std::string::npos || raw_.name.find('\\') != std::string::npos) {
      fail("the map name has a quote or backslash");
    }
    map_.hex_km_ = raw_.hex_km;
    if (raw_.hexes.empty()) fail("no hexes");
    if (raw_.hexes.size() > static_cast<std::size_t>(kMaxHexes)) {
      fail("too many hexes (" + std::to_string(raw_.hexes.size()) + ", at most " +
           std::to_string(kMaxHexes) + ")");
    }
    if (!(raw_.hex_km > 0)) fail("hex_km must be positive");
  }

  // Hexes: coordinates, labels, terrain, sectors; then each hex's neighbours and the coast.
  void add_hexes() {
    size_grid();
    for (const RawHex& h : raw_.hexes) add_hex(h);
    for (HexInfo& info : map_.hexes_) {
      for (int d = 0; d < kDirections; ++d) {
        info.neighbours[d] =
            map_.find(info.q + kAxialDirections[d][0], info.r + kAxialDirections[d][1]);
      }
    }
    for (HexInfo& info : map_.hexes_) {
      if (info.is_sea()) continue;
      for (int n : info.neighbours) info.coastal |= (n >= 0 && map_.hexes_[n].is_sea());
    }
  }

  // Towns: on land, one per hex, unique names.
  void add_towns() {
    if (raw_.towns.size() > static_cast<std::size_t>(kMaxTowns)) {
      fail("too many towns (at most " + std::to_string(kMaxTowns) + ")");
    }
    std::set<std::string> town_names;
    for (const RawTown& t : raw_.towns) {
      const int hex = map_.find(t.q, t.r);
      if (t.name.empty()) fail("a town at " + axial_text(t.q, t.r) + " has no name");
      if (hex < 0) fail("town " + t.name + ": no hex at " + axial_text(t.q, t.r));
      const std::string named = "hex " + map_.label(hex);
      if (map_.hexes_[hex].is_sea()) fail(named + ": town " + t.name + " is on a sea hex");
      if (map_.hexes_[hex].town >= 0) {
        fail(named + ": holds two towns (" + map_.towns_[map_.hexes_[hex].town].name + " and " +
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
      map_.hexes_[hex].town = static_cast<int>(map_.towns_.size());
      map_.towns_.push_back({t.name, hex, map_.hexes_[hex].coastal});
    }
  }

  // Rivers on hexsides between neighbouring land hexes.
  void add_rivers() {
    std::set<std::string> river_names;
    for (const RawRiver& r : raw_.rivers) {
      if (!river_names.insert(lower(r.name)).second) fail("duplicate river name '" + r.name + "'");
      if (r.name.find('"') != std::string::npos || r.name.find('\\') != std::string::npos) {
        fail("river name '" + r.name + "' has a quote or backslash");
      }
      River river{r.name, {}};
      for (const auto& e : r.edges) river.sides.push_back(add_river_side(r.name, e));
      map_.rivers_.push_back(std::move(river));
    }
  }

  // All land must be one connected region (an island could never be reached by the English).
  void check_land_connected() const {
    int first_land = -1;
    for (int i = 0; i < map_.size(); ++i) {
      if (!map_.hexes_[i].is_sea()) {
        first_land = i;
        break;
      }
    }
    if (first_land < 0) fail("no land hexes");
    std::vector<char> seen(map_.hexes_.size(), 0);
    std::vector<int> stack{first_land};
    seen[first_land] = 1;
    while (!stack.empty()) {
      const int h = stack.back();
      stack.pop_back();
      for (int n : map_.hexes_[h].neighbours) {
        if (n >= 0 && !seen[n] && !map_.hexes_[n].is_sea()) {
          seen[n] = 1;
          stack.push_back(n);
        }
      }
    }
    for (int i = 0; i < map_.size(); ++i) {
      if (!map_.hexes_[i].is_sea() && !seen[i]) {
        fail("hex " + map_.label(i) + ": land not connected to hex " + map_.label(first_land));
      }
    }
  }

  // The content digest: terrain, sectors, towns and rivers, in file order.
  void set_content_hash() {
    std::uint64_t h = 0x64616e656c6177ULL;
    for (const HexInfo& info : map_.hexes_) {
      h = hash_combine(h, static_cast<std::uint64_t>(static_cast<std::uint32_t>(info.q)));
      h = hash_combine(h, static_cast<std::uint64_t>(static_cast<std::uint32_t>(info.r)));
      h = hash_combine(h, static_cast<std::uint64_t>(info.terrain) * 16 + info.sector);
    }
    for (const Town& t : map_.towns_) {
      for (char c : t.name) h = hash_combine(h, static_cast<unsigned char>(c));
      h = hash_combine(h, static_cast<std::uint64_t>(t.hex));
    }
    for (const River& r : map_.rivers_) {
      for (const auto& s : r.sides)
        h = hash_combine(h, static_cast<std::uint64_t>(s[0] * 4096 + s[1]));
    }
    char digest[17];
    std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(h));
    map_.content_hash_ = digest;
  }

  // Derived keys a file may carry (an exported map): they must agree with the source keys.
  void check_derived_keys() const {
    for (std::size_t i = 0; i < raw_.hexes.size(); ++i) {
      const RawHex& h = raw_.hexes[i];
      const HexInfo& info = map_.hexes_[i];
      const std::string named = "hex " + offset_label(h.q, h.r);
      const std::string town = info.town >= 0 ? map_.towns_[info.town].name : std::string();
      if (h.index && *h.index != static_cast<int>(i)) {
        fail(named + ": 'index' is not its position");
      }
      if (h.label && *h.label != map_.label(static_cast<int>(i))) {
        fail(named + ": 'label' says " + *h.label + " (labels follow from q and r)");
      }
      if (h.town && *h.town != town) {
        fail(named + ": 'town' says '" + *h.town + "' but the towns list puts " +
             (town.empty() ? "no town" : "'" + town + "'") + " there (towns are set in \"towns\")");
      }
      if (h.coastal && *h.coastal != info.coastal) {
        fail(named + ": 'coastal' disagrees with the terrain around it (it is derived)");
      }
    }
    if (raw_.content_hash && *raw_.content_hash != map_.content_hash_) {
      fail("'content_hash' is " + *raw_.content_hash + " but the content hashes to " +
           map_.content_hash_ + " (drop the key after editing the map)");
    }
  }

 private:
  // The grid that finds a hex by its coordinates, spanning every hex of the file.
  void size_grid() {
    int q_max = raw_.hexes[0].q, r_max = raw_.hexes[0].r;
    map_.q_min_ = q_max;
    map_.r_min_ = r_max;
    for (const RawHex& h : raw_.hexes) {
      map_.q_min_ = std::min(map_.q_min_, h.q);
      map_.r_min_ = std::min(map_.r_min_, h.r);
      q_max = std::max(q_max, h.q);
      r_max = std::max(r_max, h.r);
    }
    map_.grid_width_ = q_max - map_.q_min_ + 1;
    map_.grid_height_ = r_max - map_.r_min_ + 1;
    if (static_cast<long long>(map_.grid_width_) * map_.grid_height_ > 4'000'000) {
      fail("hex coordinates span too wide an area");
    }
    map_.grid_.assign(static_cast<std::size_t>(map_.grid_width_) * map_.grid_height_, -1);
  }

  void add_hex(const RawHex& h) {
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
    int& slot = map_.grid_[static_cast<std::size_t>((h.q - map_.q_min_) +
                                                    (h.r - map_.r_min_) * map_.grid_width_)];
    if (slot != -1) fail(named + ": listed twice");
    slot = static_cast<int>(map_.hexes_.size());
    map_.hexes_.push_back(info);
  }

  // Marks one river side [q1, r1, q2, r2] on both of its hexes; returns the hexes.
  std::array<int, 2> add_river_side(const std::string& name, const std::array<int, 4>& e) {
    const int a = map_.find(e[0], e[1]);
    const int b = map_.find(e[2], e[3]);
    const std::string side =
        "river " + name + " on the side " + axial_text(e[0], e[1]) + "-" + axial_text(e[2], e[3]);
    if (a < 0 || b < 0) fail(side + ": no such hex");
    const int d = map_.direction_to(a, b);
    if (d < 0)
      fail("hex " + map_.label(a) + ": " + side + " lies between hexes that are not neighbours");
    if (map_.hexes_[a].is_sea() || map_.hexes_[b].is_sea()) {
      fail("hex " + map_.label(map_.hexes_[a].is_sea() ? a : b) + ": " + side + " touches the sea");
    }
    map_.hexes_[a].river_sides |= static_cast<std::uint8_t>(1u << d);
    map_.hexes_[b].river_sides |= static_cast<std::uint8_t>(1u << ((d + 3) % kDirections));
    return {a, b};
  }

  HexMap& map_;
  const RawMap& raw_;
  std::string where_;
};

HexMap HexMap::parse(std::string_view json, std::string_view source) {
  const std::string where = "map (" + std::string(source) + ")";
  RawMap raw;
  try {
    raw = read_raw_map(json);
  } catch (const RulesError& e) {
    throw RulesError(where + ": " + e.what());
  }
  HexMap map;
  Builder builder(map, raw, where);
  builder.check_header();
  builder.add_hexes();
  builder.add_towns();
  builder.add_rivers();
  builder.check_land_connected();
  builder.set_content_hash();
  builder.check_derived_keys();
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
  // The loader's own layout (so `--map` reads it back), with the derived keys for other tools.
  JsonWriter json;
  json.begin_object().key("name").string(name_);
  json.key("hex_km").number(JsonNumber::significant(hex_km_));
  json.key("content_hash").string(content_hash_).key("hexes").begin_array();
  for (int i = 0; i < size(); ++i) {
    const HexInfo& h = hexes_[i];
    json.begin_object(JsonLayout::one_line).key("q").integer(h.q).key("r").integer(h.r);
    json.key("terrain").string(terrain_name(h.terrain)).key("sector").integer(h.sector);
    json.key("index").integer(i).key("label").string(label(i)).key("town");
    if (h.town >= 0) {
      json.string(towns_[h.town].name);
    } else {
      json.null();
    }
    json.key("coastal").boolean(h.coastal).end_object();
  }
  json.end_array().key("towns").begin_array();
  for (const Town& town : towns_) {
    const HexInfo& h = hexes_[town.hex];
    json.begin_object(JsonLayout::one_line).key("name").string(town.name);
    json.key("q").integer(h.q).key("r").integer(h.r).end_object();
  }
  json.end_array().key("rivers").begin_array();
  for (const River& river : rivers_) {
    json.begin_object(JsonLayout::one_line).key("name").string(river.name);
    json.key("edges").begin_array(JsonLayout::one_line);
    for (const auto& side : river.sides) {
      const HexInfo& a = hexes_[side[0]];
      const HexInfo& b = hexes_[side[1]];
      json.begin_array(JsonLayout::one_line);
      json.integer(a.q).integer(a.r).integer(b.q).integer(b.r).end_array();
    }
    json.end_array().end_object();
  }
  return json.end_array().end_object().take_document();
}

}  // namespace sling::danelaw
