#pragma once
// The game record: the rules, the seed and the full action/outcome history.  It is the one format
// for saves, tournament game logs and replays: replaying it from the initial state reproduces the
// final state exactly, because every chance outcome is in the history.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/game_limit.h"

namespace sling {

struct GameRecord {
  static constexpr int kFormatVersion = 1;

  std::string game;             // GameInfo::name
  std::string rules;            // the game's rules as JSON text
  std::uint64_t seed = 0;       // the seed the chance outcomes were drawn from (informative)
  std::vector<Action> history;  // decisions and chance outcomes, in order
  // Who played each side (agent specs, "human" or a preset), when known: a save records them so
  // that loading it restores the same opponent.  JSON only; the binary form leaves it empty.
  std::vector<std::string> agents{};
  // The turn limit the game was played to (engine/core/game_limit.h), 0 for none: a replay stops
  // where the game stopped.  JSON only, written when set; the binary form leaves it 0.
  int turn_limit = 0;

  bool operator==(const GameRecord&) const = default;
};

// JSON is for people and other tools; binary is compact (tournament logs).
std::string record_to_json(const GameRecord& record);
std::string record_to_binary(const GameRecord& record);
// Accepts either encoding; throws FileFormatError with a one-line reason naming the field on
// anything malformed (unknown keys, values of the wrong kind, a truncated file).
GameRecord record_from_text(std::string_view bytes);

void save_record(const std::string& path, const GameRecord& record, bool binary = false);
GameRecord load_record(const std::string& path);

// Replays a record on `rules_game` (which must have been built from record.rules), to the record's
// turn limit, and returns the final state.  Every step is checked: an illegal action or impossible
// outcome is an IllegalActionError that names the ply.
template <Game G>
typename G::State replay(const G& rules_game, const GameRecord& record) {
  if (record.game != rules_game.info().name) {
    throw FileFormatError("record is for game '" + record.game + "', not '" +
                          std::string(rules_game.info().name) + "'");
  }
  const TurnLimited<G> limited(rules_game, record.turn_limit);
  const G& game = limited.game();
  typename G::State state = game.initial_state();
  for (std::size_t ply = 0; ply < record.history.size(); ++ply) {
    if (game.is_terminal(state)) {
      throw IllegalActionError("record continues after the game ended (ply " +
                               std::to_string(ply + 1) + ")");
    }
    try {
      apply_any(game, state, record.history[ply]);
    } catch (const IllegalActionError& e) {
      throw IllegalActionError("record ply " + std::to_string(ply + 1) + ": " + e.what());
    }
  }
  return state;
}

}  // namespace sling
