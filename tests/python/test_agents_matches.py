"""sling.Agent, play_game, play_match (specs and callables) and run_tournament, with the CLI's
results for the same seeds."""

import json
import os
import tempfile
import unittest

import sling
from helpers import cli_error, run_sling


def without_time(result):
    result = dict(result)
    result.pop("seconds", None)
    result.pop("first_error", None)
    return result


class AgentTest(unittest.TestCase):
    def test_act_and_analysis(self):
        game = sling.Game("pig", {"goal": 30})
        state = game.new_initial_state()
        agent = sling.Agent(game, "mcts:iterations=300", seed=3)
        self.assertTrue(agent.spec.startswith("mcts:"))
        action = agent.act(state)
        self.assertIn(action, state.legal_actions())
        analysis = agent.analysis()
        self.assertEqual(analysis["actions"][0]["action"], action)
        self.assertGreater(analysis["nodes"], 0)
        self.assertEqual({a["text"] for a in analysis["actions"]}, {"roll", "hold"})
        hints = agent.hints(state)
        self.assertEqual(len(hints), 2)
        self.assertGreaterEqual(hints[0]["value"], hints[1]["value"])
        agent.new_game(3)
        self.assertEqual(agent.act(state), sling.Agent(game, "mcts:iterations=300", seed=3).act(state))

    def test_presets_and_catalogue(self):
        game = sling.Game("pig")
        self.assertEqual(sling.presets(game)["strong"], "solver")
        names = [a["name"] for a in sling.agents(game)]
        self.assertIn("mcts", names)
        solver = sling.Agent(game, "strong")
        state = game.new_initial_state()
        self.assertEqual(solver.act(state), sling.pig.solve(100).best_action(state))
        self.assertTrue(solver.analysis()["exact"])

    def test_a_move_compared_with_nothing_has_no_value(self):
        # Danelaw's planner places its armies by the rule of thumb: no value, not an even 0.0.
        game = sling.Game("danelaw")
        state = game.new_initial_state()
        agent = sling.Agent(game, "planner:plans=2,samples=1,battle=0", seed=1)
        agent.act(state)
        analysis = agent.analysis()
        self.assertIsNone(analysis["value"])
        self.assertEqual(analysis["actions"], [])
        self.assertEqual(analysis["nodes"], 0)

    def test_bad_spec_raises_the_cli_message(self):
        game = sling.Game("pig")
        for spec in ("mcts:iterations=abc", "nonsense", "mcts:nope=1"):
            with self.assertRaises(sling.OptionError) as caught:
                sling.Agent(game, spec)
            self.assertEqual(str(caught.exception),
                             cli_error("match", "pig", "--first", spec, "--second", "random",
                                       "--games", "1"))

    def test_act_needs_a_decision(self):
        game = sling.Game("pig")
        with self.assertRaises(sling.IllegalActionError):
            sling.Agent(game, "random").act(game.new_initial_state().child(0))


class MatchTest(unittest.TestCase):
    def test_match_equals_the_cli(self):
        for game_name, sides, agents, games in (
                ("pig", ("--first", "--second"), ("heuristic", "mcts:iterations=100"), 30),
                ("duel", ("--david", "--goliath"), ("heuristic", "random"), 6)):
            game = sling.Game(game_name)
            with tempfile.TemporaryDirectory() as folder:
                out = os.path.join(folder, "match.json")
                run_sling("match", game_name, sides[0], agents[0], sides[1], agents[1], "--games",
                          str(games), "--seed", "77", "--threads", "2", "--json", out,
                          "--record", os.path.join(folder, "cli"))
                with open(out) as f:
                    cli = json.load(f)
                python = sling.play_match(game, agents, games=games, seed=77, threads=2,
                                          records=os.path.join(folder, "py"))
                self.assertEqual(without_time(python), without_time(cli))
                for name in sorted(os.listdir(os.path.join(folder, "cli"))):
                    with open(os.path.join(folder, "cli", name)) as a, \
                            open(os.path.join(folder, "py", name)) as b:
                        self.assertEqual(json.load(a), json.load(b), name)
            # Any thread count gives the same result.
            one = sling.play_match(game, agents, games=games, seed=77, threads=1)
            self.assertEqual(without_time(one), without_time(python))

    def test_callable_agent_plays_like_the_same_agent(self):
        game = sling.Game("pig", {"goal": 40})
        heuristic = sling.Agent(game, "heuristic")
        calls = []

        def mine(state):
            calls.append(state.current_player)
            return heuristic.act(state)

        by_spec = sling.play_match(game, ["random", "heuristic"], games=20, seed=5)
        by_callable = sling.play_match(game, ["random", mine], games=20, seed=5)
        self.assertEqual(by_callable["agents"]["second"], "python:mine")
        self.assertEqual(by_callable["wins"], by_spec["wins"])
        self.assertEqual(by_callable["mean_plies"], by_spec["mean_plies"])
        self.assertTrue(calls and set(calls) == {1})

    def test_callable_errors(self):
        game = sling.Game("pig")

        def broken(state):
            raise KeyError("no idea")

        with self.assertRaises(KeyError):
            sling.play_match(game, [broken, "random"], games=3)
        # An illegal action is the agent's error: it loses the game, as on the command line.
        result = sling.play_match(game, [lambda s: 9, "random"], games=2)
        self.assertEqual(result["errors"]["first"], 2)
        self.assertEqual(result["wins"]["second"], 2)
        with self.assertRaises(TypeError):
            sling.play_match(game, [3, "random"], games=1)
        with self.assertRaises(sling.OptionError):
            sling.play_match(game, ["random", "random"], games=0)

    def test_play_game(self):
        game = sling.Game("pig", {"goal": 25})
        result = sling.play_game(game, ["heuristic", "random"], seed=9)
        self.assertEqual(result, {**sling.play_game(game, ["heuristic", "random"], seed=9),
                                  "seconds": result["seconds"]})
        state = game.new_initial_state()
        for action in result["history"]:
            state.apply(action)
        self.assertTrue(state.is_terminal)
        self.assertEqual(result["plies"], len(result["history"]))
        self.assertEqual(result["winner"], 0 if state.returns()[0] > 0 else 1)
        self.assertEqual(json.loads(result["record"])["history"], result["history"])


class TournamentTest(unittest.TestCase):
    def test_tournament(self):
        game = sling.Game("pig", {"goal": 30})
        with tempfile.TemporaryDirectory() as folder:
            report = sling.run_tournament(game, ["random", "heuristic"], pairs=6, seed=2,
                                          threads=2, out=folder)
            for name in ("config.json", "games.csv", "ratings.json"):
                self.assertTrue(os.path.exists(os.path.join(folder, name)), name)
            with open(os.path.join(folder, "ratings.json")) as f:
                on_disk = json.load(f)
        report.pop("log")
        self.assertEqual(report, on_disk)
        again = sling.run_tournament(game, ["random", "heuristic"], pairs=6, seed=2, threads=1)
        again.pop("log")
        self.assertEqual(again, report)
        with self.assertRaises(sling.OptionError):
            sling.run_tournament(game, ["random", "bogus"], pairs=1)


if __name__ == "__main__":
    unittest.main()
