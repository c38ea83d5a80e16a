#pragma once
// The danelaw hex map: terrain per hex, rivers on hexsides, towns, coastal flags and sea sectors.
//
// Hexes are pointy-top on axial coordinates (q, r), r growing southwards.  Neighbour direction d
// (0..5) is east, north-east, north-west, west, south-west, south-east.  People and files name a
// hex by its wargame label "CCRR": column and row of the odd-r offset layout, two digits each.
//
// A map is read from JSON with cereal and validated as a whole; every inconsistency is a RulesError
// naming the hex and the problem, so a hand-edited map can never reach the rules half-broken.

#include <array>
#include <bitset>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sling::danelaw {

enum class Terrain : std::uint8_t { kSea, kPlain, kHills, kWetland, kForest };

inline constexpr int kMaxHexes = 1000;  // bounds State indices (uint16) and action lists
inline constexpr int kMaxTowns = 64;    // town control is a 64-bit mask
inline constexpr int kSeaSectors = 6;   // numbered 1..6 as the dice show them
inline constexpr int kDirections = 6;
inline constexpr std::uint16_t kNoHex = 0xffff;

using HexSet = std::bitset<kMaxHexes>;

inline constexpr std::array<std::array<int, 2>, kDirections> kAxialDirections = {
    {{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}}};

std::string_view terrain_name(Terrain terrain);

struct HexInfo {
  int q = 0;
  int r = 0;
  Terrain terrain = Terrain::kSea;
  int sector = 0;                             // 1..6 for sea hexes, 0 on land
  int town = -1;                              // index into HexMap::towns(), or -1
  bool coastal = false;                       // a land hex next to a sea hex
  std::uint8_t river_sides = 0;               // bit d: a river on the side facing direction d
  std::array<int, kDirections> neighbours{};  // hex index, or -1 off the map

  bool is_sea() const { return terrain == Terrain::kSea; }
};

struct Town {
  std::string name;
  int hex = -1;
  bool coastal = false;
};

struct River {
  std::string name;
  std::vector<std::array<int, 2>> sides;  // pairs of neighbouring hex indices
};

class HexMap {
 public:
  // Parses and validates map JSON; `source` names it in error messages.  Throws RulesError.
  static HexMap parse(std::string_view json, std::string_view source);
  // An embedded map by file name ("england.json"), otherwise a file path.
  static HexMap load(const std::string& name_or_path);
  static constexpr std::string_view kDefaultMap = "england.json";

  const std::string& name() const { return name_; }
  double hex_km() const { return hex_km_; }
  int size() const { return static_cast<int>(hexes_.size()); }
  const HexInfo& hex(int index) const { return hexes_[static_cast<std::size_t>(index)]; }
  const std::vector<HexInfo>& hexes() const { return hexes_; }
  const std::vector<Town>& towns() const { return towns_; }
  const std::vector<River>& rivers() const { return rivers_; }

  // Hex index at axial (q, r), or -1.
  int find(int q, int r) const;
  int neighbour(int hex, int direction) const { return hexes_[hex].neighbours[direction]; }
  bool adjacent(int a, int b) const;
  bool river_between(int a, int b) const;
  int distance(int a, int b) const;
  // Direction from a to its neighbour b, or -1.
  int direction_to(int a, int b) const;

  // "CCRR" label of a hex, and offset column/row.
  std::string label(int hex) const;
  static int column_of(int q, int r) { return q + (r - (r & 1)) / 2; }
  // A hex by label ("0712"), axial "q,r", or town name (case-insensitive); -1 if none.
  int find_hex(std::string_view text) const;
  // Town index by name (case-insensitive), or -1.
  int find_town(std::string_view name) const;

  // A digest of everything the rules depend on (not of the file's formatting), as 16 hex digits.
  const std::string& content_hash() const { return content_hash_; }

  // The map as JSON for other tools: hexes with coordinates, label, terrain, town, coastal flag and
  // sector, and river sides.
  std::string export_json() const;

 private:
  // parse()'s steps (map.cpp): validates a file's fields into a HexMap, one kind at a time.
  class Builder;

  std::string name_;
  double hex_km_ = 0;
  std::vector<HexInfo> hexes_;
  std::vector<Town> towns_;
  std::vector<River> rivers_;
  std::vector<int> grid_;  // (q - q_min) + (r - r_min) * grid_width -> hex index or -1
  int q_min_ = 0, r_min_ = 0, grid_width_ = 0, grid_height_ = 0;
  std::string content_hash_;
};

}  // namespace sling::danelaw
