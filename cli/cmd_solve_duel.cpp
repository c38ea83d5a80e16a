// Temporary command name for the duel solver until `sling solve` hosts it as `sling solve duel`
// (cli/solve_duel.h); delete this file when it does.
#include "cli/command.h"
#include "cli/solve_duel.h"

namespace sling::cli {
namespace {

const RegisterCommand kRegister("solve-duel", "Solve the duel exactly (same as `solve duel`)",
                                [](CLI::App& sub) { configure_solve_duel(sub); });

}  // namespace
}  // namespace sling::cli
