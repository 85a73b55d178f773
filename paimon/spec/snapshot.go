package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// CommitKind is a snapshot's commitKind.
type CommitKind string

// The commit kinds Java defines.
const (
	CommitKindAppend    CommitKind = "APPEND"
	CommitKindCompact   CommitKind = "COMPACT"
	CommitKindOverwrite CommitKind = "OVERWRITE"
	CommitKindAnalyze   CommitKind = "ANALYZE"
)

// BatchCommitIdentifier is the commitIdentifier of batch (non-streaming) commits: Long.MAX_VALUE.
const BatchCommitIdentifier int64 = 9223372036854775807

// Snapshot is the content of snapshot/snapshot-<id> (paimon-format.md §3). Nil pointers are omitted when
// writing; LogOffsets is written only when non-nil (an empty map as {}), Properties only when non-empty.
type Snapshot struct {
	Version                   int
	UUID                      *string
	ID                        int64
	SchemaID                  int64
	BaseManifestList          string
	BaseManifestListSize      *int64
	DeltaManifestList         string
	DeltaManifestListSize     *int64
	ChangelogManifestList     *string
	ChangelogManifestListSize *int64
	IndexManifest             *string
	CommitUser                string
	CommitIdentifier          int64
	CommitKind                CommitKind
	TimeMillis                int64
	LogOffsets                map[int]int64
	TotalRecordCount          *int64
	DeltaRecordCount          *int64
	ChangelogRecordCount      *int64
	Watermark                 *int64
	Statistics                *string
	Properties                map[string]string
	NextRowID                 *int64
	Operation                 *string
}

// snapshotJSON mirrors Snapshot for decoding; pointers detect presence.
type snapshotJSON struct {
	Version                   *int              `json:"version"`
	UUID                      *string           `json:"uuid"`
	ID                        *int64            `json:"id"`
	SchemaID                  *int64            `json:"schemaId"`
	BaseManifestList          *string           `json:"baseManifestList"`
	BaseManifestListSize      *int64            `json:"baseManifestListSize"`
	DeltaManifestList         *string           `json:"deltaManifestList"`
	DeltaManifestListSize     *int64            `json:"deltaManifestListSize"`
	ChangelogManifestList     *string           `json:"changelogManifestList"`
	ChangelogManifestListSize *int64            `json:"changelogManifestListSize"`
	IndexManifest             *string           `json:"indexManifest"`
	CommitUser                *string           `json:"commitUser"`
	CommitIdentifier          *int64            `json:"commitIdentifier"`
	CommitKind                *string           `json:"commitKind"`
	TimeMillis                *int64            `json:"timeMillis"`
	LogOffsets                map[string]int64  `json:"logOffsets"`
	TotalRecordCount          *int64            `json:"totalRecordCount"`
	DeltaRecordCount          *int64            `json:"deltaRecordCount"`
	ChangelogRecordCount      *int64            `json:"changelogRecordCount"`
	Watermark                 *int64            `json:"watermark"`
	Statistics                *string           `json:"statistics"`
	Properties                map[string]string `json:"properties"`
	NextRowID                 *int64            `json:"nextRowId"`
	Operation                 *string           `json:"operation"`
}

