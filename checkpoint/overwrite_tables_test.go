package checkpoint

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/internal/datadriven"
)

// The data-driven overwrite recovery tests (internal/datadriven; -rewrite regenerates outputs):
//
//	testdata/overwrite_table      docs/protocol.md's overwrite recovery table, each row with examples
//	testdata/overwrite_scenarios  overwrite cases outside the table's rows
//
// An overwrite case has the arguments earliest=<id>, final=<lakeload.windows of the one final
// snapshot> (none: no final snapshot), finalJob=<job the final names> and finals=2 (the final twice),
// and one input line per window, numbered from 1:
//
//	w exact=(true false) missing=(2) committed=9 attempt=1 published seen=5 empty
//
// the fields of owWin (overwrite_test.go): attempt a stored an exact cover (true) or a partial one;
// committed is the snapshot id in committed (absent: none; 0: an empty overwrite); seen defaults
// to 5. The output is owSummary of the plan, then for a stop its error, marked (corrupt) when it
// wraps ErrCorrupt.

func parseOwWin(t *testing.T, d *datadriven.TestData, line string) owWin {
	w := owWin{committed: -1, seen: 5}
	fields := strings.Fields(line)
	if len(fields) == 0 || fields[0] != "w" {
		d.Fatalf(t, "window line %q does not start with w", line)
	}
	num := func(v string) int64 {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			d.Fatalf(t, "%q: %v", line, err)
		}
		return n
	}
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
		case "exact":
			for _, s := range strings.Fields(strings.Trim(val, "()")) {
				b, err := strconv.ParseBool(s)
				if err != nil {
					d.Fatalf(t, "%q: %v", line, err)
				}
				w.exact = append(w.exact, b)
			}
		case "missing":
			for _, s := range strings.Fields(strings.Trim(val, "()")) {
				w.missing = append(w.missing, int(num(s)))
			}
		case "committed":
			w.committed = num(val)
		case "attempt":
			w.attempt = int(num(val))
		case "published":
			w.published = true
		case "seen":
			w.seen = num(val)
		case "empty":
			w.empty = true
		default:
			d.Fatalf(t, "unknown window field %q", key)
		}
	}
	return w
}

// runOverwrite runs an overwrite case and returns its output and plan.
func runOverwrite(t *testing.T, d *datadriven.TestData) (string, OverwritePlan) {
	var ws []owWin
	for _, line := range strings.Split(d.Input, "\n") {
		if strings.TrimSpace(line) != "" {
			ws = append(ws, parseOwWin(t, d, line))
		}
	}
	earliest, err := strconv.ParseInt(d.Value("earliest", "1"), 10, 64)
	if err != nil {
		d.Fatalf(t, "earliest: %v", err)
	}
	st := owState(t, ws...)
	var fin []Marker
	if windows, ok := d.Arg("final"); ok {
		props := OverwriteProperties(testJob(), OverwritePartitions, st, nil)
		props[PropWindows] = strings.Join(windows, " ")
		if job := d.Value("finalJob", ""); job != "" {
			props[PropJob] = job
		}
		fin = []Marker{{SnapshotID: 9, Properties: props}}
		if d.Value("finals", "1") == "2" {
			fin = append(fin, fin[0])
		}
	}
	p := DecideOverwrite(st, owView(st, earliest, ws...), fin)
	out := owSummary(p)
	if out == "" {
		out = "nothing"
	}
	if stop := p.Stopped(); stop != nil {
		if !IsStop(stop) {
			d.Fatalf(t, "stop error does not wrap ErrStop: %v", stop)
		}
		out += "\nstop: " + stop.Error()
		if errors.Is(stop, ErrCorrupt) {
			out += " (corrupt)"
		}
	}
	return out + "\n", p
}

// overwriteKinds are the words of owSummary an overwrite table's action cell allows.
func overwriteKinds(action string) map[string]bool {
	words := map[string]string{"Stop": "stop", "WriteCommittedThenPublish": "write-committed-then-publish", "Publish": "publish",
		"Recompute": "recompute"}
	out := map[string]bool{}
	for _, m := range boldAction.FindAllStringSubmatch(action, -1) {
		out[words[m[1]]] = true
	}
	if strings.Contains(action, "staged") || strings.Contains(action, "as the final snapshot") {
		out["staged"] = true // the attempts the final commit would use
	}
	if strings.Contains(action, "done") {
		out["settled"] = true
	}
	return out
}

// owWords returns the words of the plan's owSummary (a stop counts as "stop").
func owWords(p OverwritePlan) []string {
	var out []string
	for _, tok := range strings.Fields(owSummary(p)) {
		name, _, _ := strings.Cut(tok, "(")
		name, _, _ = strings.Cut(name, "=")
		out = append(out, name)
	}
	if len(out) == 0 {
		out = []string{"nothing"}
	}
	return out
}

var overwriteColumns = []string{"final snapshots", "store", "when", "action"}

// TestOverwriteTable runs testdata/overwrite_table: each example's plan holds only actions its row
// names, and every row has an example.
func TestOverwriteTable(t *testing.T) {
	runTableFile(t, "testdata/overwrite_table", overwriteColumns, "overwrite", func(t *testing.T, d *datadriven.TestData, row tableRow) string {
		out, p := runOverwrite(t, d)
		allowed := overwriteKinds(row[len(row)-1])
		for _, k := range owWords(p) {
			if !allowed[k] {
				d.Fatalf(t, "the plan has %s, but its row says %q", k, row[len(row)-1])
			}
		}
		return out
	})
}

// TestOverwriteScenarios runs testdata/overwrite_scenarios.
func TestOverwriteScenarios(t *testing.T) {
	datadriven.RunTest(t, "testdata/overwrite_scenarios", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "overwrite" {
			d.Fatalf(t, "unknown command")
		}
		out, _ := runOverwrite(t, d)
		return out
	})
}

// TestOverwriteTableIsInProtocol: docs/protocol.md's overwrite recovery table is
// testdata/overwrite_table's rows.
func TestOverwriteTableIsInProtocol(t *testing.T) {
	checkDocTable(t, "| final snapshots | store | other conditions | action |", protocolTable(t, "testdata/overwrite_table", overwriteColumns))
}
