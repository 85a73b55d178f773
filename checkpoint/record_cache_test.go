package checkpoint

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio/local"
)

// TestLoadCachedRecordDamagedInPlace: records old enough to be cached are served from the cache on
// the next Load, yet a record damaged in place afterwards (same size) is read again and refused.
func TestLoadCachedRecordDamagedInPlace(t *testing.T) {
	root := t.TempDir()
	s := NewStore(local.New(), root)
	fullStore(t, s)
	old := time.Now().Add(-time.Hour)
	must(t, filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, old, old) // older than racyAge: cacheable
	}))
	first, err := s.Load(bg)
	must(t, err)
	if len(s.cache.m) == 0 {
		t.Fatal("no record was cached by the first Load")
	}
	again, err := s.Load(bg)
	must(t, err)
	if len(again.Windows()) != len(first.Windows()) {
		t.Fatalf("second Load has %d windows, first %d", len(again.Windows()), len(first.Windows()))
	}
	path := s.ResultPath(1, 1, "t0")
	b, err := os.ReadFile(path)
	must(t, err)
	b[len(b)-2] ^= 0x01 // same size, different body
	must(t, os.WriteFile(path, b, 0o644))
	if _, err := s.Load(bg); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Load after damaging %s: got %v, want ErrCorrupt", path, err)
	}
}
