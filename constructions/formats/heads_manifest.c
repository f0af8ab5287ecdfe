/* SPDX-License-Identifier: GPL-3.0-or-later */
/* heads_manifest.c -- the strict reader of heads manifests (see
 * heads_manifest.h). */
#include "constructions/formats/heads_manifest.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "constructions/formats/json.h"
#include "constructions/formats/npy.h"
#include "base/infile.h"
#include "base/path.h"

#define MAX_LAYERS 1024
#define MAX_INPUTS 100000
#define MAX_FILES 1000000
#define MAX_SIDE 4096
#define MAX_POSITIONS 100000
#define MAX_PATH_BYTES 4096
#define MAX_INPUT_NAME 200

void heads_manifest_clear(heads_manifest_t *M)
{
    if (!M)
        return;
    for (size_t i = 0; M->input_name && i < M->ninputs; i++)
        free(M->input_name[i]);
    for (size_t f = 0; M->file && f < M->nfile; f++) {
        free(M->file[f].q);
        free(M->file[f].k);
    }
    free(M->nheads); free(M->dh); free(M->scale); free(M->positions); free(M->input_name); free(M->first);
    free(M->file);
    memset(M, 0, sizeof *M);
}

/* Object O has exactly the keys keys[0..n). */
static ar_status exact_keys(const json_t *O, const char *const *keys, size_t n, const char *what, const char *where)
{
    if (!json_is_object(O)) {
        ar_error_set("%s: %s is not a JSON object", what, where);
        return AR_EINVAL;
    }
    for (size_t k = 0; k < n; k++)
        if (!json_object_get(O, keys[k])) {
            ar_error_set("%s: %s lacks the key \"%s\"", what, where, keys[k]);
            return AR_EINVAL;
        }
    if (json_object_size(O) != n) {
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)O, key, v) {
            size_t k = 0;
            while (k < n && strcmp(key, keys[k]) != 0)
                k++;
            if (k == n) {
                ar_error_set("%s: %s has the unknown key \"%s\"", what, where, key);
                return AR_EINVAL;
            }
        }
    }
    return AR_OK;
}

/* The integer value of key in O, in [lo, hi]. */
static ar_status get_int(const json_t *O, const char *key, size_t lo, size_t hi, const char *what, const char *where,
                         size_t *v)
{
    const json_t *x = json_object_get(O, key);
    double d = json_is_number(x) ? json_number_value(x) : NAN;
    if (!(d >= (double)lo && d <= (double)hi) || d != floor(d)) {
        ar_error_set("%s: %s: \"%s\" must be an integer in %zu..%zu", what, where, key, lo, hi);
        return AR_EINVAL;
    }
    *v = (size_t)d;
    return AR_OK;
}

static int name_char_ok(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-';
}

/* A safe relative path: see heads_manifest.h. */
static ar_status check_path(const char *p, const char *what, const char *where)
{
    size_t n = strlen(p);
    const char *why = NULL;
    if (n == 0 || n > MAX_PATH_BYTES)
        why = "must have 1..4096 bytes";
    else if (p[0] == '/')
        why = "must be relative to the manifest's directory";
    for (size_t i = 0; !why && i < n; i++)
        if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f || p[i] == '\\')
            why = "holds a control character or a backslash";
    for (const char *c = p; !why && *c;) {       /* components */
        const char *e = strchr(c, '/');
        size_t len = e ? (size_t)(e - c) : strlen(c);
        if (len == 2 && c[0] == '.' && c[1] == '.')
            why = "has a \"..\" component";
        c += len + (e != NULL);
    }
    if (why) {
        ar_error_set("%s: %s: the path %s", what, where, why);
        return AR_EINVAL;
    }
    return AR_OK;
}

static char *dupstr(const char *s)
{
    size_t n = strlen(s);
    char *d = ar_calloc(n + 1, 1, "manifest");
    if (d)
        memcpy(d, s, n);
    return d;
}

