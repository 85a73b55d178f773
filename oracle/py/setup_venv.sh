#!/usr/bin/env bash
# Ensures a Python venv at $1 holding pypaimon==$PYPAIMON_VERSION (default 2.1.0) for the pypaimon oracle.
# Idempotent: returns at once when the venv already has the right version.
set -euo pipefail
VENV=${1:?usage: setup_venv.sh VENV_DIR}
PYPAIMON_VERSION=${PYPAIMON_VERSION:-2.1.0}

has_pypaimon() {
  [ -x "$VENV/bin/python" ] && "$VENV/bin/python" - "$PYPAIMON_VERSION" <<'PY' 2>/dev/null
import importlib.metadata as m, sys
import pyarrow, pypaimon  # noqa: F401  (imports must work, not only the metadata)
sys.exit(0 if m.version("pypaimon") == sys.argv[1] else 1)
PY
}

if has_pypaimon; then
  exit 0
fi
PYTHON=${PYTHON:-$(command -v python3.11 || command -v python3)}
echo "setup_venv: installing pypaimon==$PYPAIMON_VERSION into $VENV (with $PYTHON)" >&2
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "pypaimon==$PYPAIMON_VERSION"
has_pypaimon || { echo "setup_venv: pypaimon==$PYPAIMON_VERSION not importable in $VENV" >&2; exit 1; }
