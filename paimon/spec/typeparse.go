package spec

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// ParseType parses the SQL string form of a data type as Java's DataTypeJsonParser does: keywords are
// case-insensitive, whitespace is free ("decimal( 10 ,2 )"), omitted parameters take Java's defaults
// (CHAR/VARCHAR/BINARY/VARBINARY length 1, DECIMAL(10, 0), TIME(0), TIMESTAMP(6)), "NOT NULL"/"NULL" follow a
// type and "T ARRAY"/"T MULTISET" suffixes are accepted. Beyond Java's atomic parser it also accepts
// ARRAY<T>, MULTISET<T>, MAP<K, V> and ROW<name T [COMMENT 'c'], …> (fields get id 0..n-1 at each level;
// NewSchema reassigns them). Types this package cannot model (VARIANT, BLOB, VECTOR, …) are rejected.
func ParseType(sql string) (DataType, error) {
	toks, err := tokenizeType(sql)
	if err != nil {
		return DataType{}, fmt.Errorf("parse type %q: %w", sql, err)
	}
	p := &typeParser{toks: toks}
	t, err := p.typeWithNullability(0)
	if err == nil && p.pos < len(p.toks) {
		err = fmt.Errorf("unexpected %q at position %d", p.toks[p.pos].text, p.toks[p.pos].at)
	}
	if err != nil {
		return DataType{}, fmt.Errorf("parse type %q: %w", sql, err)
	}
	return t, nil
}

type tokKind int

const (
	tokKeyword tokKind = iota // upper-cased word
	tokIdent                  // `quoted` identifier
	tokInt
	tokString // 'literal'
	tokPunct  // one of < > ( ) , .
)

type typeToken struct {
	kind tokKind
	text string // upper-cased for keywords
	raw  string // original spelling
	at   int
}

func isTypeDelimiter(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune("<>(),.", r)
}

func tokenizeType(s string) ([]typeToken, error) {
	var toks []typeToken
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case strings.ContainsRune("<>(),.", r):
			toks = append(toks, typeToken{kind: tokPunct, text: string(r), raw: string(r), at: i})
			i++
		case r == '\'' || r == '`':
			var b strings.Builder
			j := i + 1
			closed := false
			for j < len(rs) {
				if rs[j] == r {
					if j+1 < len(rs) && rs[j+1] == r { // doubled quote escapes itself
						b.WriteRune(r)
						j += 2
						continue
					}
					closed = true
					break
				}
				b.WriteRune(rs[j])
				j++
			}
			if !closed {
				return nil, fmt.Errorf("unterminated %c at position %d", r, i)
			}
			kind := tokString
			if r == '`' {
				kind = tokIdent
			}
			toks = append(toks, typeToken{kind: kind, text: b.String(), raw: b.String(), at: i})
			i = j + 1
		case r >= '0' && r <= '9':
			j := i
			for j < len(rs) && rs[j] >= '0' && rs[j] <= '9' {
				j++
			}
			toks = append(toks, typeToken{kind: tokInt, text: string(rs[i:j]), raw: string(rs[i:j]), at: i})
			i = j
		default:
			j := i
			for j < len(rs) && !isTypeDelimiter(rs[j]) {
				j++
			}
			toks = append(toks, typeToken{kind: tokKeyword, text: strings.ToUpper(string(rs[i:j])), raw: string(rs[i:j]), at: i})
			i = j
		}
	}
	return toks, nil
}

type typeParser struct {
	toks []typeToken
	pos  int
}

func (p *typeParser) peekIs(kind tokKind, text string) bool {
	return p.pos < len(p.toks) && p.toks[p.pos].kind == kind && p.toks[p.pos].text == text
}

func (p *typeParser) peekKeywords(words ...string) bool {
	for i, w := range words {
		j := p.pos + i
		if j >= len(p.toks) || p.toks[j].kind != tokKeyword || p.toks[j].text != w {
			return false
		}
	}
	return true
}

func (p *typeParser) next() (typeToken, error) {
	if p.pos >= len(p.toks) {
		return typeToken{}, fmt.Errorf("unexpected end")
	}
	t := p.toks[p.pos]
	p.pos++
	return t, nil
}

func (p *typeParser) expect(kind tokKind, text string) error {
	t, err := p.next()
	if err != nil {
		return fmt.Errorf("expected %q: %w", text, err)
	}
	if t.kind != kind || t.text != text {
		return fmt.Errorf("expected %q at position %d, got %q", text, t.at, t.text)
	}
	return nil
}

