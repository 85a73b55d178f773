package index

import (
	"fmt"

	"github.com/lakeload/lakeload/paimon/spec"
)

// Option keys of dynamic-bucket tables (Java CoreOptions).
const (
	OptTargetRowNum = spec.OptDynamicBucketTargetRowNum
	OptMaxBuckets   = spec.OptDynamicBucketMaxBuckets
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
	rows, err := o.DynamicBucketTargetRowNum()
	if err != nil || rows <= 0 {
		v, _ := o.Get(OptTargetRowNum)
		return Options{}, fmt.Errorf("option %s=%q is not a positive integer; set it to the number of keys per bucket (default 2000000)", OptTargetRowNum, v)
	}
	maxBuckets, err := o.DynamicBucketMaxBuckets()
	if err != nil || maxBuckets == 0 || maxBuckets < -1 || maxBuckets > javaShortMax {
		v, _ := o.Get(OptMaxBuckets)
		return Options{}, fmt.Errorf("option %s=%q must be -1 (unbounded) or a bucket count from 1 to %d", OptMaxBuckets, v, javaShortMax)
	}
	return Options{TargetRows: rows, MaxBuckets: maxBuckets}, nil
}
