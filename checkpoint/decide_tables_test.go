package checkpoint

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/internal/datadriven"
)

// The data-driven recovery tests (internal/datadriven; run with -rewrite to regenerate outputs):
//
//	testdata/recovery_table    docs/protocol.md's recovery table, each row with examples
//	testdata/decide_scenarios  recovery scenarios of several windows
//
// A decide case has the arguments earliest=<id> (TableView.EarliestSnapshot) and recompute=(w …)
// (DecideOptions.RecomputeWindows), and one input line per window, numbered from 1:
//
//	w covers=(exact partial) markers=(1) committed=1 committedSn=-1 published=1 missing=(2) unchecked=(1) seen=10 voided foreignJob badAttempt
//
// the fields of win (decide_helpers_test.go): attempt a has covers[a-1] (none, partial, exact, empty,
// dup, foreign, dupids); markers name attempts; committedSn -1 is an empty commit. The output is the
// plan's summary (nothing: empty), then for a stop its error, marked (corrupt) when it wraps
// ErrCorrupt.

// parseWin reads one window line.
func parseWin(t *testing.T, d *datadriven.TestData, line string) win {
	fields := strings.Fields(line)
	if len(fields) == 0 || fields[0] != "w" {
		d.Fatalf(t, "window line %q does not start with w", line)
	}
	var w win
	ints := func(v string) []int {
		var out []int
		for _, s := range strings.Fields(strings.Trim(v, "()")) {
			n, err := strconv.Atoi(s)
			if err != nil {
				d.Fatalf(t, "%q: %v", line, err)
			}
			out = append(out, n)
		}
		return out
	}
	one := func(v string) int64 {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			d.Fatalf(t, "%q: %v", line, err)
		}
		return n
	}
	// Values in parentheses may hold spaces: rejoin the fields of each.
	var kv []string
	for _, f := range fields[1:] {
		if n := len(kv); n > 0 && strings.Count(kv[n-1], "(") > strings.Count(kv[n-1], ")") {
			kv[n-1] += " " + f
			continue
		}
		kv = append(kv, f)
	}
	for _, f := range kv {
		key, val, _ := strings.Cut(f, "=")
		switch key {
		case "covers":
			w.covers = strings.Fields(strings.Trim(val, "()"))
		case "markers":
			w.markers = ints(val)
		case "committed":
			w.committed = int(one(val))
		case "committedSn":
			w.committedSn = one(val)
		case "published":
			w.published = int(one(val))
		case "missing":
			w.missing = ints(val)
		case "unchecked":
			w.unchecked = ints(val)
		case "seen":
			w.seen = one(val)
		case "voided":
			w.voided = true
		case "foreignJob":
			w.foreignJob = true
		case "badAttempt":
			w.badAttempt = true
		default:
			d.Fatalf(t, "unknown window field %q", key)
		}
	}
	return w
}

// runDecide runs a decide case and returns its output and plan.
func runDecide(t *testing.T, d *datadriven.TestData) (string, RecoveryPlan) {
	var wins []win
	for _, line := range strings.Split(d.Input, "\n") {
		if strings.TrimSpace(line) != "" {
			wins = append(wins, parseWin(t, d, line))
		}
	}
	earliest, err := strconv.ParseInt(d.Value("earliest", "1"), 10, 64)
	if err != nil {
		d.Fatalf(t, "earliest: %v", err)
	}
	var opts DecideOptions
	if ws, ok := d.Arg("recompute"); ok {
		for _, s := range ws {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				d.Fatalf(t, "recompute: %v", err)
			}
			opts.RecomputeWindows = append(opts.RecomputeWindows, n)
		}
	}
	st, tv := sim(t, earliest, wins...)
	p, err := DecideWith(st, tv, opts)
	if err != nil {
		d.Fatalf(t, "Decide: %v", err)
	}
	out := summary(p)
	if out == "" {
		out = "nothing"
	}
	if stop := p.Stopped(); stop != nil {
		if !IsStop(stop) {
			d.Fatalf(t, "stop error does not wrap ErrStop: %v", stop)
		}
		if w := p.Actions[len(p.Actions)-1].Window; !strings.Contains(stop.Error(), fmt.Sprintf("window %d", w)) {
			d.Fatalf(t, "stop error does not name its window %d: %v", w, stop)
		}
		out += "\nstop: " + stop.Error()
		if errors.Is(stop, ErrCorrupt) {
			out += " (corrupt)"
		}
	}
	return out + "\n", p
}

// tableRow is one row of a protocol table: its cells, in order.
type tableRow []string

func (r tableRow) markdown() string { return "| " + strings.Join(r, " | ") + " |" }

// parseRow reads a row command's input: one "name: cell" line per column, in order.
func parseRow(t *testing.T, d *datadriven.TestData, columns []string) tableRow {
	lines := strings.Split(d.Input, "\n")
	if len(lines) != len(columns) {
		d.Fatalf(t, "a row has %d lines (%s), not %d", len(columns), strings.Join(columns, ", "), len(lines))
	}
	var r tableRow
	for i, line := range lines {
		name, cell, ok := strings.Cut(line, ": ")
		if !ok || name != columns[i] {
			d.Fatalf(t, "line %d of the row is %q, want %q", i+1, line, columns[i]+": …")
		}
		r = append(r, cell)
	}
	return r
}

var boldAction = regexp.MustCompile(`\*\*([A-Za-z]+)\*\*`)