func (p *typeParser) expectKeywords(words ...string) error {
	for _, w := range words {
		if err := p.expect(tokKeyword, w); err != nil {
			return err
		}
	}
	return nil
}

func (p *typeParser) intParam() (int, error) {
	t, err := p.next()
	if err != nil {
		return 0, fmt.Errorf("expected integer: %w", err)
	}
	if t.kind != tokInt {
		return 0, fmt.Errorf("expected integer at position %d, got %q", t.at, t.text)
	}
	n, err := strconv.ParseInt(t.text, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("integer %s at position %d out of range", t.text, t.at)
	}
	return int(n), nil
}

// optParams parses an optional "(a)" or "(a, b)"; it returns the integers present.
func (p *typeParser) optParams(max int) ([]int, error) {
	if !p.peekIs(tokPunct, "(") {
		return nil, nil
	}
	p.pos++
	var out []int
	for {
		n, err := p.intParam()
		if err != nil {
			return nil, err
		}
		out = append(out, n)
		if len(out) < max && p.peekIs(tokPunct, ",") {
			p.pos++
			continue
		}
		break
	}
	return out, p.expect(tokPunct, ")")
}

func (p *typeParser) nullability() bool {
	if p.peekKeywords("NOT", "NULL") {
		p.pos += 2
		return false
	}
	if p.peekKeywords("NULL") {
		p.pos++
	}
	return true
}

func (p *typeParser) typeWithNullability(depth int) (DataType, error) {
	if depth > maxTypeDepth {
		return DataType{}, fmt.Errorf("type nested deeper than %d", maxTypeDepth)
	}
	t, err := p.typeByKeyword(depth)
	if err != nil {
		return DataType{}, err
	}
	t.Nullable = p.nullability()
	for _, kw := range []string{"ARRAY", "MULTISET"} {
		if p.peekKeywords(kw) && !p.peekAt(1, tokPunct, "<") {
			p.pos++
			elem := t
			root := Array
			if kw == "MULTISET" {
				root = Multiset
			}
			return DataType{Root: root, Elem: &elem, Nullable: p.nullability()}, nil
		}
	}
	return t, nil
}

func (p *typeParser) peekAt(off int, kind tokKind, text string) bool {
	j := p.pos + off
	return j < len(p.toks) && p.toks[j].kind == kind && p.toks[j].text == text
}

func lengthType(root TypeRoot, params []int, name string) (DataType, error) {
	n := 1
	if len(params) > 0 {
		n = params[0]
	}
	if n < 1 {
		return DataType{}, fmt.Errorf("%s length must be between 1 and %d, got %d", name, MaxLength, n)
	}
	return DataType{Root: root, Length: n}, nil
}

func precisionType(root TypeRoot, params []int, def int, name string) (DataType, error) {
	prec := def
	if len(params) > 0 {
		prec = params[0]
	}
	if prec < 0 || prec > 9 {
		return DataType{}, fmt.Errorf("%s precision must be between 0 and 9, got %d", name, prec)
	}
	return DataType{Root: root, Precision: prec}, nil
}

