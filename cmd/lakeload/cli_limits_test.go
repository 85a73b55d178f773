package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakeload/lakeload/source/hostile"
)

// hwmEnv names a file where the test binary run as lakeload writes its peak RSS (VmHWM of
// /proc/self/status, in kB) before it exits. getrusage of the child cannot tell: Go starts a child
// with vfork, so the child's ru_maxrss starts at the test process's own peak.
const hwmEnv = "LAKELOAD_TEST_PEAK_RSS_FILE"

func writePeakRSS(path string) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			_ = os.WriteFile(path, []byte(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB"))), 0o644)
		}
	}
}

// bombSchema is the decompression bomb of the hostile cases: id (INT) and seven BIGINT columns,
// 16Mi zero rows, 960 MiB decompressed in a file of a few KiB (issue 14, finding 5: a 415 KB file of
// 8 columns took 2.1 GB under the default memory limit, and was committed).
var bombSchema = arrow.NewSchema(append([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}}, hostile.Int64Columns("c", 7)...), nil)

const bombRows = 16 << 20

var bombCols = []string{"id INT NOT NULL", "name STRING", "c0 BIGINT", "c1 BIGINT", "c2 BIGINT", "c3 BIGINT", "c4 BIGINT", "c5 BIGINT", "c6 BIGINT"}

func bombFile(name string) func(*testing.T, string) {
	return shared("bomb-"+name, func(t *testing.T, dir string) {
		t.Helper()
		if err := hostile.ParquetBomb(filepath.Join(dir, name), bombSchema, bombRows); err != nil {
			t.Fatal(err)
		}
	})
}

func wideFooterFile(name string, cols int) func(*testing.T, string) {
	return shared(fmt.Sprintf("footer-%d-%s", cols, name), func(t *testing.T, dir string) {
		t.Helper()
		var b bytes.Buffer
		if err := hostile.WideFooter(&b, cols); err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, name, b.String())
	})
}

// deepJSONL is a JSON line 6 MB deep after a good one (issue 14, finding 4).
var deepJSONL = shared("deep.jsonl", func(t *testing.T, dir string) {
	writeFile(t, dir, "in.jsonl", `{"id":1,"name":"ann"}`+"\n"+`{"id":2,"name":`+strings.Repeat("[", 6<<20)+"\n")
})

// longJSONL is a 100 MB JSON line after a good one (issue 14, finding 6).
var longJSONL = shared("long.jsonl", func(t *testing.T, dir string) {
	writeFile(t, dir, "in.jsonl", `{"id":1,"name":"ann"}`+"\n"+`{"id":2,"name":"`+strings.Repeat("x", 100<<20)+`"}`+"\n")
})

// longCSV is a 100 MB CSV record of commas after a good one.
var longCSV = shared("long.csv", func(t *testing.T, dir string) {
	writeFile(t, dir, "in.csv", "id,name\n1,ann\n2,"+strings.Repeat(",", 100<<20)+"\n")
})

// sharedInputs holds the big hostile inputs, each generated once per test binary run (below a
// directory TestMain removes) and hard-linked into the tests' input directories.
var sharedInputs struct {
	sync.Mutex
	dir  string
	made map[string]string // key → directory holding the generated files
}

