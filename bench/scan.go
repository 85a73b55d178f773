package bench

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/table"
)

// scanScenario measures reading the whole PK table into Arrow. Scenario "scan" reads the merge-on-read table
// issue 5 means: `lakeload load` in windows of Rows/8 rows with --compaction off, so every bucket holds several
// overlapping sorted runs (20% of ids are updates) and readers must merge by key; "scan-raw" reads a table
// written by one `lakeload write` (one file per bucket, nothing to merge). Both setups are untimed. Timed:
// lakeload scan --output arrow (an Arrow IPC stream, the work comparable to pypaimon's to_arrow; written to a
// file whose rows and id sum are checked afterwards, untimed), lakeload scan --output jsonl to /dev/null (tool
// lakeload-jsonl), the baseline binary's --output arrow (lakeload-before), pypaimon to_arrow and the Java
// peer's reader. Every tool must read the same number of rows; lakeload and pypaimon also the same sum of ids.
func (r *runner) scanScenario(ctx context.Context, scenario string, round int) error {
	var wh string
	if scenario == "scan-raw" {
		_, w, err := r.lakeloadWrite(ctx, "scan-setup", "lakeload", round, true)
		if err != nil {
			return err
		}
		wh = w
	} else {
		w, err := r.newWarehouse()
		if err != nil {
			return err
		}
		wh = w
		if err := r.createTable(ctx, wh, true); err != nil {
			return err
		}
		args := []string{"load", "--warehouse", wh, "--table", "db.t", "--job", "bench", "--compaction", "off",
			"--commit-rows", fmt.Sprint(max(r.cfg.Rows/8, 1)), "--from", filepath.Join(filepath.Dir(r.inputs[0]), "*.parquet")}
		if _, err := runChild(ctx, nil, true, false, 0, r.cfg.Lakeload, args...); err != nil {
			os.RemoveAll(wh)
			return err
		}
	}
	defer os.RemoveAll(wh)
	layout, err := tableLayout(ctx, wh)
	if err != nil {
		return err
	}
	if scenario == "scan" && layout["max-runs-per-bucket"] < 2 {
		return fmt.Errorf("scan: the loaded table has at most %.0f sorted run per bucket; the merge-on-read scan needs several (more rows)", layout["max-runs-per-bucket"])
	}
	arrowRun := func(bin, tool string) (int64, int64, error) {
		out := filepath.Join(wh, "scan.arrows")
		defer os.Remove(out)
		c, err := runChild(ctx, []string{"LAKELOAD_BENCH_OUT=" + out}, true, false, 0, "sh", "-c", `exec "$0" "$@" > "$LAKELOAD_BENCH_OUT"`,
			bin, "scan", "--warehouse", wh, "--table", "db.t", "--output", "arrow")
		if err != nil {
			return 0, 0, err
		}
		rows, sum, err := arrowStreamStats(out)
		if err != nil {
			return 0, 0, fmt.Errorf("%s scan --output arrow: %w", tool, err)
		}
		if rows == 0 {
			return 0, 0, fmt.Errorf("%s scan: %w", tool, errNoRows)
		}
		m := Measure{Scenario: scenario, Tool: tool, Round: round, Rows: rows, Elapsed: c.Wall, Usage: c.Usage, SpanCPU: c.CPU}
		if tool == "lakeload" {
			m.Extra = layout
		}
		r.add(m)
		return rows, sum, nil
	}
	rows, idSum, err := arrowRun(r.cfg.Lakeload, "lakeload")
	if err != nil {
		return err
	}
	c, err := runChild(ctx, nil, true, false, 0, r.cfg.Lakeload, "scan", "--warehouse", wh, "--table", "db.t", "--output", "jsonl")
	if err != nil {
		return err
	}
	if int64(c.NLines) != rows {
		return fmt.Errorf("lakeload scan --output jsonl printed %d rows, --output arrow %d", c.NLines, rows)
	}
	r.add(Measure{Scenario: scenario, Tool: "lakeload-jsonl", Round: round, Rows: rows, Elapsed: c.Wall, Usage: c.Usage, SpanCPU: c.CPU})
	if r.cfg.Baseline != "" {
		n, sum, err := arrowRun(r.cfg.Baseline, "lakeload-before")
		if err != nil {
			return err
		}
		if n != rows || sum != idSum {
			return fmt.Errorf("baseline lakeload scan read %d rows (id sum %d), lakeload %d (id sum %d)", n, sum, rows, idSum)
		}
	}
	for _, p := range r.cfg.Peers {
		switch p {
		case "pypaimon", "ray": // Ray's read is pypaimon's: one Python reader is enough
			if p == "ray" {
				continue
			}
			script := filepath.Join(r.cfg.Dir, "py", "pypaimon_scan.py")
			c, err := runChild(ctx, nil, false, false, 0, r.cfg.Python, "-u", script, wh, "db.t", "1")
			if err != nil {
				return err
			}
			rep, err := jsonLines(script, c)
			if err != nil {
				return err
			}
			if len(rep) != 1 || int64(rep[0]["rows"]) != rows || int64(rep[0]["id_sum"]) != idSum {
				return fmt.Errorf("%s read %v, lakeload scan read %d rows with id sum %d", script, c.Lines, rows, idSum)
			}
			r.add(Measure{Scenario: scenario, Tool: "pypaimon", Round: round, Rows: rows,
				Elapsed: time.Duration(rep[0]["elapsed"] * 1e9), Usage: c.Usage, SpanCPU: time.Duration(rep[0]["cpu"] * 1e9)})
		case "java":
			c, err := runChild(ctx, nil, false, false, 0, "java", "-Xmx4g", "-jar", r.cfg.JavaJar, "scan",
				filepath.Join(wh, "db.db", "t"), "2")
			if err != nil {
				return err
			}
			rep, err := jsonLines("java peer", c)
			if err != nil {
				return err
			}
			for i, tool := range []string{"java-cold", "java-warm"} {
				if len(rep) != 2 || int64(rep[i]["rows"]) != rows {
					return fmt.Errorf("java peer read %v, lakeload scan printed %d rows", c.Lines, rows)
				}
				r.add(Measure{Scenario: scenario, Tool: tool, Round: round, Rows: rows,
					Elapsed: time.Duration(rep[i]["elapsed"] * 1e9), Usage: c.Usage})
			}
		}
	}
	return nil
}

