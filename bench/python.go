package bench

import (
	"bytes"
	"fmt"
	"os/exec"
	"sync"

	"github.com/lakeload/lakeload/internal/oracle"
)

// findPython returns a Python with pypaimon and pyarrow, looked up as internal/oracle does (oracle.Python,
// the repository root being the parent of the bench directory).
var findPython = sync.OnceValues(func() (string, error) {
	py, err := oracle.Python("..")
	if err != nil {
		return "", err
	}
	if out, err := exec.Command(py, "-c", "import pypaimon, pyarrow.parquet").CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s cannot import pypaimon: %v: %s", py, err, bytes.TrimSpace(out))
	}
	return py, nil
})
