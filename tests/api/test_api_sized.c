/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_api_sized.c -- the size-checked structs of the public API
 * (api/api_sized.c, include/attnrank.h "size-checked structs"):
 *   - the helpers on a two-version struct (v1: the fields an old caller knows,
 *     v2: one field more): an old caller's input gets the default for the
 *     field past its size, an old caller's output gets exactly its prefix and
 *     nothing past it (guard bytes), a newer caller's tail is left untouched;
 *   - every entry that takes a size-checked struct: size 0 or below the 0.3
 *     size is ATTNRANK_EINVAL with one line naming the struct and nothing
 *     written; a caller of the 0.3 size gets exactly the prefix written and
 *     nothing past it (guard bytes, and an allocation of exactly that size
 *     for the sanitizer build); a larger size (a newer caller) works, gets the
 *     same numbers, and its tail is left untouched; clearing keeps size. */
#include <check.h>
#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "api/api_impl.h"

#define GUARD 0xA5
#define TAIL 64

/* ---- the helpers on a struct of two versions ---- */

typedef struct {
    size_t size;
    int a;
    double b;
} v1_t;

typedef struct {
    size_t size;
    int a;
    double b;
    double c;        /* added in "v2", default 7 */
} v2_t;

/* Every byte of p[from, to) is GUARD. */
static int guarded(const unsigned char *p, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (p[i] != GUARD)
            return 0;
    return 1;
}

START_TEST(helpers_old_caller_input_gets_defaults)
{
    v1_t old = { sizeof old, 3, 2.5 };
    v2_t defaults = { sizeof defaults, 0, 0.0, 7.0 }, full;
    memset(&full, GUARD, sizeof full);
    api_size_in(&full, &defaults, sizeof full, &old);
    ck_assert_uint_eq(full.size, sizeof full);
    ck_assert_int_eq(full.a, 3);
    ck_assert(full.b == 2.5);
    ck_assert(full.c == 7.0);                         /* past the old caller's size: the default */
    api_size_in(&full, NULL, sizeof full, &old);
    ck_assert(full.c == 0.0);                         /* no defaults given: zero */
    /* a newer caller's input (larger than the library's struct): the fields past it are ignored */
    v2_t newer = { sizeof newer, 4, 1.5, 9.0 };
    v1_t lib;
    api_size_in(&lib, NULL, sizeof lib, &newer);
    ck_assert_uint_eq(lib.size, sizeof lib);
    ck_assert_int_eq(lib.a, 4);
    ck_assert(lib.b == 1.5);
}
END_TEST

START_TEST(helpers_old_caller_output_gets_its_prefix)
{
    v2_t full = { sizeof full, 5, 6.5, 8.5 };
    alignas(max_align_t) unsigned char buf[sizeof(v2_t) + TAIL];
    memset(buf, GUARD, sizeof buf);
    size_t old = sizeof(v1_t);
    memcpy(buf, &old, sizeof old);
    api_size_out(buf, &full, sizeof full);
    v1_t got;
    memcpy(&got, buf, sizeof got);
    ck_assert_uint_eq(got.size, sizeof(v1_t));         /* the caller's size, kept */
    ck_assert_int_eq(got.a, 5);
    ck_assert(got.b == 6.5);
    ck_assert_msg(guarded(buf, sizeof(v1_t), sizeof buf), "a byte past the old caller's size was written");
    /* zeroing: the same prefix, size kept */
    api_size_zero(buf, sizeof(v1_t), sizeof full);
    memcpy(&got, buf, sizeof got);
    ck_assert_uint_eq(got.size, sizeof(v1_t));
    ck_assert_int_eq(got.a, 0);
    ck_assert(got.b == 0.0);
    ck_assert(guarded(buf, sizeof(v1_t), sizeof buf));
    /* below min: nothing zeroed */
    memset(buf, GUARD, sizeof buf);
    size_t tiny = 4;
    memcpy(buf, &tiny, sizeof tiny);
    api_size_zero(buf, sizeof(v1_t), sizeof full);
    ck_assert(guarded(buf, sizeof tiny, sizeof buf));
    api_size_zero(NULL, sizeof(v1_t), sizeof full);
    /* a newer caller: the library's struct written, the tail untouched */
    memset(buf, GUARD, sizeof buf);
    size_t newer = sizeof buf;
    memcpy(buf, &newer, sizeof newer);
    v1_t lib = { sizeof lib, 1, 2.0 };
    api_size_out(buf, &lib, sizeof lib);
    memcpy(&got, buf, sizeof got);
    ck_assert_uint_eq(got.size, sizeof buf);
    ck_assert_int_eq(got.a, 1);
    ck_assert(guarded(buf, sizeof(v1_t), sizeof buf));
}
END_TEST

