package binrow

import (
	"encoding/hex"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

func ty(root spec.TypeRoot) spec.DataType { return spec.DataType{Root: root, Nullable: true} }
func decT(p, s int) spec.DataType {
	return spec.DataType{Root: spec.Decimal, Nullable: true, Precision: p, Scale: s}
}
func tsT(p int) spec.DataType {
	return spec.DataType{Root: spec.Timestamp, Nullable: true, Precision: p}
}
func ltzT(p int) spec.DataType {
	return spec.DataType{Root: spec.TimestampLTZ, Nullable: true, Precision: p}
}
func strT() spec.DataType {
	return spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxLength}
}
func bytesT() spec.DataType {
	return spec.DataType{Root: spec.VarBinary, Nullable: true, Length: spec.MaxLength}
}

// dec returns a DecimalValue from a decimal integer string of the unscaled value.
func dec(t testing.TB, unscaled string) spec.DecimalValue {
	t.Helper()
	v, ok := new(big.Int).SetString(unscaled, 10)
	if !ok {
		t.Fatalf("bad unscaled decimal %q", unscaled)
	}
	return spec.DecimalValue{Unscaled: v}
}

// pow2 returns sign·2^k as a DecimalValue.
func pow2(sign int64, k uint) spec.DecimalValue {
	v := new(big.Int).Lsh(big.NewInt(1), k)
	return spec.DecimalValue{Unscaled: v.Mul(v, big.NewInt(sign))}
}

// unhex decodes hex ignoring spaces and '|'.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	s = strings.NewReplacer(" ", "", "|", "", "\n", "", "\t", "").Replace(s)
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// sameDatum is strict datum equality: floats by bits, everything else by Compare.
func sameDatum(t spec.DataType, a, b any) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	if a == nil {
		return true
	}
	switch x := a.(type) {
	case float32:
		y, ok := b.(float32)
		return ok && math.Float32bits(x) == math.Float32bits(y)
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	}
	return Compare(t, a, b) == 0
}

// sameRow reports the first differing field index, or -1.
func sameRow(types []spec.DataType, a, b []any) int {
	if len(a) != len(b) {
		return 0
	}
	for i, t := range types {
		if !sameDatum(t, a[i], b[i]) {
			return i
		}
	}
	return -1
}
