#pragma once
// The danelaw tests' small map: a strip of land between two seas, where paths are forced and every
// cost can be worked out by hand.  Shared by the map and the rules suites.

#include <string>

namespace sling::danelaw {

// A strip of seven land hexes between two rows of sea, so that land paths are forced:
//   r=0  sea, sector 1           q = 0..6
//   r=1  plain hills hills plain forest plain wetland   (a river between q=2 and q=3)
//   r=2  sea, sector 2           q = 0..6
// Towns: Alpha (0,1), Beta (3,1), Gamma (5,1).
inline std::string strip_map(const std::string& hex_override = "",
                             const std::string& extra_town = "",
                             const std::string& river = R"([[2, 1, 3, 1]])") {
  const char* terrain[] = {"plain", "hills", "hills", "plain", "forest", "plain", "wetland"};
  std::string hexes;
  for (int r = 0; r < 3; ++r) {
    for (int q = 0; q < 7; ++q) {
      if (!hexes.empty()) hexes += ",\n";
      const bool sea = r != 1;
      hexes += "{\"q\": " + std::to_string(q) + ", \"r\": " + std::to_string(r) +
               ", \"terrain\": \"" + (sea ? "sea" : terrain[q]) +
               "\", \"sector\": " + (sea ? std::to_string(r == 0 ? 1 : 2) : "0") + "}";
    }
  }
  if (!hex_override.empty()) hexes += ",\n" + hex_override;
  return R"({"name": "strip", "hex_km": 22, "hexes": [)" + hexes +
         R"(], "towns": [{"name": "Alpha", "q": 0, "r": 1}, {"name": "Beta", "q": 3, "r": 1},
         {"name": "Gamma", "q": 5, "r": 1})" +
         extra_town + R"(], "rivers": [{"name": "Test", "edges": )" + river + "}]}";
}

}  // namespace sling::danelaw