START_TEST(helpers_check_message)
{
    ck_assert_int_eq(api_size_check(sizeof(v1_t), sizeof(v1_t), "v1_t"), AR_OK);
    ck_assert_int_eq(api_size_check(sizeof(v1_t) + 1, sizeof(v1_t), "v1_t"), AR_OK);
    ck_assert_int_eq(api_size_check(8, sizeof(v1_t), "v1_t"), AR_EINVAL);
    char want[128];
    snprintf(want, sizeof want, "v1_t.size 8 is smaller than %zu", sizeof(v1_t));
    ck_assert_msg(strstr(ar_error_get(), want) == ar_error_get(), "%s", ar_error_get());
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "ATTNRANK_INIT"));
    ck_assert_ptr_null(strchr(ar_error_get(), '\n'));
}
END_TEST

/* ---- the public entries ---- */

/* The message names type's size field and says how to set it. */
static void assert_size_message(const char *type, size_t size)
{
    char want[128];
    snprintf(want, sizeof want, "%s.size %zu is smaller than ", type, size);
    const char *m = attnrank_error_message();
    ck_assert_msg(strstr(m, want) == m, "message: %s (expected it to start with %s)", m, want);
    ck_assert_ptr_nonnull(strstr(m, "ATTNRANK_INIT"));
    ck_assert_ptr_null(strchr(m, '\n'));
}

/* A caller's buffer of `bytes`, all GUARD, its size field = size (aligned for any struct). */
static void *caller_buffer(size_t bytes, size_t size)
{
    void *p = aligned_alloc(alignof(max_align_t), (bytes + alignof(max_align_t) - 1) / alignof(max_align_t) *
                                                      alignof(max_align_t));
    ck_assert_ptr_nonnull(p);
    memset(p, GUARD, bytes);
    memcpy(p, &size, sizeof size);
    return p;
}

static double *points_array(size_t n, size_t d)
{
    double *x = malloc(n * d * sizeof *x);
    for (size_t i = 0; i < n * d; i++)
        x[i] = sin(1.0 + 0.7 * (double)i);
    return x;
}

