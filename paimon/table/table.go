package table

import (
	"context"
	"fmt"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
)

// Table is an opened Paimon table at one schema version.
type Table struct {
	FS      fileio.FileIO
	Path    string // table directory
	Name    string // "db.table" when opened through a catalog
	Schema  *spec.TableSchema
	Options spec.CoreOptions
	// Owner, when set, is the catalog service that creates this table's snapshots and knows its latest
	// one (a table loaded from a Paimon REST catalog); nil for a filesystem-catalog table.
	Owner SnapshotOwner
}

// Open loads the table at path with its latest schema.
func Open(ctx context.Context, fs fileio.FileIO, path, name string) (*Table, error) {
	s, err := NewSchemas(fs, path).Latest(ctx)
	if err != nil {
		return nil, fmt.Errorf("open table %s: %w", path, err)
	}
	return &Table{FS: fs, Path: path, Name: name, Schema: s, Options: s.CoreOptions()}, nil
}

// Snapshots returns the table's snapshot manager.
func (t *Table) Snapshots() *Snapshots {
	m := NewSnapshots(t.FS, t.Path)
	m.owner = t.Owner
	return m
}

// Schemas returns the table's schema manager.
func (t *Table) Schemas() *Schemas { return NewSchemas(t.FS, t.Path) }

// HasPrimaryKey reports whether the table has a primary key.
func (t *Table) HasPrimaryKey() bool { return len(t.Schema.PrimaryKeys) > 0 }

// PartitionFields returns the partition columns in partition-key order.
func (t *Table) PartitionFields() []spec.DataField {
	fs, _ := t.Schema.FieldsByName(t.Schema.PartitionKeys)
	return fs
}

// PartitionTypes returns the types of the partition columns.
func (t *Table) PartitionTypes() []spec.DataType { return typesOf(t.PartitionFields()) }

// KeyFields returns the trimmed primary-key columns in primary-key order.
func (t *Table) KeyFields() []spec.DataField {
	fs, _ := t.Schema.FieldsByName(t.Schema.TrimmedPrimaryKeys())
	return fs
}

// KeyTypes returns the types of the trimmed primary-key columns.
func (t *Table) KeyTypes() []spec.DataType { return typesOf(t.KeyFields()) }

// BucketKeyFields returns the columns hashed for fixed-bucket routing: option bucket-key, else the trimmed primary key.
func (t *Table) BucketKeyFields() ([]spec.DataField, error) {
	names := t.Options.BucketKey()
	if len(names) == 0 {
		names = t.Schema.TrimmedPrimaryKeys()
	}
	return t.Schema.FieldsByName(names)
}

func typesOf(fs []spec.DataField) []spec.DataType {
	out := make([]spec.DataType, len(fs))
	for i, f := range fs {
		out[i] = f.Type
	}
	return out
}
