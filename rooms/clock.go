package rooms

// The bus's clock and the store's health. Replicas order what they share
// by time (state versions, presence and count stamps, expiries), so a
// replica whose clock is off splits a room: 20 s behind, its presence
// stamps look stale to the others and their viewers hear "the presenter
// stopped"; 2 minutes ahead, every state it issues is beyond what the
// others take. So every replica reads those times on one clock, the
// bus's: it writes a probe to the store every storeProbeEvery, and the
// store's own time for it (JetStream stamps each stored message; no
// client sets it) against this replica's clock before and after gives
// the offset. The same probe finds a store that cannot be written (its
// bucket deleted, NATS restarted on an empty store, a read-only
// directory), which /readyz reports, and a bucket made again, into which
// this replica writes again the records of the rooms it holds.

import (
	"context"
	"time"
)

const (
	// storeProbeEvery is how often the store is probed: a lost store
	// shows in /readyz within about two of these.
	storeProbeEvery = time.Second
	// clockTolerance is the offset from the bus past which a replica's
	// clock is reported (logged, and said by /readyz): it is corrected
	// all the same, but a clock that far off wants NTP.
	clockTolerance = 2 * time.Second
	// probeMaxRTT: a probe slower than this says too little of the
	// offset (the store's stamp lies somewhere within it) to take it.
	probeMaxRTT = 500 * time.Millisecond
)

// now is the bus's time: this replica's clock corrected by its measured
// offset from the bus (uncorrected until the first probe answers).
func (r *Replica) now() time.Time {
	return r.clock().Add(time.Duration(r.offset.Load()))
}

// ClockOffset is how far the bus's clock is ahead of this replica's
// (negative: behind), and whether a probe has measured it yet.
func (r *Replica) ClockOffset() (time.Duration, bool) {
	return time.Duration(r.offset.Load()), r.offsetKnown.Load()
}

// Health is what a replica knows of the bus and the store, for /readyz.
type Health struct {
	BusUp bool
	// Store is nil when the last probe wrote to the store, else why it
	// could not; StoreChecked is false until a probe has answered.
	Store        error
	StoreChecked bool
	// ClockOffset is the bus's clock minus this replica's, measured when
	// ClockKnown; it is corrected for, and past ClockTolerance reported.
	ClockOffset    time.Duration
	ClockKnown     bool
	ClockTolerance time.Duration
}

// Health reports the bus, the store and the clock.
func (r *Replica) Health() Health {
	off, known := r.ClockOffset()
	r.mu.Lock()
	defer r.mu.Unlock()
	return Health{BusUp: r.busUp, Store: r.storeErr, StoreChecked: r.storeChecked,
		ClockOffset: off, ClockKnown: known, ClockTolerance: clockTolerance}
}

// prober probes the store every storeProbeEvery until ctx is done.
func (r *Replica) prober(ctx context.Context) {
	t := time.NewTicker(storeProbeEvery)
	defer t.Stop()
	for {
		r.probeStore(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// probeStore writes the probe, takes the clock's offset from it, and
// notes whether the store can be written. When the store comes back
// after failing, or its bucket is new (made again here, or by another
// replica: the probe's revision went back), every room this replica
// holds is written again from its index, so that a crash after that does
// not roll a room back to nothing, or to an older state.
func (r *Replica) probeStore(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	t0 := r.clock()
	p, err := r.bus.ProbeStore(ctx)
	t1 := r.clock()
	cancel()
	if r.life.Err() != nil {
		return // Run is ending: the probe says nothing of the store
	}
	if err == nil && !p.Stored.IsZero() && t1.Sub(t0) <= probeMaxRTT {
		off := p.Stored.Sub(t0.Add(t1.Sub(t0) / 2))
		r.offset.Store(int64(off))
		r.offsetKnown.Store(true)
	}
	off, known := r.ClockOffset()

	r.mu.Lock()
	lost := err != nil && (r.storeErr == nil || !r.storeChecked)
	back := err == nil && r.storeErr != nil
	renewed := err == nil && r.storeChecked && (p.Recreated || p.Revision < r.probeRev)
	r.storeErr, r.storeChecked = err, true
	if err == nil {
		r.probeRev = p.Revision
	}
	skewed := known && off.Abs() > clockTolerance
	skewChanged := skewed != r.skewed
	r.skewed = skewed
	rewrite := 0
	if back || renewed {
		now := r.now().UnixMicro()
		for code, rm := range r.rooms {
			if !rm.ended && now < rm.expires {
				r.markDirtyLocked(code)
				rewrite++
			}
		}
	}
	up := r.busUp
	r.mu.Unlock()

	switch {
	case lost && up:
		r.log.Error("room: the room store cannot be written: new rooms fail until it is back (GET /readyz says 503)", "err", err)
	case back || renewed:
		r.log.Warn("room: the room store is back; writing again the records of the rooms held here",
			"bucket made again", p.Recreated || renewed, "rooms", rewrite)
	}
	if skewChanged && skewed {
		r.log.Warn("room: this machine's clock is off the bus's by more than the tolerance: corrected, but run NTP",
			"offset", off.Round(time.Millisecond), "tolerance", clockTolerance)
	} else if skewChanged {
		r.log.Info("room: this machine's clock agrees with the bus's again", "offset", off.Round(time.Millisecond))
	}
}
