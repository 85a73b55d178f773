package parquet

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/lakeload/lakeload/codec/pqflat"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/spec"
)

// decodeAll opens and fully decodes data; any failure must be an error wrapping spec.ErrCorrupt.
func decodeAll(data []byte, fields []spec.DataField) error {
	r, err := OpenReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	it, err := r.Read(context.Background(), nil, 7)
	if err != nil {
		return err
	}
	defer it.Release()
	for it.Next() {
		rec := it.RecordBatch()
		for c := 0; c < int(rec.NumCols()) && c < len(fields); c++ {
			for i := 0; i < int(rec.NumRows()); i++ {
				// type mismatches after corruption are fine; only panics are not
				_, _ = arrowconv.DatumAt(rec.Column(c), i, fields[c].Type)
			}
		}
	}
	return it.Err()
}

func smallFile(t testing.TB) ([]byte, []spec.DataField) {
	fields := allTypesFields()[:14]
	rows := allTypesRows(12)
	for i := range rows {
		rows[i] = rows[i][:14]
	}
	data, _ := writeRows(t, fields, rows, 12, WriterOptions{Compression: "none"})
	return data, fields
}

func TestCorruptFilesReturnErrCorrupt(t *testing.T) {
	data, fields := smallFile(t)
	if err := decodeAll(data, fields); err != nil {
		t.Fatalf("valid file: %v", err)
	}
	check := func(what string, b []byte) {
		t.Helper()
		err := decodeAll(b, fields)
		if err != nil && !errors.Is(err, spec.ErrCorrupt) {
			t.Errorf("%s: error %v does not wrap ErrCorrupt", what, err)
		}
	}
	for _, n := range []int{0, 3, 4, 8, len(data) / 2, len(data) - 9, len(data) - 1} {
		b := data[:n]
		if err := decodeAll(b, fields); !errors.Is(err, spec.ErrCorrupt) {
			t.Errorf("truncated to %d bytes: got %v, want ErrCorrupt", n, err)
		}
	}
	for pos := 0; pos < len(data); pos += 7 {
		b := bytes.Clone(data)
		b[pos] ^= 0xA5
		check("flipped byte", b)
	}
}

func FuzzDecode(f *testing.F) {
	data, fields := smallFile(f)
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := decodeAll(b, fields); err != nil && !errors.Is(err, spec.ErrCorrupt) {
			t.Fatalf("error %v does not wrap ErrCorrupt", err)
		}
	})
}

// TestCorruptFlatFilesReturnErrCorrupt damages a file that codec/pqflat reads (flat columns of
// the types it decodes): every failure still wraps spec.ErrCorrupt.
func TestCorruptFlatFilesReturnErrCorrupt(t *testing.T) {
	pick := []int{1, 2, 3, 4, 5, 6, 11, 13, 14} // i8 i16 i32 i64 f32 f64 str bytes date
	all, rows := allTypesFields(), allTypesRows(40)
	fields := make([]spec.DataField, len(pick))
	for k, i := range pick {
		fields[k] = all[i]
	}
	for r := range rows {
		row := make([]any, 0, len(pick))
		for _, i := range pick {
			row = append(row, rows[r][i])
		}
		rows[r] = row
	}
	data, _ := writeRows(t, fields, rows, 12, WriterOptions{Compression: "none"})
	r, err := OpenReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	it, err := r.Read(context.Background(), nil, 7)
	if err != nil {
		t.Fatal(err)
	}
	if _, fast := it.rr.(*pqflat.RecordReader); !fast {
		t.Fatalf("the file is read by %T, not pqflat", it.rr)
	}
	it.Release()
	if err := decodeAll(data, fields); err != nil {
		t.Fatalf("valid file: %v", err)
	}
	for pos := 0; pos < len(data); pos += 3 {
		for _, x := range []byte{0xA5, 0x01, 0x80} {
			b := bytes.Clone(data)
			b[pos] ^= x
			if err := decodeAll(b, fields); err != nil && !errors.Is(err, spec.ErrCorrupt) {
				t.Fatalf("byte %d ^ %#x: error %v does not wrap ErrCorrupt", pos, x, err)
			}
		}
	}
}
