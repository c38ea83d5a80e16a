#pragma once
// The form of a state's JSON that Sling wrote before it had one form (engine/core/state_io.h), and
// that its readers still accept in older files and pickles: cereal's own output, indented, wrapped
// as {"state": {...}}, with C++ arrays as {"value0": ..., "value1": ...} objects.

#include <sstream>
#include <string>

#include "engine/core/state_io.h"

namespace sling::testing_support {

template <class State>
std::string cereal_wrapped_json(const State& state) {
  std::ostringstream out;
  {
    cereal::JSONOutputArchive archive(out);
    archive(cereal::make_nvp("state", state));
  }
  return out.str();
}

}  // namespace sling::testing_support
