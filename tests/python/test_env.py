"""sling.env: the Gymnasium-style DuelEnv and PigEnv and the PettingZoo-style AECEnv."""

import unittest

import numpy as np

import sling
from sling.env import AECEnv, DuelEnv, PigEnv


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


class EnvTest(unittest.TestCase):
    def test_pig_episode(self):
        env = PigEnv(opponent="heuristic", goal=30)
        first = play(env, 4, lambda info: int(np.flatnonzero(info["action_mask"])[0]))
        self.assertIn(first[0], (-1.0, 1.0))
        self.assertTrue(first[3]["state"].is_terminal)
        again = play(env, 4, lambda info: int(np.flatnonzero(info["action_mask"])[0]))
        self.assertEqual(first[:3], again[:3])  # the same seed, the same episode

    def test_duel_episode_and_mask(self):
        env = DuelEnv(player="goliath", opponent="random")
        rng = np.random.default_rng(1)
        obs, info = env.reset(seed=2)
        self.assertEqual(info["state"].current_player, 1)
        mask = info["action_mask"]
        self.assertEqual(mask.shape, (env.action_size,))
        self.assertEqual(sorted(np.flatnonzero(mask)), sorted(info["legal_actions"]))
        total, steps, _, _ = play(env, 2, lambda info: int(rng.choice(info["legal_actions"])))
        self.assertIn(total, (-1.0, 0.0, 1.0))
        with self.assertRaises(sling.IllegalActionError):
            env.reset(seed=3)
            env.step(env.action_size + 5)

    def test_callable_opponent(self):
        env = PigEnv(opponent=lambda state: 1, goal=20)  # always holds: the learner wins
        total, _, _, _ = play(env, 1, hold_at_5)
        self.assertEqual(total, 1.0)

    def test_aec(self):
        env = AECEnv(sling.Game("pig", {"goal": 20}))
        env.reset(seed=8)
        self.assertEqual(env.possible_agents, ["first", "second"])
        steps = 0
        while env.agents:
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            self.assertTrue(info["action_mask"].all())
            env.step(hold_at_5({"state": env.state}))
            steps += 1
            self.assertLess(steps, 10000)
        self.assertEqual(sorted(env.rewards.values()), [-1.0, 1.0])

    def test_no_danelaw_env(self):
        with self.assertRaises(ValueError):
            AECEnv(sling.Game("danelaw"))


if __name__ == "__main__":
    unittest.main()
