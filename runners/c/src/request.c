/* Decoding a compute/bench request into a call_t, with the protocol's error kinds. */
#include "request.h"

#include "registry.h"
#include "protocol.h"
#include "msggen.h"

#include <stdlib.h>
#include <string.h>

static const char *const OP_NAMES[OP_COUNT] = {
	"digest", "mac",    "encrypt", "seal",	 "open", "roundtrip",
	"hash",	  "verify", "derive",  "keygen", "sign", "agree",
};

static const char *const PARAM_NAMES[P_COUNT] = {
	"out_len", "seed", "aad_len", "cost", "n", "r", "p", "t", "m", "iterations",
};

enum {
	IN_MSG = 1,
	IN_KEY = 2,
	IN_NONCE = 4,
	IN_PASSWORD = 8,
	IN_SALT = 16,
	IN_ENCODED = 32,
	IN_PRIVATE = 64,
	IN_PUBLIC = 128,
	IN_PEER = 256,
	IN_SIGNATURE = 512,
	IN_TAG = 1024,
};

/* Inputs each operation needs (aad is optional: absent = empty). The aad sent is what is
 * authenticated; aad_len only names the case (forgery checks add a byte to an empty aad). */
static const unsigned NEEDS[OP_COUNT] = {
	[OP_DIGEST] = IN_MSG,
	[OP_MAC] = IN_KEY | IN_MSG,
	[OP_ENCRYPT] = IN_KEY | IN_NONCE | IN_MSG,
	[OP_SEAL] = IN_KEY | IN_NONCE | IN_MSG,
	[OP_OPEN] = IN_KEY | IN_NONCE | IN_MSG,
	[OP_ROUNDTRIP] = IN_KEY | IN_NONCE | IN_MSG,
	[OP_HASH] = IN_PASSWORD | IN_SALT,
	[OP_VERIFY] = IN_PASSWORD | IN_ENCODED,
	[OP_DERIVE] = IN_PASSWORD | IN_SALT,
	[OP_KEYGEN] = 0, /* key_seed is optional */
	[OP_SIGN] = IN_PRIVATE | IN_MSG,
	[OP_AGREE] = IN_PRIVATE | IN_PEER,
};

/* A signature's and a MAC's verify (password verify is NEEDS[OP_VERIFY]). */
#define NEEDS_SIG_VERIFY (IN_PUBLIC | IN_MSG | IN_SIGNATURE)
#define NEEDS_MAC_VERIFY (IN_KEY | IN_MSG | IN_TAG)

static const struct {
	const char *name;
	unsigned bit;
	size_t offset;
} HEX_INPUTS[] = {
	{"msg", IN_MSG, offsetof(call_t, msg)},
	{"key", IN_KEY, offsetof(call_t, key)},
	{"nonce", IN_NONCE, offsetof(call_t, nonce)},
	{"aad", 0, offsetof(call_t, aad)},
	{"password", IN_PASSWORD, offsetof(call_t, password)},
	{"salt", IN_SALT, offsetof(call_t, salt)},
	{"private_key", IN_PRIVATE, offsetof(call_t, private_key)},
	{"public_key", IN_PUBLIC, offsetof(call_t, public_key)},
	{"peer_public_key", IN_PEER, offsetof(call_t, peer_public_key)},
	{"signature", IN_SIGNATURE, offsetof(call_t, signature)},
	{"key_seed", 0, offsetof(call_t, key_seed)},
	{"tag", IN_TAG, offsetof(call_t, tag)},
};

const char *op_name(enum op op)
{
	return OP_NAMES[op];
}

static int op_parse(const char *s)
{
	for (int i = 0; i < OP_COUNT; i++)
		if (strcmp(OP_NAMES[i], s) == 0)
			return i;
	return -1;
}

static int pubkey(const call_t *c)
{
	return IS_PUBKEY(c->prim->ops);
}

