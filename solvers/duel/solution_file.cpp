// The solution file: cereal binary with a header and a checksum.

#include <cstring>
#include <sstream>

#include <cereal/archives/binary.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include "engine/core/errors.h"
#include "engine/core/fnv1a.h"
#include "engine/core/io.h"
#include "engine/core/length_prefix_check.h"
#include "solvers/duel/file_rules.h"
#include "solvers/duel/solution.h"
#include "solvers/duel/solve_options.h"

namespace sling::duel {

// Every length cereal reads from a file sizes an allocation before the bytes behind it are read,
// so the loader checks each one against the bytes that remain first (`check(element_bytes)` peeks
// at the next length); writing passes a check that does nothing.  One field list serves both.
template <class Archive, class Check>
void pass_fields(Archive& ar, PassReport& p, const Check& check) {
  check(1);
  ar(p.layer);
  check(1);
  ar(p.pass);
  ar(p.sweeps, p.extrapolations, p.check_sweeps, p.rejected, p.put_back, p.tightening_sweeps,
     p.rounds, p.seconds, p.certified);
  check(sizeof(double));
  ar(p.max_change);
}

template <class Archive>
void serialize(Archive& ar, PassReport& p) {
  pass_fields(ar, p, [](std::size_t) {});
}

// The bytes of a pass report with empty strings and lists: the least one can take in a file.
std::size_t smallest_pass_bytes() {
  std::ostringstream out;
  {
    cereal::BinaryOutputArchive archive(out);
    PassReport empty;
    archive(empty);
  }
  return out.str().size();
}

template <class Archive, class Check>
void summary_fields(Archive& ar, SolveSummary& s, const Check& check) {
  ar(s.start, s.david_first, s.goliath_first, s.start_without_god, s.david_first_without_god,
     s.goliath_first_without_god, s.lower_bound, s.upper_bound, s.lower_bound_without_god,
     s.upper_bound_without_god, s.goliath_win_lower, s.nontermination_upper,
     s.nontermination_computed, s.states, s.canonical_states, s.layers, s.sweeps, s.improvements,
     s.seconds, s.peak_memory_bytes, s.threads);
  if constexpr (Archive::is_loading::value) {
    check(smallest_pass_bytes());
    cereal::size_type count = 0;
    ar(cereal::make_size_tag(count));
    s.passes.resize(static_cast<std::size_t>(count));
    for (PassReport& pass : s.passes) pass_fields(ar, pass, check);
  } else {
    ar(s.passes);
  }
}

// The certificate (format version 6 on).
template <class Archive, class Check>
void certificate_fields(Archive& ar, SolveSummary& s, const Check& check) {
  ar(s.certified, s.certified_without_god);
  check(1);
  ar(s.failed_layer);
  check(1);
  ar(s.failed_pass);
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
  std::uint64_t h = kFnv1aOffsetBasis;
  for (double v : values) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    h = fnv1a_step(h, bits);  // a value's bits as one word, then mixed
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
    const auto no_check = [](std::size_t) {};
    archive(magic, version, complete, rules, pairs);
    summary_fields(archive, copy, no_check);
    certificate_fields(archive, copy, no_check);
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
    const LengthPrefixCheck check(bytes, in, where);
    check(1);
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
    check(1);
    archive(rules, pairs);
    summary_fields(archive, summary, check);
    if (version >= 6) {
      certificate_fields(archive, summary, check);
    } else {
      infer_certificate(summary);
    }
    check(sizeof(double));
    archive(values, sum);
  } catch (const FileFormatError&) {
    throw;
  } catch (const std::exception&) {
    // cereal's own words ("Failed to read 8 bytes from input stream! Read 3") say no more.
    throw FileFormatError(where + ": corrupted or truncated");
  }
  if (checksum(values) != sum) throw FileFormatError(where + ": corrupted (checksum mismatch)");
  if (!complete && accept != Accept::kSolutionOrCheckpoint) {
    throw FileFormatError(where +
                          " is a checkpoint of an unfinished solve, not a solution: "
                          "continue it with `sling solve duel --start " +
                          path + " --out FILE`");
  }
  DuelGame game = detail::game_of_solution_file(where, rules, expected);
  const DuelIndex index(game);
  if (pairs != index.pairs() || values.size() != index.size()) {
    throw FileFormatError(where + ": corrupted (sizes do not match its rules)");
  }
  return DuelSolution(game, std::move(values), std::move(summary), complete);
}

}  // namespace sling::duel
