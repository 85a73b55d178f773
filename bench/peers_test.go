package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// pypaimonScript is the peer writer, relative to this package's directory (go test's working directory).
const pypaimonScript = "py/pypaimon_write.py"

// peerRun is one pypaimon run: the script's two report lines plus the wall time up to the first.
type peerRun struct {
	Rows         int64         `json:"rows"`
	DistinctKeys int64         `json:"distinct_keys"`
	ReadBack     int64         `json:"read_back"`
	Startup      float64       `json:"startup"` // seconds from launch to imports done
	Elapsed      float64       `json:"elapsed"` // seconds of create table + read + write + commit
	Write        float64       `json:"write"`   // seconds of write_arrow + prepare_commit + commit
	wall         time.Duration // launch to the first report line
}

// runPypaimon runs the peer script on the input into a new warehouse dir and returns its report. The wall
// time ends when the script's first report line (written right after the commit) arrives, so the
// untimed read-back check after it is not counted.
func runPypaimon(ctx context.Context, py string, paths []string, warehouse string) (peerRun, error) {
	var stderr bytes.Buffer
	start := time.Now()
	args := append([]string{"-u", pypaimonScript, warehouse, strconv.FormatInt(start.UnixNano(), 10)}, paths...)
	cmd := exec.CommandContext(ctx, py, args...)
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return peerRun{}, err
	}
	if err := cmd.Start(); err != nil {
		return peerRun{}, err
	}
	var r peerRun
	var lines []string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if len(lines) == 0 {
			r.wall = time.Since(start)
		}
		lines = append(lines, sc.Text())
	}
	if err := cmd.Wait(); err != nil {
		return peerRun{}, fmt.Errorf("%s: %v: %s", pypaimonScript, err, bytes.TrimSpace(stderr.Bytes()))
	}
	if len(lines) != 2 {
		return peerRun{}, fmt.Errorf("%s: want 2 report lines, got %q", pypaimonScript, lines)
	}
	for _, l := range lines {
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			return peerRun{}, fmt.Errorf("%s: report line %q: %v", pypaimonScript, l, err)
		}
	}
	if r.Elapsed <= 0 || r.ReadBack != r.DistinctKeys {
		return r, fmt.Errorf("%s: bad report %+v", pypaimonScript, r)
	}
	return r, nil
}

// distinctKeys counts the distinct (dt, id) keys of the input: the rows a PK table over it reads back.
func distinctKeys(ctx context.Context, paths []string) (int64, error) {
	seen := map[string]struct{}{}
	err := ReadInput(ctx, paths, func(rec arrow.RecordBatch) error {
		ids, dts := rec.Column(0).(*array.Int64), rec.Column(7).(*array.String)
		for i := 0; i < int(rec.NumRows()); i++ {
			seen[dts.Value(i)+"\x00"+strconv.FormatInt(ids.Value(i), 10)] = struct{}{}
		}
		return nil
	})
	return int64(len(seen)), err
}

// BenchmarkPeers runs lakeload pk and the pypaimon peer interleaved, b.N rounds each, and reports
// pk-rows/s, pypaimon-rows/s (the script's own timing: create + read + write + commit, no interpreter
// start-up), pypaimon-wall-rows/s (the whole subprocess), pypaimon-startup-s (mean) and the ratios
// lakeload/pypaimon and lakeload/pypaimon-wall. Skipped when no Python with pypaimon is found.
func BenchmarkPeers(b *testing.B) {
	py, err := findPython()
	if err != nil {
		b.Skip(err)
	}
	ctx := context.Background()
	pk := scenarios[1]
	if pk.name != "pk" {
		b.Fatalf("scenarios[1] is %q, want pk", pk.name)
	}
	var pkTime, wall time.Duration
	var pyElapsed, pyStartup float64
	for i := 0; i < b.N; i++ {
		d, _ := runOnce(b, ctx, pk)
		pkTime += d
		b.StopTimer()
		dir, err := os.MkdirTemp("", "lakeload-bench-peer-")
		if err != nil {
			b.Fatal(err)
		}
		r, err := runPypaimon(ctx, py, inputPaths, dir)
		os.RemoveAll(dir)
		if err != nil {
			b.Fatal(err)
		}
		if r.Rows != int64(*benchRows) {
			b.Fatalf("pypaimon wrote %d rows, want %d", r.Rows, *benchRows)
		}
		b.StartTimer()
		pyElapsed += r.Elapsed
		pyStartup += r.Startup
		wall += r.wall
	}
	rows := float64(*benchRows) * float64(b.N)
	pkRate, pyRate, wallRate := rows/pkTime.Seconds(), rows/pyElapsed, rows/wall.Seconds()
	b.ReportMetric(pkRate, "pk-rows/s")
	b.ReportMetric(pyRate, "pypaimon-rows/s")
	b.ReportMetric(wallRate, "pypaimon-wall-rows/s")
	b.ReportMetric(pyStartup/float64(b.N), "pypaimon-startup-s")
	b.ReportMetric(pkRate/pyRate, "lakeload/pypaimon")
	b.ReportMetric(pkRate/wallRate, "lakeload/pypaimon-wall")
	b.ReportMetric(0, "ns/op") // the sum of two writers says nothing
}

