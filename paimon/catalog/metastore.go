package catalog

import (
	"context"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// Metastore is a catalog service that owns databases and tables in place of the warehouse directory
// (the Paimon REST catalog, paimon/catalog/rest). A Catalog with a Metastore sends every database and
// table operation to it; its FS and Warehouse then only hold lakeload's own state (.lakeload/: job
// checkpoints, sequence reservations). Tables it loads carry a table.SnapshotOwner, so their snapshots
// are committed through the service too.
type Metastore interface {
	String() string
	CreateDatabase(ctx context.Context, db string, ignoreIfExists bool) error
	DatabaseExists(ctx context.Context, db string) (bool, error)
	ListDatabases(ctx context.Context) ([]string, error)
	DropDatabase(ctx context.Context, db string, cascade bool) error
	ListTables(ctx context.Context, db string) ([]string, error)
	TableExists(ctx context.Context, id Identifier) (bool, error)
	CreateTable(ctx context.Context, id Identifier, s *spec.TableSchema, ignoreIfExists bool) error
	LoadTable(ctx context.Context, id Identifier) (*table.Table, error)
	DropTable(ctx context.Context, id Identifier, ignoreIfNotExists bool) error
	AddColumns(ctx context.Context, id Identifier, cols []NewColumn) (*spec.TableSchema, error)
}
