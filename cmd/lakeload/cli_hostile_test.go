package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/tamper"
)

// The hostile corpus (issue 14): every hostile input, tampered table and hostile command line the
// issue names — and those it found already held — in one table. Each case prepares a warehouse
// below a fresh root directory (victim files outside the warehouse included), then runs its command
// lines through the lakeload binary as a child process (the test binary as main) and checks, for
// every run: the exit code, the message parts, that nothing was committed (the table's snapshot
// files are unchanged unless the run may write), that no file outside the warehouse was touched
// (every file below the root but outside the warehouse is present, byte-identical, and no new one
// appeared), and that the child's peak RSS (VmHWM) stays within twice the default memory limit.
// Cases whose choreography needs a paused child (a store deleted mid-run, held connections) are
// listed with the test that runs them. The table is printed into docs/bad-input.md ("Hostile
// corpus"); regenerate with `go test ./cmd/lakeload -run TestHostileCorpus -update-bad-input`.

// corpusEnv is one case's directories: root holds wh (the warehouse), in (inputs) and anything
// else outside the warehouse (victims, foreign directories).
type corpusEnv struct {
	root, wh, in string
	table        string // db.t of the runs' {table}
}

// corpusRun is one command line of a case and what it must do.
type corpusRun struct {
	args   []string // lakeload arguments; {wh}, {in}, {root}, {table} are replaced
	env    []string // more environment variables
	code   int
	want   []string // parts of stderr ({in}, {wh}, {root} replaced)
	never  []string // strings that must appear in neither stdout nor stderr (secrets)
	writes bool     // the run may change the table's snapshots (a successful load, a drop)
}

// corpusCase is one hostile case: what the attacker controls, how it is prepared, the runs.
type corpusCase struct {
	name    string
	finding string // issue 14 finding ("1".."8"), or "held" for what held before the fix
	prepare func(t *testing.T, e *corpusEnv)
	runs    []corpusRun
	test    string // instead of runs: the test that runs this case (a paused child, signals)
}

// peakLimit is the bound on a child's peak RSS: twice the default --memory-limit (448MiB).
const peakLimit = 2 * 448 << 20

// maintenanceRuns are the maintenance commands run against tampered metadata, in order (drop last):
// expire, clean-orphans, compact, scan, table drop. codes holds their exit codes, one digit each: 1
// when the command reads the tampered metadata and refuses it, 0 when it does not read it (compact
// and scan read the latest snapshot only) or does not follow the link. An expiry or a compaction
// that succeeds commits; no other run may. want are message parts of expire's refusal (a refused
// expiry may have deleted files of the snapshots it expires inside the table, so later commands
// can fail on those instead).
func maintenanceRuns(codes string, want ...string) []corpusRun {
	cmds := [][]string{
		{"expire", "--retain-min", "1", "--older-than", "0s"},
		{"clean-orphans", "--older-than", "0s"},
		{"compact", "--full"},
		{"scan"},
		{"table", "drop"},
	}
	if len(codes) != len(cmds) {
		panic("maintenanceRuns: one exit code per command")
	}
	runs := make([]corpusRun, len(cmds))
	for i, c := range cmds {
		code := int(codes[i] - '0')
		runs[i] = corpusRun{args: append(c, "--warehouse", "{wh}", "--table", "{table}"), code: code,
			writes: c[0] == "table" || (c[0] == "compact" || c[0] == "expire") && code == exitOK}
	}
	if codes[0] != '0' {
		runs[0].want = want
	}
	return runs
}

// tamperedTable prepares tamper's table (three snapshots, the second an overwrite) below the
// case's root and applies tamper to it; the victims it plants are checked like every file outside
// the warehouse.
func tamperedTable(external bool, apply func(t *testing.T, lt *tamper.Table)) func(*testing.T, *corpusEnv) {
	return func(t *testing.T, e *corpusEnv) {
		lt := tamper.New(t, e.root, external)
		lt.History(t)
		apply(t, lt)
		e.table = tamper.Database + "." + tamper.Name
	}
}

