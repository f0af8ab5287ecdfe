/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shardfile.c -- shard files of a sweep (see shardfile.h). */
#include "constructions/formats/shardfile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "constructions/formats/json.h"
#include "base/infile.h"
#include "base/sha256.h"
#include "numerics/shard.h"

#define DUMP_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(17))

struct shardfile_writer {
    FILE *f;
    char *path, *partial;
    sha256_stream_t h;
    int keyed;
    hmac_sha256_stream_t mac;
    size_t nrec;
};

char *shardfile_dump(const json_t *v)
{
    return json_dumps(v, DUMP_FLAGS);
}

static void writer_free(shardfile_writer_t *w)
{
    if (!w)
        return;
    if (w->f)
        fclose(w->f);
    free(w->path);
    free(w->partial);
    free(w);
}

/* Write text and '\n' into the file and the hash. */
static ar_status put_line(shardfile_writer_t *w, const char *text)
{
    size_t n = strlen(text);
    if (fwrite(text, 1, n, w->f) != n || fputc('\n', w->f) == EOF || fflush(w->f) != 0) {
        ar_error_set("%s: write error: %s", w->partial, strerror(errno));
        return AR_EIO;
    }
    sha256_stream_update(&w->h, text, n);
    sha256_stream_update(&w->h, "\n", 1);
    if (w->keyed) {
        hmac_sha256_stream_update(&w->mac, text, n);
        hmac_sha256_stream_update(&w->mac, "\n", 1);
    }
    return AR_OK;
}

ar_status shardfile_key_load(const char *path, shardfile_key_t *key)
{
    memset(key, 0, sizeof *key);
    char *buf;
    size_t n;
    ar_status st = infile_read_all(path, "shard key file", SHARDFILE_KEY_MAX, &buf, &n);
    if (st)
        return st;
    if (n < SHARDFILE_KEY_MIN) {
        memset(buf, 0, n);
        free(buf);
        ar_error_set("%s: a shard key file must hold %d to %d bytes, this one has %zu (make one with: head -c 32 "
                     "/dev/urandom > FILE; chmod 600 FILE)", path, SHARDFILE_KEY_MIN, SHARDFILE_KEY_MAX, n);
        return AR_EINVAL;
    }
    memcpy(key->bytes, buf, n);
    key->len = n;
    memset(buf, 0, n);
    free(buf);
    return AR_OK;
}

/* 1 if the directory part of path (or ".") is a directory we may write in. */
static int dir_writable(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!dir)
        return 0;
    struct stat sb;
    int ok = stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) && access(dir, W_OK | X_OK) == 0;
    free(dir);
    return ok;
}

/* NULL if path is absent or a regular file (or, with link_ok, a symbolic
 * link, which is removed and never followed), else why not. */
static const char *not_replaceable(const char *path, int link_ok)
{
    struct stat sb;
    if (lstat(path, &sb) != 0)
        return errno == ENOENT ? NULL : "cannot be examined";
    if (S_ISLNK(sb.st_mode))
        return link_ok ? NULL : "is a symbolic link (a shard file is never written through one)";
    if (S_ISDIR(sb.st_mode))
        return "is a directory";
    if (!S_ISREG(sb.st_mode))
        return "is not a regular file";
    return NULL;
}

ar_status shardfile_check_target(const char *path)
{
    size_t len = strlen(path);
    if (len == 0 || path[len - 1] == '/') {
        ar_error_set("--out '%s': not a file name", path);
        return AR_EINVAL;
    }
    if (len > 4000) {
        ar_error_set("--out: a path of %zu bytes is too long", len);
        return AR_EINVAL;
    }
    char partial[4100];
    snprintf(partial, sizeof partial, "%s.partial", path);
    const char *why;
    if ((why = not_replaceable(path, 0))) {
        ar_error_set("--out %s: %s", path, why);
        return AR_EINVAL;
    }
    if ((why = not_replaceable(partial, 1))) {
        ar_error_set("--out %s: %s %s", path, partial, why);
        return AR_EINVAL;
    }
    if (!dir_writable(path)) {
        ar_error_set("--out %s: its directory does not exist or cannot be written", path);
        return AR_EINVAL;
    }
    return AR_OK;
}