func (p *typeParser) typeByKeyword(depth int) (DataType, error) {
	tok, err := p.next()
	if err != nil {
		return DataType{}, fmt.Errorf("expected a type: %w", err)
	}
	if tok.kind != tokKeyword {
		return DataType{}, fmt.Errorf("expected a type at position %d, got %q", tok.at, tok.text)
	}
	simple := map[string]TypeRoot{"BOOLEAN": Boolean, "TINYINT": TinyInt, "SMALLINT": SmallInt, "INT": Int,
		"INTEGER": Int, "BIGINT": BigInt, "FLOAT": Float, "DATE": Date}
	if r, ok := simple[tok.text]; ok {
		return DataType{Root: r}, nil
	}
	switch tok.text {
	case "STRING":
		return DataType{Root: VarChar, Length: MaxLength}, nil
	case "BYTES":
		return DataType{Root: VarBinary, Length: MaxLength}, nil
	case "DOUBLE":
		if p.peekKeywords("PRECISION") {
			p.pos++
		}
		return DataType{Root: Double}, nil
	case "CHAR", "VARCHAR", "BINARY", "VARBINARY":
		params, err := p.optParams(1)
		if err != nil {
			return DataType{}, err
		}
		root := map[string]TypeRoot{"CHAR": Char, "VARCHAR": VarChar, "BINARY": Binary, "VARBINARY": VarBinary}[tok.text]
		return lengthType(root, params, tok.text)
	case "DECIMAL", "NUMERIC", "DEC":
		params, err := p.optParams(2)
		if err != nil {
			return DataType{}, err
		}
		prec, scale := 10, 0
		if len(params) > 0 {
			prec = params[0]
		}
		if len(params) > 1 {
			scale = params[1]
		}
		if prec < 1 || prec > 38 {
			return DataType{}, fmt.Errorf("DECIMAL precision must be between 1 and 38, got %d", prec)
		}
		if scale < 0 || scale > prec {
			return DataType{}, fmt.Errorf("DECIMAL scale must be between 0 and the precision %d, got %d", prec, scale)
		}
		return DataType{Root: Decimal, Precision: prec, Scale: scale}, nil
	case "TIME":
		params, err := p.optParams(1)
		if err != nil {
			return DataType{}, err
		}
		if p.peekKeywords("WITHOUT") {
			if err := p.expectKeywords("WITHOUT", "TIME", "ZONE"); err != nil {
				return DataType{}, err
			}
		}
		return precisionType(Time, params, 0, "TIME")
	case "TIMESTAMP", "TIMESTAMP_LTZ":
		params, err := p.optParams(1)
		if err != nil {
			return DataType{}, err
		}
		root := Timestamp
		if tok.text == "TIMESTAMP_LTZ" {
			root = TimestampLTZ
		} else if p.peekKeywords("WITHOUT") {
			if err := p.expectKeywords("WITHOUT", "TIME", "ZONE"); err != nil {
				return DataType{}, err
			}
		} else if p.peekKeywords("WITH") {
			if err := p.expectKeywords("WITH", "LOCAL", "TIME", "ZONE"); err != nil {
				return DataType{}, err
			}
			root = TimestampLTZ
		}
		return precisionType(root, params, 6, tok.text)
	case "ARRAY", "MULTISET":
		if err := p.expect(tokPunct, "<"); err != nil {
			return DataType{}, err
		}
		elem, err := p.typeWithNullability(depth + 1)
		if err != nil {
			return DataType{}, err
		}
		root := Array
		if tok.text == "MULTISET" {
			root = Multiset
		}
		return DataType{Root: root, Elem: &elem}, p.expect(tokPunct, ">")
	case "MAP":
		if err := p.expect(tokPunct, "<"); err != nil {
			return DataType{}, err
		}
		k, err := p.typeWithNullability(depth + 1)
		if err != nil {
			return DataType{}, err
		}
		if err := p.expect(tokPunct, ","); err != nil {
			return DataType{}, err
		}
		v, err := p.typeWithNullability(depth + 1)
		if err != nil {
			return DataType{}, err
		}
		return DataType{Root: Map, Elem: &k, Value: &v}, p.expect(tokPunct, ">")
	case "ROW":
		return p.rowBody(depth)
	}
	return DataType{}, fmt.Errorf("unsupported type %s at position %d", tok.text, tok.at)
}

// rowBody parses "<name T [COMMENT 'c' | 'c'], …>" after ROW.
func (p *typeParser) rowBody(depth int) (DataType, error) {
	if err := p.expect(tokPunct, "<"); err != nil {
		return DataType{}, err
	}
	row := DataType{Root: Row, Fields: []DataField{}}
	if p.peekIs(tokPunct, ">") {
		p.pos++
		return row, nil
	}
	for {
		nameTok, err := p.next()
		if err != nil {
			return DataType{}, fmt.Errorf("expected ROW field name: %w", err)
		}
		if nameTok.kind != tokIdent && nameTok.kind != tokKeyword {
			return DataType{}, fmt.Errorf("expected ROW field name at position %d, got %q", nameTok.at, nameTok.text)
		}
		name := nameTok.raw // unquoted names keep their spelling
		ft, err := p.typeWithNullability(depth + 1)
		if err != nil {
			return DataType{}, fmt.Errorf("ROW field %q: %w", name, err)
		}
		f := DataField{ID: len(row.Fields), Name: name, Type: ft}
		if p.peekKeywords("COMMENT") {
			p.pos++
		}
		if p.pos < len(p.toks) && p.toks[p.pos].kind == tokString {
			if d := p.toks[p.pos].text; d != "" { // String() drops empty comments, as Java does
				f.Description = &d
			}
			p.pos++
		}
		row.Fields = append(row.Fields, f)
		if p.peekIs(tokPunct, ",") {
			p.pos++
			continue
		}
		return row, p.expect(tokPunct, ">")
	}
}