// tableLayout describes how merge-heavy the bench table in warehouse wh is: data files and sorted runs
// (Paimon's count: each level-0 file, plus each non-empty higher level) per bucket, mean and maximum.
func tableLayout(ctx context.Context, wh string) (map[string]float64, error) {
	t, err := table.Open(ctx, local.New(), filepath.Join(wh, "db.db", "t"), "db.t")
	if err != nil {
		return nil, err
	}
	plan, err := read.Scan(ctx, t, read.ScanOptions{})
	if err != nil {
		return nil, err
	}
	var files, runs, maxRuns int
	for _, s := range plan.Splits {
		levels := map[int32]bool{}
		n := 0
		for _, f := range s.Files {
			if f.Level == 0 {
				n++
			} else if !levels[f.Level] {
				levels[f.Level] = true
				n++
			}
		}
		files += len(s.Files)
		runs += n
		maxRuns = max(maxRuns, n)
	}
	b := float64(max(len(plan.Splits), 1))
	return map[string]float64{"buckets": float64(len(plan.Splits)), "files-per-bucket": float64(files) / b,
		"runs-per-bucket": float64(runs) / b, "max-runs-per-bucket": float64(maxRuns)}, nil
}

// arrowStreamStats counts the rows of the Arrow IPC stream in file path and sums its BIGINT column id.
func arrowStreamStats(path string) (rows, idSum int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	rd, err := ipc.NewReader(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return 0, 0, fmt.Errorf("%s is not an Arrow IPC stream: %w", path, err)
	}
	defer rd.Release()
	for rd.Next() {
		rec := rd.RecordBatch()
		rows += rec.NumRows()
		idx := rec.Schema().FieldIndices("id")
		if len(idx) != 1 {
			return 0, 0, fmt.Errorf("%s: no single column id", path)
		}
		ids, ok := rec.Column(idx[0]).(*array.Int64)
		if !ok {
			return 0, 0, fmt.Errorf("%s: column id is %s, want int64", path, rec.Column(idx[0]).DataType())
		}
		for _, v := range ids.Int64Values() {
			idSum += v
		}
	}
	if err := rd.Err(); err != nil {
		return 0, 0, fmt.Errorf("%s: %w", path, err)
	}
	return rows, idSum, nil
}