/* The length *n of the array A (the manifest's `key`), 1..max. */
static ar_status array_len(const json_t *A, const char *key, size_t max, const char *what, size_t *n)
{
    *n = json_is_array(A) ? json_array_size(A) : 0;
    if (*n < 1 || *n > max) {
        ar_error_set("%s: \"%s\" must be an array of 1..%zu entries", what, key, max);
        return AR_EINVAL;
    }
    return AR_OK;
}

static ar_status parse_layers(const json_t *A, const char *what, heads_manifest_t *M)
{
    size_t n;
    ar_status st0 = array_len(A, "layers", MAX_LAYERS, what, &n);
    if (st0)
        return st0;
    M->nlayers = n;
    M->nheads = ar_calloc(n, sizeof *M->nheads, "manifest");
    M->dh = ar_calloc(n, sizeof *M->dh, "manifest");
    M->scale = ar_calloc(n, sizeof *M->scale, "manifest");
    M->first = ar_calloc(n, sizeof *M->first, "manifest");
    if (!M->nheads || !M->dh || !M->scale || !M->first)
        return AR_ENOMEM;
    static const char *const keys[] = { "heads", "head_dim", "scale" };
    for (size_t l = 0; l < n; l++) {
        const json_t *L = json_array_get(A, l);
        char where[48];
        snprintf(where, sizeof where, "layer %zu", l);
        ar_status st;
        if ((st = exact_keys(L, keys, 3, what, where)) ||
            (st = get_int(L, "heads", 1, MAX_SIDE, what, where, &M->nheads[l])) ||
            (st = get_int(L, "head_dim", 1, MAX_SIDE, what, where, &M->dh[l])))
            return st;
        const json_t *s = json_object_get(L, "scale");
        M->scale[l] = json_is_number(s) ? json_number_value(s) : NAN;
        if (!(M->scale[l] > 0) || !isfinite(M->scale[l])) {
            ar_error_set("%s: %s: \"scale\" must be a finite number > 0", what, where);
            return AR_EINVAL;
        }
    }
    return AR_OK;
}

static ar_status parse_inputs(const json_t *A, const char *what, heads_manifest_t *M)
{
    size_t n;
    ar_status st0 = array_len(A, "inputs", MAX_INPUTS, what, &n);
    if (st0)
        return st0;
    M->ninputs = n;
    M->positions = ar_calloc(n, sizeof *M->positions, "manifest");
    M->input_name = ar_calloc(n, sizeof *M->input_name, "manifest");
    if (!M->positions || !M->input_name)
        return AR_ENOMEM;
    static const char *const keys[] = { "name", "positions" };
    for (size_t i = 0; i < n; i++) {
        const json_t *I = json_array_get(A, i);
        char where[48];
        snprintf(where, sizeof where, "input %zu", i);
        ar_status st;
        if ((st = exact_keys(I, keys, 2, what, where)) ||
            (st = get_int(I, "positions", 2, MAX_POSITIONS, what, where, &M->positions[i])))
            return st;
        const char *nm = json_string_value(json_object_get(I, "name"));
        size_t len = nm ? strlen(nm) : 0;
        int ok = nm && len <= MAX_INPUT_NAME;
        for (size_t c = 0; ok && c < len; c++)
            ok = nm[c] >= 0x20 && nm[c] < 0x7f;
        if (!ok) {
            ar_error_set("%s: %s: \"name\" must be printable ASCII of at most %d characters", what, where,
                         MAX_INPUT_NAME);
            return AR_EINVAL;
        }
        if (!(M->input_name[i] = dupstr(nm)))
            return AR_ENOMEM;
    }
    return AR_OK;
}