ar_status shardfile_begin(const char *path, const json_t *header, const shardfile_key_t *key,
                          shardfile_writer_t **out)
{
    *out = NULL;
    shardfile_writer_t *w = ar_calloc(1, sizeof *w, "shard writer");
    if (!w)
        return AR_ENOMEM;
    size_t len = strlen(path);
    w->path = ar_calloc(len + 1, 1, "shard path");
    w->partial = ar_calloc(len + 9, 1, "shard path");
    if (!w->path || !w->partial) {
        writer_free(w);
        return AR_ENOMEM;
    }
    memcpy(w->path, path, len);
    memcpy(w->partial, path, len);
    memcpy(w->partial + len, ".partial", 8);
    if (!json_is_object(header)) {
        writer_free(w);
        ar_error_set("%s: the shard header must be an object", path);
        return AR_EINVAL;
    }
    json_t *h = json_object();
    const char *name;
    json_t *v;
    int bad = !h || json_object_set_new(h, "attnrank_shard", json_integer(SHARDFILE_FORMAT));
    json_object_foreach((json_t *)header, name, v)
        bad = bad || json_object_set(h, name, v);
    char *text = bad ? NULL : shardfile_dump(h);
    json_decref(h);
    if (!text) {
        writer_free(w);
        ar_error_set("%s: out of memory for the shard header", path);
        return AR_ENOMEM;
    }
    /* A new file, never one reached through a symbolic link (in a shared
     * directory another user may have planted PATH.partial as one): remove
     * what is there (unlink removes a link, not its target), then create
     * exclusively without following links. */
    if (unlink(w->partial) != 0 && errno != ENOENT) {
        ar_error_set("%s: cannot remove the old partial file: %s", w->partial, strerror(errno));
        free(text);
        writer_free(w);
        return AR_EIO;
    }
    int fd = open(w->partial, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0666);
    w->f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!w->f) {
        ar_error_set("%s: cannot create: %s", w->partial, strerror(errno));
        if (fd >= 0)
            close(fd);
        free(text);
        writer_free(w);
        return AR_EIO;
    }
    sha256_stream_init(&w->h);
    if (key) {
        w->keyed = 1;
        hmac_sha256_stream_init(&w->mac, key->bytes, key->len);
    }
    ar_status st = put_line(w, text);
    free(text);
    if (st) {
        writer_free(w);
        return st;
    }
    *out = w;
    return AR_OK;
}

ar_status shardfile_put(shardfile_writer_t *w, const json_t *record)
{
    if (!json_is_object(record) || !json_is_string(json_object_get(record, "point")) ||
        json_object_get(record, "end")) {
        ar_error_set("%s: a record must be an object with a string 'point' and no 'end'", w->partial);
        return AR_EINVAL;
    }
    char *text = shardfile_dump(record);
    if (!text) {
        ar_error_set("%s: out of memory for a record", w->partial);
        return AR_ENOMEM;
    }
    ar_status st = put_line(w, text);
    free(text);
    if (st == AR_OK)
        w->nrec++;
    return st;
}

ar_status shardfile_put_text(shardfile_writer_t *w, const char *line)
{
    if (strchr(line, '\n')) {
        ar_error_set("%s: a record line holds a newline", w->partial);
        return AR_EINVAL;
    }
    ar_status st = put_line(w, line);
    if (st == AR_OK)
        w->nrec++;
    return st;
}

ar_status shardfile_end(shardfile_writer_t *w)
{
    char hex[65], mac[65], line[240];
    sha256_stream_hex(&w->h, hex);
    if (w->keyed) {
        hmac_sha256_stream_hex(&w->mac, mac);
        snprintf(line, sizeof line, "{\"end\":true,\"records\":%zu,\"sha256\":\"%s\",\"hmac\":\"%s\"}\n", w->nrec,
                 hex, mac);
    } else
        snprintf(line, sizeof line, "{\"end\":true,\"records\":%zu,\"sha256\":\"%s\"}\n", w->nrec, hex);
    size_t n = strlen(line);
    int ok = fwrite(line, 1, n, w->f) == n && fflush(w->f) == 0 && fsync(fileno(w->f)) == 0;
    int cl = fclose(w->f);
    w->f = NULL;
    if (!ok || cl != 0) {
        ar_error_set("%s: write error: %s", w->partial, strerror(errno));
        writer_free(w);
        return AR_EIO;
    }
    if (rename(w->partial, w->path) != 0) {
        ar_error_set("%s: cannot rename to %s: %s", w->partial, w->path, strerror(errno));
        writer_free(w);
        return AR_EIO;
    }
    writer_free(w);
    return AR_OK;
}

