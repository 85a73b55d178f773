package bench

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/source"
	sourcefile "github.com/lakeload/lakeload/source/file"
)

// The text scenarios (text-csv, text-jsonl; issue 15's parse throughput, issue 18's text input): the
// generated input as CSV (header, RFC 4180) or JSON Lines files, one per Parquet input file, written
// once per run (untimed), then loaded into the append table (layoutAppend) by
//   - lakeload: `lakeload write --from '*.csv'` (parse + the whole write),
//   - lakeload-parse: lakeload's reader alone (source/file, the same conversion to the table's Arrow
//     columns) in the runner's process, timed with the runner's own rusage — parse throughput,
//   - pyarrow-parse: pyarrow's CSV / JSON reader (bench/py/text_ceiling.py, its threads), parse only,
//   - pypaimon: pyarrow's reader + pypaimon's batch write and commit (pypaimon_write.py, BENCH_INPUT).

// textInputs writes the input as format (csv or jsonl) files under Work (once) and returns their
// paths, glob and total bytes.
func (r *runner) textInputs(ctx context.Context, format string) ([]string, string, int64, error) {
	dir := filepath.Join(r.cfg.Work, "in-"+format)
	glob := filepath.Join(dir, "*."+format)
	if paths, _ := filepath.Glob(glob); len(paths) == len(r.inputs) && len(paths) > 0 {
		return paths, glob, fileBytes(paths), nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, "", 0, err
	}
	var paths []string
	for _, in := range r.inputs {
		out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(in), ".parquet")+"."+format)
		if err := writeText(ctx, in, out, format); err != nil {
			return nil, "", 0, fmt.Errorf("write %s input %s: %w", format, out, err)
		}
		paths = append(paths, out)
	}
	return paths, glob, fileBytes(paths), nil
}

// writeText converts the Parquet file in to format at out: CSV with a header and null as an empty
// field, or one JSON object per line with null as JSON null. Doubles are written in their shortest
// exact form, so every value reads back as written.
func writeText(ctx context.Context, in, out, format string) (err error) {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, f.Close()) }()
	bw := bufio.NewWriterSize(f, 1<<20)
	cw := csv.NewWriter(bw)
	names := make([]string, len(InputSchema.Fields()))
	for i, fl := range InputSchema.Fields() {
		names[i] = fl.Name
	}
	if format == "csv" {
		if err := cw.Write(names); err != nil {
			return err
		}
	}
	rec := make([]string, len(names))
	obj := make(map[string]any, len(names))
	enc := json.NewEncoder(bw)
	err = readFile(ctx, in, func(b arrow.RecordBatch) error {
		for r := 0; r < int(b.NumRows()); r++ {
			for c := range names {
				col := b.Column(c)
				if col.IsNull(r) {
					rec[c], obj[names[c]] = "", nil
					continue
				}
				switch a := col.(type) {
				case *array.Int64:
					rec[c], obj[names[c]] = strconv.FormatInt(a.Value(r), 10), a.Value(r)
				case *array.Float64:
					rec[c], obj[names[c]] = strconv.FormatFloat(a.Value(r), 'g', -1, 64), a.Value(r)
				case *array.String:
					rec[c], obj[names[c]] = a.Value(r), a.Value(r)
				default:
					return fmt.Errorf("column %s: type %s not handled", names[c], col.DataType())
				}
			}
			var err error
			if format == "csv" {
				err = cw.Write(rec)
			} else {
				err = enc.Encode(obj) // keys sorted; the reader maps them by name
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// lakeloadParse reads every text file with lakeload's reader (source/file) into the Arrow columns of
// the table db.t in warehouse wh and returns the rows read.
func lakeloadParse(ctx context.Context, wh, glob, format string) (int64, error) {
	fs := local.New()
	t, err := table.Open(ctx, fs, filepath.Join(wh, "db.db", "t"), "db.t")
	if err != nil {
		return 0, err
	}
	splits, err := sourcefile.Plan(ctx, fs, glob, format)
	if err != nil {
		return 0, err
	}
	var rows int64
	for _, s := range splits {
		rd, err := sourcefile.Open(ctx, fs, s, t.Schema, source.MappingOptions{})
		if err != nil {
			return 0, err
		}
		for {
			b, err := rd.Next(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				rd.Close()
				return 0, err
			}
			rows += b.Record.NumRows()
			b.Record.Release()
		}
		if err := rd.Close(); err != nil {
			return 0, err
		}
	}
	return rows, nil
}

// textScenario is text-csv or text-jsonl (see the top of this file).
func (r *runner) textScenario(ctx context.Context, name string, round int) error {
	format := strings.TrimPrefix(name, "text-")
	paths, glob, inBytes, err := r.textInputs(ctx, format)
	if err != nil {
		return err
	}
	m, wh, err := r.lakeloadWriteFrom(ctx, name, "lakeload", round, layoutAppend, glob, inBytes)
	if err != nil {
		return err
	}
	r.add(m)
	os.RemoveAll(wh)

	if wh, err = r.newWarehouse(); err != nil {
		return err
	}
	if err := r.createLayout(ctx, wh, layoutAppend); err != nil {
		return err
	}
	start, cpu0 := time.Now(), selfCPU()
	n, err := lakeloadParse(ctx, wh, glob, format)
	if err != nil {
		return fmt.Errorf("lakeload-parse: %w", err)
	}
	el, cpu := time.Since(start), selfCPU()-cpu0
	if n != int64(r.cfg.Rows) {
		return fmt.Errorf("lakeload-parse read %d rows of %s, want %d", n, glob, r.cfg.Rows)
	}
	r.add(Measure{Scenario: name, Tool: "lakeload-parse", Round: round, Rows: n, InBytes: inBytes, Elapsed: el, SpanCPU: cpu})
	os.RemoveAll(wh)

	if !has(r.cfg.Peers, "pypaimon") {
		return nil
	}
	script := filepath.Join(r.cfg.Dir, "py", "text_ceiling.py")
	c, err := runChild(ctx, nil, false, false, 0, r.cfg.Python, append([]string{"-u", script, format}, paths...)...)
	if err != nil {
		return err
	}
	rep, err := jsonLines(script, c)
	if err != nil {
		return err
	}
	if len(rep) != 1 || int64(rep[0]["rows"]) != int64(r.cfg.Rows) {
		return fmt.Errorf("%s: bad report %v", script, c.Lines)
	}
	r.add(Measure{Scenario: name, Tool: "pyarrow-parse", Round: round, Rows: int64(r.cfg.Rows), InBytes: inBytes,
		Elapsed: time.Duration(rep[0]["elapsed"] * 1e9), Usage: c.Usage, SpanCPU: time.Duration(rep[0]["cpu"] * 1e9)})

	if wh, err = r.newWarehouse(); err != nil {
		return err
	}
	defer os.RemoveAll(wh)
	script = filepath.Join(r.cfg.Dir, "py", "pypaimon_write.py")
	c, rp, _, err := r.pyWrite(ctx, []string{"BENCH_MODE=" + layoutAppend, "BENCH_INPUT=" + format}, r.cfg.Python, script, wh, paths)
	if err != nil {
		return err
	}
	r.add(Measure{Scenario: name, Tool: "pypaimon", Round: round, Rows: int64(r.cfg.Rows), InBytes: inBytes,
		Elapsed: time.Duration(rp[0]["elapsed"] * 1e9), Usage: c.Usage, SpanCPU: time.Duration(rp[0]["cpu"] * 1e9),
		Extra: map[string]float64{"data-files": rp[1]["data_files"]}})
	return nil
}
