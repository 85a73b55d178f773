package s3

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/lakeload/lakeload/fileio"
)

// Stat describes an object, or a directory (a prefix with at least one key under it).
// FileInfo.Path is path as given without trailing slashes.
func (s *FS) Stat(ctx context.Context, path string) (fileio.FileInfo, error) {
	loc, err := s.loc(ctx, path)
	if err != nil {
		return fileio.FileInfo{}, err
	}
	p := strings.TrimRight(path, "/")
	if loc.key == "" {
		if _, err := s.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: &loc.bucket}); err != nil {
			return fileio.FileInfo{}, opError(ctx, "stat", loc, err)
		}
		return fileio.FileInfo{Path: p, Name: loc.name(), IsDir: true}, nil
	}
	head, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &loc.bucket, Key: &loc.key})
	if err == nil {
		return fileio.FileInfo{Path: p, Name: loc.name(), Size: aws.ToInt64(head.ContentLength), ModTime: aws.ToTime(head.LastModified)}, nil
	}
	if !isNotFound(err) {
		return fileio.FileInfo{}, opError(ctx, "stat", loc, err)
	}
	isDir, err := s.hasChildren(ctx, "stat", loc)
	if err != nil {
		return fileio.FileInfo{}, err
	}
	if !isDir {
		return fileio.FileInfo{}, notExistError("stat", loc)
	}
	return fileio.FileInfo{Path: p, Name: loc.name(), IsDir: true}, nil
}

// hasChildren reports whether any key (a "dir/" marker included) lies under loc's prefix.
func (s *FS) hasChildren(ctx context.Context, op string, loc location) (bool, error) {
	out, err := s.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{
		Bucket: &loc.bucket, Prefix: aws.String(loc.dirPrefix()), MaxKeys: aws.Int32(1),
	})
	if err != nil {
		return false, opError(ctx, op, loc, err)
	}
	return len(out.Contents) > 0 || len(out.CommonPrefixes) > 0, nil
}

// List returns the direct children of dir sorted by name, paging through ListObjectsV2 with
// delimiter "/". Sub-prefixes are directories. A missing dir lists empty; an object is an error.
func (s *FS) List(ctx context.Context, dir string) ([]fileio.FileInfo, error) {
	loc, err := s.loc(ctx, dir)
	if err != nil {
		return nil, err
	}
	base := strings.TrimRight(dir, "/")
	prefix := loc.dirPrefix()
	var out []fileio.FileInfo
	pages := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{
		Bucket: &loc.bucket, Prefix: aws.String(prefix), Delimiter: aws.String("/"),
	})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, opError(ctx, "list", loc, err)
		}
		for _, o := range page.Contents {
			k := aws.ToString(o.Key)
			name := strings.TrimPrefix(k, prefix)
			if name == "" {
				continue // the directory's own "dir/" marker
			}
			out = append(out, fileio.FileInfo{Path: fileio.Join(base, name), Name: name, Size: aws.ToInt64(o.Size), ModTime: aws.ToTime(o.LastModified)})
		}
		for _, cp := range page.CommonPrefixes {
			name := strings.TrimSuffix(strings.TrimPrefix(aws.ToString(cp.Prefix), prefix), "/")
			if name == "" {
				continue
			}
			out = append(out, fileio.FileInfo{Path: fileio.Join(base, name), Name: name, IsDir: true})
		}
	}
	if len(out) == 0 && loc.key != "" {
		if _, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &loc.bucket, Key: &loc.key}); err == nil {
			return nil, fmt.Errorf("fileio/s3: list %s: is an object, not a directory", loc)
		} else if !isNotFound(err) {
			return nil, opError(ctx, "list", loc, err)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Delete removes an object; a directory only when nothing lies under it (then only its "dir/"
// marker, if any, is removed). A missing path is not an error.
func (s *FS) Delete(ctx context.Context, path string) error {
	loc, err := s.loc(ctx, path)
	if err != nil {
		return err
	}
	if loc.key == "" {
		return fmt.Errorf("fileio/s3: delete %s: refusing to delete a bucket", loc)
	}
	out, err := s.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{
		Bucket: &loc.bucket, Prefix: aws.String(loc.dirPrefix()), MaxKeys: aws.Int32(2),
	})
	if err != nil {
		return opError(ctx, "delete", loc, err)
	}
	for _, o := range out.Contents {
		if k := aws.ToString(o.Key); k != loc.dirPrefix() {
			return fmt.Errorf("fileio/s3: delete %s: directory not empty (holds %s): use DeleteAll", loc, loc.child(k))
		}
		if err := s.deleteKey(ctx, loc, loc.dirPrefix()); err != nil {
			return err
		}
	}
	return s.deleteKey(ctx, loc, loc.key)
}

func (s *FS) deleteKey(ctx context.Context, loc location, key string) error {
	_, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &loc.bucket, Key: &key})
	if err != nil && !isNotFound(err) {
		return opError(ctx, "delete", loc.child(key), err)
	}
	return nil
}

// DeleteAll removes an object and every key under its prefix, in DeleteObjects batches of up to
// 1000 keys. Siblings sharing a name prefix ("t2" next to "t") are untouched. A missing path is not
// an error; a bucket root is refused.
func (s *FS) DeleteAll(ctx context.Context, path string) error {
	loc, err := s.loc(ctx, path)
	if err != nil {
		return err
	}
	if loc.key == "" {
		return fmt.Errorf("fileio/s3: delete-all %s: refusing to delete a whole bucket", loc)
	}
	pages := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: &loc.bucket, Prefix: aws.String(loc.dirPrefix())})
	var batch []types.ObjectIdentifier
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		out, err := s.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{
			Bucket: &loc.bucket, Delete: &types.Delete{Objects: batch, Quiet: aws.Bool(true)},
		})
		if err != nil {
			return opError(ctx, "delete-all", loc, err)
		}
		for _, e := range out.Errors {
			if aws.ToString(e.Code) != "NoSuchKey" {
				return fmt.Errorf("fileio/s3: delete-all %s: deleting %s: %s: %s", loc, loc.child(aws.ToString(e.Key)), aws.ToString(e.Code), aws.ToString(e.Message))
			}
		}
		batch = batch[:0]
		return nil
	}
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return opError(ctx, "delete-all", loc, err)
		}
		for _, o := range page.Contents {
			batch = append(batch, types.ObjectIdentifier{Key: o.Key})
			if len(batch) == deleteBatch {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	return s.deleteKey(ctx, loc, loc.key)
}
