package killsoak

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// lakeloadBin is the lakeload binary built once by TestMain (or LAKELOAD_SOAK_BIN, a prebuilt one,
// e.g. a mutant to check that the soak catches it).
var lakeloadBin string

func TestMain(m *testing.M) {
	if bin := os.Getenv("LAKELOAD_SOAK_BIN"); bin != "" {
		lakeloadBin = bin
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "killsoak-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "killsoak:", err)
		os.Exit(1)
	}
	lakeloadBin = filepath.Join(dir, "lakeload")
	t0 := time.Now()
	build := exec.Command(goTool(), "build", "-o", lakeloadBin, "github.com/lakeload/lakeload/cmd/lakeload")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "killsoak: go build of cmd/lakeload failed:", err)
		_ = os.RemoveAll(dir)
		os.Exit(1)
	}
	buildTime = time.Since(t0)
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// buildTime is how long building the binary took (reported in the summary).
var buildTime time.Duration

// goTool is the go command of the toolchain running the tests, else the one on PATH.
func goTool() string {
	if root := runtime.GOROOT(); root != "" {
		if p := filepath.Join(root, "bin", "go"); fileExists(p) {
			return p
		}
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