/* The operations fresh_context applies to (public key: those that parse our key). */
static int keyed(const call_t *c)
{
	enum op op = c->op;

	if (pubkey(c))
		return op == OP_AGREE || op == OP_SIGN || op == OP_VERIFY;
	if (IS_MAC(c->prim->ops))
		return op == OP_MAC || op == OP_VERIFY;
	return op == OP_ENCRYPT || op == OP_SEAL || op == OP_OPEN || op == OP_ROUNDTRIP;
}

static unsigned needs_of(const call_t *c)
{
	if (c->op == OP_VERIFY && pubkey(c))
		return NEEDS_SIG_VERIFY;
	if (c->op == OP_VERIFY && IS_MAC(c->prim->ops))
		return NEEDS_MAC_VERIFY;
	if (c->op == OP_HASH && (c->prim->flags & F_NO_SALT))
		return NEEDS[OP_HASH] & ~(unsigned)IN_SALT;
	return NEEDS[c->op];
}

static int find_prim(call_t *c, json_t *req)
{
	json_t *impl = json_object_get(req, "impl");
	const char *prim = json_string_value(json_object_get(req, "primitive"));
	const char *opname = json_string_value(json_object_get(req, "operation"));
	const lib_t *lib = NULL;
	int op;

	if (prim == NULL || opname == NULL || (impl != NULL && !json_is_string(impl)))
		return fail(c, RC_BAD_REQUEST, "impl, primitive and operation must be strings");
	if (impl != NULL && (lib = lib_find(json_string_value(impl))) == NULL)
		return fail(c, RC_UNSUPPORTED, "implementation %s is not offered",
			    json_string_value(impl));
	op = op_parse(opname);
	if (strcmp(prim, "noop") == 0) {
		c->prim = &noop_prim;
	} else if (lib == NULL) {
		return fail(c, RC_BAD_REQUEST, "impl is required for %s", prim);
	} else if ((c->prim = prim_find(lib, prim)) == NULL) {
		return fail(c, RC_UNSUPPORTED, "%s is not offered by %s", prim, lib->name);
	}
	if (op < 0 || !(c->prim->ops & OPBIT(op)))
		return fail(c, RC_UNSUPPORTED, "%s/%s is not offered", prim, opname);
	c->op = (enum op)op;
	return RC_OK;
}

static int parse_param(call_t *c, const char *name, json_t *v)
{
	for (int i = 0; i < P_COUNT; i++) {
		if (strcmp(PARAM_NAMES[i], name) != 0 || !(c->prim->params & PBIT(i)))
			continue;
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return fail(c, RC_INVALID, "param %s must be a non-negative integer", name);
		c->pv[i] = (uint64_t)json_integer_value(v);
		return RC_OK;
	}
	return fail(c, RC_INVALID, "param %s is not understood for %s", name, c->prim->id);
}

static int parse_params(call_t *c, json_t *params)
{
	unsigned seen = 0;
	const char *name;
	json_t *v;

	if (params != NULL && !json_is_object(params))
		return fail(c, RC_BAD_REQUEST, "params must be an object");
	json_object_foreach(params, name, v)
	{
		int rc;

		if (strcmp(name, "fresh_context") == 0) {
			if (!json_is_boolean(v))
				return fail(c, RC_BAD_REQUEST, "fresh_context must be a boolean");
			c->fresh = json_is_true(v);
			continue;
		}
		if ((rc = parse_param(c, name, v)) != RC_OK)
			return rc;
		for (int i = 0; i < P_COUNT; i++)
			if (strcmp(PARAM_NAMES[i], name) == 0)
				seen |= PBIT(i);
	}
	/* aad_len is optional: the aad sent is the AAD (protocol.md, "One meaning for aad") */
	for (int i = 0; i < P_COUNT; i++)
		if ((c->prim->params & PBIT(i)) && !(seen & PBIT(i)) && i != P_AAD_LEN)
			return fail(c, RC_INVALID, "param %s is required", PARAM_NAMES[i]);
	return RC_OK;
}

