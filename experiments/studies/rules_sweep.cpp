#include "experiments/studies/rules_sweep.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <sstream>

#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "engine/core/json_options.h"
#include "engine/core/json_text.h"
#include "experiments/studies/god_study_svg.h"
#include "experiments/studies/god_study_words.h"
#include "solvers/duel/solution_cache.h"

namespace sling::duel {

using namespace god_study;  // the God study's words and figures

namespace {

// The folder of a variant's own report: the rule and the value, in characters any file system
// takes.
std::string variant_folder(const std::string& rule, const std::string& value) {
  std::string folder = rule + "-";
  for (const char c : value) {
    const bool plain = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                       c == '.' || c == '-';
    folder += plain ? c : '_';
  }
  return folder;
}

// The roll optimal David spends God on most often, and its share of the uses.
std::pair<Roll, double> main_god_roll(const GodStudyResult& result) {
  Roll best = Roll::kNone;
  std::int64_t most = 0, uses = 0;
  for (std::size_t r = 0; r < result.by_roll.size(); ++r) {
    uses += result.by_roll[r].rerolled;
    if (result.by_roll[r].rerolled > most) {
      most = result.by_roll[r].rerolled;
      best = static_cast<Roll>(r);
    }
  }
  return {best, uses > 0 ? static_cast<double>(most) / static_cast<double>(uses) : 0.0};
}

// A rule value as a number for the figure's x axis, when it is one.
bool numeric(const std::string& value, double& x) {
  std::istringstream in(value);
  in >> x;
  return !in.fail() && in.eof();
}

void write_report(std::ostream& md, const DuelRules& base, const RulesSweepOptions& options,
                  const std::vector<SweepVariant>& variants, bool figure) {
  // The plain answer reads the certified variants only; an open bracket is no value.
  std::vector<const SweepVariant*> certified;
  for (const SweepVariant& v : variants) {
    if (v.certified) certified.push_back(&v);
  }
  md << "# David's chances as `" << options.rule << "` varies\n\n";
  md << "**In short.** ";
  if (!certified.empty()) {
    const auto by_value = [](const SweepVariant* a, const SweepVariant* b) {
      return a->summary.start < b->summary.start;
    };
    const SweepVariant* lowest = *std::min_element(certified.begin(), certified.end(), by_value);
    const SweepVariant* highest = *std::max_element(certified.begin(), certified.end(), by_value);
    double worth_low = 1, worth_high = 0;
    for (const SweepVariant* v : certified) {
      const double worth = v->summary.start - v->summary.start_without_god;
      worth_low = std::min(worth_low, worth);
      worth_high = std::max(worth_high, worth);
    }
    md << "Over `" << options.rule << "` from " << variants.front().value << " to "
       << variants.back().value << ", David's optimal win probability (with God) ranges from "
       << pct(lowest->summary.start, 2) << " (at " << lowest->value << ") to "
       << pct(highest->summary.start, 2) << " (at " << highest->value << "), and God is worth "
       << pct(worth_low, 2) << " to " << pct(worth_high, 2) << " of winning probability. ";
  }
  md << "Each variant is solved exactly on the " << base.pitch_cm << " cm lattice of a "
     << base.board_cm << " cm board, its value certified by a bracket of width at most 1e-6";
  if (certified.size() < variants.size()) {
    md << ", except where the table marks the bracket **not certified**: the solver's bracket did "
          "not close there (the value lies inside it), and that variant is left out of the "
          "sentence above and of the figure";
  }
  md << ".\n\n";
  if (figure) md << "![David's chances by " << options.rule << "](sweep.svg)\n\n";
  md << "| `" << options.rule
     << "` | David with God | without God | God is worth | God used (games) | God spent most "
        "on | simulated score | report |\n";
  md << "|---|---|---|---|---|---|---|---|\n";
  for (const SweepVariant& v : variants) {
    const double n = v.god.games;
    const double score = (v.god.david_wins + v.god.settled_value) / n;
    const auto value = [](double lower, double upper, bool certified) {
      return certified ? num(lower, 6)
                       : "[" + num(lower, 4) + ", " + num(upper, 4) + "], **not certified**";
    };
    md << "| " << v.value << " | "
       << value(v.summary.lower_bound, v.summary.upper_bound, v.summary.certified) << " | "
       << value(v.summary.lower_bound_without_god, v.summary.upper_bound_without_god,
                v.summary.certified_without_god)
       << " | " << (v.certified ? num(v.summary.start - v.summary.start_without_god, 6) : "-")
       << " | " << pct(v.god.god_used_games / n, 1) << " | "
       << (v.god_roll == Roll::kNone
               ? std::string("-")
               : roll_title(v.god_roll) + " (" + pct(v.god_roll_share, 0) + " of uses)")
       << " | " << pct(score, 1) << " | [report](" << v.report << ") |\n";
  }
  md << "\nThe values are David's win probability at the start (before the initiative roll), the "
        "lower end of each certified bracket. The God columns and the simulated score come from "
     << options.games << " optimal games a variant (seed " << options.seed
     << "); a game still running after " << options.settle_plies
     << " plies is settled at the exact value of its position (each variant's report says how "
        "many stood off and where). Each variant's report has the full God advice: which rolls "
        "to re-roll, in which situations, and when.\n\n";
  md << "Every other rule as below:\n\n```json\n" << rules_to_json(base) << "\n```\n\n";
  md << "Command: `sling study sweep --rule " << options.rule << " --values ";
  for (std::size_t i = 0; i < options.values.size(); ++i) {
    md << (i ? "," : "") << options.values[i];
  }
  md << " --pitch " << base.pitch_cm << " --games " << options.games << "`\n";
}

}  // namespace

std::vector<DuelRules> sweep_variants(const DuelRules& base, const RulesSweepOptions& options) {
  if (options.rule.empty()) throw OptionError("the sweep needs a rule (--rule)");
  if (options.values.size() < 2)
    throw OptionError("the sweep needs at least two values (--values)");
  if (options.games < 1) throw OptionError("the sweep needs at least one game a variant");
  if (options.settle_plies < 0) throw OptionError("the settling point cannot be negative");
  std::vector<DuelRules> variants;
  for (const std::string& value : options.values) {
    DuelRules rules = options_over(base, "{" + json_string(options.rule) + ": " + value + "}",
                                   "the rules sweep (" + options.rule + " = " + value + ")");
    rules.turn_cap = 0;
    if (!rules.god_enabled) throw RulesError("the rules sweep needs rules with god_enabled true");
    variants.push_back(rules);
  }
  return variants;
}

std::vector<SweepVariant> write_rules_sweep(const DuelRules& base, const RulesSweepOptions& options,
                                            const std::string& out_dir) {
  const std::vector<DuelRules> rules = sweep_variants(base, options);
  std::filesystem::create_directories(out_dir);
  std::vector<SweepVariant> variants;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    SweepVariant v;
    v.value = options.values[i];
    v.rules = rules[i];
    const auto started = std::chrono::steady_clock::now();
    if (options.log) options.log(options.rule + " = " + v.value + ": solving");
    const std::shared_ptr<const DuelSolution> solution = cached_duel_solution(DuelGame(v.rules));
    v.summary = solution->summary();
    // A variant whose bracket did not certify is reported with its bracket, marked, and its God
    // study says so at its top: the sweep goes on with the other values.
    v.certified = v.summary.certified && v.summary.certified_without_god;
    if (!v.certified && options.log) {
      options.log(options.rule + " = " + v.value + ": " + solution->certificate_problem());
    }
    GodStudyOptions god;
    god.allow_uncertified = !v.certified;
    god.games = options.games;
    god.matchup_games = 0;
    god.settle_plies = options.settle_plies;
    god.seed = options.seed;
    god.threads = options.threads;
    v.report = variant_folder(options.rule, v.value) + "/report.md";
    v.god = write_god_study(
        *solution, god,
        (std::filesystem::path(out_dir) / variant_folder(options.rule, v.value)).string());
    std::tie(v.god_roll, v.god_roll_share) = main_god_roll(v.god);
    if (options.log) {
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      options.log(options.rule + " = " + v.value + ": David " + num(v.summary.start, 6) +
                  " with God, " + num(v.summary.start_without_god, 6) + " without (" +
                  num(seconds, 0) + " s)");
    }
    variants.push_back(std::move(v));
  }
  // The figure, when every value is a number.
  std::vector<std::pair<double, double>> with_god, without_god;
  bool every_value_a_number = true;
  for (const SweepVariant& v : variants) {
    double x = 0;
    every_value_a_number = every_value_a_number && numeric(v.value, x);
    if (!v.certified) continue;
    with_god.emplace_back(x, v.summary.start);
    without_god.emplace_back(x, v.summary.start_without_god);
  }
  const bool figure = every_value_a_number && with_god.size() >= 2;
  if (figure) {
    const std::vector<ChartSeries> series = {
        {"David's optimal win probability with God", series_colour(0), with_god, false},
        {"without God", series_colour(1), without_god, true}};
    write_file_atomic((std::filesystem::path(out_dir) / "sweep.svg").string(),
                      line_chart_svg(series, "David's exact chances as " + options.rule + " varies",
                                     options.rule, "David's win probability", XScale::kLinear));
  }
  std::ostringstream md;
  write_report(md, base, options, variants, figure);
  write_file_atomic((std::filesystem::path(out_dir) / "report.md").string(), md.str());
  return variants;
}

}  // namespace sling::duel
