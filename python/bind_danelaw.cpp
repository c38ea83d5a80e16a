// sling.danelaw: danelaw for learning code (engine/danelaw/encoding.h): the dense action index
// and its legal mask, and the position as float32 planes on the map's hex grid, as numpy arrays.
// sling.env's DanelawEnv is built on these.

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "engine/danelaw/encoding.h"
#include "python/core.h"

namespace sling::python {
namespace {

using danelaw::DanelawEncoding;
using danelaw::DanelawGame;

// The encoding of a game's map: a few microseconds to build (one pass over the hexes), so each
// call builds its own rather than keeping one alive beside a game Python may drop.
DanelawEncoding encoding_of(const DanelawGame& game) {
  return DanelawEncoding(game.map());
}

const DanelawGame& danelaw_game(const PyGame& game, const char* what) {
  return *require_game<DanelawGame>(game, what);
}

std::pair<const DanelawGame*, const danelaw::State*> danelaw_state(const PyState& state,
                                                                   const char* what) {
  const TypedState<DanelawGame>& typed = require_state<DanelawGame>(state, what);
  return {typed.game.get(), &typed.state};
}

py::array_t<std::int8_t> legal_mask(const PyState& state) {
  const auto [game, s] = danelaw_state(state, "danelaw.legal_action_mask");
  const DanelawEncoding encoding = encoding_of(*game);
  py::array_t<std::int8_t> mask(encoding.action_count());
  encoding.legal_action_mask(*game, *s,
                             std::span(reinterpret_cast<std::uint8_t*>(mask.mutable_data()),
                                       static_cast<std::size_t>(encoding.action_count())));
  return mask;
}

py::array_t<float> planes(const PyState& state) {
  const auto [game, s] = danelaw_state(state, "danelaw.observation");
  const DanelawEncoding encoding = encoding_of(*game);
  py::array_t<float> out({danelaw::kPlaneCount, encoding.height(), encoding.width()});
  encoding.observation(
      *game, *s,
      std::span(out.mutable_data(), static_cast<std::size_t>(encoding.observation_size())));
  return out;
}

void def_actions(py::module_& m) {
  m.def(
       "action_count",
       [](const PyGame& game) {
         return encoding_of(danelaw_game(game, "danelaw.action_count")).action_count();
       },
       py::arg("game"),
       "N, the number of dense action indices: 7 * (the map's hexes) + 5 (4240 on England).")
      .def(
          "action_index",
          [](const PyGame& game, Action code) {
            const int index =
                encoding_of(danelaw_game(game, "danelaw.action_index")).action_index(code);
            if (index < 0) {
              throw py::value_error("danelaw.action_index: " + std::to_string(code) +
                                    " is no decision code of this map");
            }
            return index;
          },
          py::arg("game"), py::arg("code"),
          "The dense index (0..N-1) of a decision code; ValueError for a chance outcome or a code "
          "that is no decision of this map.")
      .def(
          "action_code",
          [](const PyGame& game, int index) {
            return encoding_of(danelaw_game(game, "danelaw.action_code")).action_code(index);
          },
          py::arg("game"), py::arg("index"),
          "The decision code of a dense index; IndexError outside 0..N-1.")
      .def("legal_action_mask", &legal_mask, py::arg("state"),
           "A numpy int8 array of N entries, 1 at the index of each legal decision (all 0 at "
           "chance nodes and at the end).")
      .def(
          "legal_action_indices",
          [](const PyState& state) {
            const auto [game, s] = danelaw_state(state, "danelaw.legal_action_indices");
            const DanelawEncoding encoding = encoding_of(*game);
            std::vector<int> indices;
            if (game->current_player(*s) >= 0) {
              ActionList<DanelawGame> legal;
              game->legal_actions(*s, legal);
              for (const Action a : legal) indices.push_back(encoding.action_index(a));
            }
            return py::array_t<std::int64_t>(
                static_cast<py::ssize_t>(indices.size()),
                std::vector<std::int64_t>(indices.begin(), indices.end()).data());
          },
          py::arg("state"),
          "The dense indices of the legal decisions, in State.legal_actions()'s order.");
}

void def_planes(py::module_& m) {
  std::vector<std::string> names;
  for (int p = 0; p < danelaw::kPlaneCount; ++p) names.emplace_back(danelaw::plane_name(p));
  m.attr("PLANES") = py::tuple(py::cast(names));
  m.def("observation", &planes, py::arg("state"),
        "The state as a numpy float32 array [planes, rows, columns] in [0, 1] on the map's "
        "offset grid (the planes: PLANES, docs/python.md).")
      .def(
          "observation_shape",
          [](const PyGame& game) {
            const DanelawEncoding e = encoding_of(danelaw_game(game, "danelaw.observation_shape"));
            return py::make_tuple(danelaw::kPlaneCount, e.height(), e.width());
          },
          py::arg("game"), "(planes, rows, columns) of observation().")
      .def(
          "hex_grid",
          [](const PyGame& game) {
            const DanelawEncoding e = encoding_of(danelaw_game(game, "danelaw.hex_grid"));
            py::array_t<std::int32_t> grid({e.height(), e.width()});
            std::fill(grid.mutable_data(), grid.mutable_data() + e.height() * e.width(), -1);
            for (std::size_t h = 0; h < e.hex_cells().size(); ++h) {
              grid.mutable_data()[e.hex_cells()[h]] = static_cast<std::int32_t>(h);
            }
            return grid;
          },
          py::arg("game"),
          "A numpy int32 array [rows, columns]: the hex index at each grid cell, -1 where the map "
          "has none (the hex of action index i is i % hexes for the hex kinds).");
}

}  // namespace

void bind_danelaw(py::module_& parent) {
  py::module_ m = parent.def_submodule(
      "danelaw", "Danelaw for learning code: the dense action index and the observation planes.");
  def_actions(m);
  def_planes(m);
}

}  // namespace sling::python
