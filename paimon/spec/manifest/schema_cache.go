package manifest

import (
	"sync"

	"github.com/hamba/avro/v2"
)

// maxCachedSchemas bounds writerSchemas. A table's metadata uses a handful of writer schemas
// (one per file kind and writer version), so the bound only matters for hostile input.
const maxCachedSchemas = 64

// writerSchemas caches parsed writer schemas of metadata files, keyed by the exact schema JSON
// of the file header. Only schemas that parsed and passed checkSchema are stored. A parsed
// avro.Schema is immutable and safe to share between goroutines.
var writerSchemas = &schemaCache{m: map[string]*writerSchema{}}

type schemaCache struct {
	mu sync.RWMutex
	m  map[string]*writerSchema
}

// writerSchema is a checked writer schema with its compiled row decoder.
type writerSchema struct {
	schema avro.Schema
	decode valueDecoder
	// rowsNeedBytes: every row encodes in at least one byte, so a block of n rows needs n bytes.
	rowsNeedBytes bool
}

// writerSchema returns the checked and compiled schema for a file header's schema JSON, parsing
// it on a miss.
// Each parse uses a fresh avro.SchemaCache so that named types of one file can never resolve
// references in another.
func (c *schemaCache) writerSchema(schemaJSON []byte) (*writerSchema, error) {
	c.mu.RLock()
	s, ok := c.m[string(schemaJSON)]
	c.mu.RUnlock()
	if ok {
		return s, nil
	}
	parsed, err := avro.ParseBytesWithCache(schemaJSON, "", &avro.SchemaCache{})
	if err != nil {
		return nil, corruptf("writer schema: %v", err)
	}
	if err := checkSchema(parsed); err != nil {
		return nil, corruptf("unsupported writer schema: %v", err)
	}
	dec, err := compileDecoder(parsed)
	if err != nil {
		return nil, corruptf("unsupported writer schema: %v", err)
	}
	s = &writerSchema{schema: parsed, decode: dec, rowsNeedBytes: !zeroSize(parsed, 0)}
	c.mu.Lock()
	if len(c.m) >= maxCachedSchemas {
		for k := range c.m { // evict an arbitrary entry
			delete(c.m, k)
			break
		}
	}
	c.m[string(schemaJSON)] = s
	c.mu.Unlock()
	return s, nil
}
