// sling path danelaw --from HEX|TOWN --to HEX|TOWN --side danes|english [--json] [--map FILE]
// The cheapest path by the movement rules (Boost.Graph A*) on an empty map, and its cost.

#include <iostream>

#include "cli/command.h"
#include "cli/common_options.h"
#include "cli/games.h"
#include "engine/core/errors.h"
#include "engine/core/json_writer.h"
#include "engine/danelaw/danelaw.h"

namespace sling::cli {
namespace {

struct PathOptions {
  std::string game;
  std::string from;
  std::string to;
  std::string side = "danes";
  std::string map;
  bool json = false;
};

int hex_or_throw(const danelaw::HexMap& map, const std::string& text, const char* option) {
  const int hex = map.find_hex(text);
  if (hex < 0) {
    throw OptionError(std::string(option) + ": no hex or town '" + text +
                      "' (give a town name, a hex label such as 0712, or q,r)");
  }
  return hex;
}

const RegisterCommand kRegister(
    "path", "The cheapest path between two hexes or towns by the movement rules (danelaw)",
    [](CLI::App& sub) {
      auto options = std::make_shared<PathOptions>();
      sub.add_option("game", options->game, "The game (" + map_game_list() + ")")->required();
      sub.add_option("--from", options->from, "Start: a town, a hex label (0712) or q,r")
          ->required();
      sub.add_option("--to", options->to, "End: a town, a hex label (0712) or q,r")->required();
      sub.add_option("--side", options->side, "Whose movement costs: danes or english");
      sub.add_option("--map", options->map, "A map file instead of the built-in England map");
      sub.add_flag("--json", options->json, "Print {\"cost\": N, \"path\": [...]}");
      set_examples(sub, {"sling path danelaw --from York --to London",
                         "sling path danelaw --from 0712 --to Winchester --side english --json"});
      sub.callback([options] {
        require_map_game(options->game, "path");
        danelaw::Side side;
        if (options->side == "danes") {
          side = danelaw::kDanes;
        } else if (options->side == "english") {
          side = danelaw::kEnglish;
        } else {
          throw OptionError("--side: must be danes or english, not '" + options->side + "'");
        }
        const auto game = danelaw::DanelawGame::from_files("", options->map);
        const danelaw::HexMap& map = game.map();
        const int from = hex_or_throw(map, options->from, "--from");
        const int to = hex_or_throw(map, options->to, "--to");
        const danelaw::PathResult path = game.movement().path(side, from, to, danelaw::HexSet{});
        if (path.cost < 0) {
          throw OptionError("no path from " + options->from + " to " + options->to + " for the " +
                            options->side);
        }
        auto name = [&](int hex) {
          const int town = map.hex(hex).town;
          return map.label(hex) + (town >= 0 ? " " + map.towns()[town].name : "");
        };
        if (options->json) {
          JsonWriter json;
          json.begin_object(JsonLayout::one_line).key("cost").integer(path.cost);
          json.key("path").begin_array(JsonLayout::one_line);
          for (const int hex : path.hexes) json.string(map.label(hex));
          std::cout << json.end_array().end_object().take_document();
          return;
        }
        std::cout << "cost " << path.cost << ":";
        for (std::size_t i = 0; i < path.hexes.size(); ++i) {
          std::cout << (i ? " -> " : " ") << name(path.hexes[i]);
          if (i > 0) {
            std::cout << " (+" << danelaw::step_cost(map, side, path.hexes[i - 1], path.hexes[i])
                      << ")";
          }
        }
        std::cout << '\n';
      });
    });

}  // namespace
}  // namespace sling::cli
