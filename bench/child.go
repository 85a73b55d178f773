package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Usage is what one child process cost: wall time from start to exit, CPU seconds (user + system, its own and
// its reaped descendants', from wait4's rusage) and peak RSS (ru_maxrss: the largest single process).
type Usage struct {
	Wall   time.Duration
	CPU    time.Duration
	MaxRSS int64 // bytes
}

// childRun is a finished child: its usage, stdout lines, stderr and when each stdout line arrived.
type childRun struct {
	Usage
	Lines  []string
	NLines int             // stdout lines counted when stdout was discarded
	LineAt []time.Duration // since start
	Stderr string
}

// runChild runs name args (env added to the current environment, stdout kept as lines unless discard) and
// returns its usage. A non-zero exit is an error naming the command and its stderr tail, unless allowKill and
// the child died of SIGKILL. killAfter > 0 sends SIGKILL that long after the start.
func runChild(ctx context.Context, env []string, discard, allowKill bool, killAfter time.Duration, name string, args ...string) (childRun, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	var out io.ReadCloser
	var counter lineCounter
	if discard {
		cmd.Stdout = &counter
	} else {
		var err error
		if out, err = cmd.StdoutPipe(); err != nil {
			return childRun{}, err
		}
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return childRun{}, fmt.Errorf("start %s: %w", name, err)
	}
	var timer *time.Timer
	if killAfter > 0 {
		timer = time.AfterFunc(killAfter, func() { _ = cmd.Process.Signal(syscall.SIGKILL) })
	}
	var r childRun
	if out != nil {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			r.Lines = append(r.Lines, sc.Text())
			r.LineAt = append(r.LineAt, time.Since(start))
		}
	}
	err := cmd.Wait()
	r.Wall = time.Since(start)
	if timer != nil {
		timer.Stop()
	}
	r.Stderr = stderr.String()
	r.NLines = int(counter)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		r.MaxRSS = ru.Maxrss * 1024
	}
	if err != nil {
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); allowKill && ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return r, nil
		}
		return r, fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, tail(r.Stderr, 2000))
	}
	return r, nil
}

// tail returns the last n bytes of s, trimmed.
func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		s = "…" + s[len(s)-n:]
	}
	return s
}

// jsonLines decodes each line of r into a map of its numbers; lines that are not JSON objects are an error
// naming the program.
func jsonLines(prog string, r childRun) ([]map[string]float64, error) {
	nums, _, err := jsonReport(prog, r)
	return nums, err
}

// jsonReport decodes each line of r, a JSON object, into its numbers and its strings (other values are
// ignored); lines that are not JSON objects are an error naming the program.
func jsonReport(prog string, r childRun) ([]map[string]float64, []map[string]string, error) {
	var nums []map[string]float64
	var strs []map[string]string
	for _, l := range r.Lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil || m == nil {
			return nil, nil, fmt.Errorf("%s: report line %q is not a JSON object: %v (stderr: %s)", prog, l, err, tail(r.Stderr, 500))
		}
		n, s := map[string]float64{}, map[string]string{}
		for k, v := range m {
			switch v := v.(type) {
			case float64:
				n[k] = v
			case string:
				s[k] = v
			}
		}
		nums, strs = append(nums, n), append(strs, s)
	}
	return nums, strs, nil
}

// lineCounter is an io.Writer counting newlines.
type lineCounter int64

func (c *lineCounter) Write(p []byte) (int, error) {
	*c += lineCounter(bytes.Count(p, []byte{'\n'}))
	return len(p), nil
}

// selfCPU is this process's CPU time so far (user + system).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
