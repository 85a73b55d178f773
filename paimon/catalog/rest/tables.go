package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

var _ catalog.Metastore = (*Catalog)(nil)

type identifierJSON struct {
	Database string `json:"database"`
	Object   string `json:"object"`
}

// schemaJSON is the API's Schema: a table schema without id, highestFieldId, version and timeMillis.
type schemaJSON struct {
	Fields        []spec.DataField  `json:"fields"`
	PartitionKeys []string          `json:"partitionKeys"`
	PrimaryKeys   []string          `json:"primaryKeys"`
	Options       map[string]string `json:"options"`
	Comment       *string           `json:"comment"`
}

type getTableResponse struct {
	ID         string     `json:"id"`
	Database   string     `json:"database"`
	Name       string     `json:"name"`
	Path       string     `json:"path"`
	IsExternal bool       `json:"isExternal"`
	SchemaID   int64      `json:"schemaId"`
	Schema     schemaJSON `json:"schema"`
}

// CreateDatabase creates db (POST /v1/{prefix}/databases).
func (c *Catalog) CreateDatabase(ctx context.Context, db string, ignoreIfExists bool) error {
	body := map[string]any{"name": db, "options": map[string]string{}}
	err := c.call(ctx, http.MethodPost, c.databasesPath(), nil, body, nil)
	if ignoreIfExists && errors.Is(err, catalog.ErrDatabaseExist) {
		return nil
	}
	return err
}

