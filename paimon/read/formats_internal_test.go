package read

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/format/datafile"
	"github.com/lakeload/lakeload/paimon/spec"
)

// TestUnknownDataFileFormat: a data file of a format lakeload has no reader for is
// datafile.ErrUnsupported (the CLI's exit 4) naming the file and format, not corrupt data.
func TestUnknownDataFileFormat(t *testing.T) {
	for name, want := range map[string]string{"data-1-0.parquet": "parquet", "data-1-0.ORC": "orc",
		"data-1-0.avro": "avro", "data-1-0.zstd.parquet": "parquet", "data-1-0.lance": "lance", "data-1-0": ""} {
		if got := datafile.FormatOf(name); got != want {
			t.Errorf("FormatOf(%q) = %q, want %q", name, got, want)
		}
	}
	_, err := openNonParquet(context.Background(), nil, "/t/bucket-0/data-1-0.lance", "lance", 10,
		[]datafile.Column{{Name: "a", Type: spec.DataType{Root: spec.Int}}}, 10)
	if !errors.Is(err, datafile.ErrUnsupported) || errors.Is(err, spec.ErrCorrupt) {
		t.Fatalf("got %v, want ErrUnsupported", err)
	}
	for _, w := range []string{"data-1-0.lance", `"lance"`, "orc and avro"} {
		if !contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
