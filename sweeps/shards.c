/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shards.c -- shard runs and shard sets (see shards.h). */
#include "sweeps/shards.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <flint/flint.h>
#include "base/config.h"
#include "base/version.h"
#include "constructions/formats/json.h"

json_t *shards_precision(void)
{
    return json_pack("{s:s,s:i,s:s}", "enclosure",
                     "double with an a-priori bound (numerics/softmax_dbl.h) where it applies, else Arb",
                     "arb_prec_bits", 96, "residuals", "double BLAS with a-priori bounds, u = 2^-52");
}

json_t *shards_header(const char *sweep, json_t *params, const char *plan, shard_sel_t sel, json_t *precision)
{
    json_t *h = json_object();
    char *txt = NULL;
    size_t need = strlen(version_json_fields()) + 3;
    txt = malloc(need);
    json_t *prov = NULL;
    if (txt) {
        snprintf(txt, need, "{%s}", version_json_fields());
        prov = json_loads(txt, 0, NULL);
        free(txt);
    }
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    char obuf[32];
    const char *ob = NULL;
    if (ar_config()->openblas_threads) {      /* OPENBLAS_NUM_THREADS, as the boundary read it */
        snprintf(obuf, sizeof obuf, "%zu", ar_config()->openblas_threads);
        ob = obuf;
    }
    int bad = !h || !prov || !params || !precision;
    if (!bad) {
        bad |= json_object_set_new(h, "sweep", json_string(sweep));
        bad |= json_object_set_new(h, "shard", json_integer((json_int_t)sel.k));
        bad |= json_object_set_new(h, "shards", json_integer((json_int_t)sel.n));
        bad |= json_object_set_new(h, "plan", json_string(plan));
        bad |= json_object_set(h, "params", params);
        bad |= json_object_set(h, "precision", precision);
        bad |= json_object_set(h, "provenance", prov);
        bad |= json_object_set_new(h, "threads", json_pack("{s:s?,s:i}", "openblas", ob, "flint",
                                                           flint_get_num_threads()));
        bad |= json_object_set_new(h, "host", json_string(host));
    }
    json_decref(params);
    json_decref(precision);
    json_decref(prov);
    if (bad) {
        json_decref(h);
        return NULL;
    }
    return h;
}

static const char *const same_keys[] = { "sweep", "shard", "shards", "plan", "params", "precision", "provenance" };

/* 1 if the file's header has the members of `header` that define the shard */
static int same_header(const json_t *a, const json_t *header)
{
    for (size_t k = 0; k < sizeof same_keys / sizeof same_keys[0]; k++)
        if (!json_equal(json_object_get(a, same_keys[k]), json_object_get(header, same_keys[k])))
            return 0;
    return 1;
}

