/* verify_E.c -- claim E (real heads, proofs-notes/claim-E.md) in `make verify`.
 *
 * Runs `attnrank calib --format json` (Universal Sentence Encoder lite, 8
 * heads x 4 temperature scales x 72 license sentences; the data comes from
 * `make calib-data`, which `make verify` runs when the cache is absent) and
 *   asserts  the machinery: 32 settings, every sentence's bracket certified,
 *            lower <= upper in every setting;
 *   reports  the paper's empirical statement (effective-dimension reductions
 *            and their association with the constructive upper certificates):
 *            the Spearman correlations and permutation p-values are printed,
 *            never asserted -- an absent or negative association is a finding
 *            about this model, not a failure of the harness. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* The number after "key": in a JSON line (NAN-free output of calib), or -1. */
static double json_num(const char *line, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(line, pat);
    return p ? strtod(p + strlen(pat), NULL) : -1.0;
}

START_TEST(test_calibration)
{
    const char *bin = getenv("ATTNRANK_BIN");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s calib --format json", bin ? bin : "bin/attnrank");
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    static char line[8192];
    size_t settings = 0;
    int summary = 0;
    printf("claim E: USE lite, mean rank_eps bracket per (layer, head, scale) over the corpus (eps 0.1)\n");
    printf("      layer head scale   r     r(0.1)  lower   upper  certified/sentences\n");
    while (fgets(line, sizeof line, p)) {
        if (strstr(line, "\"spearman\"")) {
            summary = 1;
            printf("      report (not asserted): Spearman rho(reduction 1 - r(0.1)/dh, mean upper) = %.3f, p = %.2g;"
                   " within layer 0: %.3f, layer 1: %.3f (see proofs-notes/claim-E.md)\n",
                   json_num(line, "spearman"), json_num(line, "p_value"),
                   strtod(strstr(line, "\"spearman_layer\":[") + 18, NULL),
                   strtod(strchr(strstr(line, "\"spearman_layer\":[") + 18, ',') + 1, NULL));
            continue;
        }
        double lower = json_num(line, "lower"), upper = json_num(line, "upper");
        double cert = json_num(line, "certified"), sent = json_num(line, "sentences");
        const char *rt = strstr(line, "\"0.1\":");
        printf("      %-5.0f %-4.0f %-5g %5.1f  %6.1f  %6.2f  %6.2f  %.0f/%.0f\n", json_num(line, "layer"),
               json_num(line, "head"), json_num(line, "scale"), json_num(line, "r"), rt ? strtod(rt + 6, NULL) : -1,
               lower, upper, cert, sent);
        ck_assert_msg(cert == sent && sent >= 64, "setting %zu: %.0f of %.0f sentences certified", settings, cert, sent);
        ck_assert_msg(lower >= 1 && lower <= upper, "setting %zu: mean lower %g above mean upper %g", settings, lower,
                      upper);
        settings++;
    }
    int st = pclose(p);
    fflush(stdout);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
                  "attnrank calib failed (exit %d): is the model cache there? run 'make calib-data'",
                  WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    ck_assert_msg(settings == 32, "expected 32 (layer, head, scale) settings, got %zu", settings);
    ck_assert_msg(summary, "no Spearman summary line");
}
END_TEST

Suite *suite_verify_E(void)
{
    Suite *s = suite_create("verify_E");
    TCase *tc = tcase_create("calibration");
    tcase_set_timeout(tc, 1800);
    tcase_add_test(tc, test_calibration);
    suite_add_tcase(s, tc);
    return s;
}
