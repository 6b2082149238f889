package main

import "runtime"

// allocCounter names what alloc_bytes and allocs read (docs/protocol.md, "bench").
const allocCounter = "runtime.MemStats TotalAlloc/Mallocs"

// memBefore and memAfter are package variables: reading them allocates nothing in the window.
var memBefore, memAfter runtime.MemStats

// allocatedBy makes one call and returns its output with the bytes and objects the heap
// allocated meanwhile, as `go test -benchmem` reports B/op and allocs/op (the same two
// counters, read the same way; the GC settings untouched). Only the bench request's untimed
// call goes through it: ReadMemStats stops the world, never near a timed batch.
func allocatedBy(run op) ([]byte, uint64, uint64, error) {
	runtime.ReadMemStats(&memBefore)
	out, err := run()
	runtime.ReadMemStats(&memAfter)
	return out, memAfter.TotalAlloc - memBefore.TotalAlloc, memAfter.Mallocs - memBefore.Mallocs, err
}

// untimedCall is the request's verified call: for bench, through allocatedBy, with the
// answer's alloc fields; for compute, a plain call and none.
func untimedCall(run op, bench bool) ([]byte, map[string]any, error) {
	if !bench {
		out, err := run()
		return out, nil, err
	}
	out, bytes, objects, err := allocatedBy(run)
	fields := map[string]any{"alloc_bytes": bytes, "allocs": objects, "alloc_counter": allocCounter}
	return out, fields, err
}
