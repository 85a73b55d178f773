package bench

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestScenariosSmoke is the CI-sized run of the harness (so it cannot rot): every scenario writes a
// small generated input completely.
func TestScenariosSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	const rows = 5000
	paths, err := Generate(in, rows)
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range scenarios {
		n, err := sc.run(context.Background(), paths, filepath.Join(dir, sc.name))
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		if n != rows {
			t.Errorf("%s wrote %d rows, want %d", sc.name, n, rows)
		}
	}
}
