package compat

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/table"
)

const (
	fixtureDir = "../../testdata/java-written"
	goldenDir  = "../../testdata/golden"
)

var goldenName = regexp.MustCompile(`^snapshot-(\d+)\.jsonl$`)

// TestJavaFixturesMatchGolden reads every Java-written fixture table at every snapshot that has a golden
// file (rows produced by Java Paimon, see testdata/golden/README.md) and compares canonical rows. It
// runs on the local fixture directory and on a copy of it uploaded to S3 (storage_s3_test.go).
func TestJavaFixturesMatchGolden(t *testing.T) {
	forEachStorage(t, javaFixturesMatchGolden)
}

func javaFixturesMatchGolden(t *testing.T, st storage) {
	tables, err := os.ReadDir(goldenDir)
	if err != nil {
		t.Fatal(err)
	}
	if st.srv != nil {
		uploadTree(t, *st.srv, fixtureDir, "java-written")
	}
	checked := 0
	for _, tb := range tables {
		if !tb.IsDir() {
			continue
		}
		name := tb.Name()
		t.Run(name, func(t *testing.T) {
			goldens, err := os.ReadDir(filepath.Join(goldenDir, name))
			if err != nil {
				t.Fatal(err)
			}
			path, err := filepath.Abs(filepath.Join(fixtureDir, name+".db", name))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			fs := fileio.FileIO(local.New())
			if st.srv != nil {
				fs, path = st.fs, st.srv.URI("java-written", name+".db", name)
			}
			tbl, err := table.Open(ctx, fs, path, name)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range goldens {
				m := goldenName.FindStringSubmatch(g.Name())
				if m == nil {
					continue
				}
				id, _ := strconv.ParseInt(m[1], 10, 64)
				t.Run("snapshot-"+m[1], func(t *testing.T) {
					want := readLines(t, filepath.Join(goldenDir, name, g.Name()))
					schema, rows, err := read.Rows(ctx, tbl, read.ScanOptions{SnapshotID: id})
					if err != nil {
						t.Fatalf("read %s at snapshot %d: %v", name, id, err)
					}
					got, err := canon.Rows(schema.Fields, rows)
					if err != nil {
						t.Fatal(err)
					}
					canon.Sort(got)
					diffLines(t, want, got)
				})
				checked++
			}
		})
	}
	if checked == 0 {
		t.Fatal("no golden files found")
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// diffLines fails with the lines missing from got and the extra ones.
func diffLines(t *testing.T, want, got []string) {
	t.Helper()
	count := map[string]int{}
	for _, l := range want {
		count[l]++
	}
	for _, l := range got {
		count[l]--
	}
	var missing, extra []string
	for l, n := range count {
		for ; n > 0; n-- {
			missing = append(missing, l)
		}
		for ; n < 0; n++ {
			extra = append(extra, l)
		}
	}
	if len(missing)+len(extra) > 0 {
		t.Errorf("rows differ (want %d, got %d)\nmissing:\n  %s\nextra:\n  %s", len(want), len(got),
			strings.Join(missing, "\n  "), strings.Join(extra, "\n  "))
	}
}