// DatabaseExists asks for db (GET /v1/{prefix}/databases/{db}).
func (c *Catalog) DatabaseExists(ctx context.Context, db string) (bool, error) {
	err := c.call(ctx, http.MethodGet, c.databasePath(db), nil, nil, nil)
	if isNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

// ListDatabases lists the databases (GET /v1/{prefix}/databases, all pages).
func (c *Catalog) ListDatabases(ctx context.Context) ([]string, error) {
	return c.listPaged(ctx, c.databasesPath(), "databases")
}

// DropDatabase drops db (DELETE /v1/{prefix}/databases/{db}); without cascade it must hold no table.
func (c *Catalog) DropDatabase(ctx context.Context, db string, cascade bool) error {
	if !cascade {
		ts, err := c.ListTables(ctx, db)
		if err != nil {
			return err
		}
		if len(ts) > 0 {
			return fmt.Errorf("%w: %s holds %d tables; drop them first or use cascade", catalog.ErrDatabaseNotEmpty, db, len(ts))
		}
	}
	return c.call(ctx, http.MethodDelete, c.databasePath(db), nil, nil, nil)
}

// ListTables lists the tables of db (GET …/databases/{db}/tables, all pages).
func (c *Catalog) ListTables(ctx context.Context, db string) ([]string, error) {
	return c.listPaged(ctx, c.tablesPath(db), "tables")
}

func (c *Catalog) listPaged(ctx context.Context, path, key string) ([]string, error) {
	var out []string
	q := url.Values{}
	for page := 0; page < 100000; page++ {
		var resp map[string]json.RawMessage
		if err := c.call(ctx, http.MethodGet, path, q, nil, &resp); err != nil {
			return nil, err
		}
		var names []string
		if raw, ok := resp[key]; ok && string(raw) != "null" {
			if err := json.Unmarshal(raw, &names); err != nil {
				return nil, fmt.Errorf("REST catalog: GET %s: %q is not a list of names: %w", path, key, err)
			}
		}
		out = append(out, names...)
		var next string
		if raw, ok := resp["nextPageToken"]; ok {
			_ = json.Unmarshal(raw, &next)
		}
		if next == "" {
			return out, nil
		}
		q.Set("pageToken", next)
	}
	return nil, fmt.Errorf("REST catalog: GET %s: more than 100000 pages", path)
}

// TableExists asks for the table (GET …/tables/{t}).
func (c *Catalog) TableExists(ctx context.Context, id catalog.Identifier) (bool, error) {
	_, err := c.getTable(ctx, id)
	if isNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

// CreateTable creates the table from s's fields, keys, options and comment (POST …/databases/{db}/tables),
// creating the database first when it is missing. The server assigns the location.
func (c *Catalog) CreateTable(ctx context.Context, id catalog.Identifier, s *spec.TableSchema, ignoreIfExists bool) error {
	if ok, err := c.DatabaseExists(ctx, id.Database); err != nil {
		return err
	} else if !ok {
		if err := c.CreateDatabase(ctx, id.Database, true); err != nil {
			return err
		}
	}
	body := map[string]any{
		"identifier": identifierJSON{id.Database, id.Table},
		"schema":     schemaJSON{Fields: s.Fields, PartitionKeys: nonNil(s.PartitionKeys), PrimaryKeys: nonNil(s.PrimaryKeys), Options: s.Options, Comment: s.Comment},
	}
	err := c.call(ctx, http.MethodPost, c.tablesPath(id.Database), nil, body, nil)
	if errors.Is(err, catalog.ErrTableExist) {
		if ignoreIfExists {
			return nil
		}
		return fmt.Errorf("%w: %s in %s", catalog.ErrTableExist, id, c)
	}
	return err
}

func nonNil(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

func (c *Catalog) getTable(ctx context.Context, id catalog.Identifier) (*getTableResponse, error) {
	var r getTableResponse
	if err := c.call(ctx, http.MethodGet, c.tablePath(id), nil, nil, &r); err != nil {
		if errors.Is(err, catalog.ErrTableNotExist) || isNotFound(err) {
			return nil, fmt.Errorf("%w: %s in %s (%v); create it with 'lakeload table create'", catalog.ErrTableNotExist, id, c, err)
		}
		return nil, err
	}
	return &r, nil
}

// LoadTable loads the table (GET …/tables/{t}): its schema as the server holds it and its path, where
// the table's files are read and written. Snapshots of the table are committed through the server.
func (c *Catalog) LoadTable(ctx context.Context, id catalog.Identifier) (*table.Table, error) {
	r, err := c.getTable(ctx, id)
	if err != nil {
		return nil, err
	}
	if r.Path == "" {
		return nil, fmt.Errorf("REST catalog: table %s has no path in the answer of %s", id, c)
	}
	if r.ID == "" {
		return nil, fmt.Errorf("REST catalog: table %s has no id in the answer of %s (commits need it)", id, c)
	}
	if t := r.Schema.Options["type"]; t != "" && t != "table" {
		return nil, fmt.Errorf("REST catalog: %s is a %s, not a Paimon table: lakeload reads and writes Paimon tables only", id, t)
	}
	opts := map[string]string{}
	for k, v := range r.Schema.Options {
		opts[k] = v
	}
	s := &spec.TableSchema{
		Version:        spec.SchemaVersionCurrent,
		ID:             r.SchemaID,
		Fields:         r.Schema.Fields,
		HighestFieldID: spec.HighestFieldID(r.Schema.Fields),
		PartitionKeys:  nonNil(r.Schema.PartitionKeys),
		PrimaryKeys:    nonNil(r.Schema.PrimaryKeys),
		Options:        opts,
		Comment:        r.Schema.Comment,
	}
	// The schema file of that id, when there, is the exact one (timeMillis, highestFieldId after drops).
	fs, path, err := c.tableFS(ctx, id, r.Path)
	if err != nil {
		return nil, fmt.Errorf("REST catalog: table %s is at %s: %w", id, r.Path, err)
	}
	if f, err := table.NewSchemas(fs, path).Get(ctx, r.SchemaID); err == nil && f.ID == s.ID && len(f.Fields) == len(s.Fields) {
		s.HighestFieldID, s.TimeMillis, s.Version = f.HighestFieldID, f.TimeMillis, f.Version
	}
	return &table.Table{FS: fs, Path: path, Name: id.String(), Schema: s, Options: s.CoreOptions(),
		Owner: &owner{c: c, id: id, uuid: r.ID}}, nil
}

// DropTable drops the table (DELETE …/tables/{t}); the server deletes its files.
func (c *Catalog) DropTable(ctx context.Context, id catalog.Identifier, ignoreIfNotExists bool) error {
	err := c.call(ctx, http.MethodDelete, c.tablePath(id), nil, nil, nil)
	if isNotFound(err) {
		if ignoreIfNotExists {
			return nil
		}
		return fmt.Errorf("%w: %s in %s", catalog.ErrTableNotExist, id, c)
	}
	return err
}

// AddColumns adds cols (POST …/tables/{t} with addColumn changes) after checking them against the
// latest schema with the filesystem catalog's rules, and returns the schema the server then holds.
// The server applies the change to whatever schema it has: the request carries no expected schema id.
func (c *Catalog) AddColumns(ctx context.Context, id catalog.Identifier, cols []catalog.NewColumn) (*spec.TableSchema, error) {
	t, err := c.LoadTable(ctx, id)
	if err != nil {
		return nil, err
	}
	if _, err := catalog.AddColumnsSchema(t.Schema, cols, timeZero); err != nil {
		return nil, fmt.Errorf("table %s: %w", id, err)
	}
	changes := make([]map[string]any, len(cols))
	for i, col := range cols {
		changes[i] = map[string]any{"action": "addColumn", "fieldNames": []string{col.Name}, "dataType": col.Type, "comment": col.Description}
	}
	if err := c.call(ctx, http.MethodPost, c.tablePath(id), nil, map[string]any{"changes": changes}, nil); err != nil {
		return nil, fmt.Errorf("table %s: add columns: %w", id, err)
	}
	t, err = c.LoadTable(ctx, id)
	if err != nil {
		return nil, err
	}
	return t.Schema, nil
}

func isNotFound(err error) bool {
	var he *Error
	return errors.As(err, &he) && he.Status == http.StatusNotFound
}
