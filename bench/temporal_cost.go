package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// EnvRequireTemporal, when "1", turns a missing Temporal CLI into a test failure instead of a skip (as in job/temporal).
const EnvRequireTemporal = "LAKELOAD_REQUIRE_TEMPORAL"

// TemporalCostConfig configures MeasureTemporalCost.
type TemporalCostConfig struct {
	Rows    int // generated CSV rows
	Files   int // CSV input files
	Windows int // W of the many-window variants (--commit-rows Rows/W); the others run one window
	Runs    int // interleaved rounds of every variant
	Warmup  bool
	// Compaction is every load's --compaction (default "off": background compaction of the windows' small files
	// would be measured too, and it runs differently when a driver segment ends after each window).
	Compaction string
	// Lakeload is the binary measured; empty: `go build ./cmd/lakeload` from Root into Work.
	Lakeload string
	Root     string // repository root (for the build); empty: the current directory
	Temporal string // Temporal CLI; empty: TemporalCLI()
	Work     string // scratch directory (inputs, warehouses, the binary)
	Log      io.Writer
}

// TemporalVariant is one measured way of running the same load.
type TemporalVariant struct {
	Name           string
	Temporal       bool // `load --temporal` with one `lakeload worker --concurrency 1`, else in process
	Windows        int
	Parallelism    int // --parallelism: tasks per window
	SegmentWindows int // --segment-windows (0: one driver segment for the whole job)
}

// TemporalRun is one measured load: the `load` process's wall and CPU time (rusage), and the CPU the
// long-running worker and dev server spent meanwhile (/proc deltas; zero where /proc is missing).
type TemporalRun struct {
	Variant   string
	Round     int
	Wall      time.Duration
	LoadCPU   time.Duration
	WorkerCPU time.Duration
	ServerCPU time.Duration
	Rows      int64 // published rows, from `lakeload status --output json`
	Windows   int   // the job's windows, from the same status
	Tasks     int   // write tasks of its smallest window: min(splits, --parallelism)
}

// TemporalCostReport is the outcome of MeasureTemporalCost.
type TemporalCostReport struct {
	Config    TemporalCostConfig
	Variants  []TemporalVariant
	Runs      []TemporalRun
	Temporal  string // the CLI's version line
	InputSize int64
	Started   time.Time
}

// Variant names, for tests and the cost derivation.
const (
	VarInProcess1    = "in-process, 1 window"
	VarTemporal1     = "temporal, 1 window"
	VarInProcessW    = "in-process, W windows"
	VarTemporalW     = "temporal, W windows, one segment"
	VarTemporalWSeg1 = "temporal, W windows, --segment-windows 1"
	VarInProcessWP4  = "in-process, W windows, --parallelism 4"
	VarTemporalWP4   = "temporal, W windows, 4 tasks per window"
)

// temporalVariants is the measured set, in run order within a round.
func temporalVariants(w int) []TemporalVariant {
	return []TemporalVariant{
		{Name: VarInProcess1, Windows: 1, Parallelism: 1},
		{Name: VarTemporal1, Temporal: true, Windows: 1, Parallelism: 1},
		{Name: VarInProcessW, Windows: w, Parallelism: 1},
		{Name: VarTemporalW, Temporal: true, Windows: w, Parallelism: 1},
		{Name: VarTemporalWSeg1, Temporal: true, Windows: w, Parallelism: 1, SegmentWindows: 1},
		{Name: VarInProcessWP4, Windows: w, Parallelism: 4},
		{Name: VarTemporalWP4, Temporal: true, Windows: w, Parallelism: 4},
	}
}

// TemporalCLI returns the `temporal` binary: $LAKELOAD_TEMPORAL, else $LAKELOAD_CACHE/bin/temporal, else
// ~/.cache/lakeload/bin/temporal (`make temporal` installs it there), or an error saying how to get one.
func TemporalCLI() (string, error) {
	cands := []string{os.Getenv("LAKELOAD_TEMPORAL"), filepath.Join(cacheDir(), "bin", "temporal")}
	if h, err := os.UserHomeDir(); err == nil {
		cands = append(cands, filepath.Join(h, ".cache", "lakeload", "bin", "temporal"))
	}
	for _, c := range cands {
		if c != "" {
			if st, err := os.Stat(c); err == nil && !st.IsDir() {
				return c, nil
			}
		}
	}
	return "", errors.New("no Temporal CLI (run `make temporal`, or set LAKELOAD_TEMPORAL)")
}

