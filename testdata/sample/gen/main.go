// Command gen writes lakeload's bundled sample dataset (see ../README.md). Its output is
// deterministic: a fixed seed and fixed timestamps, so re-running it reproduces the committed files.
//
// Usage, from testdata/sample: go run ./gen
package main

import (
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

type order struct {
	id       int64
	customer string
	cents    int64 // amount in cents: DECIMAL(12, 2)
	status   string
	ts       time.Time // event time, millisecond precision, UTC wall clock
	day      string    // order date (partition dt); stays when later changes move ts
}

func (o order) dt() string     { return o.day }
func (o order) amount() string { return fmt.Sprintf("%d.%02d", o.cents/100, o.cents%100) }
func (o order) tsText() string { return o.ts.Format("2006-01-02 15:04:05.000") }

var (
	customers = []string{"acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "wonka", "tyrell", "cyberdyne", "Zoë & Co", "O'Brien, Ltd."}
	statuses  = []string{"new", "paid", "shipped"}
	start     = time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
)

func main() {
	out := flag.String("out", ".", "output directory")
	flag.Parse()
	rng := rand.New(rand.NewPCG(20240301, 42))
	next := func(id int64, day int) order {
		ts := start.Add(time.Duration(day)*24*time.Hour + time.Duration(rng.IntN(86400000))*time.Millisecond)
		return order{id: id, customer: customers[rng.IntN(len(customers))], cents: rng.Int64N(5_000_000), status: statuses[rng.IntN(2)],
			ts: ts, day: ts.Format("2006-01-02")}
	}
	var orders []order
	for i := int64(1); i <= 3000; i++ {
		o := next(i, int(i-1)/1000) // 1000 orders per day, 2024-03-01..03
		if i%11 == 5 {
			o.status = "" // unknown status: null in every format
		}
		orders = append(orders, o)
	}
	must(writeParquet(filepath.Join(*out, "orders-1.parquet"), orders[:2000]))
	must(writeJSONL(filepath.Join(*out, "orders-2.jsonl"), orders[2000:]))

	// Changes: updates (-U old, +U new) and deletes of earlier ids, plus new inserts.
	var b strings.Builder
	b.WriteString("op,id,customer,amount,status,ts,dt\n")
	row := func(op string, o order) {
		fmt.Fprintf(&b, "%s,%d,%s,%s,%s,%s,%s\n", op, o.id, csvQuote(o.customer), o.amount(), o.status, o.tsText(), o.dt())
	}
	changed := map[int64]bool{}
	for n := 0; n < 250; n++ {
		o := orders[rng.IntN(len(orders))]
		if changed[o.id] {
			continue
		}
		changed[o.id] = true
		if rng.IntN(5) == 0 {
			row("-D", o)
			continue
		}
		nu := o
		nu.status = "shipped"
		if rng.IntN(3) == 0 {
			nu.cents += 100
		}
		nu.ts = o.ts.Add(time.Duration(1+rng.IntN(48)) * time.Hour) // event time moves; dt (order date) stays
		row("-U", o)
		row("+U", nu)
	}
	for i := int64(3001); i <= 3100; i++ {
		o := next(i, 3)
		row("+I", o)
	}
	must(os.WriteFile(filepath.Join(*out, "orders-changes.csv"), []byte(b.String()), 0o644))
}

// csvQuote quotes a field per RFC 4180 when it holds a comma, quote or line break.
func csvQuote(s string) string {
	if !strings.ContainsAny(s, ",\"\n\r") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

func writeJSONL(path string, orders []order) error {
	var b strings.Builder
	for i, o := range orders {
		// A null status is an omitted key, or JSON null on odd rows; amounts alternate between JSON
		// numbers and strings.
		amount := o.amount()
		if i%2 == 1 {
			amount = `"` + amount + `"`
		}
		status := fmt.Sprintf(`,"status":%q`, o.status)
		if o.status == "" {
			status = map[bool]string{true: `,"status":null`, false: ""}[i%2 == 1]
		}
		fmt.Fprintf(&b, `{"id":%d,"customer":%q,"amount":%s%s,"ts":"%s","dt":"%s"}`+"\n", o.id, o.customer, amount, status,
			o.ts.Format("2006-01-02T15:04:05.000"), o.dt())
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func writeParquet(path string, orders []order) error {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "customer", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "amount", Type: &arrow.Decimal128Type{Precision: 12, Scale: 2}, Nullable: true},
		{Name: "status", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "dt", Type: arrow.BinaryTypes.String},
	}, nil)
	bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer bld.Release()
	for _, o := range orders {
		bld.Field(0).(*array.Int64Builder).Append(o.id)
		bld.Field(1).(*array.StringBuilder).Append(o.customer)
		bld.Field(2).(*array.Decimal128Builder).Append(decimal128.FromI64(o.cents))
		if o.status == "" {
			bld.Field(3).AppendNull()
		} else {
			bld.Field(3).(*array.StringBuilder).Append(o.status)
		}
		bld.Field(4).(*array.TimestampBuilder).Append(arrow.Timestamp(o.ts.UnixMilli()))
		bld.Field(5).(*array.StringBuilder).Append(o.dt())
	}
	rec := bld.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy), parquet.WithMaxRowGroupLength(1000),
		parquet.WithCreatedBy("lakeload testdata/sample/gen"))
	w, err := pqarrow.NewFileWriter(schema, f, props, pqarrow.DefaultWriterProps())
	if err != nil {
		return err
	}
	if err := w.Write(rec); err != nil {
		return err
	}
	return w.Close()
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
