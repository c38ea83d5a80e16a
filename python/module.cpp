// The `sling` Python package's extension module, sling._sling: games and states, agents, matches
// and tournaments, and the exact solvers (docs/python.md).  Each part is bound in its own file.

#include "python/core.h"

PYBIND11_MODULE(_sling, m) {
  m.doc() =
      "Sling's games, agents, matches, tournaments and exact solvers (the C++ extension; import "
      "it as `sling`).";
  m.attr("__version__") = "0.1.0";
  sling::python::bind_errors(m);
  sling::python::bind_games(m);
  sling::python::bind_agents(m);
  sling::python::bind_experiments(m);
  sling::python::bind_pig(m);
  sling::python::bind_duel(m);
  sling::python::bind_danelaw(m);
}
