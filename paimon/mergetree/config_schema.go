package mergetree

import (
	"fmt"

	"github.com/lakeload/lakeload/paimon/spec"
)

// NewConfig builds the merge configuration of a primary-key table from its schema (fields,
// primary and partition keys, options); see NewConfigFromSchema for the errors.
func NewConfig(s *spec.TableSchema) (*Config, error) {
	if s == nil {
		return nil, fmt.Errorf("mergetree: nil table schema")
	}
	return NewConfigFromSchema(Schema{Fields: s.Fields, PrimaryKeys: s.PrimaryKeys, PartitionKeys: s.PartitionKeys, Options: s.Options})
}
