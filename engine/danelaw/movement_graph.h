#pragma once
// The Boost.Graph side of danelaw movement, included only by .cpp files (it is heavy to compile).
// Movement (movement.h) holds these graphs behind a pointer.

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/filtered_graph.hpp>

#include "engine/danelaw/map.h"
#include "engine/danelaw/movement.h"

namespace sling::danelaw::graph {

// Vertex i is hex i; an edge u -> v exists when the side may step from u into v, weighted by the
// rules' cost (step_cost).
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                    boost::property<boost::edge_weight_t, int>>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
using Edge = boost::graph_traits<Graph>::edge_descriptor;
using WeightMap = boost::property_map<Graph, boost::edge_weight_t>::const_type;

// Keeps the hexes the side may pass through: not in `blocked` (held by the enemy).
struct NotBlocked {
  const HexSet* blocked = nullptr;
  bool operator()(Vertex v) const { return !blocked->test(v); }
};

// Keeps an edge out of an examined vertex u only if it stays within the budget.  Dijkstra examines
// u once its distance is final, so this stops the search at the budget: nothing beyond it is ever
// discovered, and no exception is needed to end the search early.
struct WithinBudget {
  const Graph* graph = nullptr;
  const int* distance = nullptr;
  int budget = kUnreachable;
  bool operator()(const Edge& e) const {
    return distance[boost::source(e, *graph)] + boost::get(boost::edge_weight, *graph, e) <= budget;
  }
};

using View = boost::filtered_graph<Graph, WithinBudget, NotBlocked>;

}  // namespace sling::danelaw::graph

namespace sling::danelaw {

struct Movement::Graphs {
  explicit Graphs(std::size_t n)
      : forward{graph::Graph(n), graph::Graph(n)}, backward{graph::Graph(n), graph::Graph(n)} {}
  graph::Graph forward[2];   // per side: u -> v costs entering v from u
  graph::Graph backward[2];  // reversed, for distance fields to targets
};

}  // namespace sling::danelaw
