/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_calib_record.c -- calibration settings as shard records
 * (theory/heads/calib_record.h): the pieces of calib_run (calib_begin,
 * calib_setting_run, calib_finish) give calib_run's numbers; every setting
 * put as a record, dumped, read back with the strict reader and taken with
 * calib_record_get into a fresh calib_begin result gives, after
 * calib_finish, the same summaries, associations and intervals bit for
 * bit; a record of another setting, with a wrong array length, a bracket
 * lower > upper, an upper end above the token count or a non-integer is
 * refused with one line naming the place; model_heads_digest tells two
 * models apart that differ in one bit of one key. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "constructions/formats/json.h"
#include "constructions/formats/shardfile.h"
#include "theory/heads/calib.h"
#include "theory/heads/calib_record.h"

static void random_heads(model_heads_t *D, size_t nl, size_t ni, uint64_t seed)
{
    ck_assert_int_eq(model_heads_alloc(D, "random", nl, ni), AR_OK);
    test_rng_init(seed);
    for (size_t i = 0; i < ni; i++)
        D->n[i] = (size_t)test_irand(6, 9);
    for (size_t l = 0; l < nl; l++) {
        model_heads_layer_t *L = &D->layer[l];
        L->nheads = 2;
        L->dh = 3;
        L->scale = 0.7 + 0.1 * (double)l;
        /* weights and inputs H (4 features), so that the weights-only r(tau) and the per-layer
         * empirical input radius (larger in layer 1) are computed */
        size_t din = 4, w = L->nheads * L->dh;
        L->d_in = din;
        L->WQ = calloc(din * w, sizeof(double));
        L->WK = calloc(din * w, sizeof(double));
        L->bQ = calloc(w, sizeof(double));
        L->bK = calloc(w, sizeof(double));
        L->ln_scale = calloc(din, sizeof(double));
        L->ln_bias = calloc(din, sizeof(double));
        ck_assert(L->WQ && L->WK && L->bQ && L->bK && L->ln_scale && L->ln_bias);
        for (size_t k = 0; k < din * w; k++) {
            L->WQ[k] = test_unif() - 0.5;
            L->WK[k] = test_unif() - 0.5;
        }
        for (size_t k = 0; k < din; k++) {
            L->ln_scale[k] = 1.0 + 0.1 * (double)k;
            L->ln_bias[k] = 0.05 * (double)k;
        }
        for (size_t i = 0; i < ni; i++) {
            L->H[i] = calloc(D->n[i] * din, sizeof(double));
            ck_assert(L->H[i]);
            for (size_t k = 0; k < D->n[i] * din; k++)
                L->H[i][k] = (1.0 + (double)l) * (test_unif() - 0.5);
        }
        for (size_t i = 0; i < ni; i++) {
            size_t m = D->n[i] * 6;
            L->Q[i] = calloc(m, sizeof(double));
            L->K[i] = calloc(m, sizeof(double));
            ck_assert(L->Q[i] && L->K[i]);
            for (size_t k = 0; k < m; k++) {
                L->Q[i][k] = 3 * (test_unif() - 0.5);
                L->K[i][k] = 3 * (test_unif() - 0.5);
            }
        }
    }
}

