package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDynamicBucketTableLoad: `table create --option bucket=-1` then two loads (the second updating
// keys of the first and adding new ones) give the expected rows, keys spread over several buckets
// of a partition by dynamic-bucket.target-row-num, and HASH index files in the table.
func TestDynamicBucketTableLoad(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "s.dyn", "--column", "dt STRING", "--column", "id BIGINT", "--column", "v STRING",
		"--primary-key", "dt,id", "--partition-key", "dt", "--option", "bucket=-1", "--option", "dynamic-bucket.target-row-num=2"))...)
	first := writeFile(t, in, "a.csv", "dt,id,v\na,1,x\na,2,x\na,3,x\na,4,x\nb,1,y\na,5,x\n")
	ok(t, cmdArgs([]string{"load"}, tbl(wh, "s.dyn", "--from", first, "--job", "j1"))...)
	second := writeFile(t, in, "b.csv", "dt,id,v\na,1,new\na,7,x\nb,9,y\n")
	ok(t, cmdArgs([]string{"load"}, tbl(wh, "s.dyn", "--from", second, "--job", "j2"))...)
	got := strings.TrimSpace(ok(t, cmdArgs([]string{"scan"}, tbl(wh, "s.dyn", "--output", "jsonl"))...))
	want := strings.Join([]string{`{"dt":"a","id":1,"v":"new"}`, `{"dt":"a","id":2,"v":"x"}`, `{"dt":"a","id":3,"v":"x"}`,
		`{"dt":"a","id":4,"v":"x"}`, `{"dt":"a","id":5,"v":"x"}`, `{"dt":"a","id":7,"v":"x"}`, `{"dt":"b","id":1,"v":"y"}`, `{"dt":"b","id":9,"v":"y"}`}, "\n")
	if got != want {
		t.Errorf("scan:\n%s\nwant:\n%s", got, want)
	}
	dir := filepath.Join(wh, "s.db", "dyn")
	buckets, _ := filepath.Glob(filepath.Join(dir, "dt=a", "bucket-*"))
	if len(buckets) != 3 { // 6 keys, 2 per bucket
		t.Errorf("partition a has buckets %v, want 3", buckets)
	}
	if idx, err := os.ReadDir(filepath.Join(dir, "index")); err != nil || len(idx) == 0 {
		t.Errorf("no HASH index files: %v", err)
	}
}
