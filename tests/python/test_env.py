"""sling.env: the Gymnasium environments (DuelEnv, PigEnv, DanelawEnv) and the PettingZoo AECEnv,
put through the checks of gymnasium.utils.env_checker.check_env and pettingzoo.test.api_test
(re-written here: neither library is installed), and danelaw's dense index and planes."""

import copy
import importlib
import json
import random
import sys
import types
import unittest

import numpy as np

import sling
import sling.env
import sling.spaces
from sling.env import AECEnv, DanelawEnv, DuelEnv, PigEnv


def play(env, seed, choose):
    obs, info = env.reset(seed=seed)
    total, steps, trace = 0.0, 0, []
    while True:
        action = choose(info)
        trace.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert obs.dtype == np.float32 and obs.shape == env.observation_shape
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, trace, info


def hold_at_5(info):
    """Pig: roll (0) until the turn total reaches 5, then hold (1)."""
    state = info["state"]
    return 1 if state.observation()[2] * state.game.rules["goal"] >= 5 - 1e-4 else 0


def same(a, b):
    """gymnasium's data_equivalence: equal types, then equal values (arrays by shape, dtype and
    content)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return a.shape == b.shape and a.dtype == b.dtype and bool(np.all(a == b))
    return bool(a == b)


def gym_envs():
    return [PigEnv(goal=20, opponent="random"), DuelEnv(opponent="random"),
            DanelawEnv(opponent="random", max_plies=400)]


class GymnasiumCheckTest(unittest.TestCase):
    """What gymnasium.utils.env_checker.check_env (and its passive checker) assert, per game."""

    def check_spaces(self, env):
        space = env.action_space
        self.assertEqual(space.shape, ())
        self.assertEqual(int(space.n), env.action_size)
        self.assertTrue(np.issubdtype(space.dtype, np.integer))
        obs_space = env.observation_space
        self.assertEqual(obs_space.dtype, np.float32)
        self.assertEqual(obs_space.shape, env.observation_shape)
        self.assertTrue(np.all(obs_space.low == 0) and np.all(obs_space.high == 1))
        self.assertIn(obs_space.sample(), obs_space)
        self.assertEqual(space.seed(3), [3])
        twin = copy.deepcopy(space)
        self.assertEqual(space.sample(), twin.sample())
        self.assertNotIn(env.action_size, space)
        self.assertNotIn(-1, space)
        self.assertNotIn(1.5, space)
        self.assertFalse(callable(getattr(env, "seed", None)))  # reset(seed=...) only

    def check_reset(self, env):
        result = env.reset()
        self.assertIsInstance(result, tuple)
        self.assertEqual(len(result), 2)
        obs, info = result
        self.assertIn(obs, env.observation_space)
        self.assertEqual(obs.dtype, np.float32)
        self.assertIsInstance(info, dict)
        self.check_mask(env, info)
        # check_reset_seed_determinism
        obs_1, _ = env.reset(seed=123)
        rng_1 = copy.deepcopy(env.unwrapped.np_random)
        obs_2, _ = env.reset()
        obs_3, _ = env.reset(seed=123)
        rng_3 = copy.deepcopy(env.unwrapped.np_random)
        obs_4, _ = env.reset()
        self.assertTrue(same(obs_1, obs_3))
        self.assertTrue(same(obs_2, obs_4))
        self.assertEqual(rng_1.bit_generator.state, rng_3.bit_generator.state)
        env.reset(seed=456)
        self.assertNotEqual(env.unwrapped.np_random.bit_generator.state, rng_1.bit_generator.state)
        # check_reset_options
        obs, info = env.reset(options={})
        self.assertIn(obs, env.observation_space)

    def check_mask(self, env, info):
        mask = info["action_mask"]
        self.assertEqual(mask.dtype, np.int8)
        self.assertEqual(mask.shape, (env.action_size,))
        self.assertEqual(sorted(np.flatnonzero(mask).tolist()), sorted(info["legal_actions"]))
        if mask.any():
            self.assertEqual(mask[env.action_space.sample(mask)], 1)

    def check_step(self, env, obs, reward, terminated, truncated, info):
        self.assertIn(obs, env.observation_space)
        self.assertEqual(obs.dtype, np.float32)
        self.assertIsInstance(reward, float)
        self.assertIs(type(terminated), bool)
        self.assertIs(type(truncated), bool)
        self.assertIsInstance(info, dict)
        self.check_mask(env, info)

    def check_step_determinism(self, env, seed=123):
        """A sampled action (legal or not) steps the same way twice after the same seed."""
        env.action_space.seed(seed)
        for _ in range(3):
            action = env.action_space.sample()
            env.reset(seed=seed)
            first = env.step(action)
            rng = copy.deepcopy(env.unwrapped.np_random)
            env.reset(seed=seed)
            second = env.step(action)
            self.assertEqual(env.unwrapped.np_random.bit_generator.state, rng.bit_generator.state)
            for a, b in zip(first, second):
                self.assertTrue(same(a, b))
            self.assertIs(first[3], False)
            self.check_step(env, *first)

    def check_episode(self, env, seed):
        """A whole episode of legal actions drawn with the mask; then step() raises until reset."""
        obs, info = env.reset(seed=seed)
        env.action_space.seed(seed)
        while True:
            result = env.step(env.action_space.sample(info["action_mask"]))
            self.check_step(env, *result)
            obs, reward, terminated, truncated, info = result
            self.assertNotIn("illegal_action", info)
            if terminated or truncated:
                break
            self.assertEqual(reward, 0.0)
        if terminated:
            self.assertEqual(reward, info["state"].returns()[env.player])
            self.assertFalse(info["action_mask"].any())
        with self.assertRaises(sling.IllegalActionError):
            env.step(0)

    def check_render_close(self, env):
        self.assertIsNone(env.render_mode)
        self.assertIsNone(env.render())
        self.assertIn("ansi", env.metadata["render_modes"])
        env.close()
        env.close()

    def test_every_game_passes_the_checks(self):
        for env in gym_envs():
            with self.subTest(game=env.game.name):
                self.assertIs(env.unwrapped, env)
                self.check_spaces(env)
                self.check_reset(env)
                self.check_step_determinism(env)
                self.check_episode(env, 5)
                self.check_render_close(env)

    def test_render_ansi(self):
        env = DanelawEnv(render_mode="ansi", opponent="random")
        env.reset(seed=1)
        self.assertEqual(env.render(), str(env.state))
        with self.assertRaises(ValueError):
            PigEnv(render_mode="human")

    def test_illegal_actions(self):
        env = PigEnv(goal=20, opponent="random")
        _, info = env.reset(seed=1)
        with self.assertRaises(sling.IllegalActionError):  # outside the space
            env.step(env.action_size)
        env = DuelEnv(opponent="random")
        _, info = env.reset(seed=1)
        illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
        obs, reward, terminated, truncated, info = env.step(illegal)
        self.assertEqual((reward, terminated, truncated), (-1.0, True, False))
        self.assertTrue(info["illegal_action"])
        with self.assertRaises(sling.IllegalActionError):
            env.step(illegal)
        strict = DuelEnv(opponent="random", illegal_action="raise")
        strict.reset(seed=1)
        with self.assertRaises(sling.IllegalActionError):
            strict.step(illegal)
        with self.assertRaises(ValueError):
            DuelEnv(illegal_action="ignore")

    def test_pig_episode(self):
        env = PigEnv(opponent="heuristic", goal=30)
        first = play(env, 4, lambda info: int(np.flatnonzero(info["action_mask"])[0]))
        self.assertIn(first[0], (-1.0, 1.0))
        self.assertTrue(first[3]["state"].is_terminal)
        again = play(env, 4, lambda info: int(np.flatnonzero(info["action_mask"])[0]))
        self.assertEqual(first[:3], again[:3])  # the same seed, the same episode

    def test_duel_episode(self):
        env = DuelEnv(player="goliath", opponent="random")
        rng = np.random.default_rng(1)
        obs, info = env.reset(seed=2)
        self.assertEqual(info["state"].current_player, 1)
        total, steps, _, _ = play(env, 2, lambda info: int(rng.choice(info["legal_actions"])))
        self.assertIn(total, (-1.0, 0.0, 1.0))

    def test_callable_opponent(self):
        env = PigEnv(opponent=lambda state: 1, goal=20)  # always holds: the learner wins
        total, _, _, _ = play(env, 1, hold_at_5)
        self.assertEqual(total, 1.0)

    def test_danelaw_against_the_heuristic(self):
        env = DanelawEnv(player="english", opponent="heuristic", max_plies=300)
        obs, info = env.reset(seed=9)
        self.assertEqual(obs.shape, sling.danelaw.observation_shape(env.game))
        self.assertEqual(info["state"].current_player, 1)
        names = sling.danelaw.PLANES
        self.assertTrue(np.all(obs[names.index("to_act_english")] == 1))
        rng = np.random.default_rng(3)
        total, steps, _, info = play(env, 9, lambda i: int(rng.choice(i["legal_actions"])))
        self.assertTrue(info["state"].is_terminal or env._ply >= 300)


class DanelawEncodingTest(unittest.TestCase):
    """sling.danelaw: the dense index is a bijection, the mask the legal set, the planes the
    state."""

    def setUp(self):
        self.game = sling.Game("danelaw")

    def test_index_and_code(self):
        n = sling.danelaw.action_count(self.game)
        self.assertEqual(n, 7 * 605 + 5)
        codes = {sling.danelaw.action_code(self.game, i) for i in range(n)}
        self.assertEqual(len(codes), n)
        for i in (0, 604, 605, n - 5, n - 1):
            code = sling.danelaw.action_code(self.game, i)
            self.assertEqual(sling.danelaw.action_index(self.game, code), i)
        with self.assertRaises(IndexError):
            sling.danelaw.action_code(self.game, n)
        with self.assertRaises(ValueError):
            sling.danelaw.action_index(self.game, 1 << 24)
        with self.assertRaises(TypeError):
            sling.danelaw.action_count(sling.Game("pig"))

    def test_mask_and_planes_along_a_game(self):
        state = self.game.new_initial_state()
        names = sling.danelaw.PLANES
        shape = sling.danelaw.observation_shape(self.game)
        self.assertEqual(shape, (len(names), 36, 25))
        grid = sling.danelaw.hex_grid(self.game)
        self.assertEqual(grid.shape, shape[1:])
        self.assertEqual(sorted(grid[grid >= 0].tolist()), list(range(605)))
        for ply in range(300):
            if state.is_terminal:
                break
            mask = sling.danelaw.legal_action_mask(state)
            self.assertEqual(mask.dtype, np.int8)
            legal = state.legal_actions()
            indices = sling.danelaw.legal_action_indices(state)
            self.assertEqual(
                sorted(indices.tolist()),
                sorted(sling.danelaw.action_index(self.game, a) for a in legal))
            self.assertEqual(sorted(np.flatnonzero(mask).tolist()), sorted(indices.tolist()))
            obs = sling.danelaw.observation(state)
            self.assertEqual(obs.shape, shape)
            self.assertEqual(obs.dtype, np.float32)
            self.assertTrue(np.all((obs >= 0) & (obs <= 1)))
            self.assertEqual(obs[names.index("on_map")].sum(), 605)
            armies = json.loads(state.to_json())["armies"]
            danes = sum(1 for a in armies if a["side"] == 0)
            self.assertEqual(obs[names.index("danes")].sum(), danes)
            for a in armies:
                row, col = np.argwhere(grid == a["hex"])[0]
                plane = "danes" if a["side"] == 0 else (
                    "english_militia" if a["flags"] & 1 else "english_field")
                self.assertEqual(obs[names.index(plane), row, col], 1.0)
            if state.is_chance_node:
                self.assertFalse(mask.any())
                state.apply(state.roll_dice(7, ply))
            else:
                state.apply(legal[ply % len(legal)])


class PettingZooCheckTest(unittest.TestCase):
    """What pettingzoo.test.api_test asserts (its play test and action flexibility), per game."""

    def envs(self):
        return [AECEnv(sling.Game("pig", {"goal": 20})), AECEnv(sling.Game("duel")),
                AECEnv(sling.Game("danelaw"), max_plies=300)]

    def play_test(self, env, cycles):
        env.reset(seed=0)
        rng = random.Random(0)
        live, finished, accumulated = set(env.agents), set(), {a: 0.0 for a in env.agents}
        observation_0 = env.last()[0]
        for agent in env.agent_iter(env.num_agents * cycles):
            self.assertNotIn(agent, finished, "agents cannot resurrect")
            self.assertIsInstance(env.infos[agent], dict)
            obs, reward, terminated, truncated, info = env.last()
            self.assertIs(env.observation_space(agent), env.observation_space(agent))
            self.assertIs(env.action_space(agent), env.action_space(agent))
            self.assertIn(obs, env.observation_space(agent))
            self.assertEqual(obs.dtype, env.observation_space(agent).dtype)
            self.assertEqual(obs.shape, observation_0.shape)
            self.assertIs(info, env.infos[agent])
            mask = info["action_mask"]
            self.assertEqual((mask.dtype, mask.shape), (np.int8, (env.action_size,)))
            if terminated or truncated:
                action = None
                live.discard(agent)
                finished.add(agent)
            else:
                self.assertTrue(mask.any())
                action = rng.choice(np.flatnonzero(mask).tolist())
            self.assertTrue(live.issubset(set(env.agents)))
            self.assertEqual(accumulated[agent], reward, "last() gives the accumulated reward")
            accumulated[agent] = 0.0
            self.assertIsNone(env.step(action))
            for a, r in env.rewards.items():
                accumulated[a] += r
            self.assertEqual(env.num_agents, len(env.agents))
            for table in (env.rewards, env.terminations, env.truncations, env.infos,
                          env._cumulative_rewards):
                self.assertEqual(set(table), set(env.agents))
            self.assertTrue(set(env.agents).issubset(env.possible_agents))
        return finished

    def test_every_game_passes_the_checks(self):
        for env in self.envs():
            with self.subTest(game=env.game.name):
                env.reset()
                self.assertFalse(any(env.terminations.values()))
                self.assertEqual(env.num_agents, 2)
                self.assertEqual(env.max_num_agents, 2)
                self.assertIsNone(env.last(observe=False)[0])
                self.assertTrue(same(env.state(), env.observe(env.agent_selection)))
                self.assertIn(env.state(), env.state_space)
                finished = self.play_test(env, 100_000)
                self.assertEqual(finished, set(env.possible_agents))
                self.assertEqual(env.agents, [])
                # test_action_flexibility: numpy integers are actions too.
                env.reset()
                action = int(np.flatnonzero(env.last()[4]["action_mask"])[0])
                env.step(action)
                env.reset()
                env.step(np.int32(action))
                self.assertIs(env.unwrapped, env)
                env.close()
                env.close()

    def test_seed_repeats_the_game(self):
        def trace(env):
            env.reset(seed=42)
            rng = random.Random(1)
            out = []
            for agent in env.agent_iter(400):
                obs, reward, terminated, truncated, info = env.last()
                action = None if terminated or truncated else rng.choice(
                    np.flatnonzero(info["action_mask"]).tolist())
                out.append((agent, action, reward, obs.tobytes()))
                env.step(action)
            return out
        for game in ("pig", "danelaw"):
            with self.subTest(game=game):
                self.assertEqual(trace(AECEnv(sling.Game(game))), trace(AECEnv(sling.Game(game))))

    def test_done_agents_step_none(self):
        env = AECEnv(sling.Game("pig", {"goal": 20}))
        env.reset(seed=8)
        steps, final = 0, {}
        while env.agents:
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                with self.assertRaises(sling.IllegalActionError):
                    env.step(0)
                final[env.agent_selection] = reward
                env.step(None)
                continue
            self.assertTrue(info["action_mask"].all())
            env.step(hold_at_5({"state": env.game_state}))
            steps += 1
            self.assertLess(steps, 10000)
        self.assertEqual(sorted(final.values()), [-1.0, 1.0])
        self.assertEqual(env._cumulative_rewards, {})
        self.assertEqual(env.possible_agents, ["first", "second"])

    def test_illegal_action_loses(self):
        env = AECEnv(sling.Game("duel"))
        env.reset(seed=3)
        offender = env.agent_selection
        illegal = int(np.flatnonzero(env.last()[4]["action_mask"] == 0)[0])
        env.step(illegal)
        self.assertTrue(all(env.terminations.values()))
        self.assertEqual(env._cumulative_rewards[offender], -1.0)
        self.assertTrue(env.infos[offender]["illegal_action"])
        strict = AECEnv(sling.Game("duel"), illegal_action="raise")
        strict.reset(seed=3)
        with self.assertRaises(sling.IllegalActionError):
            strict.step(illegal)


class FallbackSpacesTest(unittest.TestCase):
    """The stand-ins for gymnasium.spaces behave as Gymnasium's do."""

    def test_discrete(self):
        space = sling.spaces.Discrete(5, seed=1)
        self.assertEqual((int(space.n), space.shape, space.dtype), (5, (), np.int64))
        self.assertIn(4, space)
        self.assertIn(np.int32(0), space)
        self.assertNotIn(5, space)
        self.assertNotIn(True, space)
        mask = np.array([0, 0, 1, 0, 0], dtype=np.int8)
        self.assertEqual(space.sample(mask), 2)
        self.assertEqual(space.sample(np.zeros(5, dtype=np.int8)), 0)
        with self.assertRaises(ValueError):
            space.sample(mask.astype(bool))
        self.assertEqual(space, sling.spaces.Discrete(5))

    def test_box(self):
        box = sling.spaces.Box(0.0, 1.0, (2, 3), np.float32, seed=2)
        self.assertEqual(box.low.shape, (2, 3))
        self.assertIn(box.sample(), box)
        self.assertNotIn(np.full((2, 3), 2.0, dtype=np.float32), box)
        self.assertNotIn(np.zeros((3, 2), dtype=np.float32), box)
        self.assertNotIn(np.zeros((2, 3), dtype=np.float64), box)  # float64 does not cast down
        self.assertTrue(box.is_bounded())


