// sling.duel: the duel's exact solution (solve at a pitch, or load a file), its value table as
// numpy arrays, the value function of the searches, and helpers for the lattice.

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "engine/core/disk_cache.h"
#include "python/core.h"
#include "solvers/duel/coarse_value.h"
#include "solvers/duel/solution_cache.h"
#include "solvers/duel/solver.h"

namespace sling::python {
namespace {

using duel::DuelGame;
using duel::DuelIndex;
using duel::DuelSolution;
using duel::DuelState;

struct PyDuelSolution {
  std::shared_ptr<const DuelSolution> solution;
  std::shared_ptr<const DuelGame> game;  // the solution's own game, shared with its states
};

PyDuelSolution wrap(std::shared_ptr<const DuelSolution> solution) {
  auto game = std::make_shared<const DuelGame>(solution->game());
  return PyDuelSolution{std::move(solution), std::move(game)};
}

struct PyValueFunction {
  std::shared_ptr<const duel::CoarseDuelValue> value;
  std::shared_ptr<const DuelGame> game;
};

int side_index(const std::string& side) {
  if (side == "david") return duel::kDavid;
  if (side == "goliath") return duel::kGoliath;
  throw py::value_error("side: 'david' or 'goliath', not '" + side + "'");
}

std::pair<int, int> lattice_point(const DuelGame& game, int side, const std::pair<int, int>& at,
                                  const char* name) {
  const int w = game.lattice_width(static_cast<duel::Side>(side));
  const int h = game.lattice_height(static_cast<duel::Side>(side));
  if (at.first < 0 || at.first >= w || at.second < 0 || at.second >= h) {
    throw py::value_error(std::string(name) + ": lattice point (" + std::to_string(at.first) +
                          ", " + std::to_string(at.second) + ") is off the " + std::to_string(w) +
                          " x " + std::to_string(h) + " lattice");
  }
  return at;
}

// The flags of a declare state from keyword arguments.
std::uint8_t declare_flags(bool stone, bool shield, bool javelin, bool god, bool dazed,
                           bool behead_pending) {
  std::uint8_t f = 0;
  if (stone) f |= duel::kDavidHasStone;
  if (shield) f |= duel::kGoliathShield;
  if (javelin) f |= duel::kGoliathJavelin;
  if (god) f |= duel::kGodAvailable;
  if (dazed) f |= duel::kGoliathDazed;
  if (behead_pending) f |= duel::kBeheadPending;
  return f;
}

// A declare state with these points and flags, the bases not checked.
DuelState placed_state(const DuelGame& game, std::pair<int, int> david, std::pair<int, int> goliath,
                       const std::string& actor, std::uint8_t flags) {
  lattice_point(game, duel::kDavid, david, "david");
  lattice_point(game, duel::kGoliath, goliath, "goliath");
  DuelState s = game.initial_state();
  s.phase = duel::Phase::kDeclare;
  s.roll = duel::Roll::kNone;
  s.actor = static_cast<std::uint8_t>(side_index(actor));
  s.flags = flags;
  s.dice = {0, 0};
  s.david_x = static_cast<std::uint8_t>(david.first);
  s.david_y = static_cast<std::uint8_t>(david.second);
  s.goliath_x = static_cast<std::uint8_t>(goliath.first);
  s.goliath_y = static_cast<std::uint8_t>(goliath.second);
  return s;
}

DuelState declare_state(const DuelGame& game, std::pair<int, int> david,
                        std::pair<int, int> goliath, const std::string& actor, std::uint8_t flags) {
  const DuelState s = placed_state(game, david, goliath, actor, flags);
  const std::int64_t radii = game.rules().david_base_mm + game.rules().goliath_base_mm;
  if (game.centre_distance2(s) < radii * radii) {
    throw py::value_error("declare_state: the figures' bases overlap at these points");
  }
  return s;
}

// David's win probability at every David lattice point for one Goliath point, side to declare and
// flags: a copy with NaN where the bases would overlap.
py::array_t<double> value_slice(const PyDuelSolution& s, std::pair<int, int> goliath,
                                const std::string& actor, std::uint8_t flags) {
  const DuelGame& game = *s.game;
  lattice_point(game, duel::kGoliath, goliath, "goliath");
  const int w = game.lattice_width(duel::kDavid), h = game.lattice_height(duel::kDavid);
  DuelState probe = placed_state(game, {0, 0}, goliath, actor, flags);
  // Impossible flags (a javelin without the shield, a behead pending at David's turn) have no
  // entry anywhere: index_of reads the flags and the side, not the placement.
  const DuelIndex& index = s.solution->index();
  {
    if (!index.index_of(probe)) {
      throw py::value_error("value_slice: no declare state of the solution has these flags for " +
                            actor);
    }
  }
  py::array_t<double> out({h, w});
  auto view = out.mutable_unchecked<2>();
  const std::int64_t radii = game.rules().david_base_mm + game.rules().goliath_base_mm;
  const std::vector<double>& values = s.solution->values();
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      probe.david_x = static_cast<std::uint8_t>(x);
      probe.david_y = static_cast<std::uint8_t>(y);
      if (game.centre_distance2(probe) < radii * radii) {
        view(y, x) = std::numeric_limits<double>::quiet_NaN();
      } else {
        view(y, x) = values[*index.index_of(probe)];
      }
    }
  }
  return out;
}

