package bench

import (
	"flag"
	"os"
	"strconv"
)

// benchRows is the number of generated input rows: -rows, else $LAKELOAD_BENCH_ROWS, else 200k.
var benchRows = flag.Int("rows", envInt("LAKELOAD_BENCH_ROWS", 200_000), "generated input rows")

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