START_TEST(bracket_result_sizes)
{
    size_t n = 30, d = 3, min = API_MIN_BRACKET, full = sizeof(attnrank_bracket_result);
    double *x = points_array(n, d);
    ck_assert_uint_le(min, full);
    attnrank_bracket_result ref;
    ATTNRANK_INIT(&ref);
    ck_assert_int_eq(attnrank_bracket_arrays(x, n, NULL, 0, d, NULL, NULL, 5.0, 0.1, NULL, &ref), ATTNRANK_OK);
    /* size 0, the size field alone, one byte short: refused, nothing written */
    const size_t bad[3] = { 0, sizeof(size_t), min - 1 };
    for (int i = 0; i < 3; i++) {
        unsigned char *b = caller_buffer(full + TAIL, bad[i]);
        ck_assert_int_eq(attnrank_bracket_arrays(x, n, NULL, 0, d, NULL, NULL, 5.0, 0.1, NULL,
                                                 (attnrank_bracket_result *)b), ATTNRANK_EINVAL);
        assert_size_message("attnrank_bracket_result", bad[i]);
        ck_assert_msg(guarded(b, sizeof(size_t), full + TAIL), "size %zu: the struct was written", bad[i]);
        char *js = (char *)1;
        ck_assert_int_eq(attnrank_bracket_json((attnrank_bracket_result *)b, NULL, NULL, &js), ATTNRANK_EINVAL);
        ck_assert_ptr_null(js);
        attnrank_bracket_clear((attnrank_bracket_result *)b);        /* below the 0.3 size: nothing */
        ck_assert(guarded(b, sizeof(size_t), full + TAIL));
        free(b);
    }
    /* an old caller (the 0.3 size): exactly its prefix written; an allocation of exactly that size too */
    for (int exact = 0; exact < 2; exact++) {
        size_t bytes = exact ? min : min + TAIL;
        unsigned char *b = exact ? malloc(min) : caller_buffer(bytes, min);
        if (exact)
            memcpy(b, &min, sizeof min);
        attnrank_bracket_result *r = (attnrank_bracket_result *)b;
        ck_assert_int_eq(attnrank_bracket_arrays(x, n, NULL, 0, d, NULL, NULL, 5.0, 0.1, NULL, r), ATTNRANK_OK);
        ck_assert_uint_eq(r->size, min);
        ck_assert_uint_eq(r->lower, ref.lower);
        ck_assert_uint_eq(r->upper, ref.upper);
        ck_assert_str_eq(r->n, ref.n);
        ck_assert_str_eq(r->upper_certificate, ref.upper_certificate);
        ck_assert(r->upper_err_bound == ref.upper_err_bound);
        ck_assert_int_eq(r->logit_bias, 0);
        if (!exact)
            ck_assert_msg(guarded(b, min, bytes), "a byte past the caller's size was written");
        char *js = NULL;
        ck_assert_int_eq(attnrank_bracket_json(r, "sized", NULL, &js), ATTNRANK_OK);
        ck_assert_ptr_nonnull(strstr(js, "\"source\":\"sized\""));
        attnrank_free(js);
        attnrank_bracket_clear(r);
        ck_assert_uint_eq(r->size, min);                               /* kept: reusable */
        ck_assert_ptr_null(r->n);
        ck_assert_uint_eq(r->upper, 0);
        if (!exact)
            ck_assert(guarded(b, min, bytes));
        /* a failed call: zeroed but for size, nothing past it */
        ck_assert_int_eq(attnrank_bracket_arrays(x, n, NULL, 0, d, NULL, NULL, 5.0, 1.5, NULL, r), ATTNRANK_EINVAL);
        ck_assert_uint_eq(r->size, min);
        ck_assert_ptr_null(r->route_plan);
        if (!exact)
            ck_assert(guarded(b, min, bytes));
        free(b);
    }
    /* a newer caller (larger than this library's struct): works, its tail untouched */
    unsigned char *b = caller_buffer(full + TAIL, full + TAIL);
    attnrank_bracket_result *r = (attnrank_bracket_result *)b;
    ck_assert_int_eq(attnrank_bracket_arrays(x, n, NULL, 0, d, NULL, NULL, 5.0, 0.1, NULL, r), ATTNRANK_OK);
    ck_assert_uint_eq(r->size, full + TAIL);
    ck_assert_uint_eq(r->lower, ref.lower);
    ck_assert_uint_eq(r->upper, ref.upper);
    ck_assert_ptr_nonnull(r->route_plan);
    ck_assert_msg(guarded(b, full, full + TAIL), "the newer caller's tail was written");
    attnrank_bracket_clear(r);
    ck_assert_uint_eq(r->size, full + TAIL);
    ck_assert(guarded(b, full, full + TAIL));
    free(b);
    attnrank_bracket_clear(&ref);
    free(x);
}
END_TEST

