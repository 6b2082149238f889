package main

import (
	"encoding/binary"
	"math"
	"sync"
	"time"
)

// sink receives one byte of every output, so no call can be optimised away.
var sink byte

type sample struct {
	Iterations int   `json:"iterations"`
	NS         int64 `json:"ns"`
}

// timeBatches runs batches × iterations timed calls. time.Now carries Go's monotonic
// clock reading, and time.Since uses it. The nonce steps before each call, inside the timing.
func timeBatches(pc prepared, iterations, batches int) ([]sample, error) {
	return timeInto(pc, iterations, batches, &sink)
}

// timeThread is timeBatches with a sink of its own (no write shared between goroutines).
func timeThread(pc prepared, iterations, batches int) ([]sample, error) {
	var own byte
	samples, err := timeInto(pc, iterations, batches, &own)
	sinkMu.Lock()
	sink ^= own
	sinkMu.Unlock()
	return samples, err
}

// timeInto is the timed loop; one byte of every output goes into dst.
func timeInto(pc prepared, iterations, batches int, dst *byte) ([]sample, error) {
	samples := make([]sample, 0, batches)
	for b := 0; b < batches; b++ {
		start := time.Now()
		for i := 0; i < iterations; i++ {
			if pc.step != nil {
				pc.step()
			}
			out, err := pc.run()
			if err != nil {
				return nil, err
			}
			if len(out) > 0 {
				*dst ^= out[0]
			}
		}
		samples = append(samples, sample{Iterations: iterations, NS: time.Since(start).Nanoseconds()})
	}
	return samples, nil
}

// sinkMu guards sink against the goroutines of a threaded bench.
var sinkMu sync.Mutex

// timeSingleCalls times one call of calls[order[i]] per measurement (the leak request):
// little-endian uint32 nanoseconds; a failed call (a bad tag) is the expected outcome.
func timeSingleCalls(calls [2]prepared, order []byte) []byte {
	ns := make([]byte, 4*len(order))
	for i, c := range order {
		run := calls[c].run
		start := time.Now()
		out, _ := run()
		d := time.Since(start).Nanoseconds()
		if d > math.MaxUint32 {
			d = math.MaxUint32
		}
		binary.LittleEndian.PutUint32(ns[4*i:], uint32(d))
		if len(out) > 0 {
			sink ^= out[0]
		}
	}
	return ns
}
