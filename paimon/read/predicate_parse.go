package read

import (
	"fmt"
	"strings"

	"github.com/lakeload/lakeload/paimon/spec"
)

// ParsePredicate parses a filter over the columns of fields:
//
//	expr    := or
//	or      := and { OR and }
//	and     := unary { AND unary }
//	unary   := NOT unary | '(' expr ')' | compare
//	compare := column ( cmp literal | [NOT] IN '(' literal { ',' literal } ')' | IS [NOT] NULL )
//	cmp     := '=' | '!=' | '<>' | '<' | '<=' | '>' | '>='
//	literal := number | 'string' | TRUE | FALSE
//
// Keywords are case-insensitive; a column is a name as in the schema, or "quoted" / `quoted`.
// A string literal is cast to its column's type: DATE 'YYYY-MM-DD', TIME 'HH:MM:SS[.fff]',
// TIMESTAMP 'YYYY-MM-DD HH:MM:SS[.fffffffff]' (or with a T; TIMESTAMP_LTZ read as UTC), a number
// for numeric columns. Errors are *ColumnError, naming the position and what was expected.
func ParsePredicate(text string, fields []spec.DataField) (*Predicate, error) {
	toks, err := lex(text)
	if err != nil {
		return nil, err
	}
	p := &parser{text: text, toks: toks, fields: fields}
	root, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.errAt(t, "expected AND, OR or the end of the filter")
	}
	return &Predicate{fields: fields, root: root, text: text}, nil
}

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tQuotedIdent
	tNumber
	tString
	tSym
)

type token struct {
	kind tokKind
	text string // identifier, symbol, number text or unquoted string
	pos  int
}

func lex(s string) ([]token, error) {
	var out []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(' || c == ')' || c == ',' || c == '=':
			out = append(out, token{tSym, string(c), i})
			i++
		case c == '!' || c == '<' || c == '>':
			j := i + 1
			if j < len(s) && (s[j] == '=' || (c == '<' && s[j] == '>')) {
				j++
			}
			sym := s[i:j]
			if sym == "!" {
				return nil, &ColumnError{i, s, "expected != (a lone ! is not an operator; use NOT)"}
			}
			if sym == "<>" {
				sym = "!="
			}
			out = append(out, token{tSym, sym, i})
			i = j
		case c == '\'':
			var b strings.Builder
			j := i + 1
			for {
				if j >= len(s) {
					return nil, &ColumnError{i, s, "string literal is not closed (expected ')"}
				}
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(s[j])
				j++
			}
			out = append(out, token{tString, b.String(), i})
			i = j + 1
		case c == '"' || c == '`':
			end := strings.IndexByte(s[i+1:], c)
			if end < 0 {
				return nil, &ColumnError{i, s, fmt.Sprintf("quoted column name is not closed (expected %c)", c)}
			}
			out = append(out, token{tQuotedIdent, s[i+1 : i+1+end], i})
			i += end + 2
		case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
			j := i + 1
			for j < len(s) && (isDigit(s[j]) || s[j] == '.' || s[j] == 'e' || s[j] == 'E' ||
				((s[j] == '-' || s[j] == '+') && (s[j-1] == 'e' || s[j-1] == 'E'))) {
				j++
			}
			out = append(out, token{tNumber, s[i:j], i})
			i = j
		case isIdentStart(c):
			j := i + 1
			for j < len(s) && (isIdentStart(s[j]) || isDigit(s[j])) {
				j++
			}
			out = append(out, token{tIdent, s[i:j], i})
			i = j
		default:
			return nil, &ColumnError{i, s, fmt.Sprintf("unexpected character %q", c)}
		}
	}
	return append(out, token{tEOF, "", len(s)}), nil
}

func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