START_TEST(options_sizes)
{
    size_t n = 30, d = 3, min = API_MIN_OPTIONS, full = sizeof(attnrank_options);
    double *x = points_array(n, d);
    attnrank_bracket_result r, ref;
    ATTNRANK_INIT(&r);
    ATTNRANK_INIT(&ref);
    attnrank_options o;
    attnrank_options_default(&o);
    ck_assert_uint_eq(o.size, sizeof o);
    o.engine = ATTNRANK_ENGINE_DENSE;
    ck_assert_int_eq(attnrank_bracket_arrays(x, n, NULL, 0, d, NULL, NULL, 5.0, 0.1, &o, &ref), ATTNRANK_OK);
    ck_assert_str_eq(ref.engine, "dense");
    /* too small: refused before any work, naming the struct */
    const size_t bad[3] = { 0, sizeof(size_t), min - 1 };
    for (int i = 0; i < 3; i++) {
        o.size = bad[i];
        ck_assert_int_eq(attnrank_bracket_arrays(x, n, NULL, 0, d, NULL, NULL, 5.0, 0.1, &o, &r), ATTNRANK_EINVAL);
        assert_size_message("attnrank_options", bad[i]);
        ck_assert_ptr_null(r.n);
    }
    /* an old caller (the 0.3 size) and a newer one whose unknown tail holds garbage: the same bracket */
    for (int newer = 0; newer < 2; newer++) {
        size_t bytes = newer ? full + TAIL : min;
        unsigned char *b = caller_buffer(bytes, bytes);
        attnrank_options *p = (attnrank_options *)b;
        memset(b + sizeof(size_t), 0, min - sizeof(size_t));
        p->engine = ATTNRANK_ENGINE_DENSE;
        ck_assert_int_eq(attnrank_bracket_arrays(x, n, NULL, 0, d, NULL, NULL, 5.0, 0.1, p, &r), ATTNRANK_OK);
        ck_assert_str_eq(r.engine, "dense");
        ck_assert_str_eq(r.routes, ref.routes);
        ck_assert_uint_eq(r.lower, ref.lower);
        ck_assert_uint_eq(r.upper, ref.upper);
        ck_assert_uint_eq(p->size, bytes);                            /* an input: never written */
        if (newer)
            ck_assert(guarded(b, full, bytes));
        attnrank_bracket_clear(&r);
        free(b);
    }
    /* the defaults function: the caller's size, nothing past it; too small: nothing written */
    unsigned char *b = caller_buffer(min + TAIL, 0);
    ck_assert_int_eq(attnrank_options_default_sized((attnrank_options *)b, min), ATTNRANK_OK);
    ck_assert_uint_eq(((attnrank_options *)b)->size, min);
    ck_assert(((attnrank_options *)b)->cancel == NULL);
    ck_assert(guarded(b, min, min + TAIL));
    memset(b, GUARD, min + TAIL);
    ck_assert_int_eq(attnrank_options_default_sized((attnrank_options *)b, min - 1), ATTNRANK_EINVAL);
    assert_size_message("attnrank_options", min - 1);
    ck_assert(guarded(b, 0, min + TAIL));
    ck_assert_int_eq(attnrank_options_default_sized(NULL, min), ATTNRANK_EINVAL);
    free(b);
    attnrank_bracket_clear(&ref);
    free(x);
}
END_TEST

