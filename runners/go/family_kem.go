package main

// Builders for the kem family (docs/protocol.md, "Key encapsulation"): keygen (optional
// key_seed, the 64-byte ML-KEM seed d‖z) answers public key ‖ private key (the seed);
// encaps (public_key, optional 32-byte randomness m; the hybrid's: 64 bytes) answers
// ciphertext ‖ shared secret;
// decaps (private_key, ciphertext) answers the shared secret — a ciphertext that does not
// decrypt gives the implicit-rejection secret, never an error. E is the library's parsed
// encapsulation key, D its decapsulation key; our key is parsed once per case (in every call
// with fresh_context).

type kemScheme[E, D any] struct {
	seedSize   int // bytes of key_seed (the private key: ML-KEM's d‖z)
	ctSize     int
	randSize   int // bytes of encaps' randomness (0: FIPS 203's m, 32)
	keygen     keyGen
	loadPublic func(public []byte) (E, error)
	loadSeed   func(seed []byte) (D, error)
	// encaps answers ciphertext ‖ shared secret; m is nil for fresh randomness.
	encaps func(key E, m []byte) ([]byte, error)
	decaps func(key D, ct []byte) ([]byte, error)
}

func kemOps[E, D any](s kemScheme[E, D]) map[string]builder {
	return map[string]builder{
		"keygen": seededKeygenOp(s.keygen, s.seedSize),
		"encaps": func(in inputs, p *params) (prepared, error) {
			var m []byte
			if in.present["randomness"] {
				r, err := in.get("randomness")
				if err != nil {
					return prepared{}, err
				}
				if want := max(s.randSize, 32); len(r) != want {
					return prepared{}, errorf(kindInvalidParams, "randomness is %d bytes, not %d", len(r), want)
				}
				m = r
			}
			return keyedOp(in, p, "public_key", s.loadPublic, func(key E) ([]byte, error) {
				return s.encaps(key, m)
			})
		},
		"decaps": func(in inputs, p *params) (prepared, error) {
			ct, err := in.get("ciphertext")
			if err != nil {
				return prepared{}, err
			}
			if len(ct) != s.ctSize {
				return prepared{}, errorf(kindInvalidParams, "ciphertext is %d bytes, not %d", len(ct), s.ctSize)
			}
			return keyedOp(in, p, "private_key", s.loadSeed, func(key D) ([]byte, error) {
				return s.decaps(key, ct)
			})
		},
	}
}

// concat returns a ‖ b in a new slice.
func concat(a, b []byte) []byte {
	return append(append(make([]byte, 0, len(a)+len(b)), a...), b...)
}
