// The capped solution file: cereal binary, a header, then the body with its checksum.

#include <cstring>
#include <sstream>

#include <cereal/archives/binary.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include "engine/core/errors.h"
#include "engine/core/fnv1a.h"
#include "engine/core/io.h"
#include "engine/core/length_prefix_check.h"
#include "solvers/duel/capped_solution.h"
#include "solvers/duel/file_rules.h"
#include "solvers/duel/lattice_tables.h"

namespace sling::duel {

template <class Archive>
void serialize(Archive& ar, CappedOutcome& o) {
  ar(o.value, o.david_wins, o.draw, o.goliath_wins);
}

namespace {

constexpr const char* kMagic = "sling-duel-capped-solution";
constexpr const char* kUncappedMagic = "sling-duel-solution";

std::uint64_t checksum(const std::string& bytes) {
  return fnv1a(bytes);
}

template <class Archive, class Check>
void summary_fields(Archive& ar, CappedSummary& s, const Check& check) {
  std::uint8_t objective = static_cast<std::uint8_t>(s.objective);
  ar(s.turn_cap, objective, s.start, s.david_first, s.goliath_first, s.start_without_god,
     s.david_first_without_god, s.goliath_first_without_god);
  s.objective = static_cast<CappedObjective>(objective);
  check(sizeof(CappedOutcome));
  ar(s.start_by_cap);
  check(sizeof(CappedOutcome));
  ar(s.start_by_cap_without_god);
  ar(s.states, s.canonical_states, s.layers, s.keyframe_every, s.seconds, s.peak_memory_bytes,
     s.threads);
}

}  // namespace

void CappedDuelSolution::save(const std::string& path) const {
  std::ostringstream body;
  {
    cereal::BinaryOutputArchive archive(body);
    const std::string rules = game_.rules_json();
    const std::uint64_t pairs = index_.pairs();
    CappedSummary copy = summary_;  // (cereal's archive takes non-const references)
    archive(rules, pairs);
    summary_fields(archive, copy, [](std::size_t) {});
    archive(static_cast<std::uint64_t>(keyframes_.size()));
    for (const CappedKeyframe& key : keyframes_) archive(key.turns_left, key.values, key.lost_turn);
  }
  std::ostringstream out;
  {
    cereal::BinaryOutputArchive archive(out);
    const std::string magic = kMagic, bytes = body.str();
    const std::uint32_t version = kFormatVersion;
    archive(magic, version, bytes, checksum(bytes));
  }
  write_file_atomic(path, out.str());
}

CappedDuelSolution CappedDuelSolution::load(const std::string& path, const DuelGame* expected) {
  const std::string bytes = read_file(path);
  const std::string where = "capped duel solution '" + path + "'";
  // Cereal writes the magic string after its 8-byte length: check it before trusting any size.
  auto has_magic = [&](const std::string& magic) {
    return bytes.size() >= 8 + magic.size() && bytes.compare(8, magic.size(), magic) == 0;
  };
  if (has_magic(kUncappedMagic)) {
    throw FileFormatError(where +
                          ": a solution of the duel without a turn cap, not a capped one "
                          "(solve the capped rules with `sling solve duel --turn-cap N`)");
  }
  if (!has_magic(kMagic)) throw FileFormatError(where + ": not a Sling capped duel solution file");
  std::string rules, body;
  std::uint64_t pairs = 0, sum = 0, count = 0;
  CappedSummary summary;
  std::vector<CappedKeyframe> keyframes;
  try {
    std::istringstream in(bytes);
    cereal::BinaryInputArchive archive(in);
    const LengthPrefixCheck check(bytes, in, where);
    std::string magic;
    std::uint32_t version = 0;
    archive(magic, version);
    if (version != kFormatVersion) {
      throw FileFormatError(where + ": format version " + std::to_string(version) +
                            ", this Sling reads version " + std::to_string(kFormatVersion) +
                            " (solve again with `sling solve duel --turn-cap N`)");
    }
    check(1);
    archive(body, sum);
    if (checksum(body) != sum) throw FileFormatError(where + ": corrupted (checksum mismatch)");
    std::istringstream body_in(body);
    cereal::BinaryInputArchive fields(body_in);
    const LengthPrefixCheck body_check(body, body_in, where);
    body_check(1);
    fields(rules, pairs);
    summary_fields(fields, summary, body_check);
    fields(count);
    if (count > body.size()) throw FileFormatError(where + ": corrupted (keyframe count)");
    keyframes.resize(static_cast<std::size_t>(count));
    for (CappedKeyframe& key : keyframes) {
      fields(key.turns_left);
      body_check(sizeof(float));
      fields(key.values);
      body_check(sizeof(float));
      fields(key.lost_turn);
    }
  } catch (const FileFormatError&) {
    throw;
  } catch (const std::exception&) {
    // cereal's own words ("Failed to read 8 bytes from input stream! Read 3") say no more.
    throw FileFormatError(where + ": corrupted or truncated");
  }
  DuelGame game = detail::game_of_solution_file(where, rules, expected);
  // The sizes must be those of its rules' lattice and cap.
  const detail::LatticeTables lattice(game);
  const std::size_t layers = game.rules().god_enabled ? 6 : 3;
  const std::size_t canonical = lattice.canonical_pairs.size();
  bool sizes =
      pairs == lattice.index.pairs() && summary.turn_cap == game.rules().turn_cap &&
      summary.turn_cap > 0 && summary.keyframe_every >= 1 &&
      summary.layers == static_cast<int>(layers) &&
      summary.start_by_cap.size() == static_cast<std::size_t>(summary.turn_cap) &&
      summary.start_by_cap_without_god.size() == summary.start_by_cap.size() &&
      (summary.objective == CappedObjective::kScore || summary.objective == CappedObjective::kWin);
  sizes = sizes &&
          keyframes.size() == static_cast<std::size_t>(summary.turn_cap / summary.keyframe_every);
  for (std::size_t k = 0; sizes && k < keyframes.size(); ++k) {
    const CappedKeyframe& key = keyframes[k];
    sizes = key.turns_left == static_cast<int>(k + 1) * summary.keyframe_every &&
            key.turns_left <= summary.turn_cap &&
            key.values.size() == layers * DuelIndex::kSlots * canonical &&
            key.lost_turn.size() == layers * canonical;
  }
  if (!sizes) throw FileFormatError(where + ": corrupted (sizes do not match its rules)");
  return CappedDuelSolution(game, std::move(summary), std::move(keyframes));
}

}  // namespace sling::duel
