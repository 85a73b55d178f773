package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lakeload/lakeload/metrics"
)

// TestCLIMetricsHeldConnections (issue 14, finding 7): 90 connections held open against `load
// --metrics-addr` (each sent a request and keeps the connection alive) while the load runs with 64
// file descriptors (ulimit -n 64; a load needs about 16) do not make the load fail: the server
// serves at most 16 connections at a time, the others wait in the kernel's backlog. Before the fix
// the server took every connection, and the load failed with "too many open files".
func TestCLIMetricsHeldConnections(t *testing.T) {
	const files, rows, held = 6, 200, 90
	name := "db.events"
	wh, in := eventsCSVTable(t, name, files, rows, "in-%d.csv")
	load := cmdArgs([]string{"load"}, tbl(wh, name, "--from", filepath.Join(in, "*.csv"), "--job", "j",
		"--commit-rows", "1", "--parallelism", "2", "--metrics-addr", "127.0.0.1:0"))
	sh := exec.Command("sh", append([]string{"-c", `ulimit -n 64 && exec "$0" "$@"`, os.Args[0]}, load...)...)

	a := startPausedCmd(t, sh, "after-publish:1")
	var host string
	for _, l := range strings.Split(a.stderr.String(), "\n") {
		if u, found := strings.CutPrefix(l, "lakeload: metrics on "); found {
			pu, err := url.Parse(u)
			if err != nil {
				t.Fatal(err)
			}
			host = pu.Host
		}
	}
	if host == "" {
		t.Fatalf("no metrics address printed:\n%s", a.stderr.String())
	}
	for range held { // the process is stopped: the kernel completes the handshakes
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := fmt.Fprintf(c, "GET /metrics HTTP/1.1\r\nHost: %s\r\n\r\n", host); err != nil {
			t.Fatal(err)
		}
	}
	code, stderr := a.resume(t)
	if code != 0 || strings.Contains(stderr, "too many open files") {
		t.Fatalf("load with %d held metrics connections: exit %d\n%s", held, code, stderr)
	}
	if got := lines(ok(t, cmdArgs([]string{"scan"}, tbl(wh, name, "--output", "jsonl"))...)); len(got) != files*rows {
		t.Errorf("scan: %d rows, want %d", len(got), files*rows)
	}
}

// lockedBuffer is a bytes.Buffer safe for a server's concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// startMetrics serves an empty registry on addr within lim and returns the host:port it printed.
func startMetrics(t *testing.T, addr string, lim metricsLimits) string {
	t.Helper()
	var out lockedBuffer
	stop, err := serveMetricsWith(addr, metrics.NewRegistry(), &out, lim)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	u, found := strings.CutPrefix(strings.TrimSpace(out.String()), "lakeload: metrics on http://")
	if !found {
		t.Fatalf("printed %q", out.String())
	}
	return strings.TrimSuffix(u, "/metrics")
}

// scrapeOn sends one keep-alive GET /metrics on c and reads the response.
func scrapeOn(c net.Conn, r *bufio.Reader, host string) error {
	if _, err := fmt.Fprintf(c, "GET /metrics HTTP/1.1\r\nHost: %s\r\n\r\n", host); err != nil {
		return err
	}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	if err == nil && resp.StatusCode != 200 {
		err = fmt.Errorf("status %d", resp.StatusCode)
	}
	return err
}

// closedByServer waits (up to a generous deadline, never a timing claim) for the server to close c.
func closedByServer(t *testing.T, c net.Conn, r *bufio.Reader, what string) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(2 * time.Minute))
	if _, err := r.ReadByte(); !errors.Is(err, io.EOF) && !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("%s: the server did not close the connection: %v", what, err)
	}
}

// TestMetricsServerLimits (issue 14, finding 7): the metrics server closes a kept-alive connection
// once it is idle for the idle timeout and one that stalls in its request header; it serves at
// most maxConns connections at once, and a freed slot serves a waiting one. Limits are shortened
// here (metricsLimits), every wait has a generous deadline.
func TestMetricsServerLimits(t *testing.T) {
	t.Run("idle and stalled connections are closed", func(t *testing.T) {
		host := startMetrics(t, "127.0.0.1:0", metricsLimits{readHeader: 50 * time.Millisecond, read: 10 * time.Minute,
			write: time.Minute, idle: 50 * time.Millisecond, maxConns: 4})
		idle, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		defer idle.Close()
		ri := bufio.NewReader(idle)
		if err := scrapeOn(idle, ri, host); err != nil {
			t.Fatal(err)
		}
		closedByServer(t, idle, ri, "kept alive and idle")
		stalled, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		defer stalled.Close()
		fmt.Fprintf(stalled, "GET /metrics HTTP/1.1\r\nHost: %s\r\n", host) // the header never ends
		closedByServer(t, stalled, bufio.NewReader(stalled), "stalled in its header")
	})

	t.Run("at most maxConns at once", func(t *testing.T) {
		const maxConns, extra = 4, 3
		host := startMetrics(t, "127.0.0.1:0", metricsLimits{readHeader: time.Minute, read: time.Minute,
			write: time.Minute, idle: 10 * time.Minute, maxConns: maxConns})
		served := make(chan int, maxConns+extra)
		conns := make([]net.Conn, maxConns+extra)
		for i := range conns {
			c, err := net.Dial("tcp", host)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			conns[i] = c
			go func() {
				if scrapeOn(c, bufio.NewReader(c), host) == nil {
					served <- i
				}
			}()
		}
		wait := func(what string) int {
			t.Helper()
			select {
			case i := <-served:
				return i
			case <-time.After(2 * time.Minute):
				t.Fatalf("%s: no connection served within 2 minutes", what)
				return -1
			}
		}
		var first []int
		for range maxConns {
			first = append(first, wait("the first connections"))
		}
		time.Sleep(100 * time.Millisecond) // room for a wrong server to serve more; a right one cannot
		if n := len(served); n != 0 {
			t.Fatalf("%d connections served beyond the limit of %d held ones", n, maxConns)
		}
		conns[first[0]].Close() // its slot serves one waiting connection
		if i := wait("after one closed"); slices.Contains(first, i) {
			t.Fatalf("connection %d served twice", i)
		}
	})

	t.Run("an address without host is the loopback", func(t *testing.T) {
		if host := startMetrics(t, ":0", metricsDefaults); !strings.HasPrefix(host, "127.0.0.1:") {
			t.Errorf("--metrics-addr :0 listens on %s, want 127.0.0.1", host)
		}
		for in, want := range map[string]string{":9464": "127.0.0.1:9464", "0.0.0.0:9464": "0.0.0.0:9464",
			"[::1]:1": "[::1]:1", "localhost:2": "localhost:2", "bad": "bad"} {
			if got := metricsListenAddr(in); got != want {
				t.Errorf("metricsListenAddr(%q) = %q, want %q", in, got, want)
			}
		}
	})
}
