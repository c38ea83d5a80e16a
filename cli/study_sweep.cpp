// sling study sweep --rule NAME --values A,B,... [--rules FILE] [--pitch CM] --out DIR: David's
// exact chances with and without God, and the God advice, over a rule's values
// (experiments/studies/rules_sweep.h).
#include "cli/study_sweep.h"

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/common_options.h"
#include "cli/game_options.h"
#include "engine/core/errors.h"
#include "experiments/studies/rules_sweep.h"

namespace sling::cli {
namespace {

struct StudySweepCommand {
  GameOptions rules;
  int pitch_cm = 0;
  std::string out;
  bool quiet = false;
  duel::RulesSweepOptions options;
};

void run(StudySweepCommand c) {
  duel::DuelRules base;
  try {
    base = duel::rules_from_json(rules_text(c.rules));
  } catch (const RulesError& e) {
    if (c.rules.rules_file.empty()) throw;
    throw RulesError(error_text("bad rules", c.rules.rules_file, e.what()));
  }
  if (c.pitch_cm != 0) base.pitch_cm = c.pitch_cm;
  c.options.threads = resolve_threads(c.options.threads);
  duel::sweep_variants(base, c.options);  // every value checked before the first solve
  if (!c.quiet) {
    c.options.log = [](const std::string& line) { std::cerr << "study sweep: " << line << '\n'; };
    const char* how_long = base.pitch_cm >= 3   ? "seconds"
                           : base.pitch_cm == 2 ? "about a minute"
                                                : "about an hour";
    std::cerr << "study sweep: " << c.options.values.size() << " variants of " << c.options.rule
              << " at a " << base.pitch_cm << " cm pitch, each solved (" << how_long
              << " on 2 cores unless cached) and studied for God\n";
  }
  const std::vector<duel::SweepVariant> variants = duel::write_rules_sweep(base, c.options, c.out);
  std::cout << "Rules sweep written to " << c.out << "/report.md (" << variants.size()
            << " variants of " << c.options.rule << ")\n";
}

}  // namespace

void add_sweep_study(CLI::App& study) {
  CLI::App* sub = study.add_subcommand(
      "sweep",
      "David's exact chances with and without God, and the God advice, over a rule's values "
      "(duel; report.md + SVG)");
  auto command = std::make_shared<StudySweepCommand>();
  sub->add_option("--rule", command->options.rule,
                  "The rule to vary: a key of `sling rules duel` (e.g. shooting_band_cm)")
      ->required();
  sub->add_option("--values", command->options.values, "Its values (comma-separated, JSON)")
      ->delimiter(',')
      ->required();
  sub->add_option("--rules", command->rules.rules_file, "Every other rule (default: the seed's)");
  sub->add_option("--pitch", command->pitch_cm, "Lattice pitch (cm; default: the rules')")
      ->check(CLI::Range(1, 5));
  sub->add_option("--out", command->out,
                  "Directory for report.md, the figure and each variant's "
                  "God report")
      ->required();
  sub->add_option("--games", command->options.games, "Optimal games a variant, for its God advice")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000000));
  sub->add_option("--settle-plies", command->options.settle_plies,
                  "Settle a game still running after this many plies at its exact value (0: "
                  "play every game to its end)")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1'000'000'000}));
  add_seed_option(*sub, command->options.seed, "Seed of the optimal games");
  add_threads_option(*sub, command->options.threads);
  sub->add_flag("--quiet", command->quiet, "No progress lines");
  set_examples(*sub,
               {"sling study sweep --rule shooting_band_cm --values 3,4,5,6,7 --pitch 3 --out "
                "sweep3  (~1 min on 2 cores)",
                "sling study sweep --rule goliath_move_two_handed --values 7,8,9,10 --out sweep1  "
                "(the default 1 cm lattice: about an hour a variant)"});
  sub->callback([command] { run(*command); });
}

}  // namespace sling::cli
