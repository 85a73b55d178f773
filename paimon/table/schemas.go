package table

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
)

const schemaPrefix = "schema-"

// Schemas reads and creates the schema files of one table (Java SchemaManager).
type Schemas struct {
	fs  fileio.FileIO
	dir string
}

// NewSchemas returns the schema manager of the table at tablePath.
func NewSchemas(fs fileio.FileIO, tablePath string) *Schemas {
	return &Schemas{fs: fs, dir: fileio.Join(tablePath, "schema")}
}

// Path returns the path of schema-id.
func (m *Schemas) Path(id int64) string {
	return fileio.Join(m.dir, schemaPrefix+strconv.FormatInt(id, 10))
}

// IDs lists schema ids, ascending.
func (m *Schemas) IDs(ctx context.Context) ([]int64, error) {
	return listVersioned(ctx, m.fs, m.dir, schemaPrefix)
}

// Get reads schema id.
func (m *Schemas) Get(ctx context.Context, id int64) (*spec.TableSchema, error) {
	b, err := m.fs.ReadFile(ctx, m.Path(id))
	if err != nil {
		return nil, fmt.Errorf("read schema %d: %w", id, err)
	}
	s, err := spec.ParseSchema(b)
	if err != nil {
		return nil, fmt.Errorf("schema file %s: %w", m.Path(id), err)
	}
	return s, nil
}

// Latest reads the schema with the highest id; it returns an error wrapping fileio.ErrNotExist if there is none.
func (m *Schemas) Latest(ctx context.Context) (*spec.TableSchema, error) {
	ids, err := m.IDs(ctx)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("no schema in %s: %w", m.dir, fileio.ErrNotExist)
	}
	return m.Get(ctx, ids[len(ids)-1])
}

// Create atomically writes s as schema-s.ID; an existing file yields an error wrapping fileio.ErrExist.
func (m *Schemas) Create(ctx context.Context, s *spec.TableSchema) error {
	b, err := s.JSON()
	if err != nil {
		return err
	}
	if err := m.fs.WriteIfAbsent(ctx, m.Path(s.ID), b); err != nil {
		if errors.Is(err, fileio.ErrExist) {
			return fmt.Errorf("schema %d of %s already exists: %w", s.ID, m.dir, err)
		}
		return err
	}
	return nil
}
