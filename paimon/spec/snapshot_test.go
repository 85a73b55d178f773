package spec

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestSnapshotFullRoundTrip(t *testing.T) {
	s := &Snapshot{
		Version: 3, UUID: ptr("5f1c0000-0000-4000-8000-000000000001"), ID: 7, SchemaID: 2,
		BaseManifestList: "manifest-list-a-0", BaseManifestListSize: ptr(int64(1234)),
		DeltaManifestList: "manifest-list-a-1", DeltaManifestListSize: ptr(int64(999)),
		ChangelogManifestList: ptr("manifest-list-a-2"), ChangelogManifestListSize: ptr(int64(5)),
		IndexManifest: ptr("index-manifest-b-0"), CommitUser: "user-1",
		CommitIdentifier: BatchCommitIdentifier, CommitKind: CommitKindOverwrite, TimeMillis: 1720496663041,
		LogOffsets: map[int]int64{}, TotalRecordCount: ptr(int64(10)), DeltaRecordCount: ptr(int64(-3)),
		ChangelogRecordCount: ptr(int64(0)), Watermark: ptr(int64(-9223372036854775808)),
		Statistics: ptr("stat-c-0"), Properties: map[string]string{"lakeload.batch": "b-42", "a": "1"},
		NextRowID: ptr(int64(100)), Operation: ptr("WRITE"),
	}
	out, err := s.JSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"commitIdentifier" : 9223372036854775807`, `"logOffsets" : { }`,
		"\"properties\" : {\n    \"a\" : \"1\",\n    \"lakeload.batch\" : \"b-42\"\n  }",
		`"watermark" : -9223372036854775808`, `"operation" : "WRITE"`,
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("JSON lacks %s:\n%s", want, out)
		}
	}
	// Java member order.
	order := []string{"version", "uuid", "id", "schemaId", "baseManifestList", "baseManifestListSize",
		"deltaManifestList", "deltaManifestListSize", "changelogManifestList", "changelogManifestListSize",
		"indexManifest", "commitUser", "commitIdentifier", "commitKind", "timeMillis", "logOffsets",
		"totalRecordCount", "deltaRecordCount", "changelogRecordCount", "watermark", "statistics",
		"properties", "nextRowId", "operation"}
	last := -1
	for _, k := range order {
		i := strings.Index(string(out), `"`+k+`" :`)
		if i <= last {
			t.Errorf("member %s out of order", k)
		}
		last = i
	}
	back, err := ParseSnapshot(out)
	if err != nil || !reflect.DeepEqual(back, s) {
		t.Errorf("round trip = %+v, %v", back, err)
	}
}

func TestSnapshotMinimalOmitsOptional(t *testing.T) {
	s := &Snapshot{Version: 3, ID: 1, BaseManifestList: "b", DeltaManifestList: "d", CommitUser: "u",
		CommitIdentifier: 1, CommitKind: CommitKindAppend, TimeMillis: 5, Properties: map[string]string{}}
	out, err := s.JSON()
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"version\" : 3,\n  \"id\" : 1,\n  \"schemaId\" : 0,\n  \"baseManifestList\" : \"b\",\n" +
		"  \"deltaManifestList\" : \"d\",\n  \"commitUser\" : \"u\",\n  \"commitIdentifier\" : 1,\n" +
		"  \"commitKind\" : \"APPEND\",\n  \"timeMillis\" : 5\n}"
	if string(out) != want {
		t.Errorf("JSON =\n%s\nwant\n%s", out, want)
	}
}

func TestParseSnapshotLenientAndStrict(t *testing.T) {
	good := `{"version":3,"id":4,"schemaId":0,"baseManifestList":"b","deltaManifestList":"d","changelogManifestList":null,` +
		`"commitUser":"u","commitIdentifier":2,"commitKind":"COMPACT","timeMillis":9,"logOffsets":{"0":12},` +
		`"totalRecordCount":1,"deltaRecordCount":1,"writerVersion":"x","properties":{}}`
	s, err := ParseSnapshot([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if s.ChangelogManifestList != nil || s.LogOffsets[0] != 12 || s.Properties != nil || s.CommitKind != CommitKindCompact {
		t.Errorf("parsed %+v", s)
	}
	for _, key := range []string{"id", "schemaId", "baseManifestList", "deltaManifestList", "commitUser",
		"commitIdentifier", "commitKind", "timeMillis"} {
		b := removeMember(good, key)
		if _, err := ParseSnapshot([]byte(b)); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), key) {
			t.Errorf("without %s: err = %v", key, err)
		}
	}
	bad := []string{`[`, `{"id":"1"}`, strings.Replace(good, `"COMPACT"`, `"MERGE"`, 1),
		strings.Replace(good, `{"0":12}`, `{"x":12}`, 1)}
	for _, b := range bad {
		if _, err := ParseSnapshot([]byte(b)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", b, err)
		}
	}
}

// removeMember deletes "key":value from a flat one-line JSON object (values without commas).
func removeMember(js, key string) string {
	i := strings.Index(js, `"`+key+`":`)
	j := strings.Index(js[i:], ",")
	return js[:i] + js[i+j+1:]
}
