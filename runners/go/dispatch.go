package main

import "encoding/hex"

// Request → library call: hello, compute and bench over the hosted libraries.

func failure(id any, err error) response {
	kind, msg := kindOf(err)
	return response{ID: id, Error: &errorBody{Kind: kind, Message: msg}}
}

// serve answers one request line; a panic in a library becomes an internal error.
func serve(libs []*library, line []byte) (resp response) {
	req, id, err := decodeRequest(line)
	if err != nil {
		return failure(id, err)
	}
	defer func() {
		if r := recover(); r != nil {
			resp = failure(id, errorf(kindInternal, "panic: %v", r))
		}
	}()
	result, err := handle(libs, req)
	if err != nil {
		return failure(id, err)
	}
	return response{ID: id, OK: true, Result: result}
}

func handle(libs []*library, req request) (any, error) {
	op, err := stringField(req["op"], "op", true)
	if err != nil {
		return nil, err
	}
	switch op {
	case "hello":
		return hello(libs), nil
	case "compute", "bench":
		return runCase(libs, req, op == "bench")
	case "leak":
		return runLeak(libs, req)
	}
	return nil, errorf(kindBadRequest, "unknown op %q", op)
}

// runCase builds the case, makes the untimed verified call and, for bench, the timed batches.
func runCase(libs []*library, req request, bench bool) (any, error) {
	operation, pc, err := buildCase(libs, req)
	if err != nil {
		return nil, err
	}
	var iterations, batches int
	if bench {
		iterations, err = positiveField(req["iterations"], "iterations", maxIterations)
		if err == nil {
			batches, err = positiveField(req["batches"], "batches", maxBatches)
		}
		if err != nil {
			return nil, err
		}
	}
	first, alloc, err := untimedCall(pc.run, bench)
	if err != nil {
		return nil, err
	}
	result := map[string]any{"output": encodeOutput(operation, first)}
	for k, v := range alloc {
		result[k] = v
	}
	if bench {
		if threads, err := threadsField(req); err != nil || threads > 1 {
			if err != nil {
				return nil, err
			}
			all, err := benchThreads(libs, req, threads, iterations, batches)
			if err != nil {
				return nil, err
			}
			result["samples"], result["thread_samples"] = all[0], all
			return result, nil
		}
		samples, err := timeBatches(pc, iterations, batches)
		if err != nil {
			return nil, err
		}
		result["samples"] = samples
	}
	return result, nil
}

// encodeOutput: password hashes and verify answer with a string, everything else with hex.
func encodeOutput(operation string, out []byte) string {
	if isPasswordOutput(operation) {
		return string(out)
	}
	return hex.EncodeToString(out)
}