START_TEST(ball_spec_sizes)
{
    size_t min = API_MIN_BALL_SPEC, full = sizeof(attnrank_ball_spec);
    attnrank_ball_spec s;
    ck_assert_int_eq(attnrank_ball_spec_default(&s, "uniform", 3, 2.0), ATTNRANK_OK);
    ck_assert_uint_eq(s.size, sizeof s);
    s.npoints = 50;
    attnrank_points *p = NULL;
    ck_assert_int_eq(attnrank_ball_generate(&s, &p), ATTNRANK_OK);
    size_t count = attnrank_points_count(p);
    attnrank_points_free(p);
    /* the defaults function: exactly the caller's size; below the 0.3 size: EINVAL, nothing written */
    unsigned char *b = caller_buffer(full + TAIL, 0);
    ck_assert_int_eq(attnrank_ball_spec_default_sized((attnrank_ball_spec *)b, min, "uniform", 3, 2.0), ATTNRANK_OK);
    ck_assert_uint_eq(((attnrank_ball_spec *)b)->size, min);
    ck_assert_str_eq(((attnrank_ball_spec *)b)->family, "uniform");
    attnrank_ball_spec t;
    ck_assert_int_eq(attnrank_ball_spec_default(&t, "uniform", 3, 2.0), ATTNRANK_OK);
    ck_assert_uint_eq(((attnrank_ball_spec *)b)->npoints, t.npoints);
    ck_assert(((attnrank_ball_spec *)b)->m0 == t.m0);
    ck_assert(guarded(b, min, full + TAIL));
    memset(b, GUARD, full + TAIL);
    ck_assert_int_eq(attnrank_ball_spec_default_sized((attnrank_ball_spec *)b, 0, "uniform", 3, 2.0),
                     ATTNRANK_EINVAL);
    assert_size_message("attnrank_ball_spec", 0);
    ck_assert(guarded(b, 0, full + TAIL));
    /* a newer caller's spec: generated the same, its tail untouched */
    memcpy(b, &s, sizeof s);
    size_t newer = full + TAIL;
    memcpy(b, &newer, sizeof newer);
    ck_assert_int_eq(attnrank_ball_generate((attnrank_ball_spec *)b, &p), ATTNRANK_OK);
    ck_assert_uint_eq(attnrank_points_count(p), count);
    attnrank_points_free(p);
    ck_assert(guarded(b, full, full + TAIL));
    free(b);
    /* too small a spec: refused by the generators, naming it */
    s.size = min - 1;
    p = (attnrank_points *)1;
    ck_assert_int_eq(attnrank_ball_generate(&s, &p), ATTNRANK_EINVAL);
    assert_size_message("attnrank_ball_spec", min - 1);
    ck_assert_ptr_null(p);
    attnrank_bracket_result r;
    ATTNRANK_INIT(&r);
    ck_assert_int_eq(attnrank_bracket_ball(&s, 0.1, NULL, &r, NULL), ATTNRANK_EINVAL);
    assert_size_message("attnrank_ball_spec", min - 1);
    ck_assert_ptr_null(r.n);
}
END_TEST

