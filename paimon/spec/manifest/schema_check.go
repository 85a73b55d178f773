package manifest

import (
	"fmt"

	"github.com/hamba/avro/v2"
)

// checkSchema rejects writer schemas that could make decoding unbounded no matter how short the
// file is: recursive named types (unbounded nesting depth) and arrays or maps whose elements
// can encode in zero bytes (unbounded element counts per input byte). Paimon's metadata schemas
// have neither.
func checkSchema(s avro.Schema) error {
	return (&schemaChecker{inProgress: map[string]bool{}, done: map[string]bool{}}).walk(s)
}

type schemaChecker struct {
	inProgress, done map[string]bool
}

func (c *schemaChecker) walk(s avro.Schema) error {
	switch s := s.(type) {
	case *avro.RefSchema:
		return c.walk(s.Schema())
	case *avro.RecordSchema:
		name := s.FullName()
		if c.done[name] {
			return nil
		}
		if c.inProgress[name] {
			return fmt.Errorf("recursive record %s", name)
		}
		c.inProgress[name] = true
		for _, f := range s.Fields() {
			if err := c.walk(f.Type()); err != nil {
				return err
			}
		}
		delete(c.inProgress, name)
		c.done[name] = true
	case *avro.ArraySchema:
		if zeroSize(s.Items(), 0) {
			return fmt.Errorf("array of zero-size items %s", s.Items().Type())
		}
		return c.walk(s.Items())
	case *avro.MapSchema:
		if zeroSize(s.Values(), 0) {
			return fmt.Errorf("map of zero-size values %s", s.Values().Type())
		}
		return c.walk(s.Values())
	case *avro.UnionSchema:
		for _, b := range s.Types() {
			if err := c.walk(b); err != nil {
				return err
			}
		}
	}
	return nil
}

// zeroSize reports whether a value of s can be encoded in zero bytes. Deep (or recursive)
// records count as non-zero; walk rejects recursion separately.
func zeroSize(s avro.Schema, depth int) bool {
	if depth > 64 {
		return false
	}
	switch s := s.(type) {
	case *avro.RefSchema:
		return zeroSize(s.Schema(), depth+1)
	case *avro.NullSchema:
		return true
	case *avro.FixedSchema:
		return s.Size() == 0
	case *avro.RecordSchema:
		for _, f := range s.Fields() {
			if !zeroSize(f.Type(), depth+1) {
				return false
			}
		}
		return true
	}
	return false
}
