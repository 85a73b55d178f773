package checkpoint

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Opaque is a value the store keeps for the job without reading it: an input split or a commit
// message, as the JSON the job encoded. It is kept byte for byte inside the record that holds it,
// so the record's body is what it would be with the job's type in its place, and the job decodes it
// when it needs the value. The package thus knows neither the inputs nor the engine (docs/design.md,
// "checkpoint is a leaf").
//
// A value also carries a record format version (the envelope version, envelope.go). One the job
// makes (NewOpaque) carries the least version a reader needs to read it, and a record is written with
// the highest version of the values it holds. One read from a record carries the version of that
// record, and Require refuses a value whose content needs more: a lakeload reading version 1 only
// refuses a byte-range split by its version, and a version 1 record holding one is corrupt.
type Opaque struct {
	body    json.RawMessage
	version int    // made: the least record version the value needs; read: its record's version
	record  string // read: the path of its record (for errors)
}

// NewOpaque encodes v as JSON (encoding/json) needing record format version version (1 or 2).
func NewOpaque(v any, version int) (Opaque, error) {
	if version < envelopeVersion || version > maxEnvelopeVersion {
		return Opaque{}, fmt.Errorf("checkpoint: opaque value of record format version %d (this lakeload writes %d to %d)",
			version, envelopeVersion, maxEnvelopeVersion)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return Opaque{}, fmt.Errorf("checkpoint: encode %T: %w", v, err)
	}
	return Opaque{body: b, version: version}, nil
}

// Decode decodes the value into v (a pointer), refusing fields v does not have, as the store refuses
// them in its own records. Its error wraps ErrCorrupt and names the record the value was read from.
func (o Opaque) Decode(v any) error {
	dec := json.NewDecoder(bytes.NewReader(o.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return corruptf(o.where(), "%T in the record: %v", v, err)
	}
	return nil
}

// Require returns an error wrapping ErrCorrupt when the value was read from a record of a format
// version below version: its content needs version, and the record's header claims less.
func (o Opaque) Require(version int) error {
	if o.version < version {
		return corruptf(o.where(), "a value in the record needs record format version %d, the header says %d", version, o.version)
	}
	return nil
}

// Bytes returns the value's JSON (shared: do not modify it).
func (o Opaque) Bytes() []byte { return o.body }

func (o Opaque) where() string {
	if o.record == "" {
		return "(a value not read from the store)"
	}
	return o.record
}

// MarshalJSON returns the value's JSON, as its owner encoded it.
func (o Opaque) MarshalJSON() ([]byte, error) {
	if o.body == nil {
		return []byte("null"), nil
	}
	return o.body, nil
}

// UnmarshalJSON keeps a copy of b; the version and record are set by the record's decoder.
func (o *Opaque) UnmarshalJSON(b []byte) error {
	o.body = bytes.Clone(b)
	return nil
}

// holder is a record holding opaque values: lists returns them (the slices share the record's
// arrays, so setting their elements sets the record's).
type holder interface{ opaqueLists() [][]Opaque }

// opaqueVersion is the highest version of the values h holds (envelopeVersion if none is higher).
func opaqueVersion(h holder) int {
	v := envelopeVersion
	for _, l := range h.opaqueLists() {
		for _, o := range l {
			v = max(v, o.version)
		}
	}
	return v
}

// stampOpaque notes in each value h holds the version and path of the record it was read from.
func stampOpaque(h holder, version int, path string) {
	for _, l := range h.opaqueLists() {
		for i := range l {
			l[i].version, l[i].record = version, path
		}
	}
}

func (p PlanRecord) opaqueLists() [][]Opaque   { return [][]Opaque{p.Splits} }
func (r PlanRevision) opaqueLists() [][]Opaque { return [][]Opaque{r.Added} }
func (g Generation) opaqueLists() [][]Opaque   { return [][]Opaque{g.Splits} }
func (r TaskResult) opaqueLists() [][]Opaque   { return [][]Opaque{r.Messages} }
