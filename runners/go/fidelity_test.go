package main

import (
	"crypto/ed25519"
	"crypto/md5"
	"crypto/mlkem"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"strconv"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// The peer benchmarks of bench/vs-go-test-bench and bench/fidelity: what a Go developer
// writes with testing.B, timing the same calls as the runner's go/stdlib and go/x-crypto cases.
// Only `go test` compiles this file; `go test ./...` runs no benchmark unless -bench asks.

var fidelitySink byte

// The digests write into a buffer made before the loop, as the runner's digestOp does: a
// closure returning a slice of its local array would move the array to the heap and time
// an allocation per call (32 B/op) that the runner does not make.
func BenchmarkFidelity(b *testing.B) {
	// sha256 also at bench/fidelity's sizes (64 B, 1 KiB, 16 KiB).
	hashes := []struct {
		name  string
		sum   func(dst, msg []byte)
		sizes []int
	}{
		{"md5", func(d, m []byte) { s := md5.Sum(m); copy(d, s[:]) }, []int{1000, 100000}},
		{"sha1", func(d, m []byte) { s := sha1.Sum(m); copy(d, s[:]) }, []int{1000, 100000}},
		{"sha256", func(d, m []byte) { s := sha256.Sum256(m); copy(d, s[:]) },
			[]int{64, 1000, 1024, 16384, 100000}},
	}
	for _, h := range hashes {
		for _, size := range h.sizes {
			msg, out := make([]byte, size), make([]byte, 32)
			b.Run(h.name+"/"+strconv.Itoa(size), func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					h.sum(out, msg)
					fidelitySink ^= out[0]
				}
			})
		}
	}
	password := []byte("password")
	b.Run("bcrypt/8", func(b *testing.B) {
		for b.Loop() {
			out, err := bcrypt.GenerateFromPassword(password, 10)
			if err != nil {
				b.Fatal(err)
			}
			fidelitySink ^= out[0]
		}
	})
}

// BenchmarkFidelityEd25519 is the anchor of go/stdlib's ed25519 sign and verify rows: the key
// parsed once before the loop (as the runner's keyedOp does), ed25519.Sign / ed25519.Verify
// on a message of the row's size (32 B, the signature family's default, and 1 KiB).
func BenchmarkFidelityEd25519(b *testing.B) {
	priv := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	pub := priv.Public().(ed25519.PublicKey)
	for _, size := range []int{32, 1024} {
		msg := make([]byte, size)
		sig := ed25519.Sign(priv, msg)
		b.Run("sign/"+strconv.Itoa(size), func(b *testing.B) {
			for b.Loop() {
				fidelitySink ^= ed25519.Sign(priv, msg)[0]
			}
		})
		b.Run("verify/"+strconv.Itoa(size), func(b *testing.B) {
			for b.Loop() {
				if !ed25519.Verify(pub, msg, sig) {
					b.Fatal("ed25519.Verify rejected its own signature")
				}
			}
		})
	}
}

// BenchmarkFidelityMLKEM768 is the anchor of go/stdlib's ml-kem-768 keygen row beside the
// standard library's own BenchmarkKeyGen (crypto/mlkem), which derives every key from one
// fixed d‖z through an internal entry point. A keygen bench makes a fresh random key pair in
// every call (docs/protocol.md: key_seed is not sent to bench), so this is the runner's
// keygen call for call: 64 fresh bytes from crypto/rand, mlkem.NewDecapsulationKey768 (the
// same key derivation), both keys encoded and joined (public key ‖ seed).
func BenchmarkFidelityMLKEM768(b *testing.B) {
	b.Run("keygen", func(b *testing.B) {
		for b.Loop() {
			seed := make([]byte, mlkem.SeedSize)
			if _, err := rand.Read(seed); err != nil {
				b.Fatal(err)
			}
			dk, err := mlkem.NewDecapsulationKey768(seed)
			if err != nil {
				b.Fatal(err)
			}
			public, private := dk.EncapsulationKey().Bytes(), dk.Bytes()
			pair := append(append(make([]byte, 0, len(public)+len(private)), public...), private...)
			fidelitySink ^= pair[0] ^ pair[len(pair)-1]
		}
	})
}
