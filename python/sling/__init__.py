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


def _cannot_load(cause: str) -> ImportError:
    """One line that says which Python can import Sling (not a traceback from inside it)."""
    try:
        from . import _build_info as info
        wanted = f"Python {info.PYTHON_VERSION} ({info.PYTHON}, the one Sling was built for)"
    except ImportError:
        wanted = "the Python Sling was built for"
    here = f"{_sys.version_info.major}.{_sys.version_info.minor} ({_sys.executable})"
    return ImportError(f"sling: this Python {here} cannot import Sling: {cause}; run {wanted}, "
                       "or install Sling into this Python's environment: "
                       "pip install --no-build-isolation . (docs/python.md)")


try:
    import numpy as _numpy  # noqa: F401  (the observations, masks and tables are numpy arrays)
except ImportError:
    raise _cannot_load("it has no numpy") from None
try:
    from . import _sling as _extension  # noqa: F401
except ImportError as _error:
    raise _cannot_load(f"the extension does not load ({_error})") from None

from ._sling import (  # noqa: E402,F401  (the public API)
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
