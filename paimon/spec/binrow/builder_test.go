package binrow

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

// TestBuilderTypedSettersMatchEncode checks typed setters against Encode and buffer reuse.
func TestBuilderTypedSettersMatchEncode(t *testing.T) {
	types := []spec.DataType{ty(spec.Int), strT(), decT(30, 2), tsT(9), decT(25, 0), ty(spec.Double)}
	vals := []any{int32(7), "a long string value", dec(t, "-12345"), spec.TimestampValue{Millis: -5, NanoOfMilli: 42}, nil, 1.5}
	want, err := Encode(types, vals)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBuilder(3) // a different arity first, to exercise Reset
	b.SetString(2, "0123456789abcdef")
	for round := 0; round < 2; round++ {
		b.Reset(len(types))
		b.SetInt32(0, 7)
		b.SetString(1, "a long string value")
		if err := b.SetDecimal(2, 30, big.NewInt(-12345)); err != nil {
			t.Fatal(err)
		}
		if err := b.SetTimestamp(3, 9, spec.TimestampValue{Millis: -5, NanoOfMilli: 42}); err != nil {
			t.Fatal(err)
		}
		b.SetNull(4, types[4])
		b.SetFloat64(5, 1.5)
		if !bytes.Equal(b.Bytes(), want) {
			t.Fatalf("round %d: builder %x, Encode %x", round, b.Bytes(), want)
		}
		if b.Hash() != Hash(want) {
			t.Fatalf("round %d: Builder.Hash differs", round)
		}
	}
	ser, _ := Serialize(types, vals)
	if got := b.AppendSerialized([]byte{0xee}); !bytes.Equal(got[1:], ser) || got[0] != 0xee {
		t.Errorf("AppendSerialized = %x, want ee%x", got, ser)
	}
}

// TestBuilderSetAfterNull checks that setting a field clears its null bit.
func TestBuilderSetAfterNull(t *testing.T) {
	b := NewBuilder(2)
	b.SetNullAt(0)
	b.SetNullAt(1)
	b.SetInt64(0, 3)
	b.SetString(1, "x")
	v, err := Decode([]spec.DataType{ty(spec.BigInt), strT()}, b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if v[0] != int64(3) || v[1] != "x" {
		t.Errorf("decoded %v, want [3 x]", v)
	}
}

// TestBuilderRowKind checks the header byte.
func TestBuilderRowKind(t *testing.T) {
	b := NewBuilder(1)
	b.SetRowKind(spec.RowKindDelete)
	if b.Bytes()[0] != 3 {
		t.Errorf("header %d, want 3", b.Bytes()[0])
	}
	b.Reset(1)
	if b.Bytes()[0] != 0 {
		t.Errorf("Reset left header %d", b.Bytes()[0])
	}
}

// TestBuilderAllocations checks that a warmed-up Builder encodes keys without allocating.
func TestBuilderAllocations(t *testing.T) {
	types := []spec.DataType{ty(spec.BigInt), strT(), decT(30, 2), tsT(6), decT(38, 0), tsT(9)}
	vals := []any{int64(1), "a string longer than seven", dec(t, "-123456789012345678901"),
		spec.TimestampValue{Millis: 1, NanoOfMilli: 2}, nil, nil}
	b := NewBuilder(len(types))
	run := func() {
		b.Reset(len(types))
		for i, typ := range types {
			if err := b.Set(i, typ, vals[i]); err != nil {
				t.Fatal(err)
			}
		}
		_ = b.Hash()
	}
	run()
	if n := testing.AllocsPerRun(50, run); n != 0 {
		t.Errorf("%v allocations per row, want 0", n)
	}
}

func BenchmarkBuilderKey(b *testing.B) {
	types := []spec.DataType{ty(spec.BigInt), strT(), decT(30, 2)}
	vals := []any{int64(1), "a string longer than seven", spec.DecimalValue{Unscaled: big.NewInt(-42)}}
	bl := NewBuilder(len(types))
	for b.Loop() {
		bl.Reset(len(types))
		for i, typ := range types {
			_ = bl.Set(i, typ, vals[i])
		}
		_ = Bucket(bl.Hash(), 16)
	}
}