static int parse_inputs(call_t *c, json_t *inputs)
{
	unsigned needs = needs_of(c);
	json_t *enc;

	if (!json_is_object(inputs))
		return fail(c, RC_BAD_REQUEST, "inputs must be an object");
	for (size_t i = 0; i < COUNT_OF(HEX_INPUTS); i++) {
		buf_t *b = (buf_t *)((char *)c + HEX_INPUTS[i].offset);
		json_t *v = json_object_get(inputs, HEX_INPUTS[i].name);

		if (v == NULL && (needs & HEX_INPUTS[i].bit))
			return fail(c, RC_BAD_REQUEST, "inputs.%s is required", HEX_INPUTS[i].name);
		if (v != NULL && json_is_object(v) && HEX_INPUTS[i].bit == IN_MSG) {
			char why[160];
			int rc = msggen_expand(v, b, why, sizeof why);

			if (rc != RC_OK)
				return fail(c, rc, "inputs.msg: %s", why);
			continue;
		}
		if (v != NULL && !json_is_string(v))
			return fail(c, RC_BAD_REQUEST, "inputs.%s must be a hex string",
				    HEX_INPUTS[i].name);
		if (hex_decode(v ? json_string_value(v) : "", b) != 0)
			return fail(c, RC_BAD_REQUEST, "inputs.%s is not hex", HEX_INPUTS[i].name);
	}
	c->has_key_seed = json_object_get(inputs, "key_seed") != NULL;
	enc = json_object_get(inputs, "encoded");
	if ((needs & IN_ENCODED) && !json_is_string(enc))
		return fail(c, RC_BAD_REQUEST, "inputs.encoded must be a string");
	c->encoded = json_string_value(enc);
	return RC_OK;
}

static int check_shape(call_t *c)
{
	const prim_t *p = c->prim;

	if (!keyed(c))
		c->fresh = 0;
	else if ((p->flags & F_NO_REUSE) && !c->fresh)
		return fail(c, RC_UNSUPPORTED, "%s cannot reuse a key: fresh_context only", p->id);
	if (p->key_len && (NEEDS[c->op] & IN_KEY) && c->key.n != p->key_len)
		return fail(c, RC_INVALID, "key must be %u bytes", p->key_len);
	if (p->nonce_len && (NEEDS[c->op] & IN_NONCE) && c->nonce.n != p->nonce_len)
		return fail(c, RC_INVALID, "nonce must be %u bytes", p->nonce_len);
	if (c->op == OP_OPEN && c->msg.n < 16)
		return fail(c, RC_INVALID, "open needs ciphertext||tag (at least 16 bytes)");
	return RC_OK;
}

int request_decode(json_t *req, call_t *c)
{
	int rc;
	size_t big;

	memset(c, 0, sizeof(*c));
	if ((rc = find_prim(c, req)) != RC_OK ||
	    (rc = parse_params(c, json_object_get(req, "params"))) != RC_OK ||
	    (rc = parse_inputs(c, json_object_get(req, "inputs"))) != RC_OK ||
	    (rc = check_shape(c)) != RC_OK)
		return rc;
	big = c->msg.n > c->password.n ? c->msg.n : c->password.n;
	if (c->op == OP_DIGEST || IS_MAC(c->prim->ops))
		big = 0; /* a digest or tag: no message-sized output buffers for a 1 GiB message */
	if ((c->prim->params & PBIT(P_OUT_LEN)) && c->pv[P_OUT_LEN] > (1u << 24))
		return fail(c, RC_INVALID, "out_len is too large");
	c->out_cap = big + 1024 + (size_t)c->pv[P_OUT_LEN] + (pubkey(c) ? 8192 : 0);
	c->out = alloc_aligned(c->out_cap);
	c->out2 = alloc_aligned(c->out_cap);
	return RC_OK;
}

void request_release(call_t *c)
{
	buf_free(&c->msg);
	buf_free(&c->key);
	buf_free(&c->nonce);
	buf_free(&c->aad);
	buf_free(&c->password);
	buf_free(&c->salt);
	buf_free(&c->private_key);
	buf_free(&c->public_key);
	buf_free(&c->peer_public_key);
	buf_free(&c->signature);
	buf_free(&c->key_seed);
	buf_free(&c->tag);
	free(c->out);
	free(c->out2);
	c->out = c->out2 = NULL;
}
