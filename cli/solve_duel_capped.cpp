#include "cli/solve_duel_capped.h"

#include <cmath>
#include <cstdio>
#include <iostream>

#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "engine/core/json_writer.h"
#include "solvers/duel/capped_solve.h"
#include "solvers/duel/solve.h"

namespace sling::cli {
namespace {

// A probability with ten decimals; one the solve did not compute (--value-only) is NaN: null.
JsonNumber probability_json(double p) {
  return JsonNumber::fixed(p, 10);
}

void write_outcome(JsonWriter& json, std::string_view key, const duel::CappedOutcome& o) {
  json.key(key).begin_object(JsonLayout::one_line);
  json.key("value").number(probability_json(o.value));
  json.key("david_wins").number(probability_json(o.david_wins));
  json.key("draw").number(probability_json(o.draw));
  json.key("goliath_wins").number(probability_json(o.goliath_wins));
  json.end_object();
}

std::string summary_json(const duel::CappedSummary& s, const duel::DuelGame& game) {
  JsonWriter json;
  json.begin_object();
  json.key("turn_cap")
      .integer(s.turn_cap)
      .key("objective")
      .string(duel::objective_name(s.objective));
  write_outcome(json, "start", s.start);
  write_outcome(json, "david_first", s.david_first);
  write_outcome(json, "goliath_first", s.goliath_first);
  write_outcome(json, "start_without_god", s.start_without_god);
  write_outcome(json, "david_first_without_god", s.david_first_without_god);
  write_outcome(json, "goliath_first_without_god", s.goliath_first_without_god);
  json.key("value_of_god").number(probability_json(s.start.value - s.start_without_god.value));
  json.key("states").integer(s.states).key("canonical_states").integer(s.canonical_states);
  json.key("layers").integer(s.layers).key("keyframe_every").integer(s.keyframe_every);
  json.key("seconds").number(JsonNumber::fixed(s.seconds, 10));
  json.key("peak_memory_bytes").integer(s.peak_memory_bytes).key("threads").integer(s.threads);
  json.key("pitch_cm").integer(game.rules().pitch_cm);
  return json.end_object().take_document();
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
    std::cout << summary_json(s, game);
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
