// Package fiotest is the behaviour spec every fileio.FileIO backend must pass.
//
// Run it from a backend's tests: fiotest.Run(t, func(t *testing.T) (fileio.FileIO, string) {...}).
// Each subtest gets a fresh backend and an empty root directory it may write under. The suite
// only uses the public FileIO contract, so a pass means callers can swap backends freely.
package fiotest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lakeload/lakeload/fileio"
)

// NewFS returns a fresh backend and an empty root directory path for one subtest.
type NewFS func(t *testing.T) (fileio.FileIO, string)

// Run runs the whole behaviour spec against the backend made by newFS.
func Run(t *testing.T, newFS NewFS) { RunWith(t, newFS, Options{}) }

// RunWith runs the behaviour spec with the relaxations in opts.
func RunWith(t *testing.T, newFS NewFS, opts Options) {
	cases := []struct {
		name   string
		fn     func(t *testing.T, f fileio.FileIO, root string)
		strict bool // a file-vs-directory exclusion, skipped with Options.FlatNamespace
	}{
		{"ReadWriteRoundTrip", testRoundTrip, false},
		{"EmptyFile", testEmptyFile, false},
		{"OpenRandomAccess", testOpenRandomAccess, false},
		{"CreateReplaces", testCreateReplaces, false},
		{"CreateInvisibleUntilClose", testCreateInvisibleUntilClose, false},
		{"Abort", testAbort, false},
		{"WriterAfterClose", testWriterAfterClose, false},
		{"ParentsCreated", testParentsCreated, false},
		{"FileBlocksParent", testFileBlocksParent, true},
		{"CreateOverDirectoryFails", testCreateOverDirectory, true},
		{"Missing", testMissing, false},
		{"Stat", testStat, false},
		{"List", testList, false},
		{"Delete", testDelete, false},
		{"DeleteAll", testDeleteAll, false},
		{"WriteIfAbsent", testWriteIfAbsent, false},
		{"WriteIfAbsentRace", testWriteIfAbsentRace, false},
		{"CanceledContext", testCanceledContext, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.strict && opts.FlatNamespace {
				t.Skip("flat namespace: a key and a prefix of the same name may coexist")
			}
			f, root := newFS(t)
			c.fn(t, f, root)
		})
	}
}

var ctx = context.Background()

func write(t *testing.T, f fileio.FileIO, p string, data []byte) {
	t.Helper()
	if err := fileio.WriteFile(ctx, f, p, data); err != nil {
		t.Fatalf("WriteFile(%s): %v", p, err)
	}
}

func read(t *testing.T, f fileio.FileIO, p string) []byte {
	t.Helper()
	b, err := f.ReadFile(ctx, p)
	if err != nil {
		t.Fatalf("ReadFile(%s): %v", p, err)
	}
	return b
}

func wantContent(t *testing.T, f fileio.FileIO, p string, want []byte) {
	t.Helper()
	if got := read(t, f, p); !bytes.Equal(got, want) {
		t.Fatalf("ReadFile(%s) = %q, want %q", p, clip(got), clip(want))
	}
}

func wantMissing(t *testing.T, f fileio.FileIO, p string) {
	t.Helper()
	_, err := f.Stat(ctx, p)
	if !errors.Is(err, fileio.ErrNotExist) {
		t.Fatalf("Stat(%s) err = %v, want ErrNotExist", p, err)
	}
}

func names(t *testing.T, f fileio.FileIO, dir string) []string {
	t.Helper()
	infos, err := f.List(ctx, dir)
	if err != nil {
		t.Fatalf("List(%s): %v", dir, err)
	}
	out := make([]string, len(infos))
	for i, fi := range infos {
		out[i] = fi.Name
	}
	return out
}

// pattern returns n bytes that differ per seed, so torn or mixed content is detected.
func pattern(seed string, n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%s:%d;", seed, i)
	}
	return b.Bytes()[:n]
}

func clip(b []byte) string {
	if len(b) > 64 {
		return string(b[:64]) + "…"
	}
	return string(b)
}

func testRoundTrip(t *testing.T, f fileio.FileIO, root string) {
	p := fileio.Join(root, "a.bin")
	data := pattern("roundtrip", 300_000) // larger than any write buffer
	write(t, f, p, data)
	wantContent(t, f, p, data)
}

