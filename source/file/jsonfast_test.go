package file

import (
	"reflect"
	"testing"

	"github.com/lakeload/lakeload/source"
)

// jsonFastSeeds are inputs at the edges of the JSON grammar and of the limits.
var jsonFastSeeds = func() (seeds []jsonFastSeed) {
	for _, s := range []string{`{"a":1,"b":"x","c":[1,2.5e3,-0,true,false,null],"d":{"e":{}}}`, `{"a":1,"a":2}`, `[]`, `"\u00e9\ud800"`,
		`{"k":"\"","l":"é"}`, ` 12 `, `01`, `1.`, `-`, `{"a":1,}`, `[1 2]`, `truex`, `nul`, `{"a" 1}`, "\"\x01\"", `"\x"`,
		`{"a":1}{"b":2}`, `[[[[[[[[[[1]]]]]]]]]]`, `{"1":0,"2":0,"3":0,"4":0,"5":0,"6":0,"7":0,"8":0,"9":0,"10":0,"11":0,"12":0,"13":0,"14":0,"15":0,"16":0,"17":0,"1":0}`,
		"\xff", `"\xff"`, `1e+`, `-01`, `0.5E-7`} {
		seeds = append(seeds, jsonFastSeed{[]byte(s), 5, 1000})
	}
	return append(seeds, jsonFastSeed{[]byte(`[1,2,3,4,5,6,7,8,9,10]`), 5, 8 * source.ValueCost}) // over the budget
}()

type jsonFastSeed struct {
	data   []byte
	depth  int
	budget int64
}

// TestJSONFastMatchesDecode: on the seeds, the fast decoder returns exactly decodeJSON's value or error.
func TestJSONFastMatchesDecode(t *testing.T) {
	for _, s := range jsonFastSeeds {
		checkJSONFast(t, s.data, s.depth, s.budget)
	}
}

// FuzzJSONFastMatchesDecode: the fast decoder returns exactly decodeJSON's value or error.
func FuzzJSONFastMatchesDecode(f *testing.F) {
	for _, s := range jsonFastSeeds {
		f.Add(s.data, s.depth, s.budget)
	}
	f.Fuzz(checkJSONFast)
}

func checkJSONFast(t *testing.T, data []byte, depth int, budget int64) {
	{
		lim := jsonLimits{depth: max(1, depth%64), budget: max(source.ValueCost, budget%(1<<20))}
		want, wantErr := decodeJSON(data, lim)
		var fast jsonFast
		for range 2 { // the second decode uses interned keys
			got, err := fast.decode(data, lim)
			if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
				t.Fatalf("%q: error %v, decodeJSON's %v", data, err, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q: %#v, decodeJSON's %#v", data, got, want)
			}
		}
	}
}
