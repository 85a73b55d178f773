package errorfs

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/mem"
)

var ctx = context.Background()

// script runs a fixed sequence of operations through f and returns the first error.
func script(f fileio.FileIO) error {
	if err := fileio.WriteFile(ctx, f, "/d/a.txt", []byte("hello world")); err != nil { // create, write, writer-close
		return err
	}
	if err := f.WriteIfAbsent(ctx, "/d/b.txt", []byte("0123456789")); err != nil {
		return err
	}
	if _, err := f.ReadFile(ctx, "/d/a.txt"); err != nil {
		return err
	}
	file, err := f.Open(ctx, "/d/b.txt")
	if err != nil {
		return err
	}
	if _, err := io.ReadAll(file); err != nil {
		file.Close()
		return err
	}
	if err := file.Close(); err != nil {
		return err
	}
	if _, err := f.List(ctx, "/d"); err != nil {
		return err
	}
	if _, err := f.Stat(ctx, "/d/a.txt"); err != nil {
		return err
	}
	return f.Delete(ctx, "/d/a.txt")
}

func TestCountsEveryOperation(t *testing.T) {
	f := Wrap(mem.New(), nil, ModeError).Record()
	if err := script(f); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, op := range f.Log() {
		kinds = append(kinds, op.Kind.String())
	}
	want := "create write writer-close write-if-absent read-file open file-read file-read file-close list stat delete"
	if got := strings.Join(kinds, " "); got != want {
		t.Fatalf("ops\n got %s\nwant %s", got, want)
	}
	if f.Ops() != int64(len(kinds)) {
		t.Fatalf("Ops() = %d, log has %d", f.Ops(), len(kinds))
	}
}

// TestOnIndexFailsExactlyThatOp fails each k in turn: the script's error is op #k's, the same
// operation the clean run made k-th, and no other operation fails.
func TestOnIndexFailsExactlyThatOp(t *testing.T) {
	clean := Wrap(mem.New(), nil, ModeError).Record()
	if err := script(clean); err != nil {
		t.Fatal(err)
	}
	log := clean.Log()
	for k := int64(1); k <= int64(len(log)); k++ {
		f := Wrap(mem.New(), OnIndex(k), ModeError)
		err := script(f)
		var ie *InjectedError
		if !errors.As(err, &ie) || !errors.Is(err, ErrInjected) {
			t.Fatalf("k=%d: error %v, want an injected fault", k, err)
		}
		if inj := f.Injected(); len(inj) != 1 || ie.Op != log[k-1] || inj[0] != log[k-1] {
			t.Fatalf("k=%d: failed %v (injected %v), want %v", k, ie.Op, inj, log[k-1])
		}
		if msg := err.Error(); !strings.Contains(msg, ie.Op.Path) || !strings.Contains(msg, ie.Op.Kind.String()) {
			t.Fatalf("k=%d: message %q does not name the op", k, msg)
		}
	}
}

func TestErrorModeWritesNothing(t *testing.T) {
	inner := mem.New()
	f := Wrap(inner, OpKinds(OpWriterClose, OpWriteIfAbsent), ModeError)
	if err := fileio.WriteFile(ctx, f, "/x", []byte("abcd")); !errors.Is(err, ErrInjected) {
		t.Fatalf("create: %v", err)
	}
	if err := f.WriteIfAbsent(ctx, "/y", []byte("abcd")); !errors.Is(err, ErrInjected) {
		t.Fatalf("write-if-absent: %v", err)
	}
	for _, p := range []string{"/x", "/y"} {
		if ok, _ := fileio.Exists(ctx, inner, p); ok {
			t.Fatalf("%s exists after an error fault", p)
		}
	}
}

func TestTornWriteLandsAPrefix(t *testing.T) {
	inner := mem.New()
	f := Wrap(inner, And(OpKinds(OpWriterClose, OpWriteIfAbsent, OpReadFile), PathMatch("*.torn")), ModeTorn)
	if err := fileio.WriteFile(ctx, f, "/a.torn", []byte("abcdefgh")); !errors.Is(err, ErrInjected) {
		t.Fatalf("create: %v", err)
	}
	if err := f.WriteIfAbsent(ctx, "/dir/b.torn", []byte("0123456789")); !errors.Is(err, ErrInjected) {
		t.Fatalf("write-if-absent: %v", err)
	}
	if err := f.WriteIfAbsent(ctx, "/c.ok", []byte("whole")); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{"/a.torn": "abcd", "/dir/b.torn": "01234", "/c.ok": "whole"} {
		got, err := inner.ReadFile(ctx, p)
		if err != nil || string(got) != want {
			t.Fatalf("%s = %q, %v; want %q", p, got, err, want)
		}
	}
	// Torn applies to writes only: a matching read fails as a plain error.
	_, err := f.ReadFile(ctx, "/a.torn")
	var ie *InjectedError
	if !errors.As(err, &ie) || ie.Mode != ModeError {
		t.Fatalf("read of a torn-matching path: %v", err)
	}
}

