#include "engine/core/record.h"

#include "engine/core/cereal_json.h"  // first: rapidjson failures become plain errors

#include <rapidjson/document.h>
#include <cereal/archives/binary.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include <algorithm>
#include <cstring>
#include <sstream>

#include "engine/core/io.h"

namespace sling {

namespace {

constexpr std::string_view kMagic = "sling-record";

template <class Archive>
void save_fields(Archive& archive, const GameRecord& record) {
  archive(cereal::make_nvp("format", std::string(kMagic)),
          cereal::make_nvp("version", GameRecord::kFormatVersion),
          cereal::make_nvp("game", record.game), cereal::make_nvp("rules", record.rules),
          cereal::make_nvp("seed", record.seed), cereal::make_nvp("history", record.history));
}

// The JSON form is read with rapidjson directly, field by field, so that every problem names its
// field; the optional "agents" list is read only when present.
GameRecord load_json(std::string_view text) {
  if (const std::string problem = json_syntax_problem(text); !problem.empty()) {
    throw FileFormatError(problem);
  }
  rapidjson::Document document;
  parse_json(document, text);
  if (!document.IsObject()) throw FileFormatError("expected a JSON object");
  static constexpr std::string_view kKeys[] = {"format", "version", "game",   "rules",
                                               "seed",   "history", "agents", "turn_limit"};
  for (auto it = document.MemberBegin(); it != document.MemberEnd(); ++it) {
    const std::string_view key(it->name.GetString(), it->name.GetStringLength());
    if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys)) {
      throw FileFormatError("unknown field '" + std::string(key) +
                            "' (fields: format, version, game, rules, seed, history, agents, "
                            "turn_limit)");
    }
  }
  auto field = [&](const char* name) -> const rapidjson::Value& {
    const auto it = document.FindMember(name);
    if (it == document.MemberEnd())
      throw FileFormatError(std::string("field '") + name + "' is missing");
    return it->value;
  };
  auto wrong = [](const char* name, const char* expected) {
    return FileFormatError(std::string("field '") + name + "': expected " + expected);
  };
  auto string_field = [&](const char* name) {
    const rapidjson::Value& value = field(name);
    if (!value.IsString()) throw wrong(name, "a string");
    return std::string(value.GetString(), value.GetStringLength());
  };
  if (string_field("format") != kMagic) throw FileFormatError("not a Sling game record");
  const rapidjson::Value& version = field("version");
  if (!version.IsInt()) throw wrong("version", "an integer");
  if (version.GetInt() != GameRecord::kFormatVersion) {
    throw FileFormatError("game record version " + std::to_string(version.GetInt()) +
                          " is not supported (expected " +
                          std::to_string(GameRecord::kFormatVersion) + ")");
  }
  GameRecord record;
  record.game = string_field("game");
  record.rules = string_field("rules");
  const rapidjson::Value& seed = field("seed");
  if (!seed.IsUint64()) throw wrong("seed", "an integer from 0 to 2^64 - 1");
  record.seed = seed.GetUint64();
  const rapidjson::Value& history = field("history");
  if (!history.IsArray()) throw wrong("history", "a list of actions");
  record.history.reserve(history.Size());
  for (const rapidjson::Value& action : history.GetArray()) {
    if (!action.IsUint()) throw wrong("history", "a list of non-negative integers");
    record.history.push_back(action.GetUint());
  }
  if (const auto agents = document.FindMember("agents"); agents != document.MemberEnd()) {
    if (!agents->value.IsArray() || agents->value.Size() != 2) {
      throw wrong("agents", "a list of two agent specs");
    }
    for (const rapidjson::Value& agent : agents->value.GetArray()) {
      if (!agent.IsString()) throw wrong("agents", "a list of two agent specs");
      record.agents.emplace_back(agent.GetString(), agent.GetStringLength());
    }
  }
  if (const auto limit = document.FindMember("turn_limit"); limit != document.MemberEnd()) {
    if (!limit->value.IsInt() || limit->value.GetInt() < 0 || limit->value.GetInt() > 65535) {
      throw wrong("turn_limit", "an integer from 0 to 65535");
    }
    record.turn_limit = limit->value.GetInt();
  }
  return record;
}