void shardfile_abandon(shardfile_writer_t *w)
{
    writer_free(w);
}

/* ---- reading ---------------------------------------------------------- */

void shardfile_clear(shardfile_t *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->nrec; i++) {
        json_decref(f->rec[i]);
        free(f->text ? f->text[i] : NULL);
    }
    free(f->text);
    json_decref(f->header);
    free(f->rec);
    free(f->line);
    free(f->what);
    memset(f, 0, sizeof *f);
}

ar_status shardrec_size(const json_t *o, const char *key, size_t max, const char *where, size_t *v)
{
    const json_t *x = json_object_get(o, key);
    double d = json_is_number(x) ? json_number_value(x) : -1;
    const double lim = 9007199254740992.0;   /* 2^53 */
    if (!json_is_number(x) || !(d >= 0) || d != floor(d) || d > lim || d > (double)max) {
        ar_error_set("%s: '%s' must be an integer in [0, %.0f]", where, key, fmin((double)max, lim));
        return AR_EINVAL;
    }
    *v = (size_t)d;
    return AR_OK;
}

ar_status shardrec_real(const json_t *o, const char *key, int allow_null, const char *where, double *v)
{
    const json_t *x = json_object_get(o, key);
    if (allow_null && json_is_null(x)) {
        *v = NAN;
        return AR_OK;
    }
    if (!json_is_number(x) || !isfinite(json_number_value(x))) {
        ar_error_set("%s: '%s' must be a finite number%s", where, key, allow_null ? " or null" : "");
        return AR_EINVAL;
    }
    *v = json_number_value(x);
    return AR_OK;
}

int shardrec_text_ok(const char *s, shardrec_text_t cls)
{
    size_t n = strlen(s);
    if (cls == SHARDREC_NAME && n && (s[0] == ' ' || s[n - 1] == ' '))
        return 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        int ok;
        if (cls == SHARDREC_NAME)
            ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                 (*p && strchr(" _-.,:;=+/()", *p));
        else
            ok = *p >= 0x20 && *p <= 0x7e && *p != '|' && *p != '\\' && *p != '"' && *p != '`';
        if (!ok)
            return 0;
    }
    return 1;
}

ar_status shardrec_string(const json_t *o, const char *key, shardrec_text_t cls, char *buf, size_t cap,
                          const char *where)
{
    const json_t *x = json_object_get(o, key);
    if (!json_is_string(x) || json_string_length(x) >= cap) {
        ar_error_set("%s: '%s' must be a string of at most %zu bytes", where, key, cap - 1);
        return AR_EINVAL;
    }
    if (strlen(json_string_value(x)) != json_string_length(x) || !shardrec_text_ok(json_string_value(x), cls)) {
        ar_error_set("%s: '%s' holds characters attnrank never writes there (%s)", where, key,
                     cls == SHARDREC_NAME ? "a name: letters, digits and \" _-.,:;=+/()\""
                                          : "a note: printable ASCII without | \\ \" `");
        return AR_EINVAL;
    }
    memcpy(buf, json_string_value(x), json_string_length(x) + 1);
    return AR_OK;
}

ar_status shardrec_bool(const json_t *o, const char *key, const char *where, int *v)
{
    const json_t *x = json_object_get(o, key);
    if (!json_is_boolean(x)) {
        ar_error_set("%s: '%s' must be true or false", where, key);
        return AR_EINVAL;
    }
    *v = json_is_true(x);
    return AR_OK;
}

int shardrec_set_real(json_t *o, const char *key, double v)
{
    return json_object_set_new(o, key, isfinite(v) ? json_real(v) : json_null());
}

