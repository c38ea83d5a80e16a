#pragma once
// Movement on the danelaw map.  Each side sees the map as a directed Boost.Graph whose edge weights
// are the rules' costs of stepping from one hex into its neighbour (costs are asymmetric: entering
// hills or forest from outside costs more than leaving).  Queries run Boost.Graph's Dijkstra (the
// reachable set within a budget, distance fields to targets) and A* (one cheapest path), on a
// filtered view that drops hexes held by the enemy.
//
// This header keeps Boost out of the game's headers; the graphs live behind a pointer to an
// immutable implementation, and the caller passes the scratch memory of the Dijkstra queries (a
// MovementWorkspace, reused from query to query), so a query makes no heap allocation and no
// virtual call.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "engine/core/fixed_vector.h"
#include "engine/danelaw/map.h"

namespace sling::danelaw {

enum Side : std::uint8_t { kDanes = 0, kEnglish = 1 };

inline constexpr int kImpassable = 255;
inline constexpr int kUnreachable = 1 << 28;

// The rules' cost for `side` to step from hex `from` into its neighbour `to`, or kImpassable.
//   entering: plain 1, hills 2, wetland 4, forest 3, sea 1 (Danes only; the English never);
//   hills: +2 entering from a non-hills hex, +1 leaving to a non-hills hex;
//   wetland: +3 entering from a non-wetland hex for the Danes, +0 for the English;
//   forest: +3 entering from a non-forest hex, +2 leaving to a non-forest hex;
//   river hexside: +1;  landing (sea to land): 2 + the cost of entering the land hex.
int step_cost(const HexMap& map, Side side, int from, int to);

struct Reach {
  std::uint16_t hex;
  std::uint16_t cost;
};
using ReachList = FixedVector<Reach, kMaxHexes>;

struct PathResult {
  int cost = -1;           // -1: no path
  std::vector<int> hexes;  // from .. to, inclusive
};

class Movement;

// Scratch memory for the Dijkstra queries (distance, colour and heap maps, the heap's buffer),
// grown to the largest map it has served and reused from query to query, so that a query
// allocates nothing.  Owned by whoever runs the queries (DanelawGame keeps a pool of them, see
// scratch.h); one query at a time: not to be shared between threads.
class MovementWorkspace {
 public:
  MovementWorkspace();
  ~MovementWorkspace();
  MovementWorkspace(MovementWorkspace&&) noexcept;
  MovementWorkspace& operator=(MovementWorkspace&&) noexcept;
  struct Impl;  // Boost types: defined in movement.cpp

 private:
  friend class Movement;
  std::unique_ptr<Impl> impl_;
};

class Movement {
 public:
  Movement() = default;
  explicit Movement(std::shared_ptr<const HexMap> map);
  const HexMap& map() const { return *map_; }
  // Distinct for every Movement built (copies share it): a safe key for caches of query results,
  // unlike an address that a later map may reuse.
  std::uint64_t id() const { return id_; }

  // Cost of one step (the edge weight), or kImpassable; a table lookup.
  int step(Side side, int from, int direction) const {
    return step_[side][static_cast<std::size_t>(from) * kDirections + direction];
  }

  // Every hex other than `from` whose cheapest path from `from` costs at most `budget`, avoiding
  // the `blocked` hexes (enemy armies); in order of discovery, with the cost.
  void reachable(Side side, int from, int budget, const HexSet& blocked, ReachList& out,
                 MovementWorkspace& workspace) const;

  // For every hex, the cheapest cost for `side` to reach the nearest of `targets` from it (a
  // Dijkstra on the reversed graph from all targets at once); kUnreachable where none can be
  // reached.  `out` must hold map.size() entries.
  void distance_field(Side side, std::span<const std::uint16_t> targets, const HexSet& blocked,
                      std::span<int> out, MovementWorkspace& workspace) const;

  // The cheapest path by A* with the hex-distance heuristic (admissible: every step costs >= 1).
  PathResult path(Side side, int from, int to, const HexSet& blocked) const;

 private:
  struct Graphs;
  std::shared_ptr<const HexMap> map_;
  std::shared_ptr<const Graphs> graphs_;
  std::uint64_t id_ = 0;
  std::vector<std::uint8_t> step_[2];
};

}  // namespace sling::danelaw
