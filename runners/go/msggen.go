package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
)

// Generated messages (docs/protocol.md, "Generated messages"): xorshift64 over one 64 KiB block,
// repeated to the length. Not a cryptographic primitive: the same bytes in every runner.

const msggenBlock = 65536

var generators = []string{"xorshift64"}

type generatorSpec struct {
	Generator string `json:"generator"`
	Seed      *int64 `json:"seed"`
	Length    *int64 `json:"length"`
}

// isGenerated: the raw input is a JSON object (a generator), not a hex string.
func isGenerated(raw json.RawMessage) bool {
	return len(bytes.TrimSpace(raw)) > 0 && bytes.TrimSpace(raw)[0] == '{'
}

func expandGenerated(raw json.RawMessage) (msg []byte, err error) {
	var spec generatorSpec
	if json.Unmarshal(raw, &spec) != nil || spec.Generator != "xorshift64" {
		return nil, errorf(kindBadRequest, "unknown generator; valid: xorshift64")
	}
	if spec.Seed == nil || *spec.Seed < 0 || *spec.Seed > 4294967295 {
		return nil, errorf(kindBadRequest, "generator seed must be an integer in 0..4294967295")
	}
	if spec.Length == nil || *spec.Length < 0 {
		return nil, errorf(kindBadRequest, "generator length must be an integer >= 0")
	}
	if most := generatedLimit(); *spec.Length > most {
		return nil, errorf(kindInvalidParams, "a generated message is at most %d bytes here", most)
	}
	defer func() {
		if recover() != nil {
			msg, err = nil, errorf(kindInvalidParams, "cannot hold a %d-byte message", *spec.Length)
		}
	}()
	block := make([]byte, msggenBlock)
	x := uint64(*spec.Seed) ^ 0x9E3779B97F4A7C15
	for i := 0; i < msggenBlock; i += 8 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		binary.LittleEndian.PutUint64(block[i:], x)
	}
	msg = make([]byte, *spec.Length)
	for off := 0; off < len(msg); off += msggenBlock {
		copy(msg[off:], block)
	}
	return msg, nil
}
