"""Environments for reinforcement learning over every Sling game, following Gymnasium's and
PettingZoo's APIs without requiring either (neither is packaged for Debian 12).

``DuelEnv``, ``PigEnv`` and ``DanelawEnv`` are Gymnasium environments (``gymnasium.Env`` when
Gymnasium is importable): one side learns, the other is an opponent agent (a spec string, a preset
or a callable), and chance is resolved inside from the episode's generator with Sling's dice
convention (``State.roll_dice``), so an episode is reproducible from ``reset(seed=...)``.
``AECEnv`` is PettingZoo's agent-environment cycle for both sides (``pettingzoo.AECEnv`` when
PettingZoo is importable).  With Gymnasium importable the three are registered as
``sling/Duel-v0``, ``sling/Pig-v0`` and ``sling/Danelaw-v0``.

Actions are ``Discrete(N)`` indices.  For the duel and Pig the index is Sling's action code (N =
8192 and 2); for danelaw it is the dense index of ``sling.danelaw`` (N = 7 * hexes + 5).
``info["action_mask"]`` (np.int8, 1 at each legal index) is what ``action_space.sample(mask)``
takes.  Observations are float32 in [0, 1]: ``State.observation()`` for the duel and Pig, the
planes of ``sling.danelaw.observation`` for danelaw (docs/python.md gives every layout).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

import numpy as np

from . import spaces
from ._sling import Agent, Game, IllegalActionError, State
from ._sling import danelaw as _danelaw

# Action codes of the duel and Pig lie below this: the duel packs a destination as
# 0x1000 | x << 6 | y.  (Danelaw's codes reach 2^24: its environments use the dense index.)
ACTION_SIZES = {"duel": 0x2000, "pig": 2}

Opponent = Union[str, Callable[[State], int]]

_ILLEGAL = ("lose", "raise")


class Encoding:
    """How the environments show a game: the action space's indices and the observation."""

    def __init__(self, game: Game):
        self.game = game
        if game.name == "danelaw":
            self.size = _danelaw.action_count(game)
            self.shape: Tuple[int, ...] = tuple(_danelaw.observation_shape(game))
        elif game.name in ACTION_SIZES:
            self.size = ACTION_SIZES[game.name]
            self.shape = (game.observation_size,)
        else:  # pragma: no cover - every registered game has a branch above
            raise ValueError(f"no environment for {game.name}")
        self.dense = game.name == "danelaw"

    def observation(self, state: State) -> np.ndarray:
        return _danelaw.observation(state) if self.dense else state.observation()

    def mask(self, state: State) -> np.ndarray:
        """np.int8 of length size, 1 at each legal index (all 0 when no decision is due)."""
        if self.dense:
            return _danelaw.legal_action_mask(state)
        return state.legal_action_mask(self.size).astype(np.int8)

    def legal(self, state: State) -> List[int]:
        """The legal indices, in State.legal_actions()'s order."""
        if self.dense:
            return [int(i) for i in _danelaw.legal_action_indices(state)]
        return state.legal_actions()

    def code(self, index: int) -> int:
        return _danelaw.action_code(self.game, index) if self.dense else index

    def observation_space(self) -> Any:
        return spaces.Box(0.0, 1.0, self.shape, np.float32)

    def action_space(self) -> Any:
        return spaces.Discrete(self.size)

    def index_of(self, action: Any) -> int:
        """The integer index of an action of the space; IllegalActionError when it is none."""
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) \
                or not 0 <= int(action) < self.size:
            raise IllegalActionError(
                f"{action!r} is not an action of this environment (an integer 0..{self.size - 1})")
        return int(action)


def _check_illegal_action(mode: str) -> str:
    if mode not in _ILLEGAL:
        raise ValueError(f"illegal_action: one of {_ILLEGAL}, not {mode!r}")
    return mode


def _seed_of(rng: np.random.Generator) -> int:
    """A game seed drawn from an environment's generator (Sling's seeds are 64-bit)."""
    return int(rng.integers(0, 1 << 63))


class _Opponent:
    """A spec string (a C++ agent) or a callable state -> action code."""

    def __init__(self, game: Game, opponent: Opponent):
        if isinstance(opponent, str):
            self.agent: Optional[Agent] = Agent(game, opponent)
            self.callable: Optional[Callable[[State], int]] = None
        elif callable(opponent):
            self.agent, self.callable = None, opponent
        else:
            raise TypeError("opponent: a spec string or a callable state -> action code")

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


