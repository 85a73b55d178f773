package job

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakeload/lakeload/internal/loadtest"
)

// TestDirectoryInputIncremental (issue 15, finding 4): a directory and a "**" glob as From plan every
// file under them (the plan and the fingerprint hold each expanded file), and an incremental run
// loads exactly the files that appeared since, in new subdirectories too; hidden files (_SUCCESS,
// .crc) are never loaded. Sums show a file loaded twice.
func TestDirectoryInputIncremental(t *testing.T) {
	for _, from := range []string{"", "/**/in-*"} {
		t.Run("from=dir"+from, func(t *testing.T) {
			fx := loadtest.AggSum(23, 6, 30)
			dir := loadtest.TempDir(t)
			write := func(i int) {
				sub := filepath.Join(dir, "day="+string(rune('a'+i%3)), "part")
				if err := os.MkdirAll(sub, 0o755); err != nil {
					t.Fatal(err)
				}
				fx.WriteFile(t, filepath.Join(sub, fx.Files[i].Name), fx.Files[i])
			}
			for i := range 3 {
				write(i)
			}
			for _, hid := range []string{"_SUCCESS", ".in-x.csv.crc", "day=a/_temporary/in-9.csv"} {
				putFile(t, filepath.Join(dir, hid), "garbage\n")
			}
			e := &incEnv{loadEnv: newLoadEnv(t, fx, dir+from), dir: dir}
			if _, err := Run(context.Background(), e.incConfig()); err != nil {
				t.Fatal(err)
			}
			splits := planOf(t, e.state(t))
			files := map[string]bool{}
			for _, s := range splits {
				files[s.Path] = true
			}
			if len(files) != 3 {
				t.Fatalf("plan covers %d files, want the 3 under %s: %v", len(files), dir, files)
			}
			for i := 3; i < 6; i++ {
				write(i)
			}
			res, err := Run(context.Background(), e.incConfig())
			if err != nil {
				t.Fatal(err)
			}
			if res.NewFiles != 3 || res.Generation != 2 {
				t.Fatalf("incremental run: %+v, want 3 new files in generation 2", res)
			}
			e.want = fx.ExpectedOf(t, fx.Files)
			if p := e.checkFinished(t); p != "" {
				t.Fatal(p)
			}
		})
	}
}

func putFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
