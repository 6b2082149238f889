package main

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/md5"
	"crypto/pbkdf2"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"fmt"
	"hash"
	"hash/adler32"
	"hash/crc32"
	"hash/fnv"
	"math"
	"runtime"
)

// go/stdlib: the Go standard library. One-shot functions where the package has them
// (md5.Sum, sha256.Sum256, crc32.Checksum, …); a reused hasher (Reset per message)
// where it has none (fnv, SHAKE).

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

var stdlibTable = map[string]primitive{
	"md5":           {ops: digest(sum16(md5.Sum)), native: "crypto/md5 Sum"},
	"sha1":          {ops: digest(sum20(sha1.Sum)), native: "crypto/sha1 Sum"},
	"sha224":        {ops: digest(sum28(sha256.Sum224)), native: "crypto/sha256 Sum224"},
	"sha256":        {ops: digest(sum32(sha256.Sum256)), native: "crypto/sha256 Sum256"},
	"sha384":        {ops: digest(sum48(sha512.Sum384)), native: "crypto/sha512 Sum384"},
	"sha512":        {ops: digest(sum64(sha512.Sum512)), native: "crypto/sha512 Sum512"},
	"sha512-224":    {ops: digest(sum28(sha512.Sum512_224)), native: "crypto/sha512 Sum512_224"},
	"sha512-256":    {ops: digest(sum32(sha512.Sum512_256)), native: "crypto/sha512 Sum512_256"},
	"sha3-224":      {ops: digest(sum28(sha3.Sum224)), native: "crypto/sha3 Sum224"},
	"sha3-256":      {ops: digest(sum32(sha3.Sum256)), native: "crypto/sha3 Sum256"},
	"sha3-384":      {ops: digest(sum48(sha3.Sum384)), native: "crypto/sha3 Sum384"},
	"sha3-512":      {ops: digest(sum64(sha3.Sum512)), native: "crypto/sha3 Sum512"},
	"shake128":      {ops: digest(xofOp(func() xofReader { return sha3.NewSHAKE128() })), native: "crypto/sha3 NewSHAKE128"},
	"shake256":      {ops: digest(xofOp(func() xofReader { return sha3.NewSHAKE256() })), native: "crypto/sha3 NewSHAKE256"},
	"crc32":         {ops: digest(checksum32(crc32.ChecksumIEEE)), native: "hash/crc32 ChecksumIEEE"},
	"crc32c":        {ops: digest(checksum32(func(b []byte) uint32 { return crc32.Checksum(b, castagnoli) })), native: "hash/crc32 Castagnoli"},
	"adler32":       {ops: digest(checksum32(adler32.Checksum)), native: "hash/adler32 Checksum"},
	"fnv1-32":       {ops: digest(hasherOp(func() hash.Hash { return fnv.New32() })), native: "hash/fnv New32"},
	"fnv1a-32":      {ops: digest(hasherOp(func() hash.Hash { return fnv.New32a() })), native: "hash/fnv New32a"},
	"fnv1-64":       {ops: digest(hasherOp(func() hash.Hash { return fnv.New64() })), native: "hash/fnv New64"},
	"fnv1a-64":      {ops: digest(hasherOp(func() hash.Hash { return fnv.New64a() })), native: "hash/fnv New64a"},
	"hmac-sha256":   {ops: hmacOps(sha256.New), native: "crypto/hmac New(sha256.New)"},
	"aes-128-ctr":   {ops: ctrOps(aesBlock(16)), native: "crypto/cipher NewCTR(aes)"},
	"aes-256-ctr":   {ops: ctrOps(aesBlock(32)), native: "crypto/cipher NewCTR(aes)"},
	"aes-128-gcm":   {ops: aeadOps(aesGCM(16)), native: "crypto/cipher NewGCM(aes)"},
	"aes-256-gcm":   {ops: aeadOps(aesGCM(32)), native: "crypto/cipher NewGCM(aes)"},
	"pbkdf2-sha1":   {ops: derive(pbkdf2Derive(sha1.New)), native: "crypto/pbkdf2 Key(sha1.New)"},
	"pbkdf2-sha256": {ops: derive(pbkdf2Derive(sha256.New)), native: "crypto/pbkdf2 Key(sha256.New)"},
	"pbkdf2-sha512": {ops: derive(pbkdf2Derive(sha512.New)), native: "crypto/pbkdf2 Key(sha512.New)"},
}

func stdlibLibrary() *library {
	return &library{
		name:     "stdlib",
		version:  runtime.Version(),
		backend:  backend{Name: "go", Version: runtime.Version()},
		codePath: stdlibCodePath(),
		notes:    "one-shot Sum functions; fnv and SHAKE reuse one hasher (Reset per message); CTR makes a cipher.Stream per message; HMAC verify compares with hmac.Equal",
		table:    stdlibTable,
	}
}

// aesBlock expands an AES key of exactly n bytes (aes.NewCipher alone would take any AES size).
func aesBlock(n int) newKeyed[cipher.Block] {
	return func(key []byte) (cipher.Block, error) {
		if len(key) != n {
			return nil, fmt.Errorf("key must be %d bytes, got %d", n, len(key))
		}
		return aes.NewCipher(key)
	}
}

func aesGCM(n int) newKeyed[cipher.AEAD] {
	block := aesBlock(n)
	return func(key []byte) (cipher.AEAD, error) {
		b, err := block(key)
		if err != nil {
			return nil, err
		}
		return cipher.NewGCM(b)
	}
}

func pbkdf2Derive(h func() hash.Hash) builder {
	return deriveOp(func(p *params) (deriveFunc, error) {
		iter, err := p.intIn("iterations", 1, math.MaxInt32)
		n, err2 := outLen(p)
		return func(pw, salt []byte) ([]byte, error) {
			return pbkdf2.Key(h, string(pw), salt, iter, n)
		}, firstError(err, err2)
	})
}

// digest and derive are one-operation table entries.
func digest(b builder) map[string]builder { return map[string]builder{"digest": b} }

func derive(b builder) map[string]builder { return map[string]builder{"derive": b} }
