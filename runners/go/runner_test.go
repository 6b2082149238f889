package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
)

// digestLen is the catalog output length of every digest this runner offers; a new
// table row without an entry here fails TestDigestIsExactlyTheDigest.
var digestLen = map[string]int{
	"md4": 16, "md5": 16, "sha1": 20, "ripemd160": 20, "sha224": 28, "sha256": 32,
	"sha384": 48, "sha512": 64, "sha512-224": 28, "sha512-256": 32, "sha3-224": 28,
	"sha3-256": 32, "sha3-384": 48, "sha3-512": 64, "shake128": 32, "shake256": 32,
	"keccak-256": 32, "blake2b-512": 64, "blake2s-256": 32, "blake3": 32,
	"crc32": 4, "crc32c": 4, "adler32": 4, "fnv1-32": 4, "fnv1a-32": 4, "fnv1-64": 8,
	"fnv1a-64": 8, "xxh64": 8, "xxh3-64": 8, "xxh3-128": 16,
}

// digestParams are the params the orchestrator always sends for these primitives.
func digestParams(id string) map[string]json.RawMessage {
	switch {
	case strings.HasPrefix(id, "shake"):
		return map[string]json.RawMessage{"out_len": json.RawMessage("32")}
	case strings.HasPrefix(id, "xxh"):
		return map[string]json.RawMessage{"seed": json.RawMessage("0")}
	}
	return map[string]json.RawMessage{}
}

func buildDigest(t *testing.T, lib *library, id string, msg []byte) prepared {
	t.Helper()
	in := inputs{bytes: map[string][]byte{"msg": msg}}
	pc, err := lib.table[id].ops["digest"](in, newParams(digestParams(id)))
	if err != nil {
		t.Fatalf("%s/%s: %v", lib.name, id, err)
	}
	return pc
}

// hash.Hash.Sum(b) appends the digest to b: a runner that passed the message (or an
// earlier output) as b would return more than the digest. Every digest here must return
// exactly its catalog length, the same bytes on every call, and leave the message alone.
func TestDigestIsExactlyTheDigest(t *testing.T) {
	for _, lib := range libraries() {
		for id, row := range lib.table {
			if row.ops["digest"] == nil {
				continue
			}
			want, known := digestLen[id]
			if !known {
				t.Errorf("%s: no expected length for %q", lib.name, id)
				continue
			}
			msg := []byte("abc")
			pc := buildDigest(t, lib, id, msg)
			first, _ := pc.run()
			first = append([]byte{}, first...)
			second, _ := pc.run()
			if len(first) != want || !bytes.Equal(first, second) || string(msg) != "abc" {
				t.Errorf("%s/%s: got %x then %x (want %d bytes, stable, msg intact)", lib.name, id, first, second, want)
			}
		}
	}
}

