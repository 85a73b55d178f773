package mergetree

import (
	"fmt"
	"strings"
)

// Option keys read by this package (Java CoreOptions, release-2.0.0).
const (
	OptMergeEngine                       = "merge-engine"
	OptIgnoreDelete                      = "ignore-delete"
	OptSequenceField                     = "sequence.field"
	OptSequenceFieldSortOrder            = "sequence.field.sort-order"
	OptSequenceSnapshotOrdering          = "sequence.snapshot-ordering"
	OptFieldsDefaultAggFunc              = "fields.default-aggregate-function"
	OptAggregationRemoveRecordOnDelete   = "aggregation.remove-record-on-delete"
	OptPartialUpdateRemoveRecordOnDelete = "partial-update.remove-record-on-delete"
	OptPartialUpdateRemoveOnSeqGroup     = "partial-update.remove-record-on-sequence-group"
)

// ignoreDeleteFallbackKeys are the deprecated spellings of ignore-delete, in Java's lookup order.
var ignoreDeleteFallbackKeys = []string{"first-row.ignore-delete", "deduplicate.ignore-delete", "partial-update.ignore-delete"}

// fieldOptKey builds a per-column option key "fields.<column>.<suffix>".
func fieldOptKey(column, suffix string) string { return "fields." + column + "." + suffix }

// options wraps a table's option map with Java's parsing rules.
type options map[string]string

// boolOpt parses a boolean option like Java's OptionsUtils (case-insensitive "true"/"false").
func (o options) boolOpt(key string, def bool, fallbacks ...string) (bool, error) {
	v, ok := o[key]
	for _, fb := range fallbacks {
		if ok {
			break
		}
		key = fb
		v, ok = o[fb]
	}
	if !ok {
		return def, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("mergetree: option %q: %q is not a boolean", key, v)
}

// str returns an option value and whether it is set.
func (o options) str(key string) (string, bool) {
	v, ok := o[key]
	return v, ok
}
