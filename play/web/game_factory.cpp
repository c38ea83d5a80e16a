#include "play/web/game_factory.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <random>
#include <string_view>

#include "agents/registry.h"
#include "agents/spec.h"
#include "engine/core/errors.h"
#include "engine/games.h"
#include "experiments/analysis/json_fields.h"
#include "play/web/danelaw_web.h"
#include "play/web/duel_web.h"
#include "play/web/web_game.h"

namespace sling::web {
namespace {

constexpr std::size_t kMaxSpecLength = 300;

// A side as the page gives it: an agent the operator named (`sling serve --agent NAME=SPEC`) is
// its spec; agent options that would read a file are refused (the server's own solution is used
// through the `strong` preset), and so is an agent program, which would run a command.
std::string checked_side(const std::string& side, const FactoryOptions& options) {
  if (side.empty()) throw bad_request("a side is empty (human, a preset or an agent spec)");
  if (side.size() > kMaxSpecLength) throw bad_request("a side's agent spec is too long");
  if (play::is_human(side)) return side;
  if (const auto named = options.named_agents.find(side); named != options.named_agents.end()) {
    return named->second;
  }
  const AgentSpec spec = parse_agent_spec(side);
  if (spec.name == "external") {
    throw bad_request(
        "the page cannot start an agent program; the server offers one by name when started "
        "with --agent NAME=external:cmd=...");
  }
  for (const auto& [key, value] : spec.options) {
    if (key == "file" || key == "table" || value.find('/') != std::string::npos ||
        value.find('\\') != std::string::npos) {
      throw bad_request("agent option '" + key +
                        "' names a file, which the page cannot do (start the server with "
                        "--solution FILE and choose `strong`)");
    }
  }
  return side;
}

std::uint64_t seed_field(const rapidjson::Value& request) {
  const auto it = request.FindMember("seed");
  if (it == request.MemberEnd() || it->value.IsNull() ||
      (it->value.IsString() && it->value.GetStringLength() == 0)) {
    std::random_device device;
    return (static_cast<std::uint64_t>(device()) << 32) ^ device();
  }
  if (it->value.IsUint64()) return it->value.GetUint64();
  if (it->value.IsString()) {
    const std::string text(it->value.GetString(), it->value.GetStringLength());
    if (text.size() <= 20 &&
        std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      try {
        return std::stoull(text);
      } catch (const std::exception&) {
      }
    }
  }
  throw bad_request("'seed' must be a whole number from 0 to 18446744073709551615");
}

template <class G>
std::shared_ptr<WebSession> build(G game, WebGameConfig config, const GameRecord* record) {
  return std::make_shared<WebGame<G>>(std::move(game), std::move(config), record);
}

}  // namespace

std::shared_ptr<WebSession> make_game(const rapidjson::Value& request,
                                      const FactoryOptions& options) {
  WebGameConfig config;
  config.ai_seconds = options.ai_seconds;
  config.replay = options.replay;
  if (const auto it = request.FindMember("sides"); it != request.MemberEnd()) {
    if (!it->value.IsArray() || it->value.Size() != 2 || !it->value[0].IsString() ||
        !it->value[1].IsString())
      throw bad_request("'sides' must be two strings (human, a preset or an agent spec)");
    for (rapidjson::SizeType i = 0; i < 2; ++i)
      config.sides[i] = checked_side(it->value[i].GetString(), options);
  }
  const std::string god_prompt = string_field(request, "god_prompt").value_or(options.god_prompt);
  if (god_prompt != "bad-rolls" && god_prompt != "every")
    throw bad_request("'god_prompt' must be bad-rolls or every");
  config.dice_questions = god_prompt == "every" ? play::DiceQuestions::kAfterEveryRoll
                                                : play::DiceQuestions::kAfterBadRolls;
  if (const auto it = request.FindMember("win_strip"); it != request.MemberEnd()) {
    if (!it->value.IsBool()) throw bad_request("'win_strip' must be true or false");
    config.win_strip = it->value.GetBool() && !options.replay;
  }
  if (const auto delay = integer_field(request, "delay_ms")) {
    if (*delay < 0 || *delay > 60000) throw bad_request("'delay_ms' must be from 0 to 60000");
    config.ai_delay_ms = static_cast<int>(*delay);
  }

  std::optional<GameRecord> record;
  if (const auto text = text_or_json_field(request, "record")) {
    record = record_from_text(*text);
  } else if (const auto records = text_or_json_field(request, "records")) {
    const auto id = integer_field(request, "game_id");
    if (!id) throw bad_request("'game_id' is missing: which game of the records to replay");
    record = tournament_record(*records, *id);
  }
  // A save continued without sides given is played by whoever played it (a saved `strong` comes
  // back as `strong`); a save that names nobody keeps the defaults.
  if (record && !options.replay && !request.HasMember("sides") && record->agents.size() == 2) {
    for (std::size_t i = 0; i < 2; ++i) {
      try {
        config.sides[i] = checked_side(record->agents[i], options);
      } catch (const std::exception& e) {
        throw bad_request("the save's player of side " + std::to_string(i + 1) + " ('" +
                          record->agents[i] + "'): " + e.what());
      }
    }
  }
  std::string name;
  std::string rules;
  if (record) {
    name = record->game;
    rules = record->rules;
    config.seed = record->seed;
  } else {
    const auto game = string_field(request, "game");
    if (!game) throw bad_request("'game' is missing (" + game_list() + ")");
    name = *game;
    rules = text_or_json_field(request, "rules").value_or("{}");
    config.seed = seed_field(request);
    if (options.replay) throw bad_request("a replay needs a 'record' or 'records' and 'game_id'");
  }
  const auto given = [&](const char* key) {
    const auto it = request.FindMember(key);
    return it != request.MemberEnd() && !it->value.IsNull();
  };
  const auto registered = std::find_if(game_declarations().begin(), game_declarations().end(),
                                       [&](const GameDeclaration& g) { return g.name == name; });
  const bool known = registered != game_declarations().end();
  if ((given("map") || given("map_name")) && !(known && registered->has_map))
    throw bad_request("'map' applies to " + map_game_list() + " only");
  if (!known) throw bad_request("unknown game '" + name + "' (" + game_list() + ")");
  const GameRecord* saved = record ? &*record : nullptr;
  return with_registered_game(name, [&]<class G>(std::type_identity<G>) {
    if (WebTraits<G>::kTakesServerSolution) config.solution_file = options.solution_file;
    return build(WebTraits<G>::from_request(rules, request, saved != nullptr), config, saved);
  });
}

namespace {

template <class G>
void write_game_info(JsonWriter& out, const G& game) {
  out.StartObject();
  write_field(out, "name", game.info().name);
  write_key(out, "sides");
  out.StartArray();
  for (const auto& side : game.info().sides) write_string(out, play::display_name(side));
  out.EndArray();
  write_key(out, "agents");
  out.StartArray();
  for (const AgentInfo& agent : agent_catalogue(game)) {
    if (agent.name == "external") continue;  // offered only by name (--agent NAME=SPEC)
    out.StartObject();
    write_field(out, "name", agent.name);
    write_field(out, "help", agent.help);
    out.EndObject();
  }
  out.EndArray();
  write_key(out, "presets");
  out.StartObject();
  for (const char* preset : {"easy", "normal", "strong"}) {
    write_field(out, preset, play::resolve_preset(game, preset));
  }
  out.EndObject();
  write_field(out, "rules", game.rules_json());
  out.EndObject();
}

}  // namespace

std::string info_json(bool has_solution, const std::map<std::string, std::string>& named_agents,
                      const std::string& god_prompt, std::chrono::seconds idle_timeout) {
  rapidjson::StringBuffer buffer;
  JsonWriter out(buffer);
  out.StartObject();
  write_key(out, "games");
  out.StartArray();
  for_each_registered_game([&]<class G>(std::type_identity<G>) { write_game_info(out, G()); });
  out.EndArray();
  write_key(out, "maps");
  out.StartArray();
  for_each_registered_game([&]<class G>(std::type_identity<G>) {
    for (const std::string& map : WebTraits<G>::built_in_maps()) write_string(out, map);
  });
  out.EndArray();
  write_field(out, "duel_solution", has_solution);
  write_field(out, "god_prompt", god_prompt);
  write_field(out, "idle_minutes", idle_timeout.count() / 60);
  write_key(out, "named_agents");
  out.StartArray();
  for (const auto& [name, spec] : named_agents) {
    out.StartObject();
    write_field(out, "name", name);
    write_field(out, "spec", spec);
    out.EndObject();
  }
  out.EndArray();
  out.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

namespace {

// Calls visit(game_id, record_value) for each line of a records.jsonl.
template <class Visit>
void for_each_record(const std::string& text, Visit visit) {
  std::size_t at = 0;
  int line_number = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + at, end - at);
    at = end + 1;
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    rapidjson::Document document;
    try {
      parse_json(document, line);
    } catch (const JsonTooDeepError& e) {
      throw bad_request("records line " + std::to_string(line_number) + ": " + e.what());
    }
    if (document.HasParseError() || !document.IsObject() || !document.HasMember("game_id") ||
        !document["game_id"].IsInt64() || !document.HasMember("record") ||
        !document["record"].IsObject()) {
      throw bad_request("records line " + std::to_string(line_number) +
                        " is not a tournament game record");
    }
    visit(document["game_id"].GetInt64(), document["record"]);
  }
}

}  // namespace

std::string records_list_json(const std::string& records_jsonl) {
  rapidjson::StringBuffer buffer;
  JsonWriter out(buffer);
  out.StartArray();
  for_each_record(records_jsonl, [&](std::int64_t id, const rapidjson::Value& value) {
    const GameRecord record = record_from_text(json_detail::to_text(value));
    out.StartObject();
    write_field(out, "game_id", id);
    write_field(out, "game", record.game);
    write_field(out, "plies", record.history.size());
    write_field(out, "seed", std::to_string(record.seed));
    out.EndObject();
  });
  out.EndArray();
  return std::string(buffer.GetString(), buffer.GetSize());
}

GameRecord tournament_record(const std::string& records_jsonl, std::int64_t game_id) {
  std::optional<GameRecord> found;
  for_each_record(records_jsonl, [&](std::int64_t id, const rapidjson::Value& value) {
    if (id == game_id) found = record_from_text(json_detail::to_text(value));
  });
  if (!found) throw bad_request("the records hold no game " + std::to_string(game_id));
  return *found;
}

}  // namespace sling::web