// inputCase is a bad input case of docs/bad-input.md run as a child process, under the default
// memory limit.
func inputCase(c badCase, finding string, more ...string) corpusCase {
	cols := c.cols
	if cols == nil {
		cols = badTableCols
	}
	return corpusCase{name: c.name, finding: finding,
		prepare: func(t *testing.T, e *corpusEnv) {
			create := cmdArgs([]string{"table", "create"}, tbl(e.wh, "s.t", "--primary-key", "id", "--option", "bucket=1"))
			for _, col := range cols {
				create = append(create, "--column", col)
			}
			ok(t, append(create, c.table...)...)
			c.setup(t, e.in)
			e.table = "s.t"
		},
		runs: []corpusRun{{args: append(append([]string{"load", "--warehouse", "{wh}", "--table", "s.t", "--from", "{in}/" + c.from,
			"--job", "j"}, c.args...), more...), code: c.code, want: c.want}},
	}
}

// simpleTable creates db.t (id INT NOT NULL, name STRING) in the case's warehouse.
func simpleTable(t *testing.T, e *corpusEnv) {
	ok(t, cmdArgs([]string{"table", "create"}, tbl(e.wh, "db.t", "--column", "id INT NOT NULL", "--column", "name STRING"))...)
	writeFile(t, e.in, "in.csv", "id,name\n1,ann\n2,bob\n")
}

// loadedTable is simpleTable with job a loaded (its store in the default location).
func loadedTable(t *testing.T, e *corpusEnv) {
	simpleTable(t, e)
	ok(t, cmdArgs([]string{"load"}, tbl(e.wh, "db.t", "--from", filepath.Join(e.in, "in.csv"), "--job", "a"))...)
}

// linkedStore is loadedTable whose job store's windows/ is a link to a directory outside the
// warehouse holding old window records.
func linkedStore(t *testing.T, e *corpusEnv) {
	loadedTable(t, e)
	store := filepath.Join(e.wh, ".lakeload", "jobs", "db", "t", "a")
	plantVictims(t, filepath.Join(e.root, "victim"), "1/assigned", "1/published")
	if err := os.RemoveAll(filepath.Join(store, "windows")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(e.root, "victim"), filepath.Join(store, "windows")); err != nil {
		t.Fatal(err)
	}
}

const corpusSecret = "pw-s3cr3t-9e2a"

