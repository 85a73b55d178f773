package oracle

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// cacheDir returns lakeload's cache directory: $LAKELOAD_CACHE, default ~/.cache/lakeload.
func cacheDir() string {
	if c := os.Getenv("LAKELOAD_CACHE"); c != "" {
		return c
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "lakeload")
}

// Python returns the Python interpreter meant to have pypaimon: $LAKELOAD_PY (a path, or a name
// found on PATH), else the first existing of <root>/.venv/bin/python, $LAKELOAD_CACHE/venv/bin/python
// (default ~/.cache/lakeload) and ~/.cache/lakeload-venv/bin/python, where root is the repository root. It does
// not check that pypaimon imports.
func Python(root string) (string, error) {
	if py := os.Getenv("LAKELOAD_PY"); py != "" {
		if _, err := exec.LookPath(py); err != nil {
			return "", fmt.Errorf("LAKELOAD_PY=%s: %v", py, err)
		}
		return py, nil
	}
	home, _ := os.UserHomeDir()
	for _, c := range []string{
		filepath.Join(root, ".venv", "bin", "python"),
		filepath.Join(cacheDir(), "venv", "bin", "python"),
		filepath.Join(home, ".cache", "lakeload-venv", "bin", "python"),
	} {
		if _, err := os.Stat(c); err == nil {
			return c, nil
		}
	}
	return "", errors.New("no python with pypaimon found (LAKELOAD_PY, .venv, $LAKELOAD_CACHE/venv, ~/.cache/lakeload-venv)")
}
