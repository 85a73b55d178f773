package killsoak

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWriteTextNumbersBadRows reads the text input back: the rows writeText reports bad are exactly
// the rows that are bad (wrong field count, malformed JSON, a text in a BIGINT column, a null key),
// numbered as source.Rejected numbers them (1-based data rows, CSV header excluded).
func TestWriteTextNumbersBadRows(t *testing.T) {
	ts := totalsTable(50)
	fields, err := ts.fields()
	if err != nil {
		t.Fatal(err)
	}
	rows := ts.gen(rand.New(rand.NewPCG(1, 2)), 0, 200)
	for _, format := range []string{"csv", "jsonl"} {
		path := filepath.Join(t.TempDir(), "in."+format)
		bad, err := writeText(path, format, ts, fields, rows, 7, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			t.Fatal(err)
		}
		var found []int64
		good := 0
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if format == "csv" {
			r := csv.NewReader(f)
			r.FieldsPerRecord = -1
			if _, err := r.Read(); err != nil { // header
				t.Fatal(err)
			}
			for n := int64(1); ; n++ {
				rec, err := r.Read()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(rec) != len(fields) || slices.Contains(rec, "not-a-number") || rec[0] == "" {
					found = append(found, n)
				} else {
					good++
				}
			}
		} else {
			sc := bufio.NewScanner(f)
			for n := int64(1); sc.Scan(); n++ {
				var obj map[string]any
				if json.Unmarshal(sc.Bytes(), &obj) != nil || obj["k"] == nil || strings.Contains(sc.Text(), "not-a-number") {
					found = append(found, n)
				} else {
					good++
				}
			}
		}
		f.Close()
		if len(bad) < 5 || !slices.Equal(found, bad) || good != len(rows) {
			t.Errorf("%s: writeText reported bad rows %v, the file has %v and %d good rows (want %d)", format, bad, found, good, len(rows))
		}
	}
}
