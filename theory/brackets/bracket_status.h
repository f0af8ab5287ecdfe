/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bracket_status.h -- the one rule that labels a bracket lower <= rank_eps(A)
 * <= upper (README "Statuses and verdicts"), used by every route.
 *
 * The trivial ends are 1 <= rank_eps (eps < 1 = ||A||_r1) and rank_eps <=
 * min(m, n); they carry the method name "trivial", and they are rigorous
 * too.  Every end a route reports is rigorous, so the status only says
 * whether anything beyond the trivial bracket was proven: "certified" when
 * at least one end is a non-trivial certificate or the bracket is tight
 * (lower == upper); "inconclusive" when both ends are the trivial ones
 * [1, min(m, n)] (no route could certify anything, e.g. the enclosure of A
 * is too wide), as README "Statuses and verdicts" defines. */
#ifndef ATTNRANK_THEORY_BRACKET_STATUS_H
#define ATTNRANK_THEORY_BRACKET_STATUS_H

#include <stddef.h>
#include "theory/certificates/cert_method.h"
#include "theory/certificates/cert_status.h"

/* Certified or inconclusive for the bracket [lower, upper] whose ends were
 * certified by lower_method and upper_method (trivial for the trivial ends;
 * AR_METHOD_NONE counts as trivial, ar_method_is_trivial). */
ar_cert_status_t bracket_status_decide(size_t lower, ar_method_t lower_method, size_t upper, ar_method_t upper_method);

#endif
