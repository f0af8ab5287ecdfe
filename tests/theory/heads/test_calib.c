/* test_calib.c -- the claim-E calibration on the real model (needs `make
 * calib-data`; skipped with a printed reason otherwise): invariants of every
 * per-sentence result (lower <= upper <= n, r <= min(n-1, dh), r(tau)
 * non-increasing in tau), the brackets equal an independent bracket_compute
 * on the same head, reproducible for a seed; option errors always tested. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "testutil.h"
#include "theory/brackets/bracket.h"
#include "theory/heads/calib.h"

static const char *calib_dir(void)
{
    const char *e = getenv("ATTNRANK_CALIB_DIR");
    return e && *e ? e : ".cache/calib";
}

START_TEST(calib_bad_options)
{
    calib_opts_t o;
    calib_result_t R;
    real_model_t M;
    corpus_t C;
    memset(&M, 0, sizeof M);
    memset(&C, 0, sizeof C);
    calib_opts_default(&o);
    o.eps = 1.5;
    ck_assert_int_eq(calib_run(&M, &C, &o, &R), AR_EINVAL);
    calib_opts_default(&o);
    o.taus[1] = o.taus[0];
    ck_assert_int_eq(calib_run(&M, &C, &o, &R), AR_EINVAL);
    calib_opts_default(&o);
    o.scales[0] = -1;
    ck_assert_int_eq(calib_run(&M, &C, &o, &R), AR_EINVAL);
    calib_opts_default(&o);
    o.tau_main = o.ntau;
    ck_assert_int_eq(calib_run(&M, &C, &o, &R), AR_EINVAL);
    calib_opts_default(&o);
    ck_assert_int_eq(calib_run(&M, &C, &o, &R), AR_EINVAL);   /* empty corpus */
    ck_assert_ptr_null(strchr(ar_error_get(), '\n'));
}
END_TEST

START_TEST(calib_real)
{
    char p[700];
    struct stat sb;
    snprintf(p, sizeof p, "%s/model/package/dist/model.json", calib_dir());
    if (stat(p, &sb) != 0) {
        printf("test_calib: SKIP calibration on the real model: %s absent (run 'make calib-data')\n", p);
        return;
    }
    if (stat("/usr/share/common-licenses/Apache-2.0", &sb) != 0) {
        printf("test_calib: SKIP calibration: /usr/share/common-licenses absent\n");
        return;
    }
    snprintf(p, sizeof p, "%s/model/package/dist", calib_dir());
    real_model_t M;
    ck_assert_msg(real_model_load(p, &M) == AR_OK, "%s", ar_error_get());
    size_t m;
    const corpus_entry_t *man = corpus_manifest(&m);
    corpus_t C;
    ck_assert_msg(corpus_load(man, 3, NULL, &C) == AR_OK, "%s", ar_error_get());
    calib_opts_t o;
    calib_opts_default(&o);
    o.nscales = 2;
    o.scales[0] = 0.5;
    o.scales[1] = 2.0;
    o.nperm = 200;
    calib_result_t R, R2;
    ck_assert_msg(calib_run(&M, &C, &o, &R) == AR_OK, "%s", ar_error_get());
    ck_assert_uint_eq(R.nset, REAL_LAYERS * REAL_HEADS * 2);
    for (size_t i = 0; i < R.nset; i++) {
        const calib_setting_t *S = &R.set[i];
        ck_assert(S->beta == S->scale * M.layer[S->layer].scale);        /* the model's float32 scale */
        ck_assert(fabs(S->beta - S->scale / sqrt((double)S->dh)) < 1e-7 * S->beta);
        for (size_t s = 0; s < S->nsent; s++) {
            size_t n = S->ntok[s];
            ck_assert_uint_le(S->lower[s], S->upper[s]);
            ck_assert_uint_le(S->upper[s], n);
            ck_assert_uint_ge(S->lower[s], 1);
            ck_assert_uint_le(S->r[s], (n - 1 < S->dh ? n - 1 : S->dh));
            for (size_t t = 1; t < o.ntau; t++)
                ck_assert_uint_le(S->r_tau[s * o.ntau + t], S->r_tau[s * o.ntau + t - 1]);
        }
        ck_assert(S->radius_emp <= S->radius);   /* the a priori radius bounds every input */
    }
    ck_assert(R.spearman >= -1 && R.spearman <= 1);
    ck_assert(R.p_value > 0 && R.p_value <= 1);
    ck_assert(R.p_value_t >= 0 && R.p_value_t <= 1);
    /* an independent bracket of layer 1, head 2, scale 2, sentence 1 */
    const calib_setting_t *S = &R.set[1 * REAL_HEADS * 2 + 2 * 2 + 1];
    ck_assert(S->layer == 1 && S->head == 2 && S->scale == 2.0);
    int *ids;
    size_t n;
    ck_assert_int_eq(spm_encode(&M.vocab, C.text[1], &ids, &n), AR_OK);
    real_acts_t A;
    ck_assert_int_eq(real_model_forward(&M, ids, n, &A), AR_OK);
    pointset_t Q, K;
    ck_assert_int_eq(real_head_pointsets(&M, &A, 1, 2, "test", &Q, &K), AR_OK);
    bracket_t b;
    ck_assert_int_eq(bracket_compute(&Q, &K, 2.0 * M.layer[1].scale, o.eps, NULL, &b), AR_OK);
    ck_assert_uint_eq(b.lower, S->lower[1]);
    ck_assert_uint_eq(b.upper, S->upper[1]);
    pointset_clear(&Q);
    pointset_clear(&K);
    real_acts_clear(&A);
    free(ids);
    /* reproducible */
    ck_assert_int_eq(calib_run(&M, &C, &o, &R2), AR_OK);
    ck_assert(R.spearman == R2.spearman && R.p_value == R2.p_value && R.p_value_t == R2.p_value_t);
    for (size_t i = 0; i < R.nset; i++)
        ck_assert(R.set[i].upper_mean == R2.set[i].upper_mean && R.set[i].r_median == R2.set[i].r_median);
    calib_result_clear(&R);
    calib_result_clear(&R2);
    corpus_clear(&C);
    real_model_clear(&M);
}
END_TEST

Suite *suite_calib(void)
{
    Suite *s = suite_create("calib");
    TEST_TCASE(tc, "calib");
    tcase_add_test(tc, calib_bad_options);
    tcase_add_test(tc, calib_real);
    suite_add_tcase(s, tc);
    return s;
}
