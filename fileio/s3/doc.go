// Package s3 implements fileio.FileIO on Amazon S3 and S3-compatible object stores for
// s3://bucket/key (and s3a://) locations, on aws-sdk-go-v2. Importing it registers the schemes with
// fileio.Open.
//
// Invariants:
//   - WriteIfAbsent is a conditional create: PutObject with If-None-Match: * (or, above
//     Options.MultipartThreshold, a multipart upload whose CompleteMultipartUpload carries
//     If-None-Match: *). The store decides atomically; there is no check-then-put. A 412 is the
//     loser's fileio.ErrExist.
//   - A conditional request the SDK retried (its first response was lost) may get 412 although our
//     own first attempt landed. Only then is the object read back: equal bytes mean we won, other
//     bytes mean another writer did (ErrExist). A 412 on the first attempt is never read back.
//   - Create never exposes a partial object: small files are one PutObject on Close, larger ones a
//     multipart upload completed on Close (Abort aborts it). Memory is bounded by one part.
//   - Directories are key prefixes ending in "/": they exist while a key lies under them, no marker
//     objects are written, and a "dir/" marker written by other tools is treated as the directory.
//     Unlike a POSIX file system, a key and a prefix of the same name may coexist; callers never rely
//     on that (the conformance suite runs with fiotest.Options.FlatNamespace).
//   - Errors name the operation and s3://bucket/key, never credentials; not-found wraps
//     fileio.ErrNotExist and a failed precondition fileio.ErrExist.
//   - Transient failures (throttling, 5xx, connection errors) are retried by the SDK's standard
//     retryer with exponential backoff and jitter, Options.MaxAttempts attempts in all.
package s3
