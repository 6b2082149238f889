package main

import (
	"bytes"
	"errors"
	"math"

	"golang.org/x/crypto/argon2"
	"golang.org/x/crypto/bcrypt"
	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/blake2s"
	"golang.org/x/crypto/chacha20poly1305"
	"golang.org/x/crypto/md4"
	"golang.org/x/crypto/ripemd160"
	"golang.org/x/crypto/scrypt"
	xsha3 "golang.org/x/crypto/sha3"
)

// go/x-crypto: golang.org/x/crypto. One-shot Sum functions for BLAKE2; md4, ripemd160
// and Keccak have only hash.Hash constructors, reused with Reset per message.

var xcryptoTable = map[string]primitive{
	"md4":                {ops: digest(hasherOp(md4.New)), native: "x/crypto/md4 New"},
	"ripemd160":          {ops: digest(hasherOp(ripemd160.New)), native: "x/crypto/ripemd160 New"},
	"keccak-256":         {ops: digest(hasherOp(xsha3.NewLegacyKeccak256)), native: "x/crypto/sha3 NewLegacyKeccak256"},
	"blake2b-512":        {ops: digest(sum64(blake2b.Sum512)), native: "x/crypto/blake2b Sum512"},
	"blake2s-256":        {ops: digest(sum32(blake2s.Sum256)), native: "x/crypto/blake2s Sum256"},
	"chacha20-poly1305":  {ops: aeadOps(chacha20poly1305.New), native: "x/crypto/chacha20poly1305 New"},
	"xchacha20-poly1305": {ops: aeadOps(chacha20poly1305.NewX), native: "x/crypto/chacha20poly1305 NewX"},
	"bcrypt":             {ops: map[string]builder{"hash": bcryptHash, "verify": bcryptVerify}, noSalt: true, native: "x/crypto/bcrypt"},
	"scrypt":             {ops: derive(deriveOp(scryptCosts)), native: "x/crypto/scrypt Key"},
	"argon2id":           {ops: derive(deriveOp(argon2Costs(argon2.IDKey))), native: "x/crypto/argon2 IDKey"},
	"argon2i":            {ops: derive(deriveOp(argon2Costs(argon2.Key))), native: "x/crypto/argon2 Key"},
}

func xcryptoLibrary() *library {
	v := moduleVersion("golang.org/x/crypto")
	return &library{
		name:     "x-crypto",
		version:  v,
		backend:  backend{Name: "golang.org/x/crypto", Version: v},
		codePath: xcryptoCodePath(),
		notes:    "argon2 and scrypt offer derive only (x/crypto has no encoded form); bcrypt draws its own salt",
		table:    xcryptoTable,
	}
}

// bcryptHash: GenerateFromPassword draws its own salt (takes_salt false) and writes
// the $2a$ prefix, normalised to $2b$ (same algorithm, docs/protocol.md).
func bcryptHash(in inputs, p *params) (prepared, error) {
	cost, err := p.intIn("cost", int64(bcrypt.MinCost), int64(bcrypt.MaxCost))
	pw, err2 := in.get("password")
	if err := firstError(err, err2); err != nil {
		return prepared{}, err
	}
	if len(pw) > 72 {
		return prepared{}, errorf(kindInvalidParams, "bcrypt takes at most 72 password bytes")
	}
	return prepared{run: func() ([]byte, error) {
		h, err := bcrypt.GenerateFromPassword(pw, cost)
		if err != nil {
			return nil, err
		}
		if bytes.HasPrefix(h, []byte("$2a$")) {
			h[2] = 'b'
		}
		return h, nil
	}}, nil
}

// bcryptVerify accepts $2a$, $2b$ and $2y$ (the library reads the cost from the string;
// a cost param, when sent, is only checked).
func bcryptVerify(in inputs, p *params) (prepared, error) {
	var err error
	if _, sent := p.raw["cost"]; sent {
		_, err = p.intIn("cost", int64(bcrypt.MinCost), int64(bcrypt.MaxCost))
	}
	pw, err2 := in.get("password")
	enc, err3 := in.getEncoded()
	if err := firstError(err, err2, err3); err != nil {
		return prepared{}, err
	}
	encoded := []byte(enc)
	return prepared{run: func() ([]byte, error) {
		err := bcrypt.CompareHashAndPassword(encoded, pw)
		if errors.Is(err, bcrypt.ErrMismatchedHashAndPassword) {
			return nil, errAuth
		}
		if err != nil {
			return nil, errorf(kindInvalidParams, "%v", err)
		}
		return okOutput, nil
	}}, nil
}

// scryptCosts: n is N itself; memory is 128·r·(N+p) bytes, capped (see memoryCap).
func scryptCosts(p *params) (deriveFunc, error) {
	n, err := p.intIn("n", 2, math.MaxInt32)
	r, err2 := p.intIn("r", 1, math.MaxInt32)
	par, err3 := p.intIn("p", 1, math.MaxInt32)
	keyLen, err4 := outLen(p)
	if err := firstError(err, err2, err3, err4); err != nil {
		return nil, err
	}
	if float64(128)*float64(r)*float64(n+par) > memoryCap {
		return nil, errorf(kindInvalidParams, "scrypt would need more than %d GiB", memoryCap>>30)
	}
	return func(pw, salt []byte) ([]byte, error) {
		return scrypt.Key(pw, salt, n, r, par, keyLen)
	}, nil
}

type argon2Func func(password, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte

// argon2Costs: t iterations, m KiB, p lanes. x/crypto panics on t < 1 or p < 1 and
// silently raises m below 8·p, so those are rejected here as RFC 9106 does.
func argon2Costs(f argon2Func) func(p *params) (deriveFunc, error) {
	return func(p *params) (deriveFunc, error) {
		t, err := p.uint32In("t", 1)
		m, err2 := p.uint32In("m", 8)
		lanes, err3 := p.intIn("p", 1, 255)
		keyLen, err4 := p.intIn("out_len", 4, 1<<20)
		if err := firstError(err, err2, err3, err4); err != nil {
			return nil, err
		}
		if int64(m) < 8*int64(lanes) || int64(m)<<10 > memoryCap {
			return nil, errorf(kindInvalidParams, "m must be in [8·p, %d] KiB", memoryCap>>10)
		}
		return func(pw, salt []byte) ([]byte, error) {
			return f(pw, salt, t, m, uint8(lanes), uint32(keyLen)), nil
		}, nil
	}
}
