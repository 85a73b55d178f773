package fiotest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
)

// The cross-process race re-executes the test binary; children find their job in this variable
// as "<mode>|<dir>|<proc>|<keys>".
const raceChildEnv = "LAKELOAD_FIOTEST_RACE_CHILD"

const winPrefix = "WIN "

func procContent(proc, key int) []byte {
	return pattern(fmt.Sprintf("proc-%d-key-%d", proc, key), 2048)
}

func procKey(dir string, key int) string { return fileio.Join(dir, fmt.Sprintf("snapshot-%d", key)) }

// RaceChild is the child side of RaceProcesses. Call it from a test named as RaceProcesses'
// childTest; outside a child process it skips. open builds the backend for the given mode (the
// mode string is passed through from RaceProcesses, e.g. to select a deliberately broken variant).
func RaceChild(t *testing.T, open func(mode string) (fileio.FileIO, error)) {
	spec := os.Getenv(raceChildEnv)
	if spec == "" {
		t.Skip("helper process for a cross-process WriteIfAbsent race")
	}
	parts := strings.Split(spec, "|")
	if len(parts) != 4 {
		t.Fatalf("bad %s=%q", raceChildEnv, spec)
	}
	mode, dir := parts[0], parts[1]
	proc, err1 := strconv.Atoi(parts[2])
	keys, err2 := strconv.Atoi(parts[3])
	if err := errors.Join(err1, err2); err != nil {
		t.Fatalf("bad %s=%q: %v", raceChildEnv, spec, err)
	}
	f, err := open(mode)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, os.Stdin) // barrier: the parent closes stdin once all children run
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for k := range keys {
		err := f.WriteIfAbsent(context.Background(), procKey(dir, k), procContent(proc, k))
		switch {
		case err == nil:
			fmt.Fprintf(out, "%s%d\n", winPrefix, k)
		case !errors.Is(err, fileio.ErrExist):
			t.Fatalf("key %d: %v", k, err)
		}
	}
}

// RaceProcesses starts procs copies of the test binary running childTest (which calls RaceChild
// with mode), with env added to their environment. All call WriteIfAbsent on the same keys paths
// under dir in the same order, released together. It returns one problem per key that did not end
// with exactly one winning process whose content f reads back, plus one if dir holds other entries.
func RaceProcesses(t *testing.T, f fileio.FileIO, childTest, mode, dir string, procs, keys int, env []string) []string {
	t.Helper()
	type child struct {
		cmd   *exec.Cmd
		stdin io.WriteCloser
		out   bytes.Buffer
	}
	children := make([]*child, procs)
	for i := range children {
		c := &child{cmd: exec.Command(os.Args[0], "-test.run=^"+childTest+"$", "-test.count=1")}
		c.cmd.Env = append(append(os.Environ(), env...), fmt.Sprintf("%s=%s|%s|%d|%d", raceChildEnv, mode, dir, i, keys))
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
	winners := make([][]int, keys)
	for i, c := range children {
		if err := c.cmd.Wait(); err != nil {
			t.Fatalf("child %d: %v\n%s", i, err, c.out.String())
		}
		for line := range strings.Lines(c.out.String()) {
			if k, ok := strings.CutPrefix(strings.TrimSpace(line), winPrefix); ok {
				n, err := strconv.Atoi(k)
				if err != nil || n < 0 || n >= keys {
					t.Fatalf("child %d: bad line %q", i, line)
				}
				winners[n] = append(winners[n], i)
			}
		}
	}
	var problems []string
	for k, w := range winners {
		if len(w) != 1 {
			problems = append(problems, fmt.Sprintf("key %d: winning processes %v, want exactly one", k, w))
			continue
		}
		got, err := f.ReadFile(ctx, procKey(dir, k))
		if err != nil || !bytes.Equal(got, procContent(w[0], k)) {
			problems = append(problems, fmt.Sprintf("key %d: content %q is not winner %d's (err %v)", k, clip(got), w[0], err))
		}
	}
	infos, err := f.List(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != keys {
		problems = append(problems, fmt.Sprintf("%s has %d entries, want %d (temp leftovers?)", dir, len(infos), keys))
	}
	return problems
}
