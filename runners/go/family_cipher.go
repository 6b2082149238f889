package main

import (
	"bytes"
	"crypto/cipher"
	"crypto/hmac"
	"encoding/binary"
	"hash"
)

// Builders for MACs, CTR ciphers and AEADs. Setup (key schedule, cipher object) happens
// in the builder, or inside every op when params.fresh_context is true.

// stepNonce increments the big-endian counter in the nonce's last 4 bytes, wrapping.
func stepNonce(nonce []byte) func() {
	tail := nonce[len(nonce)-4:]
	return func() { binary.BigEndian.PutUint32(tail, binary.BigEndian.Uint32(tail)+1) }
}

// hmacOp: the reused case keeps one hmac object (Reset per message, as the docs allow).
func hmacOp(newHash func() hash.Hash) builder {
	return func(in inputs, p *params) (prepared, error) {
		fresh, err := p.fresh()
		key, err2 := in.get("key")
		msg, err3 := in.get("msg")
		if err := firstError(err, err2, err3); err != nil {
			return prepared{}, err
		}
		out := make([]byte, 0, newHash().Size())
		if fresh {
			return prepared{run: func() ([]byte, error) {
				m := hmac.New(newHash, key)
				m.Write(msg)
				return m.Sum(out[:0]), nil
			}}, nil
		}
		m := hmac.New(newHash, key)
		return prepared{run: func() ([]byte, error) {
			m.Reset()
			m.Write(msg)
			return m.Sum(out[:0]), nil
		}}, nil
	}
}

// hmacVerifyOp: the tag computed as hmacOp computes it (fresh_context alike), then
// hmac.Equal (constant time; a tag of another length is not equal) → "ok" or auth_failed.
func hmacVerifyOp(newHash func() hash.Hash) builder {
	mac := hmacOp(newHash)
	return func(in inputs, p *params) (prepared, error) {
		tag, err := in.get("tag")
		pc, err2 := mac(in, p)
		if err := firstError(err, err2); err != nil {
			return prepared{}, err
		}
		sum := pc.run
		return prepared{run: func() ([]byte, error) {
			got, err := sum()
			if err != nil {
				return nil, err
			}
			if !hmac.Equal(got, tag) {
				return nil, errAuth
			}
			return okOutput, nil
		}}, nil
	}
}

// hmacOps is the table entry of an HMAC: mac and verify over one hash.
func hmacOps(newHash func() hash.Hash) map[string]builder {
	return map[string]builder{"mac": hmacOp(newHash), "verify": hmacVerifyOp(newHash)}
}

// newKeyed builds a block cipher or AEAD from a key; errors are the library's.
type newKeyed[T any] func(key []byte) (T, error)

// keyed returns a getter for the keyed object: made once, or on every call when fresh.
func keyed[T any](p *params, in inputs, construct newKeyed[T]) (func() (T, error), error) {
	fresh, err := p.fresh()
	key, err2 := in.get("key")
	if err := firstError(err, err2); err != nil {
		return nil, err
	}
	obj, err := construct(key)
	if err != nil {
		return nil, errorf(kindInvalidParams, "%v", err)
	}
	if fresh {
		return func() (T, error) { return construct(key) }, nil
	}
	return func() (T, error) { return obj, nil }, nil
}

// ctrOp: operation "encrypt" or "roundtrip" over a block cipher in CTR mode. A
// cipher.Stream is single-use, so the reused case keeps the expanded key (the Block)
// and makes the stream per message.
func ctrOp(makeBlock newKeyed[cipher.Block], roundtrip bool) builder {
	return func(in inputs, p *params) (prepared, error) {
		block, err := keyed(p, in, makeBlock)
		iv, err2 := in.get("nonce")
		msg, err3 := in.get("msg")
		if err := firstError(err, err2, err3); err != nil {
			return prepared{}, err
		}
		if len(iv) != 16 {
			return prepared{}, errorf(kindInvalidParams, "the counter block must be 16 bytes, got %d", len(iv))
		}
		ct, pt := make([]byte, len(msg)), make([]byte, len(msg))
		checked := !roundtrip
		run := func() ([]byte, error) {
			b, err := block()
			if err != nil {
				return nil, err
			}
			cipher.NewCTR(b, iv).XORKeyStream(ct, msg)
			if roundtrip {
				cipher.NewCTR(b, iv).XORKeyStream(pt, ct)
				if !checked {
					return ct, checkRoundtrip(&checked, pt, msg)
				}
			}
			return ct, nil
		}
		return prepared{run: run, step: stepNonce(iv)}, nil
	}
}

