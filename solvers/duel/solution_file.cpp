// The solution file: cereal binary with a header and a checksum.

#include <cstring>
#include <sstream>

#include <cereal/archives/binary.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "solvers/duel/solution.h"
#include "solvers/duel/solve_options.h"

namespace sling::duel {

template <class Archive>
void serialize(Archive& ar, PassReport& p) {
  ar(p.layer, p.pass, p.sweeps, p.extrapolations, p.check_sweeps, p.rejected, p.put_back,
     p.tightening_sweeps, p.rounds, p.seconds, p.certified, p.max_change);
}

template <class Archive>
void serialize(Archive& ar, SolveSummary& s) {
  ar(s.start, s.david_first, s.goliath_first, s.start_without_god, s.david_first_without_god,
     s.goliath_first_without_god, s.lower_bound, s.upper_bound, s.lower_bound_without_god,
     s.upper_bound_without_god, s.goliath_win_lower, s.nontermination_upper,
     s.nontermination_computed, s.states, s.canonical_states, s.layers, s.sweeps, s.improvements,
     s.seconds, s.peak_memory_bytes, s.threads, s.passes);
}

// The certificate (format version 6 on).
template <class Archive>
void serialize_certificate(Archive& ar, SolveSummary& s) {
  ar(s.certified, s.certified_without_god, s.failed_layer, s.failed_pass);
}

namespace {

constexpr const char* kMagic = "sling-duel-solution";

// Files before version 6 did not record the certificate: a bracket that failed was left at its
// initial [0, 1] or wider than the solver's default tolerance, so the width decides.
void infer_certificate(SolveSummary& s) {
  const double tolerance = SolverOptions{}.bracket_tolerance;
  s.certified_without_god = s.gap_without_god() <= tolerance;
  s.certified = s.gap() <= tolerance;
}

std::uint64_t checksum(const std::vector<double>& values) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (double v : values) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    h = (h ^ bits) * 0x100000001b3ULL;
    h ^= h >> 31;
  }
  return h;
}

}  // namespace

void DuelSolution::save(const std::string& path) const {
  save(path, game_, values_, summary_, complete_);
}

void DuelSolution::save(const std::string& path, const DuelGame& game,
                        const std::vector<double>& values, const SolveSummary& summary,
                        bool complete) {
  const DuelIndex index(game);
  if (values.size() != index.size()) throw FileFormatError("duel solution: wrong number of values");
  const std::uint64_t pairs = index.pairs();
  std::ostringstream out;
  {
    cereal::BinaryOutputArchive archive(out);
    const std::string magic = kMagic;
    const std::uint32_t version = kFormatVersion;
    const std::string rules = game.rules_json();
    SolveSummary copy = summary;  // (cereal's archive takes non-const references)
    archive(magic, version, complete, rules, pairs, copy);
    serialize_certificate(archive, copy);
    archive(values, checksum(values));
  }
  write_file_atomic(path, out.str());
}

DuelSolution DuelSolution::load(const std::string& path, const DuelGame* expected, Accept accept) {
  const std::string bytes = read_file(path);
  std::string magic, rules;
  std::uint32_t version = 0;
  std::uint64_t pairs = 0, sum = 0;
  SolveSummary summary;
  std::vector<double> values;
  bool complete = true;
  const std::string where = "duel solution '" + path + "'";
  // Cereal writes the magic string after its 8-byte length: check it before trusting any size.
  const std::string magic_text = kMagic;
  if (bytes.size() < 8 + magic_text.size() ||
      bytes.compare(8, magic_text.size(), magic_text) != 0) {
    throw FileFormatError(where + ": not a Sling duel solution file");
  }
  try {
    std::istringstream in(bytes);
    cereal::BinaryInputArchive archive(in);
    archive(magic);
    if (magic != kMagic) throw FileFormatError(where + ": not a Sling duel solution file");
    archive(version);
    constexpr std::uint32_t kOldestReadable = 4;  // the last version without the checkpoint mark
    if (version < kOldestReadable || version > kFormatVersion) {
      throw FileFormatError(where + ": format version " + std::to_string(version) +
                            ", this Sling reads versions " + std::to_string(kOldestReadable) +
                            " to " + std::to_string(kFormatVersion) +
                            " (solve again with `sling solve duel`)");
    }
    if (version >= 5) archive(complete);
    archive(rules, pairs, summary);
    if (version >= 6) {
      serialize_certificate(archive, summary);
    } else {
      infer_certificate(summary);
    }
    archive(values, sum);
  } catch (const FileFormatError&) {
    throw;
  } catch (const std::exception& e) {
    throw FileFormatError(where + ": corrupted or truncated (" + e.what() + ")");
  }
  if (checksum(values) != sum) throw FileFormatError(where + ": corrupted (checksum mismatch)");
  if (!complete && accept != Accept::kSolutionOrCheckpoint) {
    throw FileFormatError(where +
                          " is a checkpoint of an unfinished solve, not a solution: "
                          "continue it with `sling solve duel --start " +
                          path + " --out FILE`");
  }
  DuelGame game = [&] {
    try {
      return DuelGame::from_rules_json(rules);
    } catch (const SlingError& e) {
      throw FileFormatError(where + ": corrupted rules (" + e.what() + ")");
    }
  }();
  if (expected != nullptr && !(expected->rules() == game.rules())) {
    // Name the first rules key that differs.
    std::istringstream a(expected->rules_json()), b(game.rules_json());
    std::string la, lb, differ;
    while (std::getline(a, la) && std::getline(b, lb)) {
      if (la != lb) {
        differ = la;
        break;
      }
    }
    const auto first = differ.find_first_not_of(" \t");
    throw RulesError(where + " was solved for other rules (first difference: " +
                     (first == std::string::npos ? differ : differ.substr(first)) +
                     " here); solve these rules with `sling solve duel --rules FILE`");
  }
  const DuelIndex index(game);
  if (pairs != index.pairs() || values.size() != index.size()) {
    throw FileFormatError(where + ": corrupted (sizes do not match its rules)");
  }
  return DuelSolution(game, std::move(values), std::move(summary), complete);
}

}  // namespace sling::duel
