"""Python agents in matches and tournaments: the command line's games, files and ratings for an
agent that plays the same moves; and the one-line error of a Python that cannot import Sling."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import sling


class Delegate:
    """A Python agent that plays what a C++ agent plays (an object with act, new_game, name)."""

    def __init__(self, game, spec, name):
        self.agent = sling.Agent(game, spec)
        self.name = name
        self.seeds = set()

    @property
    def games(self):
        return len(self.seeds)  # each game's seed once, however often it is announced

    def new_game(self, seed):
        self.seeds.add(seed)
        self.agent.new_game(seed)

    def act(self, state):
        return self.agent.act(state)


def read(folder, name):
    with open(os.path.join(folder, name)) as f:
        return f.read()


class PythonAgentTournamentTest(unittest.TestCase):
    def test_files_and_ratings_are_the_clis_for_the_same_moves(self):
        game = sling.Game("pig", {"goal": 40})
        with tempfile.TemporaryDirectory() as folder:
            by_spec, by_python = os.path.join(folder, "spec"), os.path.join(folder, "python")
            specs = ["hold:25", "heuristic", "random"]
            sling.run_tournament(game, specs, pairs=8, seed=4, threads=2, out=by_spec)
            delegate = Delegate(game, "hold:25", "hold25")
            report = sling.run_tournament(game, [delegate, "heuristic", "random"], pairs=8,
                                          seed=4, threads=2, out=by_python)
            self.assertEqual(delegate.games, 2 * 2 * 8)  # two pairings, both sides, 8 pairs
            rename = lambda text: text.replace("python:hold25", "hold:25")  # noqa: E731
            for name in ("games.csv", "records.jsonl", "ratings.json", "luck.csv"):
                self.assertEqual(rename(read(by_python, name)), read(by_spec, name), name)
            self.assertIn("python:hold25", json.dumps(report))
            # Resuming a finished tournament with the same Python agent plays nothing again.
            again = sling.run_tournament(game, [delegate, "heuristic", "random"], pairs=8,
                                         seed=4, out=by_python, resume=True)
            self.assertEqual(delegate.games, 2 * 2 * 8)
            again.pop("log"), report.pop("log")
            self.assertEqual(again, report)

    def test_a_callable_and_its_exception(self):
        game = sling.Game("pig", {"goal": 20})

        def hold_at_10(state):
            return 1 if json.loads(state.to_json())["turn_total"] >= 10 else 0

        report = sling.run_tournament(game, [hold_at_10, "random"], pairs=5, seed=1)
        self.assertIn("python:hold_at_10", json.dumps(report))

        def broken(state):
            raise KeyError("no idea")

        with self.assertRaises(KeyError):
            sling.run_tournament(game, [broken, "random"], pairs=3, seed=1)
        with self.assertRaises(ValueError):  # two objects, one name
            sling.run_tournament(game, [Delegate(game, "random", "x"),
                                        Delegate(game, "random", "x")], pairs=1)
        with self.assertRaises(TypeError):
            sling.run_tournament(game, ["random", 3], pairs=1)

    def test_an_exception_stops_the_tournament_and_resume_plays_on(self):
        game = sling.Game("pig", {"goal": 30})

        class FlakyHold(Delegate):
            def __init__(self, fail_after):
                super().__init__(game, "hold:15", "hold15")
                self.fail_after = fail_after

            def act(self, state):
                if self.fail_after is not None and len(self.seeds) > self.fail_after:
                    raise RuntimeError("a bug in game " + str(len(self.seeds)))
                return super().act(state)

        with tempfile.TemporaryDirectory() as folder:
            whole, stopped = os.path.join(folder, "whole"), os.path.join(folder, "stopped")
            sling.run_tournament(game, [FlakyHold(None), "random"], pairs=6, seed=8, out=whole)
            with self.assertRaises(RuntimeError):
                sling.run_tournament(game, [FlakyHold(5), "random"], pairs=6, seed=8,
                                     out=stopped)
            saved = read(stopped, "games.csv").strip().splitlines()
            self.assertEqual(len(saved) - 1, 5)  # the five games before the bug, not its game
            self.assertNotIn("raised", read(stopped, "games.csv"))
            sling.run_tournament(game, [FlakyHold(None), "random"], pairs=6, seed=8,
                                 out=stopped, resume=True)
            for name in ("games.csv", "records.jsonl", "ratings.json"):
                self.assertEqual(read(stopped, name), read(whole, name), name)

    def test_match_records_name_the_players(self):
        game = sling.Game("pig", {"goal": 20})
        with tempfile.TemporaryDirectory() as folder:
            sling.play_match(game, [Delegate(game, "heuristic", "mine"), "random"], games=3,
                             seed=2, records=folder)
            record = json.loads(read(folder, "game-000000.json"))
            self.assertEqual(record["agents"], ["python:mine", "random"])


class ImportMessageTest(unittest.TestCase):
    """A Python that cannot import Sling is told, in one line, which Python can."""

    def import_error(self, blocked):
        code = f"import sys; sys.modules[{blocked!r}] = None; import sling"
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": os.path.dirname(
                                  os.path.dirname(sling.__file__))}, timeout=60)
        self.assertNotEqual(done.returncode, 0)
        last = done.stderr.strip().splitlines()[-1]
        self.assertTrue(last.startswith("ImportError: sling: this Python"), done.stderr)
        self.assertIn("the one Sling was built for", last)
        self.assertIn("pip install --no-build-isolation .", last)
        # The package's own frames stop at its __init__: nothing from deep inside it.
        self.assertLessEqual(done.stderr.count("File "), 2, done.stderr)
        return last

    def test_without_numpy(self):
        self.assertIn("it has no numpy", self.import_error("numpy"))

    def test_without_the_extension(self):
        self.assertIn("the extension does not load", self.import_error("sling._sling"))


if __name__ == "__main__":
    unittest.main()
