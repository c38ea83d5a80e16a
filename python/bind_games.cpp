// sling.Game and sling.State: every game of the registry (engine/games.h) behind one pair of Python
// classes.

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "agents/registry.h"
#include "engine/core/dice.h"
#include "engine/core/state_io.h"
#include "engine/game_files.h"
#include "python/core.h"
#include "python/observation.h"

namespace sling::python {
namespace {

// Builds game G from Python's `rules` (None, a dict, or a path) and `map` (a path, a game with a
// map only):
// a file's errors name the file, as on the command line (engine/game_files.h).
template <Game G>
std::shared_ptr<const G> build_game(const py::object& rules, const py::object& map) {
  constexpr GameDeclaration declaration = GameRegistration<G>::kDeclaration;
  GameFiles options;
  if (!map.is_none()) options.map_file = py::str(py::module_::import("os").attr("fspath")(map));
  if (py::isinstance<py::dict>(rules)) {
    py::dict copy = py::dict(rules);
    if constexpr (declaration.has_map) {
      if (!options.map_file.empty()) {
        copy["map"] = options.map_file;
        if (copy.contains("map_hash")) copy.attr("pop")("map_hash");
      }
    } else if (!options.map_file.empty()) {
      return std::make_shared<const G>(make_game<G>(options));  // the CLI's "no map" error
    }
    const std::string text = py::str(py::module_::import("json").attr("dumps")(copy));
    py::gil_scoped_release release;
    return std::make_shared<const G>(G::from_rules_json(text));
  }
  if (!rules.is_none()) {
    options.rules_file = py::str(py::module_::import("os").attr("fspath")(rules));
  }
  py::gil_scoped_release release;
  return std::make_shared<const G>(make_game<G>(options));
}

PyGame make_py_game(const std::string& name, const py::object& rules, const py::object& map) {
  return with_registered_game(name, [&]<class G>(std::type_identity<G>) {  // OptionError if none
    return PyGame{GameVariant(build_game<G>(rules, map))};
  });
}

py::object json_loads(const std::string& text) {
  return py::module_::import("json").attr("loads")(text);
}

template <Game G>
typename G::State parse_state(const G& game, const py::object& value) {
  const std::string text =
      py::isinstance<py::str>(value)
          ? value.cast<std::string>()
          : std::string(py::str(py::module_::import("json").attr("dumps")(value)));
  typename G::State state = state_from_json<typename G::State>(text);
  if constexpr (requires { game.check_state(state); }) game.check_state(state);
  return state;
}

// Applies a decision or chance outcome, checked by the game (IllegalActionError); at a terminal
// state nothing applies.
// The legal decisions of a typed state (none at chance and terminal states).
template <class Typed>
auto decisions_of(const Typed& t) {
  using G = std::remove_cvref_t<decltype(*t.game)>;
  ActionList<G> actions;
  if (t.game->current_player(t.state) >= 0) t.game->legal_actions(t.state, actions);
  return actions;
}

template <Game G>
void apply_checked(const G& game, typename G::State& s, Action action) {
  if (game.is_terminal(s)) throw IllegalActionError("the game is over: no action applies");
  apply_any(game, s, action);
}

const char* kStateDoc = R"doc(A game state: a small value (copy it freely) tied to its game.

current_player is 0 or 1 for the side to move, CHANCE (-1) at a chance node and TERMINAL (-2)
once the game is over.  Actions are integers (Sling's action codes); action_to_string names
them.  apply(action) plays a decision or a chance outcome, whichever the state waits for, and
raises IllegalActionError for anything else.)doc";

// The game's rules and bounds.
void def_game_rules(py::class_<PyGame>& game) {
  game.def_property_readonly("name", &PyGame::name, "The game's name: duel, danelaw or pig.")
      .def_property_readonly(
          "sides",
          [](const PyGame& g) {
            return std::visit(
                [](const auto& game) {
                  return py::make_tuple(std::string(game->info().sides[0]),
                                        std::string(game->info().sides[1]));
                },
                g.game);
          },
          "The two sides' names, side 0 first (e.g. ('david', 'goliath')).")
      .def_property_readonly(
          "rules",
          [](const PyGame& g) {
            return json_loads(
                std::visit([](const auto& game) { return game->rules_json(); }, g.game));
          },
          "The rules as a dict (every field; Game(name, rules=game.rules) rebuilds the game).")
      .def_property_readonly(
          "rules_json",
          [](const PyGame& g) {
            return std::visit([](const auto& game) { return game->rules_json(); }, g.game);
          },
          "The rules as JSON text, exactly as a record or solution file stores them.")
      .def_property_readonly(
          "max_actions",
          [](const PyGame& g) {
            return std::visit([](const auto& game) { return game->info().max_actions; }, g.game);
          },
          "The most legal actions any state has.")
      .def_property_readonly(
          "max_chance_outcomes",
          [](const PyGame& g) {
            return std::visit([](const auto& game) { return game->info().max_chance_outcomes; },
                              g.game);
          },
          "The most outcomes any chance node has.")
      .def_property_readonly(
          "has_draws",
          [](const PyGame& g) {
            return std::visit([](const auto& game) { return game->info().has_draws; }, g.game);
          },
          "Whether a game can end without a winner.")
      .def_property_readonly(
          "observation_size",
          [](const PyGame& g) {
            return std::visit(
                [](const auto& game) {
                  using G = std::remove_cvref_t<decltype(*game)>;
                  return observation_size<G>();
                },
                g.game);
          },
          "The length of State.observation().");
}

// The states of a game: the initial one, one read from JSON, and a state's evaluation.
void def_game_states(py::class_<PyGame>& game) {
  game.def(
          "new_initial_state",
          [](const PyGame& g) {
            return std::visit(
                [](const auto& game) { return make_state(game, game->initial_state()); }, g.game);
          },
          "The state a game starts from.")
      .def(
          "initial_state",
          [](const PyGame& g) {
            return std::visit(
                [](const auto& game) { return make_state(game, game->initial_state()); }, g.game);
          },
          "The state a game starts from (the same as new_initial_state).")
      .def(
          "state_from_json",
          [](const PyGame& g, const py::object& value) {
            return std::visit(
                [&](const auto& game) { return make_state(game, parse_state(*game, value)); },
                g.game);
          },
          py::arg("json"),
          "A state from State.to_json()'s text or the dict json.loads makes of it (also the "
          "older form wrapped as {\"state\": {...}}); raises FileFormatError for anything else.")
      .def(
          "evaluate",
          [](const PyGame& g, const PyState& s) -> double {
            return std::visit(
                [&](const auto& game) -> double {
                  using G = std::remove_cvref_t<decltype(*game)>;
                  const auto& state = state_of_game(*game, s, "Game.evaluate");
                  if (game->is_terminal(state)) return game->returns(state)[0];
                  if constexpr (HasEvaluator<G>) {
                    return game->evaluate(state);
                  } else if constexpr (GameValue<G>::kAvailable) {
                    return (*GameValue<G>::make(*game, {}))(state);  // danelaw's learned model
                  } else {
                    throw py::type_error(std::string(game->info().name) + " has no evaluation");
                  }
                },
                g.game);
          },
          py::arg("state"),
          "The game's static evaluation (its heuristic, or danelaw's learned value model; not a "
          "solution): side 0's expected payoff in [-1, 1].  Exact values: sling.pig.solve, "
          "sling.duel.Solution, "
          "sling.duel.ValueFunction.");
}

// Equality and hashing by rules, pickling and repr.
void def_game_value_semantics(py::class_<PyGame>& game) {
  game.def("__eq__",
           [](const PyGame& a, const PyGame& b) {
             return a.game.index() == b.game.index() &&
                    std::visit([](const auto& g) { return g->rules_json(); }, a.game) ==
                        std::visit([](const auto& g) { return g->rules_json(); }, b.game);
           })
      .def("__hash__",
           [](const PyGame& g) {
             return py::hash(py::str(
                 g.name() + std::visit([](const auto& x) { return x->rules_json(); }, g.game)));
           })
      .def(py::pickle(
          [](const PyGame& g) {
            return py::make_tuple(
                g.name(), std::visit([](const auto& x) { return x->rules_json(); }, g.game));
          },
          [](const py::tuple& t) {
            return make_py_game(t[0].cast<std::string>(), json_loads(t[1].cast<std::string>()),
                                py::none());
          }))
      .def("__repr__", [](const PyGame& g) { return "sling.Game('" + g.name() + "')"; });
}

// Whose turn it is, and whether the game is over.
void def_state_position(py::class_<PyState>& state) {
  state.def_property_readonly("game", &game_of, "The game this state belongs to.")
      .def_property_readonly(
          "current_player",
          [](const PyState& s) {
            return std::visit(
                [](const auto& t) { return static_cast<int>(t.game->current_player(t.state)); },
                s.value);
          },
          "0 or 1: the side to move; CHANCE (-1) at a chance node; TERMINAL (-2) at the end.")
      .def_property_readonly(
          "is_terminal",
          [](const PyState& s) {
            return std::visit([](const auto& t) { return t.game->is_terminal(t.state); }, s.value);
          },
          "Whether the game is over.")
      .def_property_readonly(
          "is_chance_node",
          [](const PyState& s) {
            return std::visit(
                [](const auto& t) { return t.game->current_player(t.state) == kChancePlayer; },
                s.value);
          },
          "Whether the state waits for a chance outcome (dice).");
}

// The legal actions and chance outcomes, playing them, and their names.
void def_state_actions(py::class_<PyState>& state) {
  state
      .def(
          "legal_actions",
          [](const PyState& s) {
            return std::visit(
                [](const auto& t) {
                  const auto actions = decisions_of(t);
                  return std::vector<Action>(actions.begin(), actions.end());
                },
                s.value);
          },
          "The legal decisions of the side to move (empty at chance and terminal states).")
      .def(
          "legal_actions_with_text",
          [](const PyState& s) {
            return std::visit(
                [](const auto& t) {
                  const auto actions = decisions_of(t);
                  std::vector<std::pair<Action, std::string>> out;
                  for (const Action a : actions)
                    out.emplace_back(a, t.game->action_to_string(t.state, a));
                  return out;
                },
                s.value);
          },
          "(action, text) for each legal decision.")
      .def(
          "legal_action_mask",
          [](const PyState& s, int size) {
            py::array_t<bool> mask(size);
            auto view = mask.mutable_unchecked<1>();
            for (py::ssize_t i = 0; i < size; ++i) view(i) = false;
            std::visit(
                [&](const auto& t) {
                  const auto actions = decisions_of(t);
                  for (const Action a : actions) {
                    if (a >= static_cast<Action>(size)) {
                      throw py::value_error("legal_action_mask: action " + std::to_string(a) +
                                            " does not fit a mask of size " + std::to_string(size));
                    }
                    view(a) = true;
                  }
                },
                s.value);
            return mask;
          },
          py::arg("size"), "A numpy bool array of `size` entries, True at each legal action code.")
      .def(
          "chance_outcomes",
          [](const PyState& s) {
            return std::visit(
                [](const auto& t) {
                  using G = std::remove_cvref_t<decltype(*t.game)>;
                  std::vector<std::pair<Action, double>> out;
                  if (t.game->current_player(t.state) != kChancePlayer) return out;
                  ChanceList<G> outcomes;
                  t.game->chance_outcomes(t.state, outcomes);
                  for (const ChanceOutcome& o : outcomes)
                    out.emplace_back(o.outcome, o.probability);
                  return out;
                },
                s.value);
          },
          "(outcome, probability) for each chance outcome (empty unless a chance node); the "
          "probabilities are exact and sum to one.")
      .def(
          "apply",
          [](PyState& s, Action action) {
            std::visit([&](auto& t) { apply_checked(*t.game, t.state, action); }, s.value);
          },
          py::arg("action"),
          "Plays a decision or a chance outcome in place; raises IllegalActionError when it is "
          "not legal here.")
      .def(
          "child",
          [](const PyState& s, Action action) {
            PyState next = s;
            std::visit([&](auto& t) { apply_checked(*t.game, t.state, action); }, next.value);
            return next;
          },
          py::arg("action"), "A copy of the state with the action applied.")
      .def(
          "parse_action",
          [](const PyState& s, const std::string& text) {
            return std::visit([&](const auto& t) { return t.game->parse_action(t.state, text); },
                              s.value);
          },
          py::arg("text"), "The action a text names (as typed in `sling play`); raises ParseError.")
      .def(
          "action_to_string",
          [](const PyState& s, Action action) {
            return std::visit(
                [&](const auto& t) { return t.game->action_to_string(t.state, action); }, s.value);
          },
          py::arg("action"), "The text of a decision or chance outcome of this state.");
}

// The result, the dice, and the state as a vector.
void def_state_outcome(py::class_<PyState>& state) {
  state
      .def(
          "returns",
          [](const PyState& s) {
            return std::visit(
                [](const auto& t) {
                  const Returns r =
                      t.game->is_terminal(t.state) ? t.game->returns(t.state) : Returns{};
                  return py::make_tuple(r[0], r[1]);
                },
                s.value);
          },
          "Each side's payoff: +1 a win, -1 a loss, 0 a draw (0, 0 before the end).")
      .def_property_readonly(
          "end_reason",
          [](const PyState& s) -> py::object {
            return std::visit(
                [](const auto& t) -> py::object {
                  using G = std::remove_cvref_t<decltype(*t.game)>;
                  if (!t.game->is_terminal(t.state)) return py::none();
                  if constexpr (HasEndReason<G>) {
                    return py::str(std::string(t.game->end_reason(t.state)));
                  } else {
                    return py::str("end");
                  }
                },
                s.value);
          },
          "How a finished game ended ('beheaded', 'javelin', ...), None while playing.")
      .def(
          "roll_dice",
          [](const PyState& s, std::uint64_t seed, std::uint64_t ply) {
            return std::visit(
                [&](const auto& t) {
                  if (t.game->current_player(t.state) != kChancePlayer) {
                    throw IllegalActionError("roll_dice: the state waits for no dice");
                  }
                  return roll_dice(*t.game, t.state, seed, ply);
                },
                s.value);
          },
          py::arg("seed"), py::arg("ply"),
          "The chance outcome Sling throws at ply `ply` of a game with seed `seed` (the one dice "
          "convention of `sling play`, `match` and `tournament`).")
      .def(
          "observation",
          [](const PyState& s) {
            return std::visit(
                [](const auto& t) {
                  using G = std::remove_cvref_t<decltype(*t.game)>;
                  py::array_t<float> out(observation_size<G>());
                  observation(*t.game, t.state, out.mutable_data());
                  return out;
                },
                s.value);
          },
          "The state as a numpy float32 vector in [0, 1] (layout: docs/python.md).");
}

// JSON, copies, pickling, equality, hashing and printing.
void def_state_value_semantics(py::class_<PyState>& state) {
  state
      .def(
          "to_json",
          [](const PyState& s) {
            return std::visit([](const auto& t) { return state_to_json(t.state); }, s.value);
          },
          "The state as one line of JSON, the agent protocol's form (Game.state_from_json reads "
          "it back).")
      .def(
          "copy", [](const PyState& s) { return s; }, "An independent copy.")
      .def(py::pickle(
          [](const PyState& s) {
            // The game (name and rules) and the state's JSON: pickles travel between processes.
            const PyGame game = game_of(s);
            return py::make_tuple(
                game.name(), std::visit([](const auto& g) { return g->rules_json(); }, game.game),
                std::visit([](const auto& t) { return state_to_json(t.state); }, s.value));
          },
          [](const py::tuple& t) {
            const PyGame game = make_py_game(t[0].cast<std::string>(),
                                             json_loads(t[1].cast<std::string>()), py::none());
            return std::visit([&](const auto& g) { return make_state(g, parse_state(*g, t[2])); },
                              game.game);
          }))
      .def("__copy__", [](const PyState& s) { return s; })
      .def(
          "__deepcopy__", [](const PyState& s, const py::object&) { return s; }, py::arg("memo"))
      .def("__eq__",
           [](const PyState& a, const py::object& other) {
             if (!py::isinstance<PyState>(other)) return false;
             const PyState& b = other.cast<const PyState&>();
             if (a.value.index() != b.value.index()) return false;
             return std::visit(
                 [&](const auto& t) {
                   using T = std::remove_cvref_t<decltype(t)>;
                   const T& u = std::get<T>(b.value);
                   return t.state == u.state &&
                          (t.game == u.game || t.game->rules_json() == u.game->rules_json());
                 },
                 a.value);
           })
      .def("__hash__",
           [](const PyState& s) {
             return std::visit(
                 [](const auto& t) {
                   using G = std::remove_cvref_t<decltype(*t.game)>;
                   return static_cast<py::ssize_t>(G::hash(t.state) >> 1);
                 },
                 s.value);
           })
      .def("__str__",
           [](const PyState& s) {
             return std::visit([](const auto& t) { return t.game->state_to_string(t.state); },
                               s.value);
           })
      .def("__repr__", [](const PyState& s) {
        return std::visit(
            [](const auto& t) {
              std::string text = t.game->state_to_string(t.state);
              const std::size_t line = text.find('\n');
              if (line != std::string::npos) text = text.substr(0, line);
              return "<sling.State " + std::string(t.game->info().name) + ": " + text + ">";
            },
            s.value);
      });
}

}  // namespace

void bind_games(py::module_& m) {
  m.attr("CHANCE") = static_cast<int>(kChancePlayer);
  m.attr("TERMINAL") = static_cast<int>(kTerminalPlayer);

  auto game = in_package(py::class_<PyGame>(m, "Game",
                                            R"doc(A game with its rules: "duel", "danelaw" or "pig".

Game(name, rules=None, map=None): rules is None (the game's defaults, as `sling rules NAME`
prints them), a dict of rule fields (missing ones keep their defaults; unknown keys raise
RulesError), or the path of a rules JSON file.  map (danelaw only) is a map file's path.)doc"))
                  .def(py::init(&make_py_game), py::arg("name"), py::arg("rules") = py::none(),
                       py::arg("map") = py::none());
  def_game_rules(game);
  def_game_states(game);
  def_game_value_semantics(game);

  auto state = in_package(py::class_<PyState>(m, "State", kStateDoc));
  def_state_position(state);
  def_state_actions(state);
  def_state_outcome(state);
  def_state_value_semantics(state);
}

}  // namespace sling::python
