/* sha256.h -- SHA-256 (FIPS 180-4) of a byte string, as lowercase hex.
 * Used to pin corpus sentences; checked against the FIPS test vectors. */
#ifndef ATTNRANK_NUMERICS_SHA256_H
#define ATTNRANK_NUMERICS_SHA256_H

#include <stddef.h>

/* hex receives 64 hex digits and a NUL (65 bytes). */
void sha256_hex(const void *data, size_t n, char hex[65]);

#endif
