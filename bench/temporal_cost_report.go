package bench

import (
	"fmt"
	"strings"
	"time"
)

// TemporalVariantSummary is one variant's medians over the rounds.
type TemporalVariantSummary struct {
	TemporalVariant
	Runs                                 int
	Wall, MinWall, MaxWall               time.Duration
	LoadCPU, WorkerCPU, ServerCPU        time.Duration
	MeasuredWindows                      int // the job's windows in the last round
	Tasks                                int // write tasks per window (the smallest window's) in the last round
	RatioToInProcess                     float64
	walls, loadCPU, workerCPU, serverCPU []time.Duration
}

// TotalCPU is the median CPU of the load process plus the worker and the dev server.
func (s TemporalVariantSummary) TotalCPU() time.Duration {
	return s.LoadCPU + s.WorkerCPU + s.ServerCPU
}

// Summaries returns each variant's medians, in run order, with the wall-time ratio against the in-process
// variant of the same window count (and, for --parallelism 4, the in-process --parallelism 4 run).
func (r *TemporalCostReport) Summaries() []TemporalVariantSummary {
	out := make([]TemporalVariantSummary, len(r.Variants))
	idx := map[string]int{}
	for i, v := range r.Variants {
		out[i] = TemporalVariantSummary{TemporalVariant: v}
		idx[v.Name] = i
	}
	for _, run := range r.Runs {
		s := &out[idx[run.Variant]]
		s.Runs++
		s.walls = append(s.walls, run.Wall)
		s.loadCPU = append(s.loadCPU, run.LoadCPU)
		s.workerCPU = append(s.workerCPU, run.WorkerCPU)
		s.serverCPU = append(s.serverCPU, run.ServerCPU)
		s.MeasuredWindows, s.Tasks = run.Windows, run.Tasks
	}
	for i := range out {
		s := &out[i]
		s.Wall, s.LoadCPU, s.WorkerCPU, s.ServerCPU = median(s.walls), median(s.loadCPU), median(s.workerCPU), median(s.serverCPU)
		for j, w := range s.walls {
			if j == 0 || w < s.MinWall {
				s.MinWall = w
			}
			s.MaxWall = max(s.MaxWall, w)
		}
	}
	base := map[[2]int]TemporalVariantSummary{} // (windows, parallelism) → in-process summary
	for _, s := range out {
		if !s.Temporal {
			base[[2]int{s.TemporalVariant.Windows, s.Parallelism}] = s
		}
	}
	for i := range out {
		s := &out[i]
		if b, ok := base[[2]int{s.TemporalVariant.Windows, s.Parallelism}]; ok && s.Temporal && b.Wall > 0 {
			s.RatioToInProcess = s.Wall.Seconds() / b.Wall.Seconds()
		}
	}
	return out
}

// TemporalCosts are the cost model's terms derived from the medians (wall time unless named CPU).
type TemporalCosts struct {
	DriverPerWindow     time.Duration // (in-process W windows − in-process 1 window) / (W − 1)
	EnginePerWindow     time.Duration // (temporal W windows − in-process W windows) / W, one segment, one task
	EnginePerWindowCPU  time.Duration // the same with load + worker + server CPU against the in-process CPU
	EngineOneWindow     time.Duration // temporal 1 window − in-process 1 window (a job of one window)
	EnginePerSegment    time.Duration // (temporal --segment-windows 1 − temporal one segment) / (W − 1)
	EnginePerExtraTask  time.Duration // (temporal 4 tasks − temporal 1 task per window) / extra tasks ((4 − 1) W when every window has 4 splits)
	EngineNetExtraTask  time.Duration // the same net of what 4 tasks cost in process: ((T4 − I4) − (T1 − I1)) / extra tasks
	TaskPerRow          time.Duration // in-process 1 window's wall time / rows (an upper bound: includes its driver)
	TaskPerRowCPU       time.Duration // its CPU / rows
	Windows, ExtraTasks int
}

// Costs derives the cost model's terms from the summaries.
func (r *TemporalCostReport) Costs() TemporalCosts {
	by := map[string]TemporalVariantSummary{}
	for _, s := range r.Summaries() {
		by[s.Name] = s
	}
	w := r.Config.Windows
	i1, t1, iw, tw := by[VarInProcess1], by[VarTemporal1], by[VarInProcessW], by[VarTemporalW]
	seg, ip4, tp4 := by[VarTemporalWSeg1], by[VarInProcessWP4], by[VarTemporalWP4]
	rows := time.Duration(max(r.Config.Rows, 1))
	extra := max((tp4.Tasks-tw.Tasks)*w, 1)
	return TemporalCosts{
		Windows:            w,
		ExtraTasks:         extra,
		DriverPerWindow:    (iw.Wall - i1.Wall) / time.Duration(w-1),
		EnginePerWindow:    (tw.Wall - iw.Wall) / time.Duration(w),
		EnginePerWindowCPU: (tw.TotalCPU() - iw.TotalCPU()) / time.Duration(w),
		EngineOneWindow:    t1.Wall - i1.Wall,
		EnginePerSegment:   (seg.Wall - tw.Wall) / time.Duration(w-1),
		EnginePerExtraTask: (tp4.Wall - tw.Wall) / time.Duration(extra),
		EngineNetExtraTask: ((tp4.Wall - ip4.Wall) - (tw.Wall - iw.Wall)) / time.Duration(extra),
		TaskPerRow:         i1.Wall / rows,
		TaskPerRowCPU:      i1.TotalCPU() / rows,
	}
}

