/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_lower.c -- what the lower certificates (THEORY 3.4; proofs-notes/lower-certificates.md)
 * share: the trivial certificate, the certificate's inequality eps ||M^{-1}|| < 1 evaluated
 * upward (section 3.3), the validation of the enclosure, eps and row sets, and the work
 * control's accounting and progress (section 3.6).  The certificates themselves: the block test
 * matrix cert_lower_blocks.c, exact diagonal dominance cert_lower_diagdom.c, delta-nets
 * cert_lower_nets.c, greedy growth cert_lower_grow.c, weighted test matrices
 * cert_lower_weighted.c, peeling cert_lower_peel.c, dominant rows cert_lower_dominant.c. */
#include "theory/certificates/cert_lower.h"
#include "theory/certificates/cert_lower_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "numerics/clock.h"
#include "numerics/fround.h"

/* Contract: cert_lower_impl.h.  rank 1 is always certified for eps < 1: the only rank-0
 * matrix is 0 and ||A - 0||_r1 = 1 (rows are probability vectors).  As a test-matrix
 * certificate: W = all-ones column, M = 1, ||M^{-1}|| = 1. */
void lower_set_trivial(lower_cert_t *out)
{
    out->rank = 1;
    out->invnorm = 1.0;
    out->method = AR_METHOD_TRIVIAL;
}

/* Contract: cert_lower.h.  eps * bound < 1, evaluated with the product rounded upward so that
 * rounding can never make a failing test pass. */
int lower_certifies(double eps, double bound)
{
    if (!(bound < INFINITY) || !(bound >= 0))
        return 0;
    return fround_mul_up(eps, bound) < 1.0;
}

/* Contract: cert_lower_impl.h.  Over budget: never with ctl NULL or budget <= 0. */
int lower_over_budget(const lower_ctl_t *ctl, double flops)
{
    return ctl && ctl->budget > 0 && ctl->spent + flops > ctl->budget;
}

/* Contract: cert_lower_impl.h.  ctl->spent += flops (ctl may be NULL). */
void lower_spend(lower_ctl_t *ctl, double flops)
{
    if (ctl)
        ctl->spent += flops;
}

/* Contract: cert_lower.h.  At most one progress message a second; never touches a result. */
void lower_tick(const lower_ctl_t *ctl, double *last, const char *fmt, ...)
{
    if (!ctl || !ctl->progress)
        return;
    double now = clock_now();
    if (now - *last < 1.0)
        return;
    *last = now;
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ctl->progress(ctl->progress_ctx, msg);
}

/* Contract: cert_lower_impl.h.  1 when A holds an image and 0 < eps < 1, else 0 with a message. */
int lower_check_common(const smx_t *A, double eps, const char *who)
{
    if (!A || !A->a || !A->rowerr || A->m == 0 || A->n == 0) {
        ar_error_set("%s: empty or missing matrix", who);
        return 0;
    }
    if (!(eps > 0.0 && eps < 1.0)) {
        ar_error_set("%s: eps must satisfy 0 < eps < 1 (got %g)", who, eps);
        return 0;
    }
    return 1;
}

/* Contract: cert_lower_impl.h.  Indices idx[0..m) distinct and < bound; mark: bound bytes of
 * scratch (zeroed, restored). */
int lower_distinct_below(const size_t *idx, size_t m, size_t bound, unsigned char *mark)
{
    int ok = 1;
    size_t t;
    for (t = 0; t < m; t++) {
        if (idx[t] >= bound || mark[idx[t]]) {
            ok = 0;
            break;
        }
        mark[idx[t]] = 1;
    }
    for (size_t u = 0; u < t; u++)
        mark[idx[u]] = 0;
    return ok;
}

/* Contract: cert_lower_impl.h.  idx[0..m) distinct row indices < bound: AR_OK, AR_ENOMEM, or
 * AR_EINVAL with the message "<fn>: <what> must be distinct row indices < bound". */
ar_status lower_rows_distinct(const size_t *idx, size_t m, size_t bound, const char *fn, const char *what)
{
    unsigned char *mark = ar_calloc(bound, 1, "row marks");
    if (!mark)
        return AR_ENOMEM;
    int ok = lower_distinct_below(idx, m, bound, mark);
    free(mark);
    if (!ok) {
        ar_error_set("%s: %s must be distinct row indices < %zu", fn, what, bound);
        return AR_EINVAL;
    }
    return AR_OK;
}
