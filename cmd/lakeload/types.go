package main

import (
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
)

type (
	anyFS   = fileio.FileIO
	schemaT = *spec.TableSchema
)