static ar_status parse_files(const json_t *A, const char *what, heads_manifest_t *M)
{
    size_t want = 0;
    for (size_t l = 0; l < M->nlayers; l++) {
        M->first[l] = want;
        if (M->nheads[l] > (MAX_FILES - want) / M->ninputs) {
            ar_error_set("%s: more than %d (layer, head, input) files", what, MAX_FILES);
            return AR_EINVAL;
        }
        want += M->nheads[l] * M->ninputs;
    }
    size_t n = json_is_array(A) ? json_array_size(A) : 0;
    if (!json_is_array(A) || n != want) {
        ar_error_set("%s: \"files\" must be an array of %zu entries (one per layer, head and input), not %zu", what,
                     want, n);
        return AR_EINVAL;
    }
    M->nfile = n;
    M->file = ar_calloc(n ? n : 1, sizeof *M->file, "manifest");
    if (!M->file)
        return AR_ENOMEM;
    static const char *const keys[] = { "layer", "head", "input", "q", "k" };
    for (size_t f = 0; f < n; f++) {
        const json_t *F = json_array_get(A, f);
        char where[48];
        snprintf(where, sizeof where, "file entry %zu", f);
        size_t l, h, i;
        ar_status st;
        if ((st = exact_keys(F, keys, 5, what, where)) ||
            (st = get_int(F, "layer", 0, M->nlayers - 1, what, where, &l)) ||
            (st = get_int(F, "head", 0, M->nheads[l] - 1, what, where, &h)) ||
            (st = get_int(F, "input", 0, M->ninputs - 1, what, where, &i)))
            return st;
        const char *q = json_string_value(json_object_get(F, "q")), *k = json_string_value(json_object_get(F, "k"));
        if (!q || !k) {
            ar_error_set("%s: %s: \"q\" and \"k\" must be strings", what, where);
            return AR_EINVAL;
        }
        if ((st = check_path(q, what, where)) || (st = check_path(k, what, where)))
            return st;
        heads_manifest_file_t *E = &M->file[M->first[l] + h * M->ninputs + i];
        if (E->q) {
            ar_error_set("%s: %s names layer %zu head %zu input %zu a second time", what, where, l, h, i);
            return AR_EINVAL;
        }
        if (!(E->q = dupstr(q)) || !(E->k = dupstr(k)))
            return AR_ENOMEM;
    }
    return AR_OK;   /* n == want and no duplicates: every triple named once */
}

ar_status heads_manifest_parse(const char *buf, size_t n, const char *what, heads_manifest_t *M)
{
    memset(M, 0, sizeof *M);
    json_t *root;
    ar_status st = json_read_buffer(buf, n, what, &root);
    if (st)
        return st;
    static const char *const keys[] = { "format", "version", "model", "layers", "inputs", "files" };
    const char *fmt = NULL, *model = NULL;
    size_t version = 0;
    if (!(st = exact_keys(root, keys, 6, what, "the manifest"))) {
        fmt = json_string_value(json_object_get(root, "format"));
        model = json_string_value(json_object_get(root, "model"));
        if (!fmt || strcmp(fmt, "attnrank-heads") != 0) {
            ar_error_set("%s: \"format\" is not \"attnrank-heads\"", what);
            st = AR_EINVAL;
        }
    }
    if (!st)
        st = get_int(root, "version", 1, 1, what, "the manifest", &version);
    if (!st) {
        size_t len = model ? strlen(model) : 0;
        int ok = len >= 1 && len < MODEL_HEADS_NAME_LEN;
        for (size_t c = 0; ok && c < len; c++)
            ok = name_char_ok(model[c]);
        if (!ok) {
            ar_error_set("%s: \"model\" must be 1..%d characters of [A-Za-z0-9._-]", what, MODEL_HEADS_NAME_LEN - 1);
            st = AR_EINVAL;
        } else {
            memcpy(M->model, model, len + 1);
        }
    }
    if (!st)
        st = parse_layers(json_object_get(root, "layers"), what, M);
    if (!st)
        st = parse_inputs(json_object_get(root, "inputs"), what, M);
    if (!st)
        st = parse_files(json_object_get(root, "files"), what, M);
    json_decref(root);
    if (st)
        heads_manifest_clear(M);
    return st;
}

/* Read the .npy file rel of the manifest `manifest` (the entry `where`),
 * which must be rows x cols: opened beneath dirfd, the manifest's directory
 * `dir`, never through a symbolic link (path_open_beneath), then read from
 * that very descriptor (infile_handoff). */
