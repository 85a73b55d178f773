package fileio_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/fileio/mem"
)

func TestWithin(t *testing.T) {
	cases := []struct {
		path  string
		roots []string
		want  string // "" = outside
	}{
		{"/wh/t/a", []string{"/wh/t"}, "/wh/t"},
		{"/wh/t/a/b", []string{"/wh/t/"}, "/wh/t"},
		{"/wh/t/a", []string{"/x", "/wh/t"}, "/wh/t"},
		{"s3://b/t/a", []string{"s3://b/t"}, "s3://b/t"},
		{"/wh/t", []string{"/wh/t"}, ""},
		{"/wh/t/", []string{"/wh/t"}, ""},
		{"/wh/tt/a", []string{"/wh/t"}, ""},
		{"/wh/t/../x", []string{"/wh/t"}, ""},
		{"/wh/t/a/../../x", []string{"/wh/t"}, ""},
		{"/wh/t/./a", []string{"/wh/t"}, ""},
		{"/wh/t//a", []string{"/wh/t"}, ""},
		{"/wh/t/a/", []string{"/wh/t"}, ""},
		{"/wh/t/..", []string{"/wh/t"}, ""},
		{"/etc/passwd", []string{"/wh/t"}, ""},
		{"/etc/passwd", []string{"/"}, ""},
		{"/etc/passwd", []string{""}, ""},
		{"/etc/passwd", nil, ""},
		{"s3://b/t/a", []string{"s3://"}, ""},
	}
	for _, c := range cases {
		got, ok := fileio.Within(c.path, c.roots...)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Within(%q, %q) = %q, %v; want %q", c.path, c.roots, got, ok, c.want)
		}
	}
}

// TestDeleteWithin: the delete guard deletes below its root only, and on the local file system not
// through a symbolic link below the root (the root itself may be one).
func TestDeleteWithin(t *testing.T) {
	ctx := context.Background()
	m := mem.New()
	for _, p := range []string{"/r/a", "/x"} {
		if err := fileio.WriteFile(ctx, m, p, []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if err := fileio.DeleteWithin(ctx, m, "/r/../x", "/r"); !errors.Is(err, fileio.ErrOutside) {
		t.Errorf("mem: %v, want ErrOutside", err)
	}
	if err := fileio.DeleteAllWithin(ctx, m, "/r", "/r"); !errors.Is(err, fileio.ErrOutside) {
		t.Errorf("mem delete-all of the root itself: %v, want ErrOutside", err)
	}
	if err := fileio.DeleteWithin(ctx, m, "/r/a", "/r"); err != nil {
		t.Errorf("mem: %v", err)
	}
	if ok, _ := fileio.Exists(ctx, m, "/x"); !ok {
		t.Error("mem: /x deleted")
	}

	dir := t.TempDir()
	l := local.New()
	root, victim := filepath.Join(dir, "root"), filepath.Join(dir, "victim")
	for _, p := range []string{filepath.Join(root, "real", "a"), filepath.Join(victim, "a"), filepath.Join(victim, "sub", "b")} {
		if err := fileio.WriteFile(ctx, l, p, []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(victim, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	rootLink := filepath.Join(dir, "rootlink")
	if err := os.Symlink(root, rootLink); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(root, "link", "a"), filepath.Join(root, "link", "sub", "b")} {
		if err := fileio.DeleteWithin(ctx, l, p, root); !errors.Is(err, fileio.ErrOutside) {
			t.Errorf("local delete %s through a link: %v, want ErrOutside", p, err)
		}
	}
	if err := fileio.DeleteAllWithin(ctx, l, filepath.Join(root, "link", "sub"), root); !errors.Is(err, fileio.ErrOutside) {
		t.Errorf("local delete-all through a link: %v, want ErrOutside", err)
	}
	for _, p := range []string{filepath.Join(victim, "a"), filepath.Join(victim, "sub", "b")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("victim %s deleted: %v", p, err)
		}
	}
	if err := fileio.DeleteWithin(ctx, l, filepath.Join(rootLink, "real", "a"), rootLink); err != nil {
		t.Errorf("local delete below a root that is a link: %v", err)
	}
	if err := fileio.DeleteWithin(ctx, l, filepath.Join(root, "link"), root); err != nil {
		t.Errorf("deleting the link itself: %v", err)
	}
	if _, err := os.Stat(filepath.Join(victim, "a")); err != nil {
		t.Errorf("deleting the link deleted its target's file: %v", err)
	}
}

// TestLocalListTypes: List reports a symbolic link's own type, so that neither a link to a
// directory nor one to a file counts as a real directory or a regular file.
func TestLocalListTypes(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	l := local.New()
	if err := fileio.WriteFile(ctx, l, filepath.Join(dir, "file"), []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"dirlink": "dir", "filelink": "file", "dangling": "nothing"} {
		if err := os.Symlink(filepath.Join(dir, target), filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	infos, err := l.List(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]bool{}
	for _, fi := range infos {
		got[fi.Name] = [2]bool{fi.Regular(), fi.RealDir()}
		if fi.Name == "dirlink" && (!fi.IsDir || fi.Type&fs.ModeSymlink == 0) {
			t.Errorf("dirlink: IsDir %v, Type %v; want its target's IsDir and its own link type", fi.IsDir, fi.Type)
		}
	}
	if _, ok := got["dangling"]; ok {
		t.Error("a dangling link is listed")
	}
	want := map[string][2]bool{"file": {true, false}, "dir": {false, true}, "dirlink": {}, "filelink": {}}
	for n, w := range want {
		if g, ok := got[n]; !ok || g != w {
			t.Errorf("%s: regular/realDir %v (listed %v), want %v", n, g, ok, w)
		}
	}
}