func hostileCorpus() []corpusCase {
	var cases []corpusCase
	// Finding 1: names in metadata pointing outside the table.
	for _, c := range tamper.Cases() {
		cases = append(cases, corpusCase{name: "metadata: " + c.What, finding: "1",
			prepare: tamperedTable(c.External, func(t *testing.T, lt *tamper.Table) { c.Tamper(t, lt) }),
			runs:    maintenanceRuns(c.Codes, "corrupt"),
		})
	}
	// Finding 2: directories of the table that are symbolic links to directories outside it.
	cases = append(cases,
		corpusCase{name: "symlinks: bucket, partition, statistics/, index/ and a data file link outside the table", finding: "2",
			prepare: tamperedTable(false, func(t *testing.T, lt *tamper.Table) { lt.LinkOutside(t) }),
			runs:    maintenanceRuns("00000"),
		},
		corpusCase{name: "symlinks: the bucket directory of expired files links outside the table", finding: "2",
			prepare: tamperedTable(false, func(t *testing.T, lt *tamper.Table) { lt.LinkBucket(t) }),
			runs:    maintenanceRuns("10110", "symbolic link"),
		},
	)
	// Finding 3: job forget of a directory that is not the job's store.
	cases = append(cases,
		corpusCase{name: "job forget --checkpoint of a foreign directory", finding: "3",
			prepare: func(t *testing.T, e *corpusEnv) {
				simpleTable(t, e)
				plantVictims(t, filepath.Join(e.root, "home"), "notes.txt", "windows/1/assigned", "lease/lease-00000000000000000001")
			},
			runs: []corpusRun{{args: []string{"job", "forget", "--warehouse", "{wh}", "--table", "{table}", "--job", "j", "--checkpoint", "{root}/home"},
				code: exitUsage, want: []string{"{root}/home", "job.json", "nothing was deleted"}}},
		},
		corpusCase{name: "job forget of another job's store", finding: "3", prepare: loadedTable,
			runs: []corpusRun{{args: []string{"job", "forget", "--warehouse", "{wh}", "--table", "{table}", "--job", "b", "--checkpoint", "{wh}/.lakeload/jobs/db/t/a"},
				code: exitUsage, want: []string{"job a", "not b", "nothing was deleted"}}},
		},
		corpusCase{name: "job forget of a store whose windows/ links outside it", finding: "3", prepare: linkedStore,
			runs: []corpusRun{{args: []string{"job", "forget", "--warehouse", "{wh}", "--table", "{table}", "--job", "a"}, code: exitOK, writes: true}},
		},
		corpusCase{name: "table drop --with-jobs of a table whose job store's windows/ links outside it", finding: "3", prepare: linkedStore,
			runs: []corpusRun{{args: []string{"table", "drop", "--warehouse", "{wh}", "--table", "{table}", "--with-jobs"}, code: exitOK, writes: true}},
		},
	)
	// Findings 4–6: hostile inputs, under the default memory limit.
	for _, c := range hostileCases() {
		finding := "6"
		switch {
		case strings.Contains(c.name, "nested"):
			finding = "4"
		case strings.Contains(c.name, "bomb"):
			finding = "5"
		}
		cases = append(cases, inputCase(c, finding))
	}
	cases = append(cases, corpusCase{name: "/dev/zero allowed (--allow-non-regular-input) ends at the record size limit", finding: "6",
		prepare: func(t *testing.T, e *corpusEnv) {
			ok(t, cmdArgs([]string{"table", "create"}, tbl(e.wh, "s.t", "--column", "id INT NOT NULL", "--column", "name STRING"))...)
			devZero(t, e.in)
			e.table = "s.t"
		},
		runs: []corpusRun{{args: []string{"load", "--warehouse", "{wh}", "--table", "s.t", "--from", "{in}/in.jsonl", "--job", "j", "--allow-non-regular-input"},
			code: exitInput, want: []string{"row 1 (line 1)", "at most 67108864 bytes"}}},
	})
	// Finding 7, and the checkpoint store deleted mid-run of finding 8: choreographed elsewhere.
	cases = append(cases,
		corpusCase{name: "metrics server: 90 held connections under ulimit -n 64", finding: "7", test: "TestCLIMetricsHeldConnections"},
		corpusCase{name: "metrics server: idle and slow connections, connection limit, loopback default", finding: "7", test: "TestMetricsServerLimits"},
		corpusCase{name: "checkpoint store deleted mid-run", finding: "8", test: "TestCLIStoreDeletedMidRun"},
	)
	// Finding 8: names and URLs.
	cases = append(cases,
		corpusCase{name: "job name with a newline (forges jobs list lines)", finding: "8", prepare: simpleTable,
			runs: []corpusRun{{args: []string{"load", "--warehouse", "{wh}", "--table", "{table}", "--from", "{in}/in.csv", "--job", "a\nb finished 3"},
				code: exitUsage, want: []string{`invalid job name "a\nb finished 3"`}}},
		},
		corpusCase{name: "table name with a right-to-left override", finding: "8",
			runs: []corpusRun{{args: []string{"table", "create", "--warehouse", "{wh}", "--table", "db.evil\u202etxt", "--column", "k INT"},
				code: exitUsage, want: []string{`table name "evil\u202etxt"`, "bidi"}}},
		},
		corpusCase{name: "s3:// location with user info", finding: "8",
			runs: []corpusRun{{args: []string{"scan", "--warehouse", "s3://AKID:" + corpusSecret + "@bucket/wh", "--table", "db.t"},
				code: exitUsage, want: []string{"s3://REDACTED@bucket/wh", "credential chain"}, never: []string{corpusSecret}}},
		},
		corpusCase{name: "endpoint URL with a token in its query", finding: "8", prepare: simpleTable,
			runs: []corpusRun{{args: []string{"load", "--warehouse", "{wh}", "--table", "{table}", "--from", "s3://bucket/in/*.csv", "--job", "j"},
				env:  []string{"AWS_ENDPOINT_URL=http://127.0.0.1:1/?token=" + corpusSecret, "AWS_ACCESS_KEY_ID=x", "AWS_SECRET_ACCESS_KEY=y", "LAKELOAD_S3_MAX_ATTEMPTS=1"},
				code: exitUsage, want: []string{"AWS_ENDPOINT_URL", "http://127.0.0.1:1/?REDACTED"}, never: []string{corpusSecret}}},
		},
	)
	// What held before the fix: damaged files, escaped partition values, unsafe names.
	for _, c := range damagedCases() {
		cases = append(cases, inputCase(c, "held"))
	}
	cases = append(cases,
		corpusCase{name: "partition values with ../, /, = and control characters", finding: "held",
			prepare: func(t *testing.T, e *corpusEnv) {
				ok(t, cmdArgs([]string{"table", "create"}, tbl(e.wh, "db.t", "--column", "p STRING", "--column", "v INT", "--partition-key", "p"))...)
				writeFile(t, e.in, "in.csv", "p,v\n../../../escape,1\n..,2\na/b,3\nx=y,4\n\"ctl\x01z\",5\n\"new\nline\",6\n")
			},
			runs: []corpusRun{{args: []string{"load", "--warehouse", "{wh}", "--table", "{table}", "--from", "{in}/in.csv", "--job", "j"}, code: exitOK, writes: true}},
		},
		corpusCase{name: "table name with a slash", finding: "held",
			runs: []corpusRun{{args: []string{"table", "create", "--warehouse", "{wh}", "--table", "db.a/b", "--column", "k INT"},
				code: exitUsage, want: []string{`table name "a/b"`}}},
		},
		corpusCase{name: "column name with ..", finding: "held",
			runs: []corpusRun{{args: []string{"table", "create", "--warehouse", "{wh}", "--table", "db.t", "--column", "a..b INT"},
				code: exitTable, want: []string{`column name "a..b"`}}},
		},
	)
	return cases
}