static ar_status read_block(int dirfd, const char *dir, const char *manifest, const char *where, const char *rel,
                            size_t rows, size_t cols, double **x)
{
    char *p;
    ar_status st = path_join(dir, rel, &p);
    if (st)
        return st;
    int fd;
    if ((st = path_open_beneath(dirfd, rel, &fd))) {
        ar_error_set("%s: %s: %s", manifest, where, ar_error_get());
        free(p);
        return st;
    }
    size_t r, c;
    infile_handoff(p, fd);
    st = npy_read(p, x, &r, &c);
    infile_handoff_end();
    if (!st && (r != rows || c != cols)) {
        ar_error_set("%s: shape %zu x %zu, the manifest says %zu positions x head dimension %zu", p, r, c, rows, cols);
        free(*x);
        *x = NULL;
        st = AR_EINVAL;
    }
    free(p);
    return st;
}

ar_status heads_manifest_load(const char *path, size_t max_inputs, model_heads_t *D)
{
    memset(D, 0, sizeof *D);
    char *buf;
    size_t n;
    ar_status st = infile_read_all(path, "heads manifest", HEADS_MANIFEST_MAX_BYTES, &buf, &n);
    if (st)
        return st;
    heads_manifest_t M;
    st = heads_manifest_parse(buf, n, path, &M);
    free(buf);
    if (st)
        return st;
    char *dir = NULL;
    int dirfd = -1;
    size_t ni = M.ninputs < max_inputs ? M.ninputs : max_inputs;
    if (!(st = path_dir(path, &dir))) {
        dirfd = open(*dir ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dirfd < 0) {
            ar_error_set("%s: cannot open the manifest's directory: %s", path, strerror(errno));
            st = AR_EIO;
        }
    }
    if (!st)
        st = model_heads_alloc(D, M.model, M.nlayers, ni);
    for (size_t i = 0; !st && i < ni; i++)
        D->n[i] = M.positions[i];
    for (size_t l = 0; !st && l < M.nlayers; l++) {
        model_heads_layer_t *L = &D->layer[l];
        L->nheads = M.nheads[l];
        L->dh = M.dh[l];
        L->scale = M.scale[l];
        size_t w = L->nheads * L->dh;
        for (size_t i = 0; !st && i < ni; i++) {
            size_t np = M.positions[i];
            L->Q[i] = ar_calloc(np * w, sizeof(double), "manifest queries");
            L->K[i] = ar_calloc(np * w, sizeof(double), "manifest keys");
            if (!L->Q[i] || !L->K[i]) {
                st = AR_ENOMEM;
                break;
            }
            for (size_t h = 0; !st && h < L->nheads; h++) {
                const heads_manifest_file_t *E = &M.file[M.first[l] + h * M.ninputs + i];
                double *q = NULL, *k = NULL;
                char where[128];
                snprintf(where, sizeof where, "the file entry of layer %zu head %zu input %zu, \"q\"", l, h, i);
                st = read_block(dirfd, *dir ? dir : ".", path, where, E->q, np, L->dh, &q);
                snprintf(where, sizeof where, "the file entry of layer %zu head %zu input %zu, \"k\"", l, h, i);
                if (!st)
                    st = read_block(dirfd, *dir ? dir : ".", path, where, E->k, np, L->dh, &k);
                for (size_t r = 0; !st && r < np; r++) {
                    memcpy(L->Q[i] + r * w + h * L->dh, q + r * L->dh, L->dh * sizeof(double));
                    memcpy(L->K[i] + r * w + h * L->dh, k + r * L->dh, L->dh * sizeof(double));
                }
                free(q);
                free(k);
            }
        }
    }
    if (dirfd >= 0)
        close(dirfd);
    free(dir);
    heads_manifest_clear(&M);
    if (!st)
        st = model_heads_validate(D);
    if (st)
        model_heads_clear(D);
    return st;
}
