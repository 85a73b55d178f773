package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// jacksonPretty re-indents compact JSON the way Jackson's DefaultPrettyPrinter (used by Java Paimon for schema
// and snapshot files) does: objects one member per line indented by two spaces per object level, `"k" : v`,
// arrays inline as `[ a, b ]`, empty containers as `{ }` / `[ ]`. Member order is preserved.
func jacksonPretty(compact []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(compact))
	dec.UseNumber()
	var out bytes.Buffer
	if err := prettyValue(dec, &out, 0); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func prettyValue(dec *json.Decoder, out *bytes.Buffer, level int) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '{':
			if !dec.More() {
				out.WriteString("{ }")
				_, err = dec.Token()
				return err
			}
			out.WriteString("{")
			first := true
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := kt.(string)
				if !first {
					out.WriteString(",")
				}
				first = false
				out.WriteString("\n" + strings.Repeat("  ", level+1))
				out.Write(jsonString(key))
				out.WriteString(" : ")
				if err := prettyValue(dec, out, level+1); err != nil {
					return err
				}
			}
			out.WriteString("\n" + strings.Repeat("  ", level) + "}")
		case '[':
			if !dec.More() {
				out.WriteString("[ ]")
				_, err = dec.Token()
				return err
			}
			out.WriteString("[ ")
			first := true
			for dec.More() {
				if !first {
					out.WriteString(", ")
				}
				first = false
				if err := prettyValue(dec, out, level); err != nil {
					return err
				}
			}
			out.WriteString(" ]")
		default:
			return fmt.Errorf("unexpected JSON delimiter %q", v)
		}
		_, err = dec.Token() // closing delimiter
		return err
	case string:
		out.Write(jsonString(v))
	case json.Number:
		out.WriteString(v.String())
	case bool:
		fmt.Fprint(out, v)
	case nil:
		out.WriteString("null")
	}
	return nil
}
