package bench

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// Summary is one (scenario, tool) over all rounds: medians of the timed span, CPU and rows/s, the largest RSS.
type Summary struct {
	Scenario, Tool string
	Rounds         int
	Rows           int64
	Elapsed        time.Duration // median
	RowsPerSec     float64       // Rows / median Elapsed
	MBPerSec       float64       // input MB (1e6 bytes) / median Elapsed; 0 for scan
	CPU            time.Duration // median CPU of the child process
	SpanCPU        time.Duration // median CPU of the timed span, over the rounds that know it (0: unknown)
	MaxRSS         int64         // largest over rounds
	Extra          map[string]float64
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Summaries groups the measures by (scenario, tool) in first-seen order.
func (r *Report) Summaries() []Summary {
	var order []string
	groups := map[string][]Measure{}
	for _, m := range r.Measures {
		k := m.Scenario + "\x00" + m.Tool
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], m)
	}
	var out []Summary
	for _, k := range order {
		ms := groups[k]
		var el, cpu, span []time.Duration
		s := Summary{Scenario: ms[0].Scenario, Tool: ms[0].Tool, Rounds: len(ms), Rows: ms[0].Rows, Extra: map[string]float64{}}
		sums := map[string]float64{}
		for _, m := range ms {
			el, cpu = append(el, m.Elapsed), append(cpu, m.CPU)
			if m.SpanCPU > 0 {
				span = append(span, m.SpanCPU)
			}
			s.MaxRSS = max(s.MaxRSS, m.MaxRSS)
			for k, v := range m.Extra {
				sums[k] += v
			}
		}
		for k, v := range sums {
			s.Extra[k] = v / float64(len(ms)) // mean
		}
		s.Elapsed, s.CPU, s.SpanCPU = median(el), median(cpu), median(span)
		s.RowsPerSec = float64(s.Rows) / s.Elapsed.Seconds()
		if ms[0].InBytes > 0 {
			s.MBPerSec = float64(ms[0].InBytes) / 1e6 / s.Elapsed.Seconds()
		}
		out = append(out, s)
	}
	return out
}

func find(ss []Summary, scenario, tool string) (Summary, bool) {
	for _, s := range ss {
		if s.Scenario == scenario && s.Tool == tool {
			return s, true
		}
	}
	return Summary{}, false
}

// Target is one of the issues' goals and what this run measured for it.
type Target struct {
	Goal     string
	Measured string
	Met      bool // by rows/s of the timed span (wall)
	Known    bool // false when the run did not measure it
	CPUMet   int  // by rows per CPU second of the timed span: 1 met, -1 not met, 0 unknown
}

// bestCeiling is the ceiling of scenario scn that used the fewest CPU seconds for its timed span.
func bestCeiling(ss []Summary, scn string) (Summary, bool) {
	var best Summary
	ok := false
	for _, s := range ss {
		if s.Scenario == scn && strings.HasPrefix(s.Tool, "ceiling-") && s.SpanCPU > 0 && (!ok || s.SpanCPU < best.SpanCPU) {
			best, ok = s, true
		}
	}
	return best, ok
}