// shared returns a setup that links the files gen writes (generated on first use) into dir.
func shared(key string, gen func(*testing.T, string)) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		sharedInputs.Lock()
		defer sharedInputs.Unlock()
		src, found := sharedInputs.made[key]
		if !found {
			if sharedInputs.dir == "" {
				d, err := os.MkdirTemp("", "lakeload-hostile-")
				if err != nil {
					t.Fatal(err)
				}
				sharedInputs.dir, sharedInputs.made = d, map[string]string{}
			}
			src = filepath.Join(sharedInputs.dir, strconv.Itoa(len(sharedInputs.made)))
			if err := os.Mkdir(src, 0o755); err != nil {
				t.Fatal(err)
			}
			gen(t, src)
			sharedInputs.made[key] = src
		}
		entries, err := os.ReadDir(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if err := os.Link(filepath.Join(src, e.Name()), filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// removeSharedInputs removes the generated inputs (TestMain, after the tests).
func removeSharedInputs() {
	if sharedInputs.dir != "" {
		_ = os.RemoveAll(sharedInputs.dir)
	}
}

// unlinkShared removes the files of dir that are hard links (to shared inputs), so that a fix
// writing the same name creates a new file instead of overwriting the shared one.
func unlinkShared(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		fi, err := os.Lstat(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && fi.Mode().IsRegular() && st.Nlink > 1 {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func devZero(t *testing.T, dir string) {
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "in.jsonl")); err != nil {
		t.Fatal(err)
	}
}

var goodJSONL = textFile("in.jsonl", `{"id":1,"name":"ann"}`+"\n"+`{"id":2,"name":"bob"}`+"\n")

func replaced(name string, fix func(*testing.T, string)) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		fix(t, dir)
	}
}

// hostileCases are the bad inputs of issue 14 that a reader without limits turned into a crash, gigabytes of
// memory or a read without end; each is an input error naming the file and the row (or row group and column).
func hostileCases() []badCase {
	idName := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}, {Name: "name", Type: arrow.BinaryTypes.String}}, nil)
	pqGood := badParquet("in.parquet", idName, `[{"id":1,"name":"ann"},{"id":2,"name":"bob"}]`)
	rows := []string{"1:ann", "2:bob"}
	return []badCase{
		{name: "JSON line nested 6 MB deep", setup: deepJSONL, fix: goodJSONL, from: "in.jsonl", code: exitInput,
			want: []string{"file {in}/in.jsonl", "row 2 (line 2)", "nested deeper than 512", "--max-json-depth"}, rows: rows},
		{name: "JSON line of 100 MB", setup: longJSONL, fix: goodJSONL, from: "in.jsonl", code: exitInput,
			want: []string{"file {in}/in.jsonl", "row 2 (line 2)", "at most 67108864 bytes", "--max-record-bytes"}, rows: rows},
		{name: "CSV record of 100 MB", setup: longCSV, fix: textFile("in.csv", "id,name\n1,ann\n2,bob\n"), from: "in.csv", code: exitInput,
			want: []string{"file {in}/in.csv", "row 2 (line 3)", "at most 67108864 bytes", "--max-record-bytes"}, rows: rows},
		{name: "Parquet decompression bomb (8 columns, 960 MiB decompressed)", setup: bombFile("in.parquet"), fix: pqGood, from: "in.parquet",
			cols: bombCols, code: exitInput,
			want: []string{"file {in}/in.parquet", "row group 0", `column "c`, "memory limit", "smaller row groups", "--memory-limit"}, rows: rows},
		{name: "Parquet footer of a million columns", setup: wideFooterFile("in.parquet", 1_000_000), fix: pqGood, from: "in.parquet", code: exitInput,
			want: []string{"file {in}/in.parquet", "declares 1000001 columns", "more than the limit of 100000"}, rows: rows},
		{name: "non-regular input (a symlink to /dev/zero)", setup: devZero, fix: replaced("in.jsonl", goodJSONL), from: "in.jsonl", code: exitInput,
			want: []string{"{in}/in.jsonl", "not a regular file", "character device", "--allow-non-regular-input"}, rows: rows},
		{name: "directory input holding a symlink to a directory (here: a loop)", setup: linkedDir, fix: replaced("d/loop", func(*testing.T, string) {}),
			from: "d", code: exitInput, want: []string{"{in}/d/loop", "symbolic link to a directory", "--from"}, rows: rows},
	}
}

// linkedDir writes d/in.jsonl and d/loop, a link to d itself: walking d must not follow it.
func linkedDir(t *testing.T, dir string) {
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	goodJSONL(t, filepath.Join(dir, "d"))
	if err := os.Symlink(filepath.Join(dir, "d"), filepath.Join(dir, "d", "loop")); err != nil {
		t.Fatal(err)
	}
}

// TestHostileRowsQuarantined: with --bad-rows=quarantine a JSON line nested too deep and one too long are
// quarantined (the deep one whole, the long one by its first KiB) and the other rows load, so a job is never
// stuck on such a row.
func TestHostileRowsQuarantined(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "s.t", "--column", "id INT NOT NULL", "--column", "name STRING",
		"--primary-key", "id", "--option", "bucket=1"))...)
	writeFile(t, in, "in.jsonl", `{"id":1,"name":"ann"}`+"\n"+`{"id":2,"name":`+strings.Repeat("[", 600)+"\n"+
		`{"id":3,"name":"`+strings.Repeat("x", 3000)+`"}`+"\n"+`{"id":4,"name":"dee"}`+"\n")
	out := ok(t, cmdArgs([]string{"load"}, tbl(wh, "s.t", "--from", filepath.Join(in, "in.jsonl"), "--job", "q",
		"--bad-rows", "quarantine", "--max-record-bytes", "2048"))...)
	if !strings.Contains(out, "rows quarantined by this run: 2") {
		t.Errorf("load output %q", out)
	}
	sameLines(t, "rows", []string{"1:ann", "4:dee"}, idNames(t, ok(t, cmdArgs([]string{"scan"}, tbl(wh, "s.t", "--output", "jsonl"))...)))
	fails(t, exitUsage, []string{"--max-record-bytes -1"}, cmdArgs([]string{"load"}, tbl(wh, "s.t", "--from", filepath.Join(in, "in.jsonl"), "--job", "q2", "--max-record-bytes", "-1"))...)
}
