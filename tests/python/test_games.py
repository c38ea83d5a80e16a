"""sling.Game and sling.State: rules, states, actions, chance, copies, JSON, errors."""

import copy
import json
import os
import pickle
import random
import tempfile
import unittest

import numpy as np

import sling
from helpers import cli_error, run_sling


class GameTest(unittest.TestCase):
    def test_games_and_sides(self):
        self.assertEqual(sling.Game("duel").sides, ("david", "goliath"))
        self.assertEqual(sling.Game("danelaw").sides, ("danes", "english"))
        self.assertEqual(sling.Game("pig").sides, ("first", "second"))

    def test_rules_from_dict_and_file(self):
        pig = sling.Game("pig", {"goal": 30})
        self.assertEqual(pig.rules["goal"], 30)
        self.assertEqual(sling.Game("pig").rules["goal"], 100)
        self.assertEqual(sling.Game("pig", rules=pig.rules), pig)
        self.assertNotEqual(sling.Game("pig"), pig)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "rules.json")
            with open(path, "w") as f:
                f.write(sling.Game("duel", {"pitch_cm": 3}).rules_json)
            duel = sling.Game("duel", path)
            self.assertEqual(duel.rules["pitch_cm"], 3)
            self.assertEqual(json.loads(duel.rules_json), duel.rules)

    def test_bad_rules_raise_the_cli_message(self):
        with self.assertRaises(sling.RulesError) as caught:
            sling.Game("pig", {"goal": 0})
        self.assertIsInstance(caught.exception, ValueError)
        self.assertNotIn("\n", str(caught.exception))
        with self.assertRaises(sling.RulesError):
            sling.Game("duel", {"no_such_rule": 1})
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "bad.json")
            with open(path, "w") as f:
                f.write('{"goal": -4}')
            with self.assertRaises(sling.RulesError) as caught:
                sling.Game("pig", path)
            self.assertEqual(str(caught.exception),
                             cli_error("match", "pig", "--rules", path, "--first", "random",
                                       "--second", "random", "--games", "1"))

    def test_unknown_game(self):
        with self.assertRaises(sling.OptionError) as caught:
            sling.Game("chess")
        self.assertIn("duel", str(caught.exception))

    def test_danelaw_map_file(self):
        _, text, _ = run_sling("map", "danelaw", "--json")
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "england.json")
            with open(path, "w") as f:
                f.write(text)
            game = sling.Game("danelaw", map=path)
            self.assertEqual(game.rules["map"], path)
            self.assertEqual(sling.Game("danelaw", {}, map=path), game)
            self.assertEqual(len(game.new_initial_state().legal_actions()),
                             len(sling.Game("danelaw").new_initial_state().legal_actions()))
            with self.assertRaises(sling.RulesError) as caught:
                sling.Game("danelaw", map=os.path.join(folder, "missing.json"))
            self.assertIn("missing.json", str(caught.exception))

    def test_pig_map_refused(self):
        with self.assertRaises(sling.OptionError):
            sling.Game("pig", map="england.json")


