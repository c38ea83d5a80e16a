#!/usr/bin/env python3
"""Tests of the example agents, driven over pipes by a fake Sling host (docs/protocol.md).

The host here plays Sling's side of the protocol: the handshake, games with their plies, requests
for decisions, unknown fields and message types, a second game on the same process, and quit.  A
small Pig referee plays whole games between agent programs.  ctest runs it
(examples/CMakeLists.txt):

    test_examples.py python                 the Python examples (random_agent.py, mcts_agent.py)
    test_examples.py cpp --agent PATH       the C++ example (examples/cpp/random_agent.cpp)
    test_examples.py tournament --sling PATH --agent PATH   both in `sling tournament pig`
    test_examples.py benchmark --program CMD   decisions per second of any agent program

Copy it to test your own agent: AgentProcess and play_pig work with any command.
"""

from __future__ import annotations

import argparse
import csv
import json
import queue
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path
from typing import Any, Optional

HERE = Path(__file__).resolve().parent
PYTHON_RANDOM = [sys.executable, str(HERE / "random_agent.py")]
MCTS_ITERATIONS = 200  # enough to beat random by far; about 10 ms a decision
PYTHON_MCTS = [sys.executable, str(HERE / "mcts_agent.py"), str(MCTS_ITERATIONS)]
CPP_RANDOM: list[str] = []  # set by --agent

Message = dict[str, Any]
ANSWER_TIMEOUT = 10.0  # seconds; generous for a loaded machine and the sanitizers' build
PIG_STATE_KEYS = ("scores", "turn_total", "to_move", "phase")


def expect(condition: bool, what: object = "") -> None:
    """Fails the test unless `condition` holds (unlike `assert`, also under python3 -O)."""
    if not condition:
        raise AssertionError(what if what != "" else "expectation failed")


class AgentProcess:
    """One agent program on pipes, as Sling runs it: lines of JSON in, lines of JSON out."""

    def __init__(self, command: list[str]) -> None:
        self.stderr = tempfile.TemporaryFile(mode="w+")  # the agent's log, shown when a test fails
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self.stderr, text=True, bufsize=1)
        # A reader thread turns stdout into a queue, so that a silent or hung agent is a timeout.
        self.lines: queue.Queue[Optional[str]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)  # end of output

    def send(self, message: Message | str) -> None:
        """Sends a message, or a raw line when given a string."""
        line = message if isinstance(message, str) else json.dumps(message)
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def receive(self) -> Message:
        """The agent's next line, which must be one JSON object."""
        try:
            line = self.lines.get(timeout=ANSWER_TIMEOUT)
        except queue.Empty:
            raise AssertionError(f"no answer within {ANSWER_TIMEOUT} s{self.log()}") from None
        if line is None:
            raise AssertionError(f"the agent exited ({self.process.wait()}){self.log()}")
        answer = json.loads(line)
        if not isinstance(answer, dict):
            raise AssertionError(f"not a JSON object: {line!r}")
        return answer

    def request(self, message: Message) -> Message:
        self.send(message)
        return self.receive()

    def assert_silent(self) -> None:
        """Checks that the agent wrote nothing since its last answer (allowing it a moment)."""
        try:
            line = self.lines.get(timeout=0.05)
        except queue.Empty:
            return
        raise AssertionError(f"unexpected output: {line!r}")

    def quit(self) -> int:
        """Sends quit; the program must exit within one second, as Sling waits."""
        self.send({"type": "quit"})
        return self.process.wait(timeout=1.0)

    def log(self) -> str:
        self.stderr.seek(0)
        text = self.stderr.read()
        return f"\nthe agent's stderr:\n{text}" if text else ""

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                try:
                    stream.close()
                except BrokenPipeError:
                    pass
        self.stderr.close()


# ---- Sling's messages, as docs/protocol.md writes them ----

def hello() -> Message:
    return {"type": "hello", "protocol": 1, "sling": "0.1.0"}


