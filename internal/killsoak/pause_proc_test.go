package killsoak

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
)

// The pause soak's process control: a child is stopped with SIGSTOP (by the harness, or by itself at
// a LAKELOAD_PAUSE_AT point) and counts as stopped only once the kernel says every one of its threads
// is (state T), so that nothing the harness does next can race with the child's last steps.

// procState is the state letter of process pid (R, S, D, T, Z, …) from /proc/PID/stat; 0 when the
// process is gone. With SIGSTOP every thread stops, each when it next returns to user mode (a thread
// inside a system call finishes it first), so the process counts as stopped only when every one of
// its threads (/proc/PID/task/TID/stat) is: procState is 'T' then, else the state of the main thread
// or 'R' for a thread still on its way.
func procState(pid int) byte {
	main := statState(fmt.Sprintf("/proc/%d/stat", pid))
	if main != 'T' {
		return main
	}
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return 0
	}
	for _, task := range tasks {
		if st := statState(fmt.Sprintf("/proc/%d/task/%s/stat", pid, task.Name())); st != 'T' && st != 0 {
			return 'R'
		}
	}
	return 'T'
}

// statState is the state letter of a /proc stat file; 0 when it cannot be read.
func statState(path string) byte {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) == 0 || f[0] == "" {
		return 0
	}
	return f[0][0]
}

func (c *child) pid() int { return c.cmd.Process.Pid }

// hasExited reports whether the child has exited (and its output is read).
func (c *child) hasExited() bool {
	select {
	case <-c.exited:
		return true
	default:
		return false
	}
}

// waitStopped returns true once the child is in state T, false if it exits first.
func (c *child) waitStopped() bool {
	for {
		if c.hasExited() {
			return false
		}
		if procState(c.pid()) == 'T' {
			return true
		}
		select {
		case <-c.exited:
			return false
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// stop sends SIGSTOP and waits until the child is stopped; false if it exited first.
func (c *child) stop() bool {
	if c.hasExited() {
		return false
	}
	_ = c.cmd.Process.Signal(syscall.SIGSTOP)
	return c.waitStopped()
}

// cont resumes a stopped child with SIGCONT.
func (c *child) cont() {
	_ = c.cmd.Process.Signal(syscall.SIGCONT)
}
