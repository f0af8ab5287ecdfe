/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tfjs_weights.c -- TF.js weights manifest + shards (see tfjs_weights.h). */
#include "constructions/formats/tfjs_weights.h"
#include "base/infile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include "constructions/formats/json.h"
#include "base/path.h"

#define TFJS_MAX_JSON (64u << 20)
#define TFJS_MAX_COUNT ((size_t)1 << 32)

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

void tfjs_weights_clear(tfjs_weights_t *W)
{
    if (!W)
        return;
    for (size_t i = 0; i < W->n_entries; i++)
        free(W->entries[i].name);
    free(W->entries);
    for (size_t g = 0; g < W->n_groups; g++)
        free(W->group_data ? W->group_data[g] : NULL);
    free(W->group_data);
    free(W->group_bytes);
    free(W->path);
    memset(W, 0, sizeof *W);
}

/* Read shard `file` (relative to dir) and append its bytes to buf[*len..cap). */
static ar_status read_shard(const char *mpath, const char *dir, const char *file,
                            unsigned char *buf, size_t cap, size_t *len)
{
    if (strchr(file, '/') || strstr(file, "..") || !*file) {
        ar_error_set("%s: shard path '%s' not a plain file name", mpath, file);
        return AR_EINVAL;
    }
    char *p;
    ar_status ost = path_join(dir, file, &p);
    if (ost != AR_OK)
        return ost;
    char *data;
    size_t got;
    size_t room = cap - *len;
    ost = infile_read_all(p, "weight shard", room + 1, &data, &got);   /* room + 1: one byte too many is seen */
    if (ost != AR_OK) {
        if (ost == AR_EINVAL && strstr(ar_error_get(), "file too large"))
            ar_error_set("%s: shards hold more bytes than the manifest's %zu (at %s)", mpath, cap, file);
        free(p);
        return ost;
    }
    free(p);
    if (got > room) {
        free(data);
        ar_error_set("%s: shards hold more bytes than the manifest's %zu (at %s)", mpath, cap, file);
        return AR_EINVAL;
    }
    memcpy(buf + *len, data, got);
    free(data);
    *len += got;
    return AR_OK;
}

static ar_status parse_entry(const char *mpath, const json_t *e, size_t group, size_t *offset,
                             tfjs_entry_t *out)
{
    const json_t *name = json_object_get(e, "name"), *shape = json_object_get(e, "shape"),
                 *dt = json_object_get(e, "dtype");
    if (!json_is_string(name) || !json_is_array(shape) || !json_is_string(dt)) {
        ar_error_set("%s: weight entry without string name, array shape and string dtype", mpath);
        return AR_EINVAL;
    }
    const char *nm = json_string_value(name), *dts = json_string_value(dt);
    if (json_object_get(e, "quantization")) {
        ar_error_set("%s: weight '%s' is quantized (unsupported)", mpath, nm);
        return AR_EINVAL;
    }
    if (strcmp(dts, "float32") == 0) out->is_int = 0;
    else if (strcmp(dts, "int32") == 0) out->is_int = 1;
    else {
        ar_error_set("%s: weight '%s' has dtype '%s' (only float32, int32)", mpath, nm, dts);
        return AR_EINVAL;
    }
    size_t nd = json_array_size(shape);
    if (nd > TFJS_MAX_DIMS) {
        ar_error_set("%s: weight '%s' has %zu dimensions (max %d)", mpath, nm, nd, TFJS_MAX_DIMS);
        return AR_EINVAL;
    }
    size_t count = 1;
    for (size_t k = 0; k < nd; k++) {
        const json_t *d = json_array_get(shape, k);
        double x = json_number_value(d);
        if (!json_is_number(d) || x < 0 || x != floor(x) || x > (double)TFJS_MAX_COUNT) {
            ar_error_set("%s: weight '%s' has a bad dimension", mpath, nm);
            return AR_EINVAL;
        }
        out->shape[k] = (size_t)x;
        if (out->shape[k] && count > TFJS_MAX_COUNT / out->shape[k]) {
            ar_error_set("%s: weight '%s' too large", mpath, nm);
            return AR_EINVAL;
        }
        count *= out->shape[k];
    }
    out->ndim = nd;
    out->count = count;
    out->offset = *offset;
    out->group = group;
    *offset += 4 * count;
    out->name = strdup(nm);
    if (!out->name) { ar_error_set("out of memory"); return AR_ENOMEM; }
    return AR_OK;
}

/* Total size of the shards `paths` (plain file names in dir), from stat:
 * sizes are checked before anything is read, so that a manifest claiming
 * huge tensors costs nothing. */
static ar_status shard_sizes(const char *path, const json_t *paths, const char *dir, size_t *have)
{
    *have = 0;
    for (size_t k = 0; k < json_array_size(paths); k++) {
        const char *pk = json_string_value(json_array_get(paths, k));
        if (!pk || strchr(pk, '/') || strstr(pk, "..") || !*pk) {
            ar_error_set("%s: shard path %zu is not a plain file name", path, k);
            return AR_EINVAL;
        }
        char *sp;
        ar_status st = path_join(dir, pk, &sp);
        if (st)
            return st;
        struct stat sb;
        int ok = stat(sp, &sb) == 0, e = errno;
        if (!ok || !S_ISREG(sb.st_mode))
            ar_error_set("%s: cannot open shard %s: %s", path, sp, ok ? "not a regular file" : strerror(e));
        free(sp);
        if (!ok || !S_ISREG(sb.st_mode))
            return AR_EIO;
        *have += (size_t)sb.st_size;
    }
    return AR_OK;
}