/* The header's members (one line "WHAT:1: ..." otherwise). */
static ar_status check_header(shardfile_t *out)
{
    const json_t *h = out->header;
    char where[64];
    snprintf(where, sizeof where, "line 1 (header)");
    size_t fmt;
    const json_t *sw = json_object_get(h, "sweep"), *pl = json_object_get(h, "plan");
    if (!json_is_object(h) || !json_object_get(h, "attnrank_shard")) {
        ar_error_set("%s: not a shard file (its first line is not an attnrank shard header)", out->what);
        return AR_EINVAL;
    }
    if (shardrec_size(h, "attnrank_shard", 1000, where, &fmt) || fmt != SHARDFILE_FORMAT) {
        ar_error_set("%s: shard file format %s, this attnrank reads format %d", out->what,
                     json_is_number(json_object_get(h, "attnrank_shard")) ? "of another version" : "unknown",
                     SHARDFILE_FORMAT);
        return AR_EINVAL;
    }
    if (!json_is_string(sw) || json_string_length(sw) == 0 || json_string_length(sw) > 32) {
        ar_error_set("%s: header: 'sweep' must be a short string", out->what);
        return AR_EINVAL;
    }
    if (!json_is_string(pl) || !sha256_is_hex(json_string_value(pl))) {
        ar_error_set("%s: header: 'plan' must be 64 lowercase hex digits", out->what);
        return AR_EINVAL;
    }
    if (!json_object_get(h, "params") || !json_object_get(h, "precision") ||
        !json_is_object(json_object_get(h, "provenance"))) {
        ar_error_set("%s: header: 'params', 'precision' and the object 'provenance' are required", out->what);
        return AR_EINVAL;
    }
    /* the provenance is printed with merged results: short names only */
    const json_t *pv = json_object_get(h, "provenance");
    const char *pk;
    json_t *pval;
    int pok = json_object_size(pv) <= 16;
    json_object_foreach((json_t *)pv, pk, pval)
        pok = pok && strlen(pk) <= 32 && shardrec_text_ok(pk, SHARDREC_NAME) && json_is_string(pval) &&
              json_string_length(pval) <= 64 && strlen(json_string_value(pval)) == json_string_length(pval) &&
              shardrec_text_ok(json_string_value(pval), SHARDREC_NAME);
    if (!pok) {
        ar_error_set("%s: header: 'provenance' must hold at most 16 short names (version strings)", out->what);
        return AR_EINVAL;
    }
    ar_status st;
    if ((st = shardrec_size(h, "shards", SHARD_MAX, where, &out->shards)) ||
        (st = shardrec_size(h, "shard", SHARD_MAX, where, &out->shard))) {
        ar_error_set("%s: header: 'shard' and 'shards' must be integers 0 <= shard < shards <= %d", out->what,
                     SHARD_MAX);
        return st;
    }
    if (out->shards < 1 || out->shard >= out->shards) {
        ar_error_set("%s: header: shard %zu of %zu (need 0 <= shard < shards)", out->what, out->shard, out->shards);
        return AR_EINVAL;
    }
    out->sweep = json_string_value(sw);
    out->plan = json_string_value(pl);
    return AR_OK;
}

static int cmp_rec_id(const void *pa, const void *pb, void *ctx)
{
    const shardfile_t *f = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int c = strcmp(json_string_value(json_object_get(f->rec[a], "point")),
                   json_string_value(json_object_get(f->rec[b], "point")));
    return c ? c : (a > b) - (a < b);
}

/* No point twice in one file. */
static ar_status check_unique(const shardfile_t *f)
{
    if (f->nrec < 2)
        return AR_OK;
    size_t *ix = ar_calloc(f->nrec, sizeof *ix, "shard index");
    if (!ix)
        return AR_ENOMEM;
    for (size_t i = 0; i < f->nrec; i++)
        ix[i] = i;
    qsort_r(ix, f->nrec, sizeof *ix, cmp_rec_id, (void *)f);
    for (size_t i = 1; i < f->nrec; i++) {
        const char *a = json_string_value(json_object_get(f->rec[ix[i - 1]], "point"));
        const char *b = json_string_value(json_object_get(f->rec[ix[i]], "point"));
        if (!strcmp(a, b)) {
            size_t la = f->line[ix[i - 1]], lb = f->line[ix[i]];
            free(ix);
            ar_error_set("%s:%zu: point '%s' present twice (also line %zu)", f->what, lb, b, la);
            return AR_EINVAL;
        }
    }
    free(ix);
    return AR_OK;
}

