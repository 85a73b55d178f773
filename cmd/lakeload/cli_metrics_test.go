package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/loadtest"
)

// sample is one parsed exposition line.
type sample struct {
	name   string
	labels map[string]string
	value  float64
}

var (
	sampleRE = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$`)
	labelRE  = regexp.MustCompile(`^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)`)
)

// parseExposition parses the text format 0.0.4 strictly: HELP and TYPE once per family and before
// its samples, samples only of declared families (histograms as _bucket/_sum/_count), well-formed
// labels and values; anything else fails the test.
func parseExposition(t *testing.T, text string) []sample {
	t.Helper()
	types := map[string]string{}
	helped := map[string]bool{}
	var out []sample
	for n, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		fail := func(why string) { t.Fatalf("line %d %q: %s", n+1, line, why) }
		if rest, ok := strings.CutPrefix(line, "# HELP "); ok {
			name, _, _ := strings.Cut(rest, " ")
			if helped[name] {
				fail("second HELP")
			}
			helped[name] = true
			continue
		}
		if rest, ok := strings.CutPrefix(line, "# TYPE "); ok {
			name, typ, _ := strings.Cut(rest, " ")
			if _, dup := types[name]; dup || !helped[name] || (typ != "counter" && typ != "gauge" && typ != "histogram") {
				fail("bad TYPE")
			}
			types[name] = typ
			continue
		}
		m := sampleRE.FindStringSubmatch(line)
		if m == nil {
			fail("not a sample")
		}
		s := sample{name: m[1], labels: map[string]string{}}
		for rest := m[3]; rest != ""; {
			lm := labelRE.FindStringSubmatch(rest)
			if lm == nil {
				fail("bad labels")
			}
			v, err := strconv.Unquote(`"` + lm[2] + `"`)
			if err != nil {
				fail("bad label escape")
			}
			s.labels[lm[1]] = v
			rest = rest[len(lm[0]):]
		}
		v, err := strconv.ParseFloat(strings.Replace(m[4], "+Inf", "Inf", 1), 64)
		if err != nil {
			fail("bad value")
		}
		s.value = v
		fam := s.name
		if typ, ok := types[fam]; !ok || typ == "histogram" {
			base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(fam, "_bucket"), "_sum"), "_count")
			if types[base] != "histogram" || base == fam {
				fail("sample of an undeclared family")
			}
			if strings.HasSuffix(fam, "_bucket") && s.labels["le"] == "" {
				fail("bucket without le")
			}
		}
		out = append(out, s)
	}
	return out
}

func value(t *testing.T, ss []sample, name string, labels map[string]string) float64 {
	t.Helper()
	for _, s := range ss {
		if s.name != name || len(s.labels) != len(labels) {
			continue
		}
		match := true
		for k, v := range labels {
			match = match && s.labels[k] == v
		}
		if match {
			return s.value
		}
	}
	t.Fatalf("no sample %s%v", name, labels)
	return 0
}

// startPausedLoad runs `lakeload load` as a process that pauses at point and returns its metrics URL,
// once it has paused, and a kill function.
func startPausedLoad(t *testing.T, args []string, point string) (string, func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), mainEnv+"=1", "LAKELOAD_HOLD_AT="+point)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	kill := func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
	var url string
	var seen bytes.Buffer
	sc := bufio.NewScanner(stderr)
	done := make(chan bool, 1)
	go func() {
		for sc.Scan() {
			line := sc.Text()
			seen.WriteString(line + "\n")
			if u, ok := strings.CutPrefix(line, "lakeload: metrics on "); ok {
				url = u
			}
			if strings.HasPrefix(line, "lakeload: held at ") {
				done <- true
				go io.Copy(io.Discard, stderr)
				return
			}
		}
		done <- false
	}()
	select {
	case ok := <-done:
		if !ok || url == "" {
			kill()
			t.Fatalf("load did not pause at %s with a metrics address:\n%s", point, seen.String())
		}
	case <-time.After(hangGuard):
		kill()
		t.Fatalf("load did not pause at %s", point)
	}
	return url, kill
}

func scrape(t *testing.T, url string) []sample {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/plain; version=0.0.4; charset=utf-8" {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	return parseExposition(t, string(b))
}

// TestLoadMetrics scrapes /metrics of a real `lakeload load` process paused during its run: the
// counters equal the rows and windows loaded; a crash after window 2's commit and a resume report one
// publish recovery action; `status --output json` carries the stored numbers.
func TestLoadMetrics(t *testing.T) {
	wh, in := loadtest.TempDir(t), loadtest.TempDir(t)
	fx := loadtest.Append(41, 3, 300)
	glob := fx.WriteInputs(t, in)
	fx.Create(t, wh)
	name := loadtest.Database + "." + fx.Name
	args := cmdArgs([]string{"load"}, tbl(wh, name, "--from", glob, "--job", "m", "--commit-rows", "1",
		"--parallelism", "2", "--log-format", "json", "--metrics-addr", "127.0.0.1:0"))
	lbl := map[string]string{"job": "m"}

	// Run 1: paused after window 2 is committed, before it is published; then killed.
	url, kill := startPausedLoad(t, args, "before-publish:2")
	s := scrape(t, url)
	if w := value(t, s, "lakeload_windows_committed_total", lbl); w != 1 {
		t.Errorf("windows committed at the pause: %v, want 1", w)
	}
	if c := value(t, s, "lakeload_commit_seconds_count", lbl); c != 2 {
		t.Errorf("commits timed: %v, want 2", c)
	}
	if w := value(t, s, "lakeload_window", lbl); w != 2 {
		t.Errorf("window gauge %v, want 2", w)
	}
	kill()

	// Run 2: resumes (window 2 is published by recovery) and pauses after the last window.
	url, kill = startPausedLoad(t, args, "after-publish:3")
	defer kill()
	s = scrape(t, url)
	rows := float64(fx.Rows())
	file3 := float64(len(fx.Files[2].Rows))
	if r := value(t, s, "lakeload_rows_read_total", lbl); r != file3 {
		t.Errorf("rows read by the resumed run: %v, want %v (window 3 only)", r, file3)
	}
	if r := value(t, s, "lakeload_rows_written_total", lbl); r != file3 {
		t.Errorf("rows written by the resumed run: %v, want %v", r, file3)
	}
	if w := value(t, s, "lakeload_windows_committed_total", lbl); w != 2 {
		t.Errorf("windows committed by the resumed run: %v, want 2 (recovered 2, new 3)", w)
	}
	for action, want := range map[string]float64{"publish": 1, "commit": 0, "recompute": 0} {
		if v := value(t, s, "lakeload_recovery_actions_total", map[string]string{"job": "m", "action": action}); v != want {
			t.Errorf("recovery %s: %v, want %v", action, v, want)
		}
	}
	if b := value(t, s, "lakeload_bytes_written_total", lbl); b <= 0 {
		t.Errorf("bytes written %v", b)
	}
	if v := value(t, s, "lakeload_rows_rejected_total", lbl); v != 0 {
		t.Errorf("rejected %v", v)
	}
	if v := value(t, s, "lakeload_commit_seconds_bucket", map[string]string{"job": "m", "le": "+Inf"}); v != 1 {
		t.Errorf("commit histogram +Inf bucket %v, want 1", v)
	}
	kill()

	// Run 3 finishes; status --output json reports the stored numbers.
	ok(t, args...)
	var st struct {
		RowsPublished int64 `json:"rowsPublished"`
		Metrics       struct {
			RowsWritten, WindowsCommitted, BytesWritten, Window int64
			NotStored                                           []string
		} `json:"metrics"`
	}
	out := ok(t, cmdArgs([]string{"status"}, tbl(wh, name, "--job", "m", "--output", "json"))...)
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if st.Metrics.RowsWritten != int64(rows) || st.Metrics.WindowsCommitted != 3 || st.Metrics.Window != 3 || st.Metrics.BytesWritten <= 0 ||
		len(st.Metrics.NotStored) == 0 {
		t.Fatalf("status metrics %+v (%s)", st.Metrics, fmt.Sprint(rows))
	}
}
