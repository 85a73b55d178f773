package checkpoint

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzRecordBodies feeds arbitrary JSON bodies, wrapped in a valid envelope (so the checksum does not
// stop them), to the decoder of every record kind: decoding must return a value or an ErrCorrupt
// error, never panic.
func FuzzRecordBodies(f *testing.F) {
	seeds := []any{
		JobRecord{JobID: "j", TablePath: "/w/db.db/t"},
		TaskResult{Window: 1, Attempt: 1, TaskID: "t", Splits: []int{0, 1}, IDs: IDList{"a", "b"}},
		Published{Window: 3, Attempt: 2},
		Generation{Generation: 2, Revision: 1},
	}
	for _, s := range seeds {
		b, _ := json.Marshal(s)
		f.Add(b)
	}
	f.Add([]byte(`{"ids":"lz1:KLUv/QBYAQAA"}`))
	f.Add([]byte(`{"splits":[-1,99999999999]}`))
	targets := map[string]func() any{
		kindJob: func() any { return new(JobRecord) }, kindPlan: func() any { return new(PlanRecord) },
		kindAssigned: func() any { return new(Assigned) }, kindAttempt: func() any { return new(AttemptStart) },
		kindResult: func() any { return new(TaskResult) }, kindCommitted: func() any { return new(Committed) },
		kindPublished: func() any { return new(Published) }, kindVoided: func() any { return new(Voided) },
		kindDone: func() any { return new(DoneRecord) }, kindLease: func() any { return new(LeaseRecord) },
		kindRevision: func() any { return new(PlanRevision) }, kindGeneration: func() any { return new(Generation) },
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for kind, mk := range targets {
			data, err := encodeRecord(kind, json.RawMessage(body))
			if err != nil {
				continue // not JSON at all: encodeRecord validates RawMessage
			}
			if err := decodeRecord("p", kind, data, mk()); err != nil && !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%s: error does not wrap ErrCorrupt: %v", kind, err)
			}
		}
	})
}

// FuzzIDList decodes arbitrary id-list encodings (zstd + front coding): an error or a sorted list,
// never a panic; a decoded list re-encodes to the same ids.
func FuzzIDList(f *testing.F) {
	good, _ := json.Marshal(IDList{"a", "ab", "abc", "b"})
	f.Add(good)
	f.Add([]byte(`["x","y"]`))
	f.Add([]byte(`""`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var l IDList
		if err := json.Unmarshal(data, &l); err != nil {
			return
		}
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		var again IDList
		if err := json.Unmarshal(b, &again); err != nil || len(again) != len(l) {
			t.Fatalf("re-encoded list does not decode: %v (%d vs %d ids)", err, len(again), len(l))
		}
		for i := range l {
			if again[i] != l[i] {
				t.Fatalf("id %d: %q vs %q", i, again[i], l[i])
			}
		}
	})
}
