#pragma once
// A danelaw player that searches whole movement plans instead of single moves.
//
// Danelaw's movement is combinatorial: 2d6 points shared among up to thirty armies, each with
// dozens of destinations, one move at a time.  A tree over single moves spends its budget on
// orders of the same moves; the planner instead samples complete movement plans (the heuristic's
// own plan, then plans where some moves are replaced at random by other armies or by candidate
// destinations: towns, hexes next to the enemy, the best steps along the distance field), plays
// each one's battles out to the end of the half-turn with the heuristic and the dice, scores the
// position the opponent then faces with a leaf evaluator (solvers/danelaw/model_value.h: the
// learned value model unless told otherwise), and keeps the best.  The plans
// compete by successive halving: every plan gets a few playouts, the better half gets more, and
// so on, so the budget concentrates where the choice is close.  Battle decisions (which target,
// who rolls, roll again, advance, rout steps) are chosen the same way among the legal actions.
//
// Deterministic: every draw comes from the seed given to new_game and the decision's position in
// the game.
//
// Danelaw's AI sits beside the duel's: this search here in agents/, the evaluators it scores with
// in solvers/danelaw/ (chosen through GameValue<DanelawGame>, agents/danelaw_value.h, as search
// leaves choose theirs), the agent (`planner`) in agents/danelaw_agents.h.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "search/mcts.h"

namespace sling::danelaw {

class PositionValue;

struct PlannerConfig {
  int plans = 32;          // movement plans sampled per half-turn
  int samples = 4;         // playouts per plan on average (successive halving shares them)
  int battle_samples = 8;  // playouts per battle action; 0: the heuristic's battle decisions
  double noise = 0.3;      // chance a sampled plan replaces a move by a random candidate
  // A sampled plan replaces the heuristic's own only when its mean value (for the side to move, in
  // [-1, 1], over the same dice) beats the heuristic plan's by more than this.
  double margin = 0;
  // Halves played on by the heuristic after the side's own half before the leaf evaluator scores
  // the position: 1 scores a plan after the opponent's reply, which the model alone reads poorly
  // for the English (it cannot see which of their towns the Danes take next).
  int reply = 0;
  // The endgame: within this many halves of the game's end (the current half included), playouts
  // run to the end of the game and score the result itself, and battles are decided by
  // `endgame_battle` playouts an action (or `battle_samples`, if more).  Near the end the true
  // result is a few dice away, while the leaf evaluator, fitted on whole games, reads short
  // horizons worst; and a battle the heuristic declines may be the last chance to take a town.
  int endgame = 0;
  int endgame_battle = 16;
  // In the endgame, movement and battle decisions by a closed-loop tree search of this many
  // simulations instead (search/mcts.h: chance nodes explicit, heuristic rollouts to the game's
  // end, expectimax backups); 0: by plans and per-action playouts as above.  Placing stays with
  // the playouts, which compare the few landing choices better than a tree whose root they are.
  // The playouts that score a plan fight its battles by the heuristic, a bias that more plans
  // only exploit (docs/results/danelaw-referee); the tree decides those battles itself.
  int endgame_mcts = 0;
  // The tree is used only where its simulations are expected to cost at most this much work,
  // counted as `endgame_mcts` x the mean plies of a few heuristic playouts to the end x the map's
  // hexes (a ply's cost grows with the map: England has 605 hexes, the referee's maps 12 and 15);
  // elsewhere the plans decide.  The default keeps England's moves under a second on this
  // project's 2-core machine (16,000 simulations took 4.6 s a move two halves from its end,
  // bench/danelaw_bench.cpp); it overstates the cost on small maps, where 32,000 simulations of
  // 14 plies on 15 hexes take 0.3 s.  A larger tree needs a budget grown with it, or it is
  // declined without a word wherever its playouts are long (docs/notes/strength-journal.md).
  std::int64_t endgame_mcts_work = 20'000'000;
  // Halves before the game's end (the current one included) within which the tree decides; 0:
  // the endgame's own (`endgame`).  The English's plans must not run over the Danes' half (their
  // playouts trust the heuristic's Danes), but the tree searches the Danes' replies, so on small
  // maps it can start earlier than their endgame.
  int endgame_mcts_halves = 0;
  // The tree shares one node among the move orders that reach the same position (a transposition
  // table): two armies moved in either order, or the same hexes reached by other paths, pool
  // their simulations instead of splitting them.  On holt-2 it halved the Danes' loss against
  // exact play at the same budget (docs/results/danelaw-referee).
  bool endgame_mcts_transpositions = false;
  // The tree's UCT exploration constant (payoffs in [-1, 1]).  Expectimax backups pass up a
  // decision's best child, so a child tried too little can hide the best move for good; on the
  // referee's maps 2.5 lost less than the generic 1.4 (docs/results/danelaw-referee).
  double endgame_mcts_c = 1.4;
  // The tree's progressive widening: a decision with n visits considers its first
  // ceil(widen * n^0.5) children (the heuristic's move first).  On the referee's maps a narrower
  // tree (1) searched holt-2's attacks deeper but ended ford-2's battles worse: no better in all
  // (docs/results/danelaw-referee), so the presets keep the generic 2.
  double endgame_mcts_widen = 2.0;
  // Independent root-parallel trees that share `endgame_mcts` (search/mcts.h): the number of
  // trees, not of threads, fixes the move, and on 2 cores two trees search in the time of one.
  int endgame_mcts_trees = 1;
};

struct PlannerChoice {
  Action action = kInvalidAction;
  // Whether the planner compared anything: false for the next move of a plan already chosen, a
  // heuristic move and a sole legal action, which carry no value and no options.
  bool evaluated = false;
  double value = 0;  // for the side to move, in [-1, 1], when evaluated
  struct Option {
    Action action;
    double value;
    int samples;
  };
  std::vector<Option> options;  // best first (the first action of each plan at movement)
  std::int64_t playouts = 0;
};

class Planner {
 public:
  // The same settings for both sides, or one per side (indexed by Side): the value model and the
  // heuristic are not equally good for the Danes and the English, so each side has its own.
  // Positions are scored by `value` (the embedded model when null).
  Planner(const DanelawGame& game, const PlannerConfig& config,
          std::shared_ptr<const PositionValue> value = nullptr);
  Planner(const DanelawGame& game, const std::array<PlannerConfig, 2>& per_side,
          std::shared_ptr<const PositionValue> value = nullptr);

