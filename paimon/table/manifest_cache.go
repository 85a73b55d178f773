package table

import (
	"context"
	"sync"
	"time"

	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// Manifest files are immutable (each has a new, unique name), yet LiveFiles decodes every manifest
// of a snapshot, and the loader asks for the live files before every window: without a cache a long
// load decodes its whole table again per window. manifestCache keeps decoded entries by path.
//
// An entry is served only while the file has the size and modification time it was decoded with,
// and only files modified at least racyAge before they were read are cached, so that a file changed
// in place (never done by Paimon; tests that damage files do) is read again even where timestamps
// are coarse. Cached entries are shared with callers, who treat them as read-only.
var manifestCache = &entryCache{}

const (
	racyAge         = time.Second // younger files are not cached (coarse timestamps)
	maxCacheEntries = 1 << 20     // manifest entries kept at most; the cache starts over beyond
)

type entryCache struct {
	mu      sync.Mutex
	m       map[string]cachedManifest
	entries int
}

type cachedManifest struct {
	size    int64
	mod     time.Time
	entries []manifest.ManifestEntry
}

// readManifestCached is ReadManifest served from manifestCache when the file is unchanged.
func (t *Table) readManifestCached(ctx context.Context, name string) ([]manifest.ManifestEntry, error) {
	path, err := t.MetaFile(DirManifest, name, "a manifest list's manifest name")
	if err != nil {
		return nil, err
	}
	fi, err := t.FS.Stat(ctx, path)
	if err != nil || fi.ModTime.IsZero() {
		return t.ReadManifest(ctx, name) // reports the error, or reads a backend without times
	}
	c := manifestCache
	c.mu.Lock()
	got, ok := c.m[path]
	c.mu.Unlock()
	if ok && got.size == fi.Size && got.mod.Equal(fi.ModTime) {
		return got.entries, nil
	}
	readAt := time.Now()
	es, err := t.ReadManifest(ctx, name)
	if err != nil || readAt.Sub(fi.ModTime) < racyAge {
		return es, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || c.entries+len(es) > maxCacheEntries {
		c.m, c.entries = make(map[string]cachedManifest), 0
	}
	if old, ok := c.m[path]; ok {
		c.entries -= len(old.entries)
	}
	c.m[path] = cachedManifest{size: fi.Size, mod: fi.ModTime, entries: es}
	c.entries += len(es)
	return es, nil
}
