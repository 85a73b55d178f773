package job

import "github.com/lakeload/lakeload/checkpoint"

var gatherTableView = checkpoint.Gather