// TestHostileCorpus runs the hostile corpus (see the comment at the top of this file).
func TestHostileCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100 MB inputs and runs the binary")
	}
	var doc strings.Builder
	for _, c := range hostileCorpus() {
		fmt.Fprintf(&doc, "| %s | %s | %s |\n", c.name, c.finding, corpusDocRuns(c))
		if c.test != "" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			e := &corpusEnv{root: root, wh: filepath.Join(root, "wh"), in: filepath.Join(root, "in"), table: "db.t"}
			for _, d := range []string{e.wh, e.in} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if c.prepare != nil {
				c.prepare(t, e)
			}
			outside := filesOutside(t, root, e.wh)
			for _, r := range c.runs {
				snaps := snapshotNames(t, e.wh, e.table)
				args := make([]string, len(r.args))
				for i, a := range r.args {
					args[i] = e.expand(a)
				}
				stdout, stderr, code, rss := runMeasured(t, r.env, args...)
				what := strings.Join(args, " ")
				if code != r.code {
					t.Errorf("lakeload %s: exit %d, want %d\nstdout: %.2000s\nstderr: %.2000s", what, code, r.code, stdout, stderr)
				}
				for _, w := range r.want {
					if w = e.expand(w); !strings.Contains(stderr, w) {
						t.Errorf("lakeload %s: stderr %.2000q does not mention %q", what, stderr, w)
					}
				}
				for _, n := range r.never {
					if strings.Contains(stdout+stderr, n) {
						t.Errorf("lakeload %s: the output shows %q:\n%s%s", what, n, stdout, stderr)
					}
				}
				if rss > peakLimit {
					t.Errorf("lakeload %s: peak RSS %d MiB, more than twice the default memory limit", what, rss>>20)
				}
				if after := snapshotNames(t, e.wh, e.table); !r.writes && after != snaps {
					t.Errorf("lakeload %s: the table's snapshots changed from %q to %q (nothing may be committed)", what, snaps, after)
				}
				sameOutside(t, what, outside, filesOutside(t, root, e.wh))
			}
		})
	}
	checkGenerated(t, badInputDoc, "hostile-corpus", doc.String(), *updateBadInput, "go test ./cmd/lakeload -run TestHostileCorpus -update-bad-input")
}

func (e *corpusEnv) expand(s string) string {
	return strings.NewReplacer("{wh}", e.wh, "{in}", e.in, "{root}", e.root, "{table}", e.table).Replace(s)
}

