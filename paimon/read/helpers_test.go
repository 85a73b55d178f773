package read_test

import (
	"path/filepath"
	"reflect"
	"testing"
)

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func equalDatum(a, b any) bool { return reflect.DeepEqual(a, b) }
