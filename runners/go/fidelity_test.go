package main

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"strconv"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// The peer benchmark of bench/vs-go-test-bench and bench/fidelity: what a Go developer
// writes with testing.B, timing the same calls as the runner's go/stdlib and go/x-crypto cases.
// Only `go test` compiles this file; `go test ./...` runs no benchmark unless -bench asks.

var fidelitySink byte

func BenchmarkFidelity(b *testing.B) {
	// sha256 also at bench/fidelity's sizes (64 B, 1 KiB, 16 KiB).
	hashes := []struct {
		name  string
		sum   func([]byte) []byte
		sizes []int
	}{
		{"md5", func(m []byte) []byte { s := md5.Sum(m); return s[:1] }, []int{1000, 100000}},
		{"sha1", func(m []byte) []byte { s := sha1.Sum(m); return s[:1] }, []int{1000, 100000}},
		{"sha256", func(m []byte) []byte { s := sha256.Sum256(m); return s[:1] },
			[]int{64, 1000, 1024, 16384, 100000}},
	}
	for _, h := range hashes {
		for _, size := range h.sizes {
			msg := make([]byte, size)
			b.Run(h.name+"/"+strconv.Itoa(size), func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					fidelitySink ^= h.sum(msg)[0]
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
