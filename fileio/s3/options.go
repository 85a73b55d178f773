package s3

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/lakeload/lakeload/fileio"
)

// Defaults and limits of Options.
const (
	DefaultRegion             = "us-east-1"
	DefaultPartSize           = 8 << 20  // bytes per multipart part
	MinPartSize               = 5 << 20  // S3's minimum for every part but the last
	DefaultMultipartThreshold = 64 << 20 // WriteIfAbsent uses multipart above this
	DefaultMaxAttempts        = 8
	defaultMaxBackoff         = 10 * time.Second
	deleteBatch               = 1000 // keys per DeleteObjects request (the S3 maximum)
)

// Environment variables read by FromEnv besides the standard AWS ones (credentials chain,
// AWS_REGION, AWS_PROFILE, AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_S3, ...).
const (
	EnvPathStyle   = "LAKELOAD_S3_PATH_STYLE"   // true/false; default true when an endpoint is set
	EnvPartSizeMB  = "LAKELOAD_S3_PART_SIZE_MB" // multipart part size in MiB (≥ 5)
	EnvMaxAttempts = "LAKELOAD_S3_MAX_ATTEMPTS" // attempts per request incl. the first (≥ 1)
)

// Options configures an FS. The zero value means: standard AWS credentials chain and region (us-east-1
// when none is configured), AWS endpoints, defaults above.
type Options struct {
	Region    string // overrides the configured region
	Endpoint  string // base URL of an S3-compatible store, e.g. http://127.0.0.1:7070
	PathStyle bool   // address buckets as endpoint/bucket/key instead of bucket.endpoint/key

	PartSize           int64 // multipart part size for Create and large WriteIfAbsent (≥ MinPartSize)
	MultipartThreshold int64 // WriteIfAbsent data larger than this goes through multipart
	MaxAttempts        int   // attempts per request, including the first

	// Credentials replaces the standard chain (tests use static keys).
	Credentials aws.CredentialsProvider
	// HTTPClient replaces the SDK's HTTP client (tests inject faults with it).
	HTTPClient aws.HTTPClient
	// OmitIfNoneMatch is for tests only: WriteIfAbsent then does a HEAD followed by an
	// unconditional PUT (check-then-put), the broken protocol the race tests must catch.
	OmitIfNoneMatch bool
}

// FS is the S3 backend; one FS serves every bucket its credentials reach. Safe for concurrent use.
type FS struct {
	client    *s3.Client
	partSize  int64
	threshold int64
	omitCond  bool
}

// FromEnv builds an FS from the environment: the standard AWS configuration plus AWS_ENDPOINT_URL_S3
// or AWS_ENDPOINT_URL (which switch to path-style addressing unless LAKELOAD_S3_PATH_STYLE=false),
// LAKELOAD_S3_PATH_STYLE, LAKELOAD_S3_PART_SIZE_MB and LAKELOAD_S3_MAX_ATTEMPTS.
func FromEnv() (*FS, error) {
	o, err := EnvOptions()
	if err != nil {
		return nil, err
	}
	return New(context.Background(), o)
}

// EnvOptions returns the Options FromEnv uses (the standard AWS variables are read later, by New).
func EnvOptions() (Options, error) {
	var o Options
	o.Endpoint = firstEnv("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL")
	if err := checkEndpoint(o.Endpoint); err != nil {
		return o, err
	}
	o.PathStyle = o.Endpoint != ""
	if v := os.Getenv(EnvPathStyle); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return o, fmt.Errorf("fileio/s3: %s=%q: use true or false", EnvPathStyle, v)
		}
		o.PathStyle = b
	}
	if v := os.Getenv(EnvPartSizeMB); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < MinPartSize>>20 || n > 5<<10 {
			return o, fmt.Errorf("fileio/s3: %s=%q: use a whole number of MiB from 5 to 5120", EnvPartSizeMB, v)
		}
		o.PartSize = n << 20
	}
	if v := os.Getenv(EnvMaxAttempts); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return o, fmt.Errorf("fileio/s3: %s=%q: use a number of attempts from 1 to 100", EnvMaxAttempts, v)
		}
		o.MaxAttempts = n
	}
	return o, nil
}

