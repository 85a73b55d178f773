package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// scenario runs one scenario's tools, lakeload first, each once.
func (r *runner) scenario(ctx context.Context, name string, round int) error {
	switch name {
	case "append", "pk", "append-unaware":
		return r.writeScenario(ctx, name, round)
	case "text-csv", "text-jsonl":
		return r.textScenario(ctx, name, round)
	case "load":
		return r.loadScenario(ctx, round)
	case "resume":
		return r.resumeScenario(ctx, round)
	case "scan", "scan-raw":
		return r.scanScenario(ctx, name, round)
	}
	return fmt.Errorf("unknown scenario %q", name)
}

// Table layouts of the bench table db.t (createTable): partition dt, bucket 8, parquet + zstd, and
const (
	layoutPK      = "pk"             // primary key (dt, id)
	layoutAppend  = "append"         // no primary key, bucket-key id
	layoutUnaware = "append-unaware" // no primary key, bucket -1 (bucket-unaware append table)
)

// layoutOf is the table layout of a write scenario.
func layoutOf(scenario string) string {
	switch scenario {
	case "append", "text-csv", "text-jsonl":
		return layoutAppend
	case "append-unaware":
		return layoutUnaware
	}
	return layoutPK
}

// createTable creates db.t in warehouse with lakeload (untimed), PK or append, like bench/lakeload_test.go.
func (r *runner) createTable(ctx context.Context, warehouse string, pk bool) error {
	if pk {
		return r.createLayout(ctx, warehouse, layoutPK)
	}
	return r.createLayout(ctx, warehouse, layoutAppend)
}

// createLayout creates db.t in warehouse with lakeload (untimed) in one of the table layouts.
func (r *runner) createLayout(ctx context.Context, warehouse, layout string) error {
	bucket := "8"
	if layout == layoutUnaware {
		bucket = "-1"
	}
	args := []string{"table", "create", "--warehouse", warehouse, "--table", "db.t", "--partition-key", "dt",
		"--option", "bucket=" + bucket, "--option", "file.format=parquet", "--option", "file.compression=zstd"}
	for _, c := range TableColumns {
		args = append(args, "--column", c[0]+" "+c[1])
	}
	switch layout {
	case layoutPK:
		args = append(args, "--primary-key", "dt,id")
	case layoutAppend:
		args = append(args, "--option", "bucket-key=id")
	}
	_, err := runChild(ctx, nil, true, false, 0, r.cfg.Lakeload, args...)
	return err
}

// lakeloadWrite runs `lakeload write` of the input into a new table and returns its measure and warehouse.
// Tool lakeload-before runs the baseline binary, lakeload-gomaxprocs1 the binary with GOMAXPROCS=1.
func (r *runner) lakeloadWrite(ctx context.Context, scenario, tool string, round int, pk bool) (Measure, string, error) {
	layout := layoutAppend
	if pk {
		layout = layoutPK
	}
	return r.lakeloadWriteFrom(ctx, scenario, tool, round, layout, filepath.Join(filepath.Dir(r.inputs[0]), "*.parquet"), r.inBytes)
}

// lakeloadWriteFrom is lakeloadWrite of the files matching from (inBytes in all) into a table of layout.
func (r *runner) lakeloadWriteFrom(ctx context.Context, scenario, tool string, round int, layout, from string, inBytes int64) (Measure, string, error) {
	bin := r.cfg.Lakeload
	if tool == "lakeload-before" {
		bin = r.cfg.Baseline
	}
	var env []string
	if tool == "lakeload-gomaxprocs1" {
		env = []string{"GOMAXPROCS=1"}
	}
	wh, err := r.newWarehouse()
	if err != nil {
		return Measure{}, "", err
	}
	if err := r.createLayout(ctx, wh, layout); err != nil {
		return Measure{}, "", err
	}
	c, err := runChild(ctx, env, true, false, 0, bin, "write", "--warehouse", wh, "--table", "db.t", "--from", from)
	if err != nil {
		return Measure{}, "", err
	}
	return Measure{Scenario: scenario, Tool: tool, Round: round, Rows: int64(r.cfg.Rows), InBytes: inBytes,
		Elapsed: c.Wall, Usage: c.Usage, SpanCPU: c.CPU}, wh, nil
}

