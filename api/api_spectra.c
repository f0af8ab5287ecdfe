/* SPDX-License-Identifier: GPL-3.0-or-later */
/* api_spectra.c -- the Funk-Hecke spectral check (theory/spectra/funkhecke.h). */
#include "base/blas.h"
#include "api/api_impl.h"

#include <string.h>
#include "base/clock.h"
#include "theory/spectra/funkhecke.h"

static attnrank_status funk_hecke_impl(const attnrank_points *P, double beta, double tau, const attnrank_options *o,
                                    attnrank_funk_hecke_result *r_out)
{
    api_size_zero(r_out, API_MIN_FUNK_HECKE, sizeof *r_out);
    api_call_t c;
    attnrank_status as = api_begin(o, &c);
    if (as)
        return as;
    attnrank_funk_hecke_result full, *const r = &full;   /* the caller's prefix copied out at the end */
    memset(&full, 0, sizeof full);
    ar_status st;
    if (!(st = api_size_out_check(r_out, API_MIN_FUNK_HECKE, "attnrank_funk_hecke_result",
                                  "funk_hecke: NULL result")) &&
        !(st = api_points_check(P, "funk_hecke: points"))) {
        fh_report_t f;
        size_t cont = 0;
        double t0 = clock_now();
        st = fh_check(&P->P, beta, tau, &f);
        if (!st)
            st = fh_count((int)P->P.d, beta, tau, &cont);
        r->seconds = clock_now() - t0;
        if (!st) {
            r->n = f.n;
            r->d = f.d;
            r->beta = f.beta;
            r->tau = f.tau;
            r->count_pred = f.count_pred;
            r->count_num = f.count_num;
            r->max_degree = f.max_degree;
            r->max_relerr = f.max_relerr;
            r->worst_index = f.worst_index;
            r->lambda0_pred = f.lambda0_pred;
            r->lambda0_num = f.lambda0_num;
        }
    }
    as = api_end(&c, st);
    if (as == ATTNRANK_OK)
        api_size_out(r_out, &full, sizeof full);
    return as;
}

/* The public entry: the whole call in one BLAS region (base/blas.h): its
 * numbers do not depend on OPENBLAS_NUM_THREADS or on calls in other threads. */
attnrank_status attnrank_funk_hecke(const attnrank_points *P, double beta, double tau, const attnrank_options *o,
                                    attnrank_funk_hecke_result *r)
{
    blas_single_begin();
    attnrank_status st = funk_hecke_impl(P, beta, tau, o, r);
    blas_single_end();
    return st;
}
