package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadErrorAdvice: a failed load says "run the same command again" only when a rerun can succeed
// once the cause is fixed, every error is one line, and the exit code says what is at fault: a glob
// syntax error and a changed option are command-line errors (2), not input (3) or failures (1).
func TestLoadErrorAdvice(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	ok(t, "table", "create", "--warehouse", wh, "--table", "db.t", "--column", "id BIGINT", "--column", "op STRING")
	writeFile(t, in, "a.csv", "id,op\n1,+I\n")
	writeFile(t, in, "b.csv", "id,op\n2,+I\n")
	writeFile(t, in, "bad.csv", "id,op\nx,+I\n")
	load := func(extra ...string) []string {
		return append([]string{"load", "--warehouse", wh, "--table", "db.t"}, extra...)
	}
	const rerun = "run the same command again"
	cases := []struct {
		name   string
		args   []string
		code   int
		want   []string
		advice bool // offers the rerun
	}{
		{"glob syntax", load("--job", "g", "--from", filepath.Join(in, "[a.csv")), 2, []string{"--from", "syntax error in pattern"}, false},
		{"no match", load("--job", "n", "--from", filepath.Join(in, "*.parquet")), 3, []string{"matches no files"}, true},
		{"dry run", load("--job", "d", "--dry-run", "--from", filepath.Join(in, "*.parquet")), 3, []string{"dry run, nothing written", "matches no files"}, false},
		{"bad value", load("--job", "b", "--from", filepath.Join(in, "bad.csv")), 3, []string{`bad value "x"`}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := fails(t, c.code, c.want, c.args...)
			if got := strings.Contains(r.stderr, rerun); got != c.advice {
				t.Errorf("stderr %q: offers a rerun = %v, want %v", r.stderr, got, c.advice)
			}
			if n := strings.Count(strings.TrimSuffix(r.stderr, "\n"), "\n"); n != 0 {
				t.Errorf("stderr has %d lines, want one: %q", n+1, r.stderr)
			}
		})
	}
	// A changed result-affecting option of an unfinished job: exit 2, no rerun advice.
	writeFile(t, in, "bad2.csv", "id,op\ny,+I\n")
	if r := lakeload(t, load("--job", "c", "--from", filepath.Join(in, "*.csv"), "--commit-rows", "1")...); r.code != 3 {
		t.Fatalf("first run of job c: exit %d, want 3 (bad.csv)\n%s", r.code, r.stderr)
	}
	r := fails(t, 2, []string{"job c was created with", "use the original settings"},
		load("--job", "c", "--from", filepath.Join(in, "*.csv"), "--commit-rows", "1", "--op-column", "op")...)
	if strings.Contains(r.stderr, rerun) {
		t.Errorf("a changed option offers a rerun: %q", r.stderr)
	}
}
