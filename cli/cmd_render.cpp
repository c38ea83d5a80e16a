// sling render danelaw --out map.svg [--state FILE] [--map FILE] [--rules FILE]
// Draws the danelaw map as SVG (to print and play on), with the armies and town control of a saved
// state or game record when given; without --out, prints the same map as text.

#include <iostream>

#include "cli/command.h"
#include "cli/common_options.h"
#include "cli/games.h"
#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "engine/core/record.h"
#include "engine/core/state_io.h"
#include "engine/danelaw/danelaw.h"
#include "engine/danelaw/render.h"

namespace sling::cli {
namespace {

struct RenderOptions {
  std::string game;
  std::string out;
  std::string state;
  std::string map;
  std::string rules;
};

// A state file holds either a state (any form state_from_json reads: state_to_json's, or the
// wrapped one of older files) or a game record, replayed to its end.
danelaw::State load_state(const danelaw::DanelawGame& game, const std::string& path) {
  const std::string text = read_file(path);
  danelaw::State state;
  try {
    state = state_from_json<danelaw::State>(text);
  } catch (const FileFormatError&) {
    GameRecord record;
    try {
      record = record_from_text(text);
    } catch (const FileFormatError& e) {
      throw FileFormatError(
          error_text("bad state", path,
                     std::string("neither a danelaw state nor a game record: ") + e.what()));
    }
    if (record.game != game.info().name) {
      throw FileFormatError(error_text(
          "wrong game", path,
          "the save is a game of " + record.game + ", not " + std::string(game.info().name)));
    }
    state = replay(danelaw::DanelawGame::from_rules_json(record.rules), record);
  }
  game.check_state(state);
  return state;
}

const RegisterCommand kRegister(
    "render", "Draw a game's map as SVG (danelaw), with a state's armies when given",
    [](CLI::App& sub) {
      auto options = std::make_shared<RenderOptions>();
      sub.add_option("game", options->game, "The game to draw (" + map_game_list() + ")")
          ->required();
      sub.add_option("--out", options->out, "SVG file to write (default: a text map on stdout)");
      sub.add_option("--state", options->state, "A saved state or game record to show");
      sub.add_option("--map", options->map, "A map file instead of the built-in England map");
      sub.add_option("--rules", options->rules, "A rules JSON file");
      set_examples(sub, {"sling render danelaw --out board.svg",
                         "sling render danelaw --state game.sav --out game.svg"});
      sub.callback([options] {
        require_map_game(options->game, "render");
        const auto game = danelaw::DanelawGame::from_files(options->rules, options->map);
        danelaw::State state{};
        const danelaw::State* shown = nullptr;
        if (!options->state.empty()) {
          state = load_state(game, options->state);
          shown = &state;
        }
        if (options->out.empty()) {
          std::cout << danelaw::text_map(game, shown);
          return;
        }
        write_file_atomic(options->out, danelaw::svg_map(game, shown));
        std::cout << "wrote " << options->out << '\n';
      });
    });

}  // namespace
}  // namespace sling::cli
