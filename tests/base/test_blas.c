/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_blas_select.c -- the forced-core check is a pure function of (core
 * name, feature set), driven here with fake feature sets: an AVX2-only CPU
 * must refuse SkylakeX and accept Haswell, an AVX-512 CPU must accept
 * SkylakeX, Cooperlake needs AVX512_BF16, the FMA4 and 3DNow! cores are
 * refused on CPUs without them, unknown names always; and the core this
 * process runs on is accepted for this CPU's real features. */
#include <check.h>
#include <pthread.h>
#include <string.h>
#include "testutil.h"
#include "base/blas.h"
#include "base/blas_cores.h"

#define SSE3 (BLAS_F_SSE3)
#define SSE41 (BLAS_F_SSE3 | BLAS_F_SSSE3 | BLAS_F_SSE41)
#define AVX2ONLY (SSE41 | BLAS_F_AVX | BLAS_F_FMA | BLAS_F_AVX2)
#define AVX512 (AVX2ONLY | BLAS_F_AVX512F | BLAS_F_AVX512BW | BLAS_F_AVX512DQ | BLAS_F_AVX512VL)
#define ALL (AVX512 | BLAS_F_AVX512BF16 | BLAS_F_FMA4 | BLAS_F_3DNOW)

/* core refused on features, with every word of need in the message */
static void refused(const char *core, unsigned features, const char *need)
{
    ck_assert_msg(blas_core_check(core, features) == AR_EINVAL, "%s accepted on features %#x", core, features);
    const char *m = ar_error_get();
    ck_assert_msg(strstr(m, "OPENBLAS_CORETYPE") && strstr(m, need), "%s: message [%s] lacks '%s'", core, m, need);
}

START_TEST(avx2_only)
{
    refused("SkylakeX", AVX2ONLY, "AVX512F, AVX512BW, AVX512DQ, AVX512VL");
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "such as Haswell"));      /* what the user can use instead */
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "unset OPENBLAS_CORETYPE"));
    refused("Cooperlake", AVX2ONLY, "AVX512F");
    refused("Bulldozer", AVX2ONLY, "FMA4");
    refused("Opteron", AVX2ONLY, "3DNow!");
    const char *ok[] = { "Haswell", "Zen", "Sandybridge", "Nehalem", "Core2", "Prescott", "Katmai", "Barcelona" };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        ck_assert_msg(blas_core_check(ok[i], AVX2ONLY) == AR_OK, "%s: %s", ok[i], ar_error_get());
}
END_TEST

START_TEST(avx512)
{
    ck_assert_int_eq(blas_core_check("SkylakeX", AVX512), AR_OK);
    ck_assert_int_eq(blas_core_check("skylakex", AVX512), AR_OK);           /* OpenBLAS ignores case */
    refused("Cooperlake", AVX512, "AVX512_BF16");
    ck_assert_int_eq(blas_core_check("Cooperlake", AVX512 | BLAS_F_AVX512BF16), AR_OK);
    refused("SkylakeX", AVX512 & ~BLAS_F_AVX512VL, "AVX512VL");
    refused("Piledriver", AVX512 | BLAS_F_AVX512BF16, "FMA4");            /* a Zen 4 has no FMA4 */
    ck_assert_int_eq(blas_core_check("Piledriver", AVX2ONLY | BLAS_F_FMA4), AR_OK);
}
END_TEST

START_TEST(old_cpus)
{
    ck_assert_int_eq(blas_core_check("Prescott", SSE3), AR_OK);
    ck_assert_int_eq(blas_core_check("Athlon", SSE3), AR_OK);                /* Prescott kernels on 64-bit */
    refused("Core2", SSE3, "SSSE3");
    refused("Nehalem", SSE3, "SSSE3, SSE4.1");
    refused("Sandybridge", SSE41, "AVX");
    refused("Haswell", SSE41 | BLAS_F_AVX, "FMA, AVX2");
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "such as Sandybridge"));
    ck_assert_int_eq(blas_core_check("Opteron_SSE3", SSE3 | BLAS_F_3DNOW), AR_OK);
}
END_TEST

START_TEST(unknown_names)
{
    const char *bad[] = { "Foo", "", "Haswell ", "Haswel", "SapphireRapids", "POWER9", "Prescott2" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        refused(bad[i], ALL, "is not a core OpenBLAS 0.3.21 can be set to");
        ck_assert_ptr_nonnull(strstr(ar_error_get(), "Haswell, Steamroller"));   /* the names that exist */
    }
    refused(NULL, ALL, "is not a core");
    size_t n = 0;
    for (; blas_core_name(n); n++)
        ck_assert_msg(blas_core_check(blas_core_name(n), ALL) == AR_OK, "%s: %s", blas_core_name(n), ar_error_get());
    ck_assert_uint_eq(n, 25);                                                 /* force_coretype's 25 names */
    ck_assert_ptr_null(blas_core_name(25));
}
END_TEST

/* The kernels running this very test are accepted for this CPU. */
START_TEST(this_cpu)
{
    const char *core = blas_corename();
    if (!strcmp(core, "reference/unknown") || !strcmp(core, "unknown")) {
        fprintf(stderr, "test_blas: the BLAS is not OpenBLAS; this_cpu skipped\n");
        return;
    }
    ck_assert_msg(blas_core_check(core, blas_cpu_features()) == AR_OK, "running core %s refused: %s", core,
                  ar_error_get());
}
END_TEST

/* One-thread regions (blas_single_begin/end): nested and interleaved from two
 * threads, the count is 1 while any region is open and the saved count comes
 * back only after the last one closes. */
static void *region_worker(void *arg)
{
    int *bad = arg;
    for (int k = 0; k < 2000; k++) {
        blas_single_begin();
        if (blas_get_threads() != 1)
            (*bad)++;
        blas_single_end();
    }
    return NULL;
}

START_TEST(single_regions)
{
    if (blas_get_threads() == 1 && (blas_set_threads(2), blas_get_threads() == 1)) {
        fprintf(stderr, "test_blas: one BLAS thread only (not OpenBLAS, or an AS limit); regions skipped\n");
        return;
    }
    blas_set_threads(2);
    blas_single_begin();
    ck_assert_int_eq(blas_get_threads(), 1);
    blas_single_begin();
    blas_single_end();
    ck_assert_int_eq(blas_get_threads(), 1);          /* the outer region is still open */
    blas_single_end();
    ck_assert_int_eq(blas_get_threads(), 2);
    /* two threads opening and closing regions while this one holds one */
    blas_single_begin();
    int bad[2] = { 0, 0 };
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_create(&th[i], NULL, region_worker, &bad[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    ck_assert_int_eq(blas_get_threads(), 1);
    blas_single_end();
    ck_assert_int_eq(bad[0] + bad[1], 0);
    ck_assert_int_eq(blas_get_threads(), 2);
    blas_single_end();                                  /* an unmatched end changes nothing */
    ck_assert_int_eq(blas_get_threads(), 2);
}
END_TEST

Suite *suite_blas(void)
{
    Suite *s = suite_create("blas");
    TEST_TCASE(tc, "blas_select");
    tcase_add_test(tc, avx2_only);
    tcase_add_test(tc, avx512);
    tcase_add_test(tc, old_cpus);
    tcase_add_test(tc, unknown_names);
    tcase_add_test(tc, this_cpu);
    tcase_add_test(tc, single_regions);
    suite_add_tcase(s, tc);
    return s;
}
