#include "experiments/tournament/config.h"

#include "engine/core/json_options.h"  // first: makes rapidjson assertions throw

#include <set>

#include "engine/core/errors.h"
#include "engine/core/json_writer.h"
#include "engine/core/random.h"

namespace sling {

namespace {

constexpr std::string_view kConfigFormat = "sling-tournament";
constexpr int kConfigVersion = 1;

}  // namespace

void TournamentConfig::validate() const {
  if (agents.size() < 2) throw OptionError("a tournament needs at least two agents");
  std::set<std::string> seen;
  for (const std::string& spec : agents) {
    if (spec.empty()) throw OptionError("an agent spec is empty");
    if (!seen.insert(spec).second) {
      throw OptionError("agent '" + spec + "' is listed twice (give each agent once)");
    }
  }
  if (pairs_per_pairing < 1) throw OptionError("--games must be at least 1");
}

std::string TournamentConfig::to_json() const {
  JsonWriter json;
  json.begin_object();
  json.key("format").string(kConfigFormat).key("version").integer(kConfigVersion);
  json.key("game").string(game).key("rules").string(rules);
  json.key("agents").begin_array(JsonLayout::one_line);
  for (const std::string& agent : agents) json.string(agent);
  json.end_array();
  json.key("pairs_per_pairing").integer(pairs_per_pairing).key("seed").integer(seed);
  if (turn_limit > 0) json.key("turn_limit").integer(turn_limit);
  return json.end_object().take_document();
}

TournamentConfig TournamentConfig::from_json(std::string_view text, const std::string& path) {
  auto fail = [&](const std::string& reason) -> TournamentConfig {
    throw FileFormatError("'" + path + "': " + reason);
  };
  rapidjson::Document document;
  try {
    parse_json(document, text);
  } catch (const JsonTooDeepError& e) {
    return fail(e.what());
  }
  if (document.HasParseError() || !document.IsObject()) return fail("not a JSON object");
  auto member = [&](const char* key) -> const rapidjson::Value& {
    const auto it = document.FindMember(key);
    if (it == document.MemberEnd()) fail(std::string("missing key '") + key + "'");
    return it->value;
  };
  if (!member("format").IsString() || member("format").GetString() != kConfigFormat) {
    return fail("not a Sling tournament configuration");
  }
  if (!member("version").IsInt() || member("version").GetInt() != kConfigVersion) {
    return fail("unsupported tournament configuration version");
  }
  TournamentConfig config;
  if (!member("game").IsString() || !member("rules").IsString() || !member("agents").IsArray() ||
      !member("pairs_per_pairing").IsInt() || !member("seed").IsUint64()) {
    return fail("a key has the wrong kind of value");
  }
  config.game = member("game").GetString();
  config.rules = member("rules").GetString();
  for (const auto& agent : member("agents").GetArray()) {
    if (!agent.IsString()) return fail("'agents' must be a list of strings");
    config.agents.emplace_back(agent.GetString());
  }
  config.pairs_per_pairing = member("pairs_per_pairing").GetInt();
  config.seed = member("seed").GetUint64();
  if (const auto limit = document.FindMember("turn_limit"); limit != document.MemberEnd()) {
    if (!limit->value.IsInt() || limit->value.GetInt() < 0 || limit->value.GetInt() > 65535) {
      return fail("'turn_limit' must be an integer from 0 to 65535");
    }
    config.turn_limit = limit->value.GetInt();
  }
  return config;
}

std::string TournamentConfig::first_difference(const TournamentConfig& other) const {
  auto list = [](const std::vector<std::string>& agents) {
    std::string text;
    for (const auto& a : agents) text += (text.empty() ? "" : " ") + a;
    return text;
  };
  if (game != other.game) return "game " + game + " vs " + other.game;
  if (rules != other.rules) return "the rules differ";
  if (agents != other.agents)
    return "agents [" + list(agents) + "] vs [" + list(other.agents) + "]";
  if (pairs_per_pairing != other.pairs_per_pairing) {
    return "--games " + std::to_string(pairs_per_pairing) + " vs " +
           std::to_string(other.pairs_per_pairing);
  }
  if (seed != other.seed)
    return "--seed " + std::to_string(seed) + " vs " + std::to_string(other.seed);
  if (turn_limit != other.turn_limit) {
    return "--turn-limit " + std::to_string(turn_limit) + " vs " + std::to_string(other.turn_limit);
  }
  return "";
}

Schedule::Schedule(const TournamentConfig& config) : seed_(config.seed) {
  const int n = static_cast<int>(config.agents.size());
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) pairings_.push_back({i, j});
  }
  total_games_ = 2 * static_cast<std::int64_t>(pairings_.size()) * config.pairs_per_pairing;
}

ScheduledGame Schedule::game(std::int64_t game_id) const {
  ScheduledGame game;
  game.game_id = game_id;
  game.pair_id = game_id / 2;
  const auto& pairing = pairings_[static_cast<std::size_t>(game.pair_id % pairings())];
  const bool swapped = game_id % 2 == 1;
  game.agent0 = pairing[swapped ? 1 : 0];
  game.agent1 = pairing[swapped ? 0 : 1];
  game.seed = Rng(seed_, static_cast<std::uint64_t>(game.pair_id)).next();
  return game;
}

}  // namespace sling
