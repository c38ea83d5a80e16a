#include "experiments/training/generations_checkpoint.h"

#include "engine/core/cereal_json.h"  // first: rapidjson failures become plain errors

#include <rapidjson/error/en.h>

#include <cmath>
#include <string_view>

#include "engine/core/errors.h"
#include "engine/core/json_writer.h"

namespace sling::danelaw {
namespace {

constexpr std::string_view kFormat = "sling-train-generations";
constexpr int kVersion = 1;

// Reads one checked JSON object's fields; any problem is a FileFormatError naming the file.
class Fields {
 public:
  Fields(const rapidjson::Value& object, const std::string& origin)
      : object_(object), origin_(origin) {
    if (!object.IsObject()) fail("expected a JSON object");
  }
  [[noreturn]] void fail(const std::string& why) const {
    throw FileFormatError("training run " + origin_ + ": " + why);
  }
  const rapidjson::Value& member(const char* key) const {
    const auto it = object_.FindMember(key);
    if (it == object_.MemberEnd()) fail(std::string("missing '") + key + "'");
    return it->value;
  }
  int integer(const char* key, int low, int high) const {
    const rapidjson::Value& v = member(key);
    if (!v.IsInt() || v.GetInt() < low || v.GetInt() > high) {
      fail(std::string("'") + key + "' is not an integer from " + std::to_string(low) + " to " +
           std::to_string(high));
    }
    return v.GetInt();
  }
  double real(const char* key) const {
    const rapidjson::Value& v = member(key);
    if (!v.IsNumber() || !std::isfinite(v.GetDouble())) {
      fail(std::string("'") + key + "' is not a finite number");
    }
    return v.GetDouble();
  }
  std::string text(const char* key) const {
    const rapidjson::Value& v = member(key);
    if (!v.IsString()) fail(std::string("'") + key + "' is not a string");
    return v.GetString();
  }
  bool boolean(const char* key) const {
    const rapidjson::Value& v = member(key);
    if (!v.IsBool()) fail(std::string("'") + key + "' is not true or false");
    return v.GetBool();
  }

 private:
  const rapidjson::Value& object_;
  const std::string& origin_;
};

constexpr int kMostGames = 1 << 30;

// The winners of a curve's pairs: -1, 0 or 1 each, two a pair.
std::vector<int> winners_from(const Fields& f, const rapidjson::Value& winners, const char* key) {
  if (!winners.IsArray() || winners.Size() % 2 != 0) {
    f.fail(std::string("'") + key + "' is not a list of pairs");
  }
  std::vector<int> out;
  for (const rapidjson::Value& w : winners.GetArray()) {
    if (!w.IsInt() || w.GetInt() < -1 || w.GetInt() > 1) {
      f.fail("a curve winner is not -1, 0 or 1");
    }
    out.push_back(w.GetInt());
  }
  return out;
}

GenerationRecord record_from(const rapidjson::Value& value, const std::string& origin) {
  const Fields f(value, origin);
  GenerationRecord r;
  r.generation = f.integer("generation", 1, kMostGames);
  r.games = f.integer("games", 0, kMostGames);
  r.danish_wins = f.integer("danish_wins", 0, r.games);
  r.positions = f.integer("positions", 0, kMostGames);
  r.log_loss = f.real("log_loss");
  r.champion_log_loss = f.real("champion_log_loss");
  r.gate = f.text("gate");
  r.gate_elo = f.real("gate_elo");
  r.gate_elo_ci = f.real("gate_elo_ci");
  r.accepted = f.boolean("accepted");
  r.champion = f.integer("champion", 0, r.generation);
  r.curve_winners = winners_from(f, f.member("curve_winners"), "curve_winners");
  return r;
}

}  // namespace

std::string checkpoint_to_json(const GenerationCheckpoint& checkpoint) {
  JsonWriter json;
  json.begin_object().key("format").string(kFormat).key("version").integer(kVersion);
  json.key("settings").string(checkpoint.settings);
  json.key("self_played").integer(checkpoint.self_played);
  json.key("generations").begin_array();
  // 17 significant digits: a resumed run reads back the very doubles it wrote.
  const auto exact = [](double x) { return JsonNumber::significant(x, 17); };
  for (const GenerationRecord& r : checkpoint.generations) {
    json.begin_object().key("generation").integer(r.generation).key("games").integer(r.games);
    json.key("danish_wins").integer(r.danish_wins).key("positions").integer(r.positions);
    json.key("log_loss").number(exact(r.log_loss));
    json.key("champion_log_loss").number(exact(r.champion_log_loss)).key("gate").string(r.gate);
    json.key("gate_elo").number(exact(r.gate_elo)).key("gate_elo_ci").number(exact(r.gate_elo_ci));
    json.key("accepted").boolean(r.accepted).key("champion").integer(r.champion);
    json.key("curve_winners").begin_array(JsonLayout::one_line);
    for (const int w : r.curve_winners) json.integer(w);
    json.end_array().end_object();
  }
  json.end_array();
  if (!checkpoint.start_curve_winners.empty()) {
    json.key("start_curve_winners").begin_array(JsonLayout::one_line);
    for (const int w : checkpoint.start_curve_winners) json.integer(w);
    json.end_array();
  }
  json.end_object();
  return json.take_document();
}

GenerationCheckpoint checkpoint_from_json(std::string_view text, const std::string& origin) {
  rapidjson::Document doc;
  const auto fail = [&](const std::string& why) {
    throw FileFormatError("training run " + origin + ": " + why);
  };
  try {
    parse_json(doc, text);
  } catch (const JsonTooDeepError& e) {
    fail(std::string("not JSON (") + e.what() + ")");
  }
  if (doc.HasParseError()) {
    fail(std::string("not JSON (") + rapidjson::GetParseError_En(doc.GetParseError()) +
         " at offset " + std::to_string(doc.GetErrorOffset()) + ")");
  }
  const Fields f(doc, origin);
  if (f.text("format") != kFormat)
    fail("not a training run (format is not \"" + std::string(kFormat) + "\")");
  if (f.integer("version", 0, 1 << 30) != kVersion) fail("an unsupported version");
  GenerationCheckpoint checkpoint;
  checkpoint.settings = f.text("settings");
  checkpoint.self_played = f.integer("self_played", 0, kMostGames);
  const rapidjson::Value& generations = f.member("generations");
  if (!generations.IsArray()) fail("'generations' is not a list");
  for (const rapidjson::Value& g : generations.GetArray()) {
    checkpoint.generations.push_back(record_from(g, origin));
    if (checkpoint.generations.back().generation !=
        static_cast<int>(checkpoint.generations.size())) {
      fail("the generations are not numbered 1, 2, ... in order");
    }
  }
  if (const auto start = doc.FindMember("start_curve_winners"); start != doc.MemberEnd()) {
    checkpoint.start_curve_winners = winners_from(f, start->value, "start_curve_winners");
  }
  const int finished = static_cast<int>(checkpoint.generations.size());
  if (checkpoint.self_played < finished || checkpoint.self_played > finished + 1) {
    fail("its self-play count does not match its finished generations");
  }
  return checkpoint;
}

}  // namespace sling::danelaw
