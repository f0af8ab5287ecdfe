/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_calib.c -- the claim-E calibration.  Always: option and model
 * errors, the uncertified measures on matrices with known values, a whole
 * run on random heads (invariants, measure ranges, association intervals,
 * reproducible, pooling).  On the real model (needs `make calib-data`;
 * skipped with a printed reason otherwise): invariants of every per-sentence
 * result (lower <= upper <= n, r <= min(n-1, dh), r(tau) non-increasing in
 * tau), the brackets equal an independent bracket_compute on the same head,
 * reproducible for a seed. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "testutil.h"
#include "theory/brackets/bracket.h"
#include "constructions/models/real_pins.h"
#include "constructions/models/real_model.h"
#include "theory/heads/calib.h"
#include "theory/heads/uncertified.h"
#include "theory/heads/visible.h"

static const char *calib_dir(void)
{
    const char *e = getenv("ATTNRANK_CALIB_DIR");
    return e && *e ? e : ".cache/calib";
}

/* A random model of nl layers, 2 heads of dimension 3, ni inputs of 6..9
 * positions (no weights), seeded. */
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
        L->scale = 1.0 / sqrt(3.0);
        for (size_t i = 0; i < ni; i++) {
            size_t m = D->n[i] * 6;
            L->Q[i] = calloc(m, sizeof(double));
            L->K[i] = calloc(m, sizeof(double));
            ck_assert(L->Q[i] && L->K[i]);
            for (size_t k = 0; k < m; k++) {
                L->Q[i][k] = 2 * (test_unif() - 0.5) * (double)(l + 1);
                L->K[i][k] = 2 * (test_unif() - 0.5);
            }
        }
    }
}

START_TEST(calib_bad_options)
{
    calib_opts_t o;
    calib_result_t R;
    model_heads_t D;
    random_heads(&D, 1, 3, 5);
    calib_opts_default(&o);
    o.eps = 1.5;
    ck_assert_int_eq(calib_run(&D, &o, &R), AR_EINVAL);
    calib_opts_default(&o);
    o.taus[1] = o.taus[0];
    ck_assert_int_eq(calib_run(&D, &o, &R), AR_EINVAL);
    calib_opts_default(&o);
    o.scales[0] = -1;
    ck_assert_int_eq(calib_run(&D, &o, &R), AR_EINVAL);
    calib_opts_default(&o);
    o.tau_main = o.ntau;
    ck_assert_int_eq(calib_run(&D, &o, &R), AR_EINVAL);
    calib_opts_default(&o);
    o.nboot = 0;
    ck_assert_int_eq(calib_run(&D, &o, &R), AR_EINVAL);
    calib_opts_default(&o);
    o.level = 1;
    ck_assert_int_eq(calib_run(&D, &o, &R), AR_EINVAL);
    calib_opts_default(&o);
    D.n[1] = 1;                                            /* one position: refused */
    ck_assert_int_eq(calib_run(&D, &o, &R), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "input 1"));
    D.n[1] = 6;
    D.layer[0].Q[2][4] = NAN;
    ck_assert_int_eq(calib_run(&D, &o, &R), AR_EINVAL);
    ck_assert_ptr_null(strchr(ar_error_get(), '\n'));
    model_heads_clear(&D);
    model_heads_t E;
    memset(&E, 0, sizeof E);
    ck_assert_int_eq(calib_run(&E, &o, &R), AR_EINVAL);   /* no layers, no inputs */
}
END_TEST

/* The uncertified measures on matrices whose values are known: beta = 0
 * gives A = J/n (rank 1: every measure 1); orthogonal one-hot queries and
 * keys at a large beta give A ~ I (numerical rank n, stable rank ~ n,
 * effective rank ~ n). */
