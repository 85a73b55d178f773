// Package catalog is Paimon's filesystem catalog: databases are directories "<name>.db" under the
// warehouse, tables are directories holding schema/schema-0 (Java FileSystemCatalog). A Catalog with a
// Metastore (the REST catalog, paimon/catalog/rest) hands every database and table operation to it instead.
//
// Invariants: a table exists iff one of its schema files exists; schema-0 is created with
// WriteIfAbsent, so two concurrent creators cannot both succeed. With a Metastore, the service decides.
package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// Errors callers can test with errors.Is.
var (
	ErrDatabaseNotExist = errors.New("database does not exist")
	ErrDatabaseExist    = errors.New("database already exists")
	ErrDatabaseNotEmpty = errors.New("database is not empty")
	ErrTableNotExist    = errors.New("table does not exist")
	ErrTableExist       = errors.New("table already exists")
	ErrBadName          = errors.New("invalid name")
)

const dbSuffix = ".db"

// Identifier names a table: database and table name.
type Identifier struct{ Database, Table string }

func (i Identifier) String() string { return i.Database + "." + i.Table }

// ParseIdentifier parses "db.table".
func ParseIdentifier(s string) (Identifier, error) {
	db, tbl, ok := strings.Cut(s, ".")
	if !ok || strings.Contains(tbl, ".") {
		return Identifier{}, fmt.Errorf("%w: table %q: write it as <database>.<table>, e.g. sales.orders", ErrBadName, s)
	}
	id := Identifier{db, tbl}
	if err := checkName("database", db); err != nil {
		return Identifier{}, err
	}
	if err := checkName("table", tbl); err != nil {
		return Identifier{}, err
	}
	return id, nil
}

func checkIdentifier(id Identifier) error {
	if err := checkName("database", id.Database); err != nil {
		return err
	}
	return checkName("table", id.Table)
}

func checkName(kind, n string) error {
	if n == "" || strings.ContainsAny(n, "/\\") || strings.HasPrefix(n, ".") || strings.TrimSpace(n) != n || hasUnprintable(n) {
		return fmt.Errorf("%w: %s name %q: use a non-empty name of %s, without '/', '\\', a leading '.' or surrounding spaces", ErrBadName, kind, n, nameChars)
	}
	return nil
}

// Catalog is a filesystem catalog rooted at a warehouse directory.
type Catalog struct {
	FS        fileio.FileIO
	Warehouse string
	// Meta, if set, owns databases and tables (a REST catalog); FS and Warehouse then hold only
	// lakeload's own state under Warehouse/.lakeload.
	Meta Metastore
}

// NewWithMetastore returns a catalog whose databases and tables are m's, keeping lakeload's own state
// (job checkpoints) under stateRoot on fs.
func NewWithMetastore(fs fileio.FileIO, stateRoot string, m Metastore) *Catalog {
	return &Catalog{FS: fs, Warehouse: strings.TrimRight(stateRoot, "/"), Meta: m}
}

// New returns a catalog over fs rooted at warehouse.
func New(fs fileio.FileIO, warehouse string) *Catalog {
	return &Catalog{FS: fs, Warehouse: strings.TrimRight(warehouse, "/")}
}

// DatabasePath returns <warehouse>/<db>.db.
func (c *Catalog) DatabasePath(db string) string { return fileio.Join(c.Warehouse, db+dbSuffix) }

// TablePath returns <warehouse>/<db>.db/<table>.
func (c *Catalog) TablePath(id Identifier) string {
	return fileio.Join(c.DatabasePath(id.Database), id.Table)
}

// DatabaseExists reports whether the database directory exists.
func (c *Catalog) DatabaseExists(ctx context.Context, db string) (bool, error) {
	if c.Meta != nil {
		return c.Meta.DatabaseExists(ctx, db)
	}
	fi, err := c.FS.Stat(ctx, c.DatabasePath(db))
	if errors.Is(err, fileio.ErrNotExist) {
		return false, nil
	}
	return err == nil && fi.IsDir, err
}

// CreateDatabase creates the database directory. Object stores have no directories; a marker-free
// database exists once it holds a table.
func (c *Catalog) CreateDatabase(ctx context.Context, db string, ignoreIfExists bool) error {
	if c.Meta != nil {
		return c.Meta.CreateDatabase(ctx, db, ignoreIfExists)
	}
	if err := checkName("database", db); err != nil {
		return err
	}
	ok, err := c.DatabaseExists(ctx, db)
	if err != nil {
		return err
	}
	if ok {
		if ignoreIfExists {
			return nil
		}
		return fmt.Errorf("%w: %s", ErrDatabaseExist, db)
	}
	if m, ok := c.FS.(interface {
		MkdirAll(ctx context.Context, path string) error
	}); ok {
		return m.MkdirAll(ctx, c.DatabasePath(db))
	}
	// fileio has no mkdir: writing a file creates its parents, so write and delete a hidden marker.
	// On file systems with directories the database directory stays, as Java's mkdirs leaves it.
	marker := fileio.Join(c.DatabasePath(db), ".lakeload-create-database")
	if err := fileio.WriteFile(ctx, c.FS, marker, nil); err != nil {
		return fmt.Errorf("create database %s: %w", db, err)
	}
	return fileio.DeleteWithin(ctx, c.FS, marker, c.DatabasePath(db))
}

