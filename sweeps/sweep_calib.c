/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_calib.c -- `attnrank calib`: claim E on real attention heads (USE
 * lite over the license corpus, PP-OCRv4 over rendered text lines, both
 * fetched by `make calib-data`, or a user's model through a manifest):
 * parses, loads, calls theory/heads/calib and prints (sweeps/calib_print). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "numerics/args.h"
#include "sweeps/calib_print.h"
#include "sweeps/calib_shard.h"
#include "sweeps/sweeps.h"
#include "sweeps/shards.h"
#include "constructions/formats/corpus.h"
#include "constructions/models/real_model.h"
#include "constructions/formats/heads_manifest.h"
#include "constructions/models/ppocr_pins.h"
#include "constructions/models/real_pins.h"
#include "base/path.h"
#include "theory/heads/calib.h"
#include "theory/heads/visible.h"

static const char help[] =
    "Usage: attnrank calib [--model use-lite|pp-ocrv4|all | --manifest FILE] [--data DIR]\n"
    "                      [--licenses DIR] [--sentences N] [--eps E] [--scales S1,S2,..]\n"
    "                      [--taus T1,T2,..] [--tau-main T] [--perms P] [--boot B] [--level L]\n"
    "                      [--seed S] [--threads T] [--format text|tsv|json] [--per-sentence]\n"
    "Claim E on the attention heads of a real model.  --model use-lite (default):\n"
    "Google's Universal Sentence Encoder lite (2 layers x 4 heads) over the committed\n"
    "corpus of license sentences (/usr/share/common-licenses, checked against its\n"
    "sha256 manifest); pp-ocrv4: the PP-OCRv4 text recogniser (2 SVTR blocks x 8\n"
    "heads, dh 15) over the 24 rendered text-line images; all: both, and their\n"
    "pooled association.  Run 'make calib-data' first (DIR defaults to\n"
    ".cache/calib; every cached file is checked against its pinned sha256 before\n"
    "it is read).  --manifest FILE: your own model's heads, as written by\n"
    "scripts/export_heads.py (a JSON manifest naming one Q and one K .npy file per\n"
    "layer, head and input, relative to the manifest's directory).\n"
    "--sentences N keeps the first N inputs of each model.  For every layer, head\n"
    "and scale s (beta = s times the model's own logit scale; defaults 0.5,1,2,4)\n"
    "and every input: the visible dimension r, the certified r(tau) (defaults\n"
    "0.05,0.1,0.2), the certified bracket lower <= rank_eps(A) <= upper (eps 0.1),\n"
    "and the UNCERTIFIED numerical rank (numpy's default tolerance and eps s_1),\n"
    "stable rank and effective rank of A; per head the weights-only r(tau) when the\n"
    "model gives its weights.  Then Spearman's rho between the mean reduction\n"
    "1 - r(tau)/dh at the main tau (default 0.1) and the mean certified upper end\n"
    "across settings, per layer, per model and pooled over models, with a\n"
    "permutation p-value (P = 10000 permutations), the asymptotic Student-t p-value\n"
    "(n - 2 degrees of freedom) and a percentile bootstrap interval over inputs\n"
    "(B = 2000 replicates, level L = 0.95; seed 1).\n"
    "TSV: one row per (model, layer, head, scale) under a header, then '#' lines\n"
    "with the associations.  JSON: one line per (model, layer, head, scale) with\n"
    "\"model\", \"layer\", \"head\", \"scale\", ...; then per model one line per layer\n"
    "and one for all layers with \"summary\":\"association\", \"spearman\", \"ci\",\n"
    "\"p_value\", \"p_value_t\"; with all, a last pooled line (\"model\":\"all\").  --per-sentence\n"
    "(JSON only) first prints one line per (model, layer, head, scale, input).\n"
    "--shard K/N --out FILE: compute only the settings (model, layer, head, scale) of\n"
    "shard K of N (balanced by an a-priori cost) into the shard file FILE (resumable;\n"
    "nothing printed; --key KEYFILE or ATTNRANK_SHARD_KEY adds an HMAC, see 'attnrank verify --help');\n"
    "'attnrank merge [--format F] [--per-sentence] FILES...' prints\n"
    "the calibration from the N files, identical to one run but for the times.\n";

static void progress(size_t done, size_t total, void *ctx)
{
    (void)ctx;
    if (done % 16 == 0 || done == total) {
        fprintf(stderr, "\r\033[Kcalib: %zu/%zu instances", done, total);
        if (done == total)
            fputc('\n', stderr);
        fflush(stderr);
    }
}

/* USE lite from the cache root `data` over the first m corpus sentences. */
static ar_status load_use(const char *data, const char *licenses, size_t m, model_heads_t *D)
{
    memset(D, 0, sizeof *D);
    char *dir;
    ar_status st = path_join(data, REAL_PINS_MODEL_DIR, &dir);
    if (st)
        return st;
    if (access(dir, R_OK) != 0) {
        ar_error_set("calib: %s not found: run 'make calib-data' first (or pass --data DIR)", dir);
        free(dir);
        return AR_EIO;
    }
    free(dir);
    size_t nm;
    const corpus_entry_t *man = corpus_manifest(&nm);
    corpus_t C;
    if ((st = corpus_load(man, m < nm ? m : nm, licenses, &C)))
        return st;
    real_model_t M;
    if (!(st = real_pins_load(data, &M))) {   /* every file checked against its pinned sha256 first */
        st = real_model_heads(&M, &C, D);
        real_model_clear(&M);
    }
    corpus_clear(&C);
    return st;
}

/* PP-OCRv4 from the cache root `data` over the first m text-line images. */
static ar_status load_ppocr(const char *data, size_t m, model_heads_t *D)
{
    memset(D, 0, sizeof *D);
    size_t np;
    const real_pin_t *pins = ppocr_pins_model(&np);
    char *file;
    ar_status st = path_join(data, pins[0].path, &file);
    if (st)
        return st;
    if (access(file, R_OK) != 0) {
        ar_error_set("calib: %s not found: run 'make calib-data' first (or pass --data DIR)", file);
        free(file);
        return AR_EIO;
    }
    free(file);
    ppocr_model_t M;
    if ((st = ppocr_pins_load(data, &M)))
        return st;
    ppm_image_t *img;
    size_t nimg;
    if (!(st = ppocr_pins_images_load(data, &img, &nimg))) {
        st = ppocr_model_heads(&M, img, m < nimg ? m : nimg, D);
        for (size_t i = 0; i < nimg; i++)
            ppm_clear(&img[i]);
        free(img);
    }
    ppocr_model_clear(&M);
    return st;
}

/* The pooled association (several models), the printed results; frees R. */
static int print_results(calib_result_t *R, size_t nd, out_format_t fmt, int per_sentence)
{
    calib_assoc_t pooled;
    ar_status st = AR_OK;
    if (nd > 1)
        st = calib_assoc_pooled(R, nd, &pooled);
    if (!st)
        calib_print(R, nd, nd > 1 ? &pooled : NULL, fmt, per_sentence);
    for (size_t i = 0; i < nd; i++)
        calib_result_clear(&R[i]);
    return st ? sweep_fail(st) : 0;
}

int sweep_calib(int argc, char **argv)
{
    opt_t o[] = { { "data", 1, NULL }, { "licenses", 1, NULL }, { "sentences", 1, NULL }, { "eps", 1, NULL },
                  { "scales", 1, NULL }, { "taus", 1, NULL }, { "tau-main", 1, NULL }, { "perms", 1, NULL },
                  { "seed", 1, NULL }, { "threads", 1, NULL }, { "format", 1, NULL }, { "per-sentence", 0, NULL },
                  { "model", 1, NULL }, { "manifest", 1, NULL }, { "boot", 1, NULL }, { "level", 1, NULL },
                  { "shard", 1, NULL }, { "out", 1, NULL }, { "help", 0, NULL }, { "key", 1, NULL } };
    size_t no = sizeof o / sizeof o[0];
    ar_status st;
    if ((st = args_parse(argc, argv, 2, o, no, "calib")))
        return sweep_fail(st);
    if (calib_merge_files && (args_get(o, no, "shard") || args_get(o, no, "out") || args_get(o, no, "help") ||
                              args_get(o, no, "key"))) {
        ar_error_set("calib: a merge cannot run a shard, write a file or print help");   /* refused by the allow-list first */
        return sweep_fail(AR_EINVAL);
    }
    if (args_get(o, no, "help")) {
        fputs(help, stdout);
        return 0;
    }
    calib_opts_t co;
    calib_opts_default(&co);
    out_format_t fmt;
    const char *v;
    if ((st = args_format(args_get(o, no, "format"), &fmt)))
        return sweep_fail(st);
    int per_sentence = args_get(o, no, "per-sentence") != NULL;
    if (per_sentence && fmt != FMT_JSON) {
        ar_error_set("--per-sentence needs --format json");
        return sweep_fail(AR_EINVAL);
    }
    if ((v = args_get(o, no, "eps")) && (st = args_eps(v, &co.eps)))
        return sweep_fail(st);
    if ((v = args_get(o, no, "scales")) && (st = args_double_list("scales", v, co.scales, CALIB_MAX_SCALES, &co.nscales)))
        return sweep_fail(st);
    if ((v = args_get(o, no, "taus"))) {
        if ((st = args_double_list("taus", v, co.taus, CALIB_MAX_TAUS, &co.ntau)))
            return sweep_fail(st);
        co.tau_main = co.ntau / 2;
    }
    if ((v = args_get(o, no, "tau-main"))) {
        double tm;
        if ((st = args_double("tau-main", v, &tm)))
            return sweep_fail(st);
        size_t t = 0;
        while (t < co.ntau && co.taus[t] != tm)
            t++;
        if (t == co.ntau) {
            ar_error_set("--tau-main: %g is not one of the taus", tm);
            return sweep_fail(AR_EINVAL);
        }
        co.tau_main = t;
    }
    if ((v = args_get(o, no, "perms")) && (st = args_size("perms", v, 1, 10000000, &co.nperm)))
        return sweep_fail(st);
    if ((v = args_get(o, no, "boot")) && (st = args_size("boot", v, 1, 1000000, &co.nboot)))
        return sweep_fail(st);
    if ((v = args_get(o, no, "level"))) {
        if ((st = args_double("level", v, &co.level)))
            return sweep_fail(st);
        if (!(co.level > 0 && co.level < 1)) {
            ar_error_set("--level: %g is not in (0, 1)", co.level);
            return sweep_fail(AR_EINVAL);
        }
    }
    if ((v = args_get(o, no, "seed")) && (st = args_u64("seed", v, &co.seed)))
        return sweep_fail(st);
    size_t thr = 0;
    if ((v = args_get(o, no, "threads")) && (st = args_size("threads", v, 1, 64, &thr)))
        return sweep_fail(st);
    co.threads = (int)thr;
    size_t m = (size_t)-1;
    if ((v = args_get(o, no, "sentences")) && (st = args_size("sentences", v, 1, 1000000, &m)))
        return sweep_fail(st);
    const char *model = args_get(o, no, "model"), *manifest = args_get(o, no, "manifest");
    if (model && manifest) {
        ar_error_set("--model and --manifest exclude each other");
        return sweep_fail(AR_EINVAL);
    }
    if (!model)
        model = "use-lite";
    int use = !manifest && (!strcmp(model, "use-lite") || !strcmp(model, "all"));
    int ocr = !manifest && (!strcmp(model, "pp-ocrv4") || !strcmp(model, "all"));
    if (!manifest && !use && !ocr) {
        ar_error_set("--model: '%s' is not use-lite, pp-ocrv4 or all", model);
        return sweep_fail(AR_EINVAL);
    }
    const char *shard = args_get(o, no, "shard"), *out = args_get(o, no, "out");
    if (!shard != !out) {
        ar_error_set("--shard K/N and --out FILE go together");
        return sweep_fail(AR_EINVAL);
    }
    if (args_get(o, no, "key") && !shard) {
        ar_error_set("calib: --key is for --shard K/N --out FILE");
        return sweep_fail(AR_EINVAL);
    }
    const shardfile_key_t *key = NULL;
    if (shard && ((st = shards_key(args_get(o, no, "key"), &key)) || (st = shardfile_check_target(out))))
        return sweep_fail(st);   /* before the models are loaded */
    calib_result_t R[2];
    memset(R, 0, sizeof R);
    size_t nd = 0;
    if (calib_merge_files) {                 /* attnrank merge: every setting from its record */
        if ((st = calib_shard_collect(&co, o, no, R, &nd)))
            return sweep_fail(st);
        return print_results(R, nd, fmt, per_sentence);
    }
    const char *data = args_get(o, no, "data");
    if (!data)
        data = ".cache/calib";
    model_heads_t D[2];
    memset(D, 0, sizeof D);
    if (manifest)
        st = heads_manifest_load(manifest, m, &D[nd++]);
    if (!st && use)
        st = load_use(data, args_get(o, no, "licenses"), m, &D[nd++]);
    if (!st && ocr)
        st = load_ppocr(data, m, &D[nd++]);
    if (st) {
        for (size_t i = 0; i < nd; i++)
            model_heads_clear(&D[i]);
        return sweep_fail(st);
    }
    if (shard) {                             /* one shard of the settings into a shard file */
        int rc = calib_shard_run(D, nd, &co, o, no, shard, out, key);
        for (size_t i = 0; i < nd; i++)
            model_heads_clear(&D[i]);
        return rc;
    }
    if (isatty(2))
        co.progress = progress;
    for (size_t i = 0; !st && i < nd; i++)
        st = calib_run(&D[i], &co, &R[i]);
    for (size_t i = 0; i < nd; i++)
        model_heads_clear(&D[i]);
    if (st) {
        for (size_t i = 0; i < nd; i++)
            calib_result_clear(&R[i]);
        return sweep_fail(st);
    }
    return print_results(R, nd, fmt, per_sentence);
}