/* The end record of a complete file: exactly {"end":true,"records":R,"sha256":H}
 * and, optionally, "hmac":M (required and checked against mac when a key is given). */
static ar_status check_end(shardfile_t *f, const json_t *e, size_t lineno, const char *hash, const char *mac)
{
    size_t r;
    char where[64];
    snprintf(where, sizeof where, "%zu (end record)", lineno);
    const json_t *hv = json_object_get(e, "sha256"), *mv = json_object_get(e, "hmac");
    if (json_object_size(e) != 3 + (mv != NULL) || !json_is_true(json_object_get(e, "end")) || !json_is_string(hv) ||
        !sha256_is_hex(json_string_value(hv)) || (mv && (!json_is_string(mv) || !sha256_is_hex(json_string_value(mv)))) ||
        shardrec_size(e, "records", SHARDFILE_MAX_RECORDS, where, &r)) {
        ar_error_set("%s:%zu: malformed end record (expected {\"end\":true,\"records\":N,\"sha256\":HEX} and "
                     "optionally \"hmac\":HEX)", f->what, lineno);
        return AR_EINVAL;
    }
    f->keyed = mv != NULL;
    if (mac && !mv) {
        ar_error_set("%s: no HMAC in its end record: not written with the shard key (--key / ATTNRANK_SHARD_KEY)",
                     f->what);
        return AR_EINVAL;
    }
    if (mac && !sha256_hex_equal(json_string_value(mv), mac)) {
        ar_error_set("%s: its HMAC is not the shard key's: not written by a holder of this key (forged, or another "
                     "key)", f->what);
        return AR_EINVAL;
    }
    if (r != f->nrec) {
        ar_error_set("%s: corrupted: the end record counts %zu records, the file has %zu", f->what, r, f->nrec);
        return AR_EINVAL;
    }
    if (strcmp(json_string_value(hv), hash) != 0) {
        ar_error_set("%s: corrupted: SHA-256 of its records is %.12s..., the end record says %.12s...", f->what, hash,
                     json_string_value(hv));
        return AR_EINVAL;
    }
    return AR_OK;
}