// MeasureTemporalCost starts a Temporal dev server and one `lakeload worker --concurrency 1` (both kept for
// the whole measurement), generates the CSV input and runs every variant Runs times, interleaved, each into a
// fresh warehouse with its own job; every run must publish all rows or the measurement fails.
func MeasureTemporalCost(ctx context.Context, cfg TemporalCostConfig) (*TemporalCostReport, error) {
	if cfg.Rows <= 0 || cfg.Files <= 0 || cfg.Runs <= 0 || cfg.Windows < 2 {
		return nil, fmt.Errorf("temporal cost: need rows, files and runs > 0 and windows ≥ 2 (got rows %d, files %d, runs %d, windows %d)",
			cfg.Rows, cfg.Files, cfg.Runs, cfg.Windows)
	}
	if cfg.Rows%cfg.Files != 0 || cfg.Files%cfg.Windows != 0 {
		return nil, fmt.Errorf("temporal cost: -rows %d must be a multiple of -files %d, and -files a multiple of -windows %d "+
			"(a CSV file is one split: equal windows need whole, equal files)", cfg.Rows, cfg.Files, cfg.Windows)
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.Compaction == "" {
		cfg.Compaction = "off"
	}
	rep := &TemporalCostReport{Config: cfg, Variants: temporalVariants(cfg.Windows), Started: time.Now()}
	if cfg.Temporal == "" {
		bin, err := TemporalCLI()
		if err != nil {
			return nil, err
		}
		cfg.Temporal = bin
	}
	if out, err := exec.CommandContext(ctx, cfg.Temporal, "--version").Output(); err == nil {
		rep.Temporal = strings.TrimSpace(string(out))
	}
	if cfg.Lakeload == "" {
		cfg.Lakeload = filepath.Join(cfg.Work, "lakeload")
		fmt.Fprintln(cfg.Log, "building lakeload")
		cmd := exec.CommandContext(ctx, "go", "build", "-o", cfg.Lakeload, "./cmd/lakeload")
		cmd.Dir = cfg.Root
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go build ./cmd/lakeload: %v: %s", err, tail(string(out), 1000))
		}
	}
	in := filepath.Join(cfg.Work, "in")
	n, err := GenerateCSV(in, cfg.Rows, cfg.Files)
	if err != nil {
		return nil, fmt.Errorf("generate CSV input in %s: %w", in, err)
	}
	rep.InputSize = n

	srv, err := startDevServer(ctx, cfg.Temporal, cfg.Work)
	if err != nil {
		return nil, err
	}
	defer srv.stop()
	queue := "cost-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	worker, err := startBackground(ctx, filepath.Join(cfg.Work, "worker.log"), cfg.Lakeload,
		"worker", "--temporal", srv.hostPort, "--task-queue", queue, "--concurrency", "1")
	if err != nil {
		return nil, fmt.Errorf("start lakeload worker: %w", err)
	}
	defer worker.stop()

	m := &costRunner{cfg: cfg, rep: rep, in: in, hostPort: srv.hostPort, queue: queue, worker: worker, server: srv.proc}
	if cfg.Warmup { // connections, caches and the server's first workflows: not measured
		for _, v := range rep.Variants[:2] {
			if _, err := m.run(ctx, v, 0); err != nil {
				return nil, fmt.Errorf("warm-up: %w", err)
			}
		}
	}
	for round := 1; round <= cfg.Runs; round++ {
		for _, v := range rep.Variants {
			r, err := m.run(ctx, v, round)
			if err != nil {
				return rep, err
			}
			rep.Runs = append(rep.Runs, r)
			fmt.Fprintf(cfg.Log, "round %d  %-42s %6.2fs  load cpu %5.2fs  worker cpu %5.2fs  server cpu %5.2fs\n",
				round, v.Name, r.Wall.Seconds(), r.LoadCPU.Seconds(), r.WorkerCPU.Seconds(), r.ServerCPU.Seconds())
		}
	}
	return rep, nil
}

