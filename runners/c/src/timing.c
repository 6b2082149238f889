/* Running a decoded call: the untimed verified call and the timed batches. The only file
 * that reads the clock (now_ns: clock_gettime(CLOCK_MONOTONIC)). */
#include "timing.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* Every output byte read in the timed loop ends up here, so no call can be dropped; atomic
 * (one update per batch), since threaded benches share it. */
_Atomic uint8_t sink;

static const buf_t *input_of(const call_t *c)
{
	if (c->op == OP_VERIFY && IS_MAC(c->prim->ops))
		return &c->msg; /* MAC verify: the message; the tag is c->tag */
	return (c->op >= OP_HASH) ? &c->password : &c->msg;
}

/* seal+open (AEAD) or encrypt+encrypt (CTR: decryption is the same keystream). */
static int roundtrip(call_t *c, int check)
{
	const kind_t *k = c->prim->kind;
	int aead = (c->prim->ops & OPBIT(OP_SEAL)) != 0;
	buf_t sealed;
	int rc = k->run(c, aead ? OP_SEAL : OP_ENCRYPT, &c->msg, c->out, &c->out_n);

	if (rc != RC_OK)
		return rc;
	sealed.p = c->out;
	sealed.n = c->out_n;
	rc = k->run(c, aead ? OP_OPEN : OP_ENCRYPT, &sealed, c->out2, &c->out2_n);
	if (rc != RC_OK)
		return rc == RC_AUTH ? fail(c, RC_INTERNAL, "roundtrip: own ciphertext rejected")
				     : rc;
	if (check && (c->out2_n != c->msg.n || memcmp(c->out2, c->msg.p, c->msg.n) != 0))
		return fail(c, RC_INTERNAL, "roundtrip: decryption did not give the message back");
	return RC_OK;
}

static inline int call_once(call_t *c, int check)
{
	if (c->op == OP_ROUNDTRIP)
		return roundtrip(c, check);
	return c->prim->kind->run(c, c->op, input_of(c), c->out, &c->out_n);
}

int call_start(call_t *c)
{
	const kind_t *k = c->prim->kind;
	int rc = k->prepare ? k->prepare(c) : RC_OK;

	if (rc == RC_OK && !c->fresh && k->setup)
		rc = k->setup(c);
	return rc;
}

void call_finish(call_t *c)
{
	const kind_t *k = c->prim->kind;

	if (k->cleanup)
		k->cleanup(c);
}

static int fresh_once(call_t *c, int check)
{
	const kind_t *k = c->prim->kind;
	int rc = k->setup ? k->setup(c) : RC_OK;

	if (rc == RC_OK)
		rc = call_once(c, check);
	if (k->cleanup)
		k->cleanup(c);
	return rc;
}

int call_verified(call_t *c)
{
	return c->fresh ? fresh_once(c, 1) : call_once(c, 1);
}

/* The last 4 bytes of the nonce/counter block, big-endian, wrapping. */
static inline void step_nonce(buf_t *nonce)
{
	uint8_t *p = nonce->p + nonce->n - 4;
	uint32_t v = ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]) + 1;

	put_be32(p, v);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int call_batch(call_t *c, long iterations, uint64_t *ns)
{
	const int step = (c->op == OP_SEAL || c->op == OP_ROUNDTRIP || c->op == OP_ENCRYPT) &&
			 c->nonce.n >= 4;
	const int fresh = c->fresh;
	int rc = RC_OK;
	uint8_t acc = 0;
	uint64_t t0 = now_ns(), t1;

	for (long i = 0; i < iterations && rc == RC_OK; i++) {
		if (step)
			step_nonce(&c->nonce);
		rc = fresh ? fresh_once(c, 0) : call_once(c, 0);
		acc ^= c->out[0];
	}
	t1 = now_ns();
	sink ^= acc;
	*ns = t1 - t0;
	return rc;
}

uint64_t time_single(call_t *c)
{
	uint64_t t0 = now_ns(), t1;

	/* fresh_context as in bench: setup() per call (the verified call freed its own) */
	(void)(c->fresh ? fresh_once(c, 0) : call_once(c, 0));
	t1 = now_ns();
	sink ^= c->out[0];
	return t1 - t0;
}

uint64_t time_compare(int (*cmp)(const void *, const void *, size_t), const void *a, const void *b,
		      size_t n)
{
	uint64_t t0 = now_ns(), t1;
	int r = cmp(a, b, n);

	t1 = now_ns();
	sink ^= (uint8_t)r;
	return t1 - t0;
}
