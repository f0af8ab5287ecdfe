/* SPDX-License-Identifier: GPL-3.0-or-later */
/* table.h -- the reader of 'attnrank scale --format tsv' tables for
 * `attnrank plot`.  A table row is validated like a .npy file: a malformed
 * row is refused with one line "<path>:<line>: ..." (AR_EINVAL), never read
 * as something else.
 *
 * Accepted text: lines separated by '\n' (a '\r' before it is dropped), at
 * most TABLE_MAX_LINE bytes each and TABLE_MAX_BYTES in all; empty lines and
 * lines starting with '#' are skipped; a line starting with "d\t" must be
 * the exact header that scale writes.  Every other line has exactly 16
 * tab-separated, non-empty fields without control characters, and:
 *   d (field 1)                     decimal integer in [2, TABLE_MAXD - 1]
 *   beta (2)                        plain decimal number in [0, TABLE_MAX_BETA]
 *   n (3), lower_points (5)         decimal integers (n = 0: no dense instance)
 *   lower (4)                       decimal integer in [1, 2^53]
 *   upper (7), continuum (10)       decimal integers in [0, 2^53] (0 = none)
 *   law (12)                        plain decimal number equal to
 *                                   (1+beta)^((d-1)/2) to 1e-5 relative
 * The other fields (certificates, ratios, status, seconds) are not drawn and
 * only have to be non-empty.  "Plain decimal number": optional '-', digits
 * with at most one '.', optional exponent; no blanks, nan, inf or hex. */
#ifndef ATTNRANK_CLI_TABLE_H
#define ATTNRANK_CLI_TABLE_H

#include <stddef.h>
#include "base/status.h"

#define TABLE_MAXD 17            /* d = 2 .. 16, as 'scale --d' */
#define TABLE_MAXROWS 4096       /* rows per dimension */
#define TABLE_MAX_LINE 4096
#define TABLE_MAX_BYTES (16u << 20)
/* Largest beta drawn: (1+beta)^((d-1)/2) <= 1e300 for every d <= 16, so the
 * law, the ratios and gnuplot's logarithmic axes (which extend to the next
 * decade) stay finite doubles. */
#define TABLE_MAX_BETA 1e40

typedef struct { double x, lo, up, co, law; } table_row_t;   /* x = 1 + beta; up, co: 0 = none */

typedef struct {
    table_row_t *rows[TABLE_MAXD];   /* rows[d][0 .. cnt[d]) */
    size_t cnt[TABLE_MAXD];
    size_t used;                     /* data rows over all dimensions */
} table_t;

/* Allocate an empty table (AR_ENOMEM on failure; table_clear is then safe). */
ar_status table_init(table_t *t);
void table_clear(table_t *t);

/* Append the rows of buf[0, len) (need not be NUL-terminated); name labels
 * the messages.  On error the table may hold the rows before the bad one. */
ar_status table_parse(table_t *t, const char *buf, size_t len, const char *name);

/* Read the file at path (AR_EIO if it cannot be opened or read, AR_EINVAL
 * for a directory, an oversized file or a bad row; AR_EINVAL also when the
 * file holds no data row) and append its rows. */
ar_status table_read(table_t *t, const char *path);

#endif
