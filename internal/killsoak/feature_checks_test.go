package killsoak

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// checkDynamicBuckets checks the dynamic-bucket table's latest HASH index after the kills: one file
// per (partition, bucket); no key hash in two buckets of a partition; every live key of the
// harness's model (hashed as Java's BinaryRow.hashCode, paimon/spec/binrow) indexed; and every live
// data file in an indexed bucket, its min and max keys indexed in that very bucket. A key in two
// buckets would also show twice in the oracles' reads.
func checkDynamicBuckets(t *testing.T, e *featureEnv) {
	t.Helper()
	ctx := context.Background()
	tbl, err := table.Open(ctx, local.New(), e.tablePath, soakDB+"."+e.ts.name)
	if err != nil {
		t.Fatal(err)
	}
	latest, err := tbl.Snapshots().Latest(ctx)
	if err != nil || latest == nil {
		t.Fatalf("latest snapshot of %s: %v", e.tablePath, err)
	}
	es, err := index.SnapshotEntries(ctx, tbl, latest)
	if err != nil {
		t.Fatal(err)
	}
	type pb struct {
		part   string
		bucket int32
	}
	files := map[pb]bool{}
	owner := map[string]map[int32]int32{} // partition → key hash → bucket
	hashes, twice := 0, 0
	for _, ie := range es {
		if ie.IndexType != manifest.IndexTypeHash {
			continue
		}
		k := pb{string(ie.Partition), ie.Bucket}
		if files[k] {
			t.Errorf("snapshot %d: two HASH index files for partition %x bucket %d", latest.ID, ie.Partition, ie.Bucket)
		}
		files[k] = true
		hs, err := index.ReadHashFile(ctx, tbl, ie)
		if err != nil {
			t.Fatal(err)
		}
		if owner[k.part] == nil {
			owner[k.part] = map[int32]int32{}
		}
		for _, h := range hs {
			if b, dup := owner[k.part][h]; dup && b != ie.Bucket {
				twice++
				if twice <= 5 {
					t.Errorf("snapshot %d: key hash %d in buckets %d and %d of partition %x", latest.ID, h, b, ie.Bucket, ie.Partition)
				}
			}
			owner[k.part][h] = ie.Bucket
			hashes++
		}
	}
	// Every live key of the model is indexed.
	partCols, keyCols := columnIndexes(t, e, tbl.PartitionFields()), columnIndexes(t, e, tbl.KeyFields())
	unindexed := 0
	live := 0
	for _, r := range e.exp.last {
		if r.op == "-U" || r.op == "-D" {
			continue
		}
		live++
		pbytes, err := binrow.Serialize(tbl.PartitionTypes(), pick(r.vals, partCols))
		if err != nil {
			t.Fatal(err)
		}
		kb, err := binrow.Encode(tbl.KeyTypes(), pick(r.vals, keyCols))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := owner[string(pbytes)][binrow.Hash(kb)]; !ok {
			unindexed++
			if unindexed <= 5 {
				t.Errorf("live key %v is in no HASH index file", pick(r.vals, keyCols))
			}
		}
	}
	// Every live data file is in an indexed bucket, and the index puts its keys there.
	dataFiles, err := tbl.LiveFiles(ctx, latest)
	if err != nil {
		t.Fatal(err)
	}
	misplaced := 0
	for _, f := range dataFiles {
		if !files[pb{string(f.Partition), f.Bucket}] {
			misplaced++
			t.Errorf("data file %s is in bucket %d, which has no HASH index file", f.File.FileName, f.Bucket)
			continue
		}
		for _, kb := range [][]byte{f.File.MinKey, f.File.MaxKey} {
			if len(kb) < 4 {
				t.Fatalf("data file %s: key row of %d bytes", f.File.FileName, len(kb))
			}
			if b, ok := owner[string(f.Partition)][binrow.Hash(kb[4:])]; !ok || b != f.Bucket {
				misplaced++
				t.Errorf("data file %s in bucket %d holds a key the index puts in bucket %d (indexed: %v)", f.File.FileName, f.Bucket, b, ok)
			}
		}
	}
	e.notes = append(e.notes, fmt.Sprintf("hash-buckets=%d indexed-hashes=%d live-keys=%d data-files=%d keys-in-two-buckets=%d unindexed=%d misplaced=%d",
		len(files), hashes, live, len(dataFiles), twice, unindexed, misplaced))
	if len(files) < 2*len(owner) {
		t.Errorf("only %d buckets over %d partitions; the soak wants keys spread over several buckets per partition", len(files), len(owner))
	}
}

