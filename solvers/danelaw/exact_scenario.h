#pragma once
// The referee's scenarios (solvers/danelaw/scenarios/): small danelaw variants, each a rules file
// naming its map file by a path from the repository root, so that `sling solve danelaw --rules
// solvers/danelaw/scenarios/ford-2.rules.json` works from the root.  Tests and experiments, which
// run elsewhere, build them with load_scenario.

#include <string>
#include <vector>

#include "engine/danelaw/danelaw.h"

namespace sling::danelaw {

// The scenarios the referee's report measures (solvers/danelaw/scenarios/NAME.rules.json).
const std::vector<std::string>& referee_scenarios();

// The game of scenario `name` in the source tree at `root`: its rules file read, its map path
// taken from `root`.  Throws RulesError (a missing or bad file, in one line).
DanelawGame load_scenario(const std::string& root, const std::string& name);

}  // namespace sling::danelaw
