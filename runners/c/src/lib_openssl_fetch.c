/* OpenSSL 3 algorithm fetches, done once per name and cached (as openssl speed does).
 * Implicit fetches (EVP_sha256() etc.) cost a lookup per call in OpenSSL 3, which
 * dominates small messages; explicit fetches are what speed-conscious users write. */
#include "lib_openssl.h"

#include <openssl/err.h>
#include <string.h>

#define CACHE_SIZE 64
/* Prefer the default provider; the legacy one only serves what default lacks. */
#define PROPQ "?provider=default"

enum fetch_type { T_MD, T_CIPHER, T_MAC, T_KDF };

static struct {
	enum fetch_type type;
	const char *name;
	void *algo;
} cache[CACHE_SIZE];
static size_t cached;

static void *fetch(enum fetch_type type, const char *name)
{
	switch (type) {
	case T_MD:
		return EVP_MD_fetch(NULL, name, PROPQ);
	case T_CIPHER:
		return EVP_CIPHER_fetch(NULL, name, PROPQ);
	case T_MAC:
		return EVP_MAC_fetch(NULL, name, PROPQ);
	case T_KDF:
		return EVP_KDF_fetch(NULL, name, PROPQ);
	}
	return NULL;
}

/* A failed fetch is cached too (as NULL): "not offered" is asked at every hello. */
static void *lookup(enum fetch_type type, const char *name)
{
	void *algo;

	for (size_t i = 0; i < cached; i++)
		if (cache[i].type == type && strcmp(cache[i].name, name) == 0)
			return cache[i].algo;
	algo = fetch(type, name);
	ERR_clear_error();
	if (cached < CACHE_SIZE) {
		cache[cached].type = type;
		cache[cached].name = name;
		cache[cached].algo = algo;
		cached++;
	}
	return algo;
}

const EVP_MD *ossl_md(const char *name)
{
	return lookup(T_MD, name);
}

const EVP_CIPHER *ossl_cipher(const char *name)
{
	return lookup(T_CIPHER, name);
}

const EVP_MAC *ossl_mac(const char *name)
{
	return lookup(T_MAC, name);
}

const EVP_KDF *ossl_kdf(const char *name)
{
	return lookup(T_KDF, name);
}
