/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_merge.c -- libFuzzer harness for the whole merge path (`attnrank
 * merge`: sweeps/sweep_merge.c, the sweeps' record readers and printers), on a
 * mutated shard file merged with a valid partner.
 *
 * At start-up the harness computes, in process, two-shard sweeps of three
 * kinds into a directory of its own: claim T's verify cases, a small claim-S
 * scale sweep and a calibration of a tiny synthetic model (a manifest), and
 * keeps shard 0 of each as the partner and shard 1's header line.  An input
 * is: byte 0 selecting the sweep (0..2) and the mutated part (the header's
 * "params" value, or the records), then that part; the harness rebuilds
 * shard 1 with the rest taken from the real file (so the provenance is this
 * binary's) and a fresh, consistent end record (as a forger would), and
 * merges it with the partner in text, JSON and (but for verify) TSV.  So the reader's integrity checks are passed and what is fuzzed is
 * what a merge believes.
 *
 * Invariants: the exit code is 0, 3 (a merged row that does not pass) or 2
 * (refused); a refusal prints nothing on stdout and one "attnrank: ..." line
 * on stderr; an accepted merge prints no control character but newlines
 * (and tabs in TSV), its JSON output is one valid JSON object per line (so
 * no bare nan or inf); nothing is written in the directory (a merge writes
 * no file). */
#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <sys/stat.h>
#include "cli/commands.h"
#include "constructions/formats/npy.h"
#include "base/sha256.h"
#include "fuzz_util.h"

static char work[64];
static char partner[3][128], shard1[3][128], header1[3][65536];
static size_t hlen[3];
static char *records1[3];

static void die(const char *what)
{
    fprintf(stderr, "fuzz_merge: %s: %s\n", what, ar_error_get());
    abort();
}

/* Run a command in process with stdout and stderr sent to files of `work`
 * (out.txt, err.txt); its exit code. */
static int run_cmd(int argc, char **argv, int (*cmd)(int, char **))
{
    char po[128], pe[128];
    snprintf(po, sizeof po, "%s/out.txt", work);
    snprintf(pe, sizeof pe, "%s/err.txt", work);
    fflush(stdout);
    fflush(stderr);
    int so = dup(1), se = dup(2);
    int fo = open(po, O_WRONLY | O_CREAT | O_TRUNC, 0600), fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (so < 0 || se < 0 || fo < 0 || fe < 0)
        abort();
    dup2(fo, 1);
    dup2(fe, 2);
    close(fo);
    close(fe);
    ar_error_set("%s", "");
    int rc = cmd(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    return rc;
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        abort();
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)sz + 1);
    if (!b || fread(b, 1, (size_t)sz, f) != (size_t)sz)
        abort();
    fclose(f);
    b[sz] = '\0';
    *n = (size_t)sz;
    return b;
}

/* A one-layer, one-head synthetic model of two inputs (5 and 7 positions). */
static void write_model(const char *dir)
{
    const size_t np[2] = { 5, 7 };
    unsigned long long x = 99;
    for (size_t i = 0; i < 2; i++)
        for (int k = 0; k < 2; k++) {
            double v[7 * 3];
            for (size_t r = 0; r < np[i] * 3; r++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                v[r] = 3.0 * ((double)(x >> 11) / 9007199254740992.0) - 1.5;
            }
            char p[160];
            snprintf(p, sizeof p, "%s/%c%zu.npy", dir, k ? 'k' : 'q', i);
            if (npy_write(p, v, np[i], 3))
                die("npy_write");
        }
    char p[160];
    snprintf(p, sizeof p, "%s/manifest.json", dir);
    FILE *f = fopen(p, "wb");
    if (!f)
        abort();
    fputs("{\"format\":\"attnrank-heads\",\"version\":1,\"model\":\"tiny\",\"layers\":[{\"heads\":1,\"head_dim\":3,"
          "\"scale\":1.5}],\"inputs\":[{\"name\":\"a\",\"positions\":5},{\"name\":\"b\",\"positions\":7}],\"files\":["
          "{\"layer\":0,\"head\":0,\"input\":0,\"q\":\"q0.npy\",\"k\":\"k0.npy\"},"
          "{\"layer\":0,\"head\":0,\"input\":1,\"q\":\"q1.npy\",\"k\":\"k1.npy\"}]}", f);
    fclose(f);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(work, sizeof work, "/dev/shm/attnrank-fuzz-merge-XXXXXX");
    if (!mkdtemp(work))
        abort();
    char model[128], man[160];
    snprintf(model, sizeof model, "%s/model", work);
    mkdir(model, 0700);
    write_model(model);
    snprintf(man, sizeof man, "%s/manifest.json", model);
    for (int s = 0; s < 3; s++) {
        for (int k = 0; k < 2; k++) {
            char out[128], sh[8];
            snprintf(out, sizeof out, "%s/%d-%d.jsonl", work, s, k);
            snprintf(sh, sizeof sh, "%d/2", k);
            char *T[] = { "attnrank", "verify", "--claim", "T", "--shard", sh, "--out", out, NULL };
            char *S[] = { "attnrank", "scale", "--claim", "S", "--d", "3", "--beta", "20:30:2", "--eps", "0.1",
                          "--engine", "dense", "--n", "120", "--no-packing", "--shard", sh, "--out", out, NULL };
            char *C[] = { "attnrank", "calib", "--manifest", man, "--scales", "1,2", "--perms", "20", "--boot", "10",
                          "--shard", sh, "--out", out, NULL };
            int rc = s == 0 ? run_cmd(8, T, cmd_verify) : s == 1 ? run_cmd(19, S, cmd_scale) : run_cmd(14, C, cmd_calib);
            if (rc)
                die("computing a partner shard");
            snprintf(k ? shard1[s] : partner[s], 128, "%s", out);
        }
        size_t n;
        char *t = slurp(shard1[s], &n);
        char *nl = strchr(t, '\n'), *end = strstr(t, "{\"end\":true");
        if (!nl || !end || (size_t)(nl - t) >= sizeof header1[s])
            abort();
        hlen[s] = (size_t)(nl - t);
        memcpy(header1[s], t, hlen[s]);
        *end = '\0';
        records1[s] = strdup(nl + 1);
        free(t);
        remove(shard1[s]);
    }
    return 0;
}

/* The number of entries in work (to see that a merge wrote nothing). */
static size_t entries(void)
{
    size_t n = 0;
    DIR *d = opendir(work);
    if (!d)
        abort();
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

static void check_output(int rc, int json, int tsv)
{
    size_t no, ne;
    char po[128], pe[128];
    snprintf(po, sizeof po, "%s/out.txt", work);
    snprintf(pe, sizeof pe, "%s/err.txt", work);
    char *out = slurp(po, &no), *err = slurp(pe, &ne);
    FUZZ_REQUIRE(rc == 0 || rc == 2 || rc == 3);
    if (rc == 2) {
        FUZZ_REQUIRE(no == 0);
        FUZZ_REQUIRE(ne > 11 && !strncmp(err, "attnrank: ", 10) && strchr(err, '\n') == err + ne - 1);
    } else {
        for (size_t i = 0; i < no; i++) {
            unsigned char c = (unsigned char)out[i];
            FUZZ_REQUIRE(c == '\n' || (tsv && c == '\t') || (c >= 0x20 && c != 0x7f));
        }
        if (json) {
            char *line = out;
            while (*line) {
                char *nl = strchr(line, '\n');
                FUZZ_REQUIRE(nl != NULL);
                json_error_t je;
                json_t *v = json_loadb(line, (size_t)(nl - line), JSON_REJECT_DUPLICATES, &je);
                FUZZ_REQUIRE(json_is_object(v));
                json_decref(v);
                line = nl + 1;
            }
        }
    }
    free(out);
    free(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 200000)
        return 0;
    int s = data[0] % 3, part = (data[0] / 3) % 2;
    const char *body = (const char *)data + 1;
    size_t blen = size - 1;
    /* the rebuilt shard 1: header line and records, one of them fuzzed */
    size_t cap = blen + hlen[s] + strlen(records1[s]) + 4;
    char *text = malloc(cap);
    if (!text)
        abort();
    size_t o = 0;
    if (part == 0) {   /* the records */
        memcpy(text, header1[s], hlen[s]);
        o = hlen[s];
        text[o++] = '\n';
        memcpy(text + o, body, blen);
        o += blen;
        if (o > 0 && text[o - 1] != '\n')
            text[o++] = '\n';
    } else {           /* the header's params (the rest of the header is the real one) */
        const char *pa = strstr(header1[s], "\"params\":"), *pr = strstr(header1[s], ",\"precision\":");
        if (!pa || !pr || memchr(body, '\n', blen)) {
            free(text);
            return 0;
        }
        pa += 9;
        memcpy(text, header1[s], (size_t)(pa - header1[s]));
        o = (size_t)(pa - header1[s]);
        memcpy(text + o, body, blen);
        o += blen;
        size_t tail = hlen[s] - (size_t)(pr - header1[s]);
        memcpy(text + o, pr, tail);
        o += tail;
        text[o++] = '\n';
        size_t rl = strlen(records1[s]);
        memcpy(text + o, records1[s], rl);
        o += rl;
    }
    text[o] = '\0';
    size_t lines = 0;
    for (size_t i = 0; i < o; i++)
        lines += text[i] == '\n';
    char hex[65];
    sha256_hex(text, o, hex);
    FILE *f = fopen(shard1[s], "wb");
    if (!f)
        abort();
    fwrite(text, 1, o, f);
    fprintf(f, "{\"end\":true,\"records\":%zu,\"sha256\":\"%s\"}\n", lines ? lines - 1 : 0, hex);
    fclose(f);
    free(text);
    size_t before = entries();
    const char *fmts[3] = { "text", "json", "tsv" };
    for (int k = 0; k < (s == 0 ? 2 : 3); k++) {
        char *argv[] = { "attnrank", "merge", "--format", (char *)fmts[k], partner[s], shard1[s], NULL };
        int rc = run_cmd(6, argv, cmd_merge);
        check_output(rc, k == 1, k == 2);
    }
    FUZZ_REQUIRE(entries() == before);
    return 0;
}
