package s3

import (
	"context"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go/middleware"
)

// attempts counts the HTTP attempts the SDK's retryer made for one operation, so a 412 can be told
// apart: on the first attempt it is a plain loss, after a retry our own earlier attempt may have
// landed.
type attempts struct{ n atomic.Int32 }

// option installs the counter right after the retry middleware, where it runs once per attempt.
func (a *attempts) option(o *s3.Options) {
	o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
		return st.Finalize.Insert(middleware.FinalizeMiddlewareFunc("LakeloadAttemptCounter",
			func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
				a.n.Add(1)
				return next.HandleFinalize(ctx, in)
			}), "Retry", middleware.After)
	})
}

// retried reports whether the operation needed more than one attempt.
func (a *attempts) retried() bool { return a.n.Load() > 1 }