// columnIndexes maps table fields to the soak table's column indexes.
func columnIndexes(t *testing.T, e *featureEnv, fs []spec.DataField) []int {
	t.Helper()
	out := make([]int, len(fs))
	for i, f := range fs {
		j := slices.IndexFunc(e.fields, func(g spec.DataField) bool { return g.Name == f.Name })
		if j < 0 {
			t.Fatalf("table column %s is not a soak column", f.Name)
		}
		out[i] = j
	}
	return out
}

func pick(vals []any, idx []int) []any {
	out := make([]any, len(idx))
	for i, j := range idx {
		out[i] = vals[j]
	}
	return out
}

// checkEvolvedSchema checks that the kills left exactly one evolution: schema 0 as created and
// schema 1 with the input's extra column added as a nullable column at the end (a resumed run must
// not add it again), and that the table's current schema is that one.
func checkEvolvedSchema(t *testing.T, e *featureEnv) {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(e.tablePath, "schema"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, en := range ents {
		names = append(names, en.Name())
	}
	if !slices.Equal(names, []string{"schema-0", "schema-1"}) {
		t.Errorf("schema files %v, want [schema-0 schema-1]: one evolution, whatever the kills", names)
	}
	tbl, err := table.Open(context.Background(), local.New(), e.tablePath, soakDB+"."+e.ts.name)
	if err != nil {
		t.Fatal(err)
	}
	fs := tbl.Schema.Fields
	if tbl.Schema.ID != 1 || len(fs) != len(e.fields) || fs[len(fs)-1].Name != "extra" || !fs[len(fs)-1].Type.Nullable {
		t.Errorf("current schema %d has fields %v, want schema 1 ending with nullable extra", tbl.Schema.ID, fs)
	}
	e.notes = append(e.notes, fmt.Sprintf("schemas=%v", names))
}

// checkQuarantine checks --bad-rows=quarantine across kills: `lakeload status --output json` counts
// every bad row written into the input (rowsQuarantined) and lists the committed attempts' files,
// which name each bad row (file, row) exactly once and nothing else. Files of attempts the kills cut
// short may remain beside them; they do not count.
func checkQuarantine(t *testing.T, e *featureEnv) {
	t.Helper()
	out := runToEnd(t, []string{"status", "--warehouse", e.pl.wh, "--table", soakDB + "." + e.ts.name, "--job", soakJob, "--output", "json"})
	var st struct {
		RowsQuarantined int64    `json:"rowsQuarantined"`
		QuarantineFiles []string `json:"quarantineFiles"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("status --output json: %v\n%s", err, out)
	}
	if len(e.bad) == 0 {
		t.Fatal("the quarantine soak's input has no bad rows")
	}
	if st.RowsQuarantined != int64(len(e.bad)) {
		t.Errorf("status says %d rows quarantined, the input has %d bad rows", st.RowsQuarantined, len(e.bad))
	}
	seen := map[string]int{}
	entries := 0
	for _, f := range st.QuarantineFiles {
		fh, err := os.Open(strings.TrimPrefix(f, "file://"))
		if err != nil {
			t.Fatalf("quarantine file listed by status: %v", err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			var r struct {
				File   string `json:"file"`
				Row    int64  `json:"row"`
				Column string `json:"column"`
			}
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("quarantine file %s: %v: %s", f, err, sc.Text())
			}
			seen[badRow{file: filepath.Base(r.File), row: r.Row}.String()]++
			entries++
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	lost, dup := 0, 0
	for _, b := range e.bad {
		switch n := seen[b.String()]; {
		case n == 0:
			lost++
			if lost <= 5 {
				t.Errorf("bad row %s is in no committed quarantine file", b)
			}
		case n > 1:
			dup++
			t.Errorf("bad row %s is listed %d times", b, n)
		}
		delete(seen, b.String())
	}
	for k, n := range seen {
		t.Errorf("quarantine lists %s (%d times), which is a good row or no row", k, n)
	}
	all, _ := os.ReadDir(filepath.Join(e.pl.storeDir, "quarantine"))
	e.notes = append(e.notes, fmt.Sprintf("bad-rows=%d quarantined=%d entries=%d quarantine-lost=%d quarantine-dup=%d quarantine-wrong=%d committed-files=%d all-files=%d",
		len(e.bad), st.RowsQuarantined, entries, lost, dup, len(seen), len(st.QuarantineFiles), len(all)))
}
