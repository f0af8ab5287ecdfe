/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_api.c -- the public C API (include/attnrank.h), function by function:
 * results equal to the library calls the CLI made before it became a client
 * (route_bracket, verify_law), every error path a status with one line
 * (NULL pointers, NaN/Inf, wrong shapes, eps outside (0, 1), negative beta,
 * bad options), never a crash; cancellation before and during a bracket and
 * a law row; two brackets in two threads equal to one at a time; the
 * per-call memory limit; messages per thread. */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "cli/cliutil.h"
#include "include/attnrank.h"
#include "constructions/pointsets/family.h"
#include "constructions/pointsets/sphere.h"
#include "theory/brackets/route.h"
#include "theory/claims/laws.h"
#include "theory/claims/verify.h"

/* One line, not empty. */
static void assert_message(void)
{
    const char *m = attnrank_error_message();
    ck_assert_msg(m && *m, "empty error message");
    ck_assert_msg(strchr(m, '\n') == NULL, "message of more than one line: %s", m);
}

#define ASSERT_FAILS(call, code)                                                 \
    do {                                                                         \
        attnrank_status st_ = (call);                                            \
        ck_assert_msg(st_ == (code), "%s: status %d (%s), expected %d", #call,   \
                      (int)st_, attnrank_error_message(), (int)(code));          \
        assert_message();                                                        \
    } while (0)

/* n uniform points of S^{d-1} (the sphere family "uniform", seed s). */
static double *sphere_points(size_t n, size_t d, uint64_t seed)
{
    pointset_t P;
    memset(&P, 0, sizeof P);
    ck_assert_int_eq(sphere_uniform(&P, n, d, seed), AR_OK);
    double *x = malloc(n * d * sizeof *x);
    memcpy(x, P.x, n * d * sizeof *x);
    pointset_clear(&P);
    return x;
}

static void assert_same_bracket(const attnrank_bracket_result *a, const attnrank_bracket_result *b)
{
    ck_assert_uint_eq(a->lower, b->lower);
    ck_assert_uint_eq(a->upper, b->upper);
    ck_assert_str_eq(a->status, b->status);
    ck_assert_str_eq(a->routes, b->routes);
    ck_assert_str_eq(a->lower_certificate, b->lower_certificate);
    ck_assert_str_eq(a->upper_certificate, b->upper_certificate);
    ck_assert_msg(memcmp(&a->upper_err_bound, &b->upper_err_bound, sizeof(double)) == 0, "upper errors differ");
    ck_assert_msg(memcmp(&a->lower_invnorm_bound, &b->lower_invnorm_bound, sizeof(double)) == 0,
                  "lower bounds differ");
    ck_assert_msg(memcmp(&a->enclosure_err, &b->enclosure_err, sizeof(double)) == 0, "enclosures differ");
    ck_assert_str_eq(a->n, b->n);
}

START_TEST(test_version)
{
    ck_assert_str_eq(attnrank_version(), "0.2.0");
    ck_assert_int_eq(attnrank_api_version(), ATTNRANK_API_VERSION);
    ck_assert_int_eq(ATTNRANK_API_VERSION, 300);
    ck_assert_ptr_nonnull(strstr(attnrank_version_line(), "attnrank 0.2.0"));
    ck_assert_ptr_nonnull(strstr(attnrank_version_json(), "\"attnrank\":\"0.2.0\""));
    ck_assert_str_eq(attnrank_status_name(ATTNRANK_OK), "ok");
    ck_assert_str_eq(attnrank_status_name(ATTNRANK_ECANCELED), "cancelled");
    ck_assert_str_eq(attnrank_status_name((attnrank_status)99), "unknown status");
    attnrank_options o;
    memset(&o, 0xff, sizeof o);
    attnrank_options_default(&o);
    ck_assert_int_eq(o.engine, ATTNRANK_ENGINE_AUTO);
    ck_assert(o.cancel == NULL);
    ck_assert_ptr_null(o.progress);
    attnrank_options_default(NULL);
    ck_assert_int_eq(attnrank_check_environment(), ATTNRANK_OK);
    setenv("ATTNRANK_STREAM_MIB", "0", 1);
    ASSERT_FAILS(attnrank_check_environment(), ATTNRANK_EINVAL);
    ck_assert_ptr_nonnull(strstr(attnrank_error_message(), "ATTNRANK_STREAM_MIB"));
    unsetenv("ATTNRANK_STREAM_MIB");
    attnrank_free(NULL);
}
END_TEST