static int same_double(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

static void same_assoc(const calib_assoc_t *a, const calib_assoc_t *b)
{
    ck_assert_uint_eq(a->nset, b->nset);
    ck_assert(same_double(a->rho, b->rho) && same_double(a->p_value, b->p_value) &&
              same_double(a->p_value_t, b->p_value_t) && same_double(a->lo, b->lo) && same_double(a->hi, b->hi));
    ck_assert_uint_eq(a->nboot_ok, b->nboot_ok);
}

/* o[key] replaced by the JSON text v, read back: a copy (caller decrefs) */
static json_t *with(const json_t *o, const char *key, const char *v)
{
    json_t *c = json_deep_copy(o), *x = NULL;
    ck_assert_int_eq(json_read_buffer(v, strlen(v), "value", &x), AR_OK);
    ck_assert_int_eq(json_object_set_new(c, key, x), 0);
    return c;
}

/* Issue 35: calib_run computes its settings side by side; every number of every setting, the
 * summaries and the associations are the same bits for every thread count, and the progress
 * callback counts every input once, in order (1, 2, ..., total). */
typedef struct {
    size_t calls, last;
    int bad;
} tally_check;

static void tally_progress(size_t done, size_t total, void *ctx)
{
    tally_check *t = ctx;
    if (done != t->last + 1 || done > total)
        t->bad = 1;
    t->last = done;
    t->calls++;
}

START_TEST(calib_run_thread_counts)
{
    model_heads_t D;
    random_heads(&D, 2, 4, test_seed() + 35);
    calib_opts_t o;
    calib_opts_default(&o);
    o.nscales = 2;
    o.nperm = 200;
    o.nboot = 200;
    calib_result_t R1;
    memset(&R1, 0, sizeof R1);
    for (size_t c = 0; c < TEST_NTHREAD_COUNTS; c++) {
        ar_config_t cfg;
        const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[c]);
        calib_result_t R;
        tally_check tc = { 0, 0, 0 };
        o.progress = tally_progress;
        o.progress_ctx = &tc;
        ck_assert_msg(calib_run(&D, &o, c ? &R : &R1) == AR_OK, "%s", ar_error_get());
        ar_config_install(prev);
        const calib_result_t *X = c ? &R : &R1;
        ck_assert_msg(!tc.bad && tc.calls == X->nset * X->nsent, "%d threads: %zu progress calls, %zu wanted",
                      TEST_THREAD_COUNTS[c], tc.calls, X->nset * X->nsent);
        if (c == 0) {
            ck_assert(R1.set[0].has_weights && isfinite(R1.set[0].radius_emp));
            ck_assert(R1.set[0].radius_emp != R1.set[R1.nset - 1].radius_emp);   /* layers 0 and 1 */
            continue;
        }
        ck_assert_uint_eq(R.nset, R1.nset);
        for (size_t i = 0; i < R.nset; i++) {
            const calib_setting_t *a = &R1.set[i], *b = &R.set[i];
            size_t ns = a->nsent, nt = o.ntau;
            int same = b->nsent == ns && !memcmp(a->ntok, b->ntok, ns * sizeof(size_t)) &&
                       !memcmp(a->r, b->r, ns * sizeof(size_t)) &&
                       !memcmp(a->r_tau, b->r_tau, ns * nt * sizeof(size_t)) &&
                       !memcmp(a->lower, b->lower, ns * sizeof(size_t)) &&
                       !memcmp(a->upper, b->upper, ns * sizeof(size_t)) &&
                       !memcmp(a->un_rank, b->un_rank, ns * sizeof(size_t)) &&
                       !memcmp(a->un_rank_eps, b->un_rank_eps, ns * sizeof(size_t)) &&
                       !memcmp(a->un_stable, b->un_stable, ns * sizeof(double)) &&
                       !memcmp(a->un_eff, b->un_eff, ns * sizeof(double)) && a->ncertified == b->ncertified &&
                       same_double(a->upper_mean, b->upper_mean) && same_double(a->lower_mean, b->lower_mean) &&
                       same_double(a->radius, b->radius) && same_double(a->radius_emp, b->radius_emp) &&
                       a->rw == b->rw && !memcmp(a->rw_tau, b->rw_tau, sizeof a->rw_tau) &&
                       !memcmp(a->rw_tau_emp, b->rw_tau_emp, sizeof a->rw_tau_emp);
            ck_assert_msg(same, "%d threads: setting %zu differs from one thread", TEST_THREAD_COUNTS[c], i);
        }
        same_assoc(&R.all, &R1.all);
        for (size_t l = 0; l < 2; l++)
            same_assoc(&R.layer[l], &R1.layer[l]);
        ck_assert(same_double(R.spearman_rtau, R1.spearman_rtau) && same_double(R.p_value_vis, R1.p_value_vis));
        calib_result_clear(&R);
    }
    calib_result_clear(&R1);
    model_heads_clear(&D);
}
END_TEST