// ParseSnapshot parses a snapshot file. id, schemaId, baseManifestList, deltaManifestList, commitUser,
// commitIdentifier, commitKind and timeMillis are required; a missing version reads as 0 (as Java's int field);
// nulls read as absent; unknown keys are ignored. Errors wrap ErrCorrupt.
func ParseSnapshot(b []byte) (*Snapshot, error) {
	var j snapshotJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, fmt.Errorf("%w: snapshot JSON: %v", ErrCorrupt, err)
	}
	missing := func(key string) error { return fmt.Errorf("%w: snapshot: missing %q", ErrCorrupt, key) }
	switch {
	case j.ID == nil:
		return nil, missing("id")
	case j.SchemaID == nil:
		return nil, missing("schemaId")
	case j.BaseManifestList == nil:
		return nil, missing("baseManifestList")
	case j.DeltaManifestList == nil:
		return nil, missing("deltaManifestList")
	case j.CommitUser == nil:
		return nil, missing("commitUser")
	case j.CommitIdentifier == nil:
		return nil, missing("commitIdentifier")
	case j.CommitKind == nil:
		return nil, missing("commitKind")
	case j.TimeMillis == nil:
		return nil, missing("timeMillis")
	}
	kind := CommitKind(*j.CommitKind)
	switch kind {
	case CommitKindAppend, CommitKindCompact, CommitKindOverwrite, CommitKindAnalyze:
	default:
		return nil, fmt.Errorf("%w: snapshot %d: unknown commitKind %q", ErrCorrupt, *j.ID, kind)
	}
	s := &Snapshot{
		UUID: j.UUID, ID: *j.ID, SchemaID: *j.SchemaID,
		BaseManifestList: *j.BaseManifestList, BaseManifestListSize: j.BaseManifestListSize,
		DeltaManifestList: *j.DeltaManifestList, DeltaManifestListSize: j.DeltaManifestListSize,
		ChangelogManifestList: j.ChangelogManifestList, ChangelogManifestListSize: j.ChangelogManifestListSize,
		IndexManifest: j.IndexManifest, CommitUser: *j.CommitUser, CommitIdentifier: *j.CommitIdentifier,
		CommitKind: kind, TimeMillis: *j.TimeMillis,
		TotalRecordCount: j.TotalRecordCount, DeltaRecordCount: j.DeltaRecordCount,
		ChangelogRecordCount: j.ChangelogRecordCount, Watermark: j.Watermark, Statistics: j.Statistics,
		NextRowID: j.NextRowID, Operation: j.Operation,
	}
	if j.Version != nil {
		s.Version = *j.Version
	}
	if j.LogOffsets != nil {
		s.LogOffsets = make(map[int]int64, len(j.LogOffsets))
		for k, v := range j.LogOffsets {
			n, err := strconv.ParseInt(k, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("%w: snapshot %d: logOffsets key %q is not an int", ErrCorrupt, s.ID, k)
			}
			s.LogOffsets[int(n)] = v
		}
	}
	if len(j.Properties) > 0 {
		s.Properties = j.Properties
	}
	return s, nil
}

// JSON renders s in Java's member order with Jackson pretty printing; nil optional members are omitted.
func (s *Snapshot) JSON() ([]byte, error) {
	var b bytes.Buffer
	first := true
	key := func(k string) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.Write(jsonString(k))
		b.WriteByte(':')
	}
	str := func(k string, v *string) {
		if v != nil {
			key(k)
			b.Write(jsonString(*v))
		}
	}
	num := func(k string, v *int64) {
		if v != nil {
			key(k)
			b.WriteString(strconv.FormatInt(*v, 10))
		}
	}
	i64 := func(v int64) *int64 { return &v }
	sp := func(v string) *string { return &v }

	b.WriteByte('{')
	num("version", i64(int64(s.Version)))
	str("uuid", s.UUID)
	num("id", i64(s.ID))
	num("schemaId", i64(s.SchemaID))
	str("baseManifestList", sp(s.BaseManifestList))
	num("baseManifestListSize", s.BaseManifestListSize)
	str("deltaManifestList", sp(s.DeltaManifestList))
	num("deltaManifestListSize", s.DeltaManifestListSize)
	str("changelogManifestList", s.ChangelogManifestList)
	num("changelogManifestListSize", s.ChangelogManifestListSize)
	str("indexManifest", s.IndexManifest)
	str("commitUser", sp(s.CommitUser))
	num("commitIdentifier", i64(s.CommitIdentifier))
	str("commitKind", sp(string(s.CommitKind)))
	num("timeMillis", i64(s.TimeMillis))
	if s.LogOffsets != nil {
		key("logOffsets")
		ks := make([]int, 0, len(s.LogOffsets))
		for k := range s.LogOffsets {
			ks = append(ks, k)
		}
		sort.Ints(ks)
		b.WriteByte('{')
		for i, k := range ks {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"%d":%d`, k, s.LogOffsets[k])
		}
		b.WriteByte('}')
	}
	num("totalRecordCount", s.TotalRecordCount)
	num("deltaRecordCount", s.DeltaRecordCount)
	num("changelogRecordCount", s.ChangelogRecordCount)
	num("watermark", s.Watermark)
	str("statistics", s.Statistics)
	if len(s.Properties) > 0 {
		key("properties")
		writeStringMap(&b, s.Properties)
	}
	num("nextRowId", s.NextRowID)
	str("operation", s.Operation)
	b.WriteByte('}')
	return jacksonPretty(b.Bytes())
}
