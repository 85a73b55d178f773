package oracle

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// requestTimeout bounds one oracle request; the process is killed (and restarted on next use) past it.
const requestTimeout = 5 * time.Minute

// process is one long-lived oracle child in batch mode.
type process struct {
	name    string
	argv    []string
	mu      sync.Mutex
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stdout  *bufio.Reader
	stderr  *tailBuffer
	started time.Duration // how long the last start (spawn + ping) took
}

// tailBuffer keeps the last few KiB of the child's stderr for error messages.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - 8192; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.TrimSpace(string(b.buf))
}

// start spawns the child and waits for its answer to a ping. Caller holds p.mu.
func (p *process) start() error {
	t0 := time.Now()
	cmd := exec.Command(p.argv[0], append(p.argv[1:], "batch")...)
	cmd.Env = append(os.Environ(), "PYTHONUNBUFFERED=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	p.stderr = &tailBuffer{}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s oracle: start %v: %w", p.name, p.argv, err)
	}
	p.cmd, p.stdin, p.stdout = cmd, stdin, bufio.NewReaderSize(stdout, 1<<20)
	var pong map[string]any
	if err := p.roundTrip(map[string]any{"cmd": "ping"}, &pong); err != nil {
		p.kill()
		return err
	}
	p.started = time.Since(t0)
	return nil
}

// kill stops the child (if any). Caller holds p.mu.
func (p *process) kill() {
	if p.cmd == nil {
		return
	}
	_ = p.stdin.Close()
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
	p.cmd = nil
}

// call sends one request and decodes the reply into out; an {"error":...} reply becomes an error.
func (p *process) call(req map[string]any, out any) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		if err := p.start(); err != nil {
			return err
		}
	}
	return p.roundTrip(req, out)
}

// roundTrip writes req and reads one reply line. Caller holds p.mu.
func (p *process) roundTrip(req map[string]any, out any) error {
	line, err := json.Marshal(req)
	if err != nil {
		return err
	}
	type result struct {
		line []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		if _, err := p.stdin.Write(append(line, '\n')); err != nil {
			done <- result{err: err}
			return
		}
		l, err := p.stdout.ReadBytes('\n')
		done <- result{l, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(requestTimeout):
		p.kill()
		return fmt.Errorf("%s oracle: no reply within %v to %s", p.name, requestTimeout, line)
	}
	if r.err != nil {
		tail := p.stderr.String()
		p.kill()
		return fmt.Errorf("%s oracle died (%v) on %s; stderr tail:\n%s", p.name, r.err, line, tail)
	}
	var envelope struct {
		Error *string `json:"error"`
	}
	if err := json.Unmarshal(r.line, &envelope); err != nil {
		return fmt.Errorf("%s oracle: bad reply %q: %v", p.name, r.line, err)
	}
	if envelope.Error != nil {
		return &Error{Oracle: p.name, Msg: *envelope.Error}
	}
	dec := json.NewDecoder(strings.NewReader(string(r.line)))
	dec.UseNumber()
	return dec.Decode(out)
}

// Error is an error reported by an oracle for one request (the oracle keeps running).
type Error struct {
	Oracle string // "java" or "py"
	Msg    string // the oracle's message: exception class and text
}

func (e *Error) Error() string { return e.Oracle + " oracle: " + e.Msg }

// IsOracleError reports whether err is an oracle-side request error (not a missing/dead oracle).
func IsOracleError(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
