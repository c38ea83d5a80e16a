"""Environments in the shapes reinforcement-learning code expects, without depending on Gymnasium or
PettingZoo (neither is packaged for Debian 12).

``DuelEnv`` and ``PigEnv`` follow Gymnasium's single-agent API: one side learns, the other side is
an opponent agent (a spec string, a preset or a callable), and chance is resolved inside from the
episode's seed with Sling's dice convention (``State.roll_dice``), so an episode is reproducible
from its seed.  ``AECEnv`` follows PettingZoo's agent-environment-cycle API for both sides.

Actions are Sling's action codes (integers below ``action_size``); ``info["action_mask"]`` marks
the legal ones.  Observations are ``State.observation()``: float32 vectors in [0, 1] whose layout
docs/python.md gives.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import numpy as np

from ._sling import Agent, Game, IllegalActionError, State

# Action codes of each game lie below this: the duel packs a destination as 0x1000 | x << 6 | y.
# (Danelaw's codes reach 2^24, too sparse for a mask: it has no environment here.)
ACTION_SIZES = {"duel": 0x2000, "pig": 2}


def _action_size(game: Game) -> int:
    if game.name not in ACTION_SIZES:
        raise ValueError(f"no environment for {game.name}: the duel and Pig have one")
    return ACTION_SIZES[game.name]

Opponent = Union[str, Callable[[State], int]]

_MASK64 = (1 << 64) - 1


def _episode_seed(base: int, episode: int) -> int:
    """The game seed of episode `episode` after reset(seed=base) (a SplitMix64 step)."""
    z = (base + 0x9E3779B97F4A7C15 * (episode + 1)) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class _Opponent:
    """A spec string (a C++ agent) or a callable state -> action."""

    def __init__(self, game: Game, opponent: Opponent):
        if isinstance(opponent, str):
            self.agent: Optional[Agent] = Agent(game, opponent)
            self.callable: Optional[Callable[[State], int]] = None
        elif callable(opponent):
            self.agent, self.callable = None, opponent
        else:
            raise TypeError("opponent: a spec string or a callable state -> action")

    def new_game(self, seed: int) -> None:
        if self.agent is not None:
            self.agent.new_game(seed)
        elif hasattr(self.callable, "new_game"):
            self.callable.new_game(seed)  # type: ignore[union-attr]

    def act(self, state: State) -> int:
        if self.agent is not None:
            return self.agent.act(state)
        return int(self.callable(state))  # type: ignore[misc]

    def observe(self, state: State, action: int) -> None:
        if self.agent is not None:
            self.agent.observe(state, action)


class SlingEnv:
    """One side of a two-player Sling game against a fixed opponent, Gymnasium-style.

    reset(seed=None) -> (observation, info); step(action) -> (observation, reward, terminated,
    truncated, info).  The reward is the learner's return (+1 win, -1 loss, 0 draw) at the end and
    0 before.  info holds "action_mask" (numpy bool, length action_size), "legal_actions" and
    "state" (a copy of the sling.State, for inspection or search).
    """

    def __init__(self, game: Game, player: Union[int, str] = 0, opponent: Opponent = "random",
                 max_plies: int = 100_000):
        self.game = game
        self.player = game.sides.index(player) if isinstance(player, str) else int(player)
        if self.player not in (0, 1):
            raise ValueError(f"player: 0, 1 or one of {game.sides}")
        self.opponent = _Opponent(game, opponent)
        self.max_plies = max_plies
        self.action_size = _action_size(game)
        self.observation_shape = (game.observation_size,)
        self._base_seed = 0
        self._episode = -1
        self._game_seed = 0
        self._ply = 0
        self._state: Optional[State] = None

    @property
    def state(self) -> State:
        """The current state (the learner's turn, or the end)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
              ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Starts an episode.  reset(seed=s) restarts the sequence of episode seeds from s."""
        del options
        if seed is not None:
            self._base_seed, self._episode = int(seed) & _MASK64, -1
        self._episode += 1
        self._game_seed = _episode_seed(self._base_seed, self._episode)
        self._ply = 0
        self._state = self.game.new_initial_state()
        self.opponent.new_game(_episode_seed(self._game_seed, 1))
        self._advance()
        return self._state.observation(), self._info()

    def step(self, action: int) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        """Plays the learner's action, then the opponent's and the dice until the learner's next
        decision or the end.  An illegal action raises sling.IllegalActionError."""
        state = self.state
        if state.is_terminal:
            raise IllegalActionError("the episode is over: call reset()")
        self._apply(int(action))
        self._advance()
        terminated = self._state.is_terminal
        truncated = not terminated and self._ply >= self.max_plies
        reward = float(self._state.returns()[self.player]) if terminated else 0.0
        return self._state.observation(), reward, terminated, truncated, self._info()

    def action_mask(self) -> np.ndarray:
        """The legal actions of the current state as a bool mask of length action_size."""
        return self.state.legal_action_mask(self.action_size)

    def _apply(self, action: int) -> None:
        self.opponent.observe(self._state, action)
        self._state.apply(action)
        self._ply += 1

    def _advance(self) -> None:
        state = self._state
        while not state.is_terminal and self._ply < self.max_plies:
            player = state.current_player
            if player == self.player:
                return
            if state.is_chance_node:
                self._apply(state.roll_dice(self._game_seed, self._ply))
            else:
                self._apply(self.opponent.act(state))

    def _info(self) -> Dict[str, Any]:
        state = self._state
        return {"action_mask": state.legal_action_mask(self.action_size),
                "legal_actions": state.legal_actions(), "state": state.copy()}


class DuelEnv(SlingEnv):
    """The duel for one side ("david" or "goliath") against an opponent agent (default the
    heuristic).  rules: None, a dict or a rules file, as sling.Game takes them."""

    def __init__(self, player: Union[int, str] = "david", opponent: Opponent = "heuristic",
                 rules: Any = None, max_plies: int = 100_000):
        super().__init__(Game("duel", rules), player, opponent, max_plies)


class PigEnv(SlingEnv):
    """Pig for one side ("first" or "second") against an opponent agent (default the heuristic).
    Actions: 0 roll, 1 hold."""

    def __init__(self, player: Union[int, str] = "first", opponent: Opponent = "heuristic",
                 goal: int = 100, max_plies: int = 100_000):
        super().__init__(Game("pig", {"goal": goal}), player, opponent, max_plies)


class AECEnv:
    """Both sides of a game, PettingZoo's agent-environment cycle: agents are the side names,
    agent_selection the side to act; observe(agent), last(), step(action), reset(seed).  Chance
    is resolved inside from the seed, so only decisions are asked for."""

    def __init__(self, game: Game, max_plies: int = 100_000):
        self.game = game
        self.possible_agents: List[str] = list(game.sides)
        self.agents: List[str] = []
        self.max_plies = max_plies
        self.action_size = _action_size(game)
        self.rewards: Dict[str, float] = {}
        self.terminations: Dict[str, bool] = {}
        self.truncations: Dict[str, bool] = {}
        self.infos: Dict[str, Dict[str, Any]] = {}
        self._state: Optional[State] = None
        self._seed = 0
        self._ply = 0
        self.agent_selection = self.possible_agents[0]

    @property
    def state(self) -> State:
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        del options
        self._seed = (int(seed) & _MASK64) if seed is not None else _episode_seed(self._seed, 0)
        self._state = self.game.new_initial_state()
        self._ply = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._roll()

    def observe(self, agent: str) -> np.ndarray:
        del agent  # both sides see everything (no hidden information)
        return self.state.observation()

    def last(self) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        agent = self.agent_selection
        return (self.observe(agent), self.rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action: Optional[int]) -> None:
        """Plays the selected side's action (None once it is terminated or truncated)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalActionError("the game is over: step(None) for each side")
            self.agents.remove(agent)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        self._state.apply(int(action))
        self._ply += 1
        self._roll()

    def _roll(self) -> None:
        state = self._state
        while state.is_chance_node and self._ply < self.max_plies:
            state.apply(state.roll_dice(self._seed, self._ply))
            self._ply += 1
        done = state.is_terminal
        cut = not done and self._ply >= self.max_plies
        returns = state.returns()
        for side, agent in enumerate(self.possible_agents):
            self.rewards[agent] = float(returns[side]) if done else 0.0
            self.terminations[agent] = done
            self.truncations[agent] = cut
            self.infos[agent] = {"action_mask": state.legal_action_mask(self.action_size)
                                 if state.current_player == side else
                                 np.zeros(self.action_size, dtype=bool)}
        player = state.current_player
        if player >= 0:
            self.agent_selection = self.possible_agents[player]
        elif self.agents:
            self.agent_selection = self.agents[0]
