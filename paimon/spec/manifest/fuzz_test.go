package manifest

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

// seedFuzz adds every fixture metadata file with the given name prefix, plus a few truncations.
func seedFuzz(f *testing.F, prefix string) {
	paths, _ := filepath.Glob(filepath.Join(fixtureRoot, "*.db", "*", "manifest", prefix+"*"))
	if len(paths) == 0 {
		f.Fatalf("no %s fixtures", prefix)
	}
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
		f.Add(raw[:len(raw)/2])
	}
	f.Add([]byte{})
	f.Add([]byte("Obj\x01"))
}

func checkFuzzErr(t *testing.T, err error) {
	if err != nil && !errors.Is(err, spec.ErrCorrupt) && !errors.Is(err, ErrUnsupportedFormat) {
		t.Fatalf("error wraps neither ErrCorrupt nor ErrUnsupportedFormat: %v", err)
	}
}

// FuzzReadManifest: arbitrary bytes never panic; decoded entries re-encode and decode identically.
func FuzzReadManifest(f *testing.F) {
	seedFuzz(f, "manifest-")
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := ReadManifest(bytes.NewReader(data))
		checkFuzzErr(t, err)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if WriteManifest(&buf, entries) != nil {
			return // decodable but not writable (e.g. malformed rows): fine
		}
		if _, err := ReadManifest(&buf); err != nil {
			t.Fatalf("re-read of written manifest: %v", err)
		}
	})
}

// FuzzReadManifestList: arbitrary bytes never panic.
func FuzzReadManifestList(f *testing.F) {
	seedFuzz(f, "manifest-list-")
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ReadManifestList(bytes.NewReader(data))
		checkFuzzErr(t, err)
	})
}

// FuzzReadIndexManifest: arbitrary bytes never panic.
func FuzzReadIndexManifest(f *testing.F) {
	seedFuzz(f, "index-manifest-")
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ReadIndexManifest(bytes.NewReader(data))
		checkFuzzErr(t, err)
	})
}
