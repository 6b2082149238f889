package main

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"fmt"
	"io"
	"math/big"
)

// go/stdlib's public-key rows: crypto/ecdh (X25519, P-256), crypto/ed25519, crypto/ecdsa
// (P-256, SHA-256; DER and r‖s) and crypto/rsa (PSS, PKCS#1 v1.5) with x509's DER key forms.

func init() {
	for id, row := range stdlibPubkeyTable {
		stdlibTable[id] = row
	}
}

var stdlibPubkeyTable = map[string]primitive{
	"x25519":                  {ops: kexOps(ecdhScheme(ecdh.X25519())), native: "crypto/ecdh X25519"},
	"ecdh-p256":               {ops: kexOps(ecdhScheme(ecdh.P256())), native: "crypto/ecdh P256"},
	"ed25519":                 {ops: sigOps(stdEd25519), native: "crypto/ed25519 Sign/Verify"},
	"ecdsa-p256-sha256":       {ops: sigOps(ecdsaScheme(ecdsaSignDER, ecdsaVerifyDER)), native: "crypto/ecdsa SignASN1/VerifyASN1"},
	"ecdsa-p256-sha256-p1363": {ops: sigOps(ecdsaScheme(ecdsaSignP1363, ecdsaVerifyP1363)), native: "crypto/ecdsa Sign/Verify (r, s)"},
	"rsa-2048-pss-sha256":     {ops: sigOps(rsaScheme(2048, rsaSignPSS, rsaVerifyPSS)), native: "crypto/rsa SignPSS (SaltLength 32)"},
	"rsa-3072-pss-sha256":     {ops: sigOps(rsaScheme(3072, rsaSignPSS, rsaVerifyPSS)), native: "crypto/rsa SignPSS (SaltLength 32)"},
	"rsa-2048-pkcs1-sha256":   {ops: sigOps(rsaScheme(2048, rsaSignPKCS1, rsaVerifyPKCS1)), native: "crypto/rsa SignPKCS1v15"},
}

func ecdhScheme(curve ecdh.Curve) kexScheme[*ecdh.PrivateKey] {
	return kexScheme[*ecdh.PrivateKey]{
		keygen: func(seed []byte) ([]byte, []byte, error) {
			var key *ecdh.PrivateKey
			var err error
			if seed == nil {
				key, err = curve.GenerateKey(rand.Reader)
			} else if key, err = curve.NewPrivateKey(seed); err != nil {
				return nil, nil, errorf(kindInvalidParams, "key_seed: %v", err)
			}
			if err != nil {
				return nil, nil, err
			}
			return key.PublicKey().Bytes(), key.Bytes(), nil
		},
		load: curve.NewPrivateKey,
		agree: func(key *ecdh.PrivateKey, peer []byte) ([]byte, error) {
			pub, err := curve.NewPublicKey(peer)
			if err != nil {
				return nil, peerError(err)
			}
			secret, err := key.ECDH(pub)
			if err != nil {
				return nil, peerError(err) // X25519: a low-order point (all-zero secret)
			}
			return secret, nil
		},
	}
}

var stdEd25519 = ed25519Scheme(ed25519.GenerateKey, ed25519.NewKeyFromSeed, ed25519.Sign, ed25519.Verify)

// edPrivate is an Ed25519 private key type with crypto/ed25519's methods.
type edPrivate interface {
	~[]byte
	Seed() []byte
	Public() crypto.PublicKey
}

// ed25519Scheme is the Ed25519 row over crypto/ed25519's API, which circl/sign/ed25519
// repeats (lib_circl_pubkey.go passes its own functions): keys are the 32-byte seed and
// public key.
func ed25519Scheme[K edPrivate, P ~[]byte](
	generate func(io.Reader) (P, K, error),
	fromSeed func(seed []byte) K,
	sign func(key K, msg []byte) []byte,
	verify func(key P, msg, sig []byte) bool,
) sigScheme[K, P] {
	return sigScheme[K, P]{
		keygen: func(seed []byte) ([]byte, []byte, error) {
			if seed == nil {
				pub, priv, err := generate(rand.Reader)
				if err != nil {
					return nil, nil, err
				}
				return pub, priv.Seed(), nil
			}
			priv := fromSeed(seed)
			return priv.Public().(P), priv.Seed(), nil
		},
		loadPrivate: func(b []byte) (K, error) {
			if len(b) != ed25519.SeedSize {
				return nil, fmt.Errorf("an Ed25519 private key is 32 bytes, not %d", len(b))
			}
			return fromSeed(b), nil
		},
		loadPublic: func(b []byte) (P, error) {
			if len(b) != ed25519.PublicKeySize {
				return nil, fmt.Errorf("an Ed25519 public key is 32 bytes, not %d", len(b))
			}
			return P(b), nil
		},
		sign:   func(key K, msg []byte) ([]byte, error) { return sign(key, msg), nil },
		verify: verify,
	}
}