// ListDatabases lists database names, sorted.
func (c *Catalog) ListDatabases(ctx context.Context) ([]string, error) {
	if c.Meta != nil {
		return c.Meta.ListDatabases(ctx)
	}
	infos, err := c.FS.List(ctx, c.Warehouse)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, fi := range infos {
		if fi.IsDir && strings.HasSuffix(fi.Name, dbSuffix) && len(fi.Name) > len(dbSuffix) {
			out = append(out, strings.TrimSuffix(fi.Name, dbSuffix))
		}
	}
	return out, nil
}

// DropDatabase removes a database; without cascade it must hold no table.
func (c *Catalog) DropDatabase(ctx context.Context, db string, cascade bool) error {
	if c.Meta != nil {
		return c.Meta.DropDatabase(ctx, db, cascade)
	}
	if err := checkName("database", db); err != nil {
		return err // never delete a path a crafted name points outside the warehouse
	}
	ok, err := c.DatabaseExists(ctx, db)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w: %s", ErrDatabaseNotExist, db)
	}
	if !cascade {
		tables, err := c.ListTables(ctx, db)
		if err != nil {
			return err
		}
		if len(tables) > 0 {
			return fmt.Errorf("%w: %s holds %d tables (%s); drop them first or use cascade", ErrDatabaseNotEmpty, db, len(tables), strings.Join(tables, ", "))
		}
	}
	return fileio.DeleteAllWithin(ctx, c.FS, c.DatabasePath(db), c.Warehouse) // the delete guard: never outside the warehouse
}

// ListTables lists the tables of a database, sorted.
func (c *Catalog) ListTables(ctx context.Context, db string) ([]string, error) {
	if c.Meta != nil {
		return c.Meta.ListTables(ctx, db)
	}
	infos, err := c.FS.List(ctx, c.DatabasePath(db))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, fi := range infos {
		if !fi.IsDir {
			continue
		}
		if ok, err := c.TableExists(ctx, Identifier{db, fi.Name}); err == nil && ok {
			out = append(out, fi.Name)
		}
	}
	return out, nil
}

// TableExists reports whether a schema file exists for the table.
func (c *Catalog) TableExists(ctx context.Context, id Identifier) (bool, error) {
	if c.Meta != nil {
		return c.Meta.TableExists(ctx, id)
	}
	ids, err := table.NewSchemas(c.FS, c.TablePath(id)).IDs(ctx)
	return len(ids) > 0, err
}

// CreateTable writes schema-0 of a new table (schema.ID must be 0). The database is created if needed.
func (c *Catalog) CreateTable(ctx context.Context, id Identifier, s *spec.TableSchema, ignoreIfExists bool) error {
	if err := checkIdentifier(id); err != nil {
		return err
	}
	if c.Meta != nil {
		if err := CheckColumnNames(s.Fields); err != nil {
			return fmt.Errorf("create table %s: %w", id, err)
		}
		return c.Meta.CreateTable(ctx, id, s, ignoreIfExists)
	}
	if err := c.CreateDatabase(ctx, id.Database, true); err != nil {
		return err
	}
	if ok, err := c.TableExists(ctx, id); err != nil {
		return err
	} else if ok {
		if ignoreIfExists {
			return nil
		}
		return fmt.Errorf("%w: %s at %s", ErrTableExist, id, c.TablePath(id))
	}
	if s.ID != 0 {
		return fmt.Errorf("create table %s: schema id must be 0, got %d", id, s.ID)
	}
	if err := CheckColumnNames(s.Fields); err != nil {
		return fmt.Errorf("create table %s: %w", id, err)
	}
	err := table.NewSchemas(c.FS, c.TablePath(id)).Create(ctx, s)
	if errors.Is(err, fileio.ErrExist) {
		if ignoreIfExists {
			return nil
		}
		return fmt.Errorf("%w: %s at %s", ErrTableExist, id, c.TablePath(id))
	}
	return err
}

// LoadTable opens a table at its latest schema.
func (c *Catalog) LoadTable(ctx context.Context, id Identifier) (*table.Table, error) {
	if c.Meta != nil {
		return c.Meta.LoadTable(ctx, id)
	}
	ok, err := c.TableExists(ctx, id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: %s (no schema file under %s); create it with 'lakeload table create'", ErrTableNotExist, id, c.TablePath(id))
	}
	return table.Open(ctx, c.FS, c.TablePath(id), id.String())
}

// DropTable deletes a table directory with all its files.
func (c *Catalog) DropTable(ctx context.Context, id Identifier, ignoreIfNotExists bool) error {
	if c.Meta != nil {
		return c.Meta.DropTable(ctx, id, ignoreIfNotExists)
	}
	if err := checkIdentifier(id); err != nil {
		return err // never delete a path a crafted name points outside the database
	}
	ok, err := c.TableExists(ctx, id)
	if err != nil {
		return err
	}
	if !ok {
		if ignoreIfNotExists {
			return nil
		}
		return fmt.Errorf("%w: %s", ErrTableNotExist, id)
	}
	return fileio.DeleteAllWithin(ctx, c.FS, c.TablePath(id), c.DatabasePath(id.Database)) // the delete guard: never outside the database
}
