//go:build tools

// Package lakeload pins the module's dependencies until every package imports them.
package lakeload

import (
	_ "github.com/RoaringBitmap/roaring/v2"
	_ "github.com/apache/arrow-go/v18/parquet/pqarrow"
	_ "github.com/google/uuid"
	_ "github.com/hamba/avro/v2/ocf"
	_ "github.com/spf13/cobra"
	_ "golang.org/x/sys/unix"
)
