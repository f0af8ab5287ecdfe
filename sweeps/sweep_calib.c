/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_calib.c -- `attnrank calib`: claim E on real attention heads (USE
 * lite over the license corpus, PP-OCRv4 over rendered text lines, both
 * fetched by `make calib-data`, or a user's model through a manifest):
 * loads the spec's models, calls theory/heads/calib and hands the results
 * to the caller (printed by cli/calib_print.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/config.h"
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

/* calib's progress callback: the run's instances event. */
static void progress(size_t done, size_t total, void *ctx)
{
    const sweep_run_t *r = ctx;
    r->ev.instances(r->ev.ctx, done, total);
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

/* The pooled association (several models) with the results R[0..nd),
 * handed over to *out (R cleared on failure). */
static int hand_over(calib_result_t *R, size_t nd, calib_results_t *out)
{
    ar_status st = AR_OK;
    if (nd > 1)
        st = calib_assoc_pooled(R, nd, &out->pooled);
    if (st) {
        for (size_t i = 0; i < nd; i++)
            calib_result_clear(&R[i]);
        return sweep_fail(st);
    }
    for (size_t i = 0; i < nd; i++)
        out->R[i] = R[i];
    out->nd = nd;
    return 0;
}

void calib_results_clear(calib_results_t *r)
{
    for (size_t i = 0; i < r->nd; i++)
        calib_result_clear(&r->R[i]);
    memset(r, 0, sizeof *r);
}

void calib_spec_opts(const calib_spec_t *s, calib_opts_t *co)
{
    calib_opts_default(co);
    co->eps = s->eps;
    co->nscales = s->nscales;
    memcpy(co->scales, s->scales, s->nscales * sizeof s->scales[0]);
    co->ntau = s->ntau;
    memcpy(co->taus, s->taus, s->ntau * sizeof s->taus[0]);
    co->tau_main = s->tau_main;
    co->nperm = s->perms;
    co->nboot = s->boot;
    co->level = s->level;
    co->seed = s->seed;
    co->threads = (int)s->threads;
}

int sweep_calib_exec(const calib_spec_t *spec, const sweep_run_t *r, const shardfile_t *files, size_t nf,
                     calib_results_t *out)
{
    ar_status st;
    memset(out, 0, sizeof *out);
    if ((st = calib_spec_validate(spec)))
        return sweep_fail(st);
    calib_opts_t co;
    calib_spec_opts(spec, &co);
    int per_sentence = r->per_sentence;
    if (per_sentence && r->format != SWEEP_FORMAT_JSON) {
        ar_error_set("--per-sentence needs --format json");
        return sweep_fail(AR_EINVAL);
    }
    size_t m = spec->sentences;
    int manifest = spec->model == CALIB_MODEL_MANIFEST;
    int use = spec->model == CALIB_MODEL_USE_LITE || spec->model == CALIB_MODEL_ALL;
    int ocr = spec->model == CALIB_MODEL_PPOCR || spec->model == CALIB_MODEL_ALL;
    int shard = r->shard && !files;
    shardfile_key_t kst;
    const shardfile_key_t *key = NULL;
    if (shard && ((st = shards_key_load(r->key, r->key_from_env, &kst, &key)) || (st = shardfile_check_target(r->out))))
        return sweep_fail(st);   /* before the models are loaded */
    calib_result_t R[2];
    memset(R, 0, sizeof R);
    size_t nd = 0;
    if (files) {                             /* attnrank merge: every setting from its record */
        if ((st = calib_shard_collect(&co, files, nf, R, &nd)))
            return sweep_fail(st);
        return hand_over(R, nd, out);
    }
    const char *data = spec->data;
    model_heads_t D[2];
    memset(D, 0, sizeof D);
    /* the models' forward passes run their inputs side by side on --threads threads (when given) */
    ar_config_t lc = *ar_config();
    if (spec->threads > 0)
        lc.threads = spec->threads;
    const ar_config_t *prev = ar_config_install(&lc);
    if (manifest)
        st = heads_manifest_load(spec->manifest, m, &D[nd++]);
    if (!st && use)
        st = load_use(data, spec->licenses[0] ? spec->licenses : NULL, m, &D[nd++]);
    if (!st && ocr)
        st = load_ppocr(data, m, &D[nd++]);
    ar_config_install(prev);
    if (st) {
        for (size_t i = 0; i < nd; i++)
            model_heads_clear(&D[i]);
        return sweep_fail(st);
    }
    if (shard) {                             /* one shard of the settings into a shard file */
        shards_notice_t nt = { r->ev.notice, r->ev.ctx, 1 };
        int rc = calib_shard_run(D, nd, &co, spec, r->sel, r->out, key, &nt);
        for (size_t i = 0; i < nd; i++)
            model_heads_clear(&D[i]);
        return rc;
    }
    if (r->progress && r->ev.instances) {
        co.progress = progress;
        co.progress_ctx = (void *)r;
    }
    for (size_t i = 0; !st && i < nd; i++)
        st = calib_run(&D[i], &co, &R[i]);
    for (size_t i = 0; i < nd; i++)
        model_heads_clear(&D[i]);
    if (st) {
        for (size_t i = 0; i < nd; i++)
            calib_result_clear(&R[i]);
        return sweep_fail(st);
    }
    return hand_over(R, nd, out);
}

int sweep_calib_run(const calib_spec_t *spec, const sweep_run_t *r, calib_results_t *out)
{
    return sweep_calib_exec(spec, r, NULL, 0, out);
}
