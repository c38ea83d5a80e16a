#pragma once
// Builds the games of `sling serve` from a request: a new game (its name, the sides, the seed, the
// rules or map variant), a saved game to continue or replay (a terminal save, or one game of a
// tournament's records.jsonl), all given as text in the request: never a path on the server.

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "engine/core/record.h"
#include "play/web/web_json.h"
#include "play/web/web_session.h"

namespace sling::web {

struct FactoryOptions {
  std::string solution_file;  // the server's duel solution (--solution), or ""
  double ai_seconds = 10;
  bool replay = false;
  std::map<std::string, std::string> named_agents;  // ServerOptions::named_agents
  std::string god_prompt = "bad-rolls";             // ServerOptions::god_prompt
};

// Request fields: "game" (duel, danelaw, pig), "sides" (two of: human, a preset, an agent spec),
// "seed" (a number or its decimal text; default a fresh one), "rules" (the text of a rules file),
// "map" (danelaw: a built-in map's name, or the text of a map file, with "map_name" the file's
// name, which the rules and so the saves record as the map), "delay_ms" (a pause before each agent
// decision), "god_prompt" (the duel: "bad-rolls" or "every"; default the server's), "win_strip"
// (true: the strong agent's estimate after every decision); or "record" (a save's text) or
// "records" with "game_id" (a tournament's records.jsonl) instead of game, rules and seed, with
// "map" the text of the map file the game was played on when its rules name a map that is not built
// in (the rules' content hash must match).
std::shared_ptr<WebSession> make_game(const rapidjson::Value& request,
                                      const FactoryOptions& options);

// The games, their sides, the presets and agents the page offers.
std::string info_json(bool has_solution,
                      const std::map<std::string, std::string>& named_agents = {},
                      const std::string& god_prompt = "bad-rolls",
                      std::chrono::seconds idle_timeout = std::chrono::seconds(1800));

// The games of a tournament's records.jsonl: [{game_id, game, plies, seed}].
std::string records_list_json(const std::string& records_jsonl);
// Game `game_id` of a tournament's records.jsonl; a 400 when absent or malformed.
GameRecord tournament_record(const std::string& records_jsonl, std::int64_t game_id);

}  // namespace sling::web
