package bench

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

// findPython returns a Python with pypaimon and pyarrow, looked up like internal/oracle does: $LAKELOAD_PY,
// else <repo>/.venv, $LAKELOAD_CACHE/venv (default ~/.cache/lakeload/venv), ~/.cache/lakeload-venv.
var findPython = sync.OnceValues(func() (string, error) {
	py := os.Getenv("LAKELOAD_PY")
	if py == "" {
		home, _ := os.UserHomeDir()
		cache := os.Getenv("LAKELOAD_CACHE")
		if cache == "" {
			cache = filepath.Join(home, ".cache", "lakeload")
		}
		for _, c := range []string{
			filepath.Join("..", ".venv", "bin", "python"),
			filepath.Join(cache, "venv", "bin", "python"),
			filepath.Join(home, ".cache", "lakeload-venv", "bin", "python"),
		} {
			if _, err := os.Stat(c); err == nil {
				py = c
				break
			}
		}
		if py == "" {
			return "", errors.New("no python found (LAKELOAD_PY, .venv, $LAKELOAD_CACHE/venv, ~/.cache/lakeload-venv)")
		}
	}
	if out, err := exec.Command(py, "-c", "import pypaimon, pyarrow.parquet").CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s cannot import pypaimon: %v: %s", py, err, bytes.TrimSpace(out))
	}
	return py, nil
})
