package main

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/lakeload/lakeload/paimon/read"
)

// scanLive is the live state of `lakeload scan` writing to a file or pipe: rows written so far
// (counted per row or record batch) of the rows the plan's files hold (exact for append tables
// without deletion vectors, an upper bound where merging or deletion vectors drop rows).
type scanLive struct {
	planned int64
	rows    atomic.Int64
}

func newScanLive(plan *read.Plan) *scanLive {
	s := &scanLive{}
	for _, sp := range plan.Splits {
		for _, f := range sp.Files {
			s.planned += f.RowCount
		}
	}
	return s
}

func (s *scanLive) line(elapsed time.Duration) string {
	n := s.rows.Load()
	r := rate(n, elapsed)
	return fmt.Sprintf("scan %s %s/%s rows (at most)  %s rows/s  ETA %s", bar(n, s.planned), human(n), human(s.planned),
		human(int64(r)), eta(n, s.planned, r))
}

// scanDisplay returns the display of a scan: a line redrawn on stderr when stderr is a terminal and
// stdout is not (the rows go to a file or a pipe); nil otherwise (the rows are on the terminal, or
// nobody watches).
func scanDisplay(stdout, stderr io.Writer, live *scanLive) *liveDisplay {
	if !isTerminal(stderr) || isTerminal(stdout) {
		return nil
	}
	return newLiveDisplay(stderr, true, nil, 0, live.line, nil)
}
