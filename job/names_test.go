package job_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/job"
)

// TestJobNameRule (issue 14, finding 8): job names that could forge a `jobs list` line, hide text
// (bidi overrides, zero-width characters) or leave the store directory are refused, the error
// quoting the name and giving the allowed set; ordinary names, of any script, pass.
func TestJobNameRule(t *testing.T) {
	for _, n := range []string{"", ".hidden", "..", "a/b", `a\b`, " pad", "pad ", "nl\nx", "cr\rx", "tab\tx", `q"uote`, "q'uote",
		"x\n" + `y  finished  9`, "rtl\u202etxt.exe", "zero\u200bwidth", "nb\u00a0sp", "bad\xffutf8", "del\x7f", "a;b", "a|b",
		"a$b", "a`b", "a*b", strings.Repeat("x", job.MaxNameBytes+1)} {
		err := job.CheckName(n)
		if !errors.Is(err, job.ErrBadJobName) {
			t.Errorf("job name %q accepted: %v", n, err)
			continue
		}
		if n != "" && len(n) < 100 && !strings.Contains(err.Error(), strconv.Quote(n)) || !strings.Contains(err.Error(), job.NameRule) {
			t.Errorf("error for %q does not quote it and give the rule: %v", n, err)
		}
	}
	for _, n := range []string{"backfill", "backfill-2024", "q3 2024", "daily_load.v2", "user@host", "a+b=c:d", "Ünïcode", "注文",
		"sc-events", strings.Repeat("x", job.MaxNameBytes)} {
		if err := job.CheckName(n); err != nil {
			t.Errorf("job name %q refused: %v", n, err)
		}
	}
}
