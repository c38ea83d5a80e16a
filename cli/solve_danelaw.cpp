#include "cli/solve_danelaw.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "cli/common_options.h"
#include "cli/game_options.h"
#include "engine/core/json_writer.h"
#include "engine/danelaw/danelaw.h"
#include "solvers/danelaw/exact_solver.h"

namespace sling::cli {
namespace {

struct SolveDanelawCommand {
  GameOptions options;
  std::size_t max_states = danelaw::ExactOptions{}.max_states;
  bool json = false;
};

void run(const SolveDanelawCommand& c) {
  const danelaw::DanelawGame game = make_game<danelaw::DanelawGame>(c.options);
  const auto start = std::chrono::steady_clock::now();
  danelaw::ExactSolver solver(game, danelaw::ExactOptions{c.max_states});
  const double value = solver.solve(game.initial_state());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (c.json) {
    JsonWriter json;
    json.begin_object(JsonLayout::one_line).key("game").string("danelaw");
    json.key("map").string(game.rules().map);
    json.key("danes_win_probability").number(JsonNumber::fixed(value, 12));
    json.key("states").integer(static_cast<std::int64_t>(solver.states()));
    json.key("seconds").number(JsonNumber::fixed(seconds, 3));
    std::cout << json.end_object().take_document();
    return;
  }
  std::printf(
      "danelaw, map %s: the Danes win with probability %.12f under optimal play\n"
      "%zu states solved in %.2f s\n",
      game.rules().map.c_str(), value, solver.states(), seconds);
}

}  // namespace

void add_solve_danelaw_subcommand(CLI::App& solve) {
  CLI::App* sub = solve.add_subcommand(
      "danelaw", "Solve a small danelaw scenario exactly (expectimax over the full rules)");
  auto command = std::make_shared<SolveDanelawCommand>();
  add_game_options(*sub, command->options);
  sub->add_option("--max-states", command->max_states,
                  "Refuse a scenario with more states than this (the table takes under 171 "
                  "bytes a state)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{200'000'000}));
  sub->add_flag("--json", command->json, "Print the result as JSON");
  set_examples(*sub, {"sling solve danelaw --rules solvers/danelaw/scenarios/ford.json  (~1 s)"});
  sub->callback([command] { run(*command); });
}

}  // namespace sling::cli
