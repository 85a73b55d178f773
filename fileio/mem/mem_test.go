package mem_test

import (
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/fiotest"
	"github.com/lakeload/lakeload/fileio/mem"
)

func TestConformance(t *testing.T) {
	fiotest.Run(t, func(t *testing.T) (fileio.FileIO, string) { return mem.New(), "/warehouse" })
}

func TestConformanceWithScheme(t *testing.T) {
	fiotest.Run(t, func(t *testing.T) (fileio.FileIO, string) { return mem.New(), "s3://bucket/wh" })
}

func TestConformanceAtRoot(t *testing.T) {
	fiotest.Run(t, func(t *testing.T) (fileio.FileIO, string) { return mem.New(), "/" })
}
