package manifest

import (
	"errors"
	"fmt"

	"github.com/lakeload/lakeload/codec/orcfile"
	"github.com/lakeload/lakeload/paimon/spec"
)

// isORC reports whether a metadata file is ORC (manifest.format=orc) rather than Avro.
func isORC(data []byte) bool { return orcfile.IsORC(data) }

// readORC decodes an ORC metadata file and hands each row to fn, as readOCF does for Avro. ORC
// files Java writes with features orcfile does not implement give ErrUnsupportedFormat.
func readORC(data []byte, what string, grow func(n int), fn func(i int, rec row) error) error {
	rows, err := orcfile.ReadRows(data)
	if errors.Is(err, orcfile.ErrUnsupported) {
		return fmt.Errorf("%w: %s: %w", ErrUnsupportedFormat, what, err)
	}
	if errors.Is(err, orcfile.ErrCorrupt) {
		return fmt.Errorf("manifest: %s: %w: %w", what, spec.ErrCorrupt, err)
	}
	if err != nil {
		return fmt.Errorf("manifest: %s: %w", what, err)
	}
	grow(len(rows))
	for i, m := range rows {
		widenORC(m)
		if err := fn(i, row{m: m, what: fmt.Sprintf("%s row %d", what, i)}); err != nil {
			return err
		}
	}
	return nil
}

// widenORC turns ORC's TINYINT and SMALLINT values (Java writes _KIND and _FILE_SOURCE as
// TINYINT) into int32, the type the row accessors read INT fields as, in place.
func widenORC(v any) any {
	switch x := v.(type) {
	case int8:
		return int32(x)
	case int16:
		return int32(x)
	case map[string]any:
		for k, e := range x {
			x[k] = widenORC(e)
		}
	case []any:
		for i, e := range x {
			x[i] = widenORC(e)
		}
	}
	return v
}
