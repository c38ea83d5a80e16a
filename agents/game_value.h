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

// What an agent that scores positions with its game's value function offers besides Agent<G>
// (danelaw's planner): a way to hand it another function after it is built.  Training finds the
// agents to give the function fitted so far by this interface, not by their names, so any agent
// that scores with the value function learns from it.
template <Game G>
class UsesGameValue {
 public:
  using Function = typename GameValue<G>::Function;
  virtual ~UsesGameValue() = default;
  // Whether the agent's spec named its own value function (a model file), which then stands.
  virtual bool value_named_by_spec() const = 0;
  // Scores with `value` from now on (not null).
  virtual void use_value(std::shared_ptr<const Function> value) = 0;
};

}  // namespace sling
