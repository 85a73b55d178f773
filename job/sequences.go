package job

import (
	"context"

	"github.com/lakeload/lakeload/job/plan"
	"github.com/lakeload/lakeload/job/seqreserve"
)

// Sequence numbers of a window: its base lies above the table and the job's earlier windows, and
// with Config.SeqReservations above every window any job of the table reserved before (package
// job/seqreserve holds the reservations and states their invariant).

// sequences is the driver's view of sequence numbers: the highest it reserved so far (base of the
// last window + span − 1), the highest in the table as of snapshot tableMaxAt (-1: not read yet),
// and the table's reservations (nil until the first assignment).
type sequences struct {
	last                 int64
	tableMax, tableMaxAt int64
	reserver             *seqreserve.Reserver
}

// sequenceBase returns the sequence base of window w over splits: above the table's highest
// sequence number and the job's earlier windows, and — with Config.SeqReservations — above every
// window any job of the table reserved before, by reserving the window's range.
func (d *driver) sequenceBase(ctx context.Context, w int64, splits []int) (int64, error) {
	floor := max(d.seq.tableMax, d.seq.last) + 1
	if d.cfg.SeqReservations == "" {
		return floor, nil
	}
	if d.seq.reserver == nil {
		r, err := seqreserve.Open(ctx, d.t, d.cfg.SeqReservations)
		if err != nil {
			return 0, err
		}
		d.seq.reserver = r
	}
	var size int64
	for _, i := range splits {
		size += plan.Span(d.plan[i])
	}
	rec, err := d.seq.reserver.Reserve(ctx, floor, size, d.cfg.Name, w, d.cfg.Now())
	if err != nil {
		return 0, err
	}
	return rec.Base, nil
}
