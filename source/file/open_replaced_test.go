package file

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/source"
)

// staleStatFS answers Stat with what the file was when planned, as a Stat made just before the
// file was replaced would.
type staleStatFS struct {
	osFS
	info fileio.FileInfo
}

func (f staleStatFS) Stat(context.Context, string) (fileio.FileInfo, error) { return f.info, nil }

// TestOpenRefusesFileReplacedAfterStat: a file replaced between Open's fingerprint check and its
// open is refused by the opened file's size (a byte range of the new file would not start on a
// record boundary).
func TestOpenRefusesFileReplacedAfterStat(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "a.csv", "id,name\n1,ann\n2,bob\n")
	sp := split(t, p)
	info, err := osFS{}.Stat(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("id,name\n10,\"a\nb\"\n20,cy\n30,dee\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Open(context.Background(), staleStatFS{info: info}, sp, table(t, "id BIGINT", "name STRING"), source.MappingOptions{})
	if err == nil || !strings.Contains(err.Error(), "changed since it was planned") {
		t.Fatalf("Open of a file replaced after the check: %v, want a 'changed since it was planned' error", err)
	}
}
