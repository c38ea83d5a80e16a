#pragma once
// The extension's type erasure: one Python `Game` and one Python `State` class over every game.
// A Game holds a shared pointer to the concrete game (immutable, shared with its states); a State
// holds that pointer and the game's own trivially copyable state value.  Each method is written
// once as a generic lambda and dispatched with std::visit, so a call from Python costs one visit
// and the game's own function (the hot loop is Python's, not this one).
//
// The games are the registry's (engine/games.h), in the same order: both variants below are
// built from its list, so a new game there is a new alternative here.

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <variant>

#include "engine/core/game.h"
#include "engine/games.h"

namespace sling::python {

namespace py = pybind11;

template <class Games>
struct VariantsOf;
template <class... G>
struct VariantsOf<std::tuple<G...>> {
  using Games = std::variant<std::shared_ptr<const G>...>;
  template <template <class> class Typed>
  using Of = std::variant<Typed<G>...>;
};

using GameVariant = VariantsOf<RegisteredGames>::Games;

// A game as Python holds it.
struct PyGame {
  GameVariant game;
  std::string name() const {
    return std::visit([](const auto& g) { return std::string(g->info().name); }, game);
  }
};

template <Game G>
struct TypedState {
  std::shared_ptr<const G> game;
  typename G::State state;
};

using StateVariant = VariantsOf<RegisteredGames>::Of<TypedState>;

// A state as Python holds it: the game it belongs to and its value.
struct PyState {
  StateVariant value;
};

template <Game G>
PyState make_state(std::shared_ptr<const G> game, const typename G::State& state) {
  return PyState{TypedState<G>{std::move(game), state}};
}

// The game of a state, as Python's Game.
inline PyGame game_of(const PyState& state) {
  return std::visit([](const auto& s) { return PyGame{GameVariant(s.game)}; }, state.value);
}

// The concrete game of `game`, or a TypeError naming both games.
template <Game G>
const std::shared_ptr<const G>& require_game(const PyGame& game, const char* what) {
  if (const auto* g = std::get_if<std::shared_ptr<const G>>(&game.game)) return *g;
  throw py::type_error(std::string(what) + " needs a " +
                       std::string(GameRegistration<G>::kDeclaration.name) + " game, not " +
                       game.name());
}

// The concrete state of `state`, or a TypeError naming both games.
template <Game G>
TypedState<G>& require_state(PyState& state, const char* what) {
  if (auto* s = std::get_if<TypedState<G>>(&state.value)) return *s;
  throw py::type_error(std::string(what) + " needs a " +
                       std::string(GameRegistration<G>::kDeclaration.name) + " state, not a " +
                       game_of(state).name() + " state");
}
template <Game G>
const TypedState<G>& require_state(const PyState& state, const char* what) {
  return require_state<G>(const_cast<PyState&>(state), what);
}

// The concrete state of a game's state, checking that the state belongs to this very game (same
// rules): a state of other rules would index tables of another size.
template <Game G>
const typename G::State& state_of_game(const G& game, const PyState& state, const char* what) {
  const TypedState<G>& typed = require_state<G>(state, what);
  if (typed.game.get() != &game && typed.game->rules_json() != game.rules_json()) {
    throw py::value_error(std::string(what) + ": the state belongs to a " +
                          std::string(game.info().name) + " game with other rules");
  }
  return typed.state;
}

// Shows a class as sling.X (or sling.pig.X) in help(), reprs and signatures rather than as
// sling._sling.X; pickles find it there too.  Call before the methods are defined.
template <class Class>
Class in_package(Class cls, const char* module = "sling") {
  cls.attr("__module__") = module;
  return cls;
}

// The module's parts, one file each.
void bind_errors(py::module_& m);
void bind_games(py::module_& m);
void bind_agents(py::module_& m);
void bind_experiments(py::module_& m);
void bind_pig(py::module_& m);
void bind_duel(py::module_& m);
void bind_danelaw(py::module_& m);

}  // namespace sling::python
