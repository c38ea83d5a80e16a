// sling.Agent (any spec string or preset), sling.agents(game) and sling.presets(game).

#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "python/agents.h"

namespace sling::python {
namespace {

template <Game G>
struct TypedAgent {
  std::shared_ptr<const G> game;
  std::shared_ptr<Agent<G>> agent;
  std::optional<typename G::State> last_state;  // where act() last ran, for the analysis' text
};

using AgentVariant = std::variant<TypedAgent<duel::DuelGame>, TypedAgent<danelaw::DanelawGame>,
                                  TypedAgent<pig::PigGame>>;

struct PyAgent {
  AgentVariant value;
};

PyAgent make_py_agent(const PyGame& game, const std::string& spec, std::uint64_t seed) {
  return std::visit(
      [&](const auto& g) {
        using G = std::remove_cvref_t<decltype(*g)>;
        std::shared_ptr<Agent<G>> agent;
        {
          py::gil_scoped_release release;  // building may load or solve a table
          agent = make_agent(*g, spec);
          agent->new_game(seed);
        }
        return PyAgent{TypedAgent<G>{g, std::move(agent), std::nullopt}};
      },
      game.game);
}

template <Game G>
py::dict analysis_dict(const G& game, const std::optional<typename G::State>& state,
                       const Analysis& analysis) {
  py::list actions;
  for (const ActionStat& stat : analysis.actions) {
    py::dict entry;
    entry["action"] = stat.action;
    entry["text"] = state ? game.action_to_string(*state, stat.action) : std::string();
    entry["value"] = stat.value;
    entry["visits"] = stat.visits;
    actions.append(entry);
  }
  py::dict out;
  // An agent that compared nothing for its move (a rule-of-thumb move, the rest of a plan) has no
  // value to give, and says so: None, not a 0.0 that reads as an even game (as the protocol omits
  // its win_probability).
  const bool analysed = !analysis.actions.empty() || analysis.nodes > 0 || analysis.exact;
  out["value"] = analysed ? py::object(py::float_(analysis.value)) : py::object(py::none());
  out["actions"] = actions;
  out["nodes"] = analysis.nodes;
  out["exact"] = analysis.exact;
  return out;
}

template <Game G>
Action act_on(TypedAgent<G>& agent, const PyState& s) {
  const typename G::State& state = state_of_game(*agent.game, s, "Agent.act");
  if (agent.game->current_player(state) < 0) {
    throw IllegalActionError(
        "Agent.act: the state waits for no decision (a chance node or the end)");
  }
  Action action;
  {
    py::gil_scoped_release release;
    action = agent.agent->act(state);
  }
  agent.last_state = state;
  return action;
}

template <Game G>
py::list catalogue(const G& game) {
  py::list out;
  for (const AgentInfo& info : agent_catalogue(game)) {
    py::list options;
    for (const AgentOptionInfo& option : info.options) {
      py::dict o;
      o["key"] = option.key;
      o["default"] = option.default_value;
      o["range"] = option.range;
      o["help"] = option.help;
      options.append(o);
    }
    py::dict entry;
    entry["name"] = info.name;
    entry["help"] = info.help;
    entry["options"] = options;
    out.append(entry);
  }
  return out;
}

}  // namespace

void bind_agents(py::module_& m) {
  in_package(
      py::class_<PyAgent>(m, "Agent", R"doc(An AI player built from a spec string or a preset name.

Agent(game, spec, seed=0): spec as `sling agents GAME` lists them ("random", "heuristic",
"mcts:iterations=2000", "expectimax:depth=3", the game's own agents) or a preset ("easy",
"normal", "strong").  A bad spec raises OptionError with the command line's message.  seed
drives the agent's own random choices (new_game(seed) starts over).)doc"))
      .def(py::init(&make_py_agent), py::arg("game"), py::arg("spec"), py::arg("seed") = 0)
      .def_property_readonly(
          "spec",
          [](const PyAgent& a) {
            return std::visit([](const auto& t) { return t.agent->spec(); }, a.value);
          },
          "The spec that rebuilds this agent, every option spelled out.")
      .def(
          "new_game",
          [](PyAgent& a, std::uint64_t seed) {
            std::visit([&](auto& t) { t.agent->new_game(seed); }, a.value);
          },
          py::arg("seed"), "Starts a new game: the seed drives the agent's random choices in it.")
      .def(
          "act",
          [](PyAgent& a, const PyState& s) {
            return std::visit([&](auto& t) { return act_on(t, s); }, a.value);
          },
          py::arg("state"),
          "The agent's action at a decision state (the search runs without the GIL).")
      .def(
          "observe",
          [](PyAgent& a, const PyState& s, Action action) {
            std::visit(
                [&](auto& t) {
                  t.agent->observe(state_of_game(*t.game, s, "Agent.observe"), action);
                },
                a.value);
          },
          py::arg("state"), py::arg("action"),
          "Tells the agent which action or chance outcome was applied to `state` (agents that "
          "reuse their search tree use it; optional).")
      .def(
          "analysis",
          [](const PyAgent& a) {
            return std::visit(
                [](const auto& t) {
                  return analysis_dict(*t.game, t.last_state, t.agent->last_analysis());
                },
                a.value);
          },
          "What the last act() found: {'value', 'actions': [{'action', 'text', 'value', "
          "'visits'}] best first, 'nodes', 'exact'}; values are the mover's expected payoff in "
          "[-1, 1].  Agents that do not search return no actions.")
      .def(
          "hints",
          [](PyAgent& a, const PyState& s) {
            return std::visit(
                [&](auto& t) {
                  act_on(t, s);
                  const py::dict analysis =
                      analysis_dict(*t.game, t.last_state, t.agent->last_analysis());
                  return py::list(analysis["actions"]);
                },
                a.value);
          },
          py::arg("state"),
          "Runs act(state) and returns the analysis' action values, best first (as `sling play` "
          "hints show them).")
      .def("__repr__", [](const PyAgent& a) {
        return std::visit([](const auto& t) { return "sling.Agent('" + t.agent->spec() + "')"; },
                          a.value);
      });

  m.def(
      "agents",
      [](const PyGame& g) {
        return std::visit([](const auto& game) { return catalogue(*game); }, g.game);
      },
      py::arg("game"),
      "Every agent of the game with its options: [{'name', 'help', 'options': [{'key', "
      "'default', 'range', 'help'}]}] (what `sling agents GAME` prints).");
  m.def(
      "presets",
      [](const PyGame& g) {
        return std::visit(
            [](const auto& game) {
              py::dict out;
              for (const PresetInfo& preset : agent_presets(*game))
                out[py::str(std::string(preset.name))] = std::string(preset.spec);
              return out;
            },
            g.game);
      },
      py::arg("game"),
      "The presets of the game: {'easy': spec, 'normal': spec, 'strong': spec}; danelaw also "
      "keeps 'strong-0a8476c', a fixed reference.");
}

}  // namespace sling::python
