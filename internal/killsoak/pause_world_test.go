package killsoak

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
)

// The world that moves on while a runner is stopped: takeovers (pause_soak_test.go), other writers'
// commits and snapshot expiry.

const (
	actTakeover = "takeover"
	actWrite    = "write"
	actExpire   = "expire"
)

// foreignBase is where the ids of other writers' rows start (append and deduplicate tables): far
// above every input id, so their rows never meet the job's.
const foreignBase = int64(1) << 40

// worldPlan is what happens while the round's runner is stopped: a takeover (70%, sometimes a second
// one), up to two writes by another writer, an expiry (60%). Half the time in the order of the
// reviewed scenario (takeover, writes, expiry), else shuffled.
func (p *pauseTable) worldPlan() []string {
	var acts []string
	if p.rng.IntN(100) < 70 {
		acts = append(acts, actTakeover)
		if p.rng.IntN(100) < 25 {
			acts = append(acts, actTakeover)
		}
	}
	for n := p.rng.IntN(3); n > 0; n-- {
		acts = append(acts, actWrite)
	}
	if p.rng.IntN(100) < 60 {
		acts = append(acts, actExpire)
	}
	if p.rng.IntN(2) == 0 {
		p.rng.Shuffle(len(acts), func(i, j int) { acts[i], acts[j] = acts[j], acts[i] })
	}
	return acts
}

// quietPlan is what happens while a runner that was resumed is stopped again: writes and expiry,
// never a takeover (its outcome then tells that a runner nobody displaced goes on).
func (p *pauseTable) quietPlan() []string {
	var acts []string
	if p.rng.IntN(2) == 0 {
		acts = append(acts, actWrite)
	}
	if p.rng.IntN(2) == 0 {
		acts = append(acts, actExpire)
	}
	return acts
}

// foreignWrite commits rows of another writer with `lakeload write` and adds them to the model.
func (p *pauseTable) foreignWrite() {
	p.t.Helper()
	rows := p.foreignRows(20 + p.rng.IntN(200))
	p.writes++
	file := filepath.Join(p.in, "foreign", fmt.Sprintf("w-%04d.parquet", p.writes))
	if err := writeParquet(file, p.schema, rows, len(rows)); err != nil {
		p.t.Fatalf("write %s: %v", file, err)
	}
	args := []string{"write", "--warehouse", p.wh, "--table", soakDB + "." + p.ts.name, "--from", file}
	if p.ts.opColumn != "" {
		args = append(args, "--op-column", p.ts.opColumn)
	}
	runToEnd(p.t, args)
	p.st.runs++
	if err := p.exp.apply(rows); err != nil {
		p.t.Fatal(err)
	}
	p.foreignRowsWritten += int64(len(rows))
}

// foreignRows are the next n rows another writer commits, chosen so that the expected table does not
// depend on where between the job's commits they land: appended rows with ids of their own; sums
// over the input's keys and some new ones (a sum does not depend on the order); upserts, updates and
// deletes of keys the input never has (the other writer's own earlier rows, in the order written).
func (p *pauseTable) foreignRows(n int) []genRow {
	r := p.rng
	rows := make([]genRow, 0, n)
	switch p.ts.merge {
	case mergeAppend:
		for range n {
			var amount any = float64(r.IntN(8000)) / 8
			if r.IntN(20) == 0 {
				amount = nil
			}
			id := foreignBase + p.foreignNext
			p.foreignNext++
			rows = append(rows, genRow{vals: []any{id, int32(-1), "w" + strconv.FormatInt(id, 36), amount}})
		}
	case mergeSum:
		for range n {
			var amount any = float64(r.IntN(4001)) / 4
			if r.IntN(20) == 0 {
				amount = nil
			}
			k := r.Int64N(int64(p.pm.keys + p.pm.keys/4)) // mostly the input's keys
			rows = append(rows, genRow{vals: []any{k, int64(1), int64(r.IntN(2001) - 1000), amount}})
		}
	case mergeDedup:
		used := map[int64]bool{} // a key at most once per write: the order inside one commit is not the point
		row := func(op string, id int64) genRow {
			var name any = fmt.Sprintf("w%d-%04x", id, r.IntN(1<<16))
			if r.IntN(40) == 0 {
				name = nil
			}
			dt := fmt.Sprintf("2024-01-%02d", id%4+1)
			return genRow{op: op, vals: []any{dt, id, name, int32(r.IntN(1000)), float64(r.IntN(1<<20)) / 16}}
		}
		for len(rows) < n {
			p2 := r.IntN(100)
			if p2 < 70 || len(p.foreignLive) == 0 {
				id := foreignBase + p.foreignNext
				p.foreignNext++
				used[id] = true
				p.foreignLive = append(p.foreignLive, id)
				rows = append(rows, row("+I", id))
				continue
			}
			i := r.IntN(len(p.foreignLive))
			id := p.foreignLive[i]
			if used[id] {
				continue
			}
			used[id] = true
			if p2 < 85 {
				rows = append(rows, row("+U", id))
			} else {
				rows = append(rows, row("-D", id))
				p.foreignLive = slices.Delete(p.foreignLive, i, i+1)
			}
		}
	}
	return rows
}

// expire runs `lakeload expire --retain-min 1 --older-than 0s`: everything but the latest snapshot
// goes, as far as the consumers (the jobs' pins) allow.
func (p *pauseTable) expire() {
	p.t.Helper()
	runToEnd(p.t, []string{"expire", "--warehouse", p.wh, "--table", soakDB + "." + p.ts.name, "--retain-min", "1", "--older-than", "0s"})
	p.st.runs++
}
