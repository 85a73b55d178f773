package checkpoint

import (
	"errors"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

func TestEnvelopeRoundTrip(t *testing.T) {
	in := Assigned{Window: 3, Splits: []int{4, 5}, SequenceBase: 70, SnapshotSeen: 9, Attempt: 1, Created: t0}
	b, err := encodeRecord(kindAssigned, in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "LLCKPT 1 assigned ") {
		t.Fatalf("header: %q", b[:30])
	}
	var out Assigned
	if err := decodeRecord("p", kindAssigned, b, &out); err != nil {
		t.Fatal(err)
	}
	if out.Window != 3 || out.SequenceBase != 70 || !out.Created.Equal(t0) || len(out.Splits) != 2 {
		t.Fatalf("round trip: %+v", out)
	}
}

func TestEnvelopeDetectsDamage(t *testing.T) {
	good, err := encodeRecord(kindCommitted, Committed{Window: 1, SnapshotID: 5, Attempt: 1, Time: t0})
	if err != nil {
		t.Fatal(err)
	}
	nl := strings.IndexByte(string(good), '\n')
	flip := append([]byte(nil), good...)
	flip[len(flip)-3] ^= 0x01
	cases := map[string]struct {
		data []byte
		want string
	}{
		"empty":         {nil, "no record header"},
		"torn header":   {good[:nl-2], "no record header"},
		"torn body":     {good[:len(good)-4], "torn record"},
		"appended":      {append(append([]byte(nil), good...), 'x'), "torn record"},
		"bit flip":      {flip, "checksum mismatch"},
		"foreign file":  {[]byte("{\"window\":1}\n"), "bad record header"},
		"newer version": {[]byte(strings.Replace(string(good), "LLCKPT 1", "LLCKPT 3", 1)), "version"},
		"wrong kind":    {[]byte(strings.Replace(string(good), "committed", "published", 1)), "record kind"},
		"bad crc field": {badCRC(good), "bad checksum field"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var out Committed
			err := decodeRecord("/store/windows/1/committed", kindCommitted, c.data, &out)
			if !errors.Is(err, ErrCorrupt) || !errors.Is(err, spec.ErrCorrupt) {
				t.Fatalf("err = %v, want ErrCorrupt", err)
			}
			if !strings.Contains(err.Error(), "/store/windows/1/committed") || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want path and %q", err, c.want)
			}
		})
	}
}

// badCRC replaces the checksum field of a record's header with non-hex text.
func badCRC(rec []byte) []byte {
	f := strings.SplitN(string(rec), " ", 5)
	f[3] = "zzzzzzzz"
	return []byte(strings.Join(f, " "))
}

func TestEnvelopeRefusesUnknownFields(t *testing.T) {
	b, err := encodeRecord(kindVoided, map[string]any{"window": 1, "reason": "x", "created": t0, "extra": true})
	if err != nil {
		t.Fatal(err)
	}
	var v Voided
	if err := decodeRecord("p", kindVoided, b, &v); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "extra") {
		t.Fatalf("err = %v", err)
	}
}

func FuzzDecodeRecord(f *testing.F) {
	good, _ := encodeRecord(kindResult, TaskResult{Window: 1, Attempt: 1, TaskID: "t", Splits: []int{0}, Messages: nil})
	f.Add(good)
	f.Add([]byte("LLCKPT 1 result 00000000 0\n"))
	f.Add([]byte("LLCKPT 1 result ffffffff 99999999999\n{}"))
	f.Add([]byte("\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r TaskResult
		err := decodeRecord("p", kindResult, data, &r)
		if err != nil && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("error does not wrap ErrCorrupt: %v", err)
		}
		if err == nil {
			b, err := encodeRecord(kindResult, r)
			if err != nil {
				t.Fatal(err)
			}
			var again TaskResult
			if err := decodeRecord("p", kindResult, b, &again); err != nil {
				t.Fatalf("re-encoded record does not decode: %v", err)
			}
		}
	})
}

// TestEnvelopeVersionOfCutPlans: a plan holding a byte-range text split is written as version 2
// (a lakeload reading version 1 only refuses it by its version), any other plan as version 1, as
// before text files were cut; both read back byte for byte, and a split read from a version 1
// header over a byte range fails Require(2) naming the record (the job refuses it, job/plan/records.go).
func TestEnvelopeVersionOfCutPlans(t *testing.T) {
	whole := testSplit{Path: "/in/a.csv", Format: "csv", Size: 100, ModTimeUnixNano: 1, RowCount: -1}.stored()
	cut := testSplit{Path: "/in/a.csv", Format: "csv", Size: 100, ModTimeUnixNano: 1, RowStart: 3, RowCount: 4,
		ByteStart: 40, ByteEnd: 80, FirstLine: 5}.stored()
	for _, c := range []struct {
		plan PlanRecord
		want string
	}{{PlanRecord{Splits: []Opaque{whole}}, "LLCKPT 1 plan "}, {PlanRecord{Splits: []Opaque{whole, cut}}, "LLCKPT 2 plan "}} {
		b, err := encodeRecord(kindPlan, c.plan)
		if err != nil || !strings.HasPrefix(string(b), c.want) {
			t.Fatalf("encoded %q, %v; want prefix %q", b, err, c.want)
		}
		var back PlanRecord
		if err := decodeRecord("/store/plan", kindPlan, b, &back); err != nil || len(back.Splits) != len(c.plan.Splits) ||
			!sameOpaque(back.Splits[len(back.Splits)-1], c.plan.Splits[len(c.plan.Splits)-1]) {
			t.Fatalf("decoded %+v, %v", back, err)
		}
		if err := back.Splits[len(back.Splits)-1].Require(2); (err == nil) != (c.want == "LLCKPT 2 plan ") {
			t.Fatalf("Require(2) of a split read from %q: %v", c.want, err)
		}
		if c.want == "LLCKPT 2 plan " {
			v1 := []byte(strings.Replace(string(b), "LLCKPT 2", "LLCKPT 1", 1))
			if err := decodeRecord("/store/plan", kindPlan, v1, &back); err != nil {
				t.Fatal(err)
			}
			err := back.Splits[1].Require(2)
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "version 2") || !strings.Contains(err.Error(), "/store/plan") {
				t.Fatalf("a version 1 header over a byte range: %v", err)
			}
		}
	}
}
