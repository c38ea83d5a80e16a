#include "cli/solve_duel.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/common_options.h"
#include "cli/game_options.h"
#include "cli/solve_duel_capped.h"
#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "engine/core/json_writer.h"
#include "solvers/duel/solver.h"

namespace sling::cli {
namespace {

struct SolveDuelCommand {
  GameOptions options;
  int pitch_cm = 0;  // 0: the rules' pitch
  int threads = 2;
  double tolerance = duel::kRouteTolerance;
  int improvements = duel::kRouteImprovements;
  bool skip_termination = false;
  bool uniform_upper_start = false;
  bool no_plateau_flattening = false;
  std::string start;       // an earlier solution (or checkpoint) of the same game to start from
  std::string checkpoint;  // where to save the values of the unfinished solve, now and then
  double checkpoint_minutes = 10;
  std::string out;
  bool json = false;
  bool quiet = false;
  int max_sweeps = duel::SolverOptions{}.max_sweeps;
  double bracket_tolerance = duel::SolverOptions{}.bracket_tolerance;
  int turn_cap = 0;  // 0: the rules' cap; a cap takes the capped route
  SolveCappedCommand capped;
};

// A solve whose bracket is not certified still writes its file and its results, then warns on
// stderr and exits with this status (docs/solver.md).
constexpr int kExitUncertified = 4;  // 2: a user error, 3: an internal error (cli/main.cpp)

void report(const SolveDuelCommand& c, const duel::DuelGame& game, const duel::SolveSummary& s);

void run(const SolveDuelCommand& c) {
  const duel::DuelGame game = [&] {
    try {
      duel::DuelRules rules = duel::rules_from_json(rules_text(c.options));
      if (c.pitch_cm != 0) rules.pitch_cm = c.pitch_cm;
      if (c.turn_cap != 0) rules.turn_cap = c.turn_cap;
      return duel::DuelGame(rules);
    } catch (const RulesError& e) {
      if (c.options.rules_file.empty()) throw;
      throw RulesError(error_text("bad rules", c.options.rules_file, e.what()));
    }
  }();
  if (game.rules().turn_cap > 0) {
    SolveCappedCommand capped = c.capped;
    capped.threads = c.threads;
    capped.out = c.out;
    capped.json = c.json;
    capped.quiet = c.quiet;
    run_solve_capped(capped, game);
    return;
  }
  if (c.capped.keyframe_every_given || c.capped.objective_given || c.capped.value_only_given) {
    throw OptionError(
        "--objective, --keyframe-every and --value-only belong to the capped solve: give "
        "--turn-cap N (or rules with a turn_cap)");
  }
  duel::SolverOptions options;
  options.threads = c.threads;
  options.tolerance = c.tolerance;
  options.policy_improvements = c.improvements;
  options.nontermination = !c.skip_termination;
  options.shaped_upper_start = !c.uniform_upper_start;
  options.flatten_plateaus = !c.no_plateau_flattening;
  options.max_sweeps = c.max_sweeps;
  options.bracket_tolerance = c.bracket_tolerance;
  std::vector<double> start_values;
  if (!c.start.empty()) {
    using Accept = duel::DuelSolution::Accept;
    start_values = duel::DuelSolution::load(c.start, &game, Accept::kSolutionOrCheckpoint).values();
    options.start_values = &start_values;
  }
  // A solve can take more than an hour: its outputs are checked before it starts.
  check_writable(c.out);
  if (!c.checkpoint.empty()) check_writable(c.checkpoint);
  if (!c.quiet && !c.json) options.log = [](const std::string& line) { std::cerr << line << '\n'; };
  if (options.log && !c.start.empty()) options.log("starting from the values of " + c.start);
  if (!c.checkpoint.empty()) {
    options.checkpoint_seconds = 60 * c.checkpoint_minutes;
    options.checkpoint = [&](const std::vector<double>& values, const duel::SolveSummary& so_far) {
      duel::DuelSolution::save(c.checkpoint, game, values, so_far, false);
      if (options.log) {
        options.log("checkpoint written to " + c.checkpoint + " (continue with --start " +
                    c.checkpoint + ")");
      }
    };
  }
  const duel::DuelSolution solution = duel::solve_duel(game, options);
  solution.save(c.out);
  report(c, game, solution.summary());
  const duel::SolveSummary& s = solution.summary();
  const bool uncertified = !s.certified || !s.certified_without_god;
  if (uncertified) {
    std::fflush(stdout);
    std::cout.flush();
    const std::string problem = solution.certificate_problem();
    std::cerr << "sling: warning: the solution in " << c.out << " is "
              << (problem.empty() ? "certified with God, but the game without God is not" : problem)
              << " (tolerance " << c.bracket_tolerance << ")\n";
    std::cerr.flush();
    std::exit(kExitUncertified);
  }
}

// The summary as JSON: probabilities and seconds with ten decimals, the tolerance with six
// significant digits.
std::string summary_json(const SolveDuelCommand& c, const duel::DuelGame& game,
                         const duel::SolveSummary& s) {
  auto ten_decimals = [](double value) { return JsonNumber::fixed(value, 10); };
  JsonWriter json;
  json.begin_object();
  json.key("david_win_probability").number(ten_decimals(s.start));
  json.key("david_win_probability_david_first").number(ten_decimals(s.david_first));
  json.key("david_win_probability_goliath_first").number(ten_decimals(s.goliath_first));
  json.key("david_win_probability_without_god").number(ten_decimals(s.start_without_god));
  json.key("value_of_god").number(ten_decimals(s.start - s.start_without_god));
  json.key("lower_bound").number(ten_decimals(s.lower_bound));
  json.key("upper_bound").number(ten_decimals(s.upper_bound));
  json.key("lower_bound_without_god").number(ten_decimals(s.lower_bound_without_god));
  json.key("upper_bound_without_god").number(ten_decimals(s.upper_bound_without_god));
  json.key("certified").boolean(s.certified).key("gap").number(ten_decimals(s.gap()));
  json.key("certified_without_god").boolean(s.certified_without_god);
  json.key("gap_without_god").number(ten_decimals(s.gap_without_god()));
  if (s.failed_layer.empty()) {
    json.key("failed_layer").null().key("failed_pass").null();
  } else {
    json.key("failed_layer").string(s.failed_layer).key("failed_pass").string(s.failed_pass);
  }
  json.key("bracket_tolerance").number(JsonNumber::significant(c.bracket_tolerance));
  json.key("nontermination_upper_bound");
  if (s.nontermination_computed) {
    json.number(ten_decimals(s.nontermination_upper));
  } else {
    json.null();
  }
  json.key("states").integer(s.states).key("canonical_states").integer(s.canonical_states);
  json.key("layers").integer(s.layers).key("sweeps").integer(s.sweeps);
  json.key("seconds").number(ten_decimals(s.seconds));
  json.key("peak_memory_bytes").integer(s.peak_memory_bytes).key("threads").integer(s.threads);
  json.key("pitch_cm").integer(game.rules().pitch_cm);
  return json.end_object().take_document();
}

void report(const SolveDuelCommand& c, const duel::DuelGame& game, const duel::SolveSummary& s) {
  const bool god = game.rules().god_enabled;
  if (c.json) {
    std::cout << summary_json(c, game, s);
    return;
  }
  auto verdict = [](bool certified) { return certified ? "certified" : "NOT CERTIFIED"; };
  std::printf("David's win probability, optimal play (pitch %d cm)\n", game.rules().pitch_cm);
  std::printf("  at the start, before the initiative roll: %.8f%s\n", s.start,
              god ? "" : " (God disabled by the rules)");
  std::printf("  David acts first:                         %.8f\n", s.david_first);
  std::printf("  Goliath acts first:                       %.8f\n", s.goliath_first);
  std::printf("Without God\n");
  std::printf("  at the start:                             %.8f\n", s.start_without_god);
  std::printf("  David acts first:                         %.8f\n", s.david_first_without_god);
  std::printf("  Goliath acts first:                       %.8f\n", s.goliath_first_without_god);
  std::printf("Value of God (difference at the start):     %.8f\n", s.start - s.start_without_god);
  std::printf("Certified bracket (computed policies against best responses)\n");
  std::printf("  with God:    [%.10f, %.10f]  gap %.2e  %s\n", s.lower_bound, s.upper_bound,
              s.gap(), verdict(s.certified));
  std::printf("  without God: [%.10f, %.10f]  gap %.2e  %s\n", s.lower_bound_without_god,
              s.upper_bound_without_god, s.gap_without_god(), verdict(s.certified_without_god));
  if (s.nontermination_computed) {
    std::printf("Games that never end under the optimal policies: at most %.3g\n",
                s.nontermination_upper);
  }
  std::printf(
      "%llu declare states (%llu after symmetry), %d layers, %d sweeps, %.1f s, %d threads, "
      "peak memory %.0f MiB\n",
      static_cast<unsigned long long>(s.states),
      static_cast<unsigned long long>(s.canonical_states), s.layers, s.sweeps, s.seconds, s.threads,
      s.peak_memory_bytes / (1024.0 * 1024.0));
  std::printf("Solution written to %s\n", c.out.c_str());
}

}  // namespace

void configure_solve_duel(CLI::App& sub) {
  auto command = std::make_shared<SolveDuelCommand>();
  sub.add_option("--rules", command->options.rules_file,
                 "Rules file (JSON); see `sling rules duel`");
  sub.add_option("--pitch", command->pitch_cm, "Lattice pitch in cm (overrides the rules)")
      ->check(CLI::Range(1, 5));
  add_threads_option(sub, command->threads);
  sub.add_option("--tolerance", command->tolerance,
                 "Stop a layer's value iteration when no value moves by more than this")
      ->check(CLI::Range(1e-15, 1e-3))
      ->capture_default_str();
  sub.add_option("--improvements", command->improvements,
                 "At most this many strategy-improvement steps per layer after its value "
                 "iteration (0: none; it stops earlier once the layer has converged)")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  sub.add_option("--start", command->start,
                 "Start from the values of an earlier solution or checkpoint of the same rules "
                 "(for example one whose strategy improvement stopped at its step limit)");
  sub.add_flag("--skip-termination", command->skip_termination,
               "Do not bound the probability that optimal play never ends");
  sub.add_flag("--uniform-upper-start", command->uniform_upper_start,
               "Start the upper pass from the solved values plus a uniform margin, not from the "
               "undiscounted value of the greedy policies (docs/solver.md)");
  sub.add_flag("--no-plateau-flattening", command->no_plateau_flattening,
               "Do not raise stand-off plateaus to their top in the upper pass (docs/solver.md; "
               "such plateaus then keep the bracket from certifying)");
  sub.add_option("--checkpoint", command->checkpoint,
                 "Save the values of the unfinished solve to this file now and then; a run "
                 "stopped early continues from it with --start");
  sub.add_option("--checkpoint-minutes", command->checkpoint_minutes,
                 "Least time between two checkpoints")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  sub.add_option("--out", command->out, "Solution file to write")->required();
  sub.add_flag("--json", command->json, "Print the results as JSON");
  sub.add_flag("--quiet", command->quiet, "No progress lines");
  sub.add_option("--max-sweeps", command->max_sweeps,
                 "At most this many sweeps per layer and pass (a small cap leaves the bracket "
                 "uncertified)")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  sub.add_option("--bracket-tolerance", command->bracket_tolerance,
                 "A bracket wider than this is not certified: the solve warns and exits with "
                 "status 4")
      ->check(CLI::Range(1e-15, 1.0))
      ->capture_default_str();
  sub.add_option("--turn-cap", command->turn_cap,
                 "Solve the duel capped at N turns (each side's turn counts one; a draw at the "
                 "cap) by backward induction; overrides the rules' turn_cap")
      ->check(CLI::Range(1, 65535));
  sub.add_option("--objective", command->capped.objective,
                 "Capped solve: what David maximises, score (a win 1, a draw 1/2) or win (his "
                 "win probability)")
      ->check(CLI::IsMember({"score", "win"}))
      ->capture_default_str();
  sub.add_flag("--value-only", command->capped.value_only,
               "Capped solve: the objective's value alone, about twice as fast; the split into "
               "David's win, the draw and Goliath's win is not computed (play needs only the "
               "value)");
  sub.add_option("--keyframe-every", command->capped.keyframe_every,
                 "Capped solve: keep the values of every K turns left in the file (float32); "
                 "play recomputes the turns between")
      ->check(CLI::Range(1, 65535))
      ->capture_default_str();
  set_examples(sub, {"sling solve duel --pitch 3 --out duel3.sol  (~5 s on 2 cores)",
                     "sling solve duel --turn-cap 40 --pitch 3 --out capped.sol",
                     "sling solve duel --turn-cap 100 --value-only --out capped100.sol  (~5 min)",
                     "sling solve duel --out duel.sol --checkpoint duel.ckpt  (~57 min)"});
  sub.callback([command, &sub] {
    command->threads = resolve_threads(command->threads);
    command->capped.objective_given = sub.count("--objective") > 0;
    command->capped.keyframe_every_given = sub.count("--keyframe-every") > 0;
    command->capped.value_only_given = sub.count("--value-only") > 0;
    command->capped.uncapped_options.clear();
    for (const char* name :
         {"--tolerance", "--improvements", "--start", "--skip-termination", "--uniform-upper-start",
          "--checkpoint", "--checkpoint-minutes", "--max-sweeps", "--bracket-tolerance"}) {
      if (sub.count(name) > 0) command->capped.uncapped_options.emplace_back(name);
    }
    run(*command);
  });
}

void add_solve_duel_subcommand(CLI::App& solve) {
  configure_solve_duel(*solve.add_subcommand("duel", "Solve the duel exactly (docs/solver.md)"));
}

}  // namespace sling::cli