static ar_status load_manifest(const char *path, const json_t *root, const char *dir, tfjs_weights_t *W)
{
    const json_t *man = json_object_get(root, "weightsManifest");
    size_t ng = json_array_size(man);
    if (!json_is_array(man) || ng == 0) {
        ar_error_set("%s: no weightsManifest array", path);
        return AR_EINVAL;
    }
    size_t total = 0;
    for (size_t g = 0; g < ng; g++) {
        const json_t *ws = json_object_get(json_array_get(man, g), "weights");
        if (!json_is_array(ws)) { ar_error_set("%s: manifest group without weights", path); return AR_EINVAL; }
        total += json_array_size(ws);
    }
    W->entries = ar_calloc(total ? total : 1, sizeof *W->entries, "weight entries");
    W->group_data = ar_calloc(ng, sizeof *W->group_data, "shard groups");
    W->group_bytes = ar_calloc(ng, sizeof *W->group_bytes, "shard groups");
    if (!W->entries || !W->group_data || !W->group_bytes)
        return AR_ENOMEM;
    W->n_groups = ng;
    for (size_t g = 0; g < ng; g++) {
        const json_t *grp = json_array_get(man, g);
        const json_t *ws = json_object_get(grp, "weights"), *paths = json_object_get(grp, "paths");
        if (!json_is_array(paths) || json_array_size(paths) == 0) {
            ar_error_set("%s: manifest group without paths", path);
            return AR_EINVAL;
        }
        size_t off = 0;
        for (size_t e = 0; e < json_array_size(ws); e++) {
            ar_status st = parse_entry(path, json_array_get(ws, e), g, &off, &W->entries[W->n_entries]);
            if (st) return st;
            W->n_entries++;
        }
        W->group_bytes[g] = off;
        size_t have;
        ar_status st = shard_sizes(path, paths, dir, &have);
        if (st)
            return st;
        if (have != off) {
            ar_error_set("%s: shards hold %zu bytes, the manifest needs %zu (%s)", path, have, off,
                         have < off ? "truncated?" : "padded?");
            return AR_EINVAL;
        }
        W->group_data[g] = ar_calloc(off ? off : 1, 1, "shard data");
        if (!W->group_data[g]) return AR_ENOMEM;
        size_t len = 0;
        for (size_t k = 0; k < json_array_size(paths); k++) {
            st = read_shard(path, dir, json_string_value(json_array_get(paths, k)), W->group_data[g], off, &len);
            if (st) return st;
        }
        if (len != off) {
            ar_error_set("%s: shards hold %zu bytes, the manifest needs %zu (truncated?)", path, len, off);
            return AR_EINVAL;
        }
    }
    for (size_t i = 0; i < W->n_entries; i++)
        for (size_t j = i + 1; j < W->n_entries; j++)
            if (strcmp(W->entries[i].name, W->entries[j].name) == 0) {
                ar_error_set("%s: duplicate weight name '%s'", path, W->entries[i].name);
                return AR_EINVAL;
            }
    return AR_OK;
}

ar_status tfjs_weights_load(const char *path, tfjs_weights_t *W)
{
    memset(W, 0, sizeof *W);
    W->path = strdup(path);
    if (!W->path) {
        ar_error_set("out of memory");
        return AR_ENOMEM;
    }
    json_t *root;
    char *dir = NULL;
    ar_status st = json_read_file(path, TFJS_MAX_JSON, &root);
    if (!st)
        st = path_dir(path, &dir);
    if (!st)
        st = load_manifest(path, root, dir, W);
    free(dir);
    json_decref(root);
    if (st)
        tfjs_weights_clear(W);
    return st;
}

const tfjs_entry_t *tfjs_weights_find(const tfjs_weights_t *W, const char *name)
{
    for (size_t i = 0; i < W->n_entries; i++)
        if (strcmp(W->entries[i].name, name) == 0)
            return &W->entries[i];
    return NULL;
}

ar_status tfjs_weights_get(const tfjs_weights_t *W, const char *name, size_t ndim,
                           const size_t *dims, double **out)
{
    *out = NULL;
    const tfjs_entry_t *e = tfjs_weights_find(W, name);
    if (!e) { ar_error_set("%s: no weight named '%s'", W->path, name); return AR_EINVAL; }
    if (e->is_int) { ar_error_set("%s: weight '%s' is int32, float32 expected", W->path, name); return AR_EINVAL; }
    int ok = e->ndim == ndim;
    for (size_t k = 0; ok && k < ndim; k++)
        ok = e->shape[k] == dims[k];
    if (!ok) { ar_error_set("%s: weight '%s' has an unexpected shape", W->path, name); return AR_EINVAL; }
    double *x = ar_calloc(e->count ? e->count : 1, sizeof *x, name);
    if (!x) return AR_ENOMEM;
    const unsigned char *p = W->group_data[e->group] + e->offset;
    for (size_t i = 0; i < e->count; i++) {
        uint32_t u = le32(p + 4 * i);
        float f;
        memcpy(&f, &u, sizeof f);
        if (!isfinite(f)) {
            free(x);
            ar_error_set("%s: weight '%s' has a non-finite value at %zu", W->path, name, i);
            return AR_EINVAL;
        }
        x[i] = (double)f;
    }
    *out = x;
    return AR_OK;
}

ar_status tfjs_weights_get_i32(const tfjs_weights_t *W, const char *name, int32_t *out)
{
    const tfjs_entry_t *e = tfjs_weights_find(W, name);
    if (!e || !e->is_int || e->count != 1 || e->ndim > 1) {
        ar_error_set("%s: no int32 scalar named '%s'", W->path, name);
        return AR_EINVAL;
    }
    uint32_t u = le32(W->group_data[e->group] + e->offset);
    memcpy(out, &u, sizeof *out);
    return AR_OK;
}
