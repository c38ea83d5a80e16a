#include "engine/danelaw/movement.h"

#include <boost/graph/astar_search.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/detail/d_ary_heap.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>

#include <algorithm>
#include <atomic>
#include <functional>
#include <optional>

#include "engine/danelaw/movement_graph.h"

namespace sling::danelaw {

namespace {

// The last Movement::id() given out (ids are unique in the process).
std::atomic<std::uint64_t> movement_ids{0};

int enter_cost(Terrain terrain) {
  switch (terrain) {
    case Terrain::kSea:
      return 1;
    case Terrain::kPlain:
      return 1;
    case Terrain::kHills:
      return 2;
    case Terrain::kWetland:
      return 4;
    case Terrain::kForest:
      return 3;
  }
  return kImpassable;
}

// Extra cost of entering `terrain` from a hex of another terrain.
int enter_extra(Terrain terrain, Side side) {
  switch (terrain) {
    case Terrain::kHills:
      return 2;
    case Terrain::kWetland:
      return side == kDanes ? 3 : 0;
    case Terrain::kForest:
      return 3;
    default:
      return 0;
  }
}

// Extra cost of leaving `terrain` for a hex of another terrain.
int leave_extra(Terrain terrain) {
  switch (terrain) {
    case Terrain::kHills:
      return 1;
    case Terrain::kForest:
      return 2;
    default:
      return 0;
  }
}

}  // namespace

// Scratch for Dijkstra: distance, colour and heap-position maps sized to the largest map seen, and
// the d-ary heap Boost's Dijkstra uses, kept between queries so its buffer is reused.  Only the
// entries a query touched are reset afterwards.
struct MovementWorkspace::Impl {
  using Queue = boost::d_ary_heap_indirect<graph::Vertex, 4, std::size_t*, int*, std::less<int>>;
  std::vector<int> distance;
  std::vector<boost::default_color_type> color;
  std::vector<std::size_t> index_in_heap;
  std::vector<graph::Vertex> touched;
  std::optional<Queue> queue;