def pig_state(scores: tuple[int, int] = (0, 0), turn_total: int = 0, to_move: int = 0) -> Message:
    return {"scores": list(scores), "turn_total": turn_total, "to_move": to_move, "phase": 0}


def new_game(game: str = "pig", side: int = 0, seed: int = 1, rules: Optional[Message] = None,
             state: Optional[Message] = None) -> Message:
    sides = {"pig": ["first", "second"], "duel": ["david", "goliath"],
             "danelaw": ["danes", "english"]}[game]
    return {"type": "new_game", "game": game, "rules": rules or {"goal": 100}, "side": side,
            "sides": sides, "seed": seed, "time": {"move": 10.0, "game": 0.0},
            "state": state or pig_state()}


def act(state: Message, legal: list[tuple[int, str]], ply: int = 0) -> Message:
    return {"type": "act", "ply": ply, "player": state.get("to_move", 0), "time_left": 10.0,
            "state": state, "state_text": "(as the terminal shows it)",
            "legal": [{"id": action_id, "text": text} for action_id, text in legal]}


PIG_LEGAL = [(0, "roll"), (1, "hold")]


def ply(number: int, player: int, action: int, text: str) -> Message:
    return {"type": "ply", "ply": number, "player": player, "action": action, "text": text}


def game_over(winner: int, plies: int, reason: str = "reached the goal") -> Message:
    returns = [0, 0] if winner < 0 else [1 if side == winner else -1 for side in (0, 1)]
    return {"type": "game_over", "winner": winner, "returns": returns, "reason": reason,
            "plies": plies}


def play_pig(agents: list[AgentProcess], seed: int, goal: int = 100,
             max_plies: int = 20000) -> tuple[int, list[int]]:
    """Referees one game of Pig (engine/pig/pig.h) between two agent processes: the winner's side
    and the history of every ply.  The dice come from `seed`, so the game replays exactly when
    both agents are deterministic."""
    dice = random.Random(seed)
    scores, turn_total, to_move = [0, 0], 0, 0
    for side, agent in enumerate(agents):
        ready = agent.request(new_game(side=side, seed=seed * 2 + side, rules={"goal": goal}))
        expect(ready["type"] == "ready", ready)
    history: list[int] = []

    def report(player: int, action: int, text: str) -> None:
        for agent in agents:
            agent.send(ply(len(history), player, action, text))
        history.append(action)

    while len(history) < max_plies:
        state = pig_state((scores[0], scores[1]), turn_total, to_move)
        answer = agents[to_move].request(act(state, PIG_LEGAL, len(history)))
        expect(answer["type"] == "action" and answer["id"] in (0, 1), answer)
        report(to_move, answer["id"], PIG_LEGAL[answer["id"]][1])
        if answer["id"] == 1:  # hold: bank the turn total; the game ends at the goal
            scores[to_move] += turn_total
            turn_total = 0
            if scores[to_move] >= goal:
                break
            to_move ^= 1
        else:
            face = dice.randint(1, 6)
            report(-1, face, str(face))
            if face == 1:
                turn_total, to_move = 0, to_move ^ 1
            else:
                turn_total += face
    else:
        raise AssertionError(f"no winner after {max_plies} plies")
    for agent in agents:
        agent.send(game_over(to_move, len(history)))
    return to_move, history


# ---- Checks every agent program must pass ----