// summaryKinds maps the bold action names of a table's action cell to the summary words of those
// actions; "nothing" stands for no action.
func summaryKinds(action string) map[string]bool {
	words := map[string][]string{"Stop": {"stop"}, "WriteCommittedThenPublish": {"wcp"}, "Publish": {"pub"},
		"Commit": {"commit", "empty"}, "Recompute": {"recompute"}, "Void": {"void"}}
	out := map[string]bool{}
	for _, m := range boldAction.FindAllStringSubmatch(action, -1) {
		for _, w := range words[m[1]] {
			out[w] = true
		}
	}
	if strings.HasPrefix(action, "nothing") {
		out["nothing"] = true
	}
	return out
}

// windowKinds returns the summary words of p's actions for window w ("nothing" when none).
func windowKinds(p RecoveryPlan, w int64) []string {
	var out []string
	for _, tok := range strings.Fields(summary(RecoveryPlan{Actions: p.Actions})) {
		name, args, _ := strings.Cut(tok, "(")
		if n, _, _ := strings.Cut(strings.TrimSuffix(args, ")"), ","); n == strconv.FormatInt(w, 10) {
			out = append(out, name)
		}
	}
	if len(out) == 0 {
		out = []string{"nothing"}
	}
	return out
}

var recoveryColumns = []string{"M", "C", "P", "when", "action"}

// runTableFile runs a decision table file: "row" lines (cells in columns) each followed by
// examples of command cmd; example(d, row) runs one, checks that its plan takes only the actions the
// row's last cell names, and returns the output. Every row must have an example.
func runTableFile(t *testing.T, path string, columns []string, cmd string, example func(*testing.T, *datadriven.TestData, tableRow) string) {
	var row tableRow
	examples := map[string]int{}
	datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
		switch d.Cmd {
		case "row":
			row = parseRow(t, d, columns)
			examples[row.markdown()] = 0
			return row.markdown()
		case cmd:
			if row == nil {
				d.Fatalf(t, "an example before the first row")
			}
			examples[row.markdown()]++
			return example(t, d, row)
		}
		d.Fatalf(t, "unknown command")
		return ""
	})
	for r, n := range examples {
		if n == 0 {
			t.Errorf("row without an example: %s", r)
		}
	}
}

// TestRecoveryTable runs testdata/recovery_table: each example's plan gives its last window an
// action its row names, and every row has an example.
func TestRecoveryTable(t *testing.T) {
	runTableFile(t, "testdata/recovery_table", recoveryColumns, "decide", func(t *testing.T, d *datadriven.TestData, row tableRow) string {
		out, p := runDecide(t, d)
		last := int64(strings.Count(strings.TrimSpace(d.Input), "\n") + 1)
		allowed := summaryKinds(row[len(row)-1])
		for _, k := range windowKinds(p, last) {
			if !allowed[k] {
				d.Fatalf(t, "window %d gets %s, but its row says %q", last, k, row[len(row)-1])
			}
		}
		return out
	})
}

// TestDecideScenarios runs testdata/decide_scenarios.
func TestDecideScenarios(t *testing.T) {
	datadriven.RunTest(t, "testdata/decide_scenarios", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "decide" {
			d.Fatalf(t, "unknown command")
		}
		out, _ := runDecide(t, d)
		return out
	})
}

// protocolTable returns the rows of the data-driven file at path (its row commands).
func protocolTable(t *testing.T, path string, columns []string) []string {
	b, err := os.ReadFile(path)
	must(t, err)
	chunks, err := datadriven.Parse(path, string(b))
	must(t, err)
	var out []string
	for _, c := range chunks {
		if c.Data != nil && c.Data.Cmd == "row" {
			out = append(out, parseRow(t, c.Data, columns).markdown())
		}
	}
	return out
}

// checkDocTable checks that the table under header in docs/protocol.md has exactly rows (with
// -rewrite: writes them there).
func checkDocTable(t *testing.T, header string, rows []string) {
	const doc = "../docs/protocol.md"
	b, err := os.ReadFile(doc)
	must(t, err)
	lines := strings.Split(string(b), "\n")
	start := -1
	for i, l := range lines {
		if l == header {
			if start >= 0 {
				t.Fatalf("%s has the table header %q twice", doc, header)
			}
			start = i + 2 // past the header and the |---| line
		}
	}
	if start < 0 {
		t.Fatalf("%s has no table with the header %q", doc, header)
	}
	end := start
	for end < len(lines) && strings.HasPrefix(lines[end], "|") {
		end++
	}
	if got := strings.Join(lines[start:end], "\n"); got != strings.Join(rows, "\n") {
		if datadriven.Rewriting() {
			lines = append(lines[:start], append(rows, lines[end:]...)...)
			must(t, os.WriteFile(doc, []byte(strings.Join(lines, "\n")), 0o644))
			return
		}
		t.Fatalf("%s's table under %q differs from the test data (run with -rewrite):\n--- doc\n%s\n--- test data\n%s",
			doc, header, got, strings.Join(rows, "\n"))
	}
}

// TestRecoveryTableIsInProtocol: docs/protocol.md's recovery table is testdata/recovery_table's rows.
func TestRecoveryTableIsInProtocol(t *testing.T) {
	checkDocTable(t, "| M | C | P | other conditions | action |", protocolTable(t, "testdata/recovery_table", recoveryColumns))
}
