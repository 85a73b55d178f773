package table

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
)

// Identity names one incarnation of the table: a table dropped and created again under the same
// name (the same directory) gets another identity; the table's schema changes and its snapshots
// do not change it.
//
// Paimon's filesystem catalog stores no table uuid (Java's Table.uuid() derives one from the table's
// name and the creation time of its earliest schema), so the identity is derived the same way, from
// the table's earliest schema file (schema-0 unless that was removed): "<timeMillis>-<first 12 hex
// digits of the SHA-256 of the file>". The file is write-once, so the identity is stable, and it is
// read from the file's content, so copying the table elsewhere keeps it. Schemas written by Paimon
// before 0.5 carry no timeMillis (0): a table recreated by such a writer with byte-identical DDL is
// not told apart, nor is one recreated identically within the same millisecond.
func (t *Table) Identity(ctx context.Context) (string, error) {
	schemas := t.Schemas()
	ids, err := schemas.IDs(ctx)
	if err != nil {
		return "", fmt.Errorf("table identity: list the schemas of %s: %w", t.Path, err)
	}
	if len(ids) == 0 {
		return "", fmt.Errorf("table identity: table %s has no schema file: %w", t.Path, fileio.ErrNotExist)
	}
	b, err := t.FS.ReadFile(ctx, schemas.Path(ids[0]))
	if err != nil {
		return "", fmt.Errorf("table identity: read the earliest schema of %s: %w", t.Path, err)
	}
	s, err := spec.ParseSchema(b)
	if err != nil {
		return "", fmt.Errorf("table identity: schema file %s: %w", schemas.Path(ids[0]), err)
	}
	sum := sha256.Sum256(b)
	return fmt.Sprintf("%d-%s", s.TimeMillis, hex.EncodeToString(sum[:6])), nil
}
