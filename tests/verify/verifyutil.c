/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verifyutil.c -- see verifyutil.h. */
#include "verify/verifyutil.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweeps/shards.h"
#include "cli/verify_print.h"
#include "sweeps/verify_judge.h"
#include "base/config.h"
#include "base/path.h"
#include "base/status.h"
#include "theory/claims/laws.h"
#include "theory/claims/verify.h"
#include "theory/claims/vplan.h"

/* verify_law's progress callback: one line on stderr ("\r[verify] msg"). */
static void progress_line(const char *msg, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "\r\033[K[verify] %s", msg);
    fflush(stderr);
}

vtier_t verify_tier(void)
{
    const char *t = getenv("ATTNRANK_VERIFY_TIER");
    vtier_t v = VTIER_DEFAULT;
    if (t && *t && vplan_tier_parse("ATTNRANK_VERIFY_TIER", t, &v) != AR_OK) {
        fprintf(stderr, "run_verify: %s\n", ar_error_get());
        exit(2);
    }
    return v;
}

int verify_tier_has_default(void)
{
    return verify_tier() != VTIER_EXTENDED;
}

static const law_t *nth_row(const char *claim, size_t k)
{
    size_t nl, seen = 0;
    vtier_t t = verify_tier();
    const law_t *laws = laws_table(&nl);
    for (size_t i = 0; i < nl; i++) {
        int ext = law_extended(&laws[i]) != 0;
        int in = t == VTIER_ALL || (t == VTIER_EXTENDED) == ext;
        if (strcmp(laws[i].claim, claim) == 0 && in && seen++ == k)
            return &laws[i];
    }
    return NULL;
}

size_t verify_rows(const char *claim)
{
    size_t n = 0;
    while (nth_row(claim, n))
        n++;
    return n;
}

/* ---- merge mode: the shard files of ATTNRANK_VERIFY_SHARDS ------------- */

static int sh_loaded;
static ar_status sh_status;
static char sh_error[512];
static vplan_t sh_plan;
static vresult_t *sh_res;
static char *sh_prov;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static ar_status load_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        ar_error_set("ATTNRANK_VERIFY_SHARDS=%s: cannot open the directory", dir);
        return AR_EIO;
    }
    char **paths = NULL;
    size_t n = 0, cap = 0;
    ar_status st = AR_OK;
    struct dirent *e;
    while (st == AR_OK && (e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 7 || strcmp(e->d_name + l - 6, ".jsonl"))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            char **np = realloc(paths, cap * sizeof *np);
            if (!np) {
                st = AR_ENOMEM;
                break;
            }
            paths = np;
        }
        st = path_join(dir, e->d_name, &paths[n]);
        if (st == AR_OK)
            n++;
    }
    closedir(d);
    if (st == AR_OK && n == 0) {
        ar_error_set("ATTNRANK_VERIFY_SHARDS=%s: no shard file (*.jsonl) there", dir);
        st = AR_EINVAL;
    }
    shardfile_t *files = NULL;
    if (st == AR_OK) {
        qsort(paths, n, sizeof *paths, cmp_str);
        shardfile_key_t kst;
        const shardfile_key_t *key;   /* ATTNRANK_SHARD_KEY, as the shards were written */
        st = shards_key_load(ar_config()->shard_key, 1, &kst, &key);
        if (st == AR_OK)
            st = shards_read_all(paths, n, key, &files);
    }
    if (st == AR_OK) {
        st = verify_shards_load(files, n, &sh_plan, &sh_res, &sh_prov);
        shards_free_all(files, n);
    }
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
    return st;
}

/* The merged plan, or NULL when not in merge mode; a load failure fails the test. */
static const vplan_t *merged(void)
{
    const char *dir = getenv("ATTNRANK_VERIFY_SHARDS");
    if (!dir)
        return NULL;
    if (!sh_loaded) {
        sh_loaded = 1;
        sh_status = load_dir(dir);
        snprintf(sh_error, sizeof sh_error, "%s", ar_error_get());
    }
    ck_assert_msg(sh_status == AR_OK, "%s", sh_error);
    return &sh_plan;
}

static int json_out(void)
{
    const char *fmt = getenv("ATTNRANK_VERIFY_FORMAT");
    return fmt && strcmp(fmt, "json") == 0;
}

void verify_assert_row(const char *claim, size_t k)
{
    const law_t *L = nth_row(claim, k);
    ck_assert_msg(L != NULL, "claim %s has no row %zu in the laws table", claim, k);
    verify_row_t *row = malloc(sizeof *row);
    ck_assert_ptr_nonnull(row);
    const vplan_t *p = merged();
    ar_status st;
    if (p) {
        size_t g = vplan_find_row(p, claim, k);
        ck_assert_msg(g < p->ngroups && p->groups[g].law == L, "claim %s d=%d row %zu is not in the shards of %s",
                      claim, L->dim, k, getenv("ATTNRANK_VERIFY_SHARDS"));
        st = vplan_judge_row(p, g, sh_res, row);
    } else {
        st = verify_law(L, row, progress_line, NULL);
        fprintf(stderr, "\r\033[K");
    }
    ck_assert_msg(st == AR_OK, "claim %s d=%d row %zu: %s", claim, L->dim, k, ar_error_get());
    verify_row_result_t it;
    verify_item_row(&it, row, p ? sh_prov : NULL);
    if (json_out())
        verify_print_json(stdout, &it);
    else
        verify_print_text(stdout, &it);
    fflush(stdout);
    char reason[256];
    verify_verdict_t verdict = row->verdict;
    snprintf(reason, sizeof reason, "%s", row->reason);
    free(row);
    if (law_asserted(L))
        ck_assert_msg(verdict == VERDICT_PASS, "claim %s d=%d (%s): verdict %s: %s", claim, L->dim,
                      law_kind_name(L->kind), verify_verdict_name(verdict), reason);
}

void verify_assert_t(size_t k)
{
    claim_t_record_t t;
    const vplan_t *p = merged();
    if (p) {
        size_t g = vplan_find_row(p, "T", k);
        ck_assert_msg(g < p->ngroups, "claim T case %zu is not in the shards of %s", k,
                      getenv("ATTNRANK_VERIFY_SHARDS"));
        t = sh_res[p->groups[g].first].t;
    } else {
        ar_status st = claim_t_compute(k, &t);
        ck_assert_msg(st == AR_OK, "claim T case %zu: %s", k, ar_error_get());
    }
    char reason[256];
    verify_row_result_t it;
    verify_item_t(&it, &t, p ? sh_prov : NULL, reason, sizeof reason);
    if (json_out())
        verify_print_t_json(stdout, &it);
    else
        verify_print_t_text(stdout, &it);
    fflush(stdout);
    int pass = claim_t_judge(&t, reason, sizeof reason);
    ck_assert_msg(pass, "%s", reason);
}
