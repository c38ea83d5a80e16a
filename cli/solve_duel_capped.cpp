#include "cli/solve_duel_capped.h"

#include <cmath>
#include <cstdio>
#include <iostream>

#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "solvers/duel/capped_solve.h"
#include "solvers/duel/solve.h"

namespace sling::cli {
namespace {

// A probability the solve did not compute (--value-only) is NaN: null in JSON, "-" in text.
std::string number(double v) {
  if (std::isnan(v)) return "null";
  char buffer[40];
  std::snprintf(buffer, sizeof(buffer), "%.10f", v);
  return buffer;
}

std::string outcome_json(const duel::CappedOutcome& o) {
  return "{\"value\": " + number(o.value) + ", \"david_wins\": " + number(o.david_wins) +
         ", \"draw\": " + number(o.draw) + ", \"goliath_wins\": " + number(o.goliath_wins) + "}";
}

std::string share(double v) {
  if (std::isnan(v)) return "-";
  char buffer[40];
  std::snprintf(buffer, sizeof(buffer), "%.6f", v);
  return buffer;
}

void print_outcome(const char* label, const duel::CappedOutcome& o) {
  std::printf("  %-26s %.8f   %-8s  %-8s  %-8s\n", label, o.value, share(o.david_wins).c_str(),
              share(o.draw).c_str(), share(o.goliath_wins).c_str());
}

}  // namespace

void run_solve_capped(const SolveCappedCommand& c, const duel::DuelGame& game) {
  if (!c.uncapped_options.empty()) {
    throw OptionError(c.uncapped_options.front() +
                      " belongs to the solve without a turn cap; the capped solve is exact "
                      "backward induction and takes no such option");
  }
  const duel::CappedObjective objective = duel::parse_objective(c.objective);
  duel::check_capped_solvable(game);
  check_writable(c.out);
  duel::CappedOptions options;
  options.threads = c.threads;
  options.keyframe_every = c.keyframe_every;
  options.outcomes = !c.value_only;
  if (!c.quiet && !c.json) options.log = [](const std::string& line) { std::cerr << line << '\n'; };
  const duel::CappedDuelSolution solution = duel::solve_capped_duel(game, objective, options);
  solution.save(c.out);
  const duel::CappedSummary& s = solution.summary();
  const bool god = game.rules().god_enabled;
  if (c.json) {
    std::cout << "{\n"
              << "  \"turn_cap\": " << s.turn_cap << ",\n"
              << "  \"objective\": \"" << duel::objective_name(s.objective) << "\",\n"
              << "  \"start\": " << outcome_json(s.start) << ",\n"
              << "  \"david_first\": " << outcome_json(s.david_first) << ",\n"
              << "  \"goliath_first\": " << outcome_json(s.goliath_first) << ",\n"
              << "  \"start_without_god\": " << outcome_json(s.start_without_god) << ",\n"
              << "  \"david_first_without_god\": " << outcome_json(s.david_first_without_god)
              << ",\n"
              << "  \"goliath_first_without_god\": " << outcome_json(s.goliath_first_without_god)
              << ",\n"
              << "  \"value_of_god\": " << number(s.start.value - s.start_without_god.value)
              << ",\n"
              << "  \"states\": " << s.states << ",\n"
              << "  \"canonical_states\": " << s.canonical_states << ",\n"
              << "  \"layers\": " << s.layers << ",\n"
              << "  \"keyframe_every\": " << s.keyframe_every << ",\n"
              << "  \"seconds\": " << number(s.seconds) << ",\n"
              << "  \"peak_memory_bytes\": " << s.peak_memory_bytes << ",\n"
              << "  \"threads\": " << s.threads << ",\n"
              << "  \"pitch_cm\": " << game.rules().pitch_cm << "\n"
              << "}\n";
    return;
  }
  std::printf("The duel capped at %d turns (a draw at the cap), objective %s (pitch %d cm)\n",
              s.turn_cap, duel::objective_name(s.objective), game.rules().pitch_cm);
  std::printf("  %-26s %-10s   %-8s  %-8s  %-8s\n", "optimal play", "value", "David", "draw",
              "Goliath");
  print_outcome(god ? "at the start" : "at the start (no God)", s.start);
  print_outcome("David acts first", s.david_first);
  print_outcome("Goliath acts first", s.goliath_first);
  std::printf("Without God\n");
  print_outcome("at the start", s.start_without_god);
  print_outcome("David acts first", s.david_first_without_god);
  print_outcome("Goliath acts first", s.goliath_first_without_god);
  std::printf("Value of God (difference at the start):     %.8f\n",
              s.start.value - s.start_without_god.value);
  std::printf(
      "%llu declare states (%llu after symmetry), %d layers, %d turns, %.1f s, %d threads, "
      "peak memory %.0f MiB\n",
      static_cast<unsigned long long>(s.states),
      static_cast<unsigned long long>(s.canonical_states), s.layers, s.turn_cap, s.seconds,
      s.threads, s.peak_memory_bytes / (1024.0 * 1024.0));
  std::printf("Solution written to %s (keyframes every %d turns)\n", c.out.c_str(),
              s.keyframe_every);
}

}  // namespace sling::cli
