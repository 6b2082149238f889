/* Shared between the libsodium files: lib_libsodium.c (table, hashes, MACs, AEADs) and the
 * password-hash kinds that live in lib_libsodium_pwhash.c. */
#ifndef CRYPTOBENCH_LIB_LIBSODIUM_H
#define CRYPTOBENCH_LIB_LIBSODIUM_H

#include "runner.h"

extern const kind_t SODIUM_ARGON2, SODIUM_SCRYPT;

#endif
