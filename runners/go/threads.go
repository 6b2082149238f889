package main

import (
	"runtime"
	"sync"
)

// bench with "threads": N (docs/protocol.md): N goroutines, each locked to its own OS thread
// and holding its own case (its own setup and untimed call), released together by a barrier
// (a closed channel), each timing the same batches. Goroutines share the heap, the garbage
// collector and GOMAXPROCS (the process's CPUs); a library's own locks show here.

const maxThreads = 256

// threadsField reads the optional "threads" field: 1 when absent.
func threadsField(req request) (int, error) {
	raw, ok := req["threads"]
	if !ok || string(raw) == "null" {
		return 1, nil
	}
	n, err := positiveField(raw, "threads", 1<<40)
	if err != nil || n > maxThreads {
		return 0, errorf(kindBadRequest, "threads must be an integer in 1..%d", maxThreads)
	}
	return n, nil
}

// benchThreads times the case in n goroutines at once; the answer's thread_samples has
// every goroutine's batches (samples: the first one's).
func benchThreads(libs []*library, req request, n, iterations, batches int) ([][]sample, error) {
	cases := make([]prepared, n)
	for i := range cases {
		_, pc, err := buildCase(libs, req)
		if err != nil {
			return nil, err
		}
		if _, err := pc.run(); err != nil {
			return nil, err
		}
		cases[i] = pc
	}
	start := make(chan struct{})
	all := make([][]sample, n)
	errs := make([]error, n)
	var ready, done sync.WaitGroup
	ready.Add(n)
	done.Add(n)
	for i := range cases {
		go func(i int) {
			defer done.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			ready.Done()
			<-start
			all[i], errs[i] = timeThread(cases[i], iterations, batches)
		}(i)
	}
	ready.Wait()
	close(start)
	done.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return all, nil
}
