package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/lakeload/lakeload/fileio"
	_ "github.com/lakeload/lakeload/fileio/local" // registers local paths
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/spf13/cobra"
)

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
		Version:       versionString(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w; see '%s --help'", err, c.CommandPath())}
	})
	root.AddCommand(newTableCommand(), withMemoryLimit(newWriteCommand()), withMemoryLimit(newLoadCommand()), newStatusCommand(), newJobsCommand(), newJobCommand(),
		newScanCommand(), newSnapshotsCommand(), withMemoryLimit(newCompactCommand()))
	root.AddCommand(newExpireCommand(), newCleanOrphansCommand())
	root.AddCommand(withMemoryLimit(newWorkerCommand()))
	addBuiltinCommands(root)
	// Cobra reports missing required flags and stray arguments as plain errors; make them usage errors
	// (exit 2) like flag errors.
	root.PersistentPreRunE = func(c *cobra.Command, _ []string) error {
		if err := applyEnvDefaults(c); err != nil {
			return err
		}
		if err := applyConfigFile(c); err != nil { // after the environment, which wins over the file
			return err
		}
		if err := c.ValidateRequiredFlags(); err != nil {
			return usageError{fmt.Errorf("%w; see '%s --help'", err, c.CommandPath())}
		}
		return nil
	}
	registerConfigFlag(root)
	markUsageErrors(root)
	documentEnvDefaults(root)
	return root
}

// markUsageErrors makes argument errors usage errors throughout the tree, and gives command groups
// (commands that only hold subcommands) a RunE that shows help without arguments and rejects an unknown
// subcommand; without it cobra prints the group's help and exits 0 for "lakeload table bogus".
func markUsageErrors(c *cobra.Command) {
	if c.HasSubCommands() && c.Run == nil && c.RunE == nil {
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				hint := ""
				if s := c.SuggestionsFor(args[0]); len(s) > 0 {
					hint = "; did you mean " + strings.Join(s, " or ") + "?"
				}
				return usageError{fmt.Errorf("unknown command %q for %q%s; see '%s --help'", args[0], c.CommandPath(), hint, c.CommandPath())}
			}
			return c.Help()
		}
	}
	if validate := c.Args; validate != nil {
		c.Args = func(c *cobra.Command, args []string) error {
			if err := validate(c, args); err != nil {
				return usageError{fmt.Errorf("%w; see '%s --help'", err, c.CommandPath())}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		markUsageErrors(sub)
	}
}

// tableFlags are the flags naming a table.
type tableFlags struct {
	warehouse string
	table     string
	cat       catalogFlags
	creating  bool // the command creates the table (a REST catalog then needs no existing table)
}

func (f *tableFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&f.warehouse, "warehouse", "", "warehouse directory: local path, file:// URI or s3://bucket/prefix (required, except with --catalog rest: there, where lakeload keeps its job state)")
	c.Flags().StringVar(&f.table, "table", "", "table as <database>.<table> (required)")
	_ = c.MarkFlagRequired("table")
	f.cat.register(c)
}

func (f *tableFlags) open() (*catalog.Catalog, catalog.Identifier, error) {
	id, err := catalog.ParseIdentifier(f.table)
	if err != nil {
		return nil, id, usageError{fmt.Errorf("--table: %w", err)}
	}
	if err := f.cat.check(); err != nil {
		return nil, id, err
	}
	if f.cat.rest() {
		cat, err := f.openREST(context.Background(), id)
		return cat, id, err
	}
	if f.warehouse == "" {
		return nil, id, usageError{fmt.Errorf("required flag(s) \"warehouse\" not set")}
	}
	fs, path, err := fileio.Open(f.warehouse)
	if err != nil {
		return nil, id, usageError{fmt.Errorf("--warehouse: %w", err)}
	}
	return catalog.New(fs, path), id, nil
}

// completionExamples are the Example sections of cobra's generated completion commands.
var completionExamples = map[string]string{
	"completion": "  source <(lakeload completion bash)",
	"bash":       "  source <(lakeload completion bash)",
	"zsh":        `  lakeload completion zsh > "${fpath[1]}/_lakeload"`,
	"fish":       "  lakeload completion fish > ~/.config/fish/completions/lakeload.fish",
	"powershell": "  lakeload completion powershell | Out-String | Invoke-Expression",
}

// addBuiltinCommands creates cobra's help and completion commands now (cobra would add them when the
// command runs) so they get Example sections like every other command.
func addBuiltinCommands(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "help":
			c.Example = "  lakeload help scan\n  lakeload help table create"
		case "completion":
			c.Example = completionExamples["completion"]
			for _, sub := range c.Commands() {
				sub.Example = completionExamples[sub.Name()]
			}
		}
	}
}
