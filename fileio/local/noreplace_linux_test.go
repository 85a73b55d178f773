package local

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// The renameat2 fallback is only taken on file systems without hard links, so test it directly.
func TestRenameNoReplace(t *testing.T) {
	dir := t.TempDir()
	tmp, final := filepath.Join(dir, ".t.tmp"), filepath.Join(dir, "final")
	if err := os.WriteFile(tmp, []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := renameNoReplace(tmp, final); err != nil {
		t.Fatalf("first rename: %v", err)
	}
	if err := os.WriteFile(tmp, []byte("b"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := renameNoReplace(tmp, final)
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("rename onto existing: err = %v, want ErrExist", err)
	}
	if b, _ := os.ReadFile(final); string(b) != "a" {
		t.Fatalf("final = %q, want the first content", b)
	}
}