START_TEST(test_points)
{
    const double x[6] = { 1, 0, 0, 1, -1, 0 };
    const uint64_t w[3] = { 1, 2, 3 };
    const char *big[3] = { "1", "123456789012345678901234567890", "7" };
    attnrank_points *p = NULL;
    ck_assert_int_eq(attnrank_points_new(x, 3, 2, NULL, NULL, "three", &p), ATTNRANK_OK);
    ck_assert_uint_eq(attnrank_points_count(p), 3);
    ck_assert_uint_eq(attnrank_points_dim(p), 2);
    ck_assert_int_eq(attnrank_points_weighted(p), 0);
    ck_assert_str_eq(attnrank_points_provenance(p), "three");
    ck_assert(attnrank_points_coords(p)[4] == -1.0);
    char buf[64], *tot = NULL;
    size_t need = 0;
    ck_assert_int_eq(attnrank_points_weight(p, 2, buf, sizeof buf, &need), ATTNRANK_OK);
    ck_assert_str_eq(buf, "1");
    ASSERT_FAILS(attnrank_points_weight(p, 3, buf, sizeof buf, NULL), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_points_weight(p, 0, buf, 1, &need), ATTNRANK_EINVAL);
    ck_assert_int_eq(attnrank_points_total(p, &tot), ATTNRANK_OK);
    ck_assert_str_eq(tot, "3");
    attnrank_free(tot);
    attnrank_points_free(p);
    ck_assert_int_eq(attnrank_points_new(x, 3, 2, w, NULL, NULL, &p), ATTNRANK_OK);
    ck_assert_int_eq(attnrank_points_total(p, &tot), ATTNRANK_OK);
    ck_assert_str_eq(tot, "6");
    attnrank_free(tot);
    attnrank_points_free(p);
    ck_assert_int_eq(attnrank_points_new(x, 3, 2, NULL, big, NULL, &p), ATTNRANK_OK);
    ck_assert_int_eq(attnrank_points_weighted(p), 1);
    ck_assert_int_eq(attnrank_points_weight(p, 1, buf, sizeof buf, NULL), ATTNRANK_OK);
    ck_assert_str_eq(buf, "123456789012345678901234567890");
    ck_assert_int_eq(attnrank_points_total(p, &tot), ATTNRANK_OK);
    ck_assert_str_eq(tot, "123456789012345678901234567898");
    attnrank_free(tot);
    attnrank_points_free(p);
    attnrank_points_free(NULL);
    ck_assert_uint_eq(attnrank_points_count(NULL), 0);
    /* error paths: a status and one line, *out NULL */
    double bad[6] = { 1, 0, NAN, 1, -1, 0 };
    const uint64_t w0[3] = { 1, 0, 1 };
    const char *bad_dec[3][3] = { { "1", "12a", "1" }, { "1", "", "1" }, { "0", "1", "1" } };
    p = (attnrank_points *)1;
    ASSERT_FAILS(attnrank_points_new(NULL, 3, 2, NULL, NULL, NULL, &p), ATTNRANK_EINVAL);
    ck_assert_ptr_null(p);
    ASSERT_FAILS(attnrank_points_new(x, 3, 2, NULL, NULL, NULL, NULL), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_points_new(x, 0, 2, NULL, NULL, NULL, &p), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_points_new(x, 3, 0, NULL, NULL, NULL, &p), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_points_new(bad, 3, 2, NULL, NULL, NULL, &p), ATTNRANK_EINVAL);
    bad[2] = INFINITY;
    ASSERT_FAILS(attnrank_points_new(bad, 3, 2, NULL, NULL, NULL, &p), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_points_new(x, 3, 2, w0, NULL, NULL, &p), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_points_new(x, 3, 2, w, big, NULL, &p), ATTNRANK_EINVAL);
    for (int k = 0; k < 3; k++)
        ASSERT_FAILS(attnrank_points_new(x, 3, 2, NULL, bad_dec[k], NULL, &p), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_points_new(x, SIZE_MAX / 2, 4, NULL, NULL, NULL, &p), ATTNRANK_ENOMEM);
    ck_assert_ptr_null(p);
    /* files */
    ASSERT_FAILS(attnrank_points_read("/nonexistent/X.npy", NULL, &p), ATTNRANK_EIO);
    ASSERT_FAILS(attnrank_points_read(NULL, NULL, &p), ATTNRANK_EINVAL);
    double *a = NULL;
    size_t r, c;
    ASSERT_FAILS(attnrank_npy_read("/nonexistent/X.npy", &a, &r, &c), ATTNRANK_EIO);
    ASSERT_FAILS(attnrank_npy_read("x", NULL, &r, &c), ATTNRANK_EINVAL);
    char dir[256], path[300];
    cli_tmpdir_make(dir, sizeof dir, "api");
    snprintf(path, sizeof path, "%s/X.npy", dir);
    ck_assert_int_eq(attnrank_points_new(x, 3, 2, NULL, NULL, NULL, &p), ATTNRANK_OK);
    ck_assert_int_eq(attnrank_points_write_npy(p, path), ATTNRANK_OK);
    ASSERT_FAILS(attnrank_points_write_npy(NULL, path), ATTNRANK_EINVAL);
    attnrank_points_free(p);
    ck_assert_int_eq(attnrank_npy_read(path, &a, &r, &c), ATTNRANK_OK);
    ck_assert_uint_eq(r, 3);
    ck_assert_uint_eq(c, 2);
    ck_assert(memcmp(a, x, sizeof x) == 0);
    attnrank_free(a);
    ck_assert_int_eq(attnrank_points_read(path, NULL, &p), ATTNRANK_OK);
    ck_assert(memcmp(attnrank_points_coords(p), x, sizeof x) == 0);
    attnrank_points_free(p);
    cli_tmpdir_remove(dir);
}
END_TEST

