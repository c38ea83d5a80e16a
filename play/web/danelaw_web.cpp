#include "play/web/danelaw_web.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string_view>

#include "engine/core/embedded.h"
#include "engine/core/errors.h"

namespace sling::web {
namespace {

// The map of a danelaw game from a request's "map" field: a built-in map's name, or the text of a
// map file the page uploaded (the server never opens a path).
struct MapField {
  std::optional<std::string> builtin;           // a built-in map's name
  std::shared_ptr<const danelaw::HexMap> file;  // an uploaded map file, parsed
  std::string name;                             // what the rules call the uploaded map
};

constexpr std::size_t kMaxMapNameLength = 200;
constexpr std::string_view kDefaultUploadName = "uploaded-map.json";

bool is_map_text(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '{';
}

bool is_built_in(const std::string& name) {
  try {
    embedded_file(name);
    return true;
  } catch (const FileFormatError&) {
    return false;
  }
}

// The name an uploaded map goes by in the rules, and so in saves: the file's own name without its
// folder, as `sling play danelaw --map FILE` records the path it was given, so that a web save
// continues in the terminal from the folder that holds the map file.
std::string upload_name(const std::optional<std::string>& given) {
  std::string name = given.value_or("");
  if (const std::size_t slash = name.find_last_of("/\\"); slash != std::string::npos)
    name = name.substr(slash + 1);
  if (name.empty()) return std::string(kDefaultUploadName);
  if (name.size() > kMaxMapNameLength) throw bad_request("'map_name' is too long");
  if (std::any_of(name.begin(), name.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    throw bad_request("'map_name' has a control character");
  return name;
}

std::optional<MapField> map_field(const rapidjson::Value& request) {
  const std::optional<std::string> text = text_or_json_field(request, "map");
  if (!text) {
    if (string_field(request, "map_name")) throw bad_request("'map_name' needs a 'map' file");
    return std::nullopt;
  }
  MapField field;
  if (!is_map_text(*text)) {
    if (string_field(request, "map_name"))
      throw bad_request("'map_name' names an uploaded map file, not a built-in map");
    field.builtin = *text;
    return field;
  }
  field.name = upload_name(string_field(request, "map_name"));
  field.file = std::make_shared<const danelaw::HexMap>(danelaw::HexMap::parse(*text, field.name));
  // A name that is also a built-in file's would make the terminal read the built-in one when it
  // loads the save: only the built-in map itself, unchanged, may go by its name.
  if (is_built_in(field.name)) {
    bool same = false;
    try {
      same = danelaw::HexMap::parse(embedded_file(field.name), field.name).content_hash() ==
             field.file->content_hash();
    } catch (const RulesError&) {
    }
    if (!same)
      throw bad_request("the map file '" + field.name +
                        "' has the name of a file built into Sling but other content; rename it");
  }
  return field;
}

// The rules with `map`, when given, as their map (and without their content hash, as `--map FILE`
// does).
std::string danelaw_rules_text(const std::string& rules, const std::optional<std::string>& map) {
  rapidjson::Document document = json_detail::parse_or_throw(rules, "danelaw rules");
  if (!document.IsObject()) throw bad_request("danelaw rules must be a JSON object");
  if (map) {
    if (document.HasMember("map")) document.RemoveMember("map");
    if (document.HasMember("map_hash")) document.RemoveMember("map_hash");
    document.AddMember("map", rapidjson::Value(map->c_str(), document.GetAllocator()),
                       document.GetAllocator());
  }
  return json_detail::to_text(document);
}

// A string member of danelaw rules, or "" when absent.
std::string rules_string(const std::string& rules_text, const char* key) {
  rapidjson::Document document = json_detail::parse_or_throw(rules_text, "danelaw rules");
  if (!document.IsObject()) throw bad_request("danelaw rules must be a JSON object");
  const auto it = document.FindMember(key);
  if (it == document.MemberEnd()) return "";
  if (!it->value.IsString())
    throw bad_request(std::string("the rules' '") + key + "' must be a string");
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

// The rules' map, when they name one, must be built into Sling: a request never names a file.
void check_built_in_map(const std::string& rules_text, const std::string& advice) {
  const std::string name = rules_string(rules_text, "map");
  if (!name.empty() && !is_built_in(name))
    throw bad_request("map '" + name + "' is not built into Sling; " + advice);
}

// The danelaw game of a request: a new game (on a built-in map or an uploaded one), or a saved
// game's rules, on the map built into Sling that they name or on the uploaded map file they were
// played on (the rules' content hash must match it; their name for the map is kept).
danelaw::DanelawGame danelaw_game(const std::string& rules, const std::optional<MapField>& map,
                                  bool saved) {
  if (saved) {
    if (map && map->builtin)
      throw bad_request(
          "a save names its own map; with a save, 'map' is the map file it was "
          "played on");
    if (!map) {
      check_built_in_map(rules,
                         "choose the map file the game was played on together with the save");
      return danelaw::DanelawGame::from_rules_json(rules);
    }
    const std::string hash = rules_string(rules, "map_hash");
    if (!hash.empty() && hash != map->file->content_hash()) {
      throw bad_request("the map file does not fit the save: it was played on map '" +
                        rules_string(rules, "map") + "' with content hash " + hash +
                        ", the file's content hashes to " + map->file->content_hash());
    }
    return danelaw::DanelawGame::from_rules_json(rules, map->file);
  }
  if (map && map->file) {
    return danelaw::DanelawGame::from_rules_json(danelaw_rules_text(rules, map->name), map->file);
  }
  const std::string text = danelaw_rules_text(rules, map ? map->builtin : std::nullopt);
  check_built_in_map(text, "upload the map file to play on it");
  return danelaw::DanelawGame::from_rules_json(text);
}

}  // namespace

danelaw::DanelawGame WebTraits<danelaw::DanelawGame>::from_request(const std::string& rules,
                                                                   const rapidjson::Value& request,
                                                                   bool saved) {
  return danelaw_game(rules, map_field(request), saved);
}

std::vector<std::string> WebTraits<danelaw::DanelawGame>::built_in_maps() {
  return {danelaw::DanelawRules{}.map};
}

}  // namespace sling::web
