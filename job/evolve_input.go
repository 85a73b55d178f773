package job

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pqfile "github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// inputShape is the column list of one input split: names in input order with the Paimon type each
// would get as a new column (nil error) or why it cannot be added automatically.
type inputShape struct {
	names  []string
	types  []spec.DataType
	whyNot []error        // per column: nil, or why its type cannot be derived
	arrow  *arrow.Schema  // Parquet only: the file's Arrow schema (for the mapping check)
	lines  map[string]int // JSONL only: the line where each key first appears
}

var stringType = spec.DataType{Root: spec.VarChar, Length: spec.MaxLength, Nullable: true}

// readShape reads the columns of split: a Parquet footer, a CSV header, or every line of a JSONL
// split (JSON Lines have no header; the type of a new key is derived from its values).
func readShape(ctx context.Context, fs fileio.FileIO, sp source.Split) (*inputShape, error) {
	f, err := fs.Open(ctx, sp.Path)
	if err != nil {
		return nil, &InputError{Err: fmt.Errorf("input file %s: %w", sp.Path, err)}
	}
	defer f.Close()
	switch sp.Format {
	case source.FormatParquet:
		return parquetShape(sp.Path, f)
	case source.FormatCSV:
		return csvShape(sp.Path, f)
	case source.FormatJSONL:
		return jsonlShape(ctx, sp, f)
	}
	return nil, fmt.Errorf("split %s: unknown format %q: use parquet, csv or jsonl", sp.Path, sp.Format)
}

func parquetShape(path string, f fileio.File) (sh *inputShape, err error) {
	defer func() {
		if p := recover(); p != nil { // arrow-go may panic on a corrupt footer
			sh, err = nil, &InputError{Err: fmt.Errorf("file %s: %w: Parquet footer: %v", path, spec.ErrCorrupt, p)}
		}
	}()
	pf, err := pqfile.NewParquetReader(f)
	if err != nil {
		return nil, &InputError{Err: fmt.Errorf("file %s: not a readable Parquet file: %w", path, err)}
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return nil, &InputError{Err: fmt.Errorf("file %s: %w", path, err)}
	}
	schema, err := fr.Schema()
	if err != nil {
		return nil, &InputError{Err: fmt.Errorf("file %s: Parquet schema has no Arrow equivalent: %w", path, err)}
	}
	sh = &inputShape{arrow: schema}
	for _, fd := range schema.Fields() {
		t, err := paimonType(fd.Type, true)
		sh.names, sh.types, sh.whyNot = append(sh.names, fd.Name), append(sh.types, t), append(sh.whyNot, err)
	}
	return sh, nil
}

func csvShape(path string, f fileio.File) (*inputShape, error) {
	r := csv.NewReader(f)
	r.FieldsPerRecord, r.LazyQuotes = -1, true
	hdr, err := r.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &InputError{Err: fmt.Errorf("file %s: empty CSV file: expected a header row naming the columns", path)}
		}
		return nil, &InputError{Err: fmt.Errorf("file %s: CSV header: %w", path, err)}
	}
	if len(hdr) > 0 {
		hdr[0] = strings.TrimPrefix(hdr[0], "\uFEFF")
	}
	sh := &inputShape{}
	for _, name := range hdr {
		// CSV cells are text: a new column is a STRING.
		sh.names, sh.types, sh.whyNot = append(sh.names, name), append(sh.types, stringType), append(sh.whyNot, nil)
	}
	return sh, nil
}

// jsonKind is the JSON value kinds seen for one key.
type jsonKind struct{ str, num, frac, boolean, nested bool }

func jsonlShape(ctx context.Context, sp source.Split, f fileio.File) (*inputShape, error) {
	sh := &inputShape{lines: map[string]int{}}
	kinds := map[string]*jsonKind{}
	br := bufio.NewReaderSize(f, 1<<16)
	var row int64
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if len(b) == 0 && errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, &InputError{Err: fmt.Errorf("file %s: %w", sp.Path, err)}
		}
		if line%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		inSplit := row >= sp.RowStart && (sp.RowCount < 0 || row < sp.RowStart+sp.RowCount)
		row++
		if !inSplit {
			continue
		}
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF})
		}
		// Malformed lines are left to the reader, which reports them with the line and value.
		_ = jsonKeys(b, func(k string, raw json.RawMessage) {
			jk := kinds[k]
			if jk == nil {
				jk = &jsonKind{}
				kinds[k] = jk
				sh.lines[k] = line
				sh.names = append(sh.names, k)
			}
			switch c := firstByte(raw); {
			case c == 'n':
			case c == '"':
				jk.str = true
			case c == 't' || c == 'f':
				jk.boolean = true
			case c == '{' || c == '[':
				jk.nested = true
			default:
				jk.num = true
				jk.frac = jk.frac || bytes.ContainsAny(raw, ".eE")
			}
		})
	}
	for _, k := range sh.names {
		t, err := jsonType(*kinds[k])
		if err != nil {
			err = fmt.Errorf("%w (first seen on line %d)", err, sh.lines[k])
		}
		sh.types, sh.whyNot = append(sh.types, t), append(sh.whyNot, err)
	}
	return sh, nil
}