START_TEST(test_generators)
{
    attnrank_points *p = NULL;
    ck_assert_int_eq(attnrank_sphere_generate("fibonacci", 3, 500, NAN, 0, 1, &p), ATTNRANK_OK);
    ck_assert_uint_eq(attnrank_points_count(p), 500);
    ck_assert_uint_eq(attnrank_points_dim(p), 3);
    ck_assert_ptr_nonnull(strstr(attnrank_points_provenance(p), "fibonacci"));
    attnrank_points_free(p);
    ck_assert_int_eq(attnrank_sphere_generate("packing", 3, 5000, NAN, 100, 1, &p), ATTNRANK_OK);
    pointset_t P;
    memset(&P, 0, sizeof P);
    ck_assert_int_eq(sphere_generate(&P, FAMILY_PACKING, 5000, 3, sphere_packing_theta(100), 1), AR_OK);
    ck_assert_uint_eq(attnrank_points_count(p), P.n);
    ck_assert(memcmp(attnrank_points_coords(p), P.x, P.n * 3 * sizeof(double)) == 0);
    pointset_clear(&P);
    attnrank_points_free(p);
    ck_assert(attnrank_sphere_packing_theta(8) == 1.0);
    ASSERT_FAILS(attnrank_sphere_generate("cube", 3, 10, NAN, 0, 1, &p), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_sphere_generate(NULL, 3, 10, NAN, 0, 1, &p), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_sphere_generate("polygon", 3, 10, NAN, 0, 1, &p), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_sphere_generate("uniform", 0, 10, NAN, 0, 1, &p), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_sphere_generate("uniform", 3, 0, NAN, 0, 1, &p), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_sphere_generate("packing", 3, 10, -1, 0, 1, &p), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_sphere_generate("uniform", 3, 10, NAN, -1, 1, &p), ATTNRANK_EINVAL);
    ck_assert_ptr_null(p);
    attnrank_ball_spec s;
    ck_assert_int_eq(attnrank_ball_spec_default(&s, "shells", 2, 100), ATTNRANK_OK);
    ck_assert_str_eq(s.family, "shells");
    ck_assert(fabs(s.rho0 - sqrt(3) / 2) < 1e-15);
    ck_assert_int_eq(attnrank_ball_generate(&s, &p), ATTNRANK_OK);
    ck_assert_int_eq(attnrank_points_weighted(p), 1);
    attnrank_points_free(p);
    ASSERT_FAILS(attnrank_ball_spec_default(&s, "cube", 2, 100), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_ball_spec_default(NULL, "shells", 2, 100), ATTNRANK_EINVAL);
    attnrank_ball_spec_default(&s, "uniform", 3, 1.0);
    s.d = 1;
    ASSERT_FAILS(attnrank_ball_generate(&s, &p), ATTNRANK_EINVAL);
    s.d = 3;
    s.rho0 = 1;
    ASSERT_FAILS(attnrank_ball_generate(&s, &p), ATTNRANK_EINVAL);
    s.rho0 = 0;
    s.beta = NAN;
    ASSERT_FAILS(attnrank_ball_generate(&s, &p), ATTNRANK_EINVAL);
    s.beta = 1;
    s.m0 = 0.5;
    ASSERT_FAILS(attnrank_ball_generate(&s, &p), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_ball_generate(NULL, &p), ATTNRANK_EINVAL);
    ck_assert_ptr_null(p);
}
END_TEST

/* The API's bracket is route_bracket's, field by field. */
START_TEST(test_bracket_matches_route)
{
    size_t n = 400, d = 3;
    double *x = sphere_points(n, d, 11);
    double *q = sphere_points(300, d, 12);
    for (int self = 0; self < 2; self++) {
        attnrank_bracket_result r;
        ATTNRANK_INIT(&r);
        ck_assert_int_eq(attnrank_bracket_arrays(self ? x : q, self ? n : 300, self ? NULL : x, n, d, NULL, NULL, 20,
                                                 0.1, NULL, &r), ATTNRANK_OK);
        pointset_t Q, K;
        memset(&Q, 0, sizeof Q);
        memset(&K, 0, sizeof K);
        pointset_init(&K, n, d);
        memcpy(K.x, x, n * d * sizeof *x);
        pointset_init(&Q, 300, d);
        memcpy(Q.x, q, 300 * d * sizeof *q);
        route_result_t rr;
        ck_assert_int_eq(route_bracket(self ? &K : &Q, &K, 20, 0.1, NULL, &rr), AR_OK);
        ck_assert_uint_eq(r.lower, rr.b.lower);
        ck_assert_uint_eq(r.upper, rr.b.upper);
        ck_assert_str_eq(r.status, ar_cert_status_name(rr.b.status));
        ck_assert_str_eq(r.routes, rr.routes);
        ck_assert_str_eq(r.lower_route, ar_route_name(rr.lower_route));
        ck_assert_str_eq(r.upper_certificate, ar_method_name(rr.b.up.method));
        ck_assert(r.upper_err_bound == rr.b.up.err);
        ck_assert(r.lower_invnorm_bound == rr.b.lo.invnorm);
        ck_assert_int_eq(r.self_attention, self);
        ck_assert_str_eq(r.n, "400");
        ck_assert_str_eq(r.m, self ? "400" : "300");
        ck_assert(r.log10_n == log10(400.0) || fabs(r.log10_n - log10(400.0)) < 1e-12);
        ck_assert_uint_eq(r.distinct_queries, self ? 400 : 300);
        ck_assert_uint_eq(r.d, 3);
        printf("test_bracket_matches_route: %s [%zu, %zu] %s/%s %s/%s\n", self ? "self" : "cross", r.lower, r.upper,
               r.lower_route, r.lower_certificate, r.upper_route, r.upper_certificate);
        attnrank_bracket_clear(&r);
        attnrank_bracket_clear(&r);          /* twice: zeroed */
        pointset_clear(&Q);
        pointset_clear(&K);
    }
    /* the same handle twice is self-attention */
    attnrank_points *P = NULL;
    attnrank_bracket_result a, b;
    ATTNRANK_INIT(&a);
    ATTNRANK_INIT(&b);
    ck_assert_int_eq(attnrank_points_new(x, n, d, NULL, NULL, NULL, &P), ATTNRANK_OK);
    ck_assert_int_eq(attnrank_bracket(P, P, 20, 0.1, NULL, &a), ATTNRANK_OK);
    ck_assert_int_eq(attnrank_bracket(P, NULL, 20, 0.1, NULL, &b), ATTNRANK_OK);
    assert_same_bracket(&a, &b);
    ck_assert_int_eq(a.self_attention, 1);
    attnrank_bracket_clear(&a);
    attnrank_bracket_clear(&b);
    /* options: engine dense, upper svd, a sketch seed, a progress callback */
    attnrank_options o;
    attnrank_options_default(&o);
    o.engine = ATTNRANK_ENGINE_DENSE;
    o.upper = ATTNRANK_UPPER_SVD;
    ck_assert_int_eq(attnrank_bracket(P, NULL, 20, 0.1, &o, &a), ATTNRANK_OK);
    ck_assert_str_eq(a.routes, "dense");
    ck_assert_str_eq(a.upper_certificate, "svd");
    attnrank_bracket_clear(&a);
    attnrank_points_free(P);
    free(x);
    free(q);
}
END_TEST