ar_status shardfile_parse(const char *buf, size_t n, const char *what, int complete, const shardfile_key_t *key,
                          shardfile_t *out)
{
    memset(out, 0, sizeof *out);
    size_t wl = strlen(what);
    out->what = ar_calloc(wl + 1, 1, "shard file name");
    if (!out->what)
        return AR_ENOMEM;
    memcpy(out->what, what, wl);
    ar_status st = AR_OK;
    size_t pos = 0, lineno = 0, cap = 0;
    int ended = 0;
    while (pos < n) {
        const char *nl = memchr(buf + pos, '\n', n - pos);
        lineno++;
        if (!nl) {                              /* the last line has no newline */
            if (!complete)
                break;
            ar_error_set("%s: truncated: line %zu is incomplete (no end record)", what, lineno);
            st = AR_EINVAL;
            goto fail;
        }
        size_t len = (size_t)(nl - (buf + pos));
        if (ended) {
            ar_error_set("%s:%zu: data after the end record", what, lineno);
            st = AR_EINVAL;
            goto fail;
        }
        char where[64];
        snprintf(where, sizeof where, "%s:%zu", what, lineno);
        json_t *v = NULL;
        if (len == 0) {
            ar_error_set("%s: empty line", where);
            st = AR_EINVAL;
        } else if ((st = json_read_buffer(buf + pos, len, where, &v)) == AR_OK && !json_is_object(v)) {
            ar_error_set("%s: not a JSON object", where);
            st = AR_EINVAL;
        }
        if (st) {
            json_decref(v);
            if (!complete && lineno > 1) {    /* a partial file: keep the records before the bad line */
                st = AR_OK;
                break;
            }
            goto fail;
        }
        if (lineno == 1) {
            out->header = v;
            if ((st = check_header(out)))
                goto fail;
        } else if (json_object_get(v, "end")) {
            if (!complete) {
                json_decref(v);
                break;
            }
            char hash[65], mac[65];
            sha256_hex(buf, pos, hash);
            if (key)
                hmac_sha256_hex(key->bytes, key->len, buf, pos, mac);
            st = check_end(out, v, lineno, hash, key ? mac : NULL);
            json_decref(v);
            if (st)
                goto fail;
            ended = 1;
        } else {
            const json_t *id = json_object_get(v, "point");
            if (!json_is_string(id) || json_string_length(id) == 0 || json_string_length(id) > 200) {
                json_decref(v);
                if (!complete)
                    break;
                ar_error_set("%s: a record needs a non-empty string 'point' (at most 200 bytes)", where);
                st = AR_EINVAL;
                goto fail;
            }
            if (out->nrec >= SHARDFILE_MAX_RECORDS) {
                json_decref(v);
                ar_error_set("%s: more than %d records", what, SHARDFILE_MAX_RECORDS);
                st = AR_EINVAL;
                goto fail;
            }
            if (out->nrec == cap) {
                size_t nc = cap ? 2 * cap : 64;
                json_t **r = realloc(out->rec, nc * sizeof *r);
                if (r)
                    out->rec = r;
                size_t *l = r ? realloc(out->line, nc * sizeof *l) : NULL;
                if (l)
                    out->line = l;
                char **tx = l ? realloc(out->text, nc * sizeof *tx) : NULL;
                if (tx)
                    out->text = tx;
                if (!r || !l || !tx) {
                    json_decref(v);
                    ar_error_set("%s: out of memory", what);
                    st = AR_ENOMEM;
                    goto fail;
                }
                cap = nc;
            }
            char *tx = malloc(len + 1);
            if (!tx) {
                json_decref(v);
                ar_error_set("%s: out of memory", what);
                st = AR_ENOMEM;
                goto fail;
            }
            memcpy(tx, buf + pos, len);
            tx[len] = '\0';
            out->text[out->nrec] = tx;
            out->rec[out->nrec] = v;
            out->line[out->nrec++] = lineno;
        }
        pos += len + 1;
    }
    if (!out->header) {
        ar_error_set("%s: empty file (no shard header)", what);
        st = AR_EINVAL;
        goto fail;
    }
    if (complete && !ended) {
        ar_error_set("%s: truncated: no end record after line %zu", what, lineno);
        st = AR_EINVAL;
        goto fail;
    }
    if ((st = check_unique(out)))
        goto fail;
    return AR_OK;
fail:
    shardfile_clear(out);
    return st;
}

ar_status shardfile_read(const char *path, int complete, const shardfile_key_t *key, shardfile_t *out)
{
    memset(out, 0, sizeof *out);
    FILE *f;
    long long sz;
    ar_status st = infile_open(path, "shard file", INFILE_REGULAR, &f, &sz);
    if (st)
        return st;
    if (sz < 0 || (unsigned long long)sz > SHARDFILE_MAX_BYTES) {
        fclose(f);
        ar_error_set("%s: file too large for a shard file (%lld bytes, limit %zu)", path, sz, SHARDFILE_MAX_BYTES);
        return AR_EINVAL;
    }
    char *buf = ar_calloc((size_t)sz + 1, 1, path);
    if (!buf) {
        fclose(f);
        return AR_ENOMEM;
    }
    size_t got = fread(buf, 1, (size_t)sz + 1, f);
    int err = ferror(f);
    fclose(f);
    if (err || got != (size_t)sz) {
        free(buf);
        ar_error_set("%s: %s", path, err ? "read error" : "changed size while being read");
        return err ? AR_EIO : AR_EINVAL;
    }
    st = shardfile_parse(buf, got, path, complete, key, out);
    free(buf);
    return st;
}

/* ---- sets ------------------------------------------------------------- */

/* The first member of object a whose value differs in b (or is missing), or NULL. */
static const char *first_diff(const json_t *a, const json_t *b)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)a, key, v)
        if (!json_equal(v, json_object_get(b, key)))
            return key;
    json_object_foreach((json_t *)b, key, v)
        if (!json_object_get(a, key))
            return key;
    return NULL;
}

/* The text of a short value for messages (strings without quotes). */
static void value_text(const json_t *v, char *buf, size_t cap)
{
    if (!v) {
        snprintf(buf, cap, "(none)");
        return;
    }
    if (json_is_string(v)) {
        snprintf(buf, cap, "%s", json_string_value(v));
        return;
    }
    char *t = shardfile_dump(v);
    snprintf(buf, cap, "%s", t ? t : "?");
    if (strlen(buf) + 1 == cap && cap > 4)
        memcpy(buf + cap - 4, "...", 4);
    free(t);
}

