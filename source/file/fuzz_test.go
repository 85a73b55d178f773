package file

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

var fuzzCols = []string{"a INT NOT NULL", "b STRING", "c DECIMAL(6, 2)", "d TIMESTAMP(3) WITH LOCAL TIME ZONE",
	"e ARRAY<MAP<STRING, DATE>>", "f ROW<x BYTES, y TIME(3)>", "g DOUBLE", "h BOOLEAN"}

// drain reads src to the end through a textReader and reports whether every row converted.
func drain(t *testing.T, src rowSource, fields []spec.DataField, withOp bool) {
	schema, err := source.ArrowSchema(fields)
	if err != nil {
		t.Fatal(err)
	}
	r := &textReader{split: source.Split{Path: "fuzz", RowCount: -1}, src: src, sink: newRowSink(memory.DefaultAllocator, schema, withOp)}
	defer r.sink.release()
	for i := 0; i < 1000; i++ {
		b, err := r.Next(t.Context())
		if err != nil {
			return
		}
		if int(b.Record.NumRows()) != b.Record.Column(0).Len() || (withOp && len(b.Kinds) != int(b.Record.NumRows())) {
			t.Fatalf("inconsistent batch")
		}
		b.Record.Release()
	}
}

func FuzzCSV(f *testing.F) {
	f.Add([]byte("a,b,c,d,e,f,g,h,op\n1,x,1.5,2024-01-01 00:00:00Z,\"[{\"\"k\"\":\"\"2024-01-01\"\"}]\",\"{\"\"x\"\":\"\"AQ==\"\"}\",1e3,true,+I\n"))
	f.Add([]byte("a,op\n\"1\n\",-D\r\n2,\"\"\n"))
	f.Add([]byte("\xEF\xBB\xBFa,b,op\n1,\\N,+U\n,\"\",x\n"))
	fields := table(f, fuzzCols...).Fields
	f.Fuzz(func(t *testing.T, data []byte) {
		src, err := newCSVSource("fuzz", bytes.NewReader(data), fields, source.MappingOptions{OpColumn: "op", IgnoreExtra: true})
		if err != nil {
			return
		}
		drain(t, src, fields, true)
	})
}

func FuzzJSONL(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":"x","c":"1.5","d":"2024-01-01T00:00:00+01:00","e":[{"k":"2024-01-01"}],"f":{"x":"AQ==","y":"01:02:03"},"g":1,"h":"0"}` + "\n"))
	f.Add([]byte("{\"a\":1,\"f\":{\"Y\":null}}\r\n{\"a\":[1]}\n"))
	f.Add([]byte(`{"a":1,"a":2}`))
	fields := table(f, fuzzCols...).Fields
	f.Fuzz(func(t *testing.T, data []byte) {
		src, err := newJSONLSource("fuzz", bytes.NewReader(data), fields, source.MappingOptions{})
		if err != nil {
			return
		}
		drain(t, src, fields, false)
	})
}

// TestCorruptParquet feeds truncated and garbled Parquet files; every case must fail cleanly.
func TestCorruptParquet(t *testing.T) {
	dir := t.TempDir()
	tbl := table(t, "id BIGINT NOT NULL", "customer STRING", "amount DECIMAL(12, 2)", "status STRING", "ts TIMESTAMP(3)", "dt STRING NOT NULL")
	good, err := os.ReadFile("../../testdata/sample/orders-1.parquet")
	if err != nil {
		t.Fatal(err)
	}
	variants := map[string][]byte{
		"empty.parquet":     {},
		"magic.parquet":     []byte("PAR1PAR1"),
		"truncated.parquet": good[:len(good)/2],
	}
	garbled := bytes.Clone(good)
	for i := 200; i < len(garbled)-2000; i += 97 {
		garbled[i] ^= 0x5a
	}
	variants["garbled.parquet"] = garbled
	for name, data := range variants {
		p := writeFile(t, dir, name, string(data))
		sp := source.Split{Path: p, Format: "parquet", RowCount: -1}
		bs, err := readAll(t, sp, tbl, source.MappingOptions{})
		if err == nil && name != "garbled.parquet" {
			t.Errorf("%s: read %d batches without error", name, len(bs))
		}
		if err != nil && (errors.Is(err, io.EOF) || !bytes.Contains([]byte(err.Error()), []byte(name))) {
			t.Errorf("%s: error does not name the file: %v", name, err)
		}
	}
}
