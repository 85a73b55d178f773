package file

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// orcFixture is testdata/orders.orc, written by pyarrow.orc (Apache ORC's C++ writer) with
// testdata/orders_orc.py: 1500 rows in 3 stripes, values a function of the row number.
const orcFixture = "testdata/orders.orc"

// orcWant is row i of the fixture as readORCRows prints it.
func orcWant(i int) string {
	big, name := "null", "null"
	if i%7 != 0 {
		big = fmt.Sprint(int64(i) * 1000003)
	}
	if i%5 != 0 {
		name = fmt.Sprintf("name-%d", i)
	}
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%400).Format("2006-01-02")
	ts := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(i)*time.Second + time.Duration(i%1000)*time.Millisecond)
	tags := "[]"
	if i%3 != 0 {
		tags = fmt.Sprintf("[%d %d]", i, i+1)
	}
	return fmt.Sprintf("%d %s %s %g %v %d.%02d %s %s %s %d", i, big, name, float64(i)/8, i%2 == 0, i/100, i%100, day,
		ts.Format("2006-01-02T15:04:05.000"), tags, i%100)
}

// readORCRows reads splits of the fixture into the orders table and prints each row.
func readORCRows(t *testing.T, splits []source.Split, tbl *spec.TableSchema, opts source.MappingOptions) ([]string, error) {
	t.Helper()
	var out []string
	for _, sp := range splits {
		r, err := Open(context.Background(), osFS{}, sp, tbl, opts)
		if err != nil {
			return out, err
		}
		for {
			b, err := r.Next(context.Background())
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				_ = r.Close()
				return out, err
			}
			rec := b.Record
			if b.FirstRow != int64(len(out)) && len(splits) == 1 && sp.RowStart == 0 {
				t.Fatalf("batch starts at row %d, want %d", b.FirstRow, len(out))
			}
			for i := 0; i < int(rec.NumRows()); i++ {
				var f []string
				for c := 0; c < int(rec.NumCols()); c++ {
					col := rec.Column(c)
					if col.IsNull(i) {
						f = append(f, "null")
						continue
					}
					switch a := col.(type) {
					case *array.Timestamp:
						f = append(f, a.Value(i).ToTime(arrow.Millisecond).Format("2006-01-02T15:04:05.000"))
					case *array.Date32:
						f = append(f, a.Value(i).ToTime().Format("2006-01-02"))
					case *array.Decimal128:
						f = append(f, a.Value(i).ToString(2))
					case *array.List:
						s, e := a.ValueOffsets(i)
						vals := a.ListValues().(*array.Int64)
						var l []string
						for k := s; k < e; k++ {
							l = append(l, fmt.Sprint(vals.Value(int(k))))
						}
						f = append(f, "["+strings.Join(l, " ")+"]")
					default:
						f = append(f, fmt.Sprint(col.GetOneForMarshal(i)))
					}
				}
				out = append(out, strings.Join(f, " "))
			}
			rec.Release()
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return out, nil
}

func ordersTable(t *testing.T, idType string) *spec.TableSchema {
	return table(t, "id "+idType, "big BIGINT", "name STRING", "d DOUBLE", "ok BOOLEAN", "amt DECIMAL(12, 2)", "day DATE",
		"ts TIMESTAMP(3)", "tags ARRAY<BIGINT>", "small INT")
}

// TestORCInput (issue 15, finding 4): an ORC file written by a real writer (pyarrow's ORC) is
// planned with its footer's exact row count (.orc needs no --format) and read into the table's
// types by column name, with safe widening (int32 id → BIGINT, smallint → INT, decimal(10,2) →
// DECIMAL(12,2)), nulls, lists, dates and millisecond timestamps; every row of its three stripes
// once, also from a split starting inside the second stripe.
func TestORCInput(t *testing.T) {
	abs, _ := filepath.Abs(orcFixture)
	ss, err := Plan(context.Background(), osFS{}, abs, "")
	if err != nil || len(ss) != 1 || ss[0].Format != source.FormatORC || ss[0].RowCount != 1500 {
		t.Fatalf("plan: %+v, %v; want one orc split of 1500 rows", ss, err)
	}
	for _, idType := range []string{"INT NOT NULL", "BIGINT"} {
		got, err := readORCRows(t, ss, ordersTable(t, idType), source.MappingOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1500 {
			t.Fatalf("%d rows, want 1500", len(got))
		}
		for i, g := range got {
			if w := orcWant(i); g != w {
				t.Fatalf("id %s: row %d = %q, want %q", idType, i, g, w)
			}
		}
	}
	part := ss[0]
	part.RowStart, part.RowCount = 700, 650 // inside stripe 2, into stripe 3
	got, err := readORCRows(t, []source.Split{part}, ordersTable(t, "INT"), source.MappingOptions{})
	if err != nil || len(got) != 650 || got[0] != orcWant(700) || got[649] != orcWant(1349) {
		t.Fatalf("rows 700..1349: %d rows (%v), first %q", len(got), err, first(got))
	}
}

// TestORCInputErrors: the mapping errors of Parquet (a type that cannot be stored losslessly, an
// unknown column, a timestamp finer than its column), a damaged file wrapping spec.ErrCorrupt, and
// a file over the decode budget are refused naming the file (and column).
func TestORCInputErrors(t *testing.T) {
	abs, _ := filepath.Abs(orcFixture)
	ss, err := Plan(context.Background(), osFS{}, abs, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = readORCRows(t, ss, table(t, "id SMALLINT", "big BIGINT", "name STRING", "d DOUBLE", "ok BOOLEAN", "amt DECIMAL(12, 2)",
		"day DATE", "ts TIMESTAMP(3)", "tags ARRAY<BIGINT>", "small INT"), source.MappingOptions{})
	wantErr(t, err, abs, `"id"`, "losslessly")
	_, err = readORCRows(t, ss, table(t, "id INT"), source.MappingOptions{})
	wantErr(t, err, abs, `input column "big" matches no table column`)
	if got, err := readORCRows(t, ss, table(t, "id INT", "ts TIMESTAMP(0)"), source.MappingOptions{IgnoreExtra: true}); err == nil {
		t.Fatalf("TIMESTAMP(0) read %d rows of millisecond timestamps", len(got))
	} else {
		wantErr(t, err, abs, `column "ts"`, "finer than the column holds")
	}

	data, err := os.ReadFile(orcFixture)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bad := append([]byte{}, data...)
	copy(bad[len(bad)-40:], strings.Repeat("\xff", 30)) // the footer
	p := filepath.Join(dir, "bad.orc")
	if err := os.WriteFile(p, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Plan(context.Background(), osFS{}, p, "")
	if !errors.Is(err, spec.ErrCorrupt) {
		t.Errorf("damaged footer: %v, want spec.ErrCorrupt", err)
	}
	wantErr(t, err, p, "not a readable ORC file", "re-export")
	_, err = PlanWith(context.Background(), osFS{}, abs, "", source.Limits{MaxDecodedBytes: 1000})
	wantErr(t, err, abs, "read into memory whole", "--memory-limit")
}
