package checkpoint

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// compatStores are the checkpoint stores of the worlds job/testdata/compat-v1 holds, written by the
// lakeload of commit bd40d28, when splits and commit messages were typed fields of the records
// (job's TestStoresOfEarlierLakeloadResume resumes them).
const compatStores = "../job/testdata/compat-v1/*/tree/ckpt/compat"

// recordOf returns the kind and an empty record of the file at rel (a path inside a store).
func recordOf(rel string) (string, any) {
	base := filepath.Base(rel)
	switch {
	case rel == jobFile:
		return kindJob, new(JobRecord)
	case rel == planFile:
		return kindPlan, new(PlanRecord)
	case rel == doneFile, strings.HasPrefix(rel, generationsDir+"/") && base == doneFile:
		return kindDone, new(DoneRecord)
	case strings.HasPrefix(rel, leaseDir+"/"):
		return kindLease, new(LeaseRecord)
	case strings.HasPrefix(rel, revisionDir+"/"):
		return kindRevision, new(PlanRevision)
	case strings.HasPrefix(rel, generationsDir+"/") && base == startFile:
		return kindGeneration, new(Generation)
	case base == assignedFile:
		return kindAssigned, new(Assigned)
	case base == committedFile:
		return kindCommitted, new(Committed)
	case base == publishedFile:
		return kindPublished, new(Published)
	case base == voidedFile:
		return kindVoided, new(Voided)
	case base == beginFile:
		return kindAttempt, new(AttemptStart)
	case strings.HasSuffix(base, resultSuffix):
		return kindResult, new(TaskResult)
	}
	return "", nil
}

// TestCompatStoresReencodeByteForByte: every record of the stores written before commit messages
// and splits became opaque decodes, and encodes again to the very bytes on disk (header, CRC and
// body), so a store written by either lakeload reads the same in both; the results' digests match.
func TestCompatStoresReencodeByteForByte(t *testing.T) {
	stores, err := filepath.Glob(compatStores)
	must(t, err)
	if len(stores) == 0 {
		t.Fatalf("no stores match %s", compatStores)
	}
	kinds := map[string]int{}
	for _, root := range stores {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
			kind, v := recordOf(rel)
			if v == nil {
				t.Fatalf("%s: not a record of a store", p)
			}
			data, err := os.ReadFile(p)
			must(t, err)
			if err := decodeRecord(p, kind, data, v); err != nil {
				t.Fatal(err)
			}
			again, err := encodeRecord(kind, deref1(v))
			must(t, err)
			if !bytes.Equal(again, data) {
				t.Fatalf("%s re-encodes differently:\n got %s\nwant %s", p, again, data)
			}
			if r, ok := v.(*TaskResult); ok {
				if d, err := ResultDigest(*r); err != nil || d != r.Digest {
					t.Fatalf("%s: digest %s, %v; the record has %s", p, d, err, r.Digest)
				}
			}
			kinds[kind]++
			return nil
		})
		must(t, err)
	}
	for _, k := range []string{kindJob, kindPlan, kindRevision, kindGeneration, kindDone, kindAssigned, kindResult, kindCommitted, kindPublished, kindLease} {
		if kinds[k] == 0 {
			t.Errorf("the stores hold no %s record", k)
		}
	}
	t.Logf("records re-encoded: %v", kinds)
}

// deref1 returns the record v points to (encodeRecord takes the value, as the Store writes it).
func deref1(v any) any {
	switch r := v.(type) {
	case *JobRecord:
		return *r
	case *PlanRecord:
		return *r
	case *DoneRecord:
		return *r
	case *LeaseRecord:
		return *r
	case *PlanRevision:
		return *r
	case *Generation:
		return *r
	case *Assigned:
		return *r
	case *Committed:
		return *r
	case *Published:
		return *r
	case *Voided:
		return *r
	case *AttemptStart:
		return *r
	case *TaskResult:
		return *r
	}
	panic("unknown record")
}
