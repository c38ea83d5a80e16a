#include "solvers/danelaw/exact_scenario.h"

#include "engine/core/io.h"
#include "engine/core/json_options.h"

namespace sling::danelaw {

const std::vector<std::string>& referee_scenarios() {
  static const std::vector<std::string> names = {"ford-2", "fjord-2", "holt-2", "holt-3v"};
  return names;
}

DanelawGame load_scenario(const std::string& root, const std::string& name) {
  const std::string path = root + "/solvers/danelaw/scenarios/" + name + ".rules.json";
  std::string text;
  try {
    text = read_file(path);
  } catch (const FileFormatError& e) {
    throw RulesError(e.what());
  }
  DanelawRules rules = options_from_json<DanelawRules>(text, "danelaw rules (" + path + ")");
  rules.map = root + "/" + rules.map;
  rules.map_hash.clear();
  return DanelawGame(rules);
}

}  // namespace sling::danelaw