func TestCombinators(t *testing.T) {
	op := func(i int64, k OpKind, p string) Op { return Op{Index: i, Kind: k, Path: p} }
	in := And(OpKinds(OpWriteIfAbsent), Or(PathMatch("/s/snapshot-*"), OnIndex(7)))
	cases := []struct {
		op   Op
		want bool
	}{
		{op(1, OpWriteIfAbsent, "/s/snapshot-3"), true},
		{op(2, OpWriteIfAbsent, "/s/other"), false},
		{op(7, OpWriteIfAbsent, "/s/other"), true},
		{op(7, OpCreate, "/s/snapshot-3"), false},
	}
	for _, c := range cases {
		if got := in.Inject(c.op); got != c.want {
			t.Errorf("%v: %v, want %v", c.op, got, c.want)
		}
	}
	if Not(OnIndex(1)).Inject(op(1, OpStat, "/")) {
		t.Error("Not(OnIndex(1)) fired on op 1")
	}
	once := Once(OpKinds(OpStat))
	if !once.Inject(op(1, OpStat, "/")) || once.Inject(op(2, OpStat, "/")) {
		t.Error("Once fired other than exactly once")
	}
}

func TestRandomlyIsDeterministic(t *testing.T) {
	run := func(seed uint64) []bool {
		in := Randomly(seed, 0.3)
		out := make([]bool, 200)
		for i := range out {
			out[i] = in.Inject(Op{Index: int64(i + 1)})
		}
		return out
	}
	a, b, c := run(1), run(1), run(2)
	hits, same := 0, true
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("same seed gave different faults")
		}
		if a[i] {
			hits++
		}
		same = same && a[i] == c[i]
	}
	if hits < 30 || hits > 90 || same {
		t.Fatalf("p=0.3 over 200 ops: %d hits, seeds 1 and 2 equal: %v", hits, same)
	}
}

func TestFileCloseFaultStillClosesInner(t *testing.T) {
	inner := mem.New()
	if err := inner.WriteIfAbsent(ctx, "/f", []byte("x")); err != nil {
		t.Fatal(err)
	}
	f := Wrap(inner, OpKinds(OpFileClose), ModeError)
	file, err := f.Open(ctx, "/f")
	if err != nil {
		t.Fatal(err)
	}
	if err := file.Close(); !errors.Is(err, ErrInjected) {
		t.Fatalf("close: %v", err)
	}
	if _, err := file.(*errFile).f.Read(make([]byte, 1)); err == nil {
		t.Fatal("inner file still open after a failed Close")
	}
}

func TestLandedMutationHappensThenFails(t *testing.T) {
	inner := mem.New()
	if err := inner.WriteIfAbsent(ctx, "/gone", []byte("x")); err != nil {
		t.Fatal(err)
	}
	f := Wrap(inner, OpKinds(OpWriterClose, OpWriteIfAbsent, OpDelete, OpStat), ModeLanded)
	if err := fileio.WriteFile(ctx, f, "/a", []byte("whole")); !errors.Is(err, ErrInjected) {
		t.Fatalf("create: %v", err)
	}
	if err := f.WriteIfAbsent(ctx, "/b", []byte("whole")); !errors.Is(err, ErrInjected) {
		t.Fatalf("write-if-absent: %v", err)
	}
	if err := f.Delete(ctx, "/gone"); !errors.Is(err, ErrInjected) {
		t.Fatalf("delete: %v", err)
	}
	for _, p := range []string{"/a", "/b"} {
		if got, err := inner.ReadFile(ctx, p); err != nil || string(got) != "whole" {
			t.Fatalf("%s = %q, %v after a landed fault", p, got, err)
		}
	}
	if ok, _ := fileio.Exists(ctx, inner, "/gone"); ok {
		t.Fatal("landed delete left the file")
	}
	// Landed applies to mutations only: a Stat fails as a plain error.
	_, err := f.Stat(ctx, "/a")
	var ie *InjectedError
	if !errors.As(err, &ie) || ie.Mode != ModeError {
		t.Fatalf("stat: %v", err)
	}
}