// The trap itself, shown on the standard library: Sum(msg) is not the digest.
func TestSumAppendsTrapIsAvoided(t *testing.T) {
	msg := []byte("abc")
	naive := sha256.New()
	naive.Write(msg)
	if got := naive.Sum(msg); len(got) != len(msg)+sha256.Size {
		t.Fatalf("expected Sum(msg) to append: %d bytes", len(got))
	}
	pc, err := hasherOp(sha256.New)(inputs{bytes: map[string][]byte{"msg": msg}}, newParams(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256(msg)
	for i := 0; i < 3; i++ {
		if got, _ := pc.run(); !bytes.Equal(got, want[:]) {
			t.Fatalf("call %d: %x, want %x", i, got, want)
		}
	}
}

// Check values: FIPS 180-4 / FIPS 202 examples ("abc"), RFC 1320 (MD4), the CRC
// catalogue's check values ("123456789"), the FNV reference's check values.
func TestKnownAnswers(t *testing.T) {
	cases := []struct{ lib, id, msg, want string }{
		{"stdlib", "sha256", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"stdlib", "sha1", "abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
		{"stdlib", "sha3-256", "abc", "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"},
		{"stdlib", "crc32", "123456789", "cbf43926"},
		{"stdlib", "crc32c", "123456789", "e3069283"},
		{"stdlib", "adler32", "Wikipedia", "11e60398"},
		{"stdlib", "fnv1a-32", "123456789", "bb86b11c"},
		{"x-crypto", "md4", "abc", "a448017aaf21d8525fc10ae87aa6729d"},
		{"blake3", "blake3", "", "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"},
		{"xxhash", "xxh64", "", "ef46db3751d8e999"},
		{"xxh3", "xxh3-128", "", "99aa06d3014798d86001c324468d497f"},
	}
	libs := map[string]*library{}
	for _, l := range libraries() {
		libs[l.name] = l
	}
	for _, c := range cases {
		out, _ := buildDigest(t, libs[c.lib], c.id, []byte(c.msg)).run()
		if hex.EncodeToString(out) != c.want {
			t.Errorf("%s/%s(%q) = %x, want %s", c.lib, c.id, c.msg, out, c.want)
		}
	}
}

func serveJSON(t *testing.T, req string) map[string]any {
	t.Helper()
	var resp map[string]any
	if err := json.Unmarshal(mustMarshal(t, serve(libraries(), []byte(req))), &resp); err != nil {
		t.Fatal(err)
	}
	return resp
}

func mustMarshal(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// bench's verified output uses the nonce as sent, even though the timed calls step it.
func TestBenchOutputMatchesCompute(t *testing.T) {
	body := `"impl":"stdlib","primitive":"aes-128-gcm","operation":"seal","inputs":{"key":"000102030405060708090a0b0c0d0e0f","nonce":"000000000000000000000000","aad":"","msg":"616263"},"params":{"aad_len":0,"fresh_context":false}`
	compute := serveJSON(t, `{"id":1,"op":"compute",`+body+`}`)
	bench := serveJSON(t, `{"id":2,"op":"bench",`+body+`,"iterations":10,"batches":3}`)
	c, b := compute["result"].(map[string]any), bench["result"].(map[string]any)
	if c["output"] != b["output"] || len(b["samples"].([]any)) != 3 {
		t.Fatalf("compute %v, bench %v", compute, bench)
	}
}

func TestErrorsKeepServing(t *testing.T) {
	cases := map[string]string{
		`nonsense`: "bad_request",
		`{"id":3,"op":"compute","impl":"stdlib","primitive":"sha256","operation":"seal","inputs":{},"params":{}}`:                                                                                                     "unsupported",
		`{"id":4,"op":"compute","impl":"stdlib","primitive":"shake128","operation":"digest","inputs":{"msg":""},"params":{}}`:                                                                                         "invalid_params",
		`{"id":5,"op":"compute","impl":"x-crypto","primitive":"bcrypt","operation":"verify","inputs":{"password":"00","encoded":"$2b$04$xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},"params":{"cost":4}}`: "auth_failed",
	}
	for req, kind := range cases {
		resp := serveJSON(t, req)
		if e, _ := resp["error"].(map[string]any); e == nil || e["kind"] != kind {
			t.Errorf("%s: %v, want %s", req, resp, kind)
		}
	}
}

// RFC 4231, test case 2: HMAC-SHA-256 of "what do ya want for nothing?" under "Jefe".
const rfc4231Key, rfc4231Msg, rfc4231Tag = "4a656665",
	"7768617420646f2079612077616e7420666f72206e6f7468696e673f",
	"5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"

func hmacVerify(t *testing.T, op, tag string, fresh bool) map[string]any {
	t.Helper()
	req := map[string]any{"id": 1, "op": op, "impl": "stdlib", "primitive": "hmac-sha256",
		"operation": "verify", "inputs": map[string]string{"key": rfc4231Key, "msg": rfc4231Msg, "tag": tag},
		"params": map[string]bool{"fresh_context": fresh}, "iterations": 3, "batches": 2}
	return serveJSON(t, string(mustMarshal(t, req)))
}

// verify answers "ok" for the RFC's tag (compute and bench, reused and fresh key) and
// auth_failed for a tag flipped at either end, truncated, empty or too long; non-hex is a
// bad request.
func TestHMACVerify(t *testing.T) {
	flip := func(i int) string {
		b, _ := hex.DecodeString(rfc4231Tag)
		b[i] ^= 1
		return hex.EncodeToString(b)
	}
	refused := []string{flip(0), flip(31), rfc4231Tag[:32], "", rfc4231Tag + "00"}
	for _, fresh := range []bool{false, true} {
		for _, op := range []string{"compute", "bench"} {
			if r, _ := hmacVerify(t, op, rfc4231Tag, fresh)["result"].(map[string]any); r == nil || r["output"] != "ok" {
				t.Errorf("%s fresh=%v: %v, want ok", op, fresh, r)
			}
		}
		for _, tag := range refused {
			if e, _ := hmacVerify(t, "compute", tag, fresh)["error"].(map[string]any); e == nil || e["kind"] != kindAuthFailed {
				t.Errorf("tag %q fresh=%v: %v, want auth_failed", tag, fresh, e)
			}
		}
	}
	for _, tag := range []string{"abc", "zz"} {
		if e, _ := hmacVerify(t, "compute", tag, false)["error"].(map[string]any); e == nil || e["kind"] != kindBadRequest {
			t.Errorf("tag %q: %v, want bad_request", tag, e)
		}
	}
}
