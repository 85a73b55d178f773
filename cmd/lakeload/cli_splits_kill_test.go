package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/job/plan"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/source"
	"github.com/lakeload/lakeload/source/file"
)

// bigCSVEnv sets the size of TestKillInBigCSVRedoesAtMostOneWindow's CSV file in MB (default 24);
// `make splits-kill-2g` runs it with 2048.
const bigCSVEnv = "LAKELOAD_SPLITS_CSV_MB"

// writeBigCSV writes a CSV file of about mb MB: id and a quoted body holding a newline, quotes and
// commas (so records and lines differ), and returns its rows.
func writeBigCSV(t *testing.T, path string, mb int) int64 {
	t.Helper()
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(fh, 1<<20)
	_, _ = w.WriteString("id,body\n")
	var rows int64
	for written := 0; written < mb<<20; rows++ {
		n, _ := fmt.Fprintf(w, "%d,\"row %d says \"\"hello, world\"\"\nand goes on, on a second line %x\"\n", rows, rows, rows*7919)
		written += n
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestKillInBigCSVRedoesAtMostOneWindow is issue 15's acceptance measurement: a load of one big
// CSV file with quoted newlines is killed with SIGKILL (LAKELOAD_CRASH_AT) inside a window in the
// middle of the file, after that window's data files were written; the resume redoes at most that
// window's rows and the table ends with every row exactly once. Before text files were cut, the
// file was one split and one window: the kill lost all the file's work (and the crash point in the
// middle window was never reached). Numbers (rows redone, windows, times) are logged, not asserted.
// Scenario: crash-and-resume.
func TestKillInBigCSVRedoesAtMostOneWindow(t *testing.T) {
	mb := 24
	if v := os.Getenv(bigCSVEnv); v != "" {
		var err error
		if mb, err = strconv.Atoi(v); err != nil || mb <= 0 {
			t.Fatalf("%s=%q: want a size in MB", bigCSVEnv, v)
		}
	}
	wh, in := loadtest.TempDir(t), loadtest.TempDir(t)
	path := filepath.Join(in, "big.csv")
	start := time.Now()
	rows := writeBigCSV(t, path, mb)
	genTime := time.Since(start)
	fx := loadtest.Fixture{Name: "big", Columns: [][2]string{{"id", "BIGINT"}, {"body", "STRING"}}}
	tb := fx.Create(t, wh)

	// The cost of the plan-time scan, against reading (parsing) the file once.
	whole, err := file.PlanWith(context.Background(), local.New(), path, "", source.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	commitRows := max(rows/12, 1000)
	splitRows := max(commitRows/4, 1024) // --parallelism 2: job's splitRows
	start = time.Now()
	cuts, err := file.CutText(context.Background(), local.New(), whole[0], splitRows)
	if err != nil {
		t.Fatal(err)
	}
	scanTime := time.Since(start)
	start = time.Now()
	if n := readRows(t, whole[0], fx); n != rows {
		t.Fatalf("the file reads as %d rows, want %d", n, rows)
	}
	parseTime := time.Since(start)

	const name = "big"
	args := cmdArgs([]string{"load"}, tbl(wh, loadtest.Database+".big", "--from", path, "--job", name,
		"--commit-rows", strconv.FormatInt(commitRows, 10), "--parallelism", "2"))
	mid := int64(len(cuts)/4/2 + 1) // about half of the windows (four splits each) are published before it
	start = time.Now()
	_, errs, code := runChild(t, []string{"LAKELOAD_CRASH_AT=task-written:" + strconv.FormatInt(mid, 10)}, args...)
	killedTime := time.Since(start)
	if code != -1 {
		t.Fatalf("the load was not killed inside window %d (exit %d): the file is not loaded in windows? stderr: %s", mid, code, errs)
	}
	store := checkpoint.NewStore(local.New(), job.StorePath(catalog.New(local.New(), wh), fx.Ident(), name))
	st, err := store.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	splits, err := plan.Stored(st)
	if err != nil {
		t.Fatal(err)
	}
	var published, publishedRows, inFlight, redone int64
	for _, ws := range st.Windows() {
		if ws.Published != nil {
			published++
			publishedRows += ws.Published.Rows
			continue
		}
		inFlight++
		for _, i := range ws.Assigned.Splits {
			redone += splits[i].RowCount
		}
	}
	if published != mid-1 || inFlight != 1 {
		t.Fatalf("after the kill in window %d: %d windows published, %d in flight", mid, published, inFlight)
	}
	if redone > commitRows+splitRows {
		t.Fatalf("the kill loses %d rows of work, more than one window (--commit-rows %d plus less than a split of %d)", redone, commitRows, splitRows)
	}

	start = time.Now()
	out := ok(t, args...)
	resumeTime := time.Since(start)
	st, err = store.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	snap, err := tb.Snapshots().Latest(context.Background())
	if err != nil || snap == nil || snap.TotalRecordCount == nil || *snap.TotalRecordCount != rows {
		t.Fatalf("after the resume (%s) the table has %v rows (%v), want %d exactly once", out, snap, err, rows)
	}
	t.Logf("%d MB CSV, %d rows with quoted newlines (generated in %v); --commit-rows %d --parallelism 2: %d splits of ~%d rows, %d windows; "+
		"plan-time cut scan %v (%.0f MB/s; parsing the file once: %v); killed (SIGKILL at task-written of window %d) after %v with %d windows (%d rows) published; "+
		"the resume redid %d rows (1 window) and wrote %d rows in %v",
		mb, rows, genTime.Round(time.Millisecond), commitRows, len(cuts), splitRows, len(st.Windows()),
		scanTime.Round(time.Millisecond), float64(whole[0].Size)/(1<<20)/scanTime.Seconds(), parseTime.Round(time.Millisecond), mid, killedTime.Round(time.Millisecond),
		published, publishedRows, redone, rows-publishedRows, resumeTime.Round(time.Millisecond))
}

// readRows reads a split into fx's table shape and counts its rows.
func readRows(t *testing.T, sp source.Split, fx loadtest.Fixture) int64 {
	t.Helper()
	ctx := context.Background()
	r, err := file.Open(ctx, local.New(), sp, fx.Schema(t), source.MappingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var n int64
	for {
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			t.Fatal(err)
		}
		n += b.Record.NumRows()
		b.Record.Release()
	}
}