type parser struct {
	text   string
	toks   []token
	i      int
	fields []spec.DataField
	depth  int
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token { t := p.toks[p.i]; p.i++; return t }

func (p *parser) errAt(t token, msg string) error { return &ColumnError{t.pos, p.text, msg} }

func (p *parser) keyword(t token, kw string) bool {
	return t.kind == tIdent && strings.EqualFold(t.text, kw)
}

func (p *parser) or() (node, error) {
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.keyword(p.peek(), "OR") {
		p.next()
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		l = orNode{l, r}
	}
	return l, nil
}

func (p *parser) and() (node, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.keyword(p.peek(), "AND") {
		p.next()
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = andNode{l, r}
	}
	return l, nil
}

const maxDepth = 200

func (p *parser) unary() (node, error) {
	p.depth++
	defer func() { p.depth-- }()
	t := p.peek()
	if p.depth > maxDepth {
		return nil, p.errAt(t, fmt.Sprintf("filter nests deeper than %d levels", maxDepth))
	}
	if p.keyword(t, "NOT") {
		p.next()
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		return negate(n), nil
	}
	if t.kind == tSym && t.text == "(" {
		p.next()
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		if c := p.next(); c.kind != tSym || c.text != ")" {
			return nil, p.errAt(c, "expected ) to close the ( at position "+fmt.Sprint(t.pos+1))
		}
		return n, nil
	}
	return p.compare()
}

// negate is NOT n with the NOT pushed to the leaves.
func negate(n node) node {
	switch n := n.(type) {
	case andNode:
		return orNode{negate(n.l), negate(n.r)}
	case orNode:
		return andNode{negate(n.l), negate(n.r)}
	case leaf:
		n.op = negated[n.op]
		return n
	}
	return n
}

func (p *parser) column() (int, token, error) {
	t := p.next()
	if t.kind != tIdent && t.kind != tQuotedIdent {
		return 0, t, p.errAt(t, "expected a column name, NOT or (")
	}
	if t.kind == tIdent && isKeyword(t.text) {
		return 0, t, p.errAt(t, fmt.Sprintf("expected a column name, found keyword %s (quote a column of that name: \"%s\")", strings.ToUpper(t.text), t.text))
	}
	for i, f := range p.fields {
		if f.Name == t.text {
			return i, t, nil
		}
	}
	msg := fmt.Sprintf("no column %q (columns: %s)", t.text, columnNames(p.fields))
	for _, f := range p.fields {
		if strings.EqualFold(f.Name, t.text) {
			msg = fmt.Sprintf("no column %q; did you mean %q? (column names are case-sensitive)", t.text, f.Name)
		}
	}
	return 0, t, p.errAt(t, msg)
}

func isKeyword(s string) bool {
	switch strings.ToUpper(s) {
	case "AND", "OR", "NOT", "IN", "IS", "NULL", "TRUE", "FALSE":
		return true
	}
	return false
}

func (p *parser) compare() (node, error) {
	col, ct, err := p.column()
	if err != nil {
		return nil, err
	}
	f := p.fields[col]
	if !filterable(f.Type) {
		return nil, p.errAt(ct, fmt.Sprintf("column %s is %s, which cannot be filtered (only atomic types can)", f.Name, f.Type))
	}
	t := p.next()
	switch {
	case p.keyword(t, "IS"):
		o := opIsNull
		if p.keyword(p.peek(), "NOT") {
			p.next()
			o = opNotNull
		}
		if n := p.next(); !p.keyword(n, "NULL") {
			return nil, p.errAt(n, "expected NULL after IS / IS NOT")
		}
		return leaf{col: col, op: o}, nil
	case p.keyword(t, "NOT") || p.keyword(t, "IN"):
		o := opIn
		if p.keyword(t, "NOT") {
			o = opNotIn
			if n := p.next(); !p.keyword(n, "IN") {
				return nil, p.errAt(n, "expected IN after NOT")
			}
		}
		if n := p.next(); n.kind != tSym || n.text != "(" {
			return nil, p.errAt(n, "expected ( to start the IN list")
		}
		var vals []any
		for {
			v, err := p.literal(col)
			if err != nil {
				return nil, err
			}
			vals = append(vals, v)
			n := p.next()
			if n.kind == tSym && n.text == ")" {
				break
			}
			if n.kind != tSym || n.text != "," {
				return nil, p.errAt(n, "expected , or ) in the IN list")
			}
		}
		return leaf{col: col, op: o, vals: vals}, nil
	case t.kind == tSym:
		ops := map[string]op{"=": opEq, "!=": opNe, "<": opLt, "<=": opLe, ">": opGt, ">=": opGe}
		if o, ok := ops[t.text]; ok {
			v, err := p.literal(col)
			if err != nil {
				return nil, err
			}
			return leaf{col: col, op: o, vals: []any{v}}, nil
		}
	}
	return nil, p.errAt(t, fmt.Sprintf("expected a comparison after column %s (=, !=, <, <=, >, >=, IN, NOT IN, IS NULL, IS NOT NULL)", f.Name))
}

func (p *parser) literal(col int) (any, error) {
	t := p.next()
	f := p.fields[col]
	if p.keyword(t, "NULL") {
		return nil, p.errAt(t, fmt.Sprintf("a comparison with NULL is never true; use %s IS NULL or %s IS NOT NULL", f.Name, f.Name))
	}
	var v any
	var err error
	switch {
	case t.kind == tNumber:
		v, err = numberLiteral(t.text, f.Type)
	case t.kind == tString:
		v, err = stringLiteral(t.text, f.Type)
	case p.keyword(t, "TRUE") || p.keyword(t, "FALSE"):
		if f.Type.Root != spec.Boolean {
			err = fmt.Errorf("%s is a boolean", strings.ToUpper(t.text))
		} else {
			v = strings.EqualFold(t.text, "TRUE")
		}
	default:
		return nil, p.errAt(t, fmt.Sprintf("expected a value for column %s (%s): a number, a 'string', TRUE or FALSE", f.Name, f.Type))
	}
	if err != nil {
		return nil, p.errAt(t, fmt.Sprintf("column %s is %s: %v", f.Name, f.Type, err))
	}
	return v, nil
}

func filterable(t spec.DataType) bool {
	switch t.Root {
	case spec.Array, spec.Multiset, spec.Map, spec.Row:
		return false
	}
	return true
}
