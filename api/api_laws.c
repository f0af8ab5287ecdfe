/* SPDX-License-Identifier: GPL-3.0-or-later */
/* api_laws.c -- the laws table, read-only, and one row's sweep and verdict
 * (theory/claims/laws.h, verify.h). */
#include "base/blas.h"
#include "api/api_impl.h"

#include <math.h>
#include <string.h>
#include "theory/claims/laws.h"
#include "theory/claims/verify.h"

size_t attnrank_laws_count(void)
{
    size_t n;
    laws_table(&n);
    return n;
}

attnrank_status attnrank_law_get(size_t i, attnrank_law *law_out)
{
    ar_error_set("%s", "");
    size_t n;
    const law_t *T = laws_table(&n);
    if (api_size_out_check(law_out, API_MIN_LAW, "attnrank_law", "law_get: NULL result"))
        return ATTNRANK_EINVAL;
    api_size_zero(law_out, API_MIN_LAW, sizeof *law_out);
    attnrank_law full, *const law = &full;   /* the caller's prefix copied out at the end */
    memset(&full, 0, sizeof full);
    if (i >= n) {
        ar_error_set("law_get: row %zu out of range (the table has %zu rows)", i, n);
        return ATTNRANK_EINVAL;
    }
    const law_t *L = &T[i];
    api_copy(law->claim, sizeof law->claim, L->claim);
    law->dim = L->dim;
    api_copy(law->variable, sizeof law->variable, law_variable_name(L->variable));
    law->predicted = L->predicted;
    law->tol = L->tol;
    law->eps = L->eps;
    law->band_lo = L->band_lo;
    law->band_hi = L->band_hi;
    size_t cap = sizeof law->betas / sizeof law->betas[0];
    law->nbetas = L->nbetas < cap ? L->nbetas : cap;
    for (size_t k = 0; k < law->nbetas; k++)
        law->betas[k] = L->betas[k];
    law->nns = L->nns < cap ? L->nns : cap;
    for (size_t k = 0; k < law->nns; k++)
        law->ns[k] = L->ns[k];
    api_copy(law->family, sizeof law->family, L->family);
    api_copy(law->kind, sizeof law->kind, law_kind_name(L->kind));
    api_copy(law->tier, sizeof law->tier, law_tier_name(L->tier));
    api_copy(law->upper_source, sizeof law->upper_source, law_upper_name(L->upper_source));
    law->asserted = law_asserted(L);
    api_copy(law->scope, sizeof law->scope, L->scope);
    api_size_out(law_out, &full, sizeof full);
    return ATTNRANK_OK;
}

typedef struct {
    const attnrank_options *o;
} law_ctx_t;

static void law_progress(const char *msg, void *ctx)
{
    const attnrank_options *o = ((law_ctx_t *)ctx)->o;
    if (o && o->progress)
        o->progress(o->progress_ctx, msg);
}

static attnrank_status law_run_impl(size_t i, const attnrank_options *o, attnrank_law_verdict *v_out)
{
    api_size_zero(v_out, API_MIN_LAW_VERDICT, sizeof *v_out);
    api_call_t c;
    attnrank_status as = api_begin(o, &c);
    if (as)
        return as;
    attnrank_law_verdict full, *const v = &full;   /* the caller's prefix copied out at the end */
    memset(&full, 0, sizeof full);
    ar_status st;
    size_t n;
    const law_t *T = laws_table(&n);
    st = api_size_out_check(v_out, API_MIN_LAW_VERDICT, "attnrank_law_verdict", "law_run: NULL result");
    if (st == AR_OK && i >= n) {
        ar_error_set("law_run: row %zu out of range (the table has %zu rows)", i, n);
        st = AR_EINVAL;
    }
    if (st == AR_OK) {
        law_ctx_t lc = { c.o };
        verify_row_t row;
        st = verify_law(&T[i], &row, law_progress, &lc);
        if (st == AR_OK) {
            v->row = i;
            api_copy(v->verdict, sizeof v->verdict, verify_verdict_name(row.verdict));
            api_copy(v->reason, sizeof v->reason, row.reason);
            v->fit_lower = row.fit_lower.slope;
            v->fit_upper = row.fit_upper.slope;
            v->band_min = row.band_min;
            v->band_max = row.band_max;
            v->seconds = row.seconds;
            size_t cap = sizeof v->pts / sizeof v->pts[0];
            v->npts = row.npts < cap ? row.npts : cap;
            for (size_t t = 0; t < v->npts; t++) {
                const verify_point_t *q = &row.pts[t];
                attnrank_law_point *p = &v->pts[t];
                p->beta = q->beta;
                p->n = q->p.n;
                p->log10_n = q->p.log10_n;
                p->lower = q->p.lower;
                p->upper = q->p.upper;
                p->continuum = q->p.continuum;
                api_copy(p->lower_method, sizeof p->lower_method, q->p.lower_method);
                api_copy(p->upper_method, sizeof p->upper_method, q->p.upper_method);
                api_copy(p->continuum_method, sizeof p->continuum_method, q->p.continuum_method);
                p->upper_fitted = q->upper_fitted;
                api_copy(p->status, sizeof p->status, ar_cert_status_name(q->p.status));
                p->seconds = q->p.seconds;
            }
        }
    }
    as = api_end(&c, st);
    if (as == ATTNRANK_OK)
        api_size_out(v_out, &full, sizeof full);
    return as;
}

/* The public entry: the whole call in one BLAS region (base/blas.h): its
 * numbers do not depend on OPENBLAS_NUM_THREADS or on calls in other threads. */
attnrank_status attnrank_law_run(size_t i, const attnrank_options *o, attnrank_law_verdict *v)
{
    blas_single_begin();
    attnrank_status st = law_run_impl(i, o, v);
    blas_single_end();
    return st;
}
