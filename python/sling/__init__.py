"""Sling from Python: the duel, danelaw and Pig, their agents, matches, tournaments and exact solvers.

The classes and functions are those of the C++ extension ``sling._sling``; ``sling.env`` adds
Gymnasium-style environments on top.  See docs/python.md.

    >>> import sling
    >>> game = sling.Game("pig")
    >>> state = game.new_initial_state()
    >>> state.legal_actions_with_text()
    [(0, 'roll'), (1, 'hold')]
"""

import sys as _sys

from ._sling import (  # noqa: F401  (the public API)
    CHANCE,
    TERMINAL,
    Agent,
    FileFormatError,
    Game,
    IllegalActionError,
    OptionError,
    ParseError,
    RulesError,
    SlingError,
    State,
    __version__,
    agents,
    danelaw,
    duel,
    pig,
    play_game,
    play_match,
    presets,
    random_playouts,
    run_tournament,
)

# `import sling.pig` and `from sling.duel import solve` work like the attributes.
_sys.modules[__name__ + ".pig"] = pig
_sys.modules[__name__ + ".duel"] = duel
_sys.modules[__name__ + ".danelaw"] = danelaw

from . import env  # noqa: E402,F401

__all__ = [
    "CHANCE", "TERMINAL", "Agent", "FileFormatError", "Game", "IllegalActionError", "OptionError",
    "ParseError", "RulesError", "SlingError", "State", "agents", "danelaw", "duel", "env", "pig",
    "play_game", "play_match", "presets", "random_playouts", "run_tournament",
]
