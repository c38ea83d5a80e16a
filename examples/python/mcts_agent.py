#!/usr/bin/env python3
"""Monte Carlo tree search for Pig, with Pig's rules written here in Python as the forward model.

Each `act` reads the state's JSON (scores, turn_total, to_move), grows a tree of ITERATIONS
simulations, finishes each simulation with a quick playout in which both sides hold at 20, and
answers the most visited action with its win probability and the number of simulations.  The tree
picks actions by PUCT, as AlphaZero does, with the playout's rule as its prior: a playout decides
a game, so its noise swamps the small differences between rolling and holding early in a game,
and the prior keeps the search on the rule of thumb until the wins show a better move.
Dice inside the search come from a generator seeded by the game, so a seed replays the same game.

    ./sling tournament pig --agent hold:20 \
        --agent "external:cmd='python3 examples/python/mcts_agent.py 2000'"
"""

from __future__ import annotations

import math
import random
import sys
import time

from sling_client import ActResult, Agent, Message, Resign, run

ROLL, HOLD = 0, 1  # Pig's action ids (engine/pig/pig.h); the dice's outcomes are the faces 1 to 6
PLAYOUT_HOLD_AT = 20  # the classic baseline, used by both sides in the playouts
PRIOR = 0.8  # the prior probability that the rule of thumb's action is best
EXPLORATION = 1.0  # PUCT's constant, for values in [0, 1]

# A decision state: (my score, their score, turn total) from the side to move's view, so both sides
# share one model and the tree never needs to know who is who.
State = tuple[int, int, int]


def rule_of_thumb(state: State, goal: int) -> int:
    """Hold at a turn total of 20, or as soon as holding reaches the goal."""
    mine, _, total = state
    return HOLD if total >= PLAYOUT_HOLD_AT or mine + total >= goal else ROLL


def step(state: State, action: int, goal: int, rng: random.Random) -> tuple[State, bool]:
    """Applies roll (with a random die) or hold: the next decision state, and whether the side that
    moved has won.  After a 1 or a hold the turn passes, so the view flips."""
    mine, theirs, total = state
    if action == HOLD:
        if mine + total >= goal:
            return state, True
        return (theirs, mine + total, 0), False
    face = rng.randint(1, 6)
    if face == 1:  # a 1 loses the turn total
        return (theirs, mine, 0), False
    return (mine, theirs, total + face), False


def playout(state: State, goal: int, rng: random.Random) -> bool:
    """Plays both sides holding at 20 (or at the goal): True when the side to move at `state`
    wins."""
    mine, theirs, total = state
    mover_is_me = True
    while True:
        if rule_of_thumb((mine, theirs, total), goal) == HOLD:
            mine += total
            if mine >= goal:
                return mover_is_me
            mine, theirs, total, mover_is_me = theirs, mine, 0, not mover_is_me
            continue
        face = rng.randint(1, 6)
        if face == 1:
            mine, theirs, total, mover_is_me = theirs, mine, 0, not mover_is_me
        else:
            total += face


def both_sides(pair: list[int] | dict[str, int]) -> list[int]:
    """A pair of per-side values from the state's JSON: a list [first, second] (what Sling sends),
    or the object {"value0": first, "value1": second} of cereal's older form of a C++ array."""
    return [pair["value0"], pair["value1"]] if isinstance(pair, dict) else list(pair)


class Node:
    """A decision node: visits and wins of each action for the side to move here, and a child per
    (action, resulting state), so each die face sampled below a roll gets its own subtree."""

    __slots__ = ("visits", "wins", "children")

    def __init__(self) -> None:
        self.visits = [0, 0]
        self.wins = [0.0, 0.0]
        self.children: dict[tuple[int, State], Node] = {}

    def select(self, state: State, actions: list[int], goal: int) -> int:
        """PUCT: the mean wins plus an exploration bonus that favours the rule of thumb's action
        and shrinks as an action is tried."""
        favoured = rule_of_thumb(state, goal)
        scale = EXPLORATION * math.sqrt(1 + sum(self.visits[a] for a in actions))

        def score(action: int) -> float:
            tried = self.visits[action]
            mean = self.wins[action] / tried if tried else 0.5
            prior = PRIOR if action == favoured else 1 - PRIOR
            return mean + scale * prior / (1 + tried)

        return max(actions, key=score)


def simulate(root: Node, state: State, actions: list[int], goal: int, rng: random.Random) -> None:
    """One simulation: select down the tree, add one node, play out, back the result up."""
    path: list[tuple[Node, int, bool]] = []  # node, action, whether the node's mover is the root's
    node, mover_is_root = root, True
    while True:
        # Holding that reaches the goal is a proven win: no need to sample the alternatives.
        winning_hold = state[0] + state[2] >= goal and HOLD in actions
        action = HOLD if winning_hold else node.select(state, actions, goal)
        next_state, won = step(state, action, goal, rng)
        path.append((node, action, mover_is_root))
        if won:
            root_mover_wins = mover_is_root
            break
        if next_state[2] == 0:  # the turn passed: the other side moves next
            mover_is_root = not mover_is_root
        key = (action, next_state)
        child = node.children.get(key)
        if child is None:
            node.children[key] = Node()
            root_mover_wins = playout(next_state, goal, rng) == mover_is_root
            break
        node, state, actions = child, next_state, [ROLL, HOLD]
    for visited, action, is_root in path:  # each node counts the wins of its own mover
        visited.visits[action] += 1
        visited.wins[action] += 1.0 if is_root == root_mover_wins else 0.0


class MctsAgent(Agent):
    name = "python-mcts-pig"

    def __init__(self, iterations: int) -> None:
        self.iterations = iterations

    def new_game(self, info: Message) -> None:
        self.game = info["game"]
        self.plays_pig = self.game == "pig"
        self.goal = info["rules"]["goal"] if self.plays_pig else 0
        self.rng = random.Random(info["seed"])

    def act(self, request: Message) -> ActResult:
        if not self.plays_pig:
            raise Resign(f"mcts_agent.py plays only pig, not {self.game}")
        facts = request["state"]
        mover = facts["to_move"]
        scores = both_sides(facts["scores"])
        state = (scores[mover], scores[1 - mover], facts["turn_total"])
        actions = [legal["id"] for legal in request["legal"] if legal["id"] in (ROLL, HOLD)]
        # Iterations decide the move (reproducible); the clock only guards a tight time limit.
        deadline = time.monotonic() + 0.5 * request["time_left"] if request["time_left"] else None
        root = Node()
        done = 0
        while done < self.iterations and (deadline is None or time.monotonic() < deadline):
            simulate(root, state, actions, self.goal, self.rng)
            done += 1

        def mean(action: int) -> float:
            return root.wins[action] / max(root.visits[action], 1)

        # The most visited action is the best; equal visits go to the better mean.
        ranked = sorted(actions, key=lambda a: (root.visits[a], mean(a)), reverse=True)
        stats = [{"id": a, "win_probability": mean(a), "visits": root.visits[a]} for a in ranked]
        return ranked[0], {"win_probability": stats[0]["win_probability"], "nodes": done,
                           "actions": stats}


if __name__ == "__main__":
    run(MctsAgent(int(sys.argv[1]) if len(sys.argv) > 1 else 1000))
