package write_test

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/write"
)

// payload is a deterministic, poorly compressible string.
func payload(i int64) string {
	h := sha256.Sum256([]byte{byte(i), byte(i >> 8), byte(i >> 16)})
	return hex.EncodeToString(h[:])
}

// TestRollingAtTargetFileSize writes enough rows into one bucket to roll several files at a small
// target-file-size: every file but the last reaches the target, row counts add up, and for PK
// tables the files of one flush hold disjoint, ascending key ranges with sorted unique keys.
func TestRollingAtTargetFileSize(t *testing.T) {
	const target = 16 << 10
	cases := []struct {
		name string
		pk   []string
		opts map[string]string
	}{
		{"primary key", []string{"k"}, map[string]string{"bucket": "1", "target-file-size": "16kb"}},
		{"append", nil, map[string]string{"target-file-size": "16 kb"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tbl := newTable(t, [][2]string{{"k", "BIGINT"}, {"v", "STRING"}}, nil, c.pk, c.opts)
			const n = 3000
			keys := rand.New(rand.NewPCG(1, 2)).Perm(n) // arrival order is not key order
			var changes []change
			for _, k := range keys {
				changes = append(changes, ins(int64(k), payload(int64(k))))
			}
			// A few duplicates: PK tables fold them, append tables keep them.
			for k := range int64(20) {
				changes = append(changes, ins(k, "dup"))
			}
			msgs := writeChanges(t, tbl, write.Options{}, changes)
			if len(msgs) != 1 {
				t.Fatalf("%d messages, want 1 (one bucket)", len(msgs))
			}
			files := msgs[0].NewFiles
			if len(files) < 3 {
				t.Fatalf("%d files at target %d, want several", len(files), target)
			}
			sizes := make([]int64, len(files))
			for i, f := range files {
				sizes[i] = f.FileSize
			}
			t.Logf("%d files, sizes %v", len(files), sizes)
			var rows int64
			var prevMax []any
			keyTypes := tbl.KeyTypes()
			for i, f := range files {
				rows += f.RowCount
				if i < len(files)-1 && f.FileSize < target {
					t.Errorf("file %d of %d: %d bytes, below target %d", i, len(files), f.FileSize, target)
				}
				if f.FileSize > 3*target {
					t.Errorf("file %d: %d bytes, far above target %d", i, f.FileSize, target)
				}
				content := readDataFile(t, tbl, msgs[0], f)
				if c.pk == nil {
					continue
				}
				lo, err1 := binrow.Deserialize(keyTypes, f.MinKey)
				hi, err2 := binrow.Deserialize(keyTypes, f.MaxKey)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if lo[0] != content[0].vals[0] || hi[0] != content[len(content)-1].vals[0] {
					t.Errorf("file %d: key range [%v, %v], content [%v, %v]", i, lo[0], hi[0], content[0].vals[0], content[len(content)-1].vals[0])
				}
				for j := 1; j < len(content); j++ {
					if content[j-1].vals[0].(int64) >= content[j].vals[0].(int64) {
						t.Fatalf("file %d: keys not strictly ascending at row %d: %v, %v", i, j, content[j-1].vals[0], content[j].vals[0])
					}
				}
				if prevMax != nil && binrow.CompareRows(keyTypes, prevMax, lo) >= 0 {
					t.Errorf("file %d starts at key %v, not after the previous file's max %v", i, lo, prevMax)
				}
				prevMax = hi
			}
			want := int64(len(changes))
			if c.pk != nil {
				want = n
			}
			if rows != want {
				t.Errorf("files hold %d rows, want %d", rows, want)
			}
			commitMsgs(t, tbl, msgs)
		})
	}
}