class GymnasiumRegistrationTest(unittest.TestCase):
    """With gymnasium importable the environments derive from gymnasium.Env, use its spaces and
    are registered; a minimal stand-in module shows it without installing Gymnasium."""

    def test_registration(self):
        fake = types.ModuleType("gymnasium")
        fake_spaces = types.ModuleType("gymnasium.spaces")

        class Env:
            pass

        fake_spaces.Box = type("Box", (sling.spaces.Box,), {})
        fake_spaces.Discrete = type("Discrete", (sling.spaces.Discrete,), {})
        fake.Env, fake.spaces, fake.registry = Env, fake_spaces, {}
        fake.register = lambda id, entry_point: fake.registry.__setitem__(id, entry_point)
        saved = sys.modules.get("gymnasium")
        sys.modules["gymnasium"] = fake
        try:
            importlib.reload(sling.spaces)
            env_module = importlib.reload(sling.env)
            self.assertEqual(fake.registry, {"sling/Duel-v0": "sling.env:DuelEnv",
                                             "sling/Pig-v0": "sling.env:PigEnv",
                                             "sling/Danelaw-v0": "sling.env:DanelawEnv"})
            env = env_module.DanelawEnv(opponent="random")
            self.assertIsInstance(env, Env)
            self.assertIsInstance(env.action_space, fake_spaces.Discrete)
            self.assertIsInstance(env.observation_space, fake_spaces.Box)
        finally:
            if saved is None:
                del sys.modules["gymnasium"]
            else:  # pragma: no cover - Gymnasium is not installed here
                sys.modules["gymnasium"] = saved
            importlib.reload(sling.spaces)
            importlib.reload(sling.env)
        if not sling.spaces.HAVE_GYMNASIUM:
            self.assertIs(sling.env.SlingEnv.__mro__[1], object)


if __name__ == "__main__":
    unittest.main()
