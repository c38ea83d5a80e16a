"""A small client for the Sling agent protocol, version 1 (docs/protocol.md).

Subclass Agent, override what you need, and hand an instance to run():

    class MyAgent(Agent):
        name = "my-agent 0.1"

        def act(self, request):
            return request["legal"][0]["id"]

    if __name__ == "__main__":
        run(MyAgent())

run() reads Sling's messages from stdin, one JSON object a line, calls the agent's methods and
writes the answers to stdout, flushing each one.  It ignores message types and fields it does not
know, so an agent written for version 1 keeps working when Sling adds to the protocol.  Standard
library only: copy this file next to your agent.

Diagnostics go to stderr, which Sling appends to the agent's log file.  While run() runs, a plain
print() goes there too: stdout carries the answers only, and a stray print cannot break them.
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any, Optional, TextIO, Union

PROTOCOL_VERSION = 1

Message = dict[str, Any]
# What Agent.act returns: an action id, or an id with the optional analysis fields of the
# `action` answer (win_probability, nodes, actions, exact).
ActResult = Union[int, tuple[int, Message]]


class Resign(Exception):
    """Raised by Agent.act to give up the game: the answer is `resign` with this reason."""


class Agent:
    """One agent program's behaviour.  Every method has a default; override the ones you need."""

    #: Sent in the `hello` answer; Sling shows it in reports unless the spec sets `name=`.
    name: str = "python-agent"

    def new_game(self, info: Message) -> None:
        """A game starts: info holds game, rules, side, sides, seed, time and the initial state.

        Draw every random number of the game from info["seed"]: the agent then plays the same
        game again for the same seed, and Sling's results are reproducible.
        """

    def observe(self, ply: Message) -> None:
        """A ply was played (by either side, or the dice when ply["player"] is -1)."""

    def act(self, request: Message) -> ActResult:
        """Chooses one id of request["legal"]; request also holds the state and time_left."""
        raise NotImplementedError("an agent must choose its actions: override act()")

    def game_over(self, result: Message) -> None:
        """The game ended: result holds winner (-1 for a draw), returns, reason and plies."""


def _send(out: TextIO, message: Message) -> None:
    # Compact and on one line: json.dumps escapes any newline inside strings.
    out.write(json.dumps(message, separators=(",", ":")) + "\n")
    out.flush()


def _answer_act(agent: Agent, request: Message) -> Message:
    """The `action` answer to an `act` request, or a `resign` when the agent raised."""
    try:
        result = agent.act(request)
    except Resign as resignation:
        return {"type": "resign", "reason": str(resignation)}
    except Exception as error:  # the agent's bug: log it, and lose this game, not the process
        traceback.print_exc(file=sys.stderr)
        return {"type": "resign", "reason": f"{type(error).__name__}: {error}"}
    action_id, analysis = result if isinstance(result, tuple) else (result, {})
    return {"type": "action", "id": int(action_id), **analysis}


def run(agent: Agent, stdin: Optional[TextIO] = None, stdout: Optional[TextIO] = None) -> None:
    """Serves `agent` over the protocol until Sling sends `quit` or closes stdin (by default the
    process's stdin and stdout).  Meanwhile sys.stdout is stderr, so print() writes to the log."""
    answers = stdout or sys.stdout
    saved_stdout, sys.stdout = sys.stdout, sys.stderr
    try:
        _serve(agent, stdin or sys.stdin, answers)
    finally:
        sys.stdout = saved_stdout


def _serve(agent: Agent, stdin: TextIO, stdout: TextIO) -> None:
    while True:
        line = stdin.readline()
        if not line:  # end of input: Sling is gone
            return
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError as error:
            print(f"sling_client: ignoring a line that is not JSON ({error})", file=sys.stderr)
            continue
        if not isinstance(message, dict):
            print("sling_client: ignoring a line that is not a JSON object", file=sys.stderr)
            continue

        kind = message.get("type")
        if kind == "hello":
            _send(stdout, {"type": "hello", "protocol": PROTOCOL_VERSION, "name": agent.name})
        elif kind == "new_game":
            agent.new_game(message)
            _send(stdout, {"type": "ready"})
        elif kind == "ply":
            agent.observe(message)
        elif kind == "act":
            _send(stdout, _answer_act(agent, message))
        elif kind == "game_over":
            agent.game_over(message)
        elif kind == "quit":
            return
        # Any other type is from a later protocol version and needs no answer: ignore it.
