// sling solve GAME ...: exact solutions.  `sling solve pig [--goal N] [--json] [--out FILE]` solves
// Pig by value iteration, prints the first player's optimal win probability and can save the policy
// table the `solver` agent plays from; `sling solve duel` is set up by cli/solve_duel.h and
// `sling solve danelaw` (a small scenario, exactly) by cli/solve_danelaw.h.
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "cli/common_options.h"
#include "cli/solve_danelaw.h"
#include "cli/solve_duel.h"
#include "engine/core/errors.h"
#include "engine/core/json_writer.h"
#include "solvers/pig/solver.h"

namespace sling::cli {
namespace {

struct PigSolveCommand {
  int goal = 100;
  bool json = false;
  std::string out;
};

void add_pig(CLI::App& solve) {
  CLI::App* pig = solve.add_subcommand("pig", "Solve Pig exactly (value iteration)");
  auto command = std::make_shared<PigSolveCommand>();
  pig->add_option("--goal", command->goal, "Points needed to win (1-250 for the solver)");
  pig->add_flag("--json", command->json, "Print the result as JSON");
  pig->add_option("--out", command->out, "Save the policy table (binary) for `solver:table=FILE`");
  set_examples(*pig,
               {"sling solve pig --json  (~1 s)", "sling solve pig --goal 50 --out pig50.bin"});
  pig->callback([command] {
    const pig::PigSolution solution = pig::PigSolution::solve(command->goal);
    if (!command->out.empty()) solution.save(command->out);
    char probability[32];
    std::snprintf(probability, sizeof probability, "%.12f",
                  solution.first_player_win_probability());
    if (command->json) {
      JsonWriter json;
      json.begin_object(JsonLayout::one_line).key("game").string("pig");
      json.key("goal").integer(command->goal).key("first_player_win_probability");
      json.number(JsonNumber::fixed(solution.first_player_win_probability(), 12));
      if (!command->out.empty()) json.key("policy_file").string(command->out);
      std::cout << json.end_object().take_document();
    } else {
      std::cout << "pig, goal " << command->goal << ": the first player wins with probability "
                << probability << " under optimal play\n";
      if (!command->out.empty()) std::cout << "policy saved to " << command->out << "\n";
    }
  });
}

const RegisterCommand kRegister("solve", "Solve a game exactly", [](CLI::App& sub) {
  sub.require_subcommand(1);
  add_solve_duel_subcommand(sub);
  add_pig(sub);
  add_solve_danelaw_subcommand(sub);
});

}  // namespace
}  // namespace sling::cli