class ProtocolChecks:
    """The protocol, message by message.  Mixed into a TestCase that sets `command`."""

    command: list[str]

    def start(self) -> AgentProcess:
        agent = AgentProcess(self.command)
        self.addCleanup(agent.close)  # type: ignore[attr-defined]
        return agent

    def assert_legal_answer(self, answer: Message, legal_ids: set[int]) -> None:
        expect(answer["type"] == "action", answer)
        expect(isinstance(answer["id"], int) and answer["id"] in legal_ids, answer)

    def test_hello_names_protocol_1(self) -> None:
        agent = self.start()
        answer = agent.request(hello())
        expect(answer["type"] == "hello" and answer["protocol"] == 1, answer)
        expect(isinstance(answer.get("name", ""), str), answer)
        expect(agent.quit() == 0)

    def test_a_session_of_two_games(self) -> None:
        agent = self.start()
        agent.request(hello())
        for seed in (11, 12):  # a second game on the same process
            expect(agent.request(new_game(seed=seed)) == {"type": "ready"})
            agent.send(ply(0, 1, 1, "hold"))  # the other side passed: plies need no answer
            agent.assert_silent()
            state = pig_state(to_move=0)
            self.assert_legal_answer(agent.request(act(state, PIG_LEGAL, ply=1)), {0, 1})
            agent.send(ply(1, 0, 0, "roll"))
            agent.send(ply(2, -1, 1, "1"))
            agent.send(game_over(-1, 3, reason="abandoned"))
            agent.assert_silent()
        expect(agent.quit() == 0)

    def test_ignores_unknown_fields_and_message_types(self) -> None:
        agent = self.start()
        answer = agent.request({**hello(), "protocol_features": ["later"], "motd": "hi"})
        expect(answer["type"] == "hello", answer)
        agent.send({"type": "chat", "text": "a message type from a later version"})
        agent.send({"type": "ponder", "state": pig_state(), "deadline": 3})
        agent.assert_silent()
        info = {**new_game(seed=5), "opponent": {"name": "strong"}, "match": {"game": 1}}
        expect(agent.request(info)["type"] == "ready")
        request: Message = {**act(pig_state(), PIG_LEGAL), "hint": None, "clock": [1.5, 2.0]}
        request["legal"] = [{**legal, "weight": 0.5} for legal in request["legal"]]
        self.assert_legal_answer(agent.request(request), {0, 1})
        expect(agent.quit() == 0)

    def test_skips_lines_that_are_not_json_objects(self) -> None:
        agent = self.start()
        agent.request(hello())
        for line in ("", "not json", "[1, 2]", "42"):
            agent.send(line)
        agent.assert_silent()
        expect(agent.request(new_game())["type"] == "ready")
        self.assert_legal_answer(agent.request(act(pig_state(), PIG_LEGAL)), {0, 1})
        expect(agent.quit() == 0)

    def test_exits_when_stdin_closes(self) -> None:
        agent = self.start()
        agent.request(hello())
        assert agent.process.stdin is not None
        agent.process.stdin.close()
        expect(agent.process.wait(timeout=1.0) == 0)


class RandomAgentChecks(ProtocolChecks):
    """A random agent for any game: legal, uniform enough, and a pure function of the seed."""

    def decisions(self, agent: AgentProcess, seed: int, count: int = 60) -> list[int]:
        """The agent's answers to `count` requests of a duel-like game with arbitrary ids."""
        ready = agent.request(new_game("duel", seed=seed, rules={"any": "rules"}, state={}))
        expect(ready == {"type": "ready"}, ready)
        legal = [(3, "move north"), (90, "move south"), (2**32 - 2, "invoke God")]
        answers = []
        for number in range(count):
            answer = agent.request(act({"figures": []}, legal, ply=2 * number))
            self.assert_legal_answer(answer, {3, 90, 2**32 - 2})
            answers.append(answer["id"])
            agent.send(ply(2 * number, 0, answer["id"], "..."))
            agent.send(ply(2 * number + 1, 1, 3, "..."))
        agent.send(game_over(0, 2 * count))
        return answers

    def test_answers_every_legal_id_and_only_those(self) -> None:
        agent = self.start()
        agent.request(hello())
        answers = self.decisions(agent, seed=2**64 - 1)  # the largest seed
        expect(set(answers) == {3, 90, 2**32 - 2}, answers)

    def test_same_seed_same_game_on_any_process(self) -> None:
        first = self.start()
        first.request(hello())
        reference = self.decisions(first, seed=77)
        second = self.start()
        second.request(hello())
        other = self.decisions(second, seed=78)
        again = self.decisions(second, seed=77)  # after another game: new_game reseeds
        expect(again == reference)
        expect(other != reference)


