package main

import (
	"encoding/binary"
	"hash"
)

// Builders for digests and checksums. Every op writes into a buffer made at setup and
// returns exactly that buffer: nothing is appended to the message or to an earlier output.

// digestOp runs fill(dst, msg) with dst of the given size.
func digestOp(size int, fill func(dst, msg []byte)) builder {
	return func(in inputs, p *params) (prepared, error) {
		msg, err := in.get("msg")
		if err != nil {
			return prepared{}, err
		}
		out := make([]byte, size)
		return prepared{run: func() ([]byte, error) {
			fill(out, msg)
			return out, nil
		}}, nil
	}
}

// One-shot functions returning arrays (md5.Sum, sha256.Sum256, …): no hasher, no allocation.
func sum16(f func([]byte) [16]byte) builder {
	return digestOp(16, func(dst, msg []byte) { s := f(msg); copy(dst, s[:]) })
}

func sum20(f func([]byte) [20]byte) builder {
	return digestOp(20, func(dst, msg []byte) { s := f(msg); copy(dst, s[:]) })
}

func sum28(f func([]byte) [28]byte) builder {
	return digestOp(28, func(dst, msg []byte) { s := f(msg); copy(dst, s[:]) })
}

func sum32(f func([]byte) [32]byte) builder {
	return digestOp(32, func(dst, msg []byte) { s := f(msg); copy(dst, s[:]) })
}

func sum48(f func([]byte) [48]byte) builder {
	return digestOp(48, func(dst, msg []byte) { s := f(msg); copy(dst, s[:]) })
}

func sum64(f func([]byte) [64]byte) builder {
	return digestOp(64, func(dst, msg []byte) { s := f(msg); copy(dst, s[:]) })
}

// Integer checksums: the big-endian bytes of the integer (docs/protocol.md, "Encodings").
func checksum32(f func([]byte) uint32) builder {
	return digestOp(4, func(dst, msg []byte) { binary.BigEndian.PutUint32(dst, f(msg)) })
}

func checksum64(f func([]byte) uint64) builder {
	return digestOp(8, func(dst, msg []byte) { binary.BigEndian.PutUint64(dst, f(msg)) })
}

// seeded64 is an integer checksum with a seed parameter (default 0).
func seeded64(f func(msg []byte, seed uint64) uint64) builder {
	return withParams(func(p *params) (builder, error) {
		seed, err := p.seed()
		return checksum64(func(msg []byte) uint64 { return f(msg, seed) }), err
	})
}

// hasherOp reuses one hash.Hash (Reset per message) for libraries with no one-shot
// function. Sum(out[:0]) appends to an empty slice with room for the digest, so the
// result is exactly the digest: hash.Hash.Sum(b) appends to b, and Sum(msg) would not be.
func hasherOp(newHash func() hash.Hash) builder {
	return func(in inputs, p *params) (prepared, error) {
		msg, err := in.get("msg")
		if err != nil {
			return prepared{}, err
		}
		h := newHash()
		out := make([]byte, 0, h.Size())
		return prepared{run: func() ([]byte, error) {
			h.Reset()
			h.Write(msg)
			return h.Sum(out[:0]), nil
		}}, nil
	}
}

// xofReader is a reusable extendable-output hasher (sha3.SHAKE, blake3's OutputReader).
type xofReader interface {
	Reset()
	Write([]byte) (int, error)
	Read([]byte) (int, error)
}

// xofOp reads params.out_len bytes from a reused XOF after absorbing msg.
func xofOp(newXOF func() xofReader) builder {
	return withParams(func(p *params) (builder, error) {
		n, err := p.intIn("out_len", 1, 1<<24)
		if err != nil {
			return nil, err
		}
		return func(in inputs, _ *params) (prepared, error) {
			msg, err := in.get("msg")
			if err != nil {
				return prepared{}, err
			}
			h, out := newXOF(), make([]byte, n)
			return prepared{run: func() ([]byte, error) {
				h.Reset()
				h.Write(msg)
				h.Read(out)
				return out, nil
			}}, nil
		}, nil
	})
}

// withParams lets a builder read its params first and pick the inner builder from them.
func withParams(pick func(p *params) (builder, error)) builder {
	return func(in inputs, p *params) (prepared, error) {
		b, err := pick(p)
		if err != nil {
			return prepared{}, err
		}
		return b(in, p)
	}
}