// corpusDocRuns renders a case's runs for the doc: each command line (placeholders as WH, IN, ROOT)
// with its exit code and the message parts it must show.
func corpusDocRuns(c corpusCase) string {
	if c.test != "" {
		return fmt.Sprintf("`go test ./cmd/lakeload -run '^%s$'`", c.test)
	}
	doc := strings.NewReplacer("{wh}", "WH", "{in}", "IN", "{root}", "ROOT", "{table}", "db.t", "|", `\|`)
	var parts []string
	for _, r := range c.runs {
		var words []string
		for _, a := range r.args {
			q := strconv.Quote(a)
			if q == `"`+a+`"` && !strings.ContainsAny(a, " *'") {
				q = a
			}
			words = append(words, q)
		}
		s := "`" + strings.Join(append(r.env, append([]string{"lakeload"}, words...)...), " ") + "` → " + strconv.Itoa(r.code)
		if len(r.want) > 0 {
			var ws []string
			for _, w := range r.want {
				ws = append(ws, strconv.Quote(w))
			}
			s += " (" + strings.Join(ws, ", ") + ")"
		}
		parts = append(parts, doc.Replace(s))
	}
	return strings.Join(parts, "<br>")
}

// runMeasured runs the test binary as lakeload with more environment variables and returns its
// stdout, stderr, exit code and peak RSS in bytes (VmHWM, written by the child at exit; 0 when
// /proc is not there). getrusage of the child cannot tell: Go starts a child with vfork, so the
// child's ru_maxrss starts at the test process's own peak.
func runMeasured(t *testing.T, env []string, args ...string) (string, string, int, int64) {
	t.Helper()
	// A guard against a run without end (an unbounded read), not a timing assertion.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	hwm := filepath.Join(t.TempDir(), "peak-rss")
	cmd.Env = append(append(os.Environ(), mainEnv+"=1", "GOMEMLIMIT=", hwmEnv+"="+hwm), env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var rss int64
	if kb, err := os.ReadFile(hwm); err == nil {
		if rss, err = strconv.ParseInt(string(kb), 10, 64); err != nil {
			t.Fatalf("peak RSS %q: %v", kb, err)
		}
		rss <<= 10
	} else if _, statErr := os.Stat("/proc/self/status"); statErr == nil {
		t.Fatalf("no peak RSS from the child: %v; stderr: %.2000s", err, errb.String())
	}
	return out.String(), errb.String(), code, rss
}

// snapshotNames lists the snapshot directory of table db.t in wh ("" when there is none).
func snapshotNames(t *testing.T, wh, table string) string {
	t.Helper()
	db, name, _ := strings.Cut(table, ".")
	entries, err := os.ReadDir(filepath.Join(wh, db+".db", name, "snapshot"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	var names []string
	for _, en := range entries {
		names = append(names, en.Name())
	}
	return strings.Join(names, ",")
}

// outsideFile is what is known of a file (or link) outside the warehouse.
type outsideFile struct {
	mode fs.FileMode
	data []byte // contents of a regular file, target of a link
}

// filesOutside reads every file and link below root but outside wh (without following links).
func filesOutside(t *testing.T, root, wh string) map[string]outsideFile {
	t.Helper()
	out := map[string]outsideFile{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == wh {
			return filepath.SkipDir
		}
		var f outsideFile
		switch {
		case d.IsDir():
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			f = outsideFile{mode: fs.ModeSymlink, data: []byte(target)}
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			f = outsideFile{data: b}
		default:
			f = outsideFile{mode: d.Type()}
		}
		out[p] = f
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameOutside fails for every file outside the warehouse that a run deleted, changed or created.
func sameOutside(t *testing.T, what string, before, after map[string]outsideFile) {
	t.Helper()
	for p, b := range before {
		a, found := after[p]
		switch {
		case !found:
			t.Errorf("lakeload %s deleted %s outside the warehouse", what, p)
		case a.mode != b.mode || !bytes.Equal(a.data, b.data):
			t.Errorf("lakeload %s changed %s outside the warehouse", what, p)
		}
	}
	for p := range after {
		if _, found := before[p]; !found {
			t.Errorf("lakeload %s created %s outside the warehouse", what, p)
		}
	}
}
