package main

// Builders for the public-key families (docs/protocol.md, "Public-key operations"):
// kex (keygen, agree) and signature (keygen, sign, verify). A scheme gives functions over
// the protocol's encodings; K is the library's parsed key. Our key is parsed once per case
// (in every call with fresh_context); agree parses the peer's public key in every call (it
// arrives with each handshake). keygen without key_seed makes a fresh random pair per call.

// keyGen makes a key pair: from seed (32 bytes) when it is not nil, else at random.
type keyGen func(seed []byte) (public, private []byte, err error)

type kexScheme[K any] struct {
	keygen keyGen
	load   func(private []byte) (K, error)
	agree  func(key K, peer []byte) ([]byte, error)
}

type sigScheme[K, P any] struct {
	keygen      keyGen
	loadPrivate func(private []byte) (K, error)
	loadPublic  func(public []byte) (P, error)
	sign        func(key K, msg []byte) ([]byte, error)
	verify      func(key P, msg, sig []byte) bool
}

func kexOps[K any](s kexScheme[K]) map[string]builder {
	return map[string]builder{
		"keygen": keygenOp(s.keygen),
		"agree": func(in inputs, p *params) (prepared, error) {
			peer, err := in.get("peer_public_key")
			if err != nil {
				return prepared{}, err
			}
			return keyedOp(in, p, "private_key", s.load, func(key K) ([]byte, error) {
				return s.agree(key, peer)
			})
		},
	}
}

func sigOps[K, P any](s sigScheme[K, P]) map[string]builder {
	return map[string]builder{
		"keygen": keygenOp(s.keygen),
		"sign": func(in inputs, p *params) (prepared, error) {
			msg, err := in.get("msg")
			if err != nil {
				return prepared{}, err
			}
			return keyedOp(in, p, "private_key", s.loadPrivate, func(key K) ([]byte, error) {
				return s.sign(key, msg)
			})
		},
		"verify": func(in inputs, p *params) (prepared, error) {
			msg, err := in.get("msg")
			sig, err2 := in.get("signature")
			if err := firstError(err, err2); err != nil {
				return prepared{}, err
			}
			return keyedOp(in, p, "public_key", s.loadPublic, func(key P) ([]byte, error) {
				if !s.verify(key, msg, sig) {
					return nil, errAuth
				}
				return okOutput, nil
			})
		},
	}
}

// keygenOp answers public key ‖ private key, from a 32-byte key_seed when it is sent.
func keygenOp(gen keyGen) builder { return seededKeygenOp(gen, 32) }

// seededKeygenOp answers public key ‖ private key, from a key_seed of the scheme's own length
// when it is sent.
func seededKeygenOp(gen keyGen, size int) builder {
	return func(in inputs, p *params) (prepared, error) {
		var seed []byte
		if in.present["key_seed"] {
			s, err := in.get("key_seed")
			if err != nil {
				return prepared{}, err
			}
			if len(s) != size {
				return prepared{}, errorf(kindInvalidParams, "key_seed is %d bytes, not %d", len(s), size)
			}
			seed = s
		}
		return prepared{run: func() ([]byte, error) {
			public, private, err := gen(seed)
			if err != nil {
				return nil, err
			}
			return append(append(make([]byte, 0, len(public)+len(private)), public...), private...), nil
		}}, nil
	}
}

// keyedOp parses the named key input once (or in every call with fresh_context) and runs use.
func keyedOp[K any](in inputs, p *params, name string, load func([]byte) (K, error), use func(K) ([]byte, error)) (prepared, error) {
	raw, err := in.get(name)
	if err != nil {
		return prepared{}, err
	}
	fresh, err := p.fresh()
	if err != nil {
		return prepared{}, err
	}
	parse := func() (K, error) {
		key, err := load(raw)
		if err != nil {
			return key, errorf(kindInvalidParams, "%s: %v", name, err)
		}
		return key, nil
	}
	if fresh {
		return prepared{run: func() ([]byte, error) {
			key, err := parse()
			if err != nil {
				return nil, err
			}
			return use(key)
		}}, nil
	}
	key, err := parse()
	if err != nil {
		return prepared{}, err
	}
	return prepared{run: func() ([]byte, error) { return use(key) }}, nil
}

// noSeed is keygen's answer for a key type with no standard generation from a seed (RSA).
var noSeed = errorf(kindUnsupported, "this key type has no key generation from a seed")

// peerError reports a peer public key the library refused as invalid_params.
func peerError(err error) error {
	return errorf(kindInvalidParams, "peer_public_key: %v", err)
}
