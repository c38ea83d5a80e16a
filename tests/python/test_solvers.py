"""sling.pig and sling.duel: exact values, action values, tables as numpy arrays, solution files."""

import math
import os
import tempfile
import unittest

import numpy as np

import sling
from helpers import duel_solution, run_sling


class PigSolverTest(unittest.TestCase):
    def test_goal_100_matches_the_cli(self):
        solution = sling.pig.solve(100)
        _, out, _ = run_sling("solve", "pig", "--json")
        import json
        self.assertAlmostEqual(solution.first_player_win_probability,
                               json.loads(out)["first_player_win_probability"], places=11)

    def test_tables(self):
        solution = sling.pig.solve(goal=20)
        values, policy = solution.values(), solution.policy()
        self.assertEqual(values.shape, (20, 20, 20))
        self.assertEqual(policy.dtype, np.uint8)
        self.assertAlmostEqual(values[0, 0, 0], solution.first_player_win_probability)
        self.assertEqual(values[3, 7, 5], solution.win_probability(3, 7, 5))
        self.assertEqual(values[19, 0, 1], 1.0)  # holding wins
        self.assertEqual(policy[0, 0, 0], 1)  # always roll at turn total 0
        self.assertEqual(policy[10, 0, 10], 0)  # hold to win
        # Bellman: the value is the better of rolling and holding.
        game = solution.game
        state = game.state_from_json('{"state": {"scores": [5, 9], "turn_total": 4, '
                                     '"to_move": 0, "phase": 0}}')
        roll, hold = solution.action_values(state)
        self.assertEqual((roll[0], hold[0]), (0, 1))
        self.assertAlmostEqual(solution.value(state), max(roll[1], hold[1]), places=12)
        self.assertAlmostEqual(solution.value(state), values[5, 9, 4], places=12)
        self.assertEqual(solution.best_action(state), 0 if roll[1] > hold[1] else 1)
        with self.assertRaises(ValueError):
            solution.value(sling.Game("pig").new_initial_state())  # goal 100, not 20

    def test_save_and_load(self):
        solution = sling.pig.solve(15)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "pig.bin")
            solution.save(path)
            loaded = sling.pig.load_solution(path)
            self.assertTrue(np.array_equal(loaded.values(), solution.values()))
            with open(path, "r+b") as f:
                f.truncate(os.path.getsize(path) // 2)
            with self.assertRaises(sling.FileFormatError):
                sling.pig.load_solution(path)


class DuelSolverTest(unittest.TestCase):
    def setUp(self):
        self.solution = duel_solution(5)
        self.game = self.solution.game

    def test_summary(self):
        s = self.solution.summary
        self.assertTrue(self.solution.certified)
        self.assertEqual(self.solution.pitch_cm, 5)
        self.assertLessEqual(s["lower_bound"], s["david_win_probability"] + 1e-9)
        self.assertLessEqual(s["david_win_probability"], s["upper_bound"] + 1e-9)
        self.assertAlmostEqual(self.solution.value(self.game.new_initial_state()),
                               s["david_win_probability"], places=12)

    def test_values_and_action_values(self):
        xs, ys = sling.duel.lattice(self.game, "david")
        state = sling.duel.declare_state(self.game, (0, 0), (len(xs) // 2, len(ys) // 2))
        values = self.solution.action_values(state)
        self.assertEqual([a for a, _ in values], state.legal_actions())
        best = max(p for _, p in values)
        self.assertAlmostEqual(self.solution.value(state), best, places=12)
        self.assertEqual(dict(values)[self.solution.best_action(state)], best)
        # The solver agent plays the same.
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "duel5.sol")
            self.solution.save(path)
            agent = sling.Agent(self.game, f"solver:file={path}")
            self.assertEqual(agent.act(state), self.solution.best_action(state))

    def test_table_and_slice(self):
        table = self.solution.table
        gw = len(sling.duel.lattice(self.game, "goliath")[0])
        dw, dh = (len(a) for a in sling.duel.lattice(self.game, "david"))
        self.assertEqual(table.shape[2:], (len(sling.duel.lattice(self.game, "goliath")[1]), gw,
                                           dh, dw))
        self.assertFalse(table.flags.writeable)
        self.assertFalse(table.flags.owndata)  # a view of the solution's values, not a copy
        centre = (gw // 2, gw // 2)
        piece = self.solution.value_slice(centre)
        self.assertEqual(piece.shape, (dh, dw))
        self.assertTrue(np.isnan(piece).any())  # where the bases overlap
        layer, slot = 3 + 2, 2  # God, shield and javelin; David to declare with his stone
        view = table[layer, slot, centre[1], centre[0]]
        ok = ~np.isnan(piece)
        self.assertTrue(np.array_equal(piece[ok], view[ok]))
        y, x = np.argwhere(ok)[0]
        state = sling.duel.declare_state(self.game, (int(x), int(y)), centre)
        # value() runs the turn's expectimax on the stored values: equal up to the solve's
        # tolerance.
        self.assertAlmostEqual(self.solution.value(state), piece[y, x], places=8)
        no_god = self.solution.value_slice(centre, god=False, stone=False)
        self.assertTrue(np.nanmean(no_god) < np.nanmean(piece))
        with self.assertRaises(ValueError):
            self.solution.value_slice(centre, shield=False, javelin=True)
        with self.assertRaises(ValueError):
            self.solution.value_slice((99, 0))
        del self.solution  # the view keeps the values alive
        self.assertEqual(float(view[y, x]), piece[y, x])

    def test_load_and_corrupt_files(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "duel5.sol")
            self.solution.save(path)
            loaded = sling.duel.load_solution(path, self.game)
            self.assertTrue(np.array_equal(loaded.table, self.solution.table, equal_nan=True))
            with self.assertRaises(sling.RulesError):
                sling.duel.load_solution(path, sling.Game("duel", {"pitch_cm": 4}))
            with open(path, "r+b") as f:
                f.seek(os.path.getsize(path) // 2)
                f.write(b"\x00\x01garbage\xff")
            with self.assertRaises(sling.FileFormatError) as caught:
                sling.duel.load_solution(path)
            self.assertNotIn("\n", str(caught.exception))
            with self.assertRaises(sling.FileFormatError):
                sling.duel.load_solution(os.path.join(folder, "missing.sol"))

    def test_refined_value_function(self):
        # Refined values are a sub-solution on the game's lattice: never above the exact value.
        game = sling.Game("duel", {"pitch_cm": 4})
        refined = sling.duel.ValueFunction(game, pitch=5, refine=2)
        self.assertTrue(refined.refined)
        self.assertFalse(refined.exact)
        exact = duel_solution(4)
        gw = len(sling.duel.lattice(game, "goliath")[0])
        checked = 0
        for x in range(len(sling.duel.lattice(game, "david")[0])):
            try:
                state = sling.duel.declare_state(game, (x, 0), (gw // 2, 3))
            except ValueError:
                continue
            p = refined.win_probability(state)
            self.assertTrue(0 <= p <= exact.value(state) + 1e-9, (x, p))
            checked += 1
        self.assertGreater(checked, 3)

    def test_value_function(self):
        value = sling.duel.ValueFunction(self.game, pitch=5)
        self.assertTrue(value.exact)
        self.assertEqual(value.source_pitch_cm, 5)
        state = sling.duel.declare_state(self.game, (0, 0), (2, 2))
        self.assertAlmostEqual(value.win_probability(state), self.solution.value(state), places=9)
        self.assertEqual([a for a, _ in value.action_values(state)], state.legal_actions())
        with self.assertRaises(TypeError):
            sling.duel.ValueFunction(sling.Game("pig"))


if __name__ == "__main__":
    unittest.main()
