/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_merge.c -- `attnrank merge`: the tables, fits and verdicts of a sweep
 * rebuilt from its shard files (sweeps/shards.h), without recomputing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweeps/sweeps.h"
#include "sweeps/shards.h"
#include "sweeps/verify_print.h"

static const char help[] =
    "Usage: attnrank merge [--format text|json|tsv] [--per-sentence] [--key KEYFILE] FILES...\n"
    "Reads the shard files of one sweep (attnrank verify|scale|calib --shard K/N --out FILE)\n"
    "and prints what the sweep prints in one process: the verdict table of verify, the\n"
    "table and fits of scale, the calibration of calib (--format tsv for scale and calib,\n"
    "--per-sentence with json for calib).  Nothing is recomputed; the numbers\n"
    "are the shards' own, and every number but the times is the one-process run's.\n"
    "Refused with one line naming the file (exit 2, nothing printed): a file that is not a\n"
    "complete shard file (truncated, corrupted: the end record's count and SHA-256), shards\n"
    "of another version, commit, BLAS core, precision, parameters or point list, a shard\n"
    "given twice or missing, a point present twice, missing, or in the wrong shard, a\n"
    "record whose numbers are not finite, not the plan's (d, beta, eps, n) or impossible\n"
    "(lower > upper on one instance, a rank above the instance size, an error above eps),\n"
    "a string attnrank never writes, a header option that does not define the sweep.\n"
    "The SHA-256 in each file detects corruption, not forgery: with --key KEYFILE (or\n"
    "ATTNRANK_SHARD_KEY=KEYFILE) every file must carry the HMAC-SHA256 of that key,\n"
    "written by 'attnrank verify|scale|calib --shard K/N --out FILE --key KEYFILE'.\n"
    "Exit status (verify): 0 when every asserted row and claim-T case passes, 3 when one\n"
    "does not (as make verify fails); 2: bad input, 1: other errors.\n";

int sweep_merge_scale(const shardfile_t *files, size_t nf, const char *format);
int sweep_merge_calib(const shardfile_t *files, size_t nf, const char *format, int per_sentence);

static int merge_verify(const shardfile_t *files, size_t nf, int json)
{
    vplan_t p;
    vresult_t *res;
    char *prov;
    ar_status st = verify_shards_load(files, nf, &p, &res, &prov);
    if (st)
        return sweep_fail(st);
    verify_out_t vo = { .json = json, .prov = prov };
    for (size_t g = 0; g < p.ngroups && st == AR_OK; g++)
        st = verify_print_group(stdout, &vo, &p, g, res);
    if (st == AR_OK && p.dim == 0)
        verify_print_untested(stdout, p.claim[0] ? p.claim : NULL, json);
    free(res);
    free(prov);
    vplan_clear(&p);
    if (st)
        return sweep_fail(st);
    return vo.not_pass ? 3 : 0;
}

int sweep_merge(int argc, char **argv)
{
    const char *format = NULL, *keyfile = NULL;
    int per_sentence = 0;
    char **paths = calloc((size_t)argc, sizeof *paths);
    size_t nf = 0;
    if (!paths) {
        ar_error_set("merge: out of memory");
        return sweep_fail(AR_ENOMEM);
    }
    int rc = 0;
    for (int i = 2; i < argc && rc == 0; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help")) {
            fputs(help, stdout);
            free(paths);
            return 0;
        } else if (!strcmp(a, "--format") || !strncmp(a, "--format=", 9)) {
            const char *v = a[8] == '=' ? a + 9 : i + 1 < argc ? argv[++i] : NULL;
            if (!v || format) {
                ar_error_set(v ? "merge: --format given twice" : "merge: --format needs a value");
                rc = sweep_fail(AR_EINVAL);
            }
            format = v;
        } else if (!strcmp(a, "--key") || !strncmp(a, "--key=", 6)) {
            const char *v = a[5] == '=' ? a + 6 : i + 1 < argc ? argv[++i] : NULL;
            if (!v || keyfile) {
                ar_error_set(v ? "merge: --key given twice" : "merge: --key needs a file");
                rc = sweep_fail(AR_EINVAL);
            }
            keyfile = v;
        } else if (!strcmp(a, "--per-sentence")) {
            per_sentence = 1;
        } else if (!strcmp(a, "--")) {
            for (i++; i < argc; i++)
                paths[nf++] = argv[i];
        } else if (a[0] == '-' && a[1] == '-') {
            ar_error_set("merge: unknown option '%s' (see 'attnrank merge --help')", a);
            rc = sweep_fail(AR_EINVAL);
        } else
            paths[nf++] = argv[i];
    }
    if (rc == 0 && format && strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "tsv")) {
        ar_error_set("merge: --format: expected text, json or tsv (tsv for scale and calib), got '%s'", format);
        rc = sweep_fail(AR_EINVAL);
    }
    if (rc == 0 && nf == 0) {
        ar_error_set("merge: no shard files given (attnrank merge [--format text|json] FILES...)");
        rc = sweep_fail(AR_EINVAL);
    }
    shardfile_t *files = NULL;
    ar_status st;
    const shardfile_key_t *key = NULL;
    if (rc == 0 && (st = shards_key(keyfile, &key)))
        rc = sweep_fail(st);
    if (rc == 0 && (st = shards_read_all(paths, nf, key, &files)))
        rc = sweep_fail(st);
    free(paths);
    if (rc)
        return rc;
    const char *sweep = files[0].sweep;
    if (per_sentence && strcmp(sweep, "calib")) {
        ar_error_set("merge: --per-sentence is for calib sweeps, these are shards of '%s'", sweep);
        shards_free_all(files, nf);
        return sweep_fail(AR_EINVAL);
    }
    if (!strcmp(sweep, "verify")) {
        if (format && !strcmp(format, "tsv")) {
            ar_error_set("merge: --format tsv is for scale sweeps; verify merges print text or json");
            rc = sweep_fail(AR_EINVAL);
        } else
            rc = merge_verify(files, nf, format && !strcmp(format, "json"));
    } else if (!strcmp(sweep, "scale")) {
        rc = sweep_merge_scale(files, nf, format);
    } else if (!strcmp(sweep, "calib")) {
        rc = sweep_merge_calib(files, nf, format, per_sentence);
    } else {
        ar_error_set("%s: a shard of 'attnrank %s', which this attnrank cannot merge", files[0].what, sweep);
        rc = sweep_fail(AR_EINVAL);
    }
    shards_free_all(files, nf);
    return rc;
}