// writeScenario: lakeload write (also with GOMAXPROCS=1, and the baseline binary) vs the ceilings and each
// peer's one-commit batch write, PK or append.
func (r *runner) writeScenario(ctx context.Context, name string, round int) error {
	pk := name == "pk"
	layout := layoutOf(name)
	m, wh, err := r.lakeloadWriteFrom(ctx, name, "lakeload", round, layout, filepath.Join(filepath.Dir(r.inputs[0]), "*.parquet"), r.inBytes)
	if err != nil {
		return err
	}
	dict, files, err := dictColumns(wh)
	if err != nil {
		return fmt.Errorf("%s: lakeload's dictionary columns: %w", name, err)
	}
	m.Extra = map[string]float64{"data-files": float64(files), "data-MB": float64(tableDataBytes(wh)) / 1e6}
	r.add(m)
	r.note(fmt.Sprintf("%s: lakeload gave a dictionary to %s (read from its data files); the ceilings without -dict use the same columns.",
		name, strings.Join(dict, ", ")))
	os.RemoveAll(wh)
	tools := []string{"lakeload-gomaxprocs1"}
	if r.cfg.Baseline != "" {
		tools = append(tools, "lakeload-before")
	}
	for _, tool := range tools {
		m, wh, err := r.lakeloadWriteFrom(ctx, name, tool, round, layout, filepath.Join(filepath.Dir(r.inputs[0]), "*.parquet"), r.inBytes)
		if err != nil {
			return err
		}
		r.add(m)
		os.RemoveAll(wh)
	}
	if layout != layoutUnaware { // the ceilings' row groups follow the 64 files of the bucketed layouts
		if err := r.ceilings(ctx, name, round, pk, dict); err != nil {
			return err
		}
	}
	mode := "BENCH_MODE=" + layout
	for _, p := range r.cfg.Peers {
		if layout == layoutUnaware && (p == "ray" || p == "java") { // their scripts know the bucketed layouts only
			continue
		}
		wh, err := r.newWarehouse()
		if err != nil {
			return err
		}
		switch p {
		case "pypaimon", "pypaimon-rust", "ray":
			py, script, env := r.cfg.Python, "pypaimon_write.py", []string{mode}
			switch p {
			case "ray":
				py, script = r.cfg.BenchPy, "ray_write.py"
			case "pypaimon-rust": // the script proves the Rust writer ran (created_by parquet-rs) or fails
				py, env = r.cfg.BenchPy, append(env, "BENCH_WRITER=rust")
			}
			script = filepath.Join(r.cfg.Dir, "py", script)
			// The timed span ends at the first report line (the commit); the read-back check after it is not counted.
			c, rep, strs, err := r.pyWrite(ctx, env, py, script, wh, r.inputs)
			if err != nil {
				return err
			}
			m := Measure{Scenario: name, Tool: p, Round: round, Rows: int64(r.cfg.Rows), InBytes: r.inBytes,
				Elapsed: time.Duration(rep[0]["elapsed"] * 1e9), Usage: c.Usage, SpanCPU: time.Duration(rep[0]["cpu"] * 1e9),
				Extra: map[string]float64{"wall-to-commit-s": c.LineAt[0].Seconds(), "startup-s": rep[0]["startup"],
					"ray-init-s": rep[0]["init"], "ray-driver-cpu-s": rep[0]["driver_cpu"], "data-files": rep[1]["data_files"],
					"data-MB": float64(tableDataBytes(wh)) / 1e6}}
			if cb := strs[1]["created_by"]; cb != "" {
				r.rep.Versions[p+" data files"] = cb
			}
			r.add(m)
		case "java":
			kind := "append"
			if pk {
				kind = "pk"
			}
			c, err := runChild(ctx, nil, false, false, 0, "java", append([]string{"-Xmx4g", "-jar", r.cfg.JavaJar,
				"write", kind, wh, "2"}, r.inputs...)...)
			if err != nil {
				return err
			}
			rep, err := jsonLines("java peer", c)
			if err != nil {
				return err
			}
			if len(rep) != 2 {
				return fmt.Errorf("java peer: want 2 runs, got %v", c.Lines)
			}
			for i, tool := range []string{"java-cold", "java-warm"} {
				if int64(rep[i]["rows"]) != int64(r.cfg.Rows) {
					return fmt.Errorf("java peer wrote %v rows, want %d", rep[i]["rows"], r.cfg.Rows)
				}
				m := Measure{Scenario: name, Tool: tool, Round: round, Rows: int64(r.cfg.Rows), InBytes: r.inBytes,
					Elapsed: time.Duration(rep[i]["elapsed"] * 1e9), Usage: c.Usage,
					Extra: map[string]float64{"jvm-wall-s": c.Wall.Seconds()}}
				r.add(m)
			}
		}
		os.RemoveAll(wh)
	}
	return nil
}

// lakeloadLoad runs `lakeload load` (job bench) into warehouse wh; crashAt, when set, is LAKELOAD_CRASH_AT
// (point:window), where the process kills itself with SIGKILL.
func (r *runner) lakeloadLoad(ctx context.Context, wh string, inputs []string, commitRows int, crashAt string) (childRun, error) {
	args := []string{"load", "--warehouse", wh, "--table", "db.t", "--job", "bench",
		"--from", filepath.Join(filepath.Dir(inputs[0]), "*.parquet")}
	if commitRows > 0 {
		args = append(args, "--commit-rows", strconv.Itoa(commitRows))
	}
	var env []string
	if crashAt != "" {
		env = []string{"LAKELOAD_CRASH_AT=" + crashAt}
	}
	return runChild(ctx, env, true, crashAt != "", 0, r.cfg.Lakeload, args...)
}

