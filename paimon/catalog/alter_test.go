package catalog

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio/mem"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

func nullable(r spec.TypeRoot) spec.DataType { return spec.DataType{Root: r, Nullable: true} }

func baseSchema(t *testing.T, opts map[string]string) *spec.TableSchema {
	t.Helper()
	row := spec.DataType{Root: spec.Row, Nullable: true, Fields: []spec.DataField{{Name: "x", Type: nullable(spec.Int)}}}
	s, err := spec.NewSchema([]spec.DataField{
		{Name: "id", Type: nullable(spec.BigInt)},
		{Name: "r", Type: row},
		{Name: "dt", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxLength, Nullable: true}},
	}, []string{"dt"}, []string{"dt", "id"}, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestAddColumnsSchemaAssignsJavaIDs: ids continue after highestFieldId (never reusing a dropped id);
// the top-level column takes its id before its nested ROW fields, nested ROWs number their own
// fields first; keys and options are kept and the JSON parses back equal.
func TestAddColumnsSchemaAssignsJavaIDs(t *testing.T) {
	old := baseSchema(t, map[string]string{"bucket": "2"})
	old.HighestFieldID = 7 // as after a dropped column: ids 4..7 were used before
	inner := spec.DataType{Root: spec.Row, Nullable: true, Fields: []spec.DataField{{Name: "p", Type: nullable(spec.Int)}}}
	nested := spec.DataType{Root: spec.Row, Nullable: true, Fields: []spec.DataField{
		{Name: "a", Type: inner}, {Name: "b", Type: nullable(spec.Double)}}}
	s, err := AddColumnsSchema(old, []NewColumn{{Name: "c1", Type: nullable(spec.Int)}, {Name: "c2", Type: nested}}, time.UnixMilli(42))
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != old.ID+1 || s.TimeMillis != 42 || s.Version != spec.SchemaVersionCurrent {
		t.Fatalf("id %d time %d version %d", s.ID, s.TimeMillis, s.Version)
	}
	var names []string
	for _, f := range s.Fields {
		names = append(names, f.Name)
	}
	if strings.Join(names, ",") != "id,r,dt,c1,c2" {
		t.Fatalf("columns %v", names)
	}
	c1, c2 := s.Fields[3], s.Fields[4]
	// c1=8; c2=9, then inside c2: a's nested p=10, a=11, b=12 (ReassignFieldId order).
	if c1.ID != 8 || c2.ID != 9 || c2.Type.Fields[0].Type.Fields[0].ID != 10 || c2.Type.Fields[0].ID != 11 || c2.Type.Fields[1].ID != 12 || s.HighestFieldID != 12 {
		t.Fatalf("ids c1=%d c2=%d p=%d a=%d b=%d highest=%d", c1.ID, c2.ID, c2.Type.Fields[0].Type.Fields[0].ID, c2.Type.Fields[0].ID, c2.Type.Fields[1].ID, s.HighestFieldID)
	}
	if strings.Join(s.PrimaryKeys, ",") != "dt,id" || strings.Join(s.PartitionKeys, ",") != "dt" || s.Options["bucket"] != "2" {
		t.Fatalf("keys/options changed: %+v", s)
	}
	if old.Fields[0].Type.Nullable != s.Fields[0].Type.Nullable {
		t.Fatalf("existing column changed")
	}
	b, err := s.JSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := spec.ParseSchema(b)
	if err != nil || back.HighestFieldID != 12 || len(back.Fields) != 5 || back.Fields[4].Type.Fields[1].ID != 12 {
		t.Fatalf("round trip: %v %+v", err, back)
	}
}

// TestAddColumnBeforePartition honours Java's add-column-before-partition option.
func TestAddColumnBeforePartition(t *testing.T) {
	old := baseSchema(t, map[string]string{"bucket": "2", OptAddColumnBeforePartition: "true"})
	s, err := AddColumnsSchema(old, []NewColumn{{Name: "c1", Type: nullable(spec.Int)}, {Name: "c2", Type: nullable(spec.Int)}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.Fields {
		names = append(names, f.Name)
	}
	if strings.Join(names, ",") != "id,r,c1,c2,dt" {
		t.Fatalf("columns %v", names)
	}
}

// TestAddColumnsRefusals: NOT NULL, existing (also by case), reserved and empty names are errors naming the column.
func TestAddColumnsRefusals(t *testing.T) {
	old := baseSchema(t, map[string]string{"bucket": "2"})
	for _, tc := range []struct {
		col  NewColumn
		want string
		is   error
	}{
		{NewColumn{Name: "n", Type: spec.DataType{Root: spec.Int}}, `"n": it cannot be NOT NULL`, nil},
		{NewColumn{Name: "id", Type: nullable(spec.Int)}, `"id": the table already has it`, ErrColumnExist},
		{NewColumn{Name: "ID", Type: nullable(spec.Int)}, `differs only in case`, ErrColumnExist},
		{NewColumn{Name: "_KEY_id", Type: nullable(spec.Int)}, `reserved`, nil},
		{NewColumn{Name: "_sequence_number", Type: nullable(spec.Int)}, `reserved`, nil},
		{NewColumn{Name: " x", Type: nullable(spec.Int)}, `non-empty name`, nil},
	} {
		_, err := AddColumnsSchema(old, []NewColumn{tc.col}, time.Now())
		if err == nil || !strings.Contains(err.Error(), tc.want) || (tc.is != nil && !errors.Is(err, tc.is)) {
			t.Errorf("add %q: %v, want %q", tc.col.Name, err, tc.want)
		}
	}
	// Two new columns with one name.
	if _, err := AddColumnsSchema(old, []NewColumn{{Name: "c", Type: nullable(spec.Int)}, {Name: "c", Type: nullable(spec.Int)}}, time.Now()); !errors.Is(err, ErrColumnExist) {
		t.Errorf("duplicate new column: %v", err)
	}
}

// TestAddColumnsCreateIfAbsent: the next schema file is created once; a second writer on the same
// base gets ErrSchemaConflict and writes nothing; Catalog.AddColumns retries on the newer schema.
func TestAddColumnsCreateIfAbsent(t *testing.T) {
	ctx := context.Background()
	c := New(mem.New(), "/wh")
	id := Identifier{"db", "t"}
	if err := c.CreateTable(ctx, id, baseSchema(t, map[string]string{"bucket": "2"}), false); err != nil {
		t.Fatal(err)
	}
	base, err := table.NewSchemas(c.FS, c.TablePath(id)).Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AddColumnsAt(ctx, c.FS, c.TablePath(id), base, []NewColumn{{Name: "a", Type: nullable(spec.Int)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := AddColumnsAt(ctx, c.FS, c.TablePath(id), base, []NewColumn{{Name: "b", Type: nullable(spec.Int)}}); !errors.Is(err, ErrSchemaConflict) {
		t.Fatalf("second writer on the same base: %v", err)
	}
	s, err := c.AddColumns(ctx, id, []NewColumn{{Name: "b", Type: nullable(spec.Int)}})
	if err != nil || s.ID != 2 || s.Fields[len(s.Fields)-1].Name != "b" || s.Fields[len(s.Fields)-2].Name != "a" {
		t.Fatalf("AddColumns: %v %+v", err, s)
	}
	if _, err := c.AddColumns(ctx, id, []NewColumn{{Name: "a", Type: nullable(spec.Int)}}); !errors.Is(err, ErrColumnExist) {
		t.Fatalf("adding an existing column: %v", err)
	}
	if _, err := c.AddColumns(ctx, Identifier{"db", "missing"}, []NewColumn{{Name: "a", Type: nullable(spec.Int)}}); !errors.Is(err, ErrTableNotExist) {
		t.Fatalf("missing table: %v", err)
	}
}