  const PlannerConfig& config(Side side) const { return config_[side]; }
  // Scores with `value` from now on (the embedded model when null).
  void use_value(std::shared_ptr<const PositionValue> value);
  void new_game(std::uint64_t seed);
  // The planner's decision at `s` (a decision node).
  PlannerChoice choose(const State& s);

 private:
  PlannerChoice plan_movement(const State& s);
  PlannerChoice compare_actions(const State& s, int samples);
  PlannerChoice heuristic_choice(const State& s);
  // Whether the endgame's tree search fits its work budget at `s` (deterministic: the probe's dice
  // come from the decision's seed).
  bool tree_affordable(const State& s, Side side) const;
  PlannerChoice tree_choice(const State& s, Side side);
  // Plays from `s` to the end of the current half-turn and then `side`'s configured reply halves
  // (heuristic decisions, `rng` dice) and returns the value for `side` by the leaf evaluator.
  double finish_half_turn(State s, Side side, Rng rng) const;
  // Halves left in the game at `s`, the current one included.
  int halves_to_end(const State& s) const;
  bool in_endgame(const State& s, Side side) const {
    return halves_to_end(s) <= config_[side].endgame;
  }
  // Whether the endgame's tree search decides at `s`: within its halves, neither placing nor a
  // reinforcement, and within its work budget.
  bool tree_decides(const State& s, Side side) const;
  Action sampled_move(const State& s, Rng& rng, double noise) const;

  const DanelawGame& game_;
  std::array<PlannerConfig, 2> config_;
  std::shared_ptr<const PositionValue> value_;
  Rng rng_;
  std::uint64_t decisions_ = 0;
  // The plan being played: the states it expects and the actions it takes there.
  std::vector<State> plan_states_;
  std::vector<Action> plan_actions_;
  std::size_t plan_next_ = 0;
  // The endgame's tree search for each side, made when first used (its arena is kept).
  std::array<std::unique_ptr<search::Mcts<DanelawGame>>, 2> trees_;
};

}  // namespace sling::danelaw
