// sling.pig: Pig's exact solution (solvers/pig/) with its value and policy tables as numpy arrays.

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/keyed_cache.h"
#include "python/core.h"
#include "solvers/pig/solver.h"

namespace sling::python {
namespace {

using pig::PigGame;
using pig::PigSolution;
using pig::PigState;

// Solutions stay loaded per goal (goal 100 is 8 MB and about a second to solve).
KeyedCache<PigSolution> solved_tables(4);

std::shared_ptr<const PigSolution> solved(int goal) {
  return solved_tables.get(std::to_string(goal), [&] { return PigSolution::solve(goal); });
}

// Side 0's (the first player's) win probability at any state of a game with the solution's goal:
// read at a decision, averaged over the faces at a roll.
double first_player_value(const PigGame& game, const PigSolution& solution, const PigState& s) {
  if (game.is_terminal(s)) return game.returns(s)[0] > 0 ? 1.0 : 0.0;
  if (game.current_player(s) == kChancePlayer) {
    return chance_expectation(
        game, s, [&](const PigState& next) { return first_player_value(game, solution, next); });
  }
  const int me = s.to_move;
  const double mover = solution.win_probability(s.scores[me], s.scores[1 - me], s.turn_total);
  return me == 0 ? mover : 1.0 - mover;
}

struct PySolution {
  std::shared_ptr<const PigSolution> solution;
  std::shared_ptr<const PigGame> game;  // a game of the solution's goal

  const PigState& state(const PyState& s, const char* what) const {
    const PigState& state = require_state<PigGame>(s, what).state;
    if (require_state<PigGame>(s, what).game->goal() != solution->goal()) {
      throw py::value_error(std::string(what) + ": the state's game has goal " +
                            std::to_string(require_state<PigGame>(s, what).game->goal()) +
                            ", the solution " + std::to_string(solution->goal()));
    }
    return state;
  }
};

PySolution make_solution(std::shared_ptr<const PigSolution> solution) {
  pig::PigRules rules;
  rules.goal = solution->goal();
  return PySolution{std::move(solution), std::make_shared<const PigGame>(rules)};
}

}  // namespace

void bind_pig(py::module_& parent) {
  py::module_ m = parent.def_submodule("pig", "Pig's exact solution (value iteration).");

  in_package(py::class_<PySolution>(m, "Solution", R"doc(Pig solved exactly for one goal.

win_probability(mine, theirs, turn_total) is the probability that the player to move wins under
optimal play by both, at a decision with banked scores (mine, theirs) and that turn total.)doc"),
             "sling.pig")
      .def_property_readonly("goal", [](const PySolution& s) { return s.solution->goal(); })
      .def_property_readonly(
          "game", [](const PySolution& s) { return PyGame{GameVariant(s.game)}; },
          "The Pig game of this goal.")
      .def_property_readonly(
          "first_player_win_probability",
          [](const PySolution& s) { return s.solution->first_player_win_probability(); },
          "The first player's optimal win probability from the start.")
      .def(
          "win_probability",
          [](const PySolution& s, int mine, int theirs, int turn_total) {
            const int goal = s.solution->goal();
            if (mine < 0 || theirs < 0 || turn_total < 0 || mine >= goal || theirs >= goal) {
              throw py::value_error(
                  "win_probability: scores must lie in [0, goal) and the turn "
                  "total be at least 0");
            }
            return s.solution->win_probability(mine, theirs, turn_total);
          },
          py::arg("mine"), py::arg("theirs"), py::arg("turn_total"))
      .def(
          "value",
          [](const PySolution& s, const PyState& state) {
            return first_player_value(*s.game, *s.solution, s.state(state, "pig.Solution.value"));
          },
          py::arg("state"),
          "Side 0's (the first player's) win probability at any state under optimal play.")
      .def(
          "action_values",
          [](const PySolution& s, const PyState& state) {
            const PigState& p = s.state(state, "pig.Solution.action_values");
            std::vector<std::pair<Action, double>> out;
            if (s.game->current_player(p) < 0) return out;
            for (const Action a : {pig::kRoll, pig::kHold}) {
              PigState next = p;
              s.game->apply_action(next, a);
              out.emplace_back(a, first_player_value(*s.game, *s.solution, next));
            }
            return out;
          },
          py::arg("state"),
          "(action, side 0's win probability after it) for roll (0) and hold (1) at a decision.")
      .def(
          "best_action",
          [](const PySolution& s, const PyState& state) {
            const PigState& p = s.state(state, "pig.Solution.best_action");
            if (s.game->current_player(p) < 0) {
              throw IllegalActionError("best_action: the state waits for no decision");
            }
            return s.solution->best_action(p);
          },
          py::arg("state"), "The optimal action at a decision: 0 roll or 1 hold.")
      .def(
          "values",
          [](const PySolution& s) {
            const int goal = s.solution->goal();
            py::array_t<double> out({goal, goal, goal});
            auto view = out.mutable_unchecked<3>();
            for (int i = 0; i < goal; ++i)
              for (int j = 0; j < goal; ++j)
                for (int k = 0; k < goal; ++k) view(i, j, k) = s.solution->win_probability(i, j, k);
            return out;
          },
          "A float64 array [mine, theirs, turn_total] of shape (goal, goal, goal): the mover's "
          "win probability (1 where mine + turn_total reaches the goal).  A copy: the solver "
          "stores a triangular table.")
      .def(
          "policy",
          [](const PySolution& s) {
            const int goal = s.solution->goal();
            py::array_t<std::uint8_t> out({goal, goal, goal});
            auto view = out.mutable_unchecked<3>();
            PigState state;
            for (int i = 0; i < goal; ++i)
              for (int j = 0; j < goal; ++j)
                for (int k = 0; k < goal; ++k) {
                  state.scores = {static_cast<std::uint16_t>(i), static_cast<std::uint16_t>(j)};
                  state.turn_total = static_cast<std::uint16_t>(k);
                  view(i, j, k) = s.solution->best_action(state) == pig::kRoll ? 1 : 0;
                }
            return out;
          },
          "A uint8 array [mine, theirs, turn_total] of shape (goal, goal, goal): 1 where rolling "
          "is optimal, 0 where holding is.")
      .def(
          "save", [](const PySolution& s, const std::string& path) { s.solution->save(path); },
          py::arg("path"), "Saves the policy file `sling solve pig --out` writes.")
      .def("__repr__", [](const PySolution& s) {
        return "<sling.pig.Solution goal=" + std::to_string(s.solution->goal()) + ">";
      });

  m.def(
      "solve",
      [](int goal) {
        std::shared_ptr<const PigSolution> solution;
        {
          py::gil_scoped_release release;
          solution = solved(goal);
        }
        return make_solution(std::move(solution));
      },
      py::arg("goal") = 100,
      "Solves Pig to `goal` (1-250) by value iteration (about a second at 100; kept per goal).");
  m.def(
      "load_solution",
      [](const std::string& path) {
        return make_solution(std::make_shared<const PigSolution>(PigSolution::load(path)));
      },
      py::arg("path"), "Reads a file of `sling solve pig --out`; raises FileFormatError.");
}

}  // namespace sling::python
