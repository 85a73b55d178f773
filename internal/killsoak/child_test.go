package killsoak

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// child is one running `lakeload` process whose stderr is watched line by line.
type child struct {
	cmd     *exec.Cmd
	started time.Time
	paused  chan string   // receives each "paused at" line (up to 16 unread; the kill soak reads one)
	exited  chan struct{} // closed when the process has exited and its output is read
	waitErr error
	stdout  bytes.Buffer

	mu        sync.Mutex
	stderr    []string // every stderr line
	committed int      // "window committed" log lines
}

// startChild runs the lakeload binary with args; env entries are added to the environment.
func startChild(args []string, env ...string) (*child, error) {
	c := &child{paused: make(chan string, 16), exited: make(chan struct{})}
	c.cmd = exec.Command(lakeloadBin, args...)
	c.cmd.Env = append(os.Environ(), env...)
	c.cmd.Stdout = &c.stdout
	errPipe, err := c.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	c.started = time.Now()
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", lakeloadBin, err)
	}
	go func() {
		sc := bufio.NewScanner(errPipe)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			line := sc.Text()
			c.mu.Lock()
			c.stderr = append(c.stderr, line)
			if strings.Contains(line, "window committed") {
				c.committed++
			}
			c.mu.Unlock()
			if strings.HasPrefix(line, "lakeload: paused at ") {
				select {
				case c.paused <- line:
				default:
				}
			}
		}
		c.waitErr = c.cmd.Wait() // after the pipe is drained, as exec requires
		close(c.exited)
	}()
	return c, nil
}

// kill sends SIGKILL to this child (by its own pid) and waits until it is reaped, so that its pid
// is gone before the next run looks at the lease.
func (c *child) kill() error {
	err := c.cmd.Process.Signal(syscall.SIGKILL)
	<-c.exited
	if err != nil && !strings.Contains(err.Error(), "process already finished") {
		return err
	}
	return nil
}

// exitCode is the process exit code (-1 when it died of a signal).
func (c *child) exitCode() int { return c.cmd.ProcessState.ExitCode() }

// killedBySignal reports whether the process ended by SIGKILL.
func (c *child) killedBySignal() bool {
	ws, ok := c.cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// output returns stdout and the last n stderr lines, for failure messages.
func (c *child) output(n int) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	lines := c.stderr[max(len(c.stderr)-n, 0):]
	return fmt.Sprintf("stdout: %s\nstderr (last %d lines):\n%s", strings.TrimSpace(c.stdout.String()), len(lines), strings.Join(lines, "\n"))
}

func (c *child) windowsCommitted() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.committed
}

// lastLine is the last stderr line that is not a "paused at" or "resumed at" notice, shortened.
func (c *child) lastLine() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.stderr) - 1; i >= 0; i-- {
		if l := c.stderr[i]; !strings.HasPrefix(l, "lakeload: paused at ") && !strings.HasPrefix(l, "lakeload: resumed at ") {
			if len(l) > 160 {
				l = l[:160] + "…"
			}
			return l
		}
	}
	return "(none)"
}

// aimHangGuard is how long a child aimed at a hook point may go without progress (a new stderr line,
// a window assigned or published in its store) before the soak calls it hung. It is a hang guard
// only: a child that has not paused either reaches its point or exits, however slow the machine,
// so an aimed kill never falls back to a kill at some other moment because time ran out.
const aimHangGuard = 5 * time.Minute

// stalled returns a channel that receives once c has made no progress for aimHangGuard; it never
// fires after c exited. store is c's checkpoint store.
func stalled(c *child, store string) <-chan time.Time {
	fire := make(chan time.Time, 1)
	go func() {
		progress := func() [3]int64 {
			c.mu.Lock()
			n := int64(len(c.stderr))
			c.mu.Unlock()
			a, p := storeProgress(store)
			return [3]int64{n, a, p}
		}
		last, since := progress(), time.Now()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-c.exited:
				return
			case now := <-tick.C:
				if cur := progress(); cur != last {
					last, since = cur, now
				} else if now.Sub(since) > aimHangGuard {
					fire <- now
					return
				}
			}
		}
	}()
	return fire
}
