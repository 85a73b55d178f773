package dv

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// TestJavaDeletionVectors reads every DV of the Java fixtures through index manifest → range →
// index file: CRCs and sizes verify, the data file exists in the entry's bucket directory, every
// deleted position lies inside the data file, and the cardinality matches the manifest (Java 1.x).
//
// For pk_table_scan_and_read_dv the README pins the positions: keys sort by (f0, f1, f2), so in
// bucket file d18e5571 (Alex, Bob, David, Emily, Tony) the deleted "Tony" is position 4, and in
// f19db350 ("Alice", "Two roads…") the updated "Alice" is position 0.
func TestJavaDeletionVectors(t *testing.T) {
	known := map[string]string{
		"data-d18e5571-abce-4309-ad4a-37f0bc93679f-0.parquet": "[4]",
		"data-f19db350-7c55-4686-8839-78d15aa17fc1-0.parquet": "[0]",
	}
	for _, r := range fixtureRanges(t) {
		if _, err := os.Stat(filepath.Join(r.bucketDir, r.meta.DataFileName)); err != nil {
			t.Errorf("DV names a missing data file: %v", err)
		}
		f, err := os.Open(r.indexFile)
		if err != nil {
			t.Fatal(err)
		}
		v, err := ReadDeletionVector(f, r.meta)
		f.Close()
		if err != nil {
			t.Fatalf("%s %+v: %v", r.indexFile, r.meta, err)
		}
		pos := positions(v, r.rowCount)
		if want, ok := known[r.meta.DataFileName]; ok {
			if got := fmt.Sprint(pos); got != want {
				t.Errorf("%s: deleted positions %s, README implies %s", r.meta.DataFileName, got, want)
			}
			delete(known, r.meta.DataFileName)
		}
		inside := int64(len(pos))
		if v.Cardinality() == 0 || inside != v.Cardinality() {
			t.Errorf("%s: %d deleted positions inside %d rows, cardinality %d", r.meta.DataFileName, inside, r.rowCount, v.Cardinality())
		}
	}
	if len(known) != 0 {
		t.Errorf("no DV found for %v", known)
	}
}

// TestWriterReproducesJavaFrames rewrites each Java index file's vectors with WriteIndexFile: each
// vector's frame (size, payload, CRC) must be byte-identical to Java's, and the file size equal.
func TestWriterReproducesJavaFrames(t *testing.T) {
	byFile := map[string][]dvRange{}
	for _, r := range fixtureRanges(t) {
		byFile[r.indexFile] = append(byFile[r.indexFile], r)
	}
	for path, ranges := range byFile {
		javaBytes, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		vectors := map[string]*roaring.Bitmap{}
		for _, r := range ranges {
			v, err := ReadDeletionVector(bytes.NewReader(javaBytes), r.meta)
			if err != nil {
				t.Fatal(err)
			}
			bm := roaring.New()
			for _, p := range positions(v, r.rowCount) {
				bm.Add(uint32(p))
			}
			vectors[r.meta.DataFileName] = bm
		}
		var buf bytes.Buffer
		metas, size, err := WriteIndexFile(&buf, vectors)
		if err != nil {
			t.Fatal(err)
		}
		if size != int64(len(javaBytes)) || size != int64(buf.Len()) {
			t.Errorf("%s: Java %d bytes, wrote %d (reported %d)", path, len(javaBytes), buf.Len(), size)
		}
		for _, m := range metas {
			for _, r := range ranges {
				if r.meta.DataFileName != m.DataFileName {
					continue
				}
				if m.Length != r.meta.Length {
					t.Errorf("%s: length %d, Java %d", m.DataFileName, m.Length, r.meta.Length)
					continue
				}
				n := 4 + int(m.Length) + 4
				ours := buf.Bytes()[m.Offset : int(m.Offset)+n]
				java := javaBytes[r.meta.Offset : int(r.meta.Offset)+n]
				if !bytes.Equal(ours, java) {
					t.Errorf("%s: frame %x, Java %x", m.DataFileName, ours, java)
				}
			}
		}
	}
}

// TestPyroaringReadsWrittenVectors has pyroaring (pypaimon's bitmap library) decode the payloads
// written by WriteIndexFile and compares the positions.
func TestPyroaringReadsWrittenVectors(t *testing.T) {
	const python = "/root/.cache/lakeload-venv/bin/python"
	if _, err := os.Stat(python); err != nil {
		t.Skipf("no pypaimon interpreter: %v", err)
	}
	vectors := sampleVectors()
	var buf bytes.Buffer
	metas, _, err := WriteIndexFile(&buf, vectors)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "index")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `
import sys, struct, zlib
from pyroaring import BitMap
data = open(sys.argv[1], 'rb').read()
assert data[0] == 1
for arg in sys.argv[2:]:
    off, length = map(int, arg.split(':'))
    size, magic = struct.unpack('>ii', data[off:off+8])
    assert size == length and magic == 1581511376
    payload = data[off+4:off+4+size]
    assert struct.unpack('>I', data[off+4+size:off+8+size])[0] == zlib.crc32(payload)
    print(','.join(map(str, BitMap.deserialize(payload[4:]))))
`
	args := []string{"-c", script, path}
	for _, m := range metas {
		args = append(args, strings.Join([]string{itoa(int64(m.Offset)), itoa(int64(m.Length))}, ":"))
	}
	out, err := exec.Command(python, args...).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("python: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(metas) {
		t.Fatalf("python printed %d lines for %d vectors", len(lines), len(metas))
	}
	for i, m := range metas {
		var want []string
		for _, p := range vectors[m.DataFileName].ToArray() {
			want = append(want, itoa(int64(p)))
		}
		if lines[i] != strings.Join(want, ",") {
			t.Errorf("%s: pyroaring read %.80s…, want %.80s…", m.DataFileName, lines[i], strings.Join(want, ","))
		}
	}
}