START_TEST(uncertified_known)
{
    double Q[4 * 4] = { 0 }, K[4 * 4] = { 0 };
    for (int i = 0; i < 4; i++)
        Q[i * 4 + i] = K[i * 4 + i] = 1.0;
    uncertified_t u;
    ck_assert_int_eq(uncertified_measures(Q, 4, K, 4, 4, 0.0, 0.1, &u), AR_OK);
    ck_assert_uint_eq(u.numrank_default, 1);
    ck_assert_uint_eq(u.numrank_eps, 1);
    ck_assert(fabs(u.stable - 1) < 1e-12 && fabs(u.effective - 1) < 1e-12);
    ck_assert_int_eq(uncertified_measures(Q, 4, K, 4, 4, 60.0, 0.1, &u), AR_OK);
    ck_assert_uint_eq(u.numrank_default, 4);
    ck_assert_uint_eq(u.numrank_eps, 4);
    ck_assert(fabs(u.stable - 4) < 1e-6 && fabs(u.effective - 4) < 1e-6);
    /* beta = 1: A = circulant-like with e on the diagonal; s_1 = (e + 3)/(e + 3) = 1, the rest (e - 1)/(e + 3) */
    ck_assert_int_eq(uncertified_measures(Q, 4, K, 4, 4, 1.0, 0.1, &u), AR_OK);
    double e = exp(1.0), s2 = (e - 1) / (e + 3);
    ck_assert(fabs(u.stable - (1 + 3 * s2 * s2)) < 1e-12);
    double p1 = 1 / (1 + 3 * s2), p2 = s2 / (1 + 3 * s2);
    ck_assert(fabs(u.effective - exp(-(p1 * log(p1) + 3 * p2 * log(p2)))) < 1e-12);
}
END_TEST

/* A whole calibration on random heads (no cache needed): the invariants of
 * every result, the uncertified measures in their ranges, the association
 * and its interval, reproducible for a seed, and pooling two runs. */
START_TEST(calib_synthetic)
{
    model_heads_t D;
    random_heads(&D, 2, 5, test_seed());
    calib_opts_t o;
    calib_opts_default(&o);
    o.nperm = 200;
    o.nboot = 300;
    calib_result_t R, R2;
    ck_assert_msg(calib_run(&D, &o, &R) == AR_OK, "%s", ar_error_get());
    ck_assert_uint_eq(R.nset, 2 * 2 * 4);
    ck_assert_str_eq(R.model, "random");
    for (size_t i = 0; i < R.nset; i++) {
        const calib_setting_t *S = &R.set[i];
        ck_assert(!S->has_weights && S->rw == VISIBLE_NONE && isnan(S->radius));
        ck_assert(S->beta == S->scale / sqrt(3.0));
        for (size_t s = 0; s < S->nsent; s++) {
            size_t n = S->ntok[s];
            ck_assert_uint_eq(n, D.n[s]);
            ck_assert_uint_ge(S->lower[s], 1);
            ck_assert_uint_le(S->lower[s], S->upper[s]);
            ck_assert_uint_le(S->upper[s], n);
            ck_assert_uint_le(S->un_rank_eps[s], S->un_rank[s]);
            ck_assert_uint_le(S->un_rank[s], n);
            ck_assert(S->un_stable[s] >= 1 - 1e-12 && S->un_stable[s] <= (double)S->un_rank[s] + 1e-9);
            ck_assert(S->un_eff[s] >= 1 - 1e-12 && S->un_eff[s] <= (double)n + 1e-9);
        }
        ck_assert_uint_eq(S->ncertified, S->nsent);
    }
    for (size_t l = 0; l < 2; l++) {
        const calib_assoc_t *A = &R.layer[l];
        ck_assert_uint_eq(A->nset, 8);
        ck_assert(A->rho >= -1 && A->rho <= 1 && A->p_value > 0 && A->p_value <= 1);
        ck_assert(A->lo <= A->hi && A->lo >= -1 && A->hi <= 1 && A->nboot_ok > 0);
    }
    ck_assert_uint_eq(R.all.nset, 16);
    ck_assert_int_eq(calib_run(&D, &o, &R2), AR_OK);
    ck_assert(R.all.rho == R2.all.rho && R.all.lo == R2.all.lo && R.all.hi == R2.all.hi);
    calib_result_t two[2] = { R, R2 };
    calib_assoc_t P;
    ck_assert_int_eq(calib_assoc_pooled(two, 2, &P), AR_OK);
    ck_assert_uint_eq(P.nset, 32);
    ck_assert(P.lo <= P.hi);
    calib_result_clear(&R);
    calib_result_clear(&R2);
    model_heads_clear(&D);
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
    real_model_t M;
    ck_assert_msg(real_pins_load(calib_dir(), &M) == AR_OK, "%s", ar_error_get());   /* pinned files only */
    size_t m;
    const corpus_entry_t *man = corpus_manifest(&m);
    corpus_t C;
    ck_assert_msg(corpus_load(man, 3, NULL, &C) == AR_OK, "%s", ar_error_get());
    model_heads_t D;
    ck_assert_msg(real_model_heads(&M, &C, &D) == AR_OK, "%s", ar_error_get());
    calib_opts_t o;
    calib_opts_default(&o);
    o.nscales = 2;
    o.scales[0] = 0.5;
    o.scales[1] = 2.0;
    o.nperm = 200;
    o.nboot = 200;
    calib_result_t R, R2;
    ck_assert_msg(calib_run(&D, &o, &R) == AR_OK, "%s", ar_error_get());
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
        ck_assert(S->has_weights);
        ck_assert(S->radius_emp <= S->radius);   /* the a priori radius bounds every input */
    }
    ck_assert(R.all.rho >= -1 && R.all.rho <= 1);
    ck_assert(R.all.p_value > 0 && R.all.p_value <= 1);
    ck_assert(R.all.p_value_t >= 0 && R.all.p_value_t <= 1);
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
    ck_assert_int_eq(calib_run(&D, &o, &R2), AR_OK);
    ck_assert(R.all.rho == R2.all.rho && R.all.p_value == R2.all.p_value && R.all.lo == R2.all.lo && R.all.p_value_t == R2.all.p_value_t);
    for (size_t i = 0; i < R.nset; i++)
        ck_assert(R.set[i].upper_mean == R2.set[i].upper_mean && R.set[i].r_median == R2.set[i].r_median);
    calib_result_clear(&R);
    calib_result_clear(&R2);
    model_heads_clear(&D);
    corpus_clear(&C);
    real_model_clear(&M);
}
END_TEST

