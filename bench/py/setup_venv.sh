#!/usr/bin/env bash
# Creates (or reuses) the bench peers' Python venv: Ray Data + pypaimon, and pypaimon-rust (pypaimon's optional
# Rust writer, peer "pypaimon-rust"), separate from the oracle venv so these pins never touch the test oracle.
# Usage: bench/py/setup_venv.sh [VENV_DIR] (default $LAKELOAD_CACHE/bench-venv, LAKELOAD_CACHE defaulting to
# ~/.cache/lakeload). Idempotent: a venv that already imports ray.data, pypaimon and pypaimon_rust at the pinned
# versions is left alone; one that lacks only pypaimon-rust gets just that.
set -euo pipefail
RAY_SPEC=${RAY_SPEC:-"ray[data]==2.60.*"}
PYPAIMON_SPEC=${PYPAIMON_SPEC:-"pypaimon==2.1.0"}
PYPAIMON_RUST_SPEC=${PYPAIMON_RUST_SPEC:-"pypaimon-rust==0.4.0"}
venv=${1:-${LAKELOAD_CACHE:-$HOME/.cache/lakeload}/bench-venv}
check_ray='import ray, ray.data, pypaimon, pyarrow, aiohttp, importlib.metadata as m
assert ray.__version__.startswith("2.60"), ray.__version__
assert m.version("pypaimon") == "2.1.0", m.version("pypaimon")'
check_rust='import pypaimon_rust.datafusion, importlib.metadata as m
assert m.version("pypaimon-rust") == "0.4.0", m.version("pypaimon-rust")'
ok() { [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "$1" 2>/dev/null; }
if ok "$check_ray" && ok "$check_rust"; then
  exit 0
fi
if ! ok "$check_ray"; then
  py=${PYTHON:-python3}
  "$py" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip
  # aiohttp: ray.data.read_parquet imports fsspec's HTTP filesystem, which needs it
  "$venv/bin/python" -m pip install -q "$RAY_SPEC" "$PYPAIMON_SPEC" aiohttp
fi
# pypaimon-rust has no dependencies of its own (an abi3 wheel with the Rust library); pypaimon uses it only for
# tables with write.native.enabled=true (bench/py/pypaimon_write.py, BENCH_WRITER=rust).
"$venv/bin/python" -m pip install -q "$PYPAIMON_RUST_SPEC"
"$venv/bin/python" -c "$check_ray"
"$venv/bin/python" -c "$check_rust"
echo "bench venv ready: $venv ($("$venv/bin/python" -c 'import ray, importlib.metadata as m; print("ray", ray.__version__, "pypaimon-rust", m.version("pypaimon-rust"))'))"
