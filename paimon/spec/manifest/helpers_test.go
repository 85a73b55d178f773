package manifest

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hamba/avro/v2"
)

// fixtureRoot holds tables written by Java Paimon (0.9 and 1.x), copied from /work/shared/fixtures.
const fixtureRoot = "../../../testdata/java-written"

// fixtureTable is one Java-written table directory (<name>.db/<name>).
type fixtureTable struct {
	dir            string
	partitionKeys  []string
	partitionTypes []string // Paimon type names of the partition keys, e.g. "INT", "STRING"
	avro           bool     // manifest.format is avro (the others are ORC)
}

func fixtureTables(t testing.TB) []fixtureTable {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(fixtureRoot, "*.db", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no fixture tables under %s (err %v)", fixtureRoot, err)
	}
	var out []fixtureTable
	for _, d := range dirs {
		raw, err := os.ReadFile(filepath.Join(d, "schema", "schema-0"))
		if err != nil {
			t.Fatalf("read schema of %s: %v", d, err)
		}
		var s struct {
			Fields []struct {
				Name string          `json:"name"`
				Type json.RawMessage `json:"type"`
			} `json:"fields"`
			PartitionKeys []string          `json:"partitionKeys"`
			Options       map[string]string `json:"options"`
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("parse schema of %s: %v", d, err)
		}
		ft := fixtureTable{dir: d, partitionKeys: s.PartitionKeys, avro: s.Options["manifest.format"] != "orc"}
		for _, k := range s.PartitionKeys {
			typ := ""
			for _, f := range s.Fields {
				if f.Name == k {
					_ = json.Unmarshal(f.Type, &typ) // partition keys have atomic types: a JSON string
				}
			}
			ft.partitionTypes = append(ft.partitionTypes, strings.TrimSuffix(typ, " NOT NULL"))
		}
		out = append(out, ft)
	}
	return out
}

// metaFiles lists a table's manifest directory by kind.
func (ft fixtureTable) metaFiles(t testing.TB, prefix string) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join(ft.dir, "manifest", prefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range all {
		base := filepath.Base(p)
		if prefix == "manifest-" && strings.HasPrefix(base, "manifest-list-") {
			continue
		}
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func open(t testing.TB, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func fileSize(t testing.TB, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatalf("stat %s: %v", path, err)
	}
	return st.Size()
}

// partitionPath renders a partition row as Java's directory path "k1=v1/k2=v2". Test-only: a
// tiny BinaryRow decoder for the INT and STRING partition keys of the fixtures; a null value is
// Java's default partition name.
func partitionPath(keys, types []string, row []byte) (string, error) {
	if len(row) < 4 {
		return "", fmt.Errorf("short partition row")
	}
	arity := int(binary.BigEndian.Uint32(row))
	if arity != len(keys) {
		return "", fmt.Errorf("partition arity %d, table has %d partition keys", arity, len(keys))
	}
	body := row[4:]
	nullBits := (arity + 63 + 8) / 64 * 8
	var parts []string
	for i, k := range keys {
		off := nullBits + 8*i
		if off+8 > len(body) {
			return "", fmt.Errorf("short partition row")
		}
		if body[(i+8)/8]&(1<<((i+8)%8)) != 0 {
			parts = append(parts, k+"=__DEFAULT_PARTITION__")
			continue
		}
		switch types[i] {
		case "INT":
			parts = append(parts, fmt.Sprintf("%s=%d", k, int32(binary.LittleEndian.Uint32(body[off:]))))
		case "STRING":
			slot := binary.LittleEndian.Uint64(body[off:])
			var s []byte
			if slot>>63 == 1 { // inline: length in the top byte, bytes at the start of the slot
				s = body[off : off+int(slot>>56&0x7f)]
			} else if start, n := int(slot>>32), int(slot&0xffffffff); start+n <= len(body) {
				s = body[start : start+n]
			} else {
				return "", fmt.Errorf("string partition value outside the row")
			}
			parts = append(parts, k+"="+string(s))
		default:
			return "", fmt.Errorf("partition key %s of type %s", k, types[i])
		}
	}
	return filepath.Join(parts...), nil
}

func bucketDir(ft fixtureTable, partition []byte, bucket int32) (string, error) {
	p, err := partitionPath(ft.partitionKeys, ft.partitionTypes, partition)
	if err != nil {
		return "", err
	}
	return filepath.Join(ft.dir, p, fmt.Sprintf("bucket-%d", bucket)), nil
}

func ptr[T any](v T) *T { return &v }

func mustParse(t testing.TB, schema string) avro.Schema {
	t.Helper()
	s, err := avro.Parse(schema)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