class SlingEnv(spaces.GymEnvBase):  # type: ignore[misc,valid-type]
    """One side of a two-player Sling game against a fixed opponent: a Gymnasium environment.

    reset(seed=None, options=None) -> (observation, info); step(action) -> (observation, reward,
    terminated, truncated, info).  The reward is the learner's return (+1 win, -1 loss, 0 draw) at
    the end and 0 before.  info holds "action_mask" (np.int8, 1 at each legal action),
    "legal_actions" (the legal actions of the space) and "state" (a copy of the sling.State).

    illegal_action="lose" (the default, so that any action of the space is a valid step, as
    Gymnasium's env checker requires) ends the episode with reward -1 and info["illegal_action"];
    "raise" raises sling.IllegalActionError.  An action outside the space always raises.
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}
    spec: Any = None  # gymnasium.make sets its EnvSpec here

    def __init__(self, game: Game, player: Union[int, str] = 0, opponent: Opponent = "random",
                 max_plies: int = 100_000, render_mode: Optional[str] = None,
                 illegal_action: str = "lose"):
        self.game = game
        self.player = game.sides.index(player) if isinstance(player, str) else int(player)
        if self.player not in (0, 1):
            raise ValueError(f"player: 0, 1 or one of {game.sides}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: None or one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.illegal_action = _check_illegal_action(illegal_action)
        self.opponent = _Opponent(game, opponent)
        self.max_plies = max_plies
        self.encoding = Encoding(game)
        self.action_size = self.encoding.size
        self.observation_shape = self.encoding.shape
        self.observation_space = self.encoding.observation_space()
        self.action_space = self.encoding.action_space()
        self._np_random: Optional[np.random.Generator] = None
        self._np_random_seed: Optional[int] = None
        self._game_seed = 0
        self._ply = 0
        self._state: Optional[State] = None
        self._over = False  # terminated, truncated or ended by an illegal action

    @property
    def np_random(self) -> np.random.Generator:
        """The episodes' generator: reset(seed=s) makes it anew from s, as Gymnasium does."""
        if self._np_random is None:
            self._np_random = spaces.np_random()
        return self._np_random

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self._np_random = value

    @property
    def np_random_seed(self) -> Optional[int]:
        return self._np_random_seed

    @property
    def unwrapped(self) -> "SlingEnv":
        return self

    @property
    def state(self) -> State:
        """The current state (the learner's turn, or the end)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
              ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Starts an episode.  reset(seed=s) makes the episodes' generator anew from s, so that
        the episode and those after it (reset() without a seed) repeat."""
        del options  # no options: the rules are the constructor's
        if seed is not None:
            self._np_random, self._np_random_seed = spaces.np_random(seed), int(seed)
        self._game_seed = _seed_of(self.np_random)
        self._ply = 0
        self._over = False
        self._state = self.game.new_initial_state()
        self.opponent.new_game(_seed_of(self.np_random))
        self._advance()
        self._over = self._state.is_terminal or self._ply >= self.max_plies
        return self.encoding.observation(self._state), self._info()

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        """Plays the learner's action, then the opponent's and the dice until the learner's next
        decision or the end."""
        state = self.state
        if self._over:
            raise IllegalActionError("the episode is over: call reset()")
        index = self.encoding.index_of(action)
        if not self.encoding.mask(state)[index]:
            if self.illegal_action == "raise":
                raise IllegalActionError(f"action {index} is not legal here")
            self._over = True
            info = dict(self._info(), illegal_action=True)
            return self.encoding.observation(state), -1.0, True, False, info
        self._apply(self.encoding.code(index))
        self._advance()
        terminated = bool(self._state.is_terminal)
        truncated = not terminated and self._ply >= self.max_plies
        self._over = terminated or truncated
        reward = float(self._state.returns()[self.player]) if terminated else 0.0
        return self.encoding.observation(self._state), reward, terminated, truncated, self._info()

    def action_mask(self) -> np.ndarray:
        """The legal actions of the current state: np.int8, 1 at each legal index."""
        return self.encoding.mask(self.state)

    def render(self) -> Optional[str]:
        """render_mode "ansi": the state as text (None without a render mode)."""
        if self.render_mode is None or self._state is None:
            return None
        return str(self._state)

    def close(self) -> None:
        """Nothing to release (the games and agents are plain values); safe to call twice."""

    def _apply(self, action: int) -> None:
        self.opponent.observe(self._state, action)
        self._state.apply(action)
        self._ply += 1

    def _advance(self) -> None:
        state = self._state
        while not state.is_terminal and self._ply < self.max_plies:
            if state.current_player == self.player:
                return
            if state.is_chance_node:
                self._apply(state.roll_dice(self._game_seed, self._ply))
            else:
                self._apply(self.opponent.act(state))

    def _info(self) -> Dict[str, Any]:
        state = self._state
        return {"action_mask": self.encoding.mask(state),
                "legal_actions": self.encoding.legal(state), "state": state.copy()}

    def __str__(self) -> str:
        return f"<{type(self).__name__} {self.game.name} as {self.game.sides[self.player]}>"


