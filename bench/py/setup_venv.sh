#!/usr/bin/env bash
# Creates (or reuses) the bench peers' Python venv: Ray Data + pypaimon, separate from the oracle venv so Ray's
# dependency pins never touch the test oracle. Usage: bench/py/setup_venv.sh [VENV_DIR]
# (default $LAKELOAD_CACHE/bench-venv, LAKELOAD_CACHE defaulting to ~/.cache/lakeload). Idempotent: a venv that
# already imports ray.data and pypaimon at the pinned versions is left alone.
set -euo pipefail
RAY_SPEC=${RAY_SPEC:-"ray[data]==2.60.*"}
PYPAIMON_SPEC=${PYPAIMON_SPEC:-"pypaimon==2.1.0"}
venv=${1:-${LAKELOAD_CACHE:-$HOME/.cache/lakeload}/bench-venv}
check='import ray, ray.data, pypaimon, pyarrow, aiohttp, importlib.metadata as m
assert ray.__version__.startswith("2.60"), ray.__version__
assert m.version("pypaimon") == "2.1.0", m.version("pypaimon")'
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "$check" 2>/dev/null; then
  exit 0
fi
py=${PYTHON:-python3}
"$py" -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
# aiohttp: ray.data.read_parquet imports fsspec's HTTP filesystem, which needs it
"$venv/bin/python" -m pip install -q "$RAY_SPEC" "$PYPAIMON_SPEC" aiohttp
"$venv/bin/python" -c "$check"
echo "bench venv ready: $venv ($("$venv/bin/python" -c 'import ray; print("ray", ray.__version__)'))"