  void ensure(std::size_t n) {
    if (distance.size() >= n) return;
    distance.assign(n, kUnreachable);
    color.assign(n, boost::white_color);
    index_in_heap.assign(n, 0);
    touched.clear();
    touched.reserve(n);
    queue.emplace(distance.data(), index_in_heap.data());
  }
  void reset_touched() {
    for (graph::Vertex v : touched) {
      distance[v] = kUnreachable;
      color[v] = boost::white_color;
    }
    touched.clear();
  }
};

MovementWorkspace::MovementWorkspace() : impl_(std::make_unique<Impl>()) {}
MovementWorkspace::~MovementWorkspace() = default;
MovementWorkspace::MovementWorkspace(MovementWorkspace&&) noexcept = default;
MovementWorkspace& MovementWorkspace::operator=(MovementWorkspace&&) noexcept = default;

namespace {

using Workspace = MovementWorkspace::Impl;

// Records every vertex the search discovers, so that the workspace can be reset cheaply.
struct TouchRecorder : boost::default_dijkstra_visitor {
  std::vector<graph::Vertex>* touched;
  explicit TouchRecorder(std::vector<graph::Vertex>* t) : touched(t) {}
  template <class G>
  void discover_vertex(graph::Vertex v, const G&) {
    touched->push_back(v);  // capacity reserved for every vertex: never allocates
  }
};

// Boost.Graph's Dijkstra from `sources` on `view`, with the workspace's preallocated maps.  This is
// what boost::dijkstra_shortest_paths_no_init does, minus its per-call allocation of the heap and
// its index map: breadth_first_visit driven by a mutable d-ary heap and Dijkstra's relaxing
// visitor.
void run_dijkstra(const graph::View& view, const graph::Vertex* sources_begin,
                  const graph::Vertex* sources_end, Workspace& w) {
  for (const graph::Vertex* s = sources_begin; s != sources_end; ++s) w.distance[*s] = 0;
  const graph::WeightMap weight = boost::get(boost::edge_weight, view.m_g);
  using BfsVisitor =
      boost::detail::dijkstra_bfs_visitor<TouchRecorder, Workspace::Queue, graph::WeightMap,
                                          boost::dummy_property_map, int*, std::plus<int>,
                                          std::less<int>>;
  BfsVisitor visitor(TouchRecorder(&w.touched), *w.queue, weight, boost::dummy_property_map(),
                     w.distance.data(), std::plus<int>(), std::less<int>(), 0);
  boost::breadth_first_visit(view, sources_begin, sources_end, *w.queue, visitor, w.color.data());
}

}  // namespace

int step_cost(const HexMap& map, Side side, int from, int to) {
  const HexInfo& a = map.hex(from);
  const HexInfo& b = map.hex(to);
  if (b.is_sea()) {
    if (side == kEnglish) return kImpassable;
    // Re-embarking leaves the land hex's terrain.
    return enter_cost(Terrain::kSea) + (a.is_sea() ? 0 : leave_extra(a.terrain));
  }
  if (a.is_sea()) {
    if (side == kEnglish) return kImpassable;
    return 2 + enter_cost(b.terrain) + enter_extra(b.terrain, side);  // landing
  }
  int cost = enter_cost(b.terrain);
  if (a.terrain != b.terrain) cost += enter_extra(b.terrain, side) + leave_extra(a.terrain);
  if (map.river_between(from, to)) cost += 1;
  return cost;
}

Movement::Movement(std::shared_ptr<const HexMap> shared_map) : map_(std::move(shared_map)) {
  id_ = ++movement_ids;
  const HexMap& map = *map_;
  const auto n = static_cast<std::size_t>(map.size());
  auto graphs = std::make_shared<Graphs>(n);
  for (int side = 0; side < 2; ++side) {
    step_[side].assign(n * kDirections, static_cast<std::uint8_t>(kImpassable));
    for (int u = 0; u < map.size(); ++u) {
      for (int d = 0; d < kDirections; ++d) {
        const int v = map.neighbour(u, d);
        if (v < 0) continue;
        const int cost = step_cost(map, static_cast<Side>(side), u, v);
        if (cost >= kImpassable) continue;
        step_[side][static_cast<std::size_t>(u) * kDirections + d] =
            static_cast<std::uint8_t>(cost);
        boost::add_edge(static_cast<graph::Vertex>(u), static_cast<graph::Vertex>(v), cost,
                        graphs->forward[side]);
        boost::add_edge(static_cast<graph::Vertex>(v), static_cast<graph::Vertex>(u), cost,
                        graphs->backward[side]);
      }
    }
  }
  graphs_ = std::move(graphs);
}

void Movement::reachable(Side side, int from, int budget, const HexSet& blocked, ReachList& out,
                         MovementWorkspace& workspace) const {
  out.clear();
  const graph::Graph& g = graphs_->forward[side];
  Workspace& w = *workspace.impl_;
  w.ensure(boost::num_vertices(g));
  const graph::View view(g, graph::WithinBudget{&g, w.distance.data(), budget},
                         graph::NotBlocked{&blocked});
  const graph::Vertex source = static_cast<graph::Vertex>(from);
  run_dijkstra(view, &source, &source + 1, w);
  for (graph::Vertex v : w.touched) {
    if (v != source)
      out.push_back({static_cast<std::uint16_t>(v), static_cast<std::uint16_t>(w.distance[v])});
  }
  w.reset_touched();
}

void Movement::distance_field(Side side, std::span<const std::uint16_t> targets,
                              const HexSet& blocked, std::span<int> out,
                              MovementWorkspace& workspace) const {
  const graph::Graph& g = graphs_->backward[side];
  Workspace& w = *workspace.impl_;
  w.ensure(boost::num_vertices(g));
  const graph::View view(g, graph::WithinBudget{&g, w.distance.data(), kUnreachable},
                         graph::NotBlocked{&blocked});
  graph::Vertex sources[kMaxHexes];
  std::size_t count = 0;
  HexSet seen;
  for (std::uint16_t t : targets) {
    if (!blocked.test(t) && !seen.test(t)) {
      seen.set(t);
      sources[count++] = t;
    }
  }
  std::fill(out.begin(), out.end(), kUnreachable);
  run_dijkstra(view, sources, sources + count, w);
  for (graph::Vertex v : w.touched) out[v] = w.distance[v];
  w.reset_touched();
}

namespace {

struct FoundGoal {};

struct GoalVisitor : boost::default_astar_visitor {
  graph::Vertex goal;
  explicit GoalVisitor(graph::Vertex g) : goal(g) {}
  template <class G>
  void examine_vertex(graph::Vertex v, const G&) {
    if (v == goal) throw FoundGoal{};
  }
};

// Hex distance times the cheapest step (1): never more than the true remaining cost.
struct HexDistanceHeuristic : boost::astar_heuristic<graph::View, int> {
  const HexMap* map;
  int goal;
  HexDistanceHeuristic(const HexMap* m, int g) : map(m), goal(g) {}
  int operator()(graph::Vertex v) const { return map->distance(static_cast<int>(v), goal); }
};

}  // namespace

PathResult Movement::path(Side side, int from, int to, const HexSet& blocked) const {
  PathResult result;
  if (from == to) {
    result.cost = 0;
    result.hexes = {from};
    return result;
  }
  if (blocked.test(static_cast<std::size_t>(to))) return result;
  const graph::Graph& g = graphs_->forward[side];
  const std::size_t n = boost::num_vertices(g);
  std::vector<int> distance(n, kUnreachable), cost(n, kUnreachable);
  std::vector<graph::Vertex> predecessor(n);
  std::vector<boost::default_color_type> color(n, boost::white_color);
  for (std::size_t i = 0; i < n; ++i) predecessor[i] = i;
  const graph::View view(g, graph::WithinBudget{&g, distance.data(), kUnreachable},
                         graph::NotBlocked{&blocked});
  const auto s = static_cast<graph::Vertex>(from);
  const auto t = static_cast<graph::Vertex>(to);
  distance[s] = 0;
  const HexMap* map = map_.get();
  cost[s] = map->distance(from, to);
  try {
    boost::astar_search_no_init(
        view, s, HexDistanceHeuristic(map, to), GoalVisitor(t), predecessor.data(), cost.data(),
        distance.data(), boost::get(boost::edge_weight, g), color.data(),
        boost::get(boost::vertex_index, g), std::less<int>(), std::plus<int>(), kUnreachable, 0);
  } catch (const FoundGoal&) {
  }
  if (distance[t] >= kUnreachable) return result;
  result.cost = distance[t];
  for (graph::Vertex v = t;; v = predecessor[v]) {
    result.hexes.push_back(static_cast<int>(v));
    if (v == s) break;
  }
  std::reverse(result.hexes.begin(), result.hexes.end());
  return result;
}

}  // namespace sling::danelaw