class DuelEnv(SlingEnv):
    """The duel for one side ("david" or "goliath") against an opponent agent (default the
    heuristic).  rules: None, a dict or a rules file, as sling.Game takes them."""

    def __init__(self, player: Union[int, str] = "david", opponent: Opponent = "heuristic",
                 rules: Any = None, max_plies: int = 100_000, render_mode: Optional[str] = None,
                 illegal_action: str = "lose"):
        super().__init__(Game("duel", rules), player, opponent, max_plies, render_mode,
                         illegal_action)


class PigEnv(SlingEnv):
    """Pig for one side ("first" or "second") against an opponent agent (default the heuristic).
    Actions: 0 roll, 1 hold."""

    def __init__(self, player: Union[int, str] = "first", opponent: Opponent = "heuristic",
                 goal: int = 100, max_plies: int = 100_000, render_mode: Optional[str] = None,
                 illegal_action: str = "lose"):
        super().__init__(Game("pig", {"goal": goal}), player, opponent, max_plies, render_mode,
                         illegal_action)


class DanelawEnv(SlingEnv):
    """Danelaw for one side ("danes" or "english") against an opponent agent (default the
    heuristic).  Actions are sling.danelaw's dense indices, observations its planes.  rules: None,
    a dict or a rules file; map: a map file (as sling.Game takes them)."""

    def __init__(self, player: Union[int, str] = "danes", opponent: Opponent = "heuristic",
                 rules: Any = None, map: Any = None, max_plies: int = 100_000,
                 render_mode: Optional[str] = None, illegal_action: str = "lose"):
        super().__init__(Game("danelaw", rules, map), player, opponent, max_plies, render_mode,
                         illegal_action)


