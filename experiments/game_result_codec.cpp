#include "experiments/game_result_codec.h"

#include <cstdint>
#include <cstring>

#include "engine/core/errors.h"

namespace sling {

namespace {

template <class T>
void put(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void put_text(std::string& out, const std::string& text) {
  put(out, static_cast<std::uint32_t>(text.size()));
  out += text;
}

// Reads what put/put_text wrote; false when the bytes run out.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  template <class T>
  bool get(T& value) {
    if (bytes_.size() < sizeof value) return false;
    std::memcpy(&value, bytes_.data(), sizeof value);
    bytes_.remove_prefix(sizeof value);
    return true;
  }
  bool get_text(std::string& text) {
    std::uint32_t size = 0;
    if (!get(size) || bytes_.size() < size) return false;
    text.assign(bytes_.substr(0, size));
    bytes_.remove_prefix(size);
    return true;
  }
  bool empty() const { return bytes_.empty(); }

 private:
  std::string_view bytes_;
};

}  // namespace

std::string encode_game_result(const GameResult& result) {
  std::string payload;
  put(payload, static_cast<std::int32_t>(result.winner));
  put(payload, static_cast<std::int32_t>(result.error_side));
  put(payload, static_cast<std::int32_t>(result.plies));
  put(payload, result.seconds);
  put_text(payload, result.end_reason);
  put_text(payload, result.error);
  // JSON, not the binary form: it keeps the record's agents and turn limit.
  put_text(payload, record_to_json(result.record));
  return payload;
}

bool decode_game_result(std::string_view bytes, GameResult& result) {
  Reader reader(bytes);
  std::int32_t winner = 0, error_side = 0, plies = 0;
  std::string record;
  if (!reader.get(winner) || !reader.get(error_side) || !reader.get(plies) ||
      !reader.get(result.seconds) || !reader.get_text(result.end_reason) ||
      !reader.get_text(result.error) || !reader.get_text(record) || !reader.empty()) {
    return false;
  }
  result.winner = winner;
  result.error_side = error_side;
  result.plies = plies;
  try {
    result.record = record_from_text(record);
  } catch (const FileFormatError&) {
    return false;
  }
  return true;
}

}  // namespace sling