class PythonRandomAgentTest(RandomAgentChecks, unittest.TestCase):
    command = PYTHON_RANDOM


class PythonClientTest(unittest.TestCase):
    """What sling_client.py does for any agent built on it."""

    def test_print_goes_to_the_log_not_to_sling(self) -> None:
        noisy = [sys.executable, "-c", (
            "import sys\n"
            f"sys.path.insert(0, {str(HERE)!r})\n"
            "from random_agent import RandomAgent\n"
            "from sling_client import run\n"
            "class Noisy(RandomAgent):\n"
            "    def act(self, request):\n"
            "        print('thinking about', request['ply'])\n"
            "        return super().act(request)\n"
            "run(Noisy())\n")]
        agent = AgentProcess(noisy)
        self.addCleanup(agent.close)
        agent.request(hello())
        agent.request(new_game())
        answer = agent.request(act(pig_state(), PIG_LEGAL, ply=4))
        expect(answer["type"] == "action" and answer["id"] in (0, 1), answer)
        agent.assert_silent()
        expect(agent.quit() == 0)
        expect("thinking about 4" in agent.log(), agent.log())

    def test_a_failing_agent_resigns_the_game_and_plays_the_next(self) -> None:
        failing = [sys.executable, "-c", (
            "import sys\n"
            f"sys.path.insert(0, {str(HERE)!r})\n"
            "from sling_client import Agent, run\n"
            "class Failing(Agent):\n"
            "    def act(self, request):\n"
            "        if request['ply'] == 0:\n"
            "            raise ValueError('a bug')\n"
            "        return request['legal'][-1]['id']\n"
            "run(Failing())\n")]
        agent = AgentProcess(failing)
        self.addCleanup(agent.close)
        agent.request(hello())
        agent.request(new_game())
        answer = agent.request(act(pig_state(), PIG_LEGAL, ply=0))
        expect(answer == {"type": "resign", "reason": "ValueError: a bug"}, answer)
        agent.request(new_game(seed=2))
        expect(agent.request(act(pig_state(), PIG_LEGAL, ply=1))["id"] == 1)
        expect(agent.quit() == 0)
        expect("Traceback" in agent.log(), agent.log())