// costRunner runs the variants against one server and worker.
type costRunner struct {
	cfg             TemporalCostConfig
	rep             *TemporalCostReport
	in              string
	hostPort, queue string
	worker, server  *background
	seq             int
}

// run measures one load of variant v into a fresh warehouse and checks that it published every row.
func (m *costRunner) run(ctx context.Context, v TemporalVariant, round int) (TemporalRun, error) {
	m.seq++
	wh := filepath.Join(m.cfg.Work, fmt.Sprintf("wh-%03d", m.seq))
	job := fmt.Sprintf("cost-%03d", m.seq)
	if err := os.MkdirAll(wh, 0o755); err != nil {
		return TemporalRun{}, err
	}
	defer os.RemoveAll(wh)
	create := []string{"table", "create", "--warehouse", wh, "--table", "db.t"}
	for _, c := range csvColumns {
		create = append(create, "--column", c[0]+" "+c[1])
	}
	if _, err := runChild(ctx, nil, true, false, 0, m.cfg.Lakeload, create...); err != nil {
		return TemporalRun{}, err
	}
	args := []string{"load", "--warehouse", wh, "--table", "db.t", "--job", job,
		"--from", filepath.Join(m.in, "*.csv"), "--commit-rows", strconv.Itoa(m.cfg.Rows / v.Windows),
		"--parallelism", strconv.Itoa(v.Parallelism), "--compaction", m.cfg.Compaction}
	if v.Temporal {
		args = append(args, "--temporal", m.hostPort, "--task-queue", m.queue)
		if v.SegmentWindows > 0 {
			args = append(args, "--segment-windows", strconv.Itoa(v.SegmentWindows))
		}
	}
	w0, s0 := m.worker.cpu(), m.server.cpu()
	c, err := runChild(ctx, nil, true, false, 0, m.cfg.Lakeload, args...)
	if err != nil {
		return TemporalRun{}, fmt.Errorf("%s (round %d): %w", v.Name, round, err)
	}
	r := TemporalRun{Variant: v.Name, Round: round, Wall: c.Wall, LoadCPU: c.CPU,
		WorkerCPU: m.worker.cpu() - w0, ServerCPU: m.server.cpu() - s0}
	st, err := m.status(ctx, wh, job)
	if err != nil {
		return r, fmt.Errorf("%s (round %d): %w", v.Name, round, err)
	}
	r.Rows, r.Windows = st.RowsPublished, len(st.Windows)
	for i, w := range st.Windows {
		if t := min(w.Splits, v.Parallelism); i == 0 || t < r.Tasks {
			r.Tasks = t
		}
	}
	if r.Windows != v.Windows {
		return r, fmt.Errorf("%s (round %d): job %s made %d windows, want %d (are the CSV lines longer than 64 bytes?)",
			v.Name, round, job, r.Windows, v.Windows)
	}
	if !st.Done || st.RowsPublished != int64(m.cfg.Rows) {
		return r, fmt.Errorf("%s (round %d): job %s in %s is done=%v with %d rows published, want %d",
			v.Name, round, job, wh, st.Done, st.RowsPublished, m.cfg.Rows)
	}
	return r, nil
}

// status reads `lakeload status --output json` of job in warehouse wh.
func (m *costRunner) status(ctx context.Context, wh, job string) (costStatus, error) {
	c, err := runChild(ctx, nil, false, false, 0, m.cfg.Lakeload, "status", "--warehouse", wh, "--table", "db.t",
		"--job", job, "--output", "json")
	if err != nil {
		return costStatus{}, err
	}
	var st costStatus
	if err := json.Unmarshal([]byte(strings.Join(c.Lines, "\n")), &st); err != nil {
		return st, fmt.Errorf("lakeload status --output json of job %s: %v", job, err)
	}
	return st, nil
}

// costStatus is the part of `lakeload status --output json` the measurement checks.
type costStatus struct {
	Done          bool  `json:"done"`
	RowsPublished int64 `json:"rowsPublished"`
	Windows       []struct {
		Splits int   `json:"splits"`
		Rows   int64 `json:"rows"`
	} `json:"windows"`
}