// The whole table without a copy: a read-only view whose base keeps the solution alive.
py::array table_view(const PyDuelSolution& s) {
  const DuelGame& game = *s.game;
  const auto dw = static_cast<py::ssize_t>(game.lattice_width(duel::kDavid));
  const auto dh = static_cast<py::ssize_t>(game.lattice_height(duel::kDavid));
  const auto gw = static_cast<py::ssize_t>(game.lattice_width(duel::kGoliath));
  const auto gh = static_cast<py::ssize_t>(game.lattice_height(duel::kGoliath));
  const py::ssize_t d = sizeof(double);
  // DuelIndex: ((layer * kSlots + slot) * pairs + pair), pair = (gy * gw + gx) * dw * dh + dy * dw
  // + dx.
  const std::vector<py::ssize_t> shape = {DuelIndex::kLayers, DuelIndex::kSlots, gh, gw, dh, dw};
  const py::ssize_t pairs = gh * gw * dh * dw;
  const std::vector<py::ssize_t> strides = {
      DuelIndex::kSlots * pairs * d, pairs * d, gw * dh * dw * d, dh * dw * d, dw * d, d};
  auto* keep = new std::shared_ptr<const DuelSolution>(s.solution);
  py::capsule base(keep,
                   [](void* p) { delete static_cast<std::shared_ptr<const DuelSolution>*>(p); });
  py::array out(py::dtype::of<double>(), shape, strides, s.solution->values().data(), base);
  out.attr("setflags")(py::arg("write") = false);
  return out;
}

py::dict summary_dict(const duel::SolveSummary& s) {
  py::dict out;
  out["david_win_probability"] = s.start;
  out["david_win_probability_david_first"] = s.david_first;
  out["david_win_probability_goliath_first"] = s.goliath_first;
  out["david_win_probability_without_god"] = s.start_without_god;
  out["lower_bound"] = s.lower_bound;
  out["upper_bound"] = s.upper_bound;
  out["lower_bound_without_god"] = s.lower_bound_without_god;
  out["upper_bound_without_god"] = s.upper_bound_without_god;
  out["certified"] = s.certified;
  out["certified_without_god"] = s.certified_without_god;
  out["states"] = s.states;
  out["seconds"] = s.seconds;
  return out;
}

const DuelState& duel_state(const PyDuelSolution& s, const PyState& state, const char* what) {
  return state_of_game(*s.game, state, what);
}

}  // namespace