// checkRoundtrip compares the decrypted text once, on the first (untimed) call.
func checkRoundtrip(checked *bool, got, want []byte) error {
	if !bytes.Equal(got, want) {
		return errorf(kindInternal, "roundtrip did not give the message back")
	}
	*checked = true
	return nil
}

// aeadSetup is what seal, open and roundtrip share.
type aeadSetup struct {
	aead            func() (cipher.AEAD, error)
	nonce, aad, msg []byte
	buf, buf2       []byte // output buffers: ciphertext, and roundtrip's plaintext
}

// aadLenLabel validates the optional aad_len: a label of the case, never compared with the
// aad sent, whose own length is the AAD length (docs/protocol.md, "One meaning for aad").
func aadLenLabel(p *params) error {
	if _, ok, err := p.number("aad_len"); err != nil || !ok {
		return err
	}
	_, err := p.intIn("aad_len", 0, 1<<30)
	return err
}

func setupAEAD(in inputs, p *params, makeAEAD newKeyed[cipher.AEAD]) (*aeadSetup, error) {
	get, err := keyed(p, in, makeAEAD)
	nonce, err2 := in.get("nonce")
	msg, err3 := in.get("msg")
	err4 := aadLenLabel(p)
	if err := firstError(err, err2, err3, err4); err != nil {
		return nil, err
	}
	aad := in.bytes["aad"] // absent means empty; its length is the AAD length (protocol.md)
	a, _ := get()
	if len(nonce) != a.NonceSize() {
		return nil, errorf(kindInvalidParams, "nonce must be %d bytes, got %d", a.NonceSize(), len(nonce))
	}
	size := len(msg) + a.Overhead()
	return &aeadSetup{aead: get, nonce: nonce, aad: append([]byte{}, aad...), msg: msg,
		buf: make([]byte, 0, size), buf2: make([]byte, 0, size)}, nil
}

func sealOp(makeAEAD newKeyed[cipher.AEAD]) builder {
	return func(in inputs, p *params) (prepared, error) {
		s, err := setupAEAD(in, p, makeAEAD)
		if err != nil {
			return prepared{}, err
		}
		return prepared{step: stepNonce(s.nonce), run: func() ([]byte, error) {
			a, err := s.aead()
			if err != nil {
				return nil, err
			}
			return a.Seal(s.buf[:0], s.nonce, s.msg, s.aad), nil
		}}, nil
	}
}

// openOp decrypts the same ciphertext under the same nonce every time (no stepping).
func openOp(makeAEAD newKeyed[cipher.AEAD]) builder {
	return func(in inputs, p *params) (prepared, error) {
		s, err := setupAEAD(in, p, makeAEAD)
		if err != nil {
			return prepared{}, err
		}
		return prepared{run: func() ([]byte, error) {
			a, err := s.aead()
			if err != nil {
				return nil, err
			}
			pt, err := a.Open(s.buf[:0], s.nonce, s.msg, s.aad)
			if err != nil {
				return nil, errAuth
			}
			return pt, nil
		}}, nil
	}
}

// roundtripOp seals, then opens what it sealed; the plaintext is compared on the first call.
func roundtripOp(makeAEAD newKeyed[cipher.AEAD]) builder {
	return func(in inputs, p *params) (prepared, error) {
		s, err := setupAEAD(in, p, makeAEAD)
		if err != nil {
			return prepared{}, err
		}
		checked := false
		return prepared{step: stepNonce(s.nonce), run: func() ([]byte, error) {
			a, err := s.aead()
			if err != nil {
				return nil, err
			}
			ct := a.Seal(s.buf[:0], s.nonce, s.msg, s.aad)
			pt, err := a.Open(s.buf2[:0], s.nonce, ct, s.aad)
			if err != nil {
				return nil, errorf(kindInternal, "roundtrip could not open its own ciphertext")
			}
			if !checked {
				return ct, checkRoundtrip(&checked, pt, s.msg)
			}
			return ct, nil
		}}, nil
	}
}

// aeadOps is the table entry of an AEAD: seal, open and roundtrip over one constructor.
func aeadOps(makeAEAD newKeyed[cipher.AEAD]) map[string]builder {
	return map[string]builder{
		"seal": sealOp(makeAEAD), "open": openOp(makeAEAD), "roundtrip": roundtripOp(makeAEAD),
	}
}

// ctrOps is the table entry of a CTR cipher.
func ctrOps(makeBlock newKeyed[cipher.Block]) map[string]builder {
	return map[string]builder{"encrypt": ctrOp(makeBlock, false), "roundtrip": ctrOp(makeBlock, true)}
}
