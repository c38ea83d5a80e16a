"""Shared pieces of the Python tests: the sling binary, a temporary cache, a small solved duel."""

import os
import subprocess
import tempfile
import unittest

import sling

SLING_BINARY = os.environ.get("SLING_BINARY", "")

# Solutions computed by these tests go to a private cache, not the user's ~/.cache/sling.
_CACHE = tempfile.TemporaryDirectory(prefix="sling-python-test-")
sling.duel.set_cache_directory(_CACHE.name)

_solutions = {}


def duel_solution(pitch=5):
    """The default duel solved at `pitch` cm (pitch 5: well under a second), once per run."""
    if pitch not in _solutions:
        _solutions[pitch] = sling.duel.solve(pitch=pitch)
    return _solutions[pitch]


def run_sling(*args, check=True):
    """Runs the `sling` binary; returns (status, stdout, stderr)."""
    if not SLING_BINARY:
        raise unittest.SkipTest("SLING_BINARY is not set (ctest sets it)")
    done = subprocess.run([SLING_BINARY, *args], capture_output=True, text=True, timeout=120)
    if check and done.returncode != 0:
        raise AssertionError(f"sling {' '.join(args)} failed: {done.stderr}")
    return done.returncode, done.stdout, done.stderr


def cli_error(*args):
    """The message of the one-line error `sling` prints for these arguments (without 'sling: ')."""
    status, _, stderr = run_sling(*args, check=False)
    assert status == 2, (status, stderr)
    line = stderr.strip()
    assert line.startswith("sling: ") and "\n" not in line, line
    return line[len("sling: "):]