template <class Archive>
GameRecord load_fields(Archive& archive) {
  std::string magic;
  int version = 0;
  GameRecord record;
  archive(cereal::make_nvp("format", magic));
  if (magic != kMagic) throw FileFormatError("not a Sling game record");
  archive(cereal::make_nvp("version", version));
  if (version != GameRecord::kFormatVersion) {
    throw FileFormatError("game record version " + std::to_string(version) +
                          " is not supported (expected " +
                          std::to_string(GameRecord::kFormatVersion) + ")");
  }
  archive(cereal::make_nvp("game", record.game), cereal::make_nvp("rules", record.rules),
          cereal::make_nvp("seed", record.seed), cereal::make_nvp("history", record.history));
  return record;
}

// cereal's binary loader trusts length prefixes, so a corrupted prefix could request gigabytes.
// Walk the known layout first and check every length against the bytes that remain.
void check_binary_layout(std::string_view bytes) {
  std::size_t at = 0;
  auto take = [&](std::size_t n) {
    if (n > bytes.size() - at) throw FileFormatError("truncated or corrupted game record");
    at += n;
  };
  auto take_length = [&](std::size_t element_size) {
    take(sizeof(std::uint64_t));
    std::uint64_t length = 0;
    std::memcpy(&length, bytes.data() + at - sizeof(length), sizeof(length));
    if (length > (bytes.size() - at) / element_size) {
      throw FileFormatError("truncated or corrupted game record");
    }
    take(static_cast<std::size_t>(length) * element_size);
  };
  take_length(1);               // format
  take(sizeof(int));            // version
  take_length(1);               // game
  take_length(1);               // rules
  take(sizeof(std::uint64_t));  // seed
  take_length(sizeof(Action));  // history
  if (at != bytes.size()) throw FileFormatError("trailing bytes after the game record");
}

}  // namespace

std::string record_to_json(const GameRecord& record) {
  std::ostringstream out;
  {
    cereal::JSONOutputArchive archive(out);
    save_fields(archive, record);
    if (!record.agents.empty()) archive(cereal::make_nvp("agents", record.agents));
    if (record.turn_limit > 0) archive(cereal::make_nvp("turn_limit", record.turn_limit));
  }
  out << '\n';
  return out.str();
}

std::string record_to_binary(const GameRecord& record) {
  std::ostringstream out(std::ios::binary);
  {
    cereal::BinaryOutputArchive archive(out);
    save_fields(archive, record);
  }
  return out.str();
}

GameRecord record_from_text(std::string_view bytes) {
  std::size_t first = 0;
  while (first < bytes.size() && (bytes[first] == ' ' || bytes[first] == '\n' ||
                                  bytes[first] == '\t' || bytes[first] == '\r')) {
    ++first;
  }
  try {
    if (first < bytes.size() && bytes[first] == '{') return load_json(bytes);
    std::istringstream in{std::string(bytes)};
    check_binary_layout(bytes);
    cereal::BinaryInputArchive archive(in);
    return load_fields(archive);
  } catch (const FileFormatError&) {
    throw;
  } catch (const std::exception& e) {
    throw FileFormatError("corrupted game record: " + plain_json_problem(e.what()));
  }
}

void save_record(const std::string& path, const GameRecord& record, bool binary) {
  write_file_atomic(path, binary ? record_to_binary(record) : record_to_json(record));
}

GameRecord load_record(const std::string& path) {
  const std::string text = read_file(path);
  try {
    return record_from_text(text);
  } catch (const FileFormatError& e) {
    throw FileFormatError(error_text("bad game record", path, e.what()));
  }
}

}  // namespace sling