START_TEST(test_bracket_errors)
{
    const double x[6] = { 1, 0, 0, 1, -1, 0 }, y[3] = { 1, 0, 0 };
    attnrank_points *P = NULL, *K3 = NULL;
    attnrank_bracket_result r;
    ATTNRANK_INIT(&r);
    ck_assert_int_eq(attnrank_points_new(x, 3, 2, NULL, NULL, NULL, &P), ATTNRANK_OK);
    ck_assert_int_eq(attnrank_points_new(y, 1, 3, NULL, NULL, NULL, &K3), ATTNRANK_OK);
    ASSERT_FAILS(attnrank_bracket(NULL, NULL, 1, 0.1, NULL, &r), ATTNRANK_EINVAL);
    ck_assert_ptr_null(r.n);
    ASSERT_FAILS(attnrank_bracket(P, NULL, 1, 0.1, NULL, NULL), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_bracket(P, K3, 1, 0.1, NULL, &r), ATTNRANK_EINVAL);         /* d 2 vs 3 */
    const double betas[] = { -1, NAN, INFINITY, -INFINITY };
    for (size_t i = 0; i < 4; i++)
        ASSERT_FAILS(attnrank_bracket(P, NULL, betas[i], 0.1, NULL, &r), ATTNRANK_EINVAL);
    const double epss[] = { 0, 1, -0.1, 1.5, NAN, INFINITY };
    for (size_t i = 0; i < 6; i++)
        ASSERT_FAILS(attnrank_bracket(P, NULL, 1, epss[i], NULL, &r), ATTNRANK_EINVAL);
    attnrank_options o;
    attnrank_options_default(&o);
    o.prec = 10;
    ASSERT_FAILS(attnrank_bracket(P, NULL, 1, 0.1, &o, &r), ATTNRANK_EINVAL);
    attnrank_options_default(&o);
    o.threads = 100;
    ASSERT_FAILS(attnrank_bracket(P, NULL, 1, 0.1, &o, &r), ATTNRANK_EINVAL);
    attnrank_options_default(&o);
    o.engine = (attnrank_engine)7;
    ASSERT_FAILS(attnrank_bracket(P, NULL, 1, 0.1, &o, &r), ATTNRANK_EINVAL);
    attnrank_options_default(&o);
    o.upper = 64;
    ASSERT_FAILS(attnrank_bracket(P, NULL, 1, 0.1, &o, &r), ATTNRANK_EINVAL);
    attnrank_options_default(&o);
    o.memory_limit_gb = -1;
    ASSERT_FAILS(attnrank_bracket(P, NULL, 1, 0.1, &o, &r), ATTNRANK_EINVAL);
    o.memory_limit_gb = NAN;
    ASSERT_FAILS(attnrank_bracket(P, NULL, 1, 0.1, &o, &r), ATTNRANK_EINVAL);
    attnrank_options_default(&o);
    o.upper = ATTNRANK_UPPER_SYMEIG;
    attnrank_points *Q2 = NULL, *Same = NULL;
    const double x2[6] = { 1, 0, 0, 1, -0.5, 0 };
    ck_assert_int_eq(attnrank_points_new(x2, 3, 2, NULL, NULL, NULL, &Q2), ATTNRANK_OK);
    ASSERT_FAILS(attnrank_bracket(Q2, P, 1, 0.1, &o, &r), ATTNRANK_EINVAL);            /* symeig: cross */
    /* the same points in another object: self-attention (one rule, by content), symeig applies */
    ck_assert_int_eq(attnrank_points_new(x, 3, 2, NULL, NULL, NULL, &Same), ATTNRANK_OK);
    ck_assert_int_eq(attnrank_bracket(Same, P, 1, 0.1, &o, &r), ATTNRANK_OK);
    ck_assert_int_eq(r.self_attention, 1);
    attnrank_bracket_clear(&r);
    attnrank_points_free(Same);
    attnrank_options_default(&o);
    o.engine = ATTNRANK_ENGINE_SCALE;
    ASSERT_FAILS(attnrank_bracket(Q2, P, 1, 0.1, &o, &r), ATTNRANK_EINVAL);            /* scale: cross */
    ASSERT_FAILS(attnrank_bracket_arrays(NULL, 3, NULL, 0, 2, NULL, NULL, 1, 0.1, NULL, &r), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_bracket_arrays(x, 3, y, 1, 0, NULL, NULL, 1, 0.1, NULL, &r), ATTNRANK_EINVAL);
    /* a valid call afterwards: no state left behind */
    ck_assert_int_eq(attnrank_bracket(P, NULL, 1, 0.1, NULL, &r), ATTNRANK_OK);
    ck_assert_str_eq(attnrank_error_message(), "");
    attnrank_bracket_clear(&r);
    attnrank_bracket_clear(NULL);
    attnrank_points_free(Q2);
    attnrank_points_free(P);
    attnrank_points_free(K3);
}
END_TEST

