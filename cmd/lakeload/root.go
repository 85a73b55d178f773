package main

import (
	"fmt"

	"github.com/lakeload/lakeload/fileio"
	_ "github.com/lakeload/lakeload/fileio/local" // registers local paths
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "lakeload",
		Short: "Exactly-once bulk loads into Apache Paimon tables",
		Long: `lakeload writes Parquet, CSV and JSON Lines files into Apache Paimon tables with a native Go
implementation of the Paimon format. Tables it writes are read by Java Paimon, Flink, Spark and pypaimon.`,
		Example: `  lakeload table create --warehouse /data/wh --table shop.orders \
      --column "id BIGINT" --column "amount DECIMAL(12, 2)" --column "dt STRING" \
      --primary-key dt,id --partition-key dt --option bucket=4
  lakeload write --warehouse /data/wh --table shop.orders --from 'in/*.parquet'
  lakeload scan --warehouse /data/wh --table shop.orders --output table`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w\nSee '%s --help'.", err, c.CommandPath())}
	})
	root.AddCommand(newTableCommand(), newWriteCommand(), newScanCommand(), newSnapshotsCommand())
	return root
}

// tableFlags are the flags naming a table.
type tableFlags struct {
	warehouse string
	table     string
}

func (f *tableFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&f.warehouse, "warehouse", "", "warehouse directory (local path or file:// URI) (required)")
	c.Flags().StringVar(&f.table, "table", "", "table as <database>.<table> (required)")
	_ = c.MarkFlagRequired("warehouse")
	_ = c.MarkFlagRequired("table")
}

func (f *tableFlags) open() (*catalog.Catalog, catalog.Identifier, error) {
	id, err := catalog.ParseIdentifier(f.table)
	if err != nil {
		return nil, id, usageError{fmt.Errorf("--table: %w", err)}
	}
	fs, path, err := fileio.Open(f.warehouse)
	if err != nil {
		return nil, id, usageError{fmt.Errorf("--warehouse: %w", err)}
	}
	return catalog.New(fs, path), id, nil
}
