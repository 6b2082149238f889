package main

// The leak request (docs/protocol.md): single calls timed one by one over two classes of
// inputs prepared before timing, interleaved in the order the orchestrator sends. No policy.

import (
	"bytes"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
)

// controlCase: the language's equality (bytes.Equal, early exit) and its constant-time
// counterpart (subtle.ConstantTimeCompare); output 01 equal, 00 differ.
func controlCase(prim string, in map[string]json.RawMessage) (prepared, bool, error) {
	if prim != "equal" && prim != "equal-ct" {
		return prepared{}, false, nil
	}
	dec, err := decodeInputs(in)
	if err != nil {
		return prepared{}, true, err
	}
	a, b := dec.bytes["a"], dec.bytes["b"]
	one, zero := []byte{1}, []byte{0}
	if prim == "equal" {
		return prepared{run: func() ([]byte, error) {
			if bytes.Equal(a, b) {
				return one, nil
			}
			return zero, nil
		}}, true, nil
	}
	return prepared{run: func() ([]byte, error) {
		if subtle.ConstantTimeCompare(a, b) == 1 {
			return one, nil
		}
		return zero, nil
	}}, true, nil
}

func runLeak(libs []*library, req request) (any, error) {
	orderText, err := stringField(req["order"], "order", true)
	if err != nil {
		return nil, err
	}
	order, err := base64.StdEncoding.DecodeString(orderText)
	if err != nil || len(order) == 0 {
		return nil, errorf(kindBadRequest, "order must be non-empty base64")
	}
	for _, c := range order {
		if c > 1 {
			return nil, errorf(kindBadRequest, "order holds classes 0 and 1 only")
		}
	}
	shared, err := req.object("inputs")
	if err != nil {
		return nil, err
	}
	var classes []map[string]json.RawMessage
	if err := json.Unmarshal(req["classes"], &classes); err != nil || len(classes) != 2 || classes[0] == nil || classes[1] == nil {
		return nil, errorf(kindBadRequest, "classes must be a list of two objects")
	}
	prim, err := stringField(req["primitive"], "primitive", true)
	if err != nil {
		return nil, err
	}
	var calls [2]prepared
	outcomes := make([]string, 2)
	for c, over := range classes {
		merged := map[string]json.RawMessage{}
		for k, v := range shared {
			merged[k] = v
		}
		for k, v := range over {
			merged[k] = v
		}
		pc, isControl, err := controlCase(prim, merged)
		if err != nil {
			return nil, err
		}
		if !isControl {
			sub := request{}
			for k, v := range req {
				sub[k] = v
			}
			sub["inputs"], _ = json.Marshal(merged)
			_, pc, err = buildCase(libs, sub)
			if err != nil {
				return nil, err
			}
		}
		calls[c] = pc
		out, err := pc.run()
		switch {
		case err == nil && string(out) == "ok":
			outcomes[c] = "ok"
		case err == nil:
			outcomes[c] = hex.EncodeToString(out)
		default:
			kind, _ := kindOf(err)
			if kind != kindAuthFailed {
				return nil, err
			}
			outcomes[c] = kindAuthFailed
		}
	}
	ns := timeSingleCalls(calls, order)
	return map[string]any{
		"outcomes": outcomes,
		"ns":       base64.StdEncoding.EncodeToString(ns),
		"clock":    "time.Now/time.Since (monotonic)",
	}, nil
}