// TestPypaimonPeerSmoke runs the peer script on a small input: it writes every row and its table reads
// back exactly the distinct (dt, id) keys counted here in Go. Skipped without Python/pypaimon.
func TestPypaimonPeerSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	py, err := findPython()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	const rows = 5000
	paths, err := Generate(in, rows)
	if err != nil {
		t.Fatal(err)
	}
	want, err := distinctKeys(context.Background(), paths)
	if err != nil {
		t.Fatal(err)
	}
	if want >= rows || want == 0 {
		t.Fatalf("input has %d distinct keys of %d rows: the generator no longer makes updates", want, rows)
	}
	r, err := runPypaimon(context.Background(), py, paths, filepath.Join(dir, "wh"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Rows != rows || r.ReadBack != want {
		t.Errorf("pypaimon wrote %d rows (want %d), reads back %d (want %d)", r.Rows, rows, r.ReadBack, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "wh", "db.db", "t", "snapshot", "snapshot-1")); err != nil {
		t.Errorf("pypaimon committed no snapshot 1: %v", err)
	}
}

// TestPypaimonRustPeerSmoke runs the peer script with BENCH_WRITER=rust (pypaimon + its Rust writer) on a small
// input into a PK and an append table, given a relative warehouse path (issue 18 saw the Rust path fall back to
// Python on one; the script makes it absolute — with pypaimon 2.1.0 + pypaimon-rust 0.4.0 a relative one also
// worked): every row lands and every data file says created_by parquet-rs, checked by the script and here. Skipped, naming the install step, when the bench venv lacks pypaimon-rust (CI does not install
// it; `make bench` does and requires the peer).
func TestPypaimonRustPeerSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	py := DefaultBenchPython()
	if _, err := rustVersion(context.Background(), py); err != nil {
		t.Skipf("pypaimon-rust peer not installed (make bench-peers installs it): %v", err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	const rows = 5000
	paths, err := Generate(in, rows)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"pk", "append"} {
		wh := filepath.Join(dir, "wh-"+mode)
		rel, err := filepath.Rel(".", wh)
		if err != nil {
			rel = wh
		}
		c, err := runChild(context.Background(), []string{"BENCH_MODE=" + mode, "BENCH_WRITER=rust"}, false, false, 0, py,
			append([]string{"-u", pypaimonScript, rel, "0"}, paths...)...)
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		nums, strs, err := jsonReport(pypaimonScript, c)
		if err != nil || len(nums) != 2 {
			t.Fatalf("%s: report %v: %v", mode, c.Lines, err)
		}
		if nums[0]["rows"] != rows || nums[1]["read_back"] != nums[1]["distinct_keys"] || nums[1]["data_files"] < 8 {
			t.Errorf("%s: report %v", mode, c.Lines)
		}
		if cb := strs[1]["created_by"]; !strings.HasPrefix(cb, "parquet-rs") || strings.Contains(cb, ";") {
			t.Errorf("%s: data files written by %q, want parquet-rs only", mode, cb)
		}
	}
}