ar_status shardset_check(const shardfile_t *f, size_t nf)
{
    if (nf == 0) {
        ar_error_set("merge: no shard files given");
        return AR_EINVAL;
    }
    const shardfile_t *a = &f[0];
    for (size_t i = 1; i < nf; i++) {
        const shardfile_t *b = &f[i];
        char va[96], vb[96];
        if (strcmp(a->sweep, b->sweep)) {
            ar_error_set("%s: a shard of 'attnrank %s', %s is of 'attnrank %s'", b->what, b->sweep, a->what, a->sweep);
            return AR_EINVAL;
        }
        const json_t *pa = json_object_get(a->header, "provenance"), *pb = json_object_get(b->header, "provenance");
        const char *k = first_diff(pa, pb);
        if (k) {
            value_text(json_object_get(pb, k), vb, sizeof vb);
            value_text(json_object_get(pa, k), va, sizeof va);
            ar_error_set("%s: shard from another version: %s %s, %s has %s", b->what, k, vb, a->what, va);
            return AR_EINVAL;
        }
        if (!json_equal(json_object_get(a->header, "precision"), json_object_get(b->header, "precision"))) {
            value_text(json_object_get(b->header, "precision"), vb, sizeof vb);
            value_text(json_object_get(a->header, "precision"), va, sizeof va);
            ar_error_set("%s: shard computed at another precision (%s; %s has %s)", b->what, vb, a->what, va);
            return AR_EINVAL;
        }
        const json_t *qa = json_object_get(a->header, "params"), *qb = json_object_get(b->header, "params");
        if (!json_equal(qa, qb)) {
            value_text(qb, vb, sizeof vb);
            value_text(qa, va, sizeof va);
            ar_error_set("%s: shard of other parameters (%s; %s has %s)", b->what, vb, a->what, va);
            return AR_EINVAL;
        }
        if (b->shards != a->shards) {
            ar_error_set("%s: shard %zu of %zu, but %s is one of %zu shards", b->what, b->shard, b->shards, a->what,
                         a->shards);
            return AR_EINVAL;
        }
        if (strcmp(a->plan, b->plan)) {
            ar_error_set("%s: shard of another point list (plan %.12s..., %s has %.12s...)", b->what, b->plan,
                         a->what, a->plan);
            return AR_EINVAL;
        }
        for (size_t j = 0; j < i; j++)
            if (f[j].shard == b->shard) {
                ar_error_set("%s: shard %zu/%zu given twice (also %s)", b->what, b->shard, b->shards, f[j].what);
                return AR_EINVAL;
            }
    }
    if (nf < a->shards) {
        size_t miss = 0;
        for (size_t k = 0; k < a->shards; k++) {
            int have = 0;
            for (size_t i = 0; i < nf && !have; i++)
                have = f[i].shard == k;
            if (!have) {
                miss = k;
                break;
            }
        }
        ar_error_set("merge: shard %zu/%zu missing: %zu of %zu shard files given (%s%s)", miss, a->shards, nf,
                     a->shards, a->what, nf > 1 ? ", ..." : "");
        return AR_EINVAL;
    }
    return AR_OK;
}

typedef struct {
    const char *id;
    size_t unit;
} id_ix_t;

static int cmp_id(const void *pa, const void *pb)
{
    return strcmp(((const id_ix_t *)pa)->id, ((const id_ix_t *)pb)->id);
}