// background is a long-running child (the dev server, the worker) whose output goes to a log file.
type background struct {
	cmd    *exec.Cmd
	log    string
	exited chan struct{}
}

// startBackground starts name args with stdout and stderr appended to logPath.
func startBackground(ctx context.Context, logPath, name string, args ...string) (*background, error) {
	f, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	b := &background{cmd: cmd, log: logPath, exited: make(chan struct{})}
	go func() { _ = cmd.Wait(); f.Close(); close(b.exited) }()
	return b, nil
}

// stop kills the process (by its own pid) and waits for it.
func (b *background) stop() {
	_ = b.cmd.Process.Kill()
	<-b.exited
}

// cpu is the process's CPU time so far (utime + stime of /proc/<pid>/stat, in USER_HZ = 100 ticks per
// second), 0 where /proc is not available.
func (b *background) cpu() time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", b.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// Fields after the command name "(…)": state is field 3, utime 14, stime 15.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(ut+st) * (time.Second / 100)
}

// devServer is a `temporal server start-dev` child on a free local port.
type devServer struct {
	proc     *background
	hostPort string
}

// startDevServer starts the dev server (in memory, headless) and waits until its frontend accepts connections
// and the default namespace answers.
func startDevServer(ctx context.Context, cli, work string) (*devServer, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	hostPort := "127.0.0.1:" + strconv.Itoa(port)
	logPath := filepath.Join(work, "temporal.log")
	p, err := startBackground(ctx, logPath, cli, "server", "start-dev", "--headless", "--ip", "127.0.0.1",
		"--port", strconv.Itoa(port), "--log-level", "error")
	if err != nil {
		return nil, fmt.Errorf("start the Temporal dev server (%s): %w", cli, err)
	}
	s := &devServer{proc: p, hostPort: hostPort}
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case <-p.exited:
			return nil, fmt.Errorf("the Temporal dev server (%s) exited at start; its log: %s", cli, logTail(logPath))
		default:
		}
		probe := exec.CommandContext(ctx, cli, "operator", "namespace", "describe", "--address", hostPort, "--namespace", "default")
		if probe.Run() == nil {
			return s, nil
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("the Temporal dev server at %s did not answer within 60s; its log: %s", hostPort, logTail(logPath))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (s *devServer) stop() { s.proc.stop() }

// freePort returns a TCP port free on 127.0.0.1 right now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port for the Temporal dev server: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func logTail(path string) string {
	b, _ := os.ReadFile(path)
	return tail(string(b), 1500)
}

// csvColumns is the generated CSV's table schema (an append table: no primary key, no partition).
var csvColumns = [][2]string{
	{"id", "BIGINT NOT NULL"}, {"name", "STRING"}, {"city", "STRING"}, {"v", "DOUBLE"}, {"ts", "BIGINT"}, {"dt", "STRING"},
}

// GenerateCSV writes rows deterministic rows as files CSV files (with a header) in dir and returns their total
// size in bytes. Row i has id i; the other columns derive from i. Lines are padded (in name) to 64 bytes, the
// row size lakeload's planner assumes for text files, so that windows of --commit-rows hold exactly that many
// rows (up to ids of 8 digits).
func GenerateCSV(dir string, rows, files int) (int64, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	var total int64
	per := (rows + files - 1) / files
	for f, start := 0, 0; start < rows; f, start = f+1, start+per {
		p := filepath.Join(dir, fmt.Sprintf("in-%03d.csv", f))
		n, err := writeCSV(p, start, min(start+per, rows))
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

func writeCSV(path string, start, end int) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "id,name,city,v,ts,dt")
	const lineBytes = 64
	for i := start; i < end; i++ {
		name := "name-" + strconv.Itoa(i%9973)
		rest := fmt.Sprintf(",%s,%d.%02d,%d,2026-11-%02d\n", cities[i%len(cities)], i%1000, i%100,
			1_764_460_800_000+int64(i)*37, 1+i%28)
		id := strconv.Itoa(i) + ","
		if pad := lineBytes - len(id) - len(name) - len(rest); pad > 0 {
			name += strings.Repeat("x", pad)
		}
		w.WriteString(id + name + rest)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return 0, err
	}
	return st.Size(), f.Close()
}
