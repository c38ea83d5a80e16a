#!/usr/bin/env bash
# PythonInstall: `pip install --no-build-isolation .` into a fresh virtual environment (with the
# system's packages, as docs/python.md shows), then the installed package is imported from outside
# the clone and plays a match.  Usage: install_test.sh SOURCE_DIR WORK_DIR
set -euo pipefail
source_dir="$1"
work="$2"
rm -rf "$work/venv"
mkdir -p "$work"
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
# --no-index: nothing may come from a package index; numpy is the system's.
SLING_PIP_BUILD_DIR="$work/pip-build" "$work/venv/bin/pip" install --quiet --no-index \
  --no-build-isolation "$source_dir"
cd "$work"
"$work/venv/bin/python" - <<'PY'
import os
import sys

import sling

installed = os.path.realpath(sling.__file__)
venv = os.path.realpath(os.path.join(sys.prefix, "lib"))
assert installed.startswith(venv), f"sling imported from {installed}, not from the environment"
assert os.path.exists(os.path.join(os.path.dirname(installed), "__init__.pyi")), "no stubs"
assert os.path.exists(os.path.join(os.path.dirname(installed), "py.typed")), "no py.typed"
result = sling.play_match(sling.Game("pig"), ["heuristic", "random"], games=20, seed=3)
assert sum(result["wins"].values()) + result["draws"] == 20, result
print("sling", sling.__version__, "installed in", sys.prefix, "and plays")
PY
"$work/venv/bin/pip" uninstall --quiet --yes sling