ar_status shardset_collect(const shardfile_t *f, size_t nf, const char *const *ids, const size_t *owner,
                           size_t nunits, const json_t **rec)
{
    id_ix_t *ix = ar_calloc(nunits ? nunits : 1, sizeof *ix, "plan index");
    const shardfile_t **src = ar_calloc(nunits ? nunits : 1, sizeof *src, "plan index");
    size_t *srcline = ar_calloc(nunits ? nunits : 1, sizeof *srcline, "plan index");
    ar_status st = AR_OK;
    if (!ix || !src || !srcline) {
        st = AR_ENOMEM;
        goto done;
    }
    for (size_t u = 0; u < nunits; u++) {
        ix[u] = (id_ix_t){ ids[u], u };
        rec[u] = NULL;
    }
    qsort(ix, nunits, sizeof *ix, cmp_id);
    for (size_t i = 0; i < nf; i++) {
        for (size_t r = 0; r < f[i].nrec; r++) {
            id_ix_t key = { json_string_value(json_object_get(f[i].rec[r], "point")), 0 };
            const id_ix_t *hit = bsearch(&key, ix, nunits, sizeof *ix, cmp_id);
            if (!hit) {
                ar_error_set("%s:%zu: point '%s' is not in this sweep's point list", f[i].what, f[i].line[r], key.id);
                st = AR_EINVAL;
                goto done;
            }
            size_t u = hit->unit;
            if (rec[u]) {
                ar_error_set("%s:%zu: point '%s' present twice (also %s:%zu)", f[i].what, f[i].line[r], key.id,
                             src[u]->what, srcline[u]);
                st = AR_EINVAL;
                goto done;
            }
            if (owner[u] != f[i].shard) {
                ar_error_set("%s:%zu: point '%s' belongs to shard %zu/%zu, not to this file's shard %zu", f[i].what,
                             f[i].line[r], key.id, owner[u], f[i].shards, f[i].shard);
                st = AR_EINVAL;
                goto done;
            }
            rec[u] = f[i].rec[r];
            src[u] = &f[i];
            srcline[u] = f[i].line[r];
        }
    }
    for (size_t u = 0; u < nunits; u++)
        if (!rec[u]) {
            const char *file = "?";
            for (size_t i = 0; i < nf; i++)
                if (f[i].shard == owner[u])
                    file = f[i].what;
            ar_error_set("%s: incomplete: point '%s' of shard %zu is missing", file, ids[u], owner[u]);
            st = AR_EINVAL;
            goto done;
        }
done:
    free(ix);
    free(src);
    free(srcline);
    return st;
}

ar_status shardrec_sizes(const json_t *o, const char *key, size_t n, size_t max, int null_ok, const char *where,
                         size_t *v)
{
    const json_t *a = json_object_get(o, key);
    const double lim = fmin((double)max, 9007199254740992.0);   /* 2^53 */
    if (!json_is_array(a) || json_array_size(a) != n) {
        ar_error_set("%s: '%s' must be an array of %zu integers%s", where, key, n, null_ok ? " or nulls" : "");
        return AR_EINVAL;
    }
    for (size_t i = 0; i < n; i++) {
        const json_t *x = json_array_get(a, i);
        double d = json_is_number(x) ? json_number_value(x) : -1;
        if (null_ok && json_is_null(x))
            v[i] = SIZE_MAX;
        else if (json_is_number(x) && d >= 0 && d == floor(d) && d <= lim)
            v[i] = (size_t)d;
        else {
            ar_error_set("%s: '%s'[%zu] must be an integer in [0, %.0f]%s", where, key, i, lim,
                         null_ok ? " or null" : "");
            return AR_EINVAL;
        }
    }
    return AR_OK;
}

ar_status shardrec_reals(const json_t *o, const char *key, size_t n, int null_ok, const char *where, double *v)
{
    const json_t *a = json_object_get(o, key);
    if (!json_is_array(a) || json_array_size(a) != n) {
        ar_error_set("%s: '%s' must be an array of %zu numbers", where, key, n);
        return AR_EINVAL;
    }
    for (size_t i = 0; i < n; i++) {
        const json_t *x = json_array_get(a, i);
        if (null_ok && json_is_null(x))
            v[i] = NAN;
        else if (json_is_number(x) && isfinite(json_number_value(x)))
            v[i] = json_number_value(x);
        else {
            ar_error_set("%s: '%s'[%zu] must be a finite number%s", where, key, i, null_ok ? " or null" : "");
            return AR_EINVAL;
        }
    }
    return AR_OK;
}

void shardset_where(const shardfile_t *f, size_t nf, const json_t *rec, char *buf, size_t cap)
{
    snprintf(buf, cap, "?:0");
    for (size_t i = 0; i < nf; i++)
        for (size_t k = 0; k < f[i].nrec; k++)
            if (f[i].rec[k] == rec) {
                snprintf(buf, cap, "%s:%zu", f[i].what, f[i].line[k]);
                return;
            }
}