START_TEST(calib_record_round_trip)
{
    model_heads_t D;
    random_heads(&D, 2, 4, test_seed());
    calib_opts_t o;
    calib_opts_default(&o);
    o.nscales = 2;
    o.nperm = 200;
    o.nboot = 200;
    calib_result_t R, P, Q;
    ck_assert_msg(calib_run(&D, &o, &R) == AR_OK, "%s", ar_error_get());
    ck_assert_int_eq(calib_begin(&D, &o, &P), AR_OK);
    ck_assert_int_eq(calib_begin(&D, &o, &Q), AR_OK);
    ck_assert_uint_eq(P.nset, R.nset);
    json_t *keep = NULL;
    for (size_t i = 0; i < P.nset; i++) {
        ck_assert_msg(calib_setting_run(&D, &o, &P.set[i]) == AR_OK, "%s", ar_error_get());
        json_t *rec = json_object();
        ck_assert_int_eq(calib_record_put(rec, &P.set[i], o.ntau), 0);
        char *txt = shardfile_dump(rec);
        json_t *back = NULL;
        ck_assert_int_eq(json_read_buffer(txt, strlen(txt), "record", &back), AR_OK);
        ck_assert_msg(calib_record_get(back, "f:2", &o, D.n, &Q.set[i]) == AR_OK, "%s", ar_error_get());
        if (i == 1)
            keep = json_incref(back);
        json_decref(back);
        json_decref(rec);
        free(txt);
    }
    ck_assert_int_eq(calib_finish(&P), AR_OK);
    ck_assert_int_eq(calib_finish(&Q), AR_OK);
    for (size_t i = 0; i < R.nset; i++) {
        const calib_setting_t *a = &R.set[i], *b = &Q.set[i];
        ck_assert(a->upper_mean == b->upper_mean && a->lower_mean == b->lower_mean &&
                  a->r_median == b->r_median && a->un_eff_mean == b->un_eff_mean &&
                  same_double(a->radius_emp, b->radius_emp) && a->rw == b->rw);
        for (size_t t = 0; t < o.ntau; t++)
            ck_assert(a->reduction_mean[t] == b->reduction_mean[t] && a->r_tau_median[t] == b->r_tau_median[t]);
        ck_assert_uint_eq(a->ncertified, b->ncertified);
        ck_assert_uint_eq(a->rank_above + a->eff_below + a->eff_above, b->rank_above + b->eff_below + b->eff_above);
    }
    same_assoc(&R.all, &P.all);
    same_assoc(&R.all, &Q.all);
    for (size_t l = 0; l < 2; l++)
        same_assoc(&R.layer[l], &Q.layer[l]);
    for (size_t c = 0; c < o.nscales; c++)
        same_assoc(&R.at_scale[c], &Q.at_scale[c]);
    ck_assert(same_double(R.spearman_rtau, Q.spearman_rtau) && same_double(R.p_value_vis, Q.p_value_vis));

    /* refusals, on setting 1's record */
    calib_setting_t *S = &Q.set[1];
    ck_assert_int_eq(calib_record_get(keep, "f:3", &o, D.n, &Q.set[0]), AR_EINVAL);      /* another setting */
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "f:3: the setting"));
    const char *bad[][2] = { { "lower", "[1,2]" }, { "upper", "[1,1,1,1]" }, { "ntok", "[6,7,8,9.5]" },
                             { "un_stable", "[1,2,\"x\",4]" }, { "rw_tau", "[1]" }, { "ncertified", "9" },
                             { "un_stable", "[null,1,1,1]" }, { "un_eff", "[1,1,-1,1]" }, { "un_eff", "[1,1,1e9,1]" },
                             { "radius", "-1.5" }, { "rw", "2.5" }, { "has_weights", "false" }, { "scale", "null" } };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        json_t *c = with(keep, bad[k][0], bad[k][1]);
        ck_assert_msg(calib_record_get(c, "f:4", &o, D.n, S) == AR_EINVAL, "%s = %s accepted", bad[k][0], bad[k][1]);
        ck_assert_msg(strncmp(ar_error_get(), "f:4: ", 5) == 0 && !strchr(ar_error_get(), '\n'), "%s",
                      ar_error_get());
        json_decref(c);
    }
    /* an upper end above the token count, a lower end above the upper end */
    char big[64];
    snprintf(big, sizeof big, "[%zu,%zu,%zu,%zu]", S->ntok[0] + 1, S->ntok[1], S->ntok[2], S->ntok[3]);
    json_t *c = with(keep, "upper", big);
    ck_assert_int_eq(calib_record_get(c, "f:5", &o, D.n, S), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "impossible"));
    json_decref(c);
    c = with(keep, "lower", big);
    ck_assert_int_eq(calib_record_get(c, "f:6", &o, D.n, S), AR_EINVAL);
    json_decref(c);
    /* a token count that is not the header's, though the record agrees with itself */
    size_t pos[4] = { D.n[0], D.n[1], D.n[2], D.n[3] };
    pos[2]++;
    ck_assert_int_eq(calib_record_get(keep, "f:7", &o, pos, S), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "header's positions"));
    json_decref(keep);

    /* the digest sees one bit of one key */
    char h1[65], h2[65];
    model_heads_digest(&D, h1);
    model_heads_digest(&D, h2);
    ck_assert_str_eq(h1, h2);
    uint64_t u;
    memcpy(&u, &D.layer[1].K[2][3], sizeof u);
    u ^= 1;
    memcpy(&D.layer[1].K[2][3], &u, sizeof u);
    model_heads_digest(&D, h2);
    ck_assert_str_ne(h1, h2);

    calib_result_clear(&R);
    calib_result_clear(&P);
    calib_result_clear(&Q);
    model_heads_clear(&D);
}
END_TEST

Suite *suite_calib_record(void)
{
    Suite *s = suite_create("calib_record");
    TEST_TCASE(tc, "calib_record");
    tcase_add_test(tc, calib_record_round_trip);
    tcase_add_test(tc, calib_run_thread_counts);
    suite_add_tcase(s, tc);
    return s;
}
