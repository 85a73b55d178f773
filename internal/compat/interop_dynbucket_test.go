package compat

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// dynDef is a partitioned dynamic-bucket primary-key table with small buckets, so a few hundred
// keys spread over several buckets per partition.
func dynDef(target string) tableDef {
	return tableDef{
		cols: [][2]string{{"dt", "STRING"}, {"id", "BIGINT"}, {"name", "STRING"}, {"v", "BIGINT"}, {"score", "DOUBLE"}},
		pk:   []string{"dt", "id"}, part: []string{"dt"},
		options: map[string]string{"bucket": "-1", "dynamic-bucket.target-row-num": target},
	}
}

// TestDynamicBucketLakeloadWrites: lakeload writes a dynamic-bucket table over several commits of
// upserts and deletes (one commit by pypaimon, which also maintains the HASH index, in between);
// lakeload, Java and pypaimon read every snapshot equal to the model, and every key hash is in one
// bucket of its partition, the bucket whose data files hold the key (_TOTAL_BUCKETS -1, as Java writes).
func TestDynamicBucketLakeloadWrites(t *testing.T) {
	py := oracle.Py(t)
	wh := t.TempDir()
	def := dynDef("40")
	tbl := newTable(t, wh, "dyn", def)
	m := newModel(tbl.Schema)
	commits := upsertCommits(11, 5, 150, 300)
	for ci, cs := range commits {
		var id int64
		if ci == 2 {
			var inserts []change // pypaimon writes row kinds only through rowkind.field; give it upserts
			for _, c := range cs {
				if c.Kind == spec.RowKindInsert {
					inserts = append(inserts, c)
				}
			}
			cs = inserts
			id = pyCommit(t, py, tbl.Path, def, tbl.Schema.Fields, cs)
		} else {
			id = lakeloadCommit(t, tbl, cs)
		}
		for _, c := range cs {
			m.apply(c)
		}
		threeReaders(t, fmt.Sprintf("commit %d", ci+1), tbl, id, canonLines(t, tbl.Schema.Fields, m.result()))
		checkHashIndex(t, tbl, m)
	}
	sameSnapshots(t, tbl)
}

// TestDynamicBucketJavaAndLakeloadWriters: Java (HashBucketAssigner + TableWrite.write(row, bucket),
// as Flink's dynamic-bucket sink) writes first, lakeload updates the same keys and adds new ones,
// Java writes again, lakeload again. Every reader sees the model (a key in two buckets would show
// twice) and every key hash stays in exactly one bucket.
func TestDynamicBucketJavaAndLakeloadWriters(t *testing.T) {
	dyn := javaDynWriter(t)
	wh := t.TempDir()
	tbl := newTable(t, wh, "mixed", dynDef("25"))
	m := newModel(tbl.Schema)
	commits := upsertCommits(23, 4, 120, 200)
	for ci, cs := range commits {
		var id int64
		if ci%2 == 0 {
			id = dyn(t, tbl, cs)
		} else {
			id = lakeloadCommit(t, tbl, cs)
		}
		for _, c := range cs {
			m.apply(c)
		}
		threeReaders(t, fmt.Sprintf("commit %d (%s)", ci+1, map[bool]string{true: "java", false: "lakeload"}[ci%2 == 0]), tbl, id,
			canonLines(t, tbl.Schema.Fields, m.result()))
		checkHashIndex(t, tbl, m)
	}
}