// Targets evaluates issue 18's goals (and issue 5's that still hold) against the summaries.
func (r *Report) Targets() []Target {
	ss := r.Summaries()
	var ts []Target
	cpuMet := func(ok bool) int {
		return map[bool]int{true: 1, false: -1}[ok]
	}
	atLeast := func(goal, scn, a, b string, want float64) {
		x, ok1 := find(ss, scn, a)
		y, ok2 := find(ss, scn, b)
		t := Target{Goal: goal, Known: ok1 && ok2}
		if t.Known {
			v := x.RowsPerSec / y.RowsPerSec
			t.Measured, t.Met = fmt.Sprintf("%.2f×", v), v >= want
			if x.SpanCPU > 0 && y.SpanCPU > 0 { // rows per CPU second: robust on a shared machine
				c := y.SpanCPU.Seconds() / x.SpanCPU.Seconds()
				t.Measured += fmt.Sprintf(" (per CPU s: %.2f×)", c)
				t.CPUMet = cpuMet(c >= want)
			}
		}
		ts = append(ts, t)
	}
	atLeast("append: ≥ 1.5× pypaimon (pyarrow writer) (issue 18)", "append", "lakeload", "pypaimon", 1.5)
	atLeast("PK: ≥ 1.5× pypaimon + Rust writer (issue 18)", "pk", "lakeload", "pypaimon-rust", 1.5)
	atLeast("append: ahead of pypaimon + Rust writer, ≥ 1× (issue 18: ahead of every peer)", "append", "lakeload", "pypaimon-rust", 1)
	atLeast("PK: ≥ 2.5× Java BatchTableWrite (warm JVM) (issue 18)", "pk", "lakeload", "java-warm", 2.5)
	atLeast("append: ≥ 2.5× Java BatchTableWrite (warm JVM) (issue 18)", "append", "lakeload", "java-warm", 2.5)
	atLeast("PK: keep ≥ 10× pypaimon (issue 18)", "pk", "lakeload", "pypaimon", 10)
	for _, scn := range []string{"pk", "append"} {
		goal := scn + ": ≥ 0.9 of the best ceiling per CPU s (issue 18)"
		l, ok1 := find(ss, scn, "lakeload")
		c, ok2 := bestCeiling(ss, scn)
		if !ok1 || !ok2 || l.SpanCPU <= 0 {
			ts = append(ts, Target{Goal: goal})
			continue
		}
		v := c.SpanCPU.Seconds() / l.SpanCPU.Seconds()
		ts = append(ts, Target{Goal: goal, Known: true, Met: v >= 0.9, CPUMet: cpuMet(v >= 0.9),
			Measured: fmt.Sprintf("%.2f× of %s per CPU s (%.2f vs %.2f CPU s; by wall %.2f×)", v, c.Tool,
				l.SpanCPU.Seconds(), c.SpanCPU.Seconds(), l.RowsPerSec/c.RowsPerSec)})
	}
	atLeast("scan-raw (one file per bucket): ≥ 3× pypaimon (issue 18)", "scan-raw", "lakeload", "pypaimon", 3)
	atLeast("scan (merge-on-read): stays ≥ 10× pypaimon (issue 18)", "scan", "lakeload", "pypaimon", 10)
	for _, scn := range []string{"append", "pk"} {
		goal := scn + ": GOMAXPROCS=2 ≥ 1.8× GOMAXPROCS=1 (issue 18, report)"
		two, ok1 := find(ss, scn, "lakeload")
		one, ok2 := find(ss, scn, "lakeload-gomaxprocs1")
		if !ok1 || !ok2 {
			ts = append(ts, Target{Goal: goal})
			continue
		}
		v := two.RowsPerSec / one.RowsPerSec
		ts = append(ts, Target{Goal: goal, Known: true, Met: v >= 1.8,
			Measured: fmt.Sprintf("%.2f× by wall (CPU s %.2f at 1 vs %.2f at 2)", v, one.SpanCPU.Seconds(), two.SpanCPU.Seconds())})
	}
	if v, ok := ratioOf(ss, "load", "lakeload-write", "lakeload-load"); ok {
		slower := (v - 1) * 100
		t := Target{Goal: "exactly-once load ≤ 5% slower than one-shot write (issues 5, 18)", Known: true, Met: slower <= 5}
		t.Measured = fmt.Sprintf("%+.1f%%", slower)
		w, _ := find(ss, "load", "lakeload-write")
		l, _ := find(ss, "load", "lakeload-load")
		if w.SpanCPU > 0 && l.SpanCPU > 0 {
			c := (l.SpanCPU.Seconds()/w.SpanCPU.Seconds() - 1) * 100
			t.Measured += fmt.Sprintf(" (CPU s: %+.1f%%)", c)
			t.CPUMet = cpuMet(c <= 5)
		}
		ts = append(ts, t)
	} else {
		ts = append(ts, Target{Goal: "exactly-once load ≤ 5% slower than one-shot write (issues 5, 18)"})
	}
	var rss []Summary
	for _, s := range ss {
		if s.Scenario == "rss" {
			rss = append(rss, s)
		}
	}
	if len(rss) >= 2 {
		sort.Slice(rss, func(i, j int) bool { return rss[i].Rows < rss[j].Rows })
		lo, hi := rss[0], rss[len(rss)-1]
		diff := float64(hi.MaxRSS-lo.MaxRSS) / float64(lo.MaxRSS) * 100
		ts = append(ts, Target{Goal: fmt.Sprintf("peak RSS %dM vs %dM rows ≤ 512 MiB, within 10%%", lo.Rows/1e6, hi.Rows/1e6),
			Measured: fmt.Sprintf("%d / %d MiB (%+.1f%%)", lo.MaxRSS>>20, hi.MaxRSS>>20, diff),
			Met:      hi.MaxRSS <= 512<<20 && lo.MaxRSS <= 512<<20 && diff <= 10 && diff >= -10, Known: true})
	} else if len(rss) == 1 {
		ts = append(ts, Target{Goal: "peak RSS ≤ 512 MiB (one size only)", Measured: fmt.Sprintf("%d MiB at %d rows", rss[0].MaxRSS>>20, rss[0].Rows),
			Met: rss[0].MaxRSS <= 512<<20, Known: true})
	} else {
		ts = append(ts, Target{Goal: "peak RSS 10M vs 50M rows ≤ 512 MiB, within 10%"})
	}
	atLeast("append bucket=-1: ≥ 1.5× pypaimon (pyarrow writer) (issue 18's 620–680k rows/s case)", "append-unaware", "lakeload", "pypaimon", 1.5)
	atLeast("append bucket=-1: ahead of pypaimon + Rust writer, ≥ 1× (issue 18)", "append-unaware", "lakeload", "pypaimon-rust", 1)
	for _, f := range []string{"csv", "jsonl"} {
		atLeast("text-"+f+": lakeload's parse ≥ 1× pyarrow's "+strings.ToUpper(f)+" reader (issue 15)", "text-"+f, "lakeload-parse", "pyarrow-parse", 1)
		atLeast("text-"+f+": "+f+" → table ≥ 1.5× pyarrow reader + pypaimon (issue 18)", "text-"+f, "lakeload", "pypaimon", 1.5)
	}
	atLeast("PK ≥ 5× Ray Data + pypaimon write_paimon (issue 5)", "pk", "lakeload", "ray", 5)
	atLeast("PK ≥ 1.5× Java BatchTableWrite (cold JVM) (issue 5)", "pk", "lakeload", "java-cold", 1.5)
	if s, ok := find(ss, "resume", "lakeload-kill9+resume"); ok {
		ts = append(ts, Target{Goal: "resume after kill -9 at 90% costs ≤ one window extra (issue 5)",
			Measured: fmt.Sprintf("%.2f windows of time, %.0f rows rewritten (window %.0f rows)", s.Extra["extra-windows"], s.Extra["rows-rewritten"], s.Extra["window-rows"]),
			Met:      s.Extra["extra-windows"] <= 1 && s.Extra["rows-rewritten"] <= s.Extra["window-rows"], Known: true})
	} else {
		ts = append(ts, Target{Goal: "resume after kill -9 at 90% costs ≤ one window extra (issue 5)"})
	}
	return ts
}

