package killsoak

import (
	"os"
)

// mode sizes one soak run.
type mode struct {
	name        string
	files       int   // input Parquet files per table
	rowsPerFile int   // rows per file (the deduplicate table's -U/+U pairs count as two rows)
	rowGroup    int   // Parquet row-group length (splits end at row-group boundaries)
	commitRows  int64 // --commit-rows
	parallelism int   // --parallelism
	aimed       []int // aimed kills per table (events, totals, users)
	random      []int // random-moment kills per table
	keys        int   // distinct keys of the aggregation table
}

var (
	shortMode = mode{name: "short", files: 8, rowsPerFile: 25_000, rowGroup: 3_125, commitRows: 12_500,
		parallelism: 2, aimed: []int{4, 3, 3}, random: []int{1, 1, 1}, keys: 5_000}
	longMode = mode{name: "long", files: 16, rowsPerFile: 65_536, rowGroup: 8_192, commitRows: 32_768,
		parallelism: 2, aimed: []int{6, 6, 6}, random: []int{6, 6, 6}, keys: 20_000}
)

// currentMode is long when LAKELOAD_SOAK=long, else short (the default `go test` run).
func currentMode() mode {
	if os.Getenv("LAKELOAD_SOAK") == "long" {
		return longMode
	}
	return shortMode
}

func (m mode) kills() int {
	n := 0
	for i := range m.aimed {
		n += m.aimed[i] + m.random[i]
	}
	return n
}
