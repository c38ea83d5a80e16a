#pragma once
// What a play session is given (PlayConfig), the hint agent it uses by default, and the words of
// its command line: the help text and the small text helpers that read a typed command.  Apart
// from the session (play_session.h) so that the web server and the tests can read the
// configuration without the session's logic.

#include <array>
#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>

#include "agents/registry.h"
#include "engine/core/game_limit.h"
#include "play/game_view.h"
#include "play/play_agents.h"
#include "play/style.h"

namespace sling::play {

struct PlayConfig {
  std::array<std::string, 2> sides{"human", "normal"};  // "human", a preset or an agent spec
  std::uint64_t seed = 1;
  Style style;
  bool progress = false;      // draw a thinking indicator on the status stream
  std::string hint = "auto";  // agent spec for `hint`; "auto" = the strongest available; "off"
  bool echo_input = false;    // repeat each input line (when it comes from a file, not a person)
  std::string solution_file;  // the exact solver's solution, for `strong` and hints
  // The duel's God prompt: after every roll, or (the default) only after one that went against
  // David; the other rolls are accepted for him.
  DiceQuestions dice_questions = DiceQuestions::kAfterBadRolls;
  // Turns after which the game is a draw (engine/core/game_limit.h): kAutoTurnLimit gives games
  // without a person the limit of games between agents, and a person's game none.
  int turn_limit = kAutoTurnLimit;
  static constexpr int kAutoTurnLimit = -1;
};

// The turn limit a session plays to (0: none).
inline int session_turn_limit(const PlayConfig& config) {
  if (config.turn_limit != PlayConfig::kAutoTurnLimit) return config.turn_limit;
  const bool person = config.sides[0] == "human" || config.sides[1] == "human";
  return person ? 0 : kDefaultAgentTurnLimit;
}

// The agent spec `hint` uses by default for game G: the strongest analysis the build offers, or ""
// when it has no search agent for G (then hints are flat Monte Carlo playouts).
template <Game G>
std::string default_hint_spec(const G& game, const std::string& solution_file = "") {
  const std::string spec = strongest_spec(game, solution_file);
  return registry_has(game, parse_agent_spec(spec).name) ? spec : "";
}

inline std::string trim_copy(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

inline std::string lower_copy(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

inline constexpr const char* kPlayHelp =
    "At a prompt, type the number of an option or the action itself (e.g. `move`, `to 14 9.25`).\n"
    "Commands:\n"
    "  help          this text\n"
    "  rules         a summary of the rules in force\n"
    "  board         show the board again\n"
    "  hint [all]    the strongest analysis available: the best candidates with their win\n"
    "                chances (`hint all`: every candidate)\n"
    "  undo          back to your previous decision (the dice stay as they fell)\n"
    "  log           every die and action so far\n"
    "  analyse [F]   every decision so far rated and every roll's luck (F: an SVG graph)\n"
    "  save FILE     save the game (a game record; `sling replay FILE` replays it)\n"
    "  load FILE     continue a saved game\n"
    "  quit          leave (end of input does the same)\n";

}  // namespace sling::play