void bind_duel(py::module_& parent) {
  py::module_ m = parent.def_submodule("duel", "The duel's exact solution and value functions.");

  in_package(py::class_<PyDuelSolution>(m, "Solution", R"doc(The duel solved exactly on its lattice.

Values are David's win probability under optimal play by both sides.  The table holds them at
every state where a side declares its action: 6 layers (God available, Goliath's kit), 10 slots
(the side to declare with David's stone, Goliath's daze and a pending behead), and every pair of
lattice points (solvers/duel/index.h).)doc"),
             "sling.duel")
      .def_property_readonly(
          "game", [](const PyDuelSolution& s) { return PyGame{GameVariant(s.game)}; },
          "The game (rules and lattice) the solution was solved for.")
      .def_property_readonly("pitch_cm",
                             [](const PyDuelSolution& s) { return s.game->rules().pitch_cm; })
      .def_property_readonly(
          "certified", [](const PyDuelSolution& s) { return s.solution->certified(); },
          "Whether the bracket of David's start value is certified within its tolerance.")
      .def_property_readonly(
          "summary", [](const PyDuelSolution& s) { return summary_dict(s.solution->summary()); },
          "The solve's results: David's win probability at the start with and without God, the "
          "certified brackets, states, seconds.")
      .def(
          "value",
          [](const PyDuelSolution& s, const PyState& state) {
            const DuelState& d = duel_state(s, state, "duel.Solution.value");
            py::gil_scoped_release release;
            return s.solution->value(d);
          },
          py::arg("state"), "David's optimal win probability at any state.")
      .def(
          "action_values",
          [](const PyDuelSolution& s, const PyState& state) {
            const DuelState& d = duel_state(s, state, "duel.Solution.action_values");
            if (s.game->current_player(d) < 0) {
              throw IllegalActionError("action_values: the state waits for no decision");
            }
            py::gil_scoped_release release;
            return s.solution->action_values(d);
          },
          py::arg("state"),
          "(action, David's win probability after it) for each legal action, in legal_actions "
          "order; David maximises it, Goliath minimises it.")
      .def(
          "best_action",
          [](const PyDuelSolution& s, const PyState& state) {
            const DuelState& d = duel_state(s, state, "duel.Solution.best_action");
            if (s.game->current_player(d) < 0) {
              throw IllegalActionError("best_action: the state waits for no decision");
            }
            py::gil_scoped_release release;
            return s.solution->best_action(d);
          },
          py::arg("state"), "The optimal action for the side to move.")
      .def_property_readonly(
          "table", &table_view,
          "Every stored value as a read-only float64 numpy view without a copy, shape (6 layers, "
          "10 slots, goliath_y, goliath_x, david_y, david_x).  Layer = 3 * god + kit (kit 0 none, "
          "1 shield, 2 shield and javelin); slots 0-3 David to declare (2 * stone + dazed), 4-9 "
          "Goliath (4 + 3 * stone + (0 not dazed, 1 dazed, 2 dazed with a behead pending)).  "
          "Entries where the bases overlap hold no value.")
      .def(
          "value_slice",
          [](const PyDuelSolution& s, std::pair<int, int> goliath, const std::string& actor,
             bool stone, bool shield, bool javelin, bool god, bool dazed, bool behead_pending) {
            return value_slice(s, goliath, actor,
                               declare_flags(stone, shield, javelin, god, dazed, behead_pending));
          },
          py::arg("goliath"), py::kw_only(), py::arg("actor") = "david", py::arg("stone") = true,
          py::arg("shield") = true, py::arg("javelin") = true, py::arg("god") = true,
          py::arg("dazed") = false, py::arg("behead_pending") = false,
          "David's win probability at every David lattice point (array [y, x]) with Goliath at "
          "lattice point `goliath` = (x, y), `actor` to declare and these flags; NaN where the "
          "bases overlap.  A copy (the view without one is `table`).")
      .def(
          "save", [](const PyDuelSolution& s, const std::string& path) { s.solution->save(path); },
          py::arg("path"), "Writes the solution file (`sling solve duel --out`'s format).")
      .def("__repr__", [](const PyDuelSolution& s) {
        return "<sling.duel.Solution pitch " + std::to_string(s.game->rules().pitch_cm) +
               " cm, David wins " + std::to_string(s.solution->summary().start) + ">";
      });

  m.def(
      "solve",
      [](const py::object& game_object, int pitch, int threads, bool verbose) {
        duel::DuelRules rules;
        if (!game_object.is_none()) {
          rules = require_game<DuelGame>(game_object.cast<const PyGame&>(), "duel.solve")->rules();
        }
        if (pitch != 0) rules.pitch_cm = pitch;
        std::shared_ptr<const DuelSolution> solution;
        {
          py::gil_scoped_release release;
          const DuelGame game(rules);
          duel::check_solvable(game);
          duel::SolverOptions options;
          const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
          options.threads = threads <= 0 ? cores : std::min(threads, cores);
          options.tolerance = duel::kRouteTolerance;
          options.policy_improvements = duel::kRouteImprovements;
          if (verbose) options.log = [](const std::string& line) { std::cerr << line << '\n'; };
          solution = std::make_shared<const DuelSolution>(duel::solve_duel(game, options));
        }
        return wrap(std::move(solution));
      },
      py::arg("game") = py::none(), py::arg("pitch") = 0, py::arg("threads") = 0,
      py::arg("verbose") = false,
      "Solves the duel as `sling solve duel` does: the game's rules (default rules when None) "
      "at `pitch` cm (0: the rules' pitch).  Pitch 3 takes about 5 s on 2 cores, pitch 2 "
      "minutes; the default 1 cm over an hour.");
  m.def(
      "load_solution",
      [](const std::string& path, const py::object& game_object) {
        std::shared_ptr<const DuelSolution> solution;
        if (game_object.is_none()) {
          py::gil_scoped_release release;
          solution = std::make_shared<const DuelSolution>(DuelSolution::load(path));
        } else {
          const auto& game =
              require_game<DuelGame>(game_object.cast<const PyGame&>(), "duel.load_solution");
          py::gil_scoped_release release;
          solution = std::make_shared<const DuelSolution>(DuelSolution::load(path, game.get()));
        }
        return wrap(std::move(solution));
      },
      py::arg("path"), py::arg("game") = py::none(),
      "Reads a solution file of `sling solve duel --out`; raises FileFormatError for a corrupt "
      "file and RulesError when `game` is given and the file was solved for other rules.");

  in_package(
      py::class_<PyValueFunction>(m, "ValueFunction", R"doc(The duel's value function for search.

ValueFunction(game, pitch=0, refine=0, same_lattice=True): the exact solution at `pitch` cm
(0: one centimetre coarser than the game, at least 3) interpolated onto the game's lattice, and
with refine=K refined there by K sweeps; the game's own solution when the cache holds it and
same_lattice is set.  Solved on first use and cached on disk (sling.duel.set_cache_directory).
The values of `mcts:leaf=value` and the `strong` preset.)doc"),
      "sling.duel")
      .def(py::init([](const PyGame& g, int pitch, int refine, bool same_lattice) {
             const auto& game = require_game<DuelGame>(g, "duel.ValueFunction");
             std::shared_ptr<const duel::CoarseDuelValue> value;
             {
               py::gil_scoped_release release;
               value = duel::shared_coarse_value(*game, pitch, same_lattice,
                                                 duel::CoarseDuelValue::Scope::kAllActions,
                                                 duel::RefinementRequest{refine, 0.0});
             }
             return PyValueFunction{std::move(value), game};
           }),
           py::arg("game"), py::arg("pitch") = 0, py::arg("refine") = 0,
           py::arg("same_lattice") = true)
      .def_property_readonly(
          "exact", [](const PyValueFunction& v) { return v.value->exact(); },
          "Whether the values are the game's own exact solution.")
      .def_property_readonly("refined", [](const PyValueFunction& v) { return v.value->refined(); })
      .def_property_readonly(
          "source_pitch_cm", [](const PyValueFunction& v) { return v.value->source_pitch_cm(); },
          "The lattice pitch of the solution behind the values.")
      .def(
          "win_probability",
          [](const PyValueFunction& v, const PyState& state) {
            const DuelState& d = state_of_game(*v.game, state, "duel.ValueFunction");
            py::gil_scoped_release release;
            return v.value->win_probability(d, duel::CoarseDuelValue::Scope::kAllActions);
          },
          py::arg("state"), "David's win probability at any state by these values.")
      .def(
          "action_values",
          [](const PyValueFunction& v, const PyState& state) {
            const DuelState& d = state_of_game(*v.game, state, "duel.ValueFunction");
            if (v.game->current_player(d) < 0) {
              throw IllegalActionError("action_values: the state waits for no decision");
            }
            py::gil_scoped_release release;
            return v.value->action_values(d);
          },
          py::arg("state"), "(action, David's win probability after it) for each legal action.");

  m.def(
      "declare_state",
      [](const PyGame& g, std::pair<int, int> david, std::pair<int, int> goliath,
         const std::string& actor, bool stone, bool shield, bool javelin, bool god, bool dazed,
         bool behead_pending) {
        const auto& game = require_game<DuelGame>(g, "duel.declare_state");
        return make_state(
            game, declare_state(*game, david, goliath, actor,
                                declare_flags(stone, shield, javelin, god, dazed, behead_pending)));
      },
      py::arg("game"), py::arg("david"), py::arg("goliath"), py::kw_only(),
      py::arg("actor") = "david", py::arg("stone") = true, py::arg("shield") = true,
      py::arg("javelin") = true, py::arg("god") = true, py::arg("dazed") = false,
      py::arg("behead_pending") = false,
      "A state where `actor` declares, David at lattice point `david` = (x, y), Goliath at "
      "`goliath`, with these flags (the states the solution's table holds).");
  m.def(
      "lattice",
      [](const PyGame& g, const std::string& side) {
        const auto& game = require_game<DuelGame>(g, "duel.lattice");
        const auto s = static_cast<duel::Side>(side_index(side));
        const int w = game->lattice_width(s), h = game->lattice_height(s);
        py::array_t<double> xs(w), ys(h);
        for (int x = 0; x < w; ++x)
          xs.mutable_at(x) = game->centre_x(s, x) / double(DuelGame::kUnitsPerCm);
        for (int y = 0; y < h; ++y)
          ys.mutable_at(y) = game->centre_y(s, y) / double(DuelGame::kUnitsPerCm);
        return py::make_tuple(xs, ys);
      },
      py::arg("game"), py::arg("side"),
      "(xs, ys): the centres of a side's lattice points in cm from the board's corner (index "
      "x of xs, y of ys).");
  m.def(
      "set_cache_directory",
      [](const std::string& directory) { disk_cache_settings.set_directory(directory); },
      py::arg("directory"),
      "Where computed solutions are cached (`sling --cache DIR`); '' restores the default "
      "($XDG_CACHE_HOME/sling, else ~/.cache/sling).");
  m.def(
      "cache_directory", [] { return disk_cache_settings.directory(); },
      "The cache directory in use.");
}

}  // namespace sling::python
