#include "engine/core/record.h"

#include <cereal/archives/binary.hpp>
#include <cereal/archives/json.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

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
    std::istringstream in{std::string(bytes)};
    if (first < bytes.size() && bytes[first] == '{') {
      cereal::JSONInputArchive archive(in);
      return load_fields(archive);
    }
    check_binary_layout(bytes);
    cereal::BinaryInputArchive archive(in);
    return load_fields(archive);
  } catch (const FileFormatError&) {
    throw;
  } catch (const std::exception& e) {
    throw FileFormatError(std::string("corrupted game record: ") + e.what());
  }
}

void save_record(const std::string& path, const GameRecord& record, bool binary) {
  write_file_atomic(path, binary ? record_to_binary(record) : record_to_json(record));
}

GameRecord load_record(const std::string& path) {
  try {
    return record_from_text(read_file(path));
  } catch (const FileFormatError& e) {
    throw FileFormatError("'" + path + "': " + e.what());
  }
}

}  // namespace sling
