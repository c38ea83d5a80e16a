#pragma once
// The games the command line offers, each declared once: its name, a one-line summary, its two
// sides (the --<side> flags of play and match), whether it has a map (--map) and the presets a
// side may name.  Command files build their game lists, help texts and error messages from this
// registry, and with_game() turns a name into the concrete game type, so adding a game means one
// declaration here and no change to any cli/cmd_*.cpp file.

#include <array>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"

namespace sling::cli {

struct GameDeclaration {
  std::string_view name;                  // as GameInfo::name
  std::string_view summary;               // one line for `sling --help` and `sling games`
  std::array<std::string_view, 2> sides;  // as GameInfo::sides; also the --<side> flags
  bool has_map;                           // --map applies (render, path and map commands)
};

template <class G>
struct Declared;  // one specialisation per game below

template <>
struct Declared<duel::DuelGame> {
  static constexpr GameDeclaration kDeclaration{
      "duel", "David vs Goliath on a 30 x 30 cm board (exact solver)", {"david", "goliath"}, false};
};
template <>
struct Declared<danelaw::DanelawGame> {
  static constexpr GameDeclaration kDeclaration{
      "danelaw", "Danes vs English on a hex map of England", {"danes", "english"}, true};
};
template <>
struct Declared<pig::PigGame> {
  static constexpr GameDeclaration kDeclaration{
      "pig", "the dice game Pig, the reference game (exact solver)", {"first", "second"}, false};
};

// Every game, in the order lists show them.
using DeclaredGames = std::tuple<duel::DuelGame, danelaw::DanelawGame, pig::PigGame>;

// The names a side may give instead of an agent spec (play/play_agents.h resolves them per game).
inline constexpr std::array<std::string_view, 4> kSideChoices = {"human", "easy", "normal",
                                                                 "strong"};

// The declarations in DeclaredGames order.
const std::vector<GameDeclaration>& game_declarations();

// The declaration of `name`; throws OptionError naming the valid games when there is none.
// `option` names where the name came from in the message ("game", "--load FILE").
const GameDeclaration& require_game(std::string_view name, std::string_view option = "game");

// "duel, danelaw or pig" (joiner "or") or "duel, danelaw and pig".
std::string game_list(std::string_view joiner = "or");
// The games with a map, the same way.
std::string map_game_list(std::string_view joiner = "or");

// Every side name of every game, each once, in declaration order (the --<side> flags).
std::vector<std::string> all_side_names();
// "--david and --goliath".
std::string side_flags(const GameDeclaration& game);

// Throws OptionError unless `name` is a game with a map ("render", "path" ... name the command).
void require_map_game(std::string_view name, std::string_view command);

}  // namespace sling::cli