// Markdown renders the report: setup, the command, the medians table and the derived costs.
func (r *TemporalCostReport) Markdown(command string) string {
	c := r.Config
	var b strings.Builder
	fmt.Fprintf(&b, "# Temporal engine cost — %s\n\n", r.Started.Format("2006-01-02 15:04"))
	fmt.Fprintf(&b, "Command: `%s`\n\n", command)
	fmt.Fprintf(&b, "%d CSV rows in %d files (%.1f MiB; append table `id BIGINT NOT NULL, name, city STRING, v DOUBLE, "+
		"ts BIGINT, dt STRING`, no partition, bucket-unaware), local warehouse, a local `temporal server start-dev` "+
		"(%s), one `lakeload worker --concurrency 1` started once; %d interleaved round(s), a fresh table and job per run, "+
		"every run checked to publish all rows (`lakeload status --output json`). W = %d windows (`--commit-rows %d`); "+
		"1 window = `--commit-rows %d`. In process = `lakeload load --parallelism 1` (4 where named); every load "+
		"`--compaction %s`.\n\n",
		c.Rows, c.Files, float64(r.InputSize)/(1<<20), orDash(r.Temporal), c.Runs, c.Windows, c.Rows/c.Windows, c.Rows, c.Compaction)
	b.WriteString("Wall = the `load` process from start to exit (median, min–max); CPU = medians of the `load` process " +
		"(rusage), the worker and the dev server (/proc deltas over the run). Ratio = wall against the in-process run " +
		"of the same window count and parallelism.\n\n")
	b.WriteString("| run | windows | tasks/window | wall (s) | min–max (s) | × in process | load CPU (s) | worker CPU (s) | server CPU (s) |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, s := range r.Summaries() {
		ratio := "1 (baseline)"
		if s.Temporal {
			ratio = fmt.Sprintf("%.2f", s.RatioToInProcess)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %.2f | %.2f–%.2f | %s | %.2f | %.2f | %.2f |\n", s.Name, s.MeasuredWindows, s.Tasks,
			s.Wall.Seconds(), s.MinWall.Seconds(), s.MaxWall.Seconds(), ratio, s.LoadCPU.Seconds(), s.WorkerCPU.Seconds(), s.ServerCPU.Seconds())
	}
	k := r.Costs()
	ms := func(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }
	us := func(d time.Duration) string { return fmt.Sprintf("%.2f µs", float64(d)/float64(time.Microsecond)) }
	b.WriteString("\nDerived (from the medians; negative = within noise):\n\n")
	fmt.Fprintf(&b, "- engine cost per window: %s of wall ((temporal − in process, W windows) / %d), %s of CPU (load + worker + server)\n",
		ms(k.EnginePerWindow), k.Windows, ms(k.EnginePerWindowCPU))
	fmt.Fprintf(&b, "- engine cost of a one-window job: %s (temporal − in process, 1 window)\n", ms(k.EngineOneWindow))
	fmt.Fprintf(&b, "- engine cost per driver segment: %s ((`--segment-windows 1` − one segment) / %d extra segments)\n",
		ms(k.EnginePerSegment), k.Windows-1)
	fmt.Fprintf(&b, "- engine cost per extra task: %s ((4 tasks − 1 task per window, temporal) / %d extra tasks); net of what 4 tasks cost in process: %s\n",
		ms(k.EnginePerExtraTask), k.ExtraTasks, ms(k.EngineNetExtraTask))
	fmt.Fprintf(&b, "- driver cost per window: %s ((in process W windows − 1 window) / %d)\n", ms(k.DriverPerWindow), k.Windows-1)
	fmt.Fprintf(&b, "- task cost per row: %s of wall, %s of CPU (in process, 1 window, all of it / rows)\n",
		us(k.TaskPerRow), us(k.TaskPerRowCPU))
	b.WriteString("\nRuns:\n\n| round | run | wall (s) | load CPU (s) | worker CPU (s) | server CPU (s) | rows | windows | tasks/window |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, run := range r.Runs {
		fmt.Fprintf(&b, "| %d | %s | %.2f | %.2f | %.2f | %.2f | %d | %d | %d |\n", run.Round, run.Variant, run.Wall.Seconds(),
			run.LoadCPU.Seconds(), run.WorkerCPU.Seconds(), run.ServerCPU.Seconds(), run.Rows, run.Windows, run.Tasks)
	}
	return b.String()
}
