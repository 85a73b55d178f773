package sim

import (
	"context"
	"slices"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/mem"
)

// cloneFS copies every file of src into a new in-memory file system, so a simulated history can
// branch: the state after a crash is explored with every continuation without replaying its prefix.
// Empty directories are not copied; every reader of the table and the store treats a missing
// directory as an empty one.
func cloneFS(t testing.TB, src *mem.FS) *mem.FS {
	t.Helper()
	ctx := context.Background()
	dst := mem.New()
	var walk func(dir string)
	walk = func(dir string) {
		infos, err := src.List(ctx, dir)
		if err != nil {
			t.Fatalf("clone: list %s: %v", dir, err)
		}
		for _, fi := range infos {
			p := fileio.Join(dir, fi.Name)
			if fi.IsDir {
				walk(p)
				continue
			}
			b, err := src.ReadFile(ctx, p)
			if err != nil {
				t.Fatalf("clone: read %s: %v", p, err)
			}
			if err := dst.WriteIfAbsent(ctx, p, b); err != nil {
				t.Fatalf("clone: write %s: %v", p, err)
			}
		}
	}
	walk("/")
	return dst
}

// clone returns a copy of the world that continues independently.
func (w *world) clone() *world {
	return &world{t: w.t, sc: w.sc, fs: cloneFS(w.t, w.fs), notes: slices.Clone(w.notes), plan: slices.Clone(w.plan),
		extra: slices.Clone(w.extra)}
}

func TestCloneCopiesEveryFile(t *testing.T) {
	ctx := context.Background()
	src := mem.New()
	for _, p := range []string{"/a/b/c", "/a/d", "/e"} {
		if err := src.WriteIfAbsent(ctx, p, []byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	dst := cloneFS(t, src)
	for _, p := range []string{"/a/b/c", "/a/d", "/e"} {
		b, err := dst.ReadFile(ctx, p)
		if err != nil || string(b) != p {
			t.Fatalf("%s: %q, %v", p, b, err)
		}
	}
	if err := dst.WriteIfAbsent(ctx, "/x", nil); err != nil {
		t.Fatal(err)
	}
	if ok, _ := fileio.Exists(ctx, src, "/x"); ok {
		t.Fatal("the clone shares storage with its source")
	}
}