// checkEndpoint refuses an endpoint URL carrying user info, a query or a fragment: the SDK cannot use
// them (credentials come from the chain), and they are where tokens hide, so the message shows the
// URL redacted.
func checkEndpoint(e string) error {
	if e == "" {
		return nil
	}
	u, err := url.Parse(e)
	if err != nil || u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.Host == "" ||
		(u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("fileio/s3: endpoint %q (AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL): use http(s)://host[:port][/path] "+
			"without user info or query; credentials come from the AWS credential chain (AWS_ACCESS_KEY_ID and "+
			"AWS_SECRET_ACCESS_KEY, AWS_PROFILE, a role)", fileio.RedactText(e))
	}
	return nil
}

func firstEnv(names ...string) string {
	for _, n := range names {
		if v := strings.TrimSpace(os.Getenv(n)); v != "" {
			return v
		}
	}
	return ""
}

// New builds an FS with the standard AWS configuration chain overridden by o.
func New(ctx context.Context, o Options) (*FS, error) {
	if o.PartSize == 0 {
		o.PartSize = DefaultPartSize
	}
	if o.PartSize < MinPartSize {
		return nil, fmt.Errorf("fileio/s3: part size %d bytes is below the S3 minimum of %d", o.PartSize, MinPartSize)
	}
	if o.MultipartThreshold == 0 {
		o.MultipartThreshold = DefaultMultipartThreshold
	}
	if o.MaxAttempts == 0 {
		o.MaxAttempts = DefaultMaxAttempts
	}
	var loadOpts []func(*config.LoadOptions) error
	if o.Region != "" {
		loadOpts = append(loadOpts, config.WithRegion(o.Region))
	}
	if o.Credentials != nil {
		loadOpts = append(loadOpts, config.WithCredentialsProvider(o.Credentials))
	}
	maxAttempts := o.MaxAttempts
	loadOpts = append(loadOpts, config.WithRetryer(func() aws.Retryer {
		return retry.NewStandard(func(so *retry.StandardOptions) {
			so.MaxAttempts = maxAttempts
			so.MaxBackoff = defaultMaxBackoff // exponential backoff with full jitter up to this
			so.RateLimiter = ratelimit.None   // a long load must not fail on a drained retry quota
			// S3 answers 409 ConditionalRequestConflict while a concurrent conditional write to the
			// same key is in flight; a retry then gets the decided outcome (200 or 412).
			so.Retryables = append([]retry.IsErrorRetryable{retry.IsErrorRetryableFunc(func(err error) aws.Ternary {
				if code, _ := errorCode(err); code == "ConditionalRequestConflict" {
					return aws.TrueTernary
				}
				return aws.UnknownTernary
			})}, so.Retryables...)
		})
	}))
	cfg, err := config.LoadDefaultConfig(ctx, loadOpts...)
	if err != nil {
		return nil, fmt.Errorf("fileio/s3: loading AWS configuration: %w", fileio.RedactErr(err))
	}
	if cfg.Region == "" {
		cfg.Region = DefaultRegion
	}
	client := s3.NewFromConfig(cfg, func(so *s3.Options) {
		if o.Endpoint != "" {
			so.BaseEndpoint = aws.String(o.Endpoint)
			// S3-compatible stores rarely support the newest default integrity checksums
			// (aws-chunked trailers); send them only where the API requires one.
			if os.Getenv("AWS_REQUEST_CHECKSUM_CALCULATION") == "" {
				so.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
			}
			if os.Getenv("AWS_RESPONSE_CHECKSUM_VALIDATION") == "" {
				so.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
			}
		}
		so.UsePathStyle = o.PathStyle
		if o.HTTPClient != nil {
			so.HTTPClient = o.HTTPClient
		}
	})
	return &FS{client: client, partSize: o.PartSize, threshold: o.MultipartThreshold, omitCond: o.OmitIfNoneMatch}, nil
}

var _ fileio.FileIO = (*FS)(nil)
