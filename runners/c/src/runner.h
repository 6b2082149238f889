/* Shared types of the C runner: requests, primitives and libraries. */
#ifndef CRYPTOBENCH_RUNNER_H
#define CRYPTOBENCH_RUNNER_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

enum op {
	OP_DIGEST,
	OP_MAC,
	OP_ENCRYPT,
	OP_SEAL,
	OP_OPEN,
	OP_ROUNDTRIP,
	OP_HASH,
	OP_VERIFY,
	OP_DERIVE,
	OP_KEYGEN,
	OP_SIGN,
	OP_AGREE,
	OP_COUNT
};

#define OPBIT(op) (1u << (op))
#define OPS_DIGEST OPBIT(OP_DIGEST)
#define OPS_MAC OPBIT(OP_MAC)
/* A MAC that also checks a tag (docs/protocol.md: verify with key, msg, tag). */
#define OPS_MAC_VERIFY (OPBIT(OP_MAC) | OPBIT(OP_VERIFY))
#define OPS_CTR (OPBIT(OP_ENCRYPT) | OPBIT(OP_ROUNDTRIP))
#define OPS_AEAD (OPBIT(OP_SEAL) | OPBIT(OP_OPEN) | OPBIT(OP_ROUNDTRIP))
#define OPS_PWHASH (OPBIT(OP_HASH) | OPBIT(OP_VERIFY))
#define OPS_DERIVE OPBIT(OP_DERIVE)
#define OPS_KEX (OPBIT(OP_KEYGEN) | OPBIT(OP_AGREE))
#define OPS_SIG (OPBIT(OP_KEYGEN) | OPBIT(OP_SIGN) | OPBIT(OP_VERIFY))
#define OPS_PUBKEY (OPS_KEX | OPS_SIG)
/* What marks a public-key primitive: password hashes also have OP_VERIFY. */
#define IS_PUBKEY(ops) (((ops) & (OPBIT(OP_KEYGEN) | OPBIT(OP_AGREE) | OPBIT(OP_SIGN))) != 0)
/* What marks a MAC: its verify takes key, msg and tag. */
#define IS_MAC(ops) (((ops)&OPBIT(OP_MAC)) != 0)

/* Result codes; every non-zero one is a protocol error kind. */
enum rc { RC_OK, RC_BAD_REQUEST, RC_UNSUPPORTED, RC_INVALID, RC_AUTH, RC_INTERNAL };

/* Parameters a primitive may take (docs/protocol.md, "Parameter names"). */
enum param { P_OUT_LEN, P_SEED, P_AAD_LEN, P_COST, P_N, P_R, P_P, P_T, P_M, P_ITERATIONS, P_COUNT };

#define PBIT(p) (1u << (p))
#define PS_NONE 0u
#define PS_XOF PBIT(P_OUT_LEN)
#define PS_SEED PBIT(P_SEED)
#define PS_AEAD PBIT(P_AAD_LEN)
#define PS_ARGON2 (PBIT(P_T) | PBIT(P_M) | PBIT(P_P) | PBIT(P_OUT_LEN))
#define PS_SCRYPT (PBIT(P_N) | PBIT(P_R) | PBIT(P_P) | PBIT(P_OUT_LEN))
#define PS_PBKDF2 (PBIT(P_ITERATIONS) | PBIT(P_OUT_LEN))

/* Flags of a primitive entry. */
#define F_NO_REUSE 1u /* the API cannot reuse a key/context: reuses_key = false */
#define F_NO_SALT 2u  /* hash generates its own salt: takes_salt = false */

typedef struct {
	uint8_t *p; /* 64-byte aligned, never NULL */
	size_t n;
} buf_t;

struct prim;

/* One request, decoded; the library's state hangs off `st`. */
typedef struct call {
	const struct prim *prim;
	enum op op;
	int fresh;
	buf_t msg, key, nonce, aad, password, salt;
	/* MAC verify */
	buf_t tag;
	buf_t private_key, public_key, peer_public_key, signature, key_seed; /* public-key ops */
	int has_key_seed;
	const char *encoded;
	uint64_t pv[P_COUNT];
	uint8_t *out, *out2;
	size_t out_n, out2_n, out_cap;
	const void *algo; /* set by prepare(): a fetched/cached algorithm */
	void *st;	  /* set by setup(), freed by cleanup() */
	char err[256];
} call_t;

/*
 * prepare: once per request, untimed: check parameters, look the algorithm up.
 * setup:   make the context and expand the key (per message when fresh_context).
 * run:     one operation on `in`, writing `out`/`out_n`.
 * cleanup: free what setup made.
 */
typedef int (*prepare_fn)(call_t *c);
typedef int (*setup_fn)(call_t *c);
typedef int (*run_fn)(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n);
typedef void (*cleanup_fn)(call_t *c);

typedef struct kind {
	prepare_fn prepare;
	setup_fn setup;
	run_fn run;
	cleanup_fn cleanup;
} kind_t;

typedef struct prim {
	const char *id;	    /* catalog id */
	const char *native; /* the library's own name */
	unsigned ops;	    /* OPBIT mask */
	unsigned params;    /* PBIT mask: the parameters it takes (besides fresh_context) */
	unsigned flags;
	unsigned key_len, nonce_len; /* fixed lengths, 0 = any */
	const kind_t *kind;
	const void *arg; /* per-entry datum for the kind (algorithm id, name) */
	long arg2;
} prim_t;

typedef struct prim_table {
	const prim_t *prims;
	size_t n;
} prim_table_t;

typedef struct lib {
	const char *name; /* short lowercase library id */
	const prim_t *prims;
	size_t n_prims;
	int (*init)(void);		   /* 0 = usable */
	int (*available)(const prim_t *p); /* optional: 1 = offered on this machine */
	void (*describe)(json_t *impl);	   /* version, backend, code_path, notes */
	const prim_table_t *pubkey;	   /* optional: the public-key rows (lib_<lib>_pubkey.c) */
} lib_t;

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Integer checksums go out big-endian (docs/protocol.md, "Encodings"). */
static inline void put_be32(uint8_t *out, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		out[i] = (uint8_t)(v >> (24 - 8 * i));
}

static inline void put_be64(uint8_t *out, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		out[i] = (uint8_t)(v >> (56 - 8 * i));
}

/* Helpers shared by the library files (protocol.c). */
int fail(call_t *c, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int check_out_len(call_t *c, uint64_t min, uint64_t max);
/* MAC verify's answer: `match` (the tag sent has the MAC's length and the library's
 * constant-time compare found it equal) → RC_OK with no output; else auth_failed. */
int mac_verdict(call_t *c, int match, size_t *out_n);
void describe_common(json_t *impl, const char *version, const char *backend, const char *code_path,
		     const char *notes);

#endif
