// sling: the command-line front end.  Library code throws typed errors; this is the one place that
// turns them into a one-line message and a non-zero exit status.

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "engine/core/errors.h"
#include "solvers/duel/coarse_value.h"

namespace sling::cli {

std::vector<Command>& command_registry() {
  static std::vector<Command> registry;
  return registry;
}

}  // namespace sling::cli

int main(int argc, char** argv) {
  CLI::App app{"Sling: AI opponents and exact solvers for dice wargames (the duel, danelaw, pig)"};
  app.name("sling");
  app.require_subcommand(1);
  app.fallthrough(false);

  // Where computed values are cached (the duel's value function solves a coarse lattice once).
  app.add_option_function<std::string>(
         "--cache",
         [](const std::string& directory) { sling::duel::set_duel_cache_directory(directory); },
         "Cache directory for computed solutions (default: $XDG_CACHE_HOME/sling, else "
         "~/.cache/sling); give it before the command")
      ->type_name("DIR");

  auto& commands = sling::cli::command_registry();
  std::sort(commands.begin(), commands.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  for (auto& command : commands) {
    CLI::App* sub = app.add_subcommand(command.name, command.description);
    command.setup(*sub);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (argc == 1) {
      std::cout << app.help();
      return 0;
    }
    return app.exit(e);
  } catch (const sling::SlingError& e) {
    std::cerr << "sling: error: " << e.what() << '\n';
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "sling: error: out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "sling: error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
