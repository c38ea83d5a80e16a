#pragma once
// Danelaw solved exactly, for scenarios small enough (a small map, a few armies a side, a few
// turns): expectimax over the game's own legal actions and chance outcomes, the full rules, with
// every state's value kept in a transposition table (exact_table.h).  The game's graph is acyclic
// (movement points fall with every move, each army rolls once a half-turn, routs shorten, turns
// advance), so one depth-first pass gives every reached state its exact value: P(the Danes win)
// under optimal play by both sides.  Play within a half-turn (choose an army, its destination,
// again, battles, rolls, routs) is part of the tree, one decision a node.
//
// A decision node stops looking at its actions once one reaches the bound (1 for the Danes, 0 for
// the English): no other can do better, and the value is exact either way.  Actions after it are
// not in the table; asked about such a state (an opponent that plays one), solve() works it out.
//
// The table holds at most ExactOptions::max_states states; a scenario with more is refused with a
// ScenarioTooLargeError (one line) before memory runs out.  A state's key packs the state in 56
// bytes, so the solver also refuses maps of more than 255 hexes and scenarios where more than 15
// armies could be on the map at once (exact_key.h).  The search recurses once a ply; a game longer
// than kExactMaxPlies plies is refused the same way, so that a long scenario never overflows the
// stack (the action lists live on the heap, one a depth, so a ply takes about 1 KB of stack).

#include <cstddef>
#include <deque>
#include <optional>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "solvers/danelaw/exact_table.h"

namespace sling::danelaw {

inline constexpr int kExactMaxPlies = 2000;

struct ExactOptions {
  std::size_t max_states = 6'000'000;  // a table of at most 512 MiB (768 MiB while it doubles)
};

// A legal action and P(the Danes win) after it.
struct ExactActionValue {
  Action action = kInvalidAction;
  double danes_win = 0;
};

class ExactSolver {
 public:
  // Throws RulesError for a scenario beyond the key's bounds.
  explicit ExactSolver(DanelawGame game, ExactOptions options = {});

  // P(the Danes win) from `s` under optimal play, solving what the table lacks.  Throws
  // ScenarioTooLargeError past max_states (the table keeps what it has solved).
  double solve(const State& s);
  // P(the Danes win) from `s` if the table has it (terminal states always).
  std::optional<double> find(const State& s) const;

  // The legal actions at decision state `s` with their values, in the game's order, up to and
  // including the first that reaches the bound for the side to move; solves what the table lacks.
  std::vector<ExactActionValue> action_values(const State& s);
  // The same from the table alone; nullopt if a value it needs is missing.
  std::optional<std::vector<ExactActionValue>> find_action_values(const State& s) const;
  // The best of action_values for the side to move (the first of equals, in the game's order).
  static ExactActionValue best_of(const std::vector<ExactActionValue>& values, Player player);

  const DanelawGame& game() const { return game_; }
  const ExactTable& table() const { return table_; }
  std::size_t states() const { return table_.size(); }

 private:
  // The lists a node at one depth of the search fills; kept apart from the recursion's stack.
  struct NodeLists {
    ActionList<DanelawGame> actions;
    ChanceList<DanelawGame> outcomes;
  };

  double value(const State& s, int depth);

  DanelawGame game_;
  ExactTable table_;
  std::deque<NodeLists> lists_;  // by depth; a deque, so that growing it moves no list in use
};

// The scenario's bounds for the solver: throws RulesError naming the first one exceeded.
void check_exact_scenario(const DanelawGame& game);

}  // namespace sling::danelaw
