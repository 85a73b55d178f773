package file

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// osFS is a read-only fileio.FileIO over the local disk, enough for readers and Plan.
type osFS struct{}

type osFile struct{ *os.File }

func (f osFile) Size() int64 {
	st, err := f.Stat()
	if err != nil {
		return 0
	}
	return st.Size()
}

func (osFS) Open(_ context.Context, p string) (fileio.File, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	return osFile{f}, nil
}
func (osFS) ReadFile(_ context.Context, p string) ([]byte, error) { return os.ReadFile(p) }
func (osFS) Create(context.Context, string) (fileio.Writer, error) {
	return nil, errors.New("read-only")
}
func (osFS) WriteIfAbsent(context.Context, string, []byte) error { return errors.New("read-only") }
func (osFS) Stat(_ context.Context, p string) (fileio.FileInfo, error) {
	st, err := os.Stat(p)
	if err != nil {
		return fileio.FileInfo{}, err
	}
	return fileio.FileInfo{Path: p, Name: st.Name(), Size: st.Size(), ModTime: st.ModTime(), IsDir: st.IsDir()}, nil
}
func (osFS) List(context.Context, string) ([]fileio.FileInfo, error) {
	return nil, errors.New("unused")
}
func (osFS) Delete(context.Context, string) error    { return errors.New("read-only") }
func (osFS) DeleteAll(context.Context, string) error { return errors.New("read-only") }

// table builds a schema from "name TYPE" column definitions.
func table(t testing.TB, cols ...string) *spec.TableSchema {
	t.Helper()
	s := &spec.TableSchema{}
	for i, c := range cols {
		name, typ, _ := strings.Cut(c, " ")
		dt, err := spec.ParseType(typ)
		if err != nil {
			t.Fatal(err)
		}
		s.Fields = append(s.Fields, spec.DataField{ID: i, Name: name, Type: dt})
	}
	return s
}

func writeFile(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// split plans exactly one file.
func split(t *testing.T, path string) source.Split {
	t.Helper()
	ss, err := Plan(context.Background(), osFS{}, path, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 1 {
		t.Fatalf("planned %d splits for %s", len(ss), path)
	}
	return ss[0]
}

// readAll reads a whole split; it returns the batches (caller releases via t.Cleanup) or the first error.
func readAll(t *testing.T, sp source.Split, tbl *spec.TableSchema, opts source.MappingOptions) ([]*source.Batch, error) {
	t.Helper()
	ctx := context.Background()
	r, err := Open(ctx, osFS{}, sp, tbl, opts)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out []*source.Batch
	for {
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		t.Cleanup(b.Record.Release)
		out = append(out, b)
	}
}

// readOne reads path (format by extension) into a single batch.
func readOne(t *testing.T, path string, tbl *spec.TableSchema, opts source.MappingOptions) *source.Batch {
	t.Helper()
	bs, err := readAll(t, split(t, path), tbl, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 1 {
		t.Fatalf("got %d batches, want 1", len(bs))
	}
	return bs[0]
}

// col returns the named column of a batch.
func col(t *testing.T, b *source.Batch, name string) arrow.Array {
	t.Helper()
	idx := b.Record.Schema().FieldIndices(name)
	if len(idx) != 1 {
		t.Fatalf("no column %q in %s", name, b.Record.Schema())
	}
	return b.Record.Column(idx[0])
}

// wantErr asserts err is non-nil and contains every fragment.
func wantErr(t *testing.T, err error, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", fragments)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not contain %q", err, f)
		}
	}
}
