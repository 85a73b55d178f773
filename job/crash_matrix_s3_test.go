package job

import (
	"os"
	"testing"

	"github.com/lakeload/lakeload/internal/s3test"
)

// TestCrashPointMatrixS3 is TestCrashPointMatrix with the warehouse and the checkpoint store on S3
// (versitygw): every commit publishes snapshot-N with a conditional PUT, every store record is a
// conditional PUT, and the resume must find and finish what the crash left. In `go test` it runs
// the points around the commit and publish (before-commit … after-publish and recovery-action) in
// the middle window of the deduplicate table ("current"), whose upserts and deletes make a lost or doubled
// window visible; LAKELOAD_S3_MATRIX=full (`make sweep S3=1`) runs the whole matrix.
func TestCrashPointMatrixS3(t *testing.T) {
	srv := s3test.Start(t)
	var keep func(fx, point, which string) bool
	if os.Getenv("LAKELOAD_S3_MATRIX") != "full" {
		keep = func(fx, point, which string) bool {
			switch point {
			case PointBeforeCommit, PointInsideCommit, pointLatest, PointAfterCommit, PointBeforePublish,
				PointAfterPublish, PointRecoveryAction:
				return fx == "current" && which == "middle"
			}
			return false
		}
	}
	crashPointMatrix(t, s3LoadEnvs(srv), keep)
}