static int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* 1 if path is a regular file itself (not reached through a symbolic link). */
static int regular(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* The index of id's record in f, or f->nrec. */
static size_t find_ix(const shardfile_t *f, const char *id)
{
    size_t i = 0;
    for (; i < f->nrec; i++)
        if (!strcmp(json_string_value(json_object_get(f->rec[i], "point")), id))
            break;
    return i;
}

static const json_t *find_rec(const shardfile_t *f, const char *id)
{
    size_t i = find_ix(f, id);
    return i < f->nrec ? f->rec[i] : NULL;
}

/* One notice line (without its newline) to the run's user, if any. */
static void say(const shards_notice_t *nt, const char *fmt, ...)
{
    if (!nt || !nt->fn)
        return;
    char line[1600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    nt->fn(nt->ctx, line);
}

static ar_status shards_run_read(const char *out, json_t *header, const json_t *hr, const char *const *ids,
                                 const size_t *owner, size_t nunits, shard_sel_t sel, shards_unit_fn fn,
                                 shards_check_fn check, void *ctx, const shards_notice_t *nt, size_t mine,
                                 const shardfile_key_t *key);

ar_status shards_run(const char *out, json_t *header, const char *const *ids, const size_t *owner, size_t nunits,
                     shard_sel_t sel, shards_unit_fn fn, shards_check_fn check, void *ctx, const shards_notice_t *nt,
                     const shardfile_key_t *key)
{
    ar_status st = shardfile_check_target(out);   /* before anything is computed */
    if (st)
        return st;
    size_t mine = 0;
    for (size_t u = 0; u < nunits; u++)
        mine += owner[u] == sel.k;
    /* the header as the reader sees it (every number a double), for comparisons */
    char *ht = shardfile_dump(header);
    json_t *hr = NULL;
    if (!ht || json_read_buffer(ht, strlen(ht), "shard header", &hr)) {
        free(ht);
        ar_error_set("out of memory");
        return AR_ENOMEM;
    }
    free(ht);
    st = shards_run_read(out, header, hr, ids, owner, nunits, sel, fn, check, ctx, nt, mine, key);
    json_decref(hr);
    return st;
}

static ar_status shards_run_read(const char *out, json_t *header, const json_t *hr, const char *const *ids,
                                 const size_t *owner, size_t nunits, shard_sel_t sel, shards_unit_fn fn,
                                 shards_check_fn check, void *ctx, const shards_notice_t *nt, size_t mine,
                                 const shardfile_key_t *key)
{
    char eout[1024];   /* the path as it may be printed */
    ar_escape(out, eout, sizeof eout);
    /* complete already? */
    if (exists(out)) {
        shardfile_t f;
        if (shardfile_read(out, 1, key, &f) == AR_OK) {
            int ok = same_header(f.header, hr) && f.nrec == mine;
            if (!ok)
                ar_error_set("another run's header or points");
            for (size_t u = 0; ok && u < nunits; u++) {
                if (owner[u] != sel.k)
                    continue;
                const json_t *r = find_rec(&f, ids[u]);
                ok = r && check(u, ctx, r, out) == AR_OK;
            }
            shardfile_clear(&f);
            if (ok) {
                say(nt, "attnrank: shard %zu/%zu: %s is complete (%zu points), skipped", sel.k, sel.n, eout,
                        mine);
                return AR_OK;
            }
        }
        say(nt, "attnrank: shard %zu/%zu: %s is not this shard's complete result (%s); computing it again",
                sel.k, sel.n, eout, *ar_error_get() ? ar_error_get() : "another run");
    }
    /* an interrupted run's lines (not under a key: a partial file has no HMAC
     * yet, so its records could not be told from forged ones) */
    size_t len = strlen(out);
    char *partial = malloc(len + 9);
    if (!partial) {
        ar_error_set("out of memory");
        return AR_ENOMEM;
    }
    memcpy(partial, out, len);
    memcpy(partial + len, ".partial", 9);
    shardfile_t pf;
    int have_pf = 0;
    if (regular(partial) && key)
        say(nt, "attnrank: shard %zu/%zu: %s.partial not resumed under a shard key; computing every point",
                sel.k, sel.n, eout);
    else if (regular(partial) && shardfile_read(partial, 0, NULL, &pf) == AR_OK) {
        have_pf = same_header(pf.header, hr);
        if (!have_pf)
            shardfile_clear(&pf);
    }
    free(partial);
    size_t reused = 0;
    shardfile_writer_t *w;
    ar_status st = shardfile_begin(out, header, key, &w);
    size_t done = 0;
    for (size_t u = 0; st == AR_OK && u < nunits; u++) {
        if (owner[u] != sel.k)
            continue;
        json_t *rec = NULL;
        size_t oi = have_pf ? find_ix(&pf, ids[u]) : 0;
        if (have_pf && oi < pf.nrec && check(u, ctx, pf.rec[oi], "partial") == AR_OK) {
            st = shardfile_put_text(w, pf.text[oi]);   /* the line as it was written */
            reused++;
        } else {
            if (nt && nt->progress)
                say(nt, "[shard %zu/%zu] %zu/%zu %s", sel.k, sel.n, done + 1, mine, ids[u]);
            st = fn(u, ctx, &rec);
            if (st == AR_OK)
                st = shardfile_put(w, rec);
        }
        json_decref(rec);
        done++;
    }
    if (have_pf)
        shardfile_clear(&pf);
    if (st) {
        if (w)
            shardfile_abandon(w);
        return st;
    }
    st = shardfile_end(w);
    if (st == AR_OK && reused)
        say(nt, "attnrank: shard %zu/%zu: %zu of %zu points kept from %s.partial", sel.k, sel.n, reused,
                mine, eout);
    return st;
}

void shards_free_all(shardfile_t *files, size_t nf)
{
    for (size_t i = 0; files && i < nf; i++)
        shardfile_clear(&files[i]);
    free(files);
}

ar_status shards_read_all(char *const *paths, size_t nf, const shardfile_key_t *key, shardfile_t **files)
{
    *files = NULL;
    shardfile_t *f = ar_calloc(nf ? nf : 1, sizeof *f, "shard files");
    if (!f)
        return AR_ENOMEM;
    ar_status st = AR_OK;
    for (size_t i = 0; i < nf && st == AR_OK; i++)
        st = shardfile_read(paths[i], 1, key, &f[i]);
    if (st == AR_OK)
        st = shardset_check(f, nf);
    if (st) {
        shards_free_all(f, nf);
        return st;
    }
    *files = f;
    return AR_OK;
}

char *shards_prov_text(const json_t *header)
{
    char *t = shardfile_dump(json_object_get(header, "provenance"));
    if (!t)
        return NULL;
    size_t n = strlen(t);                 /* "{...}" -> "..." */
    if (n >= 2) {
        memmove(t, t + 1, n - 2);
        t[n - 2] = '\0';
    }
    return t;
}

json_t *verify_shard_params(const vplan_t *p)
{
    return json_pack("{s:s?,s:i,s:s}", "claim", p->claim[0] ? p->claim : NULL, "d", p->dim, "tier",
                     vplan_tier_name(p->tier));
}

ar_status verify_plan_owners(const vplan_t *p, size_t n, size_t **owner, const char ***ids)
{
    *owner = ar_calloc(p->nunits ? p->nunits : 1, sizeof **owner, "shard owners");
    *ids = ar_calloc(p->nunits ? p->nunits : 1, sizeof **ids, "shard ids");
    double *cost = ar_calloc(p->nunits ? p->nunits : 1, sizeof *cost, "shard costs");
    ar_status st = *owner && *ids && cost ? AR_OK : AR_ENOMEM;
    for (size_t u = 0; st == AR_OK && u < p->nunits; u++) {
        cost[u] = p->units[u].cost;
        (*ids)[u] = p->units[u].id;
    }
    if (st == AR_OK)
        st = shard_assign(cost, p->nunits, n, *owner);
    free(cost);
    if (st) {
        free(*owner);
        free((void *)*ids);
        *owner = NULL;
        *ids = NULL;
    }
    return st;
}

ar_status verify_shards_load(const shardfile_t *files, size_t nf, vplan_t *p, vresult_t **res, char **prov)
{
    *res = NULL;
    *prov = NULL;
    memset(p, 0, sizeof *p);
    const shardfile_t *f0 = &files[0];
    if (strcmp(f0->sweep, "verify")) {
        ar_error_set("%s: a shard of 'attnrank %s', not of 'attnrank verify'", f0->what, f0->sweep);
        return AR_EINVAL;
    }
    const json_t *pa = json_object_get(f0->header, "params");
    const json_t *c = json_object_get(pa, "claim"), *d = json_object_get(pa, "d"), *t = json_object_get(pa, "tier");
    vtier_t tier;
    char where[600];
    snprintf(where, sizeof where, "%s: header", f0->what);
    size_t dim = 0;
    ar_status st;
    if (!json_is_object(pa) || json_object_size(pa) != 3 || !(json_is_null(c) || json_is_string(c)) ||
        !json_is_string(t) || shardrec_size(pa, "d", 64, where, &dim) ||
        vplan_tier_parse("tier", json_string_value(t), &tier)) {
        ar_error_set("%s: header: 'params' must be {\"claim\":null|STRING,\"d\":D,\"tier\":TIER} of attnrank verify",
                     f0->what);
        return AR_EINVAL;
    }
    (void)d;
    if ((st = vplan_build(json_is_string(c) ? json_string_value(c) : NULL, (int)dim, tier, p))) {
        ar_error_set("%s: its parameters select nothing in this attnrank's laws table (%s)", f0->what,
                     ar_error_get());
        return AR_EINVAL;
    }
    if (strcmp(p->digest, f0->plan)) {
        ar_error_set("%s: shard of another point list than this attnrank's (plan %.12s..., here %.12s...): another "
                     "version of the laws table", f0->what, f0->plan, p->digest);
        vplan_clear(p);
        return AR_EINVAL;
    }
    size_t *owner;
    const char **ids;
    if ((st = verify_plan_owners(p, f0->shards, &owner, &ids))) {
        vplan_clear(p);
        return st;
    }
    const json_t **rec = ar_calloc(p->nunits ? p->nunits : 1, sizeof *rec, "records");
    vresult_t *r = ar_calloc(p->nunits ? p->nunits : 1, sizeof *r, "verify results");
    st = rec && r ? shardset_collect(files, nf, ids, owner, p->nunits, rec) : AR_ENOMEM;
    for (size_t u = 0; st == AR_OK && u < p->nunits; u++) {
        shardset_where(files, nf, rec[u], where, sizeof where);   /* file and line, for messages */
        st = vplan_parse_record(p, u, rec[u], where, &r[u]);
    }
    free(owner);
    free((void *)ids);
    free((void *)rec);
    if (st == AR_OK && !(*prov = shards_prov_text(f0->header)))
        st = AR_ENOMEM;
    if (st) {
        free(r);
        vplan_clear(p);
        return st;
    }
    *res = r;
    return AR_OK;
}

ar_status shards_key_load(const char *path, int from_env, shardfile_key_t *storage, const shardfile_key_t **key)
{
    *key = NULL;
    if (!path || (from_env && !*path))
        return AR_OK;
    if (!*path || strlen(path) >= 4096) {
        ar_error_set("%s: the shard key file name must be 1..4095 bytes", from_env ? "ATTNRANK_SHARD_KEY" : "--key");
        return AR_EINVAL;
    }
    ar_status st = shardfile_key_load(path, storage);
    if (st) {
        if (from_env) {
            char msg[600];
            snprintf(msg, sizeof msg, "%s", ar_error_get());
            ar_error_set("ATTNRANK_SHARD_KEY: %s", msg);
        }
        return st;
    }
    *key = storage;
    return AR_OK;
}

ar_status shards_key_env_check(const char *path)
{
    shardfile_key_t k;
    const shardfile_key_t *kp;
    ar_status st = shards_key_load(path, 1, &k, &kp);
    memset(&k, 0, sizeof k);
    return st;
}

ar_status shards_old_header(const json_t *header, const char *what)
{
    const json_t *params = json_object_get(header, "params");
    if (json_is_object(params) && json_object_get(params, "options") && !json_object_get(params, "spec")) {
        const json_t *v = json_object_get(json_object_get(header, "provenance"), "attnrank");
        char ver[32];
        ar_escape(json_is_string(v) ? json_string_value(v) : "?", ver, sizeof ver);
        ar_error_set("%s: a shard header of the older format (command-line options in 'params', written by "
                     "attnrank %s before the sweeps took typed specs): this attnrank reads only headers that store "
                     "the sweep's spec (doc/cluster.md); compute the shards again with it", what, ver);
        return AR_EINVAL;
    }
    return AR_OK;
}