func testEmptyFile(t *testing.T, f fileio.FileIO, root string) {
	p := fileio.Join(root, "empty")
	write(t, f, p, nil)
	wantContent(t, f, p, []byte{})
	fi, err := f.Stat(ctx, p)
	if err != nil || fi.Size != 0 || fi.IsDir {
		t.Fatalf("Stat(empty) = %+v, %v; want size 0 file", fi, err)
	}
}

func testOpenRandomAccess(t *testing.T, f fileio.FileIO, root string) {
	p := fileio.Join(root, "ra")
	data := pattern("ra", 10_000)
	write(t, f, p, data)
	r, err := f.Open(ctx, p)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if r.Size() != int64(len(data)) {
		t.Fatalf("Size = %d, want %d", r.Size(), len(data))
	}
	buf := make([]byte, 100)
	if _, err := r.ReadAt(buf, 5000); err != nil || !bytes.Equal(buf, data[5000:5100]) {
		t.Fatalf("ReadAt(5000) = %q, %v", clip(buf), err)
	}
	if n, err := r.ReadAt(buf, int64(len(data))-10); n != 10 || err != io.EOF {
		t.Fatalf("ReadAt near end = %d, %v; want 10, EOF", n, err)
	}
	if pos, err := r.Seek(-50, io.SeekEnd); err != nil || pos != int64(len(data))-50 {
		t.Fatalf("Seek(-50, End) = %d, %v", pos, err)
	}
	rest, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(rest, data[len(data)-50:]) {
		t.Fatalf("read after Seek = %q, %v", clip(rest), err)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	all, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(all, data) {
		t.Fatalf("ReadAll after rewind: %d bytes, %v", len(all), err)
	}
	if err := r.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := r.ReadAt(buf, 0); err == nil {
		t.Fatal("ReadAt after Close succeeded")
	}
	if _, err := f.Open(ctx, root); err == nil {
		t.Fatal("Open(directory) succeeded")
	}
}

func testCreateReplaces(t *testing.T, f fileio.FileIO, root string) {
	p := fileio.Join(root, "x")
	write(t, f, p, pattern("old-longer-content", 5000))
	write(t, f, p, []byte("new"))
	wantContent(t, f, p, []byte("new"))
	if got := names(t, f, root); !slices.Equal(got, []string{"x"}) {
		t.Fatalf("List after replace = %q, want [x] (no leftovers)", got)
	}
}

func testCreateInvisibleUntilClose(t *testing.T, f fileio.FileIO, root string) {
	p := fileio.Join(root, "d", "new")
	w, err := f.Create(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(pattern("partial", 100_000)); err != nil {
		t.Fatal(err)
	}
	wantMissing(t, f, p)
	if slices.Contains(names(t, f, fileio.Join(root, "d")), "new") {
		t.Fatal("List shows the file before Close")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	wantContent(t, f, p, pattern("partial", 100_000))

	// Replacing: readers keep seeing the old content until Close.
	w, err = f.Create(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("v2")); err != nil {
		t.Fatal(err)
	}
	wantContent(t, f, p, pattern("partial", 100_000))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	wantContent(t, f, p, []byte("v2"))
	if got := names(t, f, fileio.Join(root, "d")); !slices.Equal(got, []string{"new"}) {
		t.Fatalf("List = %q, want [new] (no leftovers)", got)
	}
}

func testAbort(t *testing.T, f fileio.FileIO, root string) {
	p := fileio.Join(root, "aborted")
	w, err := f.Create(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("nope")); err != nil {
		t.Fatal(err)
	}
	if err := w.Abort(); err != nil {
		t.Fatalf("Abort: %v", err)
	}
	wantMissing(t, f, p)
	if got := names(t, f, root); len(got) != 0 {
		t.Fatalf("List after Abort = %q, want empty (temp removed)", got)
	}

	// Aborting a replacement keeps the old file.
	write(t, f, p, []byte("keep"))
	w, err = f.Create(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("discard")); err != nil {
		t.Fatal(err)
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	wantContent(t, f, p, []byte("keep"))
	if got := names(t, f, root); !slices.Equal(got, []string{"aborted"}) {
		t.Fatalf("List = %q, want [aborted]", got)
	}
}

func testWriterAfterClose(t *testing.T, f fileio.FileIO, root string) {
	p := fileio.Join(root, "closed")
	w, err := f.Create(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("two")); err == nil {
		t.Fatal("Write after Close succeeded")
	}
	if err := w.Close(); err == nil {
		t.Fatal("second Close succeeded")
	}
	if err := w.Abort(); err != nil {
		t.Fatalf("Abort after Close must be a no-op, got %v", err)
	}
	wantContent(t, f, p, []byte("one"))
}

func testParentsCreated(t *testing.T, f fileio.FileIO, root string) {
	write(t, f, fileio.Join(root, "a", "b", "c", "file"), []byte("deep"))
	if err := f.WriteIfAbsent(ctx, fileio.Join(root, "x", "y", "file"), []byte("deep2")); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"a", "a/b", "a/b/c", "x", "x/y"} {
		fi, err := f.Stat(ctx, fileio.Join(root, d))
		if err != nil || !fi.IsDir {
			t.Fatalf("Stat(%s) = %+v, %v; want a directory", d, fi, err)
		}
	}
	wantContent(t, f, fileio.Join(root, "a/b/c/file"), []byte("deep"))
	wantContent(t, f, fileio.Join(root, "x/y/file"), []byte("deep2"))
}

func testFileBlocksParent(t *testing.T, f fileio.FileIO, root string) {
	// A file in the way of a parent directory is an error, not an overwrite.
	write(t, f, fileio.Join(root, "plain"), []byte("p"))
	if err := fileio.WriteFile(ctx, f, fileio.Join(root, "plain", "child"), []byte("c")); err == nil {
		t.Fatal("writing under a file succeeded")
	}
	wantContent(t, f, fileio.Join(root, "plain"), []byte("p"))
}

func testCreateOverDirectory(t *testing.T, f fileio.FileIO, root string) {
	write(t, f, fileio.Join(root, "dir", "f"), []byte("f"))
	if err := fileio.WriteFile(ctx, f, fileio.Join(root, "dir"), []byte("x")); err == nil {
		t.Fatal("Create over a directory succeeded")
	}
	if err := f.WriteIfAbsent(ctx, fileio.Join(root, "dir"), []byte("x")); !errors.Is(err, fileio.ErrExist) {
		t.Fatalf("WriteIfAbsent over a directory: err = %v, want ErrExist", err)
	}
	wantContent(t, f, fileio.Join(root, "dir", "f"), []byte("f"))
}

func testMissing(t *testing.T, f fileio.FileIO, root string) {
	p := fileio.Join(root, "no", "such-file")
	checks := map[string]error{}
	_, checks["Stat"] = f.Stat(ctx, p)
	_, checks["Open"] = f.Open(ctx, p)
	_, checks["ReadFile"] = f.ReadFile(ctx, p)
	for op, err := range checks {
		if !errors.Is(err, fileio.ErrNotExist) || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s(missing) err = %v, want ErrNotExist", op, err)
		}
		if err != nil && !strings.Contains(err.Error(), "such-file") {
			t.Errorf("%s(missing) err %q does not name the path", op, err)
		}
	}
	if ok, err := fileio.Exists(ctx, f, p); ok || err != nil {
		t.Errorf("Exists(missing) = %v, %v", ok, err)
	}
}

func testStat(t *testing.T, f fileio.FileIO, root string) {
	p := fileio.Join(root, "s", "file.txt")
	write(t, f, p, []byte("12345"))
	fi, err := f.Stat(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Name != "file.txt" || fi.Size != 5 || fi.IsDir || fi.Path != p || fi.ModTime.IsZero() {
		t.Fatalf("Stat(file) = %+v", fi)
	}
	fi, err = f.Stat(ctx, fileio.Join(root, "s"))
	if err != nil || !fi.IsDir || fi.Name != "s" {
		t.Fatalf("Stat(dir) = %+v, %v", fi, err)
	}
}

func testList(t *testing.T, f fileio.FileIO, root string) {
	dir := fileio.Join(root, "l")
	for _, n := range []string{"snapshot-10", "b", "snapshot-2", "a"} {
		write(t, f, fileio.Join(dir, n), []byte(n))
	}
	write(t, f, fileio.Join(dir, "sub", "inner"), []byte("i"))
	infos, err := f.List(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a", "b", "snapshot-10", "snapshot-2", "sub"}
	if len(infos) != len(want) {
		t.Fatalf("List = %+v, want names %q (direct children only)", infos, want)
	}
	for i, fi := range infos {
		if fi.Name != want[i] || fi.Path != fileio.Join(dir, want[i]) || fi.IsDir != (want[i] == "sub") {
			t.Fatalf("List[%d] = %+v, want name %s", i, fi, want[i])
		}
		if !fi.IsDir && fi.Size != int64(len(fi.Name)) {
			t.Fatalf("List[%d] size = %d, want %d", i, fi.Size, len(fi.Name))
		}
	}
	if got := names(t, f, dir+"/"); !slices.Equal(got, want) {
		t.Fatalf("List(dir/) = %q, want %q", got, want)
	}
	if got, err := f.List(ctx, fileio.Join(root, "missing")); err != nil || len(got) != 0 {
		t.Fatalf("List(missing) = %v, %v; want empty, nil", got, err)
	}
	if _, err := f.List(ctx, fileio.Join(dir, "a")); err == nil {
		t.Fatal("List(file) succeeded")
	}
}

func testDelete(t *testing.T, f fileio.FileIO, root string) {
	p := fileio.Join(root, "del", "f")
	write(t, f, p, []byte("x"))
	if err := f.Delete(ctx, fileio.Join(root, "del")); err == nil {
		t.Fatal("Delete(non-empty dir) succeeded")
	}
	wantContent(t, f, p, []byte("x"))
	if err := f.Delete(ctx, p); err != nil {
		t.Fatal(err)
	}
	wantMissing(t, f, p)
	if err := f.Delete(ctx, p); err != nil {
		t.Fatalf("Delete(missing) = %v, want nil", err)
	}
	if err := f.Delete(ctx, fileio.Join(root, "del")); err != nil {
		t.Fatalf("Delete(empty dir) = %v", err)
	}
	wantMissing(t, f, fileio.Join(root, "del"))
}

func testDeleteAll(t *testing.T, f fileio.FileIO, root string) {
	for _, p := range []string{"t/a", "t/sub/b", "t/sub/deeper/c", "t2/keep", "tail"} {
		write(t, f, fileio.Join(root, p), []byte(p))
	}
	if err := f.DeleteAll(ctx, fileio.Join(root, "t")); err != nil {
		t.Fatal(err)
	}
	wantMissing(t, f, fileio.Join(root, "t"))
	wantMissing(t, f, fileio.Join(root, "t/sub/deeper/c"))
	if got := names(t, f, root); !slices.Equal(got, []string{"t2", "tail"}) {
		t.Fatalf("List after DeleteAll = %q, want [t2 tail] (siblings sharing the prefix survive)", got)
	}
	wantContent(t, f, fileio.Join(root, "t2/keep"), []byte("t2/keep"))
	if err := f.DeleteAll(ctx, fileio.Join(root, "t")); err != nil {
		t.Fatalf("DeleteAll(missing) = %v, want nil", err)
	}
	if err := f.DeleteAll(ctx, fileio.Join(root, "tail")); err != nil {
		t.Fatalf("DeleteAll(file) = %v", err)
	}
	wantMissing(t, f, fileio.Join(root, "tail"))
}

func testWriteIfAbsent(t *testing.T, f fileio.FileIO, root string) {
	p := fileio.Join(root, "snapshot", "snapshot-1")
	first := pattern("first", 5000)
	if err := f.WriteIfAbsent(ctx, p, first); err != nil {
		t.Fatalf("first WriteIfAbsent: %v", err)
	}
	err := f.WriteIfAbsent(ctx, p, []byte("second"))
	if !errors.Is(err, fileio.ErrExist) || !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second WriteIfAbsent err = %v, want ErrExist", err)
	}
	if !strings.Contains(err.Error(), "snapshot-1") {
		t.Fatalf("ErrExist %q does not name the path", err)
	}
	wantContent(t, f, p, first)

	q := fileio.Join(root, "snapshot", "snapshot-2")
	write(t, f, q, []byte("via create"))
	if err := f.WriteIfAbsent(ctx, q, []byte("x")); !errors.Is(err, fileio.ErrExist) {
		t.Fatalf("WriteIfAbsent over a Create'd file: err = %v, want ErrExist", err)
	}
	wantContent(t, f, q, []byte("via create"))

	e := fileio.Join(root, "snapshot", "empty")
	if err := f.WriteIfAbsent(ctx, e, nil); err != nil {
		t.Fatal(err)
	}
	wantContent(t, f, e, []byte{})
	if got := names(t, f, fileio.Join(root, "snapshot")); !slices.Equal(got, []string{"empty", "snapshot-1", "snapshot-2"}) {
		t.Fatalf("List = %q, want exactly the published files (no temp leftovers)", got)
	}
}

// Race sizes: every goroutine tries every key in the same order, to maximise collisions.
const (
	raceWriters = 8
	raceKeys    = 200
)

func testWriteIfAbsentRace(t *testing.T, f fileio.FileIO, root string) {
	problems, err := RaceWriteIfAbsent(f, fileio.Join(root, "race"), raceWriters, raceKeys)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) > 0 {
		t.Fatalf("%d problems, first: %s", len(problems), strings.Join(problems[:min(5, len(problems))], "; "))
	}
}

// RaceWriteIfAbsent has writers goroutines call WriteIfAbsent on the same keys paths under dir
// (all in the same order, to maximise collisions) and returns one message per key that did not
// end with exactly one winner whose content is stored, plus one if dir holds leftover files. err
// reports a failure other than losing (an error not wrapping ErrExist).
func RaceWriteIfAbsent(f fileio.FileIO, dir string, writers, keys int) (problems []string, err error) {
	content := func(g, k int) []byte { return pattern(fmt.Sprintf("writer-%d-key-%d", g, k), 1500) }
	path := func(k int) string { return fileio.Join(dir, fmt.Sprintf("k%04d", k)) }
	winners := make([][]int, keys) // key → goroutines that won
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make(chan error, writers*keys)
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for k := range keys {
				err := f.WriteIfAbsent(ctx, path(k), content(g, k))
				switch {
				case err == nil:
					mu.Lock()
					winners[k] = append(winners[k], g)
					mu.Unlock()
				case !errors.Is(err, fileio.ErrExist):
					errs <- err
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, fmt.Errorf("a loser got an error not wrapping ErrExist: %w", err)
	}
	for k, w := range winners {
		if len(w) != 1 {
			problems = append(problems, fmt.Sprintf("key %d: winners %v, want exactly one", k, w))
			continue
		}
		got, err := f.ReadFile(ctx, path(k))
		if err != nil || !bytes.Equal(got, content(w[0], k)) {
			problems = append(problems, fmt.Sprintf("key %d: content %q is not winner %d's (err %v)", k, clip(got), w[0], err))
		}
	}
	infos, err := f.List(ctx, dir)
	if err != nil {
		return nil, err
	}
	if len(infos) != keys {
		problems = append(problems, fmt.Sprintf("%s has %d entries, want %d (temp leftovers?)", dir, len(infos), keys))
	}
	return problems, nil
}

func testCanceledContext(t *testing.T, f fileio.FileIO, root string) {
	p := fileio.Join(root, "c")
	write(t, f, p, []byte("c"))
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	checks := map[string]error{}
	_, checks["Open"] = f.Open(cctx, p)
	_, checks["ReadFile"] = f.ReadFile(cctx, p)
	_, checks["Create"] = f.Create(cctx, fileio.Join(root, "new"))
	checks["WriteIfAbsent"] = f.WriteIfAbsent(cctx, fileio.Join(root, "new"), nil)
	_, checks["Stat"] = f.Stat(cctx, p)
	_, checks["List"] = f.List(cctx, root)
	checks["Delete"] = f.Delete(cctx, p)
	checks["DeleteAll"] = f.DeleteAll(cctx, p)
	for op, err := range checks {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s with canceled context: err = %v, want context.Canceled", op, err)
		}
	}
	wantContent(t, f, p, []byte("c"))
	wantMissing(t, f, fileio.Join(root, "new"))
}
