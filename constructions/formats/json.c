/* SPDX-License-Identifier: GPL-3.0-or-later */
/* json.c -- jansson with the project's strictness on top (see json.h). */
#include "constructions/formats/json.h"
#include "base/infile.h"

#include <stdio.h>
#include <stdlib.h>

#define JSON_FLAGS (JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL)

/* 1 if v nests at most `room` arrays/objects deep (v itself included). */
static int depth_ok(const json_t *v, int room)
{
    if (!json_is_array(v) && !json_is_object(v))
        return 1;
    if (room <= 0)
        return 0;
    size_t i;
    const char *key;
    json_t *x;
    if (json_is_array(v)) {
        json_array_foreach(v, i, x)
            if (!depth_ok(x, room - 1))
                return 0;
    } else {
        json_object_foreach((json_t *)v, key, x)
            if (!depth_ok(x, room - 1))
                return 0;
    }
    return 1;
}

ar_status json_read_buffer(const char *buf, size_t n, const char *what, json_t **root)
{
    *root = NULL;
    json_error_t e;
    json_t *v = json_loadb(buf ? buf : "", buf ? n : 0, JSON_FLAGS, &e);
    if (!v) {
        ar_error_set("%s: invalid JSON at line %d, column %d (byte %d): %s", what, e.line, e.column, e.position,
                     e.text);
        return AR_EINVAL;
    }
    if (!depth_ok(v, JSON_MAX_DEPTH)) {
        json_decref(v);
        ar_error_set("%s: invalid JSON: nesting deeper than %d arrays/objects", what, JSON_MAX_DEPTH);
        return AR_EINVAL;
    }
    *root = v;
    return AR_OK;
}

ar_status json_read_file(const char *path, size_t max_bytes, json_t **root)
{
    *root = NULL;
    char *buf;
    size_t n;
    ar_status st = infile_read_all(path, "JSON file", max_bytes, &buf, &n);
    if (st)
        return st;
    st = json_read_buffer(buf, n, path, root);
    free(buf);
    return st;
}