START_TEST(test_memory_limit)
{
    size_t n = 600, d = 3;
    double *x = sphere_points(n, d, 3);
    attnrank_options o;
    attnrank_options_default(&o);
    o.memory_limit_gb = 1e-6;              /* 1 KiB: the first matrix is refused */
    attnrank_bracket_result r;
    ATTNRANK_INIT(&r);
    ASSERT_FAILS(attnrank_bracket_arrays(x, n, NULL, 0, d, NULL, NULL, 20, 0.1, &o, &r), ATTNRANK_ENOMEM);
    ck_assert_ptr_nonnull(strstr(attnrank_error_message(), "allocation limit"));
    ck_assert_ptr_null(r.n);
    /* the limit was for that call only */
    ck_assert_int_eq(attnrank_bracket_arrays(x, n, NULL, 0, d, NULL, NULL, 20, 0.1, NULL, &r), ATTNRANK_OK);
    attnrank_bracket_clear(&r);
    free(x);
}
END_TEST

/* progress callback that raises the caller's cancel flag on the n-th message */
typedef struct {
    volatile int *flag;
    int count, at;
} cancel_ctx_t;

static void cancel_on_progress(void *ctx, const char *msg)
{
    cancel_ctx_t *c = ctx;
    (void)msg;
    if (++c->count >= c->at)
        *c->flag = 1;
}

START_TEST(test_cancel)
{
    size_t n = 1500, d = 3;
    double *x = sphere_points(n, d, 4);
    volatile int flag = 1;
    attnrank_options o;
    attnrank_options_default(&o);
    o.cancel = &flag;
    attnrank_bracket_result r;
    ATTNRANK_INIT(&r);
    ASSERT_FAILS(attnrank_bracket_arrays(x, n, NULL, 0, d, NULL, NULL, 20, 0.1, &o, &r), ATTNRANK_ECANCELED);
    ck_assert_str_eq(attnrank_error_message(), "cancelled");
    ck_assert_ptr_null(r.n);
    ck_assert_uint_eq(r.upper, 0);
    /* raised during the dense route (randomized sketch passes, lower probes) */
    for (int at = 1; at <= 3; at++) {
        flag = 0;
        cancel_ctx_t c = { &flag, 0, at };
        o.progress = cancel_on_progress;
        o.progress_ctx = &c;
        o.engine = ATTNRANK_ENGINE_DENSE;
        ASSERT_FAILS(attnrank_bracket_arrays(x, n, NULL, 0, d, NULL, NULL, 20, 0.1, &o, &r), ATTNRANK_ECANCELED);
        ck_assert_int_ge(c.count, at);
        ck_assert_ptr_null(r.n);
    }
    /* and inside the polynomial route's passes, by direct checks of the flag (no progress there) */
    flag = 0;
    o.progress = NULL;
    o.engine = ATTNRANK_ENGINE_AUTO;
    ck_assert_int_eq(attnrank_bracket_arrays(x, n, NULL, 0, d, NULL, NULL, 20, 0.1, &o, &r), ATTNRANK_OK);
    attnrank_bracket_clear(&r);
    /* a head and a law row honour it too */
    flag = 1;
    attnrank_points *P = NULL;
    ck_assert_int_eq(attnrank_points_new(x, 50, d, NULL, NULL, NULL, &P), ATTNRANK_OK);
    attnrank_head_result h;
    ATTNRANK_INIT(&h);
    ASSERT_FAILS(attnrank_head(P, P, NAN, 0.1, NULL, 0, 0, &o, &h), ATTNRANK_ECANCELED);
    attnrank_law_verdict v;
    ATTNRANK_INIT(&v);
    ASSERT_FAILS(attnrank_law_run(0, &o, &v), ATTNRANK_ECANCELED);
    attnrank_ball_spec s;
    attnrank_ball_spec_default(&s, "shells", 2, 100);
    attnrank_points *B = (attnrank_points *)1;
    ASSERT_FAILS(attnrank_bracket_ball(&s, 0.1, &o, &r, &B), ATTNRANK_ECANCELED);
    ck_assert_ptr_null(B);
    attnrank_points_free(P);
    free(x);
}
END_TEST

