package bench

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/lakeload/lakeload/internal/oracle"
)

// findPython returns a Python with pypaimon and pyarrow, looked up as internal/oracle does (oracle.Python,
// the repository root being the parent of the bench directory).
var findPython = sync.OnceValues(func() (string, error) {
	py, err := oracle.Python("..")
	if err != nil {
		return "", err
	}
	if out, err := exec.Command(py, "-c", "import pypaimon, pyarrow.parquet").CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s cannot import pypaimon: %v: %s", py, err, bytes.TrimSpace(out))
	}
	return py, nil
})

// DefaultBenchPython is the bench peers' venv Python (bench/py/setup_venv.sh, `make bench-peers`):
// $LAKELOAD_CACHE/bench-venv/bin/python.
func DefaultBenchPython() string { return filepath.Join(cacheDir(), "bench-venv", "bin", "python") }

// rustVersion returns the pypaimon-rust version py imports, or an error naming the install step: the
// pypaimon-rust peer and the parquet-rs ceiling need pypaimon_rust.datafusion (pypaimon's Rust writer
// imports that module and silently uses Python without it).
func rustVersion(ctx context.Context, py string) (string, error) {
	out, err := exec.CommandContext(ctx, py, "-c",
		"import pypaimon, pypaimon_rust.datafusion, importlib.metadata as m; print(m.version('pypaimon-rust'))").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s cannot import pypaimon and pypaimon_rust.datafusion: %v: %s (run make bench-peers, or bench/py/setup_venv.sh)",
			py, err, tail(string(out), 300))
	}
	return string(bytes.TrimSpace(out)), nil
}
