// sling map danelaw [--json] [--map FILE]
// Prints the danelaw map: as text with a summary, or with --json as data for other tools (hexes
// with coordinates, terrain, town, coastal flag and sea sector; river hexsides).

#include <iostream>

#include "cli/command.h"
#include "cli/common_options.h"
#include "cli/games.h"
#include "engine/core/errors.h"
#include "engine/danelaw/danelaw.h"
#include "engine/danelaw/render.h"

namespace sling::cli {
namespace {

struct MapOptions {
  std::string game;
  std::string map;
  bool json = false;
};

const RegisterCommand kRegister("map", "Print or export a game's map (danelaw)", [](CLI::App& sub) {
  auto options = std::make_shared<MapOptions>();
  sub.add_option("game", options->game, "The game (" + map_game_list() + ")")->required();
  sub.add_option("--map", options->map, "A map file instead of the built-in England map");
  sub.add_flag("--json", options->json, "Export the map as JSON");
  set_examples(sub, {"sling map danelaw", "sling map danelaw --json > england.json",
                     "sling map danelaw --map england.json"});
  sub.callback([options] {
    require_map_game(options->game, "map");
    const danelaw::HexMap map = danelaw::HexMap::load(
        options->map.empty() ? std::string(danelaw::HexMap::kDefaultMap) : options->map);
    if (options->json) {
      std::cout << map.export_json();
      return;
    }
    const auto game = danelaw::DanelawGame::from_files("", options->map);
    int sea = 0, coastal = 0, sides = 0;
    for (const auto& h : map.hexes()) sea += h.is_sea();
    for (const auto& t : map.towns()) coastal += t.coastal;
    for (const auto& r : map.rivers()) sides += static_cast<int>(r.sides.size());
    std::cout << danelaw::text_map(game, nullptr) << map.name() << ": " << map.size() << " hexes ("
              << sea << " sea), " << map.towns().size() << " towns (" << coastal << " coastal), "
              << map.rivers().size() << " rivers on " << sides << " hexsides, content hash "
              << map.content_hash() << '\n';
  });
});

}  // namespace
}  // namespace sling::cli