// TestDynamicBucketHashFilesMatchJava: for the same keys written in the same order, lakeload's HASH
// index files are byte-identical to Java's, bucket by bucket — on an empty table and again after a
// second write that restores the index and adds keys.
func TestDynamicBucketHashFilesMatchJava(t *testing.T) {
	dyn := javaDynWriter(t)
	wh := t.TempDir()
	def := dynDef("70")
	jt, lt := newTable(t, wh, "java", def), newTable(t, wh, "lake", def)
	var rounds [][]change
	for r := range 2 {
		var cs []change
		for i := range 180 {
			id := int64(i*7 + r*500) // round 2 updates 1/3 of the keys of round 1 and adds new ones
			if r == 1 && i < 60 {
				id = int64(i * 21)
			}
			dt := []string{"a", "b"}[i%2]
			cs = append(cs, ins(dt, id, fmt.Sprint("n", i), int64(i), float64(i)))
		}
		rounds = append(rounds, cs)
	}
	for r, cs := range rounds {
		dyn(t, jt, cs)
		lakeloadCommit(t, lt, cs)
		jf, lf := hashFiles(t, jt), hashFiles(t, lt)
		if len(jf) == 0 || len(jf) != len(lf) {
			t.Fatalf("round %d: Java has HASH files for %d buckets, lakeload %d", r+1, len(jf), len(lf))
		}
		buckets := 0
		for k, jb := range jf {
			if !bytes.Equal(jb, lf[k]) {
				t.Errorf("round %d %s: HASH file differs: Java %d bytes, lakeload %d bytes", r+1, k, len(jb), len(lf[k]))
			}
			buckets++
		}
		if buckets < 4 {
			t.Errorf("round %d: only %d buckets; the test wants keys spread over several", r+1, buckets)
		}
	}
}

// hashFiles returns the bytes of the live HASH index files by "partition/bucket".
func hashFiles(t *testing.T, tbl *table.Table) map[string][]byte {
	t.Helper()
	_, es := liveIndex(t, tbl)
	out := map[string][]byte{}
	for _, e := range es {
		p, err := index.FilePath(tbl, e)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprintf("%x/%d", e.Partition, e.Bucket)] = b
	}
	return out
}

// checkHashIndex checks the latest snapshot's HASH index: one file per (partition, bucket), no key
// hash in two buckets of a partition, every live key of the model indexed, and every data file's
// bucket the bucket the index names for the file's min and max keys.
func checkHashIndex(t *testing.T, tbl *table.Table, m *model) {
	t.Helper()
	ctx := context.Background()
	latest, es := liveIndex(t, tbl)
	owner := map[string]map[int32]int32{} // partition → hash → bucket
	seen := map[string]bool{}
	for _, e := range es {
		if e.IndexType != manifest.IndexTypeHash {
			continue
		}
		k := fmt.Sprintf("%x/%d", e.Partition, e.Bucket)
		if seen[k] {
			t.Fatalf("two HASH files for %s", k)
		}
		seen[k] = true
		hs, err := index.ReadHashFile(ctx, tbl, e)
		if err != nil {
			t.Fatal(err)
		}
		o := owner[string(e.Partition)]
		if o == nil {
			o = map[int32]int32{}
			owner[string(e.Partition)] = o
		}
		for _, h := range hs {
			if b, dup := o[h]; dup {
				t.Fatalf("snapshot %d: key hash %d in buckets %d and %d of partition %x", latest.ID, h, b, e.Bucket, e.Partition)
			}
			o[h] = e.Bucket
		}
	}
	partT, keyT := tbl.PartitionTypes(), tbl.KeyTypes()
	for _, r := range m.result() {
		pb, err := serializeRow(partT, []any{r[0]})
		if err != nil {
			t.Fatal(err)
		}
		h, err := keyHash(keyT, []any{r[1]})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := owner[string(pb)][h]; !ok {
			t.Errorf("live key %v/%v (hash %d) is in no HASH index file", r[0], r[1], h)
		}
	}
	live, err := tbl.LiveFiles(ctx, latest)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range live {
		if e.TotalBuckets != -1 {
			t.Errorf("data file %s has _TOTAL_BUCKETS %d; Java writes -1 for dynamic-bucket tables", e.File.FileName, e.TotalBuckets)
		}
		for _, kb := range [][]byte{e.File.MinKey, e.File.MaxKey} {
			h := hashOfSerialized(kb)
			if b, ok := owner[string(e.Partition)][h]; !ok || b != e.Bucket {
				t.Errorf("data file %s in bucket %d holds a key the index puts in bucket %d (indexed: %v)", e.File.FileName, e.Bucket, b, ok)
			}
		}
	}
}

