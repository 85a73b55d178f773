package main

import (
	"fmt"

	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/spf13/cobra"
)

func newTableAddColumnCommand() *cobra.Command {
	var (
		tf      tableFlags
		columns []string
	)
	c := &cobra.Command{
		Use:   "add-column",
		Short: "Add nullable columns to a table (writes the next schema file)",
		Long: `Add columns to a table as Paimon's ALTER TABLE ADD COLUMN does: each column gets the next field id, is
added last (before the partition columns with add-column-before-partition=true), and must be nullable;
existing rows read as null. Columns are given as "name TYPE" like 'table create'.`,
		Example: `  lakeload table add-column --warehouse /data/wh --table shop.orders --column "coupon STRING" --column "discount DECIMAL(12, 2)"`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cat, id, err := tf.open()
			if err != nil {
				return err
			}
			fields, err := parseColumnFlags(columns, "coupon STRING")
			if err != nil {
				return err
			}
			var cols []catalog.NewColumn
			for _, f := range fields {
				cols = append(cols, catalog.NewColumn{Name: f.Name, Type: f.Type})
			}
			s, err := cat.AddColumns(cmd.Context(), id, cols)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "table %s: schema %d with %d columns\n", id, s.ID, len(s.Fields))
			return nil
		},
	}
	tf.register(c)
	c.Flags().StringArrayVar(&columns, "column", nil, `column to add as "name TYPE" (repeatable)`)
	return c
}