class PythonMctsAgentTest(ProtocolChecks, unittest.TestCase):
    command = PYTHON_MCTS

    def test_reports_its_analysis(self) -> None:
        agent = self.start()
        agent.request(hello())
        agent.request(new_game(seed=3))
        answer = agent.request(act(pig_state((90, 50), 22), PIG_LEGAL))
        expect(answer["id"] == 1, answer)  # holding at 112 wins at once
        expect(answer["nodes"] == MCTS_ITERATIONS, answer)
        expect(answer["win_probability"] == 1.0, answer)
        ahead = agent.request(act(pig_state((0, 0), 60), PIG_LEGAL))  # bank 60 rather than risk it
        expect(ahead["id"] == 1 and 0.7 < ahead["win_probability"] < 1.0, ahead)
        expect([stat["id"] for stat in ahead["actions"]] == [1, 0], ahead)
        expect(sum(stat["visits"] for stat in ahead["actions"]) == MCTS_ITERATIONS, ahead)
        behind = agent.request(act(pig_state((10, 95), 0), PIG_LEGAL))
        expect(behind["win_probability"] < 0.3, behind)

    def test_reads_scores_as_a_list_or_as_sling_writes_them(self) -> None:
        agent = self.start()
        agent.request(hello())
        agent.request(new_game(seed=5))
        as_list = agent.request(act(pig_state((50, 90), 22, to_move=1), PIG_LEGAL))
        as_object = pig_state((50, 90), 22, to_move=1)
        as_object["scores"] = {"value0": 50, "value1": 90}  # cereal's form of a C++ array
        answer = agent.request(act(as_object, PIG_LEGAL))
        expect(as_list["id"] == answer["id"] == 1, (as_list, answer))  # second holds at 112: wins

    def test_plays_only_the_legal_actions_offered(self) -> None:
        agent = self.start()
        agent.request(hello())
        agent.request(new_game(seed=4))
        answer = agent.request(act(pig_state((90, 50), 22), [(0, "roll")]))
        expect(answer["id"] == 0, answer)

    def test_resigns_a_game_other_than_pig(self) -> None:
        agent = self.start()
        agent.request(hello())
        expect(agent.request(new_game("duel", state={}))["type"] == "ready")
        answer = agent.request(act({}, [(5, "move")]))
        expect(answer["type"] == "resign" and "pig" in answer["reason"], answer)
        expect(agent.request(new_game("pig"))["type"] == "ready")  # and plays the next game
        self.assert_legal_answer(agent.request(act(pig_state(), PIG_LEGAL)), {0, 1})

    def test_beats_random_clearly(self) -> None:
        mcts, rand = self.start(), AgentProcess(PYTHON_RANDOM)
        self.addCleanup(rand.close)
        for agent in (mcts, rand):
            agent.request(hello())
        games, wins = 24, 0
        for index in range(games):
            mcts_side = index % 2  # alternate the seats: the first player has an edge
            agents = [mcts, rand] if mcts_side == 0 else [rand, mcts]
            winner, _ = play_pig(agents, seed=1000 + index)
            wins += winner == mcts_side
        # Random play wins about 1 game in 20 against hold-at-20 play, and MCTS is stronger still.
        expect(wins >= 20, f"MCTS won only {wins} of {games} games against random")

    def test_replays_a_game_from_its_seed(self) -> None:
        histories = []
        for _ in range(2):
            mcts, rand = self.start(), AgentProcess(PYTHON_RANDOM)
            self.addCleanup(rand.close)
            for agent in (mcts, rand):
                agent.request(hello())
            histories.append(play_pig([mcts, rand], seed=99, goal=40))
        expect(histories[0] == histories[1])


class CppRandomAgentTest(RandomAgentChecks, unittest.TestCase):
    command = CPP_RANDOM

    def test_plays_pig_against_the_python_agent(self) -> None:
        cpp, python = self.start(), AgentProcess(PYTHON_RANDOM)
        self.addCleanup(python.close)
        for agent in (cpp, python):
            agent.request(hello())
        results = [play_pig([cpp, python], seed=seed) for seed in (1, 2, 1)]
        expect(results[0] == results[2])  # the same seed replays the same game
        expect(results[0] != results[1])
        expect(cpp.quit() == 0 and python.quit() == 0)


# ---- The examples in a real tournament, through Sling's `external:` agent spec ----