/* Issue 14 item 11: a sentence that the vocabulary turns into more tokens
 * than the model reads is named (its index, file and manifest index) with
 * the vocabulary, not reported as "forward: N tokens".  The real model with
 * a vocabulary of single characters; sentence 1 of the corpus is too long. */
START_TEST(calib_names_sentence)
{
    struct stat sb;
    char p[700];
    snprintf(p, sizeof p, "%s/model/package/dist/model.json", calib_dir());
    if (stat(p, &sb) != 0) {
        printf("test_calib: SKIP long-sentence message: %s absent (run 'make calib-data')\n", p);
        return;
    }
    real_model_t M;
    ck_assert_msg(real_pins_load(calib_dir(), &M) == AR_OK, "%s", ar_error_get());
    spm_vocab_clear(&M.vocab);
    char vp[] = "/tmp/attnrank_chars_XXXXXX";
    int fd = mkstemp(vp);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs("[[\"u\",0],[\"s\",0],[\"e\",0],[\"x\",0],[\"y\",0],[\"z\",0],[\"\\u2581\",-1]", f);
    for (int c = 'a'; c <= 'z'; c++)
        fprintf(f, ",[\"%c\",-1]", c);
    fputs("]", f);
    fclose(f);
    ck_assert_msg(spm_vocab_load(vp, &M.vocab) == AR_OK, "%s", ar_error_get());
    char longer[200];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    char *text[2] = { "a short one", longer };
    corpus_entry_t entry[2] = { { "Apache-2.0", 3, "" }, { "BSD", 4, "" } };
    corpus_t C = { 2, text, entry };
    model_heads_t D;
    ar_status st = real_model_heads(&M, &C, &D);
    unlink(vp);
    real_model_clear(&M);
    ck_assert_int_eq(st, AR_EINVAL);
    const char *m = ar_error_get();
    ck_assert_msg(strstr(m, "sentence 1 (BSD, sentence 4)") && strstr(m, vp) && strstr(m, "200 tokens") &&
                  strstr(m, "at most 128"), "message '%s'", m);
}
END_TEST

Suite *suite_calib(void)
{
    Suite *s = suite_create("calib");
    TEST_TCASE(tc, "calib");
    tcase_add_test(tc, calib_bad_options);
    tcase_add_test(tc, uncertified_known);
    tcase_add_test(tc, calib_synthetic);
    tcase_add_test(tc, calib_real);
    tcase_add_test(tc, calib_names_sentence);
    suite_add_tcase(s, tc);
    return s;
}
