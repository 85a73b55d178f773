package checkpoint

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
)

func TestIDListRoundTripIsSortedAndCompact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := map[string]IDList{
		"empty":      nil,
		"one":        {"x"},
		"duplicates": {"b", "a", "b", ""},
		"unicode":    {"é", "\n", "a\x00b", "ab"},
	}
	seq := make(IDList, 100_000)
	for i := range seq {
		seq[i] = fmt.Sprint(1_000_000 + i)
	}
	cases["sequential ints"] = seq
	uuids := make(IDList, 20_000)
	for i := range uuids {
		uuids[i] = fmt.Sprintf("%016x-%08x", r.Uint64(), r.Uint32())
	}
	cases["random strings"] = uuids
	for name, ids := range cases {
		b, err := json.Marshal(ids)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got IDList
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := slices.Clone(ids)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: round trip gave %d ids, want %d (first %q)", name, len(got), len(want), got[:min(3, len(got))])
		}
		plain, _ := json.Marshal([]string(ids))
		t.Logf("%s: %d ids, %d bytes compact, %d bytes as a JSON array", name, len(ids), len(b), len(plain))
		if len(ids) >= 1000 && len(b) >= len(plain) {
			t.Errorf("%s: compact form %d bytes is not smaller than the plain %d", name, len(b), len(plain))
		}
		if name == "sequential ints" && len(b)*100 > len(plain) {
			t.Errorf("%s: compact form %d bytes, want under 1%% of the plain %d", name, len(b), len(plain))
		}
		// The encoding is a function of the multiset: a shuffled list encodes identically.
		sh := slices.Clone(ids)
		r.Shuffle(len(sh), func(i, j int) { sh[i], sh[j] = sh[j], sh[i] })
		if b2, _ := json.Marshal(sh); string(b2) != string(b) {
			t.Errorf("%s: encoding depends on order", name)
		}
	}
}

func TestIDListReadsPlainArrays(t *testing.T) {
	var l IDList
	if err := json.Unmarshal([]byte(`["b","a"]`), &l); err != nil || !slices.Equal(l, IDList{"a", "b"}) {
		t.Fatalf("got %q, %v", l, err)
	}
}

func TestIDListRefusesDamage(t *testing.T) {
	good, _ := json.Marshal(IDList{"10", "11", "12"})
	s := string(good)
	bad := []string{`"fc2+zstd:AAAA"`, `"fc1+zstd:!!!"`, `"fc1+zstd:AAAA"`, `17`, `{"a":1}`,
		s[:len(s)-6] + `"`, strings.Replace(s, "fc1", "fc0", 1)}
	// A valid zstd frame around bad front coding: prefix longer than the previous id.
	enc, _, _ := zstdCodec()
	for _, raw := range [][]byte{{5, 1, 'a'}, {0, 9, 'a'}, {0, 1, 'b', 0, 1, 'a'}, {0x80}} {
		bad = append(bad, fmt.Sprintf(`"fc1+zstd:%s"`, b64(enc.EncodeAll(raw, nil))))
	}
	for _, b := range bad {
		var l IDList
		if err := json.Unmarshal([]byte(b), &l); err == nil {
			t.Errorf("%s: decoded as %q, want an error", b, l)
		}
	}
}

func TestTaskResultWithIDsSurvivesTheStore(t *testing.T) {
	backends(t, func(t *testing.T, _ fileio.FileIO, s *Store) {
		if err := s.WriteJob(bg, testJob()); err != nil {
			t.Fatal(err)
		}
		if err := s.WritePlan(bg, testPlan(2)); err != nil {
			t.Fatal(err)
		}
		if err := s.WriteAssigned(bg, Assigned{Window: 1, Splits: []int{0, 1}, Attempt: 1, Created: t0}); err != nil {
			t.Fatal(err)
		}
		r := TaskResult{Window: 1, Attempt: 1, TaskID: "t0000", Messages: nil, Splits: []int{0, 1}, IDs: IDList{"b", "a", "c"}, Rows: 3}
		if _, err := s.WriteResult(bg, r); err != nil {
			t.Fatal(err)
		}
		st, err := s.Load(bg)
		if err != nil {
			t.Fatal(err)
		}
		ws, _ := st.Window(1)
		at, _ := ws.Attempt(1)
		if len(at.Results) != 1 || !slices.Equal(at.Results[0].IDs, IDList{"a", "b", "c"}) {
			t.Fatalf("results after load: %+v", at.Results)
		}
	})
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func TestResultDigestCoversIDsNotTheirEncoding(t *testing.T) {
	base := TaskResult{Window: 1, Attempt: 1, TaskID: "t0000", Splits: []int{0}, Rows: 2}
	digest := func(ids ...string) string {
		r := base
		r.IDs = ids
		d, err := ResultDigest(r)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if digest("a", "b") != digest("b", "a") {
		t.Error("the digest depends on the order of the ids")
	}
	if digest("a", "b") == digest("a", "c") || digest("a", "b") == digest() || digest("ab") == digest("a", "b") {
		t.Error("the digest does not cover the ids")
	}
}

// TestLegacyIDArrayRecordLoads: a result written with ids as a plain JSON array (the layout before
// IDList) still loads, with its digest intact.
func TestLegacyIDArrayRecordLoads(t *testing.T) {
	backends(t, func(t *testing.T, fs fileio.FileIO, s *Store) {
		for _, err := range []error{s.WriteJob(bg, testJob()), s.WritePlan(bg, testPlan(1)),
			s.WriteAssigned(bg, Assigned{Window: 1, Splits: []int{0}, Attempt: 1, Created: t0})} {
			if err != nil {
				t.Fatal(err)
			}
		}
		r := TaskResult{Window: 1, Attempt: 1, TaskID: "t0000", Splits: []int{0}, IDs: IDList{"x", "y"}, Rows: 2}
		d, err := ResultDigest(r)
		if err != nil {
			t.Fatal(err)
		}
		type legacy struct {
			Window   int64    `json:"window"`
			Attempt  int      `json:"attempt"`
			TaskID   string   `json:"taskId"`
			Messages []int    `json:"messages"`
			Splits   []int    `json:"splits"`
			IDs      []string `json:"ids"`
			Rows     int64    `json:"rows"`
			Digest   string   `json:"digest"`
		}
		b, err := encodeRecord(kindResult, legacy{1, 1, "t0000", nil, []int{0}, []string{"y", "x"}, 2, d})
		if err != nil {
			t.Fatal(err)
		}
		if err := fs.WriteIfAbsent(bg, s.ResultPath(1, 1, "t0000"), b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"ids":["y","x"]`) {
			t.Fatalf("legacy record %s", b)
		}
		st, err := s.Load(bg)
		if err != nil {
			t.Fatal(err)
		}
		ws, _ := st.Window(1)
		at, _ := ws.Attempt(1)
		if len(at.Results) != 1 || !slices.Equal(at.Results[0].IDs, IDList{"x", "y"}) {
			t.Fatalf("results %+v", at.Results)
		}
	})
}
