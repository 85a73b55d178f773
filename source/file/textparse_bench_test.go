package file

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakeload/lakeload/source"
)

// benchCols are the bench's generated columns (bench.TableColumns).
var benchCols = []string{"id BIGINT NOT NULL", "name STRING", "city STRING", "tag STRING",
	"v DOUBLE", "w DOUBLE", "ts BIGINT", "dt STRING NOT NULL"}

// benchText returns n rows like the bench's as CSV (with a header) or JSON Lines (keys sorted).
func benchText(n int, format string) []byte {
	var b bytes.Buffer
	if format == "csv" {
		b.WriteString("id,name,city,tag,v,w,ts,dt\n")
	}
	cities := []string{"Berlin", "Paris", "Tokyo", "New York", "Lagos"}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("user-%d", i*7919%100003)
		city, tag := cities[i%len(cities)], "t"+strconv.Itoa(i%17)
		v := strconv.FormatFloat(float64(i)*1.25+0.1, 'g', -1, 64)
		w := strconv.FormatFloat(float64(i%1000)/3, 'g', -1, 64)
		ts := strconv.FormatInt(1700000000000+int64(i)*37, 10)
		dt := fmt.Sprintf("2024-03-%02d", i%8+1)
		if format == "csv" {
			fmt.Fprintf(&b, "%d,%s,%s,%s,%s,%s,%s,%s\n", i, name, city, tag, v, w, ts, dt)
		} else {
			fmt.Fprintf(&b, `{"city":%q,"dt":%q,"id":%d,"name":%q,"tag":%q,"ts":%s,"v":%s,"w":%s}`+"\n", city, dt, i, name, tag, ts, v, w)
		}
	}
	return b.Bytes()
}

func benchParse(b *testing.B, format string) {
	const rows = 100_000
	data := benchText(rows, format)
	tbl := table(b, benchCols...)
	schema, err := source.ArrowSchema(tbl.Fields)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	cpu0 := cpuNanos(b)
	b.ResetTimer()
	for range b.N {
		var src rowSource
		if format == "csv" {
			src, err = newCSVSource("bench", bytes.NewReader(data), tbl.Fields, source.MappingOptions{})
		} else {
			src, err = newJSONLSource("bench", bytes.NewReader(data), tbl.Fields, source.MappingOptions{})
		}
		if err != nil {
			b.Fatal(err)
		}
		r := &textReader{split: source.Split{Path: "bench", RowCount: -1}, src: src, sink: newRowSink(memory.DefaultAllocator, schema, false)}
		n := 0
		for {
			batch, err := r.Next(b.Context())
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n += int(batch.Record.NumRows())
			batch.Record.Release()
		}
		r.sink.release()
		if n != rows {
			b.Fatalf("read %d rows, want %d", n, rows)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
	// CPU time of the process (every thread, GC included) per row: the measure on a shared machine.
	b.ReportMetric(float64(cpuNanos(b)-cpu0)/float64(b.N*rows), "cpu-ns/row")
}

// cpuNanos is the process's user+system CPU time so far.
func cpuNanos(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkParseCSV and BenchmarkParseJSONL parse 100k rows of the bench's columns into Arrow.
func BenchmarkParseCSV(b *testing.B)   { benchParse(b, "csv") }
func BenchmarkParseJSONL(b *testing.B) { benchParse(b, "jsonl") }
