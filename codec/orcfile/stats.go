package orcfile

// parseColumnStats reads the counts of an orc_proto ColumnStatistics message.
func parseColumnStats(b []byte) (ColumnStats, error) {
	var s ColumnStats
	err := eachField(b, "column statistics", func(fl pbField) (err error) {
		switch fl.num {
		case 1:
			s.NumValues, err = fl.varint("statistics numberOfValues")
		case 10:
			var v uint64
			v, err = fl.varint("statistics hasNull")
			s.HasNull = v != 0
		}
		return err
	})
	return s, err
}

// parseMetadata reads the per-stripe column statistics (orc_proto.proto Metadata).
func (f *File) parseMetadata(b []byte) error {
	return eachField(b, "metadata", func(fl pbField) error {
		if fl.num != 1 {
			return nil
		}
		m, err := fl.bytes("metadata stripe statistics")
		if err != nil {
			return err
		}
		var cols []ColumnStats
		err = eachField(m, "stripe statistics", func(fl pbField) error {
			if fl.num != 1 {
				return nil
			}
			cb, err := fl.bytes("stripe column statistics")
			if err != nil {
				return err
			}
			s, err := parseColumnStats(cb)
			cols = append(cols, s)
			return err
		})
		f.StripeStats = append(f.StripeStats, cols)
		return err
	})
}
