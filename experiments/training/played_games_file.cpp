#include "experiments/training/played_games_file.h"

#include <cstdint>
#include <cstring>
#include <string_view>

#include "engine/core/errors.h"
#include "engine/core/fnv1a.h"
#include "engine/core/io.h"

namespace sling::danelaw {
namespace {

constexpr std::string_view kMagic = "sling-danelaw-games\n";
constexpr std::uint32_t kVersion = 1;
constexpr std::uint32_t kDanesWon = 1, kHeldOut = 2;

template <class T>
void put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

// Reads fixed-size fields from the checked part of a file; running past its end is an error.
class Reader {
 public:
  Reader(std::string_view bytes, const std::string& origin) : bytes_(bytes), origin_(origin) {}
  template <class T>
  T get() {
    if (bytes_.size() - at_ < sizeof(T)) fail("truncated");
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  std::size_t left() const { return bytes_.size() - at_; }
  [[noreturn]] void fail(const std::string& problem) const {
    throw FileFormatError(origin_ + ": not a games file of sling train (" + problem + ")");
  }

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
  const std::string& origin_;
};

}  // namespace

std::string played_games_bytes(const std::vector<PlayedGame>& games) {
  std::string out(kMagic);
  put<std::uint32_t>(out, kVersion);
  put<std::uint64_t>(out, games.size());
  for (const PlayedGame& g : games) {
    put<std::uint32_t>(out, static_cast<std::uint32_t>(g.variant));
    put<std::uint32_t>(out, (g.danes_won ? kDanesWon : 0) | (g.held_out ? kHeldOut : 0));
    put<std::uint64_t>(out, g.history.size());
    for (const Action a : g.history) put<std::uint32_t>(out, static_cast<std::uint32_t>(a));
  }
  put<std::uint64_t>(out, fnv1a(out));
  return out;
}

std::vector<PlayedGame> played_games_from_bytes(const std::string& bytes,
                                                const std::string& origin) {
  Reader header(bytes, origin);
  if (bytes.size() < kMagic.size() + sizeof(std::uint64_t) ||
      std::string_view(bytes).substr(0, kMagic.size()) != kMagic) {
    header.fail("no magic line");
  }
  const std::string_view body(bytes.data(), bytes.size() - sizeof(std::uint64_t));
  std::uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + body.size(), sizeof stored);
  if (fnv1a(body) != stored) header.fail("checksum mismatch: corrupted or truncated");
  Reader in(body.substr(kMagic.size()), origin);
  if (in.get<std::uint32_t>() != kVersion) in.fail("unknown format version");
  const auto count = in.get<std::uint64_t>();
  // Each game takes at least 16 bytes: no count can size more than the file holds.
  if (count > in.left() / 16) in.fail("a game count past the end of the file");
  std::vector<PlayedGame> games(static_cast<std::size_t>(count));
  for (PlayedGame& g : games) {
    g.variant = static_cast<int>(in.get<std::uint32_t>());
    const auto flags = in.get<std::uint32_t>();
    if (flags > (kDanesWon | kHeldOut)) in.fail("unknown game flags");
    g.danes_won = flags & kDanesWon;
    g.held_out = flags & kHeldOut;
    const auto length = in.get<std::uint64_t>();
    if (length > in.left() / sizeof(std::uint32_t)) in.fail("a history past the end of the file");
    g.history.resize(static_cast<std::size_t>(length));
    for (Action& a : g.history) a = static_cast<Action>(in.get<std::uint32_t>());
  }
  if (in.left() != 0) in.fail("bytes after the last game");
  return games;
}

void save_played_games(const std::string& path, const std::vector<PlayedGame>& games) {
  write_file_atomic(path, played_games_bytes(games));
}

std::vector<PlayedGame> load_played_games(const std::string& path) {
  return played_games_from_bytes(read_file(path), path);
}

}  // namespace sling::danelaw
