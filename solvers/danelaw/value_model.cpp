#include "solvers/danelaw/value_model.h"

#include "engine/core/cereal_json.h"  // first: it makes rapidjson assertions throw

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/core/embedded.h"
#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "engine/core/json_writer.h"
#include "engine/core/keyed_cache.h"
#include "engine/danelaw/danelaw.h"

namespace sling::danelaw {

namespace {

constexpr std::string_view kFormat = "sling-danelaw-value";
constexpr int kLinearVersion = 1;
constexpr int kNetworkVersion = 2;  // with hidden units
constexpr int kTownsVersion = 3;    // the linear model with town terms

// A movement roll of 2d6 averages 7: "within 7" is one typical half-turn, "within 14" two.
constexpr int kOneTurn = 7;
constexpr int kTwoTurns = 14;

}  // namespace

const std::array<std::string_view, kFeatureCount>& feature_names() {
  static const std::array<std::string_view, kFeatureCount> names = {
      "bias",          "towns_held",        "towns_held_late", "turns_left",
      "danes_on_map",  "danes_in_pool",     "english_field",   "english_pool",
      "militia",       "danes_reach_empty", "danes_reach_two", "danes_closer",
      "english_reach", "english_closer",    "defended_towns",  "reach_empty_left",
      "closer_left",   "danes_at_sea"};
  return names;
}

Features extract_features(const DanelawGame& game, const State& s) {
  const HexMap& map = game.map();
  const DanelawRules& rules = game.rules();
  const double base = rules.pool;
  const double needed = rules.towns_to_win;
  const double played =
      std::clamp((s.turn - 1 + (s.side == kEnglish ? 0.5 : 0.0)) / rules.turn_limit, 0.0, 1.0);
  const double left = 1.0 - played;

  FixedVector<std::uint16_t, kMaxArmies> danes, english_field;
  HexSet danish_hexes, english_hexes;
  int danes_at_sea = 0, militia = 0;
  for (int i = 0; i < s.army_count; ++i) {
    const Army& a = s.armies[i];
    if (a.side == kDanes) {
      danes.push_back(a.hex);
      danish_hexes.set(a.hex);
      danes_at_sea += map.hex(a.hex).is_sea();
    } else {
      english_hexes.set(a.hex);
      if (a.flags & kMilitia) {
        ++militia;
      } else {
        english_field.push_back(a.hex);
      }
    }
  }
  // Each side's cost to reach every hex from its nearest army.  The field is a Dijkstra on the
  // reversed graph, so it measures the way back from a hex to the army; the rules' costs differ
  // by direction only in terrain-change extras and landings, which is close enough for a feature.
  std::array<int, kMaxHexes> danish_cost, english_cost;
  const std::span<int> danish_span(danish_cost.data(), map.size());
  const std::span<int> english_span(english_cost.data(), map.size());
  const ScratchPool::Lease scratch = game.borrow_scratch();
  game.movement().distance_field(kDanes, std::span<const std::uint16_t>(danes.data(), danes.size()),
                                 english_hexes, danish_span, scratch->movement);
  game.movement().distance_field(
      kEnglish, std::span<const std::uint16_t>(english_field.data(), english_field.size()),
      danish_hexes, english_span, scratch->movement);

  int reach_empty = 0, reach_two = 0, danes_closer = 0;
  int english_reach = 0, english_closer = 0, defended = 0;
  for (std::size_t t = 0; t < map.towns().size(); ++t) {
    const int hex = map.towns()[t].hex;
    const int d = danish_cost[hex], e = english_cost[hex];
    if (game.town_held_by_danes(s, static_cast<int>(t))) {
      if (danish_hexes.test(hex)) {
        ++defended;
        continue;
      }
      english_reach += e <= kOneTurn;
      english_closer += e < d;
    } else {
      if (english_hexes.test(hex)) continue;
      reach_empty += d <= kOneTurn;
      reach_two += d <= kTwoTurns;
      danes_closer += d < e;
    }
  }

  Features f{};
  f[feature::kBias] = 1.0;
  f[feature::kTownsHeld] = game.danish_town_count(s) / needed;
  f[feature::kTownsHeldLate] = f[feature::kTownsHeld] * played;
  f[feature::kTurnsLeft] = left;
  f[feature::kDanesOnMap] = static_cast<double>(danes.size()) / base;
  f[feature::kDanesInPool] = (s.pool[kDanes] + s.to_place) / base;
  f[feature::kEnglishField] = static_cast<double>(english_field.size()) / base;
  f[feature::kEnglishPool] = s.pool[kEnglish] / base;
  f[feature::kMilitia] = militia / base;
  f[feature::kDanesReachEmpty] = reach_empty / needed;
  f[feature::kDanesReachTwo] = reach_two / needed;
  f[feature::kDanesCloser] = danes_closer / needed;
  f[feature::kEnglishReach] = english_reach / needed;
  f[feature::kEnglishCloser] = english_closer / needed;
  f[feature::kDefendedTowns] = defended / needed;
  f[feature::kReachEmptyLeft] = f[feature::kDanesReachEmpty] * left;
  f[feature::kCloserLeft] = f[feature::kDanesCloser] * left;
  f[feature::kDanesAtSea] = danes_at_sea / base;
  return f;
}

TownMasks town_masks(const DanelawGame& game, const State& s) {
  TownMasks m;
  m.held = s.danish_towns;
  HexSet danish_hexes;
  for (int i = 0; i < s.army_count; ++i) {
    if (s.armies[i].side == kDanes) danish_hexes.set(s.armies[i].hex);
  }
  const auto& towns = game.map().towns();
  for (std::size_t t = 0; t < towns.size(); ++t) {
    if ((m.held >> t & 1u) && danish_hexes.test(towns[t].hex))
      m.garrisoned |= std::uint64_t{1} << t;
  }
  return m;
}

bool TownTerms::applies(const DanelawGame& game) const {
  return !empty() && held.size() == game.map().towns().size() &&
         map_hash == game.map().content_hash();
}

double TownTerms::sum(TownMasks m) const {
  double z = 0;
  for (std::size_t t = 0; t < held.size(); ++t) {
    if (m.held >> t & 1u) z += held[t];
    if (m.garrisoned >> t & 1u) z += garrisoned[t];
  }
  return z;
}

double ValueModel::probability(const Features& f, TownMasks towns_of_position) const {
  double z = towns.sum(towns_of_position);
  for (int i = 0; i < kFeatureCount; ++i) z += weights[i] * f[i];
  for (std::size_t h = 0; h < hidden.size(); ++h) {
    double a = 0;
    for (int i = 0; i < kFeatureCount; ++i) a += hidden[h][i] * f[i];
    z += output[h] * std::tanh(a);
  }
  return 1.0 / (1.0 + std::exp(-std::clamp(z, -40.0, 40.0)));
}

double ValueModel::probability(const DanelawGame& game, const State& s) const {
  return probability(extract_features(game, s),
                     towns.applies(game) ? town_masks(game, s) : TownMasks{});
}

namespace {

[[noreturn]] void fail(const std::string& origin, const std::string& why) {
  throw FileFormatError("danelaw value model " + origin + ": " + why);
}

const rapidjson::Value& member(const rapidjson::Value& object, const char* key,
                               const std::string& origin) {
  const auto it = object.FindMember(key);
  if (it == object.MemberEnd()) fail(origin, std::string("missing '") + key + "'");
  return it->value;
}

double real(const rapidjson::Value& object, const char* key, const std::string& origin) {
  const rapidjson::Value& v = member(object, key, origin);
  if (!v.IsNumber() || !std::isfinite(v.GetDouble())) {
    fail(origin, std::string("'") + key + "' is not a finite number");
  }
  return v.GetDouble();
}

std::int64_t integer(const rapidjson::Value& object, const char* key, const std::string& origin) {
  const rapidjson::Value& v = member(object, key, origin);
  if (!v.IsInt64() || v.GetInt64() < 0) {
    fail(origin, std::string("'") + key + "' is not a non-negative integer");
  }
  return v.GetInt64();
}

// A seed spans every 64-bit value (`--seed` takes any): above 2^63 - 1 it is no int64.
std::uint64_t seed_field(const rapidjson::Value& object, const char* key,
                         const std::string& origin) {
  const rapidjson::Value& v = member(object, key, origin);
  if (!v.IsUint64()) fail(origin, std::string("'") + key + "' is not a 64-bit unsigned integer");
  return v.GetUint64();
}

double finite(const rapidjson::Value& v, const std::string& what, const std::string& origin) {
  if (!v.IsNumber() || !std::isfinite(v.GetDouble()))
    fail(origin, what + " is not a finite number");
  return v.GetDouble();
}

// The hidden units of a version-2 file: `hidden`, one row of feature weights a unit, and
// `output`, one weight a unit.
void read_network(const rapidjson::Value& doc, const std::string& origin, ValueModel& model) {
  const rapidjson::Value& hidden = member(doc, "hidden", origin);
  const rapidjson::Value& output = member(doc, "output", origin);
  if (!hidden.IsArray() || !output.IsArray() || hidden.Size() != output.Size() || hidden.Empty() ||
      hidden.Size() > static_cast<unsigned>(kMaxHiddenUnits)) {
    fail(origin, "expected 'hidden' and 'output' of the same length, 1 to " +
                     std::to_string(kMaxHiddenUnits) + " units");
  }
  for (unsigned h = 0; h < hidden.Size(); ++h) {
    const rapidjson::Value& row = hidden[h];
    if (!row.IsArray() || row.Size() != static_cast<unsigned>(kFeatureCount)) {
      fail(origin, "hidden unit " + std::to_string(h) + " does not have " +
                       std::to_string(kFeatureCount) + " weights");
    }
    Features weights{};
    for (int i = 0; i < kFeatureCount; ++i) {
      weights[i] =
          finite(row[static_cast<unsigned>(i)],
                 "hidden unit " + std::to_string(h) + " weight " + std::to_string(i), origin);
    }
    model.hidden.push_back(weights);
    model.output.push_back(finite(output[h], "output weight " + std::to_string(h), origin));
  }
}

// The town terms of a version-3 file: `towns`, the map's hash and names and two weights a town.
void read_towns(const rapidjson::Value& doc, const std::string& origin, ValueModel& model) {
  const rapidjson::Value& towns = member(doc, "towns", origin);
  if (!towns.IsObject()) fail(origin, "'towns' is not an object");
  const rapidjson::Value& hash = member(towns, "map_hash", origin);
  if (!hash.IsString() || hash.GetStringLength() == 0) fail(origin, "'map_hash' is not a hash");
  const rapidjson::Value& names = member(towns, "names", origin);
  const rapidjson::Value& held = member(towns, "held", origin);
  const rapidjson::Value& garrisoned = member(towns, "garrisoned", origin);
  if (!names.IsArray() || !held.IsArray() || !garrisoned.IsArray() || names.Empty() ||
      names.Size() > static_cast<unsigned>(kMaxTowns) || held.Size() != names.Size() ||
      garrisoned.Size() != names.Size()) {
    fail(origin, "expected 'names', 'held' and 'garrisoned' of the same length, 1 to " +
                     std::to_string(kMaxTowns) + " towns");
  }
  TownTerms& terms = model.towns;
  terms.map_hash = hash.GetString();
  for (unsigned t = 0; t < names.Size(); ++t) {
    if (!names[t].IsString()) fail(origin, "town name " + std::to_string(t) + " is not a string");
    terms.names.emplace_back(names[t].GetString());
    terms.held.push_back(finite(held[t], "town " + std::to_string(t) + "'s 'held'", origin));
    terms.garrisoned.push_back(
        finite(garrisoned[t], "town " + std::to_string(t) + "'s 'garrisoned'", origin));
  }
}

}  // namespace

std::string ValueModel::to_json() const {
  auto number = [](double x) { return JsonNumber::significant(x, 10); };
  JsonWriter json;
  json.begin_object().key("format").string(kFormat);
  json.key("version").integer(!towns.empty()   ? kTownsVersion
                              : hidden.empty() ? kLinearVersion
                                               : kNetworkVersion);
  json.key("features").begin_array(JsonLayout::one_line);
  for (int i = 0; i < kFeatureCount; ++i) json.string(feature_names()[i]);
  json.end_array().key("weights").begin_array(JsonLayout::one_line);
  for (int i = 0; i < kFeatureCount; ++i) json.number(number(weights[i]));
  json.end_array();
  if (!hidden.empty()) {
    json.key("hidden").begin_array(JsonLayout::element_lines);
    for (const Features& row : hidden) {
      json.begin_array(JsonLayout::one_line);
      for (int i = 0; i < kFeatureCount; ++i) json.number(number(row[i]));
      json.end_array();
    }
    json.end_array().key("output").begin_array(JsonLayout::one_line);
    for (double v : output) json.number(number(v));
    json.end_array();
  }
  if (!towns.empty()) {
    json.key("towns").begin_object(JsonLayout::element_lines);
    json.key("map_hash").string(towns.map_hash);
    json.key("names").begin_array(JsonLayout::one_line);
    for (const std::string& name : towns.names) json.string(name);
    json.end_array().key("held").begin_array(JsonLayout::one_line);
    for (double v : towns.held) json.number(number(v));
    json.end_array().key("garrisoned").begin_array(JsonLayout::one_line);
    for (double v : towns.garrisoned) json.number(number(v));
    json.end_array().end_object();
  }
  json.key("training").begin_object(JsonLayout::one_line);
  json.key("command").string(command).key("seed").integer(seed).key("games").integer(games);
  json.key("iterations").integer(iterations).key("states").integer(states);
  json.key("log_loss").number(number(log_loss)).end_object();
  json.key("calibration").begin_array(JsonLayout::element_lines);
  for (const CalibrationBin& b : calibration) {
    json.begin_object(JsonLayout::one_line);
    json.key("low").number(number(b.low)).key("high").number(number(b.high));
    json.key("predicted").number(number(b.predicted)).key("observed").number(number(b.observed));
    json.key("count").integer(b.count).end_object();
  }
  return json.end_array().end_object().take_document();
}

ValueModel ValueModel::from_json(std::string_view text, const std::string& origin) {
  rapidjson::Document doc;
  try {
    parse_json(doc, text);
  } catch (const JsonTooDeepError& e) {
    fail(origin, std::string("not JSON (") + e.what() + ")");
  }
  if (doc.HasParseError()) {
    fail(origin, std::string("not JSON (") + rapidjson::GetParseError_En(doc.GetParseError()) +
                     " at offset " + std::to_string(doc.GetErrorOffset()) + ")");
  }
  if (!doc.IsObject()) fail(origin, "expected a JSON object");
  const rapidjson::Value& format = member(doc, "format", origin);
  if (!format.IsString() || std::string_view(format.GetString()) != kFormat) {
    fail(origin, "not a danelaw value model (format is not \"" + std::string(kFormat) + "\")");
  }
  const std::int64_t version = integer(doc, "version", origin);
  if (version < kLinearVersion || version > kTownsVersion) {
    fail(origin, "version " + std::to_string(version) + " is not a supported version (" +
                     std::to_string(kLinearVersion) + " to " + std::to_string(kTownsVersion) + ")");
  }
  const rapidjson::Value& features = member(doc, "features", origin);
  const rapidjson::Value& weights = member(doc, "weights", origin);
  if (!features.IsArray() || !weights.IsArray() ||
      features.Size() != static_cast<unsigned>(kFeatureCount) ||
      weights.Size() != static_cast<unsigned>(kFeatureCount)) {
    fail(origin, "expected " + std::to_string(kFeatureCount) + " features and weights");
  }
  ValueModel model;
  for (int i = 0; i < kFeatureCount; ++i) {
    const rapidjson::Value& name = features[static_cast<unsigned>(i)];
    if (!name.IsString() || std::string_view(name.GetString()) != feature_names()[i]) {
      fail(origin, "feature " + std::to_string(i) + " is not '" + std::string(feature_names()[i]) +
                       "' (a model of another feature set)");
    }
    const rapidjson::Value& w = weights[static_cast<unsigned>(i)];
    if (!w.IsNumber() || !std::isfinite(w.GetDouble())) {
      fail(origin, "weight " + std::to_string(i) + " is not a finite number");
    }
    model.weights.push_back(w.GetDouble());
  }
  if (version == kNetworkVersion) read_network(doc, origin, model);
  if (version == kTownsVersion) read_towns(doc, origin, model);
  const rapidjson::Value& training = member(doc, "training", origin);
  if (!training.IsObject()) fail(origin, "'training' is not an object");
  const rapidjson::Value& command = member(training, "command", origin);
  if (!command.IsString()) fail(origin, "'command' is not a string");
  model.command = command.GetString();
  model.seed = seed_field(training, "seed", origin);
  model.games = static_cast<int>(integer(training, "games", origin));
  model.iterations = static_cast<int>(integer(training, "iterations", origin));
  model.states = static_cast<int>(integer(training, "states", origin));
  model.log_loss = real(training, "log_loss", origin);
  const rapidjson::Value& bins = member(doc, "calibration", origin);
  if (!bins.IsArray()) fail(origin, "'calibration' is not an array");
  for (const rapidjson::Value& b : bins.GetArray()) {
    if (!b.IsObject()) fail(origin, "a calibration bin is not an object");
    model.calibration.push_back({real(b, "low", origin), real(b, "high", origin),
                                 real(b, "predicted", origin), real(b, "observed", origin),
                                 static_cast<int>(integer(b, "count", origin))});
  }
  return model;
}

ValueModel ValueModel::load(const std::string& path) {
  return from_json(read_file(path), "'" + path + "'");
}

namespace {

// A model is small (a few hundred bytes); a handful covers a tournament of several trained models.
KeyedCache<ValueModel> held_models(8);

}  // namespace

std::shared_ptr<const ValueModel> ValueModel::shared(const std::string& path) {
  return held_models.get(file_content_key(path), [&] { return load(path); });
}

const ValueModel& ValueModel::embedded() {
  static const ValueModel model =
      from_json(embedded_file("danelaw_value.json"), "embedded danelaw_value.json");
  return model;
}

}  // namespace sling::danelaw
