package orcfile

// Rows decodes every row of the file, stripe by stripe. The root type must be a struct; each
// row maps its field names to values as described in the package documentation. A File must
// not be read concurrently.
func (f *File) Rows() ([]map[string]any, error) {
	if f.Schema.Kind != Struct {
		return nil, unsupportedf("root type %s is not a struct", f.Schema.Kind)
	}
	f.budget = newBudget(len(f.data))
	var rows []map[string]any
	for i, si := range f.Stripes {
		st, err := f.openStripe(i)
		if err != nil {
			return nil, err
		}
		vals, err := st.column(f.Schema, si.NumRows)
		if err != nil {
			return nil, err
		}
		for j, v := range vals {
			m, ok := v.(map[string]any)
			if !ok {
				return nil, corruptf("stripe %d row %d is null", i, j)
			}
			rows = append(rows, m)
		}
	}
	return rows, nil
}

// ReadRows opens an ORC file held in memory and decodes all its rows (see File.Rows).
func ReadRows(data []byte) ([]map[string]any, error) {
	f, err := Open(data)
	if err != nil {
		return nil, err
	}
	return f.Rows()
}

// StripeColumns decodes the top-level struct fields named in names of stripe i, one slice of
// Stripes[i].NumRows values per name (values as in the package documentation). Decoding stripe 0
// starts a new allocation budget, so a file may be read again from its first stripe.
func (f *File) StripeColumns(i int, names []string) ([][]any, error) {
	if f.Schema.Kind != Struct {
		return nil, unsupportedf("root type %s is not a struct", f.Schema.Kind)
	}
	if i < 0 || i >= len(f.Stripes) {
		return nil, corruptf("stripe %d of %d", i, len(f.Stripes))
	}
	if i == 0 || f.budget == nil {
		f.budget = newBudget(len(f.data))
	}
	st, err := f.openStripe(i)
	if err != nil {
		return nil, err
	}
	if _, ok := st.streams[streamKey{0, streamPresent}]; ok {
		return nil, unsupportedf("%s: null rows (a PRESENT stream on the root struct)", st.name(""))
	}
	n := f.Stripes[i].NumRows
	out := make([][]any, len(names))
	for k, name := range names {
		c := f.Schema.Field(name)
		if c == nil {
			return nil, corruptf("file has no column %q", name)
		}
		if out[k], err = st.column(c, n); err != nil {
			return nil, err
		}
	}
	return out, nil
}
