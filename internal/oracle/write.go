package oracle

import "encoding/json"

// Column is one column of a TableSpec: a name and a Paimon SQL type ("BIGINT NOT NULL",
// "DECIMAL(10, 2)", "TIMESTAMP(6) WITH LOCAL TIME ZONE", "MAP<STRING, ARRAY<INT>>", "ROW<a INT, b STRING>").
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// TableSpec describes a table for the pypaimon oracle to create.
type TableSpec struct {
	Columns       []Column          `json:"columns"`
	PrimaryKeys   []string          `json:"primaryKeys,omitempty"`
	PartitionKeys []string          `json:"partitionKeys,omitempty"`
	Options       map[string]string `json:"options,omitempty"`
}

// WriteOpts is one pypaimon write + commit.
type WriteOpts struct {
	// Spec creates the table when it does not exist yet (ignored otherwise).
	Spec *TableSpec
	// Rows are canonical JSON lines (as canon.Row prints them). A "_kind" key (+I, -U, +U, -D) is moved
	// into the column named by the table option rowkind.field, which pypaimon uses for row kinds.
	Rows []string
	// CommitUser and CommitIdentifier, when set, make a stream-mode commit with that user/identifier;
	// otherwise it is a batch commit (identifier Long.MAX_VALUE, random user).
	CommitUser       string
	CommitIdentifier *int64
	// Overwrite makes a batch INSERT OVERWRITE: an empty map overwrites the whole table, otherwise the
	// given static partition. nil = append.
	Overwrite map[string]string
	// Properties are stored as snapshot properties.
	Properties map[string]string
}

// TryWrite writes through the oracle and returns the latest snapshot id after the commit.
// For pypaimon the table path must be WAREHOUSE/DB.db/TABLE (it writes through a filesystem catalog).
// The Java oracle takes Spec and Rows only (one batch commit; Java Paimon's Parquet writer, e.g.
// TIMESTAMP(7..9) as INT96).
func (c *Client) TryWrite(table string, w WriteOpts) (int64, error) {
	rows := make([]json.RawMessage, len(w.Rows))
	for i, r := range w.Rows {
		rows[i] = json.RawMessage(r)
	}
	req := map[string]any{"cmd": "write", "table": table, "rows": rows}
	if w.Spec != nil {
		req["spec"] = w.Spec
	}
	if w.CommitUser != "" {
		req["commitUser"] = w.CommitUser
	}
	if w.CommitIdentifier != nil {
		req["commitIdentifier"] = *w.CommitIdentifier
	}
	if w.Overwrite != nil {
		if len(w.Overwrite) == 0 {
			req["overwrite"] = true
		} else {
			req["overwrite"] = w.Overwrite
		}
	}
	if len(w.Properties) > 0 {
		req["properties"] = w.Properties
	}
	var reply struct {
		Snapshot *int64 `json:"snapshot"`
	}
	if err := c.p.call(req, &reply); err != nil {
		return 0, err
	}
	if reply.Snapshot == nil {
		return 0, nil
	}
	return *reply.Snapshot, nil
}

// Write is TryWrite that fails the test on error.
func (c *Client) Write(table string, w WriteOpts) int64 {
	c.t.Helper()
	id, err := c.TryWrite(table, w)
	if err != nil {
		c.t.Fatalf("write %s: %v", table, err)
	}
	return id
}

// TryCompact (Java oracle only) compacts every bucket of the table's latest snapshot in full with
// Java Paimon (TableWrite.compact(partition, bucket, true), one batch commit) and returns the latest
// snapshot id. Primary-key and fixed-bucket tables.
func (c *Client) TryCompact(table string) (int64, error) {
	var reply struct {
		Snapshot *int64 `json:"snapshot"`
	}
	if err := c.p.call(map[string]any{"cmd": "compact", "table": table}, &reply); err != nil {
		return 0, err
	}
	if reply.Snapshot == nil {
		return 0, nil
	}
	return *reply.Snapshot, nil
}

// Compact is TryCompact that fails the test on error.
func (c *Client) Compact(table string) int64 {
	c.t.Helper()
	id, err := c.TryCompact(table)
	if err != nil {
		c.t.Fatalf("compact %s: %v", table, err)
	}
	return id
}