START_TEST(head_funk_hecke_law_sizes)
{
    size_t n = 20, d = 4;
    double *x = points_array(n, d);
    attnrank_points *P = NULL;
    ck_assert_int_eq(attnrank_points_new(x, n, d, NULL, NULL, NULL, &P), ATTNRANK_OK);
    /* head: refused when too small, an old caller's prefix exactly, clear keeps size */
    size_t hmin = API_MIN_HEAD;
    unsigned char *b = caller_buffer(hmin + TAIL, 0);
    ck_assert_int_eq(attnrank_head(P, P, NAN, 0.1, NULL, 0, 0, NULL, (attnrank_head_result *)b), ATTNRANK_EINVAL);
    assert_size_message("attnrank_head_result", 0);
    ck_assert(guarded(b, sizeof(size_t), hmin + TAIL));
    ck_assert_int_eq(attnrank_head_weights(x, x, n, d, NAN, 1.0, NULL, 0, NULL, (attnrank_head_result *)b),
                     ATTNRANK_EINVAL);
    assert_size_message("attnrank_head_result", 0);
    memcpy(b, &hmin, sizeof hmin);
    attnrank_head_result *h = (attnrank_head_result *)b;
    ck_assert_int_eq(attnrank_head(P, P, NAN, 0.1, NULL, 0, 0, NULL, h), ATTNRANK_OK);
    ck_assert_uint_eq(h->size, hmin);
    ck_assert_ptr_nonnull(h->sigma);
    ck_assert_str_eq(h->n, "20");
    ck_assert(guarded(b, hmin, hmin + TAIL));
    attnrank_head_clear(h);
    ck_assert_uint_eq(h->size, hmin);
    ck_assert_ptr_null(h->sigma);
    ck_assert(guarded(b, hmin, hmin + TAIL));
    ck_assert_int_eq(attnrank_head_weights(x, x, n, d, NAN, 1.0, NULL, 0, NULL, h), ATTNRANK_OK);
    ck_assert_uint_eq(h->model_dim, n);
    ck_assert(guarded(b, hmin, hmin + TAIL));
    attnrank_head_clear(h);
    free(b);
    /* funk-hecke */
    attnrank_points *S = NULL;
    ck_assert_int_eq(attnrank_sphere_generate("fibonacci", 3, 800, NAN, 0, 1, &S), ATTNRANK_OK);
    size_t fmin = API_MIN_FUNK_HECKE;
    b = caller_buffer(fmin + TAIL, 8);
    ck_assert_int_eq(attnrank_funk_hecke(S, 10, 1e-3, NULL, (attnrank_funk_hecke_result *)b), ATTNRANK_EINVAL);
    assert_size_message("attnrank_funk_hecke_result", 8);
    ck_assert(guarded(b, sizeof(size_t), fmin + TAIL));
    memcpy(b, &fmin, sizeof fmin);
    ck_assert_int_eq(attnrank_funk_hecke(S, 10, 1e-3, NULL, (attnrank_funk_hecke_result *)b), ATTNRANK_OK);
    ck_assert_uint_eq(((attnrank_funk_hecke_result *)b)->n, 800);
    ck_assert(guarded(b, fmin, fmin + TAIL));
    free(b);
    attnrank_points_free(S);
    /* the laws table and a verdict */
    size_t lmin = API_MIN_LAW;
    b = caller_buffer(lmin + TAIL, 0);
    ck_assert_int_eq(attnrank_law_get(0, (attnrank_law *)b), ATTNRANK_EINVAL);
    assert_size_message("attnrank_law", 0);
    ck_assert(guarded(b, sizeof(size_t), lmin + TAIL));
    memcpy(b, &lmin, sizeof lmin);
    ck_assert_int_eq(attnrank_law_get(0, (attnrank_law *)b), ATTNRANK_OK);
    ck_assert_uint_eq(((attnrank_law *)b)->size, lmin);
    ck_assert_int_ne(((attnrank_law *)b)->claim[0], 0);
    ck_assert(guarded(b, lmin, lmin + TAIL));
    free(b);
    size_t vmin = API_MIN_LAW_VERDICT;
    b = caller_buffer(vmin + TAIL, vmin - 1);
    ck_assert_int_eq(attnrank_law_run(0, NULL, (attnrank_law_verdict *)b), ATTNRANK_EINVAL);
    assert_size_message("attnrank_law_verdict", vmin - 1);
    ck_assert(guarded(b, sizeof(size_t), vmin + TAIL));
    free(b);
    attnrank_points_free(P);
    free(x);
}
END_TEST

Suite *suite_api_sized(void)
{
    Suite *s = suite_create("api_sized");
    TCase *tc = tcase_create("api_sized");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, helpers_old_caller_input_gets_defaults);
    tcase_add_test(tc, helpers_old_caller_output_gets_its_prefix);
    tcase_add_test(tc, helpers_check_message);
    tcase_add_test(tc, bracket_result_sizes);
    tcase_add_test(tc, options_sizes);
    tcase_add_test(tc, ball_spec_sizes);
    tcase_add_test(tc, head_funk_hecke_law_sizes);
    suite_add_tcase(s, tc);
    return s;
}
