// sling version: prints the version of the tool.
#include <iostream>

#include "cli/command.h"

namespace sling::cli {
namespace {

const RegisterCommand kRegister("version", "Print Sling's version (also `sling --version`)",
                                [](CLI::App& sub) {
                                  sub.callback(
                                      [] { std::cout << "sling " << kSlingVersion << "\n"; });
                                });

}  // namespace
}  // namespace sling::cli
