#pragma once
// The hook through which a game offers a value function to the searches (`leaf=value` in the
// `mcts` and `expectimax` specs).  A game specialises GameValue<G> next to its agents: the value
// function's type (a callable of search/value.h), its spec options, and how to build it.  Games
// without one keep kAvailable = false, and `leaf=value` is then not among their choices.

#include <memory>
#include <string>

#include "agents/spec.h"
#include "search/value.h"

namespace sling {

template <Game G>
struct GameValue {
  static constexpr bool kAvailable = false;
  using Function = search::NoLeafValue;
  struct Options {};
  // Declares and reads the value function's own spec options (shown by `sling agents`).
  static Options read(OptionReader&) { return {}; }
  // The options as they appear in a spec (",key=value...", or "").
  static std::string spec(const Options&) { return ""; }
  static std::shared_ptr<const Function> make(const G&, const Options&) { return nullptr; }
};

}  // namespace sling