// loadScenario: exactly-once `lakeload load` (a window per CommitRows rows) vs one-shot `lakeload write`, PK table.
func (r *runner) loadScenario(ctx context.Context, round int) error {
	m, wh, err := r.lakeloadWrite(ctx, "load", "lakeload-write", round, true)
	if err != nil {
		return err
	}
	r.add(m)
	os.RemoveAll(wh)
	if wh, err = r.newWarehouse(); err != nil {
		return err
	}
	defer os.RemoveAll(wh)
	if err := r.createTable(ctx, wh, true); err != nil {
		return err
	}
	c, err := r.lakeloadLoad(ctx, wh, r.inputs, r.cfg.CommitRows, "")
	if err != nil {
		return err
	}
	st, err := r.status(ctx, wh)
	if err != nil {
		return err
	}
	if !st.Done || st.RowsPublished != int64(r.cfg.Rows) {
		return fmt.Errorf("load: job not done or published %d rows, want %d", st.RowsPublished, r.cfg.Rows)
	}
	r.add(Measure{Scenario: "load", Tool: "lakeload-load", Round: round, Rows: int64(r.cfg.Rows), InBytes: r.inBytes,
		Elapsed: c.Wall, Usage: c.Usage, SpanCPU: c.CPU, Extra: map[string]float64{"windows": float64(len(st.Windows))}})
	return nil
}

// jobStatus is the part of `lakeload status --output json` the runner reads.
type jobStatus struct {
	Done          bool  `json:"done"`
	RowsPublished int64 `json:"rowsPublished"`
	Windows       []struct {
		Window   int64  `json:"window"`
		State    string `json:"state"`
		Attempts int    `json:"attempts"`
		Rows     int64  `json:"rows"`
	} `json:"windows"`
}

func (r *runner) status(ctx context.Context, wh string) (jobStatus, error) {
	c, err := runChild(ctx, nil, false, false, 0, r.cfg.Lakeload, "status", "--warehouse", wh, "--table", "db.t",
		"--job", "bench", "--output", "json")
	if err != nil {
		return jobStatus{}, err
	}
	var st jobStatus
	if err := json.Unmarshal([]byte(strings.Join(c.Lines, "\n")), &st); err != nil {
		return st, fmt.Errorf("lakeload status --output json: %v", err)
	}
	return st, nil
}

// resumeScenario: a clean `lakeload load` in ten windows, then the same load killed with SIGKILL once the window
// at 90% of the input has written its files, and resumed. Reports the extra wall time (also in windows of the clean run) and
// the rows of windows that had to be written again (attempts > 1 after the resume).
func (r *runner) resumeScenario(ctx context.Context, round int) error {
	windowRows := max(r.cfg.Rows/10, 1)
	run := func(crashAt string) (childRun, childRun, jobStatus, jobStatus, error) {
		wh, err := r.newWarehouse()
		if err != nil {
			return childRun{}, childRun{}, jobStatus{}, jobStatus{}, err
		}
		defer os.RemoveAll(wh)
		if err := r.createTable(ctx, wh, true); err != nil {
			return childRun{}, childRun{}, jobStatus{}, jobStatus{}, err
		}
		first, err := r.lakeloadLoad(ctx, wh, r.inputs, windowRows, crashAt)
		if err != nil {
			return first, childRun{}, jobStatus{}, jobStatus{}, err
		}
		atKill, err := r.status(ctx, wh)
		if err != nil {
			return first, childRun{}, atKill, jobStatus{}, err
		}
		var second childRun
		if !atKill.Done {
			if second, err = r.lakeloadLoad(ctx, wh, r.inputs, windowRows, ""); err != nil {
				return first, second, atKill, jobStatus{}, err
			}
		}
		final, err := r.status(ctx, wh)
		if err == nil && (!final.Done || final.RowsPublished != int64(r.cfg.Rows)) {
			err = fmt.Errorf("resume: job done=%v with %d rows published, want %d", final.Done, final.RowsPublished, r.cfg.Rows)
		}
		return first, second, atKill, final, err
	}
	clean, _, _, st, err := run("")
	if err != nil {
		return err
	}
	windows := len(st.Windows)
	if windows < 2 {
		return fmt.Errorf("resume: the clean load used %d window(s); need at least 2 (more rows)", windows)
	}
	// SIGKILL once the window holding the 90% mark has written its data files (LAKELOAD_CRASH_AT, cmd_load.go):
	// progress-based, so the kill lands at 90% however busy the machine is.
	crashWindow := st.Windows[min(windows*9/10, windows-1)].Window
	killed, resumed, atKill, final, err := run(fmt.Sprintf("task-written:%d", crashWindow))
	if err != nil {
		return err
	}
	if atKill.Done {
		return fmt.Errorf("resume: the job finished before the kill at window %d", crashWindow)
	}
	var redone int64
	for _, w := range final.Windows {
		if w.Attempts > 1 {
			redone += w.Rows
		}
	}
	total := killed.Wall + resumed.Wall
	perWindow := clean.Wall.Seconds() / float64(max(windows, 1))
	r.add(Measure{Scenario: "resume", Tool: "lakeload-clean", Round: round, Rows: int64(r.cfg.Rows), InBytes: r.inBytes,
		Elapsed: clean.Wall, Usage: clean.Usage, SpanCPU: clean.CPU, Extra: map[string]float64{"windows": float64(windows)}})
	r.add(Measure{Scenario: "resume", Tool: "lakeload-kill9+resume", Round: round, Rows: int64(r.cfg.Rows), InBytes: r.inBytes,
		Elapsed: total, Usage: Usage{Wall: total, CPU: killed.CPU + resumed.CPU, MaxRSS: max(killed.MaxRSS, resumed.MaxRSS)},
		SpanCPU: killed.CPU + resumed.CPU,
		Extra: map[string]float64{
			"rows-published-at-kill": float64(atKill.RowsPublished),
			"crash-window":           float64(crashWindow),
			"rows-rewritten":         float64(redone),
			"extra-s":                (total - clean.Wall).Seconds(),
			"extra-windows":          (total - clean.Wall).Seconds() / perWindow,
			"extra-cpu-windows":      (killed.CPU + resumed.CPU - clean.CPU).Seconds() / (clean.CPU.Seconds() / float64(max(windows, 1))),
			"window-rows":            float64(r.cfg.Rows) / float64(max(windows, 1)), // windows never split an input row group
		}})
	return nil
}

