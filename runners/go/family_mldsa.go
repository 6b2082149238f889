package main

import "bytes"

// The sign builder of ML-DSA (FIPS 204; docs/protocol.md, "Public-key operations"): sign
// takes an optional 32-byte randomness, the rnd of ML-DSA.Sign_internal — 32 zero bytes give
// the deterministic variant (known answers); without it signing is hedged (fresh rnd per
// call, FIPS 204's default). keygen, verify and the key forms are sigOps' (private key = the
// 32-byte seed ξ).

// signR signs msg with rnd, or hedged when rnd is nil.
type signR[K any] func(key K, msg, rnd []byte) ([]byte, error)

func mldsaOps[K, P any](s sigScheme[K, P], sign signR[K]) map[string]builder {
	return randSignOps(s, sign, 32)
}

// randSignOps: sigOps with sign taking an optional randLen-byte randomness (another length →
// invalid_params); without it sign is hedged. Shared by ML-DSA and SLH-DSA (slhdsaOps).
func randSignOps[K, P any](s sigScheme[K, P], sign signR[K], randLen int) map[string]builder {
	s.sign = func(key K, msg []byte) ([]byte, error) { return sign(key, msg, nil) }
	ops := sigOps(s)
	ops["sign"] = func(in inputs, p *params) (prepared, error) {
		msg, err := in.get("msg")
		if err != nil {
			return prepared{}, err
		}
		var rnd []byte
		if in.present["randomness"] {
			if rnd, err = in.get("randomness"); err != nil {
				return prepared{}, err
			}
			if len(rnd) != randLen {
				return prepared{}, errorf(kindInvalidParams, "randomness is %d bytes, not %d", len(rnd), randLen)
			}
		}
		return keyedOp(in, p, "private_key", s.loadPrivate, func(key K) ([]byte, error) {
			return sign(key, msg, rnd)
		})
	}
	return ops
}

// zeroRandomness reports whether rnd asks for deterministic signing (32 zero bytes).
func zeroRandomness(rnd []byte) bool {
	return bytes.Equal(rnd, make([]byte, 32))
}
