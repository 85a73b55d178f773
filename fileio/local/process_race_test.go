package local_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
)

// The cross-process race re-executes this test binary: TestRaceChild does the work in children.
const (
	raceChildEnv = "LAKELOAD_LOCAL_RACE_CHILD" // "<mode>|<dir>|<proc id>"
	raceProcs    = 4
	raceKeys     = 100
	winPrefix    = "WIN "
)

func raceContent(proc, key int) []byte {
	seed := fmt.Sprintf("proc-%d-key-%d;", proc, key)
	return bytes.Repeat([]byte(seed), 4096/len(seed)+1)[:4096]
}

func raceKey(dir string, key int) string { return filepath.Join(dir, fmt.Sprintf("snapshot-%d", key)) }

// naiveWriteIfAbsent is the broken check-then-rename protocol (what Java's LocalFileIO does, safe
// only inside one JVM). It exists to show the harness catches double winners.
func naiveWriteIfAbsent(path string, data []byte) error {
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("naive: %s: %w", path, fileio.ErrExist)
	}
	tmp := filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s.%d.tmp", filepath.Base(path), os.Getpid()))
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	f, err := os.Open(tmp)
	if err != nil {
		return err
	}
	_ = f.Sync()
	_ = f.Close()
	return os.Rename(tmp, path)
}

// TestRaceChild is the child side of the cross-process race; it is skipped in normal runs.
func TestRaceChild(t *testing.T) {
	spec := os.Getenv(raceChildEnv)
	if spec == "" {
		t.Skip("helper process for TestWriteIfAbsentAcrossProcesses")
	}
	parts := strings.Split(spec, "|")
	if len(parts) != 3 {
		t.Fatalf("bad %s=%q", raceChildEnv, spec)
	}
	mode, dir := parts[0], parts[1]
	proc, err := strconv.Atoi(parts[2])
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, os.Stdin) // barrier: the parent closes stdin once all children run
	fsys := local.New()
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for k := range raceKeys {
		p := raceKey(dir, k)
		var err error
		if mode == "naive" {
			err = naiveWriteIfAbsent(p, raceContent(proc, k))
		} else {
			err = fsys.WriteIfAbsent(context.Background(), p, raceContent(proc, k))
		}
		switch {
		case err == nil:
			fmt.Fprintf(out, "%s%d\n", winPrefix, k)
		case !errors.Is(err, fs.ErrExist):
			t.Fatalf("key %d: %v", k, err)
		}
	}
}

// raceProcesses runs raceProcs children racing on raceKeys paths in a fresh dir and returns, per
// key, the ids of the processes that reported winning.
func raceProcesses(t *testing.T, mode string) (string, [][]int) {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	type child struct {
		cmd   *exec.Cmd
		stdin io.WriteCloser
		out   bytes.Buffer
	}
	children := make([]*child, raceProcs)
	for i := range children {
		c := &child{cmd: exec.Command(os.Args[0], "-test.run=^TestRaceChild$", "-test.count=1")}
		c.cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%s|%d", raceChildEnv, mode, dir, i))
		c.cmd.Stdout = &c.out
		c.cmd.Stderr = &c.out
		var err error
		if c.stdin, err = c.cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		if err := c.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		children[i] = c
	}
	for _, c := range children {
		_ = c.stdin.Close() // release the barrier
	}
	winners := make([][]int, raceKeys)
	for i, c := range children {
		if err := c.cmd.Wait(); err != nil {
			t.Fatalf("child %d: %v\n%s", i, err, c.out.String())
		}
		for line := range strings.Lines(c.out.String()) {
			if k, ok := strings.CutPrefix(strings.TrimSpace(line), winPrefix); ok {
				n, err := strconv.Atoi(k)
				if err != nil || n < 0 || n >= raceKeys {
					t.Fatalf("child %d: bad line %q", i, line)
				}
				winners[n] = append(winners[n], i)
			}
		}
	}
	return dir, winners
}

// raceProblems lists every key without exactly one winner or whose content is not the winner's.
func raceProblems(t *testing.T, dir string, winners [][]int) []string {
	t.Helper()
	var problems []string
	for k, w := range winners {
		if len(w) != 1 {
			problems = append(problems, fmt.Sprintf("key %d: winners %v", k, w))
			continue
		}
		got, err := os.ReadFile(raceKey(dir, k))
		if err != nil || !bytes.Equal(got, raceContent(w[0], k)) {
			problems = append(problems, fmt.Sprintf("key %d: content is not winner %d's (err %v)", k, w[0], err))
		}
	}
	return problems
}

func TestWriteIfAbsentAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir, winners := raceProcesses(t, "atomic")
	if p := raceProblems(t, dir, winners); len(p) > 0 {
		t.Fatalf("%d problems, first: %s", len(p), strings.Join(p[:min(5, len(p))], "; "))
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != raceKeys {
		t.Fatalf("dir has %d entries (%v), want %d: temp files leaked", len(entries), err, raceKeys)
	}
}

// TestNaiveWriteIfAbsentLosesRace is the negative control: the same harness must catch the
// check-then-rename protocol publishing twice (on the dev machine 85-100 of 100 keys break per
// run). A run without collisions is retried; three clean runs mean the harness does not race.
func TestNaiveWriteIfAbsentLosesRace(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	const attempts = 3
	for a := 1; a <= attempts; a++ {
		dir, winners := raceProcesses(t, "naive")
		if p := raceProblems(t, dir, winners); len(p) > 0 {
			t.Logf("attempt %d: harness caught %d/%d broken keys, e.g. %s", a, len(p), raceKeys, p[0])
			return
		}
	}
	t.Fatalf("naive check-then-rename produced no double winner in %d runs: the children do not overlap, so the race test proves nothing", attempts)
}
