package index

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lakeload/lakeload/paimon/spec"
)

// Option keys of dynamic-bucket tables (Java CoreOptions).
const (
	OptTargetRowNum = "dynamic-bucket.target-row-num"
	OptMaxBuckets   = "dynamic-bucket.max-buckets"
)

// javaShortMax bounds bucket ids: Java keeps them in a short (Int2ShortHashMap).
const javaShortMax = 32767

// Options control dynamic bucket assignment.
type Options struct {
	// TargetRows is how many keys a bucket takes before the next bucket is opened
	// (dynamic-bucket.target-row-num, default 2,000,000).
	TargetRows int64
	// MaxBuckets caps the buckets of a partition (dynamic-bucket.max-buckets, default -1 = up to
	// 32767); once reached, new keys go to an existing bucket.
	MaxBuckets int
}

// OptionsOf reads the dynamic-bucket options of a table; an invalid value is an error naming the option.
func OptionsOf(o spec.CoreOptions) (Options, error) {
	out := Options{TargetRows: 2_000_000, MaxBuckets: -1}
	if v, ok := o.Get(OptTargetRowNum); ok {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n <= 0 {
			return out, fmt.Errorf("option %s=%q is not a positive integer; set it to the number of keys per bucket (default 2000000)", OptTargetRowNum, v)
		}
		out.TargetRows = n
	}
	if v, ok := o.Get(OptMaxBuckets); ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n == 0 || n < -1 || n > javaShortMax {
			return out, fmt.Errorf("option %s=%q must be -1 (unbounded) or a bucket count from 1 to %d", OptMaxBuckets, v, javaShortMax)
		}
		out.MaxBuckets = n
	}
	return out, nil
}
