package file

import (
	"context"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/mem"
)

// TestPlanRemoteGlob expands s3:// globs through the FileIO (here an in-memory store holding
// s3:// keys): per-element path.Match, directories only between elements, paths kept as given.
func TestPlanRemoteGlob(t *testing.T) {
	ctx := context.Background()
	fs := mem.New()
	for _, p := range []string{
		"s3://b/in/a.csv", "s3://b/in/b.jsonl", "s3://b/in/c.txt", "s3://b/in/sub/d.csv",
		"s3://b/in/sub2/e.csv", "s3://b/inx/f.csv", "s3://b/other/g.csv",
	} {
		if err := fileio.WriteFile(ctx, fs, p, []byte("x\n1\n")); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ glob, want string }{
		{"s3://b/in/*.csv", "s3://b/in/a.csv"},
		{"s3://b/in/[ab]*", "s3://b/in/a.csv s3://b/in/b.jsonl"},
		{"s3://b/in/*/*.csv", "s3://b/in/sub/d.csv s3://b/in/sub2/e.csv"},
		{"s3://b/in*/?.csv", "s3://b/in/a.csv s3://b/inx/f.csv"},
		{"s3://b/*/sub?/*", "s3://b/in/sub2/e.csv"},
		{"s3://b/in/sub/d.csv", "s3://b/in/sub/d.csv"},
	} {
		ss, err := Plan(ctx, fs, c.glob, "")
		if err != nil {
			t.Errorf("%s: %v", c.glob, err)
			continue
		}
		var got []string
		for _, s := range ss {
			got = append(got, s.Path)
			if s.Size != 4 || s.RowCount != -1 || s.ModTimeUnixNano == 0 {
				t.Errorf("%s: split %+v: bad fingerprint", c.glob, s)
			}
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s → %v, want %s", c.glob, got, c.want)
		}
	}
	for _, c := range []struct{ glob, want string }{
		{"s3://b/in/*.parquet", "matches no files"},
		{"s3://b/in/missing.csv", "matches no files"},
		{"s3://b/nowhere/*/x", "matches no files"},
		{"s3://b/in/[", "syntax error"},
		{"s3://*/in/a.csv", "name a bucket without wildcards"},
		{"s3://b/in/c.*", "cannot tell its format"},
	} {
		if _, err := Plan(ctx, fs, c.glob, ""); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want it to contain %q", c.glob, err, c.want)
		}
	}
}
