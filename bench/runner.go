package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Config is one invocation of the bench runner (cmd/benchrun): every scenario for lakeload and each peer,
// interleaved, Rounds times, on Rows generated input rows.
type Config struct {
	Rows       int      // generated input rows
	Rounds     int      // rounds of every scenario
	Scenarios  []string // subset of AllScenarios
	Peers      []string // subset of AllPeers; unavailable peers are an error
	RSSRows    []int    // input sizes of the rss scenario (e.g. 10M, 50M), each run once
	CommitRows int      // rows per window of `lakeload load` in the load scenario (default 1M)
	Work       string   // scratch directory (input, warehouses); removed by the caller
	Lakeload   string   // lakeload binary; built into Work when empty
	Baseline   string   // optional second lakeload binary ("before" a change), measured as lakeload-before in append, pk and scan
	Ceilings   []string // subset of AllCeilings measured in append and pk (nil: none; the runner's default is all)
	Python     string   // Python with pypaimon (pypaimon peer, pyarrow ceiling); found like the Go peer test when empty
	BenchPy    string   // Python with Ray Data, pypaimon and pypaimon-rust (ray and pypaimon-rust peers, parquet-rs ceiling); $LAKELOAD_CACHE/bench-venv when empty
	JavaJar    string   // the Java peer jar (bench/javapeer); $LAKELOAD_CACHE/bench-javapeer/, else bench/javapeer/target/

	Dir string // the bench package directory (scripts are found relative to it)
	Log io.Writer
}

// AllScenarios are the runner's scenarios in run order.
var AllScenarios = []string{"append", "append-unaware", "pk", "load", "resume", "scan", "scan-raw", "text-csv", "text-jsonl", "rss"}

// AllPeers are the peers the runner can drive.
var AllPeers = []string{"pypaimon", "pypaimon-rust", "ray", "java"}

// AllCeilings are the Parquet encoders the runner measures as ceilings in append and pk (ceiling.go).
var AllCeilings = []string{"arrow-go", "pyarrow", "parquet-rs"}

// Measure is one measured run of one tool in one scenario.
type Measure struct {
	Scenario string
	Tool     string // lakeload, lakeload-write, pypaimon, ray, java-cold, java-warm, …
	Round    int
	Rows     int64         // input rows (or rows read, for scan)
	InBytes  int64         // input file bytes
	Elapsed  time.Duration // the timed span (see the tool's note)
	Usage                  // of the whole child process
	SpanCPU  time.Duration // CPU seconds of the timed span alone, where known (0: unknown)
	LoadAvg  float64       // the machine's 1-minute load average when the run ended (/proc/loadavg)
	Extra    map[string]float64
}

// loadAvg is the 1-minute load average (0 when /proc/loadavg cannot be read).
func loadAvg() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var l float64
	fmt.Sscan(string(b), &l)
	return l
}

// RowsPerSec is Rows / Elapsed.
func (m Measure) RowsPerSec() float64 { return float64(m.Rows) / m.Elapsed.Seconds() }

// Report is everything one invocation measured.
type Report struct {
	Config   Config
	Started  time.Time
	Finished time.Time
	Input    int64 // input bytes
	Versions map[string]string
	Measures []Measure
	Notes    []string
}

func (c *Config) logf(format string, a ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, format+"\n", a...)
	}
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Run executes the configured scenarios and returns their measurements.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Rounds <= 0 {
		cfg.Rounds = 1
	}
	if cfg.CommitRows <= 0 {
		cfg.CommitRows = 1_000_000
	}
	for _, s := range cfg.Scenarios {
		if !has(AllScenarios, s) {
			return nil, fmt.Errorf("unknown scenario %q (want some of %v)", s, AllScenarios)
		}
	}
	for _, p := range cfg.Peers {
		if !has(AllPeers, p) {
			return nil, fmt.Errorf("unknown peer %q (want some of %v)", p, AllPeers)
		}
	}
	for _, c := range cfg.Ceilings {
		if !has(AllCeilings, c) {
			return nil, fmt.Errorf("unknown ceiling %q (want some of %v)", c, AllCeilings)
		}
	}
	rep := &Report{Config: cfg, Started: time.Now(), Versions: map[string]string{}}
	r := &runner{cfg: &rep.Config, rep: rep}
	if err := r.setup(ctx); err != nil {
		return nil, err
	}
	if err := r.generate(cfg.Rows); err != nil {
		return nil, err
	}
	for round := 1; round <= cfg.Rounds; round++ {
		for _, s := range AllScenarios {
			if !has(cfg.Scenarios, s) || s == "rss" {
				continue
			}
			cfg.logf("round %d: %s", round, s)
			if err := r.scenario(ctx, s, round); err != nil {
				return rep, fmt.Errorf("round %d, scenario %s: %w", round, s, err)
			}
		}
	}
	if has(cfg.Scenarios, "rss") {
		for _, n := range cfg.RSSRows {
			cfg.logf("rss: %d rows", n)
			if err := r.rss(ctx, n); err != nil {
				return rep, fmt.Errorf("scenario rss at %d rows: %w", n, err)
			}
		}
	}
	rep.Finished = time.Now()
	return rep, nil
}

// runner holds the state of one Run.
type runner struct {
	cfg     *Config
	rep     *Report
	inputs  []string
	inBytes int64
	seq     int
}

