package checkpoint

import (
	"sync"
	"time"

	"github.com/lakeload/lakeload/fileio"
)

// recordCache keeps the decoded records a Store has read, so that loading the store again (the job
// loads it several times per window) decodes only the records written since, instead of every record
// of every window: a long job would otherwise spend time quadratic in its number of windows.
//
// Records are write-once (S1), so the content at a path never changes while the file exists. A
// record is served from the cache only when the path is listed again with the same size and
// modification time; a deleted record is not listed and so not served, and a record re-created
// (e.g. after a store was removed and rebuilt) differs in modification time or size and is read
// again; records modified less than racyAge before they were read are not cached, so that this holds
// where timestamps are coarse (a record damaged in place within the same tick). Torn or corrupt files are never cached: only records that decoded and belong to their path
// are. Cached values are shared between the States built from them and must be treated as read-only
// (every State is).
type recordCache struct {
	mu sync.Mutex
	m  map[string]cachedRecord
}

// racyAge is how old (by modification time) a record must be when read to be cached.
const racyAge = time.Second

type cachedRecord struct {
	size    int64
	mod     time.Time
	v       any
	checked bool // a TaskResult whose digest matched its content
}

// get returns the record cached for e, if e still has the size and modification time it was read with.
func (c *recordCache) get(e fileio.FileInfo) (cachedRecord, bool) {
	if c == nil || e.ModTime.IsZero() {
		return cachedRecord{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[e.Path]
	if !ok || r.size != e.Size || !r.mod.Equal(e.ModTime) {
		return cachedRecord{}, false
	}
	return r, true
}

// put caches v, decoded from the file e lists at time readAt; checked: v is a TaskResult whose
// digest matched.
func (c *recordCache) put(e fileio.FileInfo, readAt time.Time, v any, checked bool) {
	if c == nil || e.ModTime.IsZero() || readAt.Sub(e.ModTime) < racyAge {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string]cachedRecord)
	}
	c.m[e.Path] = cachedRecord{size: e.Size, mod: e.ModTime, v: v, checked: checked}
}

// resultKey names a task result and the digest it was checked with.
type resultKey struct {
	window  int64
	attempt int
	task    string
	digest  string
}

func keyOf(r TaskResult) resultKey {
	return resultKey{window: r.Window, attempt: r.Attempt, task: r.TaskID, digest: r.Digest}
}
