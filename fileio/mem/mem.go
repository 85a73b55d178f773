// Package mem is an in-memory fileio.FileIO for fast tests.
//
// Invariants: it follows the local backend's semantics — files appear whole on Writer.Close,
// WriteIfAbsent is atomic (one mutex guards the whole tree), parent directories are created on
// write and exist until deleted, List is sorted and a missing dir lists empty. Stored bytes are
// never mutated after publish, so open Files keep reading the version they opened. Safe for
// concurrent use. Paths are slash-separated; a "scheme://" prefix is kept verbatim and the rest
// is cleaned, so "/a//b/" and "/a/b" name the same file.
package mem

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/lakeload/lakeload/fileio"
)

// FS is an in-memory file tree. Use New.
type FS struct {
	mu    sync.RWMutex
	files map[string]node      // key: normalized path
	dirs  map[string]time.Time // key: normalized path → creation time
}

type node struct {
	data []byte // immutable once stored
	mod  time.Time
}

// New returns an empty in-memory file system.
func New() *FS {
	return &FS{files: map[string]node{}, dirs: map[string]time.Time{}}
}

var _ fileio.FileIO = (*FS)(nil)

var (
	errIsDir    = errors.New("is a directory")
	errNotDir   = errors.New("not a directory")
	errNotEmpty = errors.New("directory not empty")
	errEmpty    = errors.New("empty path")
)

// pathErr builds an error naming the path as the caller spelled it.
func pathErr(op, p string, err error) error {
	return fmt.Errorf("fileio/mem: %w", &fs.PathError{Op: op, Path: p, Err: err})
}

// key normalizes p: a "scheme://" prefix is kept, the rest is cleaned.
func key(ctx context.Context, op, p string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", pathErr(op, p, err)
	}
	if p == "" {
		return "", pathErr(op, p, errEmpty)
	}
	prefix, rest := split(p)
	return prefix + path.Clean(rest), nil
}

func split(p string) (prefix, rest string) {
	if i := strings.Index(p, "://"); i > 0 {
		return p[:i+3], p[i+3:]
	}
	return "", p
}

// parent returns the parent key of k and false when k is a root ("/", "." or a bare bucket).
func parent(k string) (string, bool) {
	prefix, rest := split(k)
	d := path.Dir(rest)
	if d == rest {
		return "", false
	}
	return prefix + d, true
}

// isDirLocked reports whether k is a directory (explicit or a root).
func (m *FS) isDirLocked(k string) bool {
	if _, ok := m.dirs[k]; ok {
		return true
	}
	_, hasParent := parent(k)
	return !hasParent
}

// Open opens a file for reading; the File reads the content as of Open.
func (m *FS) Open(ctx context.Context, p string) (fileio.File, error) {
	data, err := m.get(ctx, "open", p)
	if err != nil {
		return nil, err
	}
	return &file{r: bytes.NewReader(data), path: p}, nil
}

// ReadFile returns a copy of a file's content.
func (m *FS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	data, err := m.get(ctx, "read", p)
	if err != nil {
		return nil, err
	}
	return bytes.Clone(data), nil
}

