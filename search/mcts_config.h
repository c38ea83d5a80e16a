#pragma once
// The settings of the Monte Carlo tree search (search/mcts.h): what each option means, apart
// from how the tree carries it out.

#include <cstdint>

#include "search/common.h"

namespace sling::search {

// What each node on a simulation's path adds to its statistics and passes up.
//   kSample: the simulation's payoff (UCT): a node's value is the mean of what went through it.
//   kExpectation: a chance node's value is the expectation of its children's values (with a
//     value function's leaves, its own leaf value corrected by its visited children's; see
//     chance_expectation), as in expectimax, and that is what it passes up: its parent no longer
//     reads the luck of the dice drawn under it, which with a leaf value exact over a turn is most
//     of the variance.
//   kExpectimax: chance nodes as kExpectation, and a decision node's value is its best visited
//     child's for the side to move there (while a child is unvisited, its own leaf value counts
//     too, when that is a value function's), so the tree holds a growing expectimax over its
//     visited nodes instead of averages that mix in the exploration's poor choices; the root then
//     chooses the child of best value rather than the most visited.  With exact leaves every node
//     holds its exact value.
enum class Backup : std::uint8_t { kSample, kExpectation, kExpectimax };

struct MctsConfig {
  std::int64_t iterations = 10000;  // simulations per move, shared among the trees
  double seconds = 0;               // wall-clock limit per move (0 = none; not deterministic)
  double c = 1.4;                   // UCT exploration constant (payoffs are in [-1, 1])
  RolloutPolicy rollout = RolloutPolicy::kRandom;
  bool evaluate_leaves = false;  // score leaves with game.evaluate instead of a rollout
  // Score leaves with the search's value function (a search built with one): (1 - w) * value +
  // w * rollout with w = value_rollout_weight, as AlphaGo mixed its value network and rollouts.
  bool value_leaves = false;
  double value_rollout_weight = 0;
  int rollout_plies = 0;             // rollout length cap (0 = play to the end)
  double widening_k = 2.0;           // progressive widening: consider ceil(k * n^alpha) children;
  double widening_alpha = 0.5;       //   k = 0 turns widening off
  int trees = 1;                     // independent root-parallel trees
  bool reuse = true;                 // keep the subtree of the actual move for the next search
  std::int64_t max_nodes = 1 << 22;  // arena capacity per tree (nodes of 32 bytes)
  // In a game with HasRepetition, a simulation that reaches a position met before in the game or
  // on its own line stops there, at the leaf value of the position less this much for the
  // searching side for each time it was met (0 = repetitions are not looked for;
  // search/expectimax.h has the why).
  double repetition_penalty = 0;
  // Whose decisions expand the game's candidate set (search/common.h); the searching side is the
  // one to move at the root.
  Candidates candidates = Candidates::kBoth;
  // What a node passes up to its parent (the Backup values above).
  Backup backup = Backup::kSample;
  // Share one node among the paths that reach the same state (a game with a static hash(State);
  // states are compared in full, so a hash collision never merges two positions).  Meant for the
  // expectimax backups, where a node's value is recomputed from its children on every pass.  A
  // search with transpositions builds a fresh graph each time (no reuse).
  bool transpositions = false;
};

}  // namespace sling::search
