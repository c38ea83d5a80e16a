#include "engine/core/cereal_json.h"  // first: rapidjson failures become plain errors

#include "agents/external_protocol.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace sling::protocol {

namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void key_string(Writer& w, const char* key, std::string_view value) {
  w.Key(key);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

void key_raw_object(Writer& w, const char* key, std::string_view json) {
  w.Key(key);
  w.RawValue(json.data(), json.size(), rapidjson::kObjectType);
}

std::string finish(const rapidjson::StringBuffer& buffer) {
  return std::string(buffer.GetString(), buffer.GetSize());
}

// One message being written: a JSON object whose first member is its type.
class MessageWriter {
 public:
  explicit MessageWriter(std::string_view type) : writer_(buffer_) {
    writer_.StartObject();
    key_string(writer_, "type", type);
  }
  Writer* operator->() { return &writer_; }
  Writer& operator*() { return writer_; }
  std::string done() {
    writer_.EndObject();
    return finish(buffer_);
  }

 private:
  rapidjson::StringBuffer buffer_;
  Writer writer_;
};

// What a reader shows of a line it refuses: short, and on one line.
std::string quoted(std::string_view line) {
  constexpr std::size_t kShown = 80;
  std::string shown(line.substr(0, kShown));
  if (line.size() > kShown) shown += "...";
  return "'" + one_line(shown) + "'";
}

// parse_json with its refusal of deep nesting as the protocol's own error: the peer that sent the
// line loses its game, and the process goes on.
void parse_protocol_json(rapidjson::Document& document, std::string_view line) {
  try {
    parse_json(document, line);
  } catch (const JsonTooDeepError& e) {
    throw ProtocolError(std::string(e.what()) + ": " + quoted(line));
  }
}

void parse_object(rapidjson::Document& document, std::string_view line) {
  parse_protocol_json(document, line);
  if (document.HasParseError() || !document.IsObject()) {
    throw ProtocolError("a line that is not a JSON object: " + quoted(line));
  }
}

const rapidjson::Value* member(const rapidjson::Value& object, const char* key) {
  const auto it = object.FindMember(key);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

std::string string_field(const rapidjson::Value& object, const char* key, std::string_view line) {
  const rapidjson::Value* value = member(object, key);
  if (value == nullptr || !value->IsString()) {
    throw ProtocolError(std::string("a message without a string '") + key + "': " + quoted(line));
  }
  return std::string(value->GetString(), value->GetStringLength());
}

std::int64_t integer_field(const rapidjson::Value& object, const char* key, std::string_view line,
                           std::int64_t low, std::int64_t high) {
  const rapidjson::Value* value = member(object, key);
  if (value == nullptr || !value->IsInt64() || value->GetInt64() < low ||
      value->GetInt64() > high) {
    throw ProtocolError(std::string("a message whose '") + key + "' is not an integer from " +
                        std::to_string(low) + " to " + std::to_string(high) + ": " + quoted(line));
  }
  return value->GetInt64();
}

double number_field(const rapidjson::Value& object, const char* key, std::string_view line) {
  const rapidjson::Value* value = member(object, key);
  if (value == nullptr || !value->IsNumber()) {
    throw ProtocolError(std::string("a message whose '") + key +
                        "' is not a number: " + quoted(line));
  }
  return value->GetDouble();
}

Action action_id(const rapidjson::Value& value, std::string_view line) {
  if (!value.IsUint64() || value.GetUint64() >= kInvalidAction) {
    throw ProtocolError("an action id that is not an integer from 0 to 4294967294: " +
                        quoted(line));
  }
  return static_cast<Action>(value.GetUint64());
}

std::string raw_json(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  Writer writer(buffer);
  value.Accept(writer);
  return finish(buffer);
}

double probability(const rapidjson::Value& value, std::string_view line) {
  if (!value.IsNumber() || !(value.GetDouble() >= 0.0 && value.GetDouble() <= 1.0)) {
    throw ProtocolError("a win_probability outside [0, 1]: " + quoted(line));
  }
  return value.GetDouble();
}

// The optional analysis of an action answer; values become Sling's expected return in [-1, 1].
std::optional<Analysis> answer_analysis(const rapidjson::Value& object, std::string_view line) {
  Analysis analysis;
  bool any = false;
  if (const rapidjson::Value* p = member(object, "win_probability")) {
    analysis.value = 2 * probability(*p, line) - 1;
    any = true;
  }
  if (const rapidjson::Value* nodes = member(object, "nodes")) {
    if (!nodes->IsInt64() || nodes->GetInt64() < 0) {
      throw ProtocolError("a 'nodes' that is not a non-negative integer: " + quoted(line));
    }
    analysis.nodes = nodes->GetInt64();
    any = true;
  }
  if (const rapidjson::Value* exact = member(object, "exact")) {
    if (!exact->IsBool())
      throw ProtocolError("an 'exact' that is not true or false: " + quoted(line));
    analysis.exact = exact->GetBool();
  }
  if (const rapidjson::Value* actions = member(object, "actions")) {
    if (!actions->IsArray())
      throw ProtocolError("an 'actions' that is not a list: " + quoted(line));
    for (const rapidjson::Value& entry : actions->GetArray()) {
      if (!entry.IsObject())
        throw ProtocolError("an 'actions' entry that is not an object: " + quoted(line));
      ActionStat stat;
      const rapidjson::Value* id = member(entry, "id");
      if (id == nullptr) throw ProtocolError("an 'actions' entry without an id: " + quoted(line));
      stat.action = action_id(*id, line);
      if (const rapidjson::Value* p = member(entry, "win_probability")) {
        stat.value = 2 * probability(*p, line) - 1;
      }
      if (const rapidjson::Value* visits = member(entry, "visits")) {
        if (!visits->IsInt64() || visits->GetInt64() < 0) {
          throw ProtocolError("a 'visits' that is not a non-negative integer: " + quoted(line));
        }
        stat.visits = visits->GetInt64();
      }
      analysis.actions.push_back(stat);
    }
    any = true;
  }
  if (!any) return std::nullopt;
  return analysis;
}

}  // namespace

std::string compact_json(std::string_view text) {
  rapidjson::Document document;
  parse_protocol_json(document, text);
  if (document.HasParseError()) throw ProtocolError("malformed JSON: " + quoted(text));
  return raw_json(document);
}

namespace {

// Both sides' hello: the protocol version and who is speaking.
std::string hello(const char* who_key, std::string_view who) {
  MessageWriter w("hello");
  w->Key("protocol");
  w->Int(kVersion);
  key_string(*w, who_key, who);
  return w.done();
}

}  // namespace

std::string hello_message(std::string_view sling_version) {
  return hello("sling", sling_version);
}

std::string new_game_message(const NewGame& game) {
  MessageWriter w("new_game");
  key_string(*w, "game", game.game);
  key_raw_object(*w, "rules", game.rules_json);
  w->Key("side");
  w->Int(game.side);
  w->Key("sides");
  w->StartArray();
  for (const std::string& side : game.sides)
    w->String(side.data(), static_cast<rapidjson::SizeType>(side.size()));
  w->EndArray();
  w->Key("seed");
  w->Uint64(game.seed);
  w->Key("time");
  w->StartObject();
  w->Key("move");
  w->Double(game.move_seconds);
  w->Key("game");
  w->Double(game.game_seconds);
  w->EndObject();
  key_raw_object(*w, "state", game.state_json);
  return w.done();
}

std::string ply_message(int ply, int player, Action action, std::string_view text) {
  MessageWriter w("ply");
  w->Key("ply");
  w->Int(ply);
  w->Key("player");
  w->Int(player);
  w->Key("action");
  w->Uint(action);
  key_string(*w, "text", text);
  return w.done();
}

std::string act_message(const ActRequest& request) {
  MessageWriter w("act");
  w->Key("ply");
  w->Int(request.ply);
  w->Key("player");
  w->Int(request.player);
  w->Key("time_left");
  w->Double(request.time_left);
  key_raw_object(*w, "state", request.state_json);
  key_string(*w, "state_text", request.state_text);
  w->Key("legal");
  w->StartArray();
  for (const LegalAction& action : request.legal) {
    w->StartObject();
    w->Key("id");
    w->Uint(action.id);
    key_string(*w, "text", action.text);
    w->EndObject();
  }
  w->EndArray();
  return w.done();
}

std::string game_over_message(int winner, double return0, double return1, std::string_view reason,
                              int plies) {
  MessageWriter w("game_over");
  w->Key("winner");
  w->Int(winner);
  w->Key("returns");
  w->StartArray();
  w->Double(return0);
  w->Double(return1);
  w->EndArray();
  key_string(*w, "reason", reason);
  w->Key("plies");
  w->Int(plies);
  return w.done();
}

std::string quit_message() {
  return R"({"type":"quit"})";
}

Answer parse_answer(std::string_view line) {
  rapidjson::Document document;
  parse_object(document, line);
  Answer answer;
  answer.type = string_field(document, "type", line);
  if (answer.type == "hello") {
    answer.protocol = static_cast<int>(integer_field(document, "protocol", line, 0, 1 << 30));
    if (const rapidjson::Value* name = member(document, "name"); name && name->IsString()) {
      answer.name = name->GetString();
    }
  } else if (answer.type == "action") {
    const rapidjson::Value* id = member(document, "id");
    if (id == nullptr) throw ProtocolError("an action without an id: " + quoted(line));
    answer.id = action_id(*id, line);
    answer.analysis = answer_analysis(document, line);
  } else if (answer.type == "resign") {
    if (const rapidjson::Value* reason = member(document, "reason"); reason && reason->IsString()) {
      answer.reason = reason->GetString();
    }
  } else if (answer.type != "ready") {
    throw ProtocolError("a message of unknown type " + quoted(answer.type));
  }
  return answer;
}

std::string hello_answer(std::string_view name) {
  return hello("name", name);
}

std::string ready_answer() {
  return R"({"type":"ready"})";
}

std::string action_answer(Action id, const Analysis& analysis) {
  MessageWriter w("action");
  w->Key("id");
  w->Uint(id);
  const auto to_probability = [](double value) { return std::clamp((value + 1) / 2, 0.0, 1.0); };
  if (!analysis.actions.empty() || analysis.nodes > 0 || analysis.exact) {
    w->Key("win_probability");
    w->Double(to_probability(analysis.value));
    w->Key("nodes");
    w->Int64(analysis.nodes);
    if (analysis.exact) {
      w->Key("exact");
      w->Bool(true);
    }
    w->Key("actions");
    w->StartArray();
    for (const ActionStat& stat : analysis.actions) {
      w->StartObject();
      w->Key("id");
      w->Uint(stat.action);
      w->Key("win_probability");
      w->Double(to_probability(stat.value));
      if (stat.visits > 0) {
        w->Key("visits");
        w->Int64(stat.visits);
      }
      w->EndObject();
    }
    w->EndArray();
  }
  return w.done();
}

HostMessage parse_host_message(std::string_view line) {
  rapidjson::Document document;
  parse_object(document, line);
  HostMessage message;
  message.type = string_field(document, "type", line);
  constexpr std::int64_t kMaxInt = 1 << 30;
  if (message.type == "hello") {
    message.protocol = static_cast<int>(integer_field(document, "protocol", line, 0, kMaxInt));
  } else if (message.type == "new_game") {
    NewGame& game = message.new_game;
    game.game = string_field(document, "game", line);
    const rapidjson::Value* rules = member(document, "rules");
    const rapidjson::Value* state = member(document, "state");
    if (rules == nullptr || !rules->IsObject() || state == nullptr || !state->IsObject()) {
      throw ProtocolError("a new_game without its 'rules' and 'state' objects: " + quoted(line));
    }
    game.rules_json = raw_json(*rules);
    game.state_json = raw_json(*state);
    game.side = static_cast<int>(integer_field(document, "side", line, 0, 1));
    const rapidjson::Value* seed = member(document, "seed");
    if (seed == nullptr || !seed->IsUint64()) {
      throw ProtocolError("a new_game whose 'seed' is not an integer from 0 to 2^64 - 1: " +
                          quoted(line));
    }
    game.seed = seed->GetUint64();
    if (const rapidjson::Value* time = member(document, "time"); time && time->IsObject()) {
      if (member(*time, "move")) game.move_seconds = number_field(*time, "move", line);
      if (member(*time, "game")) game.game_seconds = number_field(*time, "game", line);
    }
  } else if (message.type == "ply") {
    message.ply = static_cast<int>(integer_field(document, "ply", line, 0, kMaxInt));
    message.player = static_cast<int>(integer_field(document, "player", line, -1, 1));
    const rapidjson::Value* action = member(document, "action");
    if (action == nullptr) throw ProtocolError("a ply without its action: " + quoted(line));
    message.action = action_id(*action, line);
  } else if (message.type == "act") {
    message.ply = static_cast<int>(integer_field(document, "ply", line, 0, kMaxInt));
    message.player = static_cast<int>(integer_field(document, "player", line, 0, 1));
    const rapidjson::Value* state = member(document, "state");
    if (state == nullptr || !state->IsObject()) {
      throw ProtocolError("an act without its 'state' object: " + quoted(line));
    }
    message.state_json = raw_json(*state);
    const rapidjson::Value* legal = member(document, "legal");
    if (legal == nullptr || !legal->IsArray()) {
      throw ProtocolError("an act without its 'legal' list: " + quoted(line));
    }
    for (const rapidjson::Value& entry : legal->GetArray()) {
      const rapidjson::Value* id = entry.IsObject() ? member(entry, "id") : nullptr;
      if (id == nullptr) throw ProtocolError("a legal action without an id: " + quoted(line));
      message.legal.push_back(action_id(*id, line));
    }
    if (member(document, "time_left"))
      message.time_left = number_field(document, "time_left", line);
  }
  // game_over, quit and types of later versions need nothing more here.
  return message;
}

}  // namespace sling::protocol
