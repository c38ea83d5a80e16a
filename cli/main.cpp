// sling: the command-line front end.  Library code throws typed errors; this is the one place that
// turns them into a message and an exit status:
//   0  success
//   2  a user error: a bad option, file or move, one line "sling: <what> (<file or option>): <why>"
//   3  an internal error (a bug or an exhausted machine), also one line
// CLI11's own messages are reworded into the same one-line shape.

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <string>

#include "cli/command.h"
#include "cli/games.h"
#include "engine/core/disk_cache.h"
#include "engine/core/errors.h"

namespace sling::cli {

std::vector<Command>& command_registry() {
  static std::vector<Command> registry;
  return registry;
}

namespace {

constexpr int kUserError = 2;
constexpr int kInternalError = 3;

int fail(const std::string& message, int code) {
  std::string line = message;
  std::replace(line.begin(), line.end(), '\n', ' ');
  while (!line.empty() && line.back() == ' ') line.pop_back();
  std::cerr << "sling: " << line << '\n';
  return code;
}

std::string names_of(const std::vector<CLI::App*>& apps) {
  std::string names;
  for (const CLI::App* app : apps) names += (names.empty() ? "" : ", ") + app->get_name();
  return names;
}

// "sling frobnicate" and "sling solve chess" name the word and the valid choices; CLI11 alone
// would say "A subcommand is required".
int check_command_words(CLI::App& app, int argc, char** argv, std::string& path) {
  CLI::App* parent = &app;
  for (int i = 1; i < argc && argv[i][0] != '-'; ++i) {
    const auto choices = parent->get_subcommands([](CLI::App*) { return true; });
    if (choices.empty()) break;
    const std::string word = argv[i];
    const auto match = std::find_if(choices.begin(), choices.end(),
                                    [&](CLI::App* sub) { return sub->check_name(word); });
    if (match == choices.end()) {
      const std::string what = parent == &app ? "unknown command" : "unknown subcommand";
      return fail(
          error_text(what + " '" + word + "'", path,
                     "the choices are " + names_of(choices) + " (see `" + path + " --help`)"),
          kUserError);
    }
    parent = *match;
    path += " " + word;
  }
  return 0;
}

std::string overview_footer() {
  std::string text = "\nGames:";
  for (const GameDeclaration& game : game_declarations()) {
    text += "\n  " + std::string(game.name) +
            std::string(9 - std::min<std::size_t>(8, game.name.size()), ' ') +
            std::string(game.summary) + " (sides --" + std::string(game.sides[0]) + ", --" +
            std::string(game.sides[1]) + ")";
  }
  text +=
      "\n\nExamples:\n  sling play pig --first human --second normal\n  sling match duel --david "
      "heuristic --goliath mcts --games 20\n  sling COMMAND --help\n\nExit status: 0 success, 2 a "
      "bad option, file or input, 3 an internal error.";
  return text;
}

}  // namespace
}  // namespace sling::cli

int main(int argc, char** argv) {
  using namespace sling::cli;
  CLI::App app{"Sling: AI opponents and exact solvers for dice wargames (" +
               sling::game_list("and") + ")"};
  app.name("sling");
  app.set_version_flag("--version", std::string("sling ") + sling::kSlingVersion);
  app.require_subcommand(1);
  app.fallthrough(false);
  app.footer(overview_footer());

  // Where computed values are cached (the duel's value function solves a coarse lattice once).
  app.add_option_function<std::string>(
         "--cache",
         [](const std::string& directory) { sling::disk_cache_settings.set_directory(directory); },
         "Cache directory for computed solutions (default: $XDG_CACHE_HOME/sling, else "
         "~/.cache/sling); give it before the command")
      ->type_name("DIR");

  auto& commands = command_registry();
  std::sort(commands.begin(), commands.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  for (auto& command : commands) {
    CLI::App* sub = app.add_subcommand(command.name, command.description);
    sub->option_defaults()->always_capture_default();
    command.setup(*sub);
  }

  std::string path = "sling";
  if (argc == 1) {
    std::cout << app.help();
    return 0;
  }
  if (const int code = check_command_words(app, argc, argv, path); code != 0) return code;

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --help-all, --version
  } catch (const CLI::ParseError& e) {
    return fail(sling::error_text("bad arguments", path,
                                  std::string(e.what()) + " (see `" + path + " --help`)"),
                kUserError);
  } catch (const sling::SlingError& e) {
    return fail(e.what(), kUserError);
  } catch (const std::bad_alloc&) {
    return fail("out of memory", kInternalError);
  } catch (const std::exception& e) {
    return fail(std::string("internal error: ") + e.what(), kInternalError);
  }
  return 0;
}