// setup builds lakeload and finds the peers' interpreters and jar.
func (r *runner) setup(ctx context.Context) error {
	c := r.cfg
	if c.Dir == "" {
		c.Dir = "."
	}
	if c.Lakeload == "" {
		c.Lakeload = filepath.Join(c.Work, "lakeload")
		cmd := exec.CommandContext(ctx, "go", "build", "-o", c.Lakeload, "./cmd/lakeload")
		cmd.Dir = filepath.Join(c.Dir, "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build ./cmd/lakeload: %v: %s", err, out)
		}
	}
	if (has(c.Peers, "pypaimon") || has(c.Ceilings, "pyarrow")) && c.Python == "" {
		py, err := findPython()
		if err != nil {
			return fmt.Errorf("peer pypaimon / pyarrow ceiling: %w (set LAKELOAD_PY or run make py-oracle)", err)
		}
		c.Python = py
	}
	if c.BenchPy == "" {
		c.BenchPy = DefaultBenchPython()
	}
	if has(c.Peers, "ray") {
		if out, err := exec.CommandContext(ctx, c.BenchPy, "-c", "import ray, pypaimon.ray; print(ray.__version__)").CombinedOutput(); err != nil {
			return fmt.Errorf("peer ray: %s cannot import ray and pypaimon.ray: %v: %s (run bench/py/setup_venv.sh)", c.BenchPy, err, tail(string(out), 300))
		} else {
			r.rep.Versions["ray"] = string(trimNL(out))
		}
	}
	if has(c.Peers, "pypaimon-rust") || has(c.Ceilings, "parquet-rs") {
		v, err := rustVersion(ctx, c.BenchPy)
		if err != nil {
			return fmt.Errorf("peer pypaimon-rust / parquet-rs ceiling: %w", err)
		}
		r.rep.Versions["pypaimon-rust"] = v
	}
	if has(c.Ceilings, "pyarrow") {
		if out, err := exec.CommandContext(ctx, c.Python, "-c", "import pyarrow; print(pyarrow.__version__)").Output(); err == nil {
			r.rep.Versions["pyarrow (ceiling)"] = string(trimNL(out))
		}
	}
	if c.Python != "" {
		if out, err := exec.CommandContext(ctx, c.Python, "-c", "import importlib.metadata as m; print(m.version('pypaimon'))").Output(); err == nil {
			r.rep.Versions["pypaimon"] = string(trimNL(out))
		}
	}
	if has(c.Peers, "java") {
		if c.JavaJar == "" {
			c.JavaJar = filepath.Join(cacheDir(), "bench-javapeer", "paimon-bench-peer.jar")
			if _, err := os.Stat(c.JavaJar); err != nil {
				c.JavaJar = filepath.Join(c.Dir, "javapeer", "target", "paimon-bench-peer.jar")
			}
		}
		if _, err := os.Stat(c.JavaJar); err != nil {
			return fmt.Errorf("peer java: %v (build it: make bench-peers, or cd bench/javapeer && mvn -q package)", err)
		}
		r.rep.Versions["paimon-bundle"] = javaPaimonVersion(filepath.Join(filepath.Dir(c.JavaJar), "lib"))
	}
	if out, err := exec.CommandContext(ctx, c.Lakeload, "--version").Output(); err == nil {
		r.rep.Versions["lakeload"] = string(trimNL(out))
	}
	return nil
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// javaPaimonVersion names the paimon-bundle jar in the peer's lib directory.
func javaPaimonVersion(lib string) string {
	m, _ := filepath.Glob(filepath.Join(lib, "paimon-bundle-*.jar"))
	if len(m) == 0 {
		return "unknown"
	}
	b := filepath.Base(m[0])
	return b[len("paimon-bundle-") : len(b)-len(".jar")]
}

func cacheDir() string {
	if c := os.Getenv("LAKELOAD_CACHE"); c != "" {
		return c
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "lakeload")
}

// generate writes the main input into Work/in.
func (r *runner) generate(rows int) error {
	in := filepath.Join(r.cfg.Work, "in")
	if err := os.MkdirAll(in, 0o755); err != nil {
		return err
	}
	r.cfg.logf("generating %d rows", rows)
	paths, err := Generate(in, rows)
	if err != nil {
		return fmt.Errorf("generate input: %w", err)
	}
	r.inputs, r.inBytes = paths, fileBytes(paths)
	r.rep.Input = r.inBytes
	return nil
}

func fileBytes(paths []string) int64 {
	var n int64
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil {
			n += st.Size()
		}
	}
	return n
}

// newWarehouse returns a fresh empty warehouse directory under Work.
func (r *runner) newWarehouse() (string, error) {
	r.seq++
	d := filepath.Join(r.cfg.Work, fmt.Sprintf("wh-%03d", r.seq))
	if err := os.RemoveAll(d); err != nil {
		return "", err
	}
	return d, os.MkdirAll(d, 0o755)
}

// note adds a line to the report's notes once.
func (r *runner) note(s string) {
	if !has(r.rep.Notes, s) {
		r.rep.Notes = append(r.rep.Notes, s)
	}
}

func (r *runner) add(m Measure) {
	m.LoadAvg = loadAvg()
	r.rep.Measures = append(r.rep.Measures, m)
	cpu := m.SpanCPU // the timed span's CPU where known, else the process's
	if cpu <= 0 {
		cpu = m.CPU
	}
	r.cfg.logf("  %-16s %-22s %10.0f rows/s  %6.2fs  cpu %6.2fs  rss %5d MiB  load %.1f", m.Scenario, m.Tool, m.RowsPerSec(),
		m.Elapsed.Seconds(), cpu.Seconds(), m.MaxRSS>>20, m.LoadAvg)
}

var errNoRows = errors.New("no rows")
