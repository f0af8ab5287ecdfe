/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cellgrid.c -- the cell grid's neighbour visits against an independent oracle: every
 * point whose cell key differs from the query's by at most 1 in each coordinate, in the 3^d
 * walk's order (the last coordinate's offset slowest, points of a cell by index), both for the
 * walk (low d) and for the k-d tree over the cells (high d, issue 32: the walk cost 3^d per
 * point); a 16-dimensional grid of 2000 points visited in well under a second. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "numerics/cellgrid.h"

typedef struct { size_t *seq; size_t len; } rec_t;

static int record(size_t j, void *ctx)
{
    rec_t *r = ctx;
    r->seq[r->len++] = j;
    return 0;
}

typedef struct { const int64_t *key; size_t d; } ord_t;

static const ord_t *ord_ctx;

/* walk order: keys from the last coordinate to the first, then the index */
static int cmp_walk_idx(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b, d = ord_ctx->d;
    const int64_t *ki = ord_ctx->key + i * d, *kj = ord_ctx->key + j * d;
    for (size_t c = d; c-- > 0;)
        if (ki[c] != kj[c])
            return ki[c] < kj[c] ? -1 : 1;
    return i < j ? -1 : (i > j);
}

/* Every query's visit sequence equals the oracle's. */
static void check_grid(size_t m, size_t d, double h, double spread, int want_tree)
{
    double *x = malloc(m * d * sizeof *x);
    int64_t *key = malloc(m * d * sizeof *key);
    size_t *want = malloc(m * sizeof *want), *got = malloc(m * sizeof *got);
    for (size_t i = 0; i < m * d; i++)
        x[i] = spread * (2.0 * test_unif() - 1.0);
    memcpy(x + 3 * d, x, d * sizeof *x);              /* two points in one cell */
    for (size_t i = 0; i < m; i++)
        for (size_t c = 0; c < d; c++)
            key[i * d + c] = (int64_t)floor((x[i * d + c] + 1.0) / h);
    cellgrid_t g;
    ck_assert_int_eq(cellgrid_build(&g, x, m, d, h), AR_OK);
    ck_assert_int_eq(g.tcell != NULL, want_tree);
    ord_t oc = { key, d };
    ord_ctx = &oc;
    for (size_t q = 0; q < m; q += 7) {
        size_t nw = 0;
        for (size_t j = 0; j < m; j++) {
            int near = 1;
            for (size_t c = 0; c < d && near; c++)
                near = llabs(key[j * d + c] - key[q * d + c]) <= 1;
            if (near)
                want[nw++] = j;
        }
        qsort(want, nw, sizeof *want, cmp_walk_idx);
        rec_t r = { got, 0 };
        ck_assert_int_eq(cellgrid_visit(&g, x + q * d, record, &r), 0);
        ck_assert_uint_eq(r.len, nw);
        ck_assert(memcmp(got, want, nw * sizeof *got) == 0);
    }
    cellgrid_free(&g);
    free(x); free(key); free(want); free(got);
}

START_TEST(test_visit_matches_oracle)
{
    test_rng_init(test_seed() * 11 + 5);
    check_grid(300, 2, 0.1, 1.0, 0);          /* the 3^d walk */
    check_grid(300, 3, 0.3, 1.0, 0);
    check_grid(200, 8, 0.5, 1.0, 1);          /* the tree */
    check_grid(400, 12, 0.25, 0.6, 1);
    check_grid(150, 16, 2.0, 1.0, 1);         /* every point in a few cells */
}
END_TEST

static int stop_at_third(size_t j, void *ctx)
{
    (void)j;
    return ++*(int *)ctx == 3 ? 5 : 0;
}

/* The callback's non-zero value ends the visit and is returned, on both paths. */
START_TEST(test_visit_stops)
{
    double x[16 * 4] = { 0 };
    for (size_t d = 1; d <= 16; d += 15) {
        cellgrid_t g;
        ck_assert_int_eq(cellgrid_build(&g, x, 4, d, 1.0), AR_OK);
        int calls = 0;
        ck_assert_int_eq(cellgrid_visit(&g, x, stop_at_third, &calls), 5);
        ck_assert_int_eq(calls, 3);
        cellgrid_free(&g);
    }
}
END_TEST

static int count(size_t j, void *ctx)
{
    (void)j;
    ++*(size_t *)ctx;
    return 0;
}

/* 2000 points of 0.3 N(0,1) in d = 16 (issue 32's instance): every point visited from each. */
START_TEST(test_visit_high_d_fast)
{
    test_rng_init(test_seed() * 13 + 1);
    size_t m = 2000, d = 16;
    double *x = malloc(m * d * sizeof *x);
    for (size_t i = 0; i < m * d; i++)
        x[i] = 0.3 * sqrt(-2.0 * log(1.0 - test_unif())) * cos(6.283185307179586 * test_unif());
    cellgrid_t g;
    ck_assert_int_eq(cellgrid_build(&g, x, m, d, 0.05), AR_OK);
    ck_assert(g.tcell != NULL);
    size_t total = 0;
    for (size_t i = 0; i < m; i++)
        cellgrid_visit(&g, x + i * d, count, &total);
    ck_assert_uint_ge(total, m);               /* at least each point itself */
    cellgrid_free(&g);
    free(x);
}
END_TEST

Suite *suite_cellgrid(void)
{
    Suite *s = suite_create("cellgrid");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_visit_matches_oracle);
    tcase_add_test(tc, test_visit_stops);
    tcase_add_test(tc, test_visit_high_d_fast);
    suite_add_tcase(s, tc);
    return s;
}
