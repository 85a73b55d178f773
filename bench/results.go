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

// Target is one of issue 5's goals and what this run measured for it.
type Target struct {
	Goal     string
	Measured string
	Met      bool
	Known    bool // false when the run did not measure it
}

// Targets evaluates the goals against the summaries.
func (r *Report) Targets() []Target {
	ss := r.Summaries()
	ratio := func(scn, a, b string) (float64, bool) {
		x, ok1 := find(ss, scn, a)
		y, ok2 := find(ss, scn, b)
		if !ok1 || !ok2 {
			return 0, false
		}
		return x.RowsPerSec / y.RowsPerSec, true
	}
	var ts []Target
	atLeast := func(goal, scn, a, b string, want float64) {
		v, ok := ratio(scn, a, b)
		measured := ""
		if ok {
			measured = fmt.Sprintf("%.2f×", v)
		}
		x, _ := find(ss, scn, a)
		y, _ := find(ss, scn, b)
		if ok && x.SpanCPU > 0 && y.SpanCPU > 0 { // rows per CPU second: robust on a shared machine
			measured += fmt.Sprintf(" (per CPU s: %.2f×)", y.SpanCPU.Seconds()/x.SpanCPU.Seconds())
		}
		ts = append(ts, Target{Goal: goal, Measured: measured, Met: ok && v >= want, Known: ok})
	}
	atLeast("PK load ≥ 5× Ray Data + pypaimon write_paimon", "pk", "lakeload", "ray", 5)
	atLeast("PK load ≥ 5× pypaimon batch write", "pk", "lakeload", "pypaimon", 5)
	atLeast("PK load ≥ 1.5× Java BatchTableWrite (cold JVM)", "pk", "lakeload", "java-cold", 1.5)
	atLeast("PK load ≥ 1.5× Java BatchTableWrite (warm JVM)", "pk", "lakeload", "java-warm", 1.5)
	atLeast("PK load ≥ 0.6 of the arrow-go ceiling", "pk", "lakeload", "ceiling", 0.6)
	if v, ok := ratio("load", "lakeload-write", "lakeload-load"); ok {
		slower := (v - 1) * 100
		ts = append(ts, Target{Goal: "exactly-once load ≤ 5% slower than one-shot write",
			Measured: fmt.Sprintf("%+.1f%%", slower), Met: slower <= 5, Known: true})
	} else {
		ts = append(ts, Target{Goal: "exactly-once load ≤ 5% slower than one-shot write"})
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
	atLeast("scan ≥ 3× pypaimon (loaded PK table, merge-on-read)", "scan", "lakeload", "pypaimon", 3)
	atLeast("scan-raw ≥ 3× pypaimon (one file per bucket, no merge; not an issue target)", "scan-raw", "lakeload", "pypaimon", 3)
	if s, ok := find(ss, "resume", "lakeload-kill9+resume"); ok {
		ts = append(ts, Target{Goal: "resume after kill -9 at 90% costs ≤ one window extra",
			Measured: fmt.Sprintf("%.2f windows of time, %.0f rows rewritten (window %.0f rows)", s.Extra["extra-windows"], s.Extra["rows-rewritten"], s.Extra["window-rows"]),
			Met:      s.Extra["extra-windows"] <= 1 && s.Extra["rows-rewritten"] <= s.Extra["window-rows"], Known: true})
	} else {
		ts = append(ts, Target{Goal: "resume after kill -9 at 90% costs ≤ one window extra"})
	}
	return ts
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
		"`time.process_time()`, all threads; ceiling: the runner's own rusage; unknown for java and ray, whose workers " +
		"are other processes): on a shared, oversubscribed machine rows per CPU second compares more fairly than " +
		"wall time.\n\n")
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
	b.WriteString("## Targets (issue 5)\n\n| goal | measured | met |\n|---|---|---|\n")
	for _, t := range r.Targets() {
		met := "not measured"
		if t.Known {
			met = map[bool]string{true: "yes", false: "**no**"}[t.Met]
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", t.Goal, orDash(t.Measured), met)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "\n%s\n", n)
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
