// sling study referee danelaw --agent SPEC... [--scenario NAME...] [--rules FILE --map FILE]
// [--games N]: how far each agent is from exact play on each side of danelaw scenarios small
// enough to solve, and how far the learned value model is from the exact values
// (experiments/studies/danelaw_referee.h).
#include "cli/study_referee.h"

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/common_options.h"
#include "cli/game_options.h"
#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "engine/danelaw/danelaw.h"
#include "experiments/studies/danelaw_referee.h"
#include "play/play_agents.h"
#include "solvers/danelaw/exact_scenario.h"

namespace sling::cli {
namespace {

struct StudyRefereeCommand {
  std::string game;
  std::vector<std::string> agents;
  std::vector<std::string> scenarios;  // names under solvers/danelaw/scenarios/ of `source`
  std::string source = ".";
  GameOptions files;  // one more scenario, of any rules and map files
  danelaw::RefereeOptions options;
  std::string out;
};

struct Scenario {
  std::string name;
  danelaw::DanelawGame game;
};

// The named scenarios (all four of the referee's when none is named and no files are given),
// then the one of the rules and map files.
std::vector<Scenario> scenarios(const StudyRefereeCommand& c) {
  const bool own_files = !c.files.rules_file.empty() || !c.files.map_file.empty();
  std::vector<std::string> names = c.scenarios;
  if (names.empty() && !own_files) names = danelaw::referee_scenarios();
  std::vector<Scenario> out;
  for (const std::string& name : names) {
    out.push_back({name, danelaw::load_scenario(c.source, name)});
  }
  if (own_files) {
    const std::string& path = c.files.rules_file.empty() ? c.files.map_file : c.files.rules_file;
    out.push_back(
        {path.substr(path.find_last_of('/') + 1), make_game<danelaw::DanelawGame>(c.files)});
  }
  return out;
}

void run(const StudyRefereeCommand& c) {
  if (c.game != "danelaw") {
    throw OptionError("study referee: only danelaw has a referee (got '" + c.game + "')");
  }
  if (!c.out.empty()) check_writable(c.out);
  std::vector<danelaw::RefereeRow> rows;
  for (const Scenario& scenario : scenarios(c)) {
    for (const std::string& agent : c.agents) {
      danelaw::RefereeOptions options = c.options;
      options.agent = play::resolve_preset(scenario.game, agent);
      rows.push_back(danelaw::measure_referee(scenario.game, scenario.name, options));
      std::cerr << "referee: " << scenario.name << ", " << options.agent << " done\n";
    }
  }
  const std::string tables = danelaw::referee_tables(rows);
  std::cout << tables;
  if (!c.out.empty()) write_file_atomic(c.out, tables);
}

}  // namespace

void add_referee_study(CLI::App& study) {
  CLI::App* sub = study.add_subcommand(
      "referee", "How far is an agent from exact play? (danelaw scenarios small enough to solve)");
  auto command = std::make_shared<StudyRefereeCommand>();
  sub->add_option("game", command->game, "Game: danelaw")->required();
  sub->add_option("--agent", command->agents, "A measured agent: a spec or a preset (repeatable)")
      ->required();
  sub->add_option("--scenario", command->scenarios,
                  "A referee scenario by name, from solvers/danelaw/scenarios/ under --source "
                  "(repeatable; default: the referee's four, unless --rules or --map is given)");
  sub->add_option("--source", command->source,
                  "The folder holding solvers/danelaw/scenarios/ (default: this one)");
  add_game_options(*sub, command->files);
  sub->add_option("--games", command->options.games, "Game seeds a scenario and agent")
      ->check(CLI::Range(1, 10000000));
  add_seed_option(*sub, command->options.seed, "Base seed of the games");
  add_threads_option(*sub, command->options.threads);
  sub->add_option("--out", command->out, "Also write the tables (Markdown) to this file");
  set_examples(*sub, {"sling study referee danelaw --agent strong --agent "
                      "planner:plans=64,samples=4,battle=32 --games 4000 --seed 5400"});
  sub->callback([command] { run(*command); });
}

}  // namespace sling::cli