class AECEnv(spaces.AECEnvBase):  # type: ignore[misc,valid-type]
    """Both sides of a game, PettingZoo's agent-environment cycle.

    The agents are the side names; agent_selection is the side to act; last() gives its
    observation, the reward accumulated since it last acted, its termination, truncation and info
    (info["action_mask"]: np.int8, all 0 for the side not acting).  step(action) plays the
    selected side's action; once the game is over each side is selected in turn and must step
    with None, which removes it from agents.  Chance is resolved inside from the generator that
    reset(seed=...) makes, so only decisions are asked for.  Both sides see the whole state (no
    hidden information), so observe(agent) and state() are the same array.

    illegal_action="lose" (the default, PettingZoo's TerminateIllegalWrapper's rule) ends the game
    with -1 for the side that played it and 0 for the other; "raise" raises IllegalActionError.
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4,
                                "is_parallelizable": False}

    def __init__(self, game: Game, max_plies: int = 100_000, render_mode: Optional[str] = None,
                 illegal_action: str = "lose"):
        self.game = game
        self.metadata = dict(self.metadata, name=f"sling_{game.name}_v0")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: None or one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.illegal_action = _check_illegal_action(illegal_action)
        self.max_plies = max_plies
        self.encoding = Encoding(game)
        self.action_size = self.encoding.size
        self.possible_agents: List[str] = list(game.sides)
        self.agents: List[str] = []
        # One space object per agent, returned as is every time (PettingZoo's api_test checks it).
        self.observation_spaces = {a: self.encoding.observation_space()
                                   for a in self.possible_agents}
        self.action_spaces = {a: self.encoding.action_space() for a in self.possible_agents}
        self.state_space = self.encoding.observation_space()
        self.rewards: Dict[str, float] = {}
        self._cumulative_rewards: Dict[str, float] = {}
        self.terminations: Dict[str, bool] = {}
        self.truncations: Dict[str, bool] = {}
        self.infos: Dict[str, Dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]
        self._skip_agent_selection: Optional[str] = None
        self._np_random: Optional[np.random.Generator] = None
        self._np_random_seed: Optional[int] = None
        self._state: Optional[State] = None
        self._seed = 0
        self._ply = 0

    @property
    def np_random(self) -> np.random.Generator:
        if self._np_random is None:
            self._np_random = spaces.np_random()
        return self._np_random

    @property
    def num_agents(self) -> int:
        return len(self.agents)

    @property
    def max_num_agents(self) -> int:
        return len(self.possible_agents)

    @property
    def unwrapped(self) -> "AECEnv":
        return self

    @property
    def game_state(self) -> State:
        """The current sling.State (for search, an exact value or a callable's decision)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Starts a game.  reset(seed=s) makes the generator anew from s; reset() draws the next
        game's dice from it."""
        del options  # no options: the rules are the game's
        if seed is not None:
            self._np_random, self._np_random_seed = spaces.np_random(seed), int(seed)
        self._seed = _seed_of(self.np_random)
        self._state = self.game.new_initial_state()
        self._ply = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._roll()
        self._update({a: 0.0 for a in self.agents})

    def observe(self, agent: str) -> np.ndarray:
        del agent  # both sides see everything (no hidden information)
        return self.encoding.observation(self.game_state)

    def state(self) -> np.ndarray:
        """The global state as PettingZoo defines it: here the same array as observe()."""
        return self.encoding.observation(self.game_state)

    def last(self, observe: bool = True
             ) -> Tuple[Optional[np.ndarray], float, bool, bool, Dict[str, Any]]:
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter: int = 2 ** 63) -> Iterator[str]:
        """The selected agent, step after step, until no agent is left (or max_iter)."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action: Any) -> None:
        """Plays the selected side's action (None once it is terminated or truncated)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must act: None is only for a side that is done")
        index = self.encoding.index_of(action)
        self._cumulative_rewards[agent] = 0.0
        if not self.encoding.mask(self._state)[index]:
            if self.illegal_action == "raise":
                raise IllegalActionError(f"action {index} is not legal here")
            self._end_illegal(agent)
            return
        self._state.apply(self.encoding.code(index))
        self._ply += 1
        self._roll()
        returns = self._state.returns()
        self._update({a: float(returns[self.possible_agents.index(a)]) for a in self.agents})

    def render(self) -> Optional[str]:
        """render_mode "ansi": the state as text (None without a render mode)."""
        if self.render_mode is None or self._state is None:
            return None
        return str(self._state)

    def close(self) -> None:
        """Nothing to release; safe to call twice."""

    def _roll(self) -> None:
        state = self._state
        while state.is_chance_node and self._ply < self.max_plies:
            state.apply(state.roll_dice(self._seed, self._ply))
            self._ply += 1

    def _update(self, rewards: Dict[str, float]) -> None:
        """Rewards, ends, masks and the next agent after a step (or a reset)."""
        state = self._state
        done = bool(state.is_terminal)
        cut = not done and self._ply >= self.max_plies
        mask = self.encoding.mask(state)
        player = state.current_player
        for side, agent in enumerate(self.possible_agents):
            if agent not in self.agents:
                continue
            self.rewards[agent] = rewards[agent] if done else 0.0
            self._cumulative_rewards[agent] += self.rewards[agent]
            self.terminations[agent] = done
            self.truncations[agent] = cut
            self.infos[agent] = {"action_mask": mask if player == side and not cut
                                 else np.zeros(self.action_size, dtype=np.int8)}
        if player >= 0 and not cut:
            self.agent_selection = self.possible_agents[player]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def _end_illegal(self, agent: str) -> None:
        for other in self.agents:
            self.rewards[other] = -1.0 if other == agent else 0.0
            self._cumulative_rewards[other] += self.rewards[other]
            self.terminations[other] = True
            self.infos[other] = {"action_mask": np.zeros(self.action_size, dtype=np.int8),
                                 "illegal_action": other == agent}
        self.agent_selection = self.agents[0]

    def _was_dead_step(self, action: Any) -> None:
        """A done agent's step(None): removes it, then selects the next done agent (PettingZoo's
        rule)."""
        if action is not None:
            raise IllegalActionError("the game is over for this side: step(None)")
        agent = self.agent_selection
        for table in (self.rewards, self._cumulative_rewards, self.terminations,
                      self.truncations, self.infos):
            del table[agent]
        self.agents.remove(agent)
        dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
        if dead:
            self._skip_agent_selection = self._skip_agent_selection or agent
            self.agent_selection = dead[0]
        elif self._skip_agent_selection is not None:
            self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        self.rewards = {a: 0.0 for a in self.agents}

    def __str__(self) -> str:
        return f"<AECEnv {self.game.name}>"


def _register_with_gymnasium() -> None:
    """gymnasium.make("sling/Danelaw-v0") and the others, when Gymnasium is importable."""
    gymnasium = spaces._gymnasium
    if gymnasium is None:
        return
    for name, cls in (("Duel", "DuelEnv"), ("Pig", "PigEnv"), ("Danelaw", "DanelawEnv")):
        env_id = f"sling/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=f"sling.env:{cls}")


_register_with_gymnasium()
