package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// progressLines decodes the JSON log lines of stderr with msg "progress".
func progressLines(t *testing.T, stderr string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range lines(stderr) {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("stderr line %q is not JSON: %v", l, err)
		}
		if m["msg"] == "progress" {
			out = append(out, m)
		}
	}
	return out
}

// finalLine returns the one progress line of stderr, which must be the final one.
func finalLine(t *testing.T, what, stderr string) map[string]any {
	t.Helper()
	ps := progressLines(t, stderr)
	if len(ps) != 1 || ps[0]["final"] != true {
		t.Fatalf("%s: want one final progress line on stderr (the run is shorter than --progress-interval), got:\n%s", what, stderr)
	}
	return ps[0]
}

// TestProgressLogLinesCountWhatWasDone: off a terminal, write, compact, expire and clean-orphans with
// --log-format json end with one final progress line whose counts are what the command did (as its
// stdout summary says); a bad --log-format is a command-line error.
func TestProgressLogLinesCountWhatWasDone(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "shop.kv",
		"--column", "dt STRING", "--column", "id BIGINT", "--column", "v STRING",
		"--primary-key", "dt,id", "--partition-key", "dt", "--option", "bucket=2"))...)
	var written int64
	for i := range 3 {
		var b strings.Builder
		b.WriteString("dt,id,v\n")
		for k := range 50 + i {
			fmt.Fprintf(&b, "%s,%d,v%d\n", []string{"a", "b"}[k%2], k, i)
		}
		f := writeFile(t, in, fmt.Sprintf("in%d.csv", i), b.String())
		r := lakeload(t, cmdArgs([]string{"write"}, tbl(wh, "shop.kv", "--from", f, "--log-format", "json"))...)
		if r.code != 0 {
			t.Fatalf("write: exit %d: %s", r.code, r.stderr)
		}
		p := finalLine(t, "write", r.stderr)
		written += int64(50 + i)
		if p["rows_written"] != float64(50+i) || p["files_done"] != float64(1) || p["files_total"] != float64(1) || p["phase"] != "committed" {
			t.Errorf("write's final progress line %v, want 1 of 1 files and %d rows written, committed", p, 50+i)
		}
	}

	r := lakeload(t, cmdArgs([]string{"compact"}, tbl(wh, "shop.kv", "--full", "--log-format", "json"))...)
	if r.code != 0 {
		t.Fatalf("compact: exit %d: %s", r.code, r.stderr)
	}
	buckets := strings.Count(r.stdout, "/bucket-")
	p := finalLine(t, "compact", r.stderr)
	if buckets != 4 || p["buckets_done"] != float64(buckets) || p["buckets_total"] != float64(buckets) || p["partitions_done"] != float64(2) ||
		p["rows_done"] != float64(written) || p["rows_total"] != float64(written) || p["files_read"] != float64(12) || p["files_written"] != float64(4) {
		t.Errorf("compact printed %d bucket lines:\n%s\nits final progress line %v, want 4 buckets, 2 partitions, %d rows, 12 files read, 4 written",
			buckets, r.stdout, p, written)
	}

	r = lakeload(t, cmdArgs([]string{"expire"}, tbl(wh, "shop.kv", "--retain-min", "1", "--older-than", "0s", "--log-format", "json"))...)
	if r.code != 0 || !strings.Contains(r.stdout, "expired snapshots 1..3") {
		t.Fatalf("expire: exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	p = finalLine(t, "expire", r.stderr)
	// The summary counts the data, manifest, manifest-list and index files; the 3 snapshot files come on top.
	var data, manifests, lists, index int
	if _, err := fmt.Sscanf(r.stdout[strings.Index(r.stdout, "deleted "):], "deleted %d data, %d manifest, %d manifest-list, %d index files",
		&data, &manifests, &lists, &index); err != nil {
		t.Fatalf("expire summary %q: %v", r.stdout, err)
	}
	if want := float64(data + manifests + lists + index + 3); p["files_deleted"] != want || p["step"] != "snapshot files" {
		t.Errorf("expire's final progress line %v, want %v files deleted (the summary's and 3 snapshot files)", p, want)
	}

	r = lakeload(t, cmdArgs([]string{"clean-orphans"}, tbl(wh, "shop.kv", "--older-than", "0s", "--log-format", "json"))...)
	if r.code != 0 {
		t.Fatalf("clean-orphans: exit %d: %s", r.code, r.stderr)
	}
	p = finalLine(t, "clean-orphans", r.stderr)
	if !strings.Contains(r.stdout, "deleted 0 orphan files") || p["files_deleted"] != float64(0) || p["step"] != "delete" || p["step_done"] != p["step_total"] {
		t.Errorf("clean-orphans printed %q, final progress line %v", r.stdout, p)
	}

	for _, c := range [][]string{{"compact"}, {"write", "--from", in + "/in0.csv"}, {"expire"}, {"clean-orphans", "--older-than", "1h"}} {
		fails(t, exitUsage, []string{"--log-format \"xml\": use text or json"}, cmdArgs(c, tbl(wh, "shop.kv", "--log-format", "xml"))...)
	}
}

// syncBuffer is a bytes.Buffer safe for the display's goroutine and the test's.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestLiveDisplayLogsEveryInterval: off a terminal the display logs the live counters every
// interval (asserted: lines with growing counts appear, not when), one final line on success and
// none after a failure.
func TestLiveDisplayLogsEveryInterval(t *testing.T) {
	for _, succeeded := range []bool{true, false} {
		var buf syncBuffer
		var n liveValue[int]
		d := newLiveDisplay(&buf, false, slog.New(slog.NewJSONHandler(&buf, nil)), time.Millisecond,
			func(time.Duration) string { t.Error("a line was drawn off a terminal"); return "" },
			func(time.Duration) []any { return []any{"n", n.get()} })
		d.start()
		n.set(1)
		for deadline := time.Now().Add(5 * time.Minute); len(progressLines(t, buf.String())) < 1 && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		n.set(2)
		for deadline := time.Now().Add(5 * time.Minute); !strings.Contains(buf.String(), `"n":2`) && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		d.finish(succeeded)
		d.finish(succeeded) // a second finish does nothing
		ps := progressLines(t, buf.String())
		if len(ps) < 2 || !strings.Contains(buf.String(), `"n":1`) || !strings.Contains(buf.String(), `"n":2`) {
			t.Fatalf("want interval lines with n 1 and then 2, got:\n%s", buf.String())
		}
		finals := 0
		for _, p := range ps {
			if p["final"] == true {
				finals++
			}
		}
		if last := ps[len(ps)-1]; succeeded && (finals != 1 || last["final"] != true || last["n"] != float64(2)) || !succeeded && finals != 0 {
			t.Errorf("succeeded=%v: %d final lines, last line %v", succeeded, finals, last)
		}
		before := buf.String()
		time.Sleep(5 * time.Millisecond)
		if buf.String() != before {
			t.Errorf("the display logged after finish")
		}
	}
}

// TestLiveDisplayOnATerminalEndsTheLine: the terminal line is redrawn in place (\r, erase to the
// end) and finish ends it with a newline, after a failure too.
func TestLiveDisplayOnATerminalEndsTheLine(t *testing.T) {
	var buf syncBuffer
	d := newLiveDisplay(&buf, true, nil, 0, func(time.Duration) string { return "LINE" }, nil)
	d.start()
	d.poke()
	d.finish(false)
	if got := buf.String(); !strings.HasPrefix(got, "\rLINE\x1b[K") || !strings.HasSuffix(got, "\rLINE\x1b[K\n") {
		t.Errorf("terminal output %q", got)
	}
}
