package main

import "testing"

// sinkBuf keeps the test call's allocation on the heap.
var sinkBuf []byte

func TestUntimedBenchCallReportsItsHeapAllocation(t *testing.T) {
	call := func() ([]byte, error) {
		sinkBuf = make([]byte, 4096)
		return sinkBuf[:1], nil
	}
	out, fields, err := untimedCall(call, true)
	if err != nil || len(out) != 1 {
		t.Fatalf("untimed call: %v %v", out, err)
	}
	if b := fields["alloc_bytes"].(uint64); b < 4096 {
		t.Errorf("alloc_bytes %d, want at least the 4096-byte buffer", b)
	}
	if n := fields["allocs"].(uint64); n < 1 {
		t.Errorf("allocs %d, want at least 1", n)
	}
	if fields["alloc_counter"] != allocCounter {
		t.Errorf("alloc_counter %v", fields["alloc_counter"])
	}
}

func TestComputeReadsNoAllocationCounter(t *testing.T) {
	_, fields, err := untimedCall(func() ([]byte, error) { return []byte{1}, nil }, false)
	if err != nil || fields != nil {
		t.Fatalf("compute: fields %v, err %v", fields, err)
	}
}