class TournamentTest(unittest.TestCase):
    """`sling tournament pig` with the example programs entered by `external:cmd=...`."""

    sling = ""  # set by --sling
    cpp_agent = ""  # set by --agent

    def tournament(self, agents: list[str], pairs: int) -> list[dict[str, str]]:
        """Plays a fresh tournament and returns its games.csv rows, checking that none failed."""
        out = Path(tempfile.mkdtemp(prefix="sling-examples-"))
        self.addCleanup(shutil.rmtree, out)
        command = [self.sling, "tournament", "pig", "--games", str(pairs), "--quiet",
                   "--out", str(out / "run")]
        for spec in agents:
            command += ["--agent", spec.replace("LOG", str(out / "agent.log"))]
        completed = subprocess.run(command, capture_output=True, text=True, timeout=240)
        expect(completed.returncode == 0, f"{command}: {completed.stderr}")
        with open(out / "run" / "games.csv", newline="") as games:
            rows = list(csv.DictReader(games))
        pairings = len(agents) * (len(agents) - 1) // 2
        expect(len(rows) == 2 * pairs * pairings, rows)
        failed = [row for row in rows if row["error"] or row["end"] == "error"]
        expect(not failed, failed)
        return rows

    def test_python_examples(self) -> None:
        python_random = f"external:cmd='{PYTHON_RANDOM[0]} {PYTHON_RANDOM[1]}',log=LOG"
        mcts = f"external:cmd='{' '.join(PYTHON_MCTS)}',log=LOG"
        rows = self.tournament([python_random, mcts, "random"], pairs=4)
        mcts_games = [row for row in rows if "mcts_agent.py" in row["first"] + row["second"]]
        mcts_wins = [row for row in mcts_games if "mcts_agent.py" in row.get(row["winner"], "")]
        expect(len(mcts_wins) >= 14, f"MCTS won {len(mcts_wins)} of {len(mcts_games)}")

    def test_cpp_example_kept_or_started_per_game(self) -> None:
        self.tournament([f"external:cmd={self.cpp_agent},log=LOG",
                         f"external:cmd={self.cpp_agent},process=game,log=LOG", "random"], pairs=5)


# ---- Throughput: decisions per second of an agent program through pipes ----

def measure_decisions_per_second(command: list[str], decisions: int) -> float:
    """Decisions per second of `command` through pipes, in Pig: each decision is an `act` followed
    by the two plies it causes, as Sling sends them; the host's messages are encoded once."""
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    to_agent, from_agent = process.stdin, process.stdout

    def exchange(message: Message) -> None:
        to_agent.write((json.dumps(message) + "\n").encode())
        to_agent.flush()
        from_agent.readline()

    exchange(hello())
    exchange(new_game(seed=1))
    request = (json.dumps(act(pig_state((12, 30), 8), PIG_LEGAL)) + "\n").encode()
    plies = "".join(json.dumps(ply(number, player, action, text)) + "\n"
                    for number, player, action, text in ((0, 0, 0, "roll"), (1, -1, 4, "4")))
    plies_line = plies.encode()
    start = time.perf_counter()
    for _ in range(decisions):
        to_agent.write(request)
        to_agent.flush()
        if not from_agent.readline():
            raise RuntimeError("the agent exited")
        to_agent.write(plies_line)
    elapsed = time.perf_counter() - start
    to_agent.write(b'{"type":"quit"}\n')
    to_agent.close()
    process.wait()
    return decisions / elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suite", choices=["python", "cpp", "tournament", "benchmark"])
    parser.add_argument("--agent", help="the C++ example program (suites cpp and tournament)")
    parser.add_argument("--sling", help="the sling program (suite tournament)")
    parser.add_argument("--decisions", type=int, default=100000, help="for the benchmark")
    parser.add_argument("--program", help="the agent's command line (suite benchmark)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    if args.suite == "benchmark":
        if not args.program:
            parser.error("suite benchmark needs --program COMMAND")
        rate = measure_decisions_per_second(shlex.split(args.program), args.decisions)
        print(f"{rate:,.0f} decisions/s: {args.program}")
        return 0
    cases: list[type[unittest.TestCase]]
    if args.suite == "python":
        cases = [PythonClientTest, PythonRandomAgentTest, PythonMctsAgentTest]
    elif args.suite == "cpp":
        if not args.agent:
            parser.error("suite cpp needs --agent PATH")
        CPP_RANDOM.append(args.agent)
        cases = [CppRandomAgentTest]
    else:
        if not (args.sling and args.agent):
            parser.error("suite tournament needs --sling PATH and --agent PATH")
        TournamentTest.sling, TournamentTest.cpp_agent = args.sling, args.agent
        cases = [TournamentTest]
    loader = unittest.TestLoader()
    suite = unittest.TestSuite(loader.loadTestsFromTestCase(case) for case in cases)
    result = unittest.TextTestRunner(verbosity=2 if args.verbose else 1).run(suite)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
