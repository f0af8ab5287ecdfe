/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_status.h -- a bracket's status: certified or inconclusive (README
 * "Statuses and verdicts"); one enum, one name table.
 *
 * The rule that decides it lives in theory/brackets/bracket_status.h; the
 * printed names "certified" and "inconclusive" are produced only where a
 * status is printed or serialised, and read back only by
 * ar_cert_status_parse (shard files). */
#ifndef ATTNRANK_THEORY_CERT_STATUS_H
#define ATTNRANK_THEORY_CERT_STATUS_H

#include "numerics/status.h"

typedef enum {
    AR_CERT_INCONCLUSIVE = 0,   /* "inconclusive": nothing beyond the trivial bracket was proven */
    AR_CERT_CERTIFIED,          /* "certified": an end is a non-trivial certificate, or lower == upper */
    AR_CERT_STATUS_COUNT
} ar_cert_status_t;

/* The printed name of s (a static string); "unknown" outside the enum. */
const char *ar_cert_status_name(ar_cert_status_t s);

/* The status whose printed name is name (exact).  AR_OK and *out set, or
 * AR_EINVAL (message set, *out untouched) for NULL or an unknown name. */
ar_status ar_cert_status_parse(const char *name, ar_cert_status_t *out);

#endif