var (
	dynOnce sync.Once
	dynMu   sync.Mutex
	dynIn   io.Writer
	dynOut  *bufio.Reader
	dynErr  error
)

// javaDynWriter compiles oracle/java's DynWrite against the Java oracle's class path and starts it
// as a server (once per test binary; the JVM exits with stdin), and returns a function that writes
// changes into a table with it and returns the new snapshot id.
func javaDynWriter(t *testing.T) func(t *testing.T, tbl *table.Table, cs []change) int64 {
	t.Helper()
	oracle.Java(t) // skips (fails under CI) when the Java oracle is missing
	dynOnce.Do(func() { dynIn, dynOut, dynErr = startDynWrite() })
	if dynErr != nil {
		t.Fatal(dynErr)
	}
	return func(t *testing.T, tbl *table.Table, cs []change) int64 {
		t.Helper()
		var lines []string
		for i, c := range cs {
			b, err := canon.Row(tbl.Schema.Fields, c.Row)
			if err != nil {
				t.Fatalf("change %d: %v", i, err)
			}
			line := string(b)
			if c.Kind != spec.RowKindInsert {
				line = `{"_kind":"` + kindText[c.Kind] + `",` + line[1:]
			}
			lines = append(lines, line)
		}
		rows := filepath.Join(t.TempDir(), "rows.jsonl")
		if err := os.WriteFile(rows, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		dynMu.Lock()
		_, err := fmt.Fprintf(dynIn, "%s\t%s\n", tbl.Path, rows)
		reply := ""
		if err == nil {
			reply, err = dynOut.ReadString('\n')
		}
		dynMu.Unlock()
		if err != nil || strings.TrimSpace(reply) != "ok" {
			t.Fatalf("Java DynWrite: %v %s", err, reply)
		}
		latest, err := tbl.Snapshots().Latest(context.Background())
		if err != nil || latest == nil {
			t.Fatalf("no snapshot after the Java write: %v", err)
		}
		if latest.CommitKind != spec.CommitKindAppend {
			t.Errorf("Java committed %s", latest.CommitKind)
		}
		return latest.ID
	}
}

func startDynWrite() (io.Writer, *bufio.Reader, error) {
	root, err := oracle.RepoRoot()
	if err != nil {
		return nil, nil, err
	}
	jar := os.Getenv("LAKELOAD_JAVA_ORACLE")
	if !strings.HasSuffix(jar, ".jar") {
		jar = filepath.Join(root, "oracle", "java", "target", "paimon-oracle.jar")
	}
	cp := jar + string(os.PathListSeparator) + filepath.Join(filepath.Dir(jar), "lib", "*")
	dir, err := os.MkdirTemp("", "lakeload-dynwrite-")
	if err != nil {
		return nil, nil, err
	}
	src := filepath.Join(root, "oracle", "java", "src", "main", "java", "lakeload", "oracle", "DynWrite.java")
	if out, err := exec.Command("javac", "-nowarn", "-d", dir, "-cp", cp, src).CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("javac DynWrite: %v\n%s", err, out)
	}
	cmd := exec.Command("java", "-cp", dir+string(os.PathListSeparator)+cp, "lakeload.oracle.DynWrite", "serve")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	return in, bufio.NewReader(out), nil
}

func serializeRow(types []spec.DataType, vals []any) ([]byte, error) {
	return binrow.Serialize(types, vals)
}

// keyHash is Java's BinaryRow.hashCode of the key row.
func keyHash(types []spec.DataType, vals []any) (int32, error) {
	b, err := binrow.Encode(types, vals)
	if err != nil {
		return 0, err
	}
	return binrow.Hash(b), nil
}

// hashOfSerialized is the hashCode of a serialized (arity-prefixed) BinaryRow.
func hashOfSerialized(b []byte) int32 { return binrow.Hash(b[4:]) }