// ratioOf is a's rows/s over b's in scenario scn.
func ratioOf(ss []Summary, scn, a, b string) (float64, bool) {
	x, ok1 := find(ss, scn, a)
	y, ok2 := find(ss, scn, b)
	if !ok1 || !ok2 {
		return 0, false
	}
	return x.RowsPerSec / y.RowsPerSec, true
}

// loadRange is the smallest and largest load average the measures saw (0, 0 when unknown).
func (r *Report) loadRange() (lo, hi float64) {
	for i, m := range r.Measures {
		if i == 0 || m.LoadAvg < lo {
			lo = m.LoadAvg
		}
		hi = max(hi, m.LoadAvg)
	}
	return lo, hi
}

// Markdown renders the report: setup, one table per scenario with ratios to lakeload, the targets.
func (r *Report) Markdown(command string) string {
	var b strings.Builder
	c := r.Config
	fmt.Fprintf(&b, "# lakeload bench results, %s\n\n", r.Started.UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(&b, "Command: `%s`\n\n", command)
	fmt.Fprintf(&b, "Input: %d generated rows (%.1f MB Parquet, snappy, 4 files; bench/gen.go), %d round(s), interleaved; "+
		"%s elapsed. Machine: 2 cores, shared with other work — compare ratios within this file, not rows/s across files.\n\n",
		c.Rows, float64(r.Input)/1e6, c.Rounds, r.Finished.Sub(r.Started).Round(time.Second))
	if lo, hi := r.loadRange(); hi > 0 {
		fmt.Fprintf(&b, "**Load:** the 1-minute load average at the end of the measured runs was %.1f–%.1f on 2 cores", lo, hi)
		if hi > 2 {
			b.WriteString(": wall numbers (rows/s, MB/s, wall ratios) were taken on a loaded machine and are noisy; the timed " +
				"CPU seconds (user + sys) and the ratios per CPU second are the fairer comparison")
		}
		b.WriteString(". Every run is listed with its wall, CPU and load in \"Every round\" at the end.\n\n")
	}
	var vs []string
	for k, v := range r.Versions {
		vs = append(vs, k+" "+v)
	}
	sort.Strings(vs)
	if len(vs) > 0 {
		fmt.Fprintf(&b, "Versions: %s.\n\n", strings.Join(vs, ", "))
	}
	b.WriteString("Timed spans: lakeload = the child process `lakeload write|load|scan` from start to exit; pypaimon / ray = " +
		"the script's create table + read + write + commit (no interpreter start-up, no `ray.init`); java = one run " +
		"inside the JVM (cold = first, warm = second in the same JVM, `-Xmx4g`); ceiling = arrow-go read + one " +
		"Parquet write in the runner's process. CPU and peak RSS are the child's rusage (wait4): for java and the " +
		"Python peers they cover the whole process (both JVM runs; the untimed read-back check); Ray's RSS is " +
		"its driver's (workers are separate processes). Rows/s, MB/s (input bytes) and CPU are medians over rounds, " +
		"RSS the largest. Timed CPU = CPU seconds of the timed span alone (lakeload: the whole child; pypaimon: " +
		"`time.process_time()`, all threads; ceiling-arrow-go: the runner's own rusage; unknown for java and ray, whose workers " +
		"are other processes): on a shared, oversubscribed machine rows per CPU second compares more fairly than " +
		"wall time. pypaimon-rust = pypaimon with `write.native.enabled=true` (pypaimon-rust writes the data files, Python " +
		"commits; the script fails unless every data file says created_by parquet-rs, see Versions). lakeload-gomaxprocs1 = " +
		"the same `lakeload write` with GOMAXPROCS=1. Ceilings (bench/ceiling.go, bench/py/parquet_ceiling.py): read the input and write " +
		"it as one zstd level-1 Parquet file (pk: plus _KEY_id, _SEQUENCE_NUMBER, _VALUE_KIND), page v1, 1 MiB pages, " +
		"row groups of one lakeload data file's rows, statistics on, no sort, no Paimon metadata; dictionary for the columns " +
		"lakeload chose (…-dict: every column); arrow-go in the runner's process, pyarrow `write_table`, parquet-rs = " +
		"DataFusion `COPY` through pypaimon_rust (its parallel column encoding; parquet-rs takes no per-column dictionary " +
		"setting through SQL, so its rule-following run has no dictionary at all). append-unaware = the append table with " +
		"bucket -1 (no bucket key; no ceilings, ray or java there). text-csv / text-jsonl (bench/text.go): the input as CSV / " +
		"JSON Lines files into the append table; lakeload-parse = lakeload's reader (source/file) alone in the runner's " +
		"process (its rusage), pyarrow-parse = pyarrow's CSV / JSON reader alone (bench/py/text_ceiling.py, its threads), " +
		"pypaimon = pyarrow's reader + pypaimon's write; MB/s there are text bytes.\n\n")
	ss := r.Summaries()
	scenarios := []string{}
	for _, s := range ss {
		if !slices.Contains(scenarios, s.Scenario) {
			scenarios = append(scenarios, s.Scenario)
		}
	}
	for _, scn := range scenarios {
		base := "lakeload"
		switch scn {
		case "load":
			base = "lakeload-write"
		case "resume":
			base = "lakeload-clean"
		case "rss":
			base = ""
		}
		ref, hasRef := find(ss, scn, base)
		fmt.Fprintf(&b, "## %s\n\n| tool | rounds | rows | rows/s | MB/s | timed CPU s | process CPU s | peak RSS MiB | %s ÷ tool (rows/s) | tool ÷ %s (timed CPU) | notes |\n|---|---|---|---|---|---|---|---|---|---|---|\n", scn, orDash(base), orDash(base))
		for _, s := range ss {
			if s.Scenario != scn {
				continue
			}
			ratio, cpuRatio, span := "—", "—", "—"
			if hasRef && s.Tool != base {
				ratio = fmt.Sprintf("%.2f", ref.RowsPerSec/s.RowsPerSec)
				if ref.SpanCPU > 0 && s.SpanCPU > 0 {
					cpuRatio = fmt.Sprintf("%.2f", s.SpanCPU.Seconds()/ref.SpanCPU.Seconds())
				}
			}
			if s.SpanCPU > 0 {
				span = fmt.Sprintf("%.1f", s.SpanCPU.Seconds())
			}
			cpu, rss := fmt.Sprintf("%.1f", s.CPU.Seconds()), fmt.Sprintf("%d", s.MaxRSS>>20)
			if s.MaxRSS == 0 {
				cpu, rss = "—", "—"
			}
			mbs := "—"
			if s.MBPerSec > 0 {
				mbs = fmt.Sprintf("%.1f", s.MBPerSec)
			}
			fmt.Fprintf(&b, "| %s | %d | %d | %.0f | %s | %s | %s | %s | %s | %s | %s |\n", s.Tool, s.Rounds, s.Rows, s.RowsPerSec, mbs, span, cpu, rss, ratio, cpuRatio, extras(s.Extra))
		}
		b.WriteString("\n")
	}
	b.WriteString("## Targets (issue 18, and issue 5's that still hold)\n\n| goal | measured | met (wall) | met (per CPU s) |\n|---|---|---|---|\n")
	for _, t := range r.Targets() {
		met, cpuMet := "not measured", "—"
		if t.Known {
			met = map[bool]string{true: "yes", false: "**no**"}[t.Met]
		}
		if t.CPUMet != 0 {
			cpuMet = map[bool]string{true: "yes", false: "**no**"}[t.CPUMet > 0]
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", t.Goal, orDash(t.Measured), met, cpuMet)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "\n%s\n", n)
	}
	b.WriteString("\n## Every round\n\n| scenario | tool | round | rows | timed wall s | timed CPU s | process CPU s | load avg |\n|---|---|---|---|---|---|---|---|\n")
	for _, m := range r.Measures {
		span, cpu := "—", "—"
		if m.SpanCPU > 0 {
			span = fmt.Sprintf("%.2f", m.SpanCPU.Seconds())
		}
		if m.CPU > 0 {
			cpu = fmt.Sprintf("%.2f", m.CPU.Seconds())
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %.2f | %s | %s | %.1f |\n", m.Scenario, m.Tool, m.Round, m.Rows, m.Elapsed.Seconds(), span, cpu, m.LoadAvg)
	}
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func extras(m map[string]float64) string {
	var ks []string
	for k, v := range m {
		if v != 0 {
			ks = append(ks, k)
		}
	}
	sort.Strings(ks)
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%s %.4g", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
