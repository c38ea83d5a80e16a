#pragma once
// Every `sling` subcommand lives in its own file and registers itself here at start-up, so adding a
// command touches no other file.

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

#include "sling_version.h"

namespace sling::cli {

struct Command {
  std::string name;
  std::string description;
  // Adds the subcommand's options to `sub` and sets its callback.
  std::function<void(CLI::App& sub)> setup;
};

std::vector<Command>& command_registry();

struct RegisterCommand {
  RegisterCommand(std::string name, std::string description, std::function<void(CLI::App&)> setup) {
    command_registry().push_back({std::move(name), std::move(description), std::move(setup)});
  }
};

}  // namespace sling::cli