typedef struct {
    const double *x;
    size_t n, d;
    attnrank_bracket_result r;
    attnrank_status st;
    char msg[256];
} job_t;

static void *job_run(void *arg)
{
    job_t *j = arg;
    j->st = attnrank_bracket_arrays(j->x, j->n, NULL, 0, j->d, NULL, NULL, 30, 0.1, NULL, &j->r);
    /* this thread's message is its own: a failure here leaves the other thread's alone */
    attnrank_points *p = NULL;
    attnrank_points_new(j->x, 0, j->d, NULL, NULL, NULL, &p);
    snprintf(j->msg, sizeof j->msg, "%s", attnrank_error_message());
    attnrank_thread_cleanup();   /* the thread's FLINT and GLPK caches */
    return NULL;
}

START_TEST(test_two_threads)
{
    size_t n = 700, d = 3;
    double *x1 = sphere_points(n, d, 21), *x2 = sphere_points(n, d, 22);
    const attnrank_bracket_result r0 = { .size = sizeof r0 };
    job_t one[2] = { { x1, n, d, r0, 0, "" }, { x2, n, d, r0, 0, "" } }, two[2];
    memcpy(two, one, sizeof one);
    for (int i = 0; i < 2; i++) {                 /* one at a time */
        job_run(&one[i]);
        ck_assert_int_eq(one[i].st, ATTNRANK_OK);
    }
    pthread_t th[2];
    for (int i = 0; i < 2; i++)                   /* both at once */
        ck_assert_int_eq(pthread_create(&th[i], NULL, job_run, &two[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(two[i].st, ATTNRANK_OK);
        assert_same_bracket(&one[i].r, &two[i].r);
        ck_assert_ptr_nonnull(strstr(two[i].msg, "shape 0 x 3"));
        printf("test_two_threads: instance %d [%zu, %zu] in both runs\n", i, two[i].r.lower, two[i].r.upper);
        attnrank_bracket_clear(&one[i].r);
        attnrank_bracket_clear(&two[i].r);
    }
    free(x1);
    free(x2);
}
END_TEST

START_TEST(test_bracket_ball)
{
    attnrank_ball_spec s;
    ck_assert_int_eq(attnrank_ball_spec_default(&s, "shells", 2, 300), ATTNRANK_OK);
    attnrank_bracket_result r;
    ATTNRANK_INIT(&r);
    attnrank_points *P = NULL;
    ck_assert_int_eq(attnrank_bracket_ball(&s, 0.1, NULL, &r, &P), ATTNRANK_OK);
    ck_assert_str_eq(r.status, "certified");
    ck_assert_uint_eq(r.distinct_keys, attnrank_points_count(P));
    ck_assert(r.log10_n > 5);
    ck_assert(strlen(r.n) > 5);
    ck_assert_uint_ge(r.upper, r.lower);
    ck_assert_ptr_nonnull(strstr(r.routes, "ball"));
    /* the same instance through attnrank_bracket: the same ends */
    attnrank_bracket_result r2;
    ATTNRANK_INIT(&r2);
    ck_assert_int_eq(attnrank_bracket(P, NULL, 300, 0.1, NULL, &r2), ATTNRANK_OK);
    ck_assert_uint_eq(r2.lower, r.lower);
    ck_assert_uint_eq(r2.upper, r.upper);
    ck_assert_str_eq(r2.n, r.n);
    attnrank_bracket_clear(&r);
    attnrank_bracket_clear(&r2);
    attnrank_points_free(P);
    ck_assert_int_eq(attnrank_bracket_ball(&s, 0.1, NULL, &r, NULL), ATTNRANK_OK);
    attnrank_bracket_clear(&r);
    ASSERT_FAILS(attnrank_bracket_ball(&s, 0, NULL, &r, NULL), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_bracket_ball(&s, 0.1, NULL, NULL, NULL), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_bracket_ball(NULL, 0.1, NULL, &r, NULL), ATTNRANK_EINVAL);
    s.beta = -1;
    ASSERT_FAILS(attnrank_bracket_ball(&s, 0.1, NULL, &r, NULL), ATTNRANK_EINVAL);
}
END_TEST

/* Issue 35: the head's direct bracket and its visible route run side by side; every field of the
 * result but the time is the same for 1, 2, 3 and 5 threads (a 300-token head of dimension 16
 * whose visible dimension is 5, so that both routes and the r(tau) uppers are computed). */
START_TEST(test_head_thread_counts)
{
    size_t m = 300, n = 300, dh = 16;
    double *Q = malloc(m * dh * sizeof *Q), *K = malloc(n * dh * sizeof *K);
    test_rng_init(test_seed() + 35);
    for (size_t i = 0; i < m * dh; i++)
        Q[i] = (i % dh) < 5 ? 2.0 * (test_unif() - 0.5) : 0.0;
    for (size_t i = 0; i < n * dh; i++)
        K[i] = 2.0 * (test_unif() - 0.5);
    attnrank_points *PQ = NULL, *PK = NULL;
    ck_assert_int_eq(attnrank_points_new(Q, m, dh, NULL, NULL, NULL, &PQ), ATTNRANK_OK);
    ck_assert_int_eq(attnrank_points_new(K, n, dh, NULL, NULL, NULL, &PK), ATTNRANK_OK);
    const double taus[3] = { 0.2, 0.05, 0.01 };
    static const int counts[] = { 1, 2, 3, 5 };
    attnrank_head_result h1;
    ATTNRANK_INIT(&h1);
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        attnrank_options o;
        attnrank_options_default(&o);
        o.threads = counts[c];
        attnrank_head_result h;
        ATTNRANK_INIT(&h);
        ck_assert_int_eq(attnrank_head(PQ, PK, 6.0, 0.1, taus, 3, 0, &o, c ? &h : &h1), ATTNRANK_OK);
        if (c == 0) {
            ck_assert_uint_eq(h1.r, 5);
            continue;
        }
        int same = h.r == h1.r && h.r_exact == h1.r_exact && h.lower == h1.lower && h.upper == h1.upper &&
                   h.direct_lower == h1.direct_lower && h.direct_upper == h1.direct_upper &&
                   h.visible_lower == h1.visible_lower && h.visible_upper == h1.visible_upper &&
                   !memcmp(&h.visible_eta, &h1.visible_eta, sizeof h.visible_eta) &&
                   !memcmp(&h.tol, &h1.tol, sizeof h.tol) && h.ntau == h1.ntau &&
                   !memcmp(h.r_tau, h1.r_tau, sizeof h.r_tau) && !memcmp(h.eta, h1.eta, sizeof h.eta) &&
                   !memcmp(h.upper_via, h1.upper_via, sizeof h.upper_via) &&
                   !strcmp(h.status, h1.status) && !strcmp(h.lower_route, h1.lower_route) &&
                   !strcmp(h.upper_route, h1.upper_route) && !strcmp(h.visible_status, h1.visible_status) &&
                   !strcmp(h.direct_lower_certificate, h1.direct_lower_certificate) &&
                   !strcmp(h.direct_upper_certificate, h1.direct_upper_certificate) && h.nsigma == h1.nsigma &&
                   !memcmp(h.sigma, h1.sigma, h.nsigma * sizeof *h.sigma) && !strcmp(h.n, h1.n);
        ck_assert_msg(same, "%d threads: the head differs from one thread's", counts[c]);
        attnrank_head_clear(&h);
    }
    attnrank_head_clear(&h1);
    attnrank_points_free(PQ);
    attnrank_points_free(PK);
    free(Q);
    free(K);
}
END_TEST

START_TEST(test_head)
{
    size_t m = 40, n = 60, dh = 8;
    double *Q = malloc(m * dh * sizeof *Q), *K = malloc(n * dh * sizeof *K);
    test_rng_init(test_seed());
    for (size_t i = 0; i < m * dh; i++)
        Q[i] = (i % dh) < 2 ? test_unif() - 0.5 : 0.0;   /* visible dimension 2 */
    for (size_t i = 0; i < n * dh; i++)
        K[i] = test_unif() - 0.5;
    attnrank_points *PQ = NULL, *PK = NULL;
    ck_assert_int_eq(attnrank_points_new(Q, m, dh, NULL, NULL, NULL, &PQ), ATTNRANK_OK);
    ck_assert_int_eq(attnrank_points_new(K, n, dh, NULL, NULL, NULL, &PK), ATTNRANK_OK);
    const double taus[2] = { 0.05, 0.01 };
    attnrank_head_result h;
    ATTNRANK_INIT(&h);
    ck_assert_int_eq(attnrank_head(PQ, PK, 4.0, 0.1, taus, 2, 0, NULL, &h), ATTNRANK_OK);
    ck_assert_uint_eq(h.r, 2);
    ck_assert_int_eq(h.r_exact, 2);
    ck_assert_uint_eq(h.ntau, 2);
    ck_assert_uint_le(h.r_tau[0], 2);
    ck_assert_uint_le(h.lower, h.upper);
    ck_assert_str_eq(h.n, "60");
    ck_assert_uint_eq(h.head_dim, dh);
    ck_assert(h.beta == 4.0);
    ck_assert_ptr_nonnull(h.sigma);
    attnrank_head_clear(&h);
    ck_assert_int_eq(attnrank_head(PQ, PK, NAN, 0.1, NULL, 0, 1, NULL, &h), ATTNRANK_OK);
    ck_assert(h.beta == 1.0 / sqrt(8.0));
    ck_assert_int_eq(h.r_exact, -1);              /* exact_max 1: never */
    ck_assert(h.tau[0] == 0.05);
    attnrank_head_clear(&h);
    const double bad_taus[2] = { 0.05, 2.0 };
    ASSERT_FAILS(attnrank_head(PQ, PK, 4.0, 0.1, bad_taus, 2, 0, NULL, &h), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_head(PQ, PK, 4.0, 0.1, taus, 33, 0, NULL, &h), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_head(PQ, PK, 4.0, 1.0, taus, 2, 0, NULL, &h), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_head(PQ, PK, -4.0, 0.1, taus, 2, 0, NULL, &h), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_head(NULL, PK, 4.0, 0.1, taus, 2, 0, NULL, &h), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_head(PQ, NULL, 4.0, 0.1, taus, 2, 0, NULL, &h), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_head(PQ, PK, 4.0, 0.1, taus, 2, 0, NULL, NULL), ATTNRANK_EINVAL);
    attnrank_points *P3 = NULL;
    ck_assert_int_eq(attnrank_points_new(K, n, 3, NULL, NULL, NULL, &P3), ATTNRANK_OK);
    ASSERT_FAILS(attnrank_head(PQ, P3, 4.0, 0.1, taus, 2, 0, NULL, &h), ATTNRANK_EINVAL);
    ck_assert_ptr_null(h.sigma);
    /* weights-only mode */
    ck_assert_int_eq(attnrank_head_weights(Q, K, 5, dh, NAN, 1.0, taus, 2, NULL, &h), ATTNRANK_OK);
    ck_assert_uint_eq(h.model_dim, 5);
    ck_assert_uint_le(h.r, 5);
    attnrank_head_clear(&h);
    ASSERT_FAILS(attnrank_head_weights(Q, K, 5, dh, NAN, 0.0, taus, 2, NULL, &h), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_head_weights(NULL, K, 5, dh, NAN, 1.0, taus, 2, NULL, &h), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_head_weights(Q, K, 0, dh, NAN, 1.0, taus, 2, NULL, &h), ATTNRANK_EINVAL);
    attnrank_head_clear(NULL);
    attnrank_points_free(PQ);
    attnrank_points_free(PK);
    attnrank_points_free(P3);
    free(Q);
    free(K);
}
END_TEST

START_TEST(test_funk_hecke)
{
    attnrank_points *P = NULL;
    ck_assert_int_eq(attnrank_sphere_generate("fibonacci", 3, 800, NAN, 0, 1, &P), ATTNRANK_OK);
    attnrank_funk_hecke_result f;
    ATTNRANK_INIT(&f);
    ck_assert_int_eq(attnrank_funk_hecke(P, 10, 1e-3, NULL, &f), ATTNRANK_OK);
    ck_assert_uint_eq(f.n, 800);
    ck_assert_uint_gt(f.count_pred, 0);
    ck_assert(f.max_relerr < 1e-2);
    ASSERT_FAILS(attnrank_funk_hecke(P, 10, 0, NULL, &f), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_funk_hecke(NULL, 10, 1e-6, NULL, &f), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_funk_hecke(P, 10, 1e-6, NULL, NULL), ATTNRANK_EINVAL);
    attnrank_points_free(P);
}
END_TEST

START_TEST(test_laws)
{
    size_t n = attnrank_laws_count(), count;
    const law_t *T = laws_table(&count);
    ck_assert_uint_eq(n, count);
    ck_assert_uint_gt(n, 10);
    attnrank_law L;
    ATTNRANK_INIT(&L);
    size_t pick = n;
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(attnrank_law_get(i, &L), ATTNRANK_OK);
        ck_assert_str_eq(L.claim, T[i].claim);
        ck_assert_int_eq(L.dim, T[i].dim);
        ck_assert(L.predicted == T[i].predicted && L.tol == T[i].tol);
        ck_assert_uint_eq(L.nbetas, T[i].nbetas);
        ck_assert_str_eq(L.kind, law_kind_name(T[i].kind));
        ck_assert_int_eq(L.asserted, law_asserted(&T[i]));
        if (pick == n && !strcmp(L.claim, "R") && !strcmp(L.kind, "report") && L.dim == 1)
            pick = i;                              /* random heads, r = 1: a fraction of a second */
    }
    ASSERT_FAILS(attnrank_law_get(n, &L), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_law_get(0, NULL), ATTNRANK_EINVAL);
    ck_assert_uint_lt(pick, n);
    attnrank_law_verdict v;
    ATTNRANK_INIT(&v);
    ck_assert_int_eq(attnrank_law_run(pick, NULL, &v), ATTNRANK_OK);
    verify_row_t row;
    ck_assert_int_eq(verify_law(&T[pick], &row, NULL, NULL), AR_OK);
    ck_assert_str_eq(v.verdict, verify_verdict_name(row.verdict));
    ck_assert_str_eq(v.reason, row.reason);
    ck_assert(v.fit_upper == row.fit_upper.slope);
    ck_assert_uint_eq(v.npts, row.npts);
    for (size_t t = 0; t < v.npts; t++) {
        ck_assert_uint_eq(v.pts[t].lower, row.pts[t].p.lower);
        ck_assert_uint_eq(v.pts[t].upper, row.pts[t].p.upper);
    }
    printf("test_laws: row %zu (claim R, random heads): %s\n", pick, v.verdict);
    ASSERT_FAILS(attnrank_law_run(n, NULL, &v), ATTNRANK_EINVAL);
    ASSERT_FAILS(attnrank_law_run(0, NULL, NULL), ATTNRANK_EINVAL);
}
END_TEST

Suite *suite_api(void)
{
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_version);
    tcase_add_test(tc, test_points);
    tcase_add_test(tc, test_generators);
    tcase_add_test(tc, test_bracket_matches_route);
    tcase_add_test(tc, test_bracket_errors);
    tcase_add_test(tc, test_memory_limit);
    tcase_add_test(tc, test_cancel);
    tcase_add_test(tc, test_two_threads);
    tcase_add_test(tc, test_bracket_ball);
    tcase_add_test(tc, test_head);
    tcase_add_test(tc, test_head_thread_counts);
    tcase_add_test(tc, test_funk_hecke);
    tcase_add_test(tc, test_laws);
    suite_add_tcase(s, tc);
    return s;
}