// jsonKeys calls fn for each top-level key of the JSON object in line, in order.
func jsonKeys(line []byte, fn func(string, json.RawMessage)) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fmt.Errorf("not a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		k, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		fn(k, raw)
	}
	return nil
}

func firstByte(b []byte) byte {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return 'n'
	}
	return b[0]
}

// jsonType is the column type for a key's JSON values: strings STRING, booleans BOOLEAN, integers
// BIGINT, numbers with a fraction or exponent DOUBLE, only nulls STRING. Mixed kinds and nested
// values have no single safe type.
func jsonType(k jsonKind) (spec.DataType, error) {
	n := 0
	for _, b := range []bool{k.str, k.num, k.boolean, k.nested} {
		if b {
			n++
		}
	}
	switch {
	case k.nested:
		return spec.DataType{}, fmt.Errorf("it holds JSON objects or arrays, whose column type cannot be derived")
	case n > 1:
		return spec.DataType{}, fmt.Errorf("it holds values of different JSON types (strings, numbers, booleans)")
	case k.boolean:
		return spec.DataType{Root: spec.Boolean, Nullable: true}, nil
	case k.num && k.frac:
		return spec.DataType{Root: spec.Double, Nullable: true}, nil
	case k.num:
		return spec.DataType{Root: spec.BigInt, Nullable: true}, nil
	}
	return stringType, nil
}

// paimonType maps an Arrow input type to the Paimon type the source mapping stores it as unchanged
// (parquet.ArrowType of the result is the input type, or one the source casts losslessly).
func paimonType(t arrow.DataType, nullable bool) (spec.DataType, error) {
	p := func(r spec.TypeRoot) spec.DataType { return spec.DataType{Root: r, Nullable: nullable} }
	switch x := t.(type) {
	case *arrow.NullType:
		return stringType, nil // all values null: any nullable type reads them
	case *arrow.BooleanType:
		return p(spec.Boolean), nil
	case *arrow.Int8Type:
		return p(spec.TinyInt), nil
	case *arrow.Int16Type, *arrow.Uint8Type:
		return p(spec.SmallInt), nil
	case *arrow.Int32Type, *arrow.Uint16Type:
		return p(spec.Int), nil
	case *arrow.Int64Type, *arrow.Uint32Type:
		return p(spec.BigInt), nil
	case *arrow.Float32Type:
		return p(spec.Float), nil
	case *arrow.Float64Type:
		return p(spec.Double), nil
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		s := stringType
		s.Nullable = nullable
		return s, nil
	case *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.BinaryViewType:
		return spec.DataType{Root: spec.VarBinary, Length: spec.MaxLength, Nullable: nullable}, nil
	case *arrow.FixedSizeBinaryType:
		return spec.DataType{Root: spec.Binary, Length: x.ByteWidth, Nullable: nullable}, nil
	case *arrow.Decimal128Type:
		return spec.DataType{Root: spec.Decimal, Precision: int(x.Precision), Scale: int(x.Scale), Nullable: nullable}, nil
	case *arrow.Date32Type:
		return p(spec.Date), nil
	case *arrow.Time32Type:
		d := p(spec.Time)
		if x.Unit == arrow.Millisecond {
			d.Precision = 3
		}
		return d, nil
	case *arrow.TimestampType:
		d := p(spec.Timestamp)
		if x.TimeZone != "" {
			d.Root = spec.TimestampLTZ
		}
		d.Precision = map[arrow.TimeUnit]int{arrow.Second: 0, arrow.Millisecond: 3, arrow.Microsecond: 6, arrow.Nanosecond: 9}[x.Unit]
		return d, nil
	case *arrow.ListType:
		e, err := paimonType(x.Elem(), x.ElemField().Nullable)
		if err != nil {
			return spec.DataType{}, err
		}
		return spec.DataType{Root: spec.Array, Nullable: nullable, Elem: &e}, nil
	case *arrow.MapType:
		k, err := paimonType(x.KeyType(), false)
		if err != nil {
			return spec.DataType{}, err
		}
		v, err := paimonType(x.ItemType(), x.ItemField().Nullable)
		if err != nil {
			return spec.DataType{}, err
		}
		return spec.DataType{Root: spec.Map, Nullable: nullable, Elem: &k, Value: &v}, nil
	case *arrow.StructType:
		var fs []spec.DataField
		for _, f := range x.Fields() {
			ft, err := paimonType(f.Type, f.Nullable)
			if err != nil {
				return spec.DataType{}, err
			}
			fs = append(fs, spec.DataField{Name: f.Name, Type: ft})
		}
		return spec.DataType{Root: spec.Row, Nullable: nullable, Fields: fs}, nil
	}
	return spec.DataType{}, fmt.Errorf("its input type %s has no Paimon type lakeload derives automatically", t)
}
