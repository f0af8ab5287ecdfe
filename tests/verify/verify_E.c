/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_E.c -- claim E (real heads, proofs-notes/claim-E.md) in `make verify`.
 *
 * Runs `attnrank calib --model all --format json` (under `make verify
 * JOBS=N`: `attnrank merge --format json` of its N shard files in
 * $ATTNRANK_VERIFY_SHARDS/calib/, the same lines): Universal Sentence
 * Encoder lite (8 heads) over 72 license sentences and the PP-OCRv4 text
 * recogniser (16 heads) over 24 rendered text lines, each at 4 temperature
 * scales (the data comes from `make calib-data`, which `make verify` runs
 * when the cache is absent), and
 *   asserts  the machinery on both models: 32 + 64 settings, every input's
 *            bracket certified, lower <= upper in every setting, the
 *            uncertified measures present, one association line per model
 *            and layer, per model over all layers and one pooled line, each
 *            with an interval;
 *   reports  the paper's empirical statement (effective-dimension
 *            reductions and their association with the constructive upper
 *            certificates): Spearman's rho, its bootstrap interval and
 *            permutation p-value, per model and layer, at each scale, and
 *            pooled -- printed, never asserted: an absent or negative
 *            association is a finding about these models, not a failure of
 *            the harness. */
#include <check.h>
#include "verify/verifyutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* The number after "key": in a JSON line, or -1. */
static double json_num(const char *line, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(line, pat);
    return p ? strtod(p + strlen(pat), NULL) : -1.0;
}

/* The string after "model":" into out. */
static void json_model(const char *line, char *out, size_t n)
{
    const char *p = strstr(line, "\"model\":\"");
    out[0] = '\0';
    if (p)
        snprintf(out, n, "%.*s", (int)strcspn(p + 9, "\""), p + 9);
}

START_TEST(test_calibration)
{
    const char *bin = getenv("ATTNRANK_BIN");
    const char *shards = getenv("ATTNRANK_VERIFY_SHARDS");
    char cmd[1200];
    if (shards && *shards) {   /* make verify JOBS=N: the calibration's shard files, merged */
        ck_assert_msg(!strchr(shards, '\''), "ATTNRANK_VERIFY_SHARDS may not contain a single quote");
        snprintf(cmd, sizeof cmd, "%s merge --format json '%s'/calib/*.jsonl", bin ? bin : "bin/attnrank", shards);
    } else
        snprintf(cmd, sizeof cmd, "%s calib --model all --format json", bin ? bin : "bin/attnrank");
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    static char line[16384];
    size_t settings[2] = { 0, 0 }, assoc_layers[2] = { 0, 0 }, assoc_all = 0, pooled = 0;
    printf("claim E: mean rank_eps bracket per (model, layer, head, scale) over the inputs (eps 0.1), "
           "beside the uncertified measures\n");
    printf("      model     layer head scale  r(0.1)  lower   upper  certified | uncertified: numrank  numrank(eps) "
           "stable  effective\n");
    while (fgets(line, sizeof line, p)) {
        char model[64];
        json_model(line, model, sizeof model);
        int m = !strcmp(model, "use-lite") ? 0 : !strcmp(model, "pp-ocrv4") ? 1 : -1;
        if (strstr(line, "\"summary\":\"association\"")) {
            ck_assert_msg(strstr(line, "\"ci\":[") && strstr(line, "\"spearman\":"), "%s", line);
            const char *ci = strstr(line, "\"ci\":[") + 6;
            double lo = strtod(ci, NULL), hi = strtod(strchr(ci, ',') + 1, NULL);
            const char *lay = strstr(line, "\"layer\":") + 8;
            printf("      report (not asserted): %-9s layer %-5.*s rho(reduction 1 - r(0.1)/dh, mean upper) = %6.3f, "
                   "95%% interval [%6.3f, %6.3f], p = %.2g, %g settings\n", model, (int)strcspn(lay, ","), lay,
                   json_num(line, "spearman"), lo, hi, json_num(line, "p_value"), json_num(line, "settings"));
            if (m < 0) {
                ck_assert_str_eq(model, "all");
                pooled++;
            } else if (strstr(line, "\"layer\":\"all\"")) {
                assoc_all++;
            } else {
                assoc_layers[m]++;
            }
            continue;
        }
        if (strstr(line, "\"summary\":\"association_at_scale\"")) {
            printf("      report (not asserted): %-9s at scale %g only: rho = %6.3f, p = %.2g (%g settings)\n", model,
                   json_num(line, "scale"), json_num(line, "spearman"), json_num(line, "p_value"),
                   json_num(line, "settings"));
            continue;
        }
        if (strstr(line, "\"summary\""))
            continue;
        ck_assert_msg(m >= 0, "a setting of an unknown model: %s", line);
        double lower = json_num(line, "lower"), upper = json_num(line, "upper");
        double cert = json_num(line, "certified"), in = json_num(line, "inputs");
        const char *rt = strstr(line, "\"0.1\":");
        const char *un = strstr(line, "\"uncertified\":{");
        ck_assert_msg(un != NULL, "no uncertified measures: %s", line);
        printf("      %-9s %-5.0f %-4.0f %-5g %6.1f  %6.2f  %6.2f  %3.0f/%-3.0f   | %8.2f  %8.2f  %8.2f  %8.2f\n", model,
               json_num(line, "layer"), json_num(line, "head"), json_num(line, "scale"), rt ? strtod(rt + 6, NULL) : -1,
               lower, upper, cert, in, json_num(un, "numrank"), json_num(un, "numrank_eps"), json_num(un, "stable_rank"),
               json_num(un, "effective_rank"));
        ck_assert_msg(cert == in && in >= (m == 0 ? 64 : 20), "%s setting %zu: %.0f of %.0f inputs certified", model,
                      settings[m], cert, in);
        ck_assert_msg(lower >= 1 && lower <= upper, "%s setting %zu: mean lower %g above mean upper %g", model,
                      settings[m], lower, upper);
        settings[m]++;
    }
    int st = pclose(p);
    fflush(stdout);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
                  "attnrank calib failed (exit %d): is the model cache there? run 'make calib-data'",
                  WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    ck_assert_msg(settings[0] == 32, "expected 32 USE-lite settings, got %zu", settings[0]);
    ck_assert_msg(settings[1] == 64, "expected 64 PP-OCRv4 settings, got %zu", settings[1]);
    ck_assert_msg(assoc_layers[0] == 2 && assoc_layers[1] == 2 && assoc_all == 2 && pooled == 1,
                  "association lines: per layer %zu + %zu, per model %zu, pooled %zu", assoc_layers[0],
                  assoc_layers[1], assoc_all, pooled);
}
END_TEST

Suite *suite_verify_E(void)
{
    Suite *s = suite_create("verify_E");
    TCase *tc = tcase_create("calibration");
    tcase_set_timeout(tc, 1800);
    if (verify_tier_has_default())   /* claim E belongs to the default tier */
        tcase_add_test(tc, test_calibration);
    suite_add_tcase(s, tc);
    return s;
}