class StateTest(unittest.TestCase):
    def test_pig_turn(self):
        game = sling.Game("pig", {"goal": 20})
        state = game.new_initial_state()
        self.assertEqual(state.current_player, 0)
        self.assertEqual(state.legal_actions_with_text(), [(0, "roll"), (1, "hold")])
        state.apply(0)  # roll
        self.assertTrue(state.is_chance_node)
        self.assertEqual(state.current_player, sling.CHANCE)
        self.assertEqual(state.legal_actions(), [])
        outcomes = state.chance_outcomes()
        self.assertEqual([o for o, _ in outcomes], [1, 2, 3, 4, 5, 6])
        self.assertAlmostEqual(sum(p for _, p in outcomes), 1.0, places=12)
        child = state.child(5)
        self.assertEqual(state.current_player, sling.CHANCE)  # child() leaves the state alone
        self.assertEqual(child.current_player, 0)
        self.assertEqual(json.loads(child.to_json())["turn_total"], 5)
        self.assertIn("5", child.action_to_string(1) + str(child))

    def test_playouts_copy_hash_json(self):
        for name in ("duel", "danelaw", "pig"):
            game = sling.Game(name)
            rng = random.Random(4)
            state = game.new_initial_state()
            plies = 0
            while not state.is_terminal and plies < 400:
                before = state.copy()
                self.assertEqual(before, state)
                self.assertEqual(hash(before), hash(state))
                self.assertIsNot(copy.copy(state), state)
                self.assertEqual(copy.deepcopy(state), state)
                self.assertEqual(game.state_from_json(state.to_json()), state)
                self.assertEqual(game.state_from_json(json.loads(state.to_json())), state)
                if state.is_chance_node:
                    outcomes = state.chance_outcomes()
                    self.assertAlmostEqual(sum(p for _, p in outcomes), 1.0, places=9)
                    action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
                else:
                    action = rng.choice(state.legal_actions())
                    self.assertEqual(state.parse_action(state.action_to_string(action)), action)
                state.apply(action)
                self.assertEqual(before.child(action), state)
                plies += 1
            self.assertGreater(plies, 5, name)
            if state.is_terminal:
                self.assertEqual(state.current_player, sling.TERMINAL)
                r = state.returns()
                self.assertAlmostEqual(r[0] + r[1], 0.0)
                self.assertIsInstance(state.end_reason, str)

    def test_illegal_action(self):
        state = sling.Game("pig").new_initial_state()
        with self.assertRaises(sling.IllegalActionError) as caught:
            state.apply(7)
        self.assertNotIn("\n", str(caught.exception))
        self.assertEqual(state, sling.Game("pig").new_initial_state())
        duel = sling.Game("duel").new_initial_state()
        with self.assertRaises(sling.IllegalActionError):
            duel.apply(0xFFFF)
        with self.assertRaises(sling.ParseError):
            state.parse_action("fly away")

    def test_state_json_is_the_protocols_one_form(self):
        # The bare state on one line with lists, as the agent protocol sends it (docs/protocol.md);
        # the wrapped form with cereal's {"valueN"} arrays, which to_json wrote before, still reads.
        pig = sling.Game("pig")
        bare = '{"scores":[5,9],"turn_total":4,"to_move":0,"phase":0}'
        wrapped = ('{"state": {"scores": {"value0": 5, "value1": 9}, "turn_total": 4, '
                   '"to_move": 0, "phase": 0}}')
        self.assertEqual(pig.state_from_json(bare).to_json(), bare)
        self.assertEqual(pig.state_from_json(wrapped), pig.state_from_json(bare))
        self.assertEqual(pig.state_from_json({"state": json.loads(bare)}), pig.state_from_json(bare))
        for name in ("duel", "danelaw", "pig"):
            game = sling.Game(name)
            state = game.new_initial_state()
            text = state.to_json()
            self.assertNotIn("\n", text)
            self.assertNotIn("value0", text)
            self.assertNotIn("state", json.loads(text))
            self.assertEqual(game.state_from_json({"state": json.loads(text)}), state)

    def test_bad_state_json(self):
        with self.assertRaises(sling.FileFormatError):
            sling.Game("duel").state_from_json('{"state": {"david_x": "left"}}')

    def test_states_of_other_games_do_not_mix(self):
        pig = sling.Game("pig").new_initial_state()
        with self.assertRaises(TypeError):
            sling.Agent(sling.Game("duel"), "random").act(pig)
        with self.assertRaises(ValueError):
            sling.Agent(sling.Game("pig", {"goal": 10}), "random").act(pig)

    def test_observation_and_mask(self):
        duel = sling.Game("duel")
        state = duel.new_initial_state()
        obs = state.observation()
        self.assertEqual(obs.dtype, np.float32)
        self.assertEqual(obs.shape, (duel.observation_size,))
        self.assertTrue(np.all((obs >= 0) & (obs <= 1)))
        pig = sling.Game("pig").new_initial_state()
        self.assertEqual(list(pig.legal_action_mask(2)), [True, True])
        self.assertEqual(list(pig.observation()), [0, 0, 0, 0, 1, 0, 0])

    def test_roll_dice_follows_the_seed(self):
        state = sling.Game("pig").new_initial_state().child(0)
        rolls = [state.roll_dice(11, ply) for ply in range(40)]
        self.assertEqual(rolls, [state.roll_dice(11, ply) for ply in range(40)])
        self.assertEqual(set(rolls), {1, 2, 3, 4, 5, 6})
        with self.assertRaises(sling.IllegalActionError):
            sling.Game("pig").new_initial_state().roll_dice(1, 0)

    def test_pickle(self):
        for game in (sling.Game("pig", {"goal": 33}), sling.Game("duel", {"pitch_cm": 3}),
                     sling.Game("danelaw")):
            self.assertEqual(pickle.loads(pickle.dumps(game)), game)
            state = game.new_initial_state()
            outcomes = state.chance_outcomes()
            if outcomes:
                state.apply(outcomes[-1][0])
            copy_ = pickle.loads(pickle.dumps(state))
            self.assertEqual(copy_, state)
            self.assertEqual(copy_.game, game)
            self.assertEqual(copy_.legal_actions(), state.legal_actions())

    def test_evaluate(self):
        duel = sling.Game("duel")
        value = duel.evaluate(duel.new_initial_state())
        self.assertTrue(-1 <= value <= 1)


if __name__ == "__main__":
    unittest.main()