func ecdsaScheme(sign func(*ecdsa.PrivateKey, []byte) ([]byte, error), verify func(*ecdsa.PublicKey, []byte, []byte) bool) sigScheme[*ecdsa.PrivateKey, *ecdsa.PublicKey] {
	return sigScheme[*ecdsa.PrivateKey, *ecdsa.PublicKey]{
		keygen: func(seed []byte) ([]byte, []byte, error) {
			var key *ecdsa.PrivateKey
			var err error
			if seed == nil {
				key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
			} else if key, err = ecdsa.ParseRawPrivateKey(elliptic.P256(), seed); err != nil {
				return nil, nil, errorf(kindInvalidParams, "key_seed: %v", err)
			}
			if err != nil {
				return nil, nil, err
			}
			public, err := key.PublicKey.Bytes()
			if err != nil {
				return nil, nil, err
			}
			private, err := key.Bytes()
			return public, private, err
		},
		loadPrivate: func(b []byte) (*ecdsa.PrivateKey, error) { return ecdsa.ParseRawPrivateKey(elliptic.P256(), b) },
		loadPublic:  func(b []byte) (*ecdsa.PublicKey, error) { return ecdsa.ParseUncompressedPublicKey(elliptic.P256(), b) },
		sign: func(key *ecdsa.PrivateKey, msg []byte) ([]byte, error) {
			h := sha256.Sum256(msg)
			return sign(key, h[:])
		},
		verify: func(key *ecdsa.PublicKey, msg, sig []byte) bool {
			h := sha256.Sum256(msg)
			return verify(key, h[:], sig)
		},
	}
}

func ecdsaSignDER(key *ecdsa.PrivateKey, h []byte) ([]byte, error) {
	return ecdsa.SignASN1(rand.Reader, key, h)
}

func ecdsaVerifyDER(key *ecdsa.PublicKey, h, sig []byte) bool { return ecdsa.VerifyASN1(key, h, sig) }

func ecdsaSignP1363(key *ecdsa.PrivateKey, h []byte) ([]byte, error) {
	r, s, err := ecdsa.Sign(rand.Reader, key, h)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 64)
	r.FillBytes(out[:32])
	s.FillBytes(out[32:])
	return out, nil
}

func ecdsaVerifyP1363(key *ecdsa.PublicKey, h, sig []byte) bool {
	if len(sig) != 64 {
		return false
	}
	r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
	return ecdsa.Verify(key, h, r, s)
}

var pss32 = &rsa.PSSOptions{SaltLength: 32, Hash: crypto.SHA256} // MGF1 uses the same hash

func rsaSignPSS(key *rsa.PrivateKey, h []byte) ([]byte, error) {
	return rsa.SignPSS(rand.Reader, key, crypto.SHA256, h, pss32)
}

func rsaVerifyPSS(key *rsa.PublicKey, h, sig []byte) bool {
	return rsa.VerifyPSS(key, crypto.SHA256, h, sig, pss32) == nil
}

func rsaSignPKCS1(key *rsa.PrivateKey, h []byte) ([]byte, error) {
	return rsa.SignPKCS1v15(nil, key, crypto.SHA256, h)
}

func rsaVerifyPKCS1(key *rsa.PublicKey, h, sig []byte) bool {
	return rsa.VerifyPKCS1v15(key, crypto.SHA256, h, sig) == nil
}

func rsaScheme(bits int, sign func(*rsa.PrivateKey, []byte) ([]byte, error), verify func(*rsa.PublicKey, []byte, []byte) bool) sigScheme[*rsa.PrivateKey, *rsa.PublicKey] {
	return sigScheme[*rsa.PrivateKey, *rsa.PublicKey]{
		keygen: func(seed []byte) ([]byte, []byte, error) {
			if seed != nil {
				return nil, nil, noSeed
			}
			key, err := rsa.GenerateKey(rand.Reader, bits)
			if err != nil {
				return nil, nil, err
			}
			public, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
			if err != nil {
				return nil, nil, err
			}
			private, err := x509.MarshalPKCS8PrivateKey(key)
			return public, private, err
		},
		loadPrivate: func(b []byte) (*rsa.PrivateKey, error) {
			parsed, err := x509.ParsePKCS8PrivateKey(b)
			key, ok := parsed.(*rsa.PrivateKey)
			if err != nil || !ok || key.N.BitLen() != bits {
				return nil, fmt.Errorf("not an RSA-%d PKCS#8 private key (%v)", bits, err)
			}
			return key, nil
		},
		loadPublic: func(b []byte) (*rsa.PublicKey, error) {
			parsed, err := x509.ParsePKIXPublicKey(b)
			key, ok := parsed.(*rsa.PublicKey)
			if err != nil || !ok || key.N.BitLen() != bits {
				return nil, fmt.Errorf("not an RSA-%d SubjectPublicKeyInfo (%v)", bits, err)
			}
			return key, nil
		},
		sign: func(key *rsa.PrivateKey, msg []byte) ([]byte, error) {
			h := sha256.Sum256(msg)
			return sign(key, h[:])
		},
		verify: func(key *rsa.PublicKey, msg, sig []byte) bool {
			h := sha256.Sum256(msg)
			return verify(key, h[:], sig)
		},
	}
}
