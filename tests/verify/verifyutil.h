/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verifyutil.h -- the theorem checks of `make verify` as Check tests.
 *
 * Each tests/verify/verify_<claim>.c defines Suite *suite_verify_<claim>(void)
 * with one test per row of the laws table (theory/claims/laws.c) for that
 * claim, or per instance (claim T); each test calls verify_assert_row(claim,
 * k) or verify_assert_t(k).  The runner (tests/verify/run_verify.c) is built
 * by `make verify`, not by `make check`.
 *
 * With ATTNRANK_VERIFY_SHARDS=DIR (make verify JOBS=N) nothing is computed:
 * every *.jsonl file of DIR is a shard file of `attnrank verify --shard`,
 * read and checked as `attnrank merge` does (sweeps/shards.h), and the same
 * assertions are made on the merged records; a missing, incomplete or
 * foreign shard fails every test with its one-line message. */
#ifndef ATTNRANK_TESTS_VERIFYUTIL_H
#define ATTNRANK_TESTS_VERIFYUTIL_H

#include <stddef.h>
#include "theory/claims/vplan.h"

/* The tier of rows the suites run: ATTNRANK_VERIFY_TIER = default (or
 * unset), extended or all (make verify TIER=...); anything else stops the
 * runner with one line, exit 2.  Claim T's cases and claim E belong to the
 * default tier (verify_tier_has_default). */
vtier_t verify_tier(void);
int verify_tier_has_default(void);

/* Run the k-th row (0-based, in table order, of verify_tier()) of `claim` in the
 * laws table: sweep, bracket, fit, judge (theory/claims/verify.h); print the
 * row on stdout (text, or one JSON line when ATTNRANK_VERIFY_FORMAT=json) and
 * its progress on stderr; then assert with Check that the machinery
 * succeeded and, for rows of kind "exponent" or "saturation", that the
 * verdict is "pass".  Rows of kind "report" are printed and never asserted. */
void verify_assert_row(const char *claim, size_t k);

/* Claim T's case k (theory/claims/claim_t.h): compute, print, assert claim_t_judge. */
void verify_assert_t(size_t k);

/* Number of rows of `claim` of verify_tier() in the laws table. */
size_t verify_rows(const char *claim);

#endif