func (m *FS) get(ctx context.Context, op, p string) ([]byte, error) {
	k, err := key(ctx, op, p)
	if err != nil {
		return nil, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if n, ok := m.files[k]; ok {
		if n.data == nil {
			return []byte{}, nil
		}
		return n.data, nil
	}
	if m.isDirLocked(k) {
		return nil, pathErr(op, p, errIsDir)
	}
	return nil, pathErr(op, p, fs.ErrNotExist)
}

// Create starts writing p; the content becomes visible only on Close, replacing any file.
func (m *FS) Create(ctx context.Context, p string) (fileio.Writer, error) {
	k, err := key(ctx, "create", p)
	if err != nil {
		return nil, err
	}
	return &writer{fs: m, key: k, path: p}, nil
}

// WriteIfAbsent stores data at p unless a file or directory exists there.
func (m *FS) WriteIfAbsent(ctx context.Context, p string, data []byte) error {
	k, err := key(ctx, "write-if-absent", p)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.files[k]; ok || m.isDirLocked(k) {
		return pathErr("write-if-absent", p, fileio.ErrExist)
	}
	return m.putLocked("write-if-absent", p, k, bytes.Clone(data))
}

// putLocked stores data at k after creating the parent directories.
func (m *FS) putLocked(op, p, k string, data []byte) error {
	if m.isDirLocked(k) {
		return pathErr(op, p, errIsDir)
	}
	var missing []string
	for d, ok := parent(k); ok; d, ok = parent(d) {
		if _, isFile := m.files[d]; isFile {
			return pathErr(op, p, fmt.Errorf("parent %s: %w", d, errNotDir))
		}
		if m.isDirLocked(d) {
			break
		}
		missing = append(missing, d)
	}
	now := time.Now()
	for _, d := range missing {
		m.dirs[d] = now
	}
	m.files[k] = node{data: data, mod: now}
	return nil
}

// Stat describes a file or directory.
func (m *FS) Stat(ctx context.Context, p string) (fileio.FileInfo, error) {
	k, err := key(ctx, "stat", p)
	if err != nil {
		return fileio.FileInfo{}, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	fi, ok := m.infoLocked(k, strings.TrimRight(p, "/"))
	if !ok {
		return fileio.FileInfo{}, pathErr("stat", p, fs.ErrNotExist)
	}
	return fi, nil
}

func (m *FS) infoLocked(k, p string) (fileio.FileInfo, bool) {
	if p == "" {
		p = "/"
	}
	_, rest := split(k)
	name := path.Base(rest)
	if n, ok := m.files[k]; ok {
		return fileio.FileInfo{Path: p, Name: name, Size: int64(len(n.data)), ModTime: n.mod}, true
	}
	if m.isDirLocked(k) {
		return fileio.FileInfo{Path: p, Name: name, ModTime: m.dirs[k], IsDir: true}, true
	}
	return fileio.FileInfo{}, false
}

// List returns the direct children of dir sorted by name; a missing dir lists empty.
func (m *FS) List(ctx context.Context, dir string) ([]fileio.FileInfo, error) {
	k, err := key(ctx, "list", dir)
	if err != nil {
		return nil, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if _, isFile := m.files[k]; isFile {
		return nil, pathErr("list", dir, errNotDir)
	}
	base := strings.TrimRight(dir, "/")
	var out []fileio.FileInfo
	add := func(child string) {
		if pk, ok := parent(child); ok && pk == k {
			_, rest := split(child)
			fi, _ := m.infoLocked(child, fileio.Join(base, path.Base(rest)))
			if base == "" {
				fi.Path = "/" + fi.Name
			}
			out = append(out, fi)
		}
	}
	for c := range m.files {
		add(c)
	}
	for c := range m.dirs {
		add(c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Delete removes a file or an empty directory; a missing path is not an error.
func (m *FS) Delete(ctx context.Context, p string) error {
	k, err := key(ctx, "delete", p)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.files[k]; ok {
		delete(m.files, k)
		return nil
	}
	if _, ok := m.dirs[k]; !ok {
		if m.isDirLocked(k) {
			return pathErr("delete", p, errors.New("cannot delete a root"))
		}
		return nil
	}
	if m.hasChildrenLocked(k) {
		return pathErr("delete", p, errNotEmpty)
	}
	delete(m.dirs, k)
	return nil
}

func (m *FS) hasChildrenLocked(k string) bool {
	for c := range m.files {
		if pk, ok := parent(c); ok && pk == k {
			return true
		}
	}
	for c := range m.dirs {
		if pk, ok := parent(c); ok && pk == k {
			return true
		}
	}
	return false
}

// DeleteAll removes p and everything below it; a missing path is not an error.
func (m *FS) DeleteAll(ctx context.Context, p string) error {
	k, err := key(ctx, "delete-all", p)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, hasParent := parent(k); !hasParent {
		return pathErr("delete-all", p, errors.New("refusing to delete a root"))
	}
	below := k + "/"
	for c := range m.files {
		if c == k || strings.HasPrefix(c, below) {
			delete(m.files, c)
		}
	}
	for c := range m.dirs {
		if c == k || strings.HasPrefix(c, below) {
			delete(m.dirs, c)
		}
	}
	return nil
}
