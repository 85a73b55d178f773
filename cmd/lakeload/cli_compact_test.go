package main

import (
	"strings"
	"testing"
)

func TestCompactCommand(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "shop.kv",
		"--column", "dt STRING", "--column", "id BIGINT", "--column", "v STRING",
		"--primary-key", "dt,id", "--partition-key", "dt", "--option", "bucket=1"))...)
	for i, content := range []string{"dt,id,v\na,1,x\na,2,y\nb,1,z\n", "dt,id,v\na,1,x2\nb,3,w\n", "dt,id,v\na,2,y2\n"} {
		f := writeFile(t, in, "in"+string(rune('0'+i))+".csv", content)
		ok(t, cmdArgs([]string{"write"}, tbl(wh, "shop.kv", "--from", f))...)
	}
	before := ok(t, cmdArgs([]string{"scan"}, tbl(wh, "shop.kv", "--output", "jsonl"))...)

	out := ok(t, cmdArgs([]string{"compact"}, tbl(wh, "shop.kv", "--partition", "dt=a", "--full"))...)
	if !strings.Contains(out, "snapshot 4 (COMPACT, commit user lakeload-compact-") || !strings.Contains(out, "3 files before, 1 after") ||
		!strings.Contains(out, "dt=a/bucket-0: 3 files -> 1 at level 5") {
		t.Errorf("compact --partition dt=a --full printed:\n%s", out)
	}
	after := ok(t, cmdArgs([]string{"scan"}, tbl(wh, "shop.kv", "--output", "jsonl"))...)
	sameLines(t, "scan after compaction", lines(before), lines(after))

	out = ok(t, cmdArgs([]string{"compact"}, tbl(wh, "shop.kv"))...)
	if !strings.Contains(out, "nothing to compact at snapshot 4") {
		t.Errorf("compact with 2 runs (< trigger 5) printed:\n%s", out)
	}
	fails(t, exitUsage, []string{"--partition", "not column=value"}, cmdArgs([]string{"compact"}, tbl(wh, "shop.kv", "--partition", "dt"))...)
	fails(t, exitUsage, []string{"day is not a partition key", "dt"}, cmdArgs([]string{"compact"}, tbl(wh, "shop.kv", "--partition", "day=1"))...)
}