// rss: `lakeload load` at default settings on n freshly generated rows (the input is removed afterwards).
func (r *runner) rss(ctx context.Context, n int) error {
	in := filepath.Join(r.cfg.Work, fmt.Sprintf("in-rss-%d", n))
	if err := os.MkdirAll(in, 0o755); err != nil {
		return err
	}
	defer os.RemoveAll(in)
	paths, err := Generate(in, n)
	if err != nil {
		return fmt.Errorf("generate %d rows: %w", n, err)
	}
	wh, err := r.newWarehouse()
	if err != nil {
		return err
	}
	defer os.RemoveAll(wh)
	if err := r.createTable(ctx, wh, true); err != nil {
		return err
	}
	c, err := r.lakeloadLoad(ctx, wh, paths, 0, "")
	if err != nil {
		return err
	}
	st, err := r.status(ctx, wh)
	if err != nil {
		return err
	}
	if !st.Done || st.RowsPublished != int64(n) {
		return fmt.Errorf("rss load: done=%v, %d rows published, want %d", st.Done, st.RowsPublished, n)
	}
	r.add(Measure{Scenario: "rss", Tool: fmt.Sprintf("lakeload-load-%dM", n/1_000_000), Rows: int64(n),
		InBytes: fileBytes(paths), Elapsed: c.Wall, Usage: c.Usage, SpanCPU: c.CPU, Extra: map[string]float64{"windows": float64(len(st.Windows))}})
	return nil
}

// tableDataBytes is the size of db.t's data files in warehouse wh.
func tableDataBytes(wh string) int64 {
	files, _ := filepath.Glob(filepath.Join(wh, "db.db", "t", "*", "bucket-*", "*.parquet"))
	return fileBytes(files)
}

// pyWrite runs a Python write script (pypaimon_write.py, ray_write.py) into wh over inputs and checks
// its two report lines: the commit (every row written) and the read-back (every key read back).
func (r *runner) pyWrite(ctx context.Context, env []string, py, script, wh string, inputs []string) (childRun, []map[string]float64, []map[string]string, error) {
	c, err := runChild(ctx, env, false, false, 0, py,
		append([]string{"-u", script, wh, strconv.FormatInt(time.Now().UnixNano(), 10)}, inputs...)...)
	if err != nil {
		return c, nil, nil, err
	}
	rep, strs, err := jsonReport(script, c)
	if err != nil {
		return c, nil, nil, err
	}
	if len(rep) != 2 || int64(rep[0]["rows"]) != int64(r.cfg.Rows) || rep[1]["read_back"] != rep[1]["distinct_keys"] {
		return c, nil, nil, fmt.Errorf("%s: bad report %v", script, c.Lines)
	}
	return c, rep, strs, nil
}
