/* SPDX-License-Identifier: GPL-3.0-or-later */
/* laws.h -- the one table of the paper's laws, with declared exponents,
 * tolerances, fit windows and Theta bands (THEORY sections 2 and 4).
 * Every verdict of `attnrank verify` is judged against this table and
 * nothing else; change a tolerance here, in one place, with a reason. */
#ifndef ATTNRANK_THEORY_LAWS_H
#define ATTNRANK_THEORY_LAWS_H

#include <stddef.h>
#include "base/status.h"
#include "theory/claims/law.h"

/* The table (static storage) and its length. */
const law_t *laws_table(size_t *count);

/* Claims named by the paper that have no check in this version: a
 * NULL-terminated list of {claim, reason} pairs. */
const char *const *laws_untested(void);

/* Claims checked by `make verify` without a row of this table (their own
 * Check suite asserts them): a NULL-terminated list of {claim, what} pairs. */
const char *const *laws_checked_elsewhere(void);

/* Whether `attnrank verify --claim claim --d dim` selects anything (claim
 * NULL: any claim; dim 0: any dimension, the law row's d, or r for claim
 * R): AR_OK when some law row matches, or when a claim without rows (T, E:
 * laws_checked_elsewhere, laws_untested) is asked for without a dimension.
 * Otherwise AR_EINVAL with one line listing the claims and dimensions of the
 * table. */
ar_status laws_check_selection(const char *claim, int dim);

#endif
