#pragma once
// The rules sweep: one rule of the duel set to several values, each variant solved exactly (with
// and without God, certified) and studied for God as `sling study god` does (optimal games,
// settled at their exact value after a stand-off), written as DIR/report.md with a figure and
// each variant's own God report in DIR/<rule>-<value>/.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "experiments/studies/god_study.h"
#include "solvers/duel/solve_summary.h"

namespace sling::duel {

struct RulesSweepOptions {
  std::string rule;                 // a key of the duel's rules JSON, e.g. "shooting_band_cm"
  std::vector<std::string> values;  // its values, as JSON ("3", "true")
  int games = 2000;                 // optimal games a variant, for its God advice
  std::int64_t settle_plies = GodStudyOptions{}.settle_plies;
  std::uint64_t seed = 1;
  int threads = 2;
  // Progress lines (each variant as it starts and ends), when set.
  std::function<void(const std::string&)> log;
};

struct SweepVariant {
  std::string value;  // as given
  DuelRules rules;
  SolveSummary summary;
  bool certified = false;  // both brackets (with and without God) certified
  GodStudyResult god;
  Roll god_roll = Roll::kNone;  // the roll optimal David spends God on most often
  double god_roll_share = 0;    // that roll's share of the games' God uses
  std::string report;           // the variant's God report, relative to the sweep's directory
};

// The variants of `base` (every other rule as it is), in the order of options.values.  Throws
// RulesError for an unknown rule or a value the rules refuse, before anything is solved, and when
// the rules disable God.
std::vector<DuelRules> sweep_variants(const DuelRules& base, const RulesSweepOptions& options);

// Solves every variant (each solution from the disk cache when it is there, else solved and
// cached), studies it, and writes DIR/report.md, DIR/sweep.svg and DIR/<rule>-<value>/.  A
// variant whose bracket does not certify is reported with its bracket and marked.
std::vector<SweepVariant> write_rules_sweep(const DuelRules& base, const RulesSweepOptions& options,
                                            const std::string& out_dir);

}  // namespace sling::duel
