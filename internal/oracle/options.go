package oracle

import (
	"fmt"
	"strings"
)

// OptionKey is one table option key a Paimon version defines (Java oracle "optionKeys" request).
type OptionKey struct {
	Class    string // simple name of the option class: CoreOptions, IcebergOptions, OrcOptions
	Key      string
	Fallback string // for a fallback (old) key: the key it stands for; "" otherwise
}

// OptionKeys (Java oracle only) lists every key of the ConfigOption fields of Java Paimon's table
// option classes on the oracle's class path (oracle/java OptionKeys.java), fallback keys included.
func (c *Client) OptionKeys() []OptionKey {
	c.t.Helper()
	var reply struct {
		Rows []string `json:"rows"`
	}
	if err := c.p.call(map[string]any{"cmd": "optionKeys"}, &reply); err != nil {
		c.t.Fatalf("optionKeys: %v", err)
	}
	out := make([]OptionKey, 0, len(reply.Rows))
	for _, l := range reply.Rows {
		parts := strings.Split(l, "\t")
		if len(parts) < 2 || len(parts) > 3 {
			c.t.Fatalf("optionKeys: bad line %q", l)
		}
		k := OptionKey{Class: parts[0], Key: parts[1]}
		if len(parts) == 3 {
			k.Fallback = parts[2]
		}
		out = append(out, k)
	}
	if len(out) == 0 {
		c.t.Fatal(fmt.Errorf("optionKeys: the oracle returned no keys"))
	}
	return out
}
