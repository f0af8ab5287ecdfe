/* json.h -- a small strict JSON reader (RFC 8259) for the model files of
 * constructions/models/real_model (TF.js model.json, SentencePiece vocab.json).
 *
 * json_parse builds a tree of json_t from a NUL-free buffer.  Strings are
 * decoded to UTF-8 (\uXXXX escapes and surrogate pairs included); numbers are
 * parsed with strtod (finite only).  Rejected with AR_EINVAL and a one-line
 * message (byte offset included): syntax errors, control characters in
 * strings, invalid escapes or surrogates, nesting deeper than 64, trailing
 * data.  Duplicate object keys are kept (json_get returns the first). */
#ifndef ATTNRANK_CONSTRUCTIONS_JSON_H
#define ATTNRANK_CONSTRUCTIONS_JSON_H

#include <stddef.h>
#include "numerics/status.h"

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json_t {
    json_type type;
    int boolean;              /* JSON_BOOL */
    double number;            /* JSON_NUMBER */
    char *str;                /* JSON_STRING: UTF-8, NUL-terminated */
    size_t len;               /* string length in bytes; item count for arrays/objects */
    struct json_t *items;     /* JSON_ARRAY / JSON_OBJECT: len values */
    char **keys;              /* JSON_OBJECT: len keys (UTF-8) */
} json_t;

/* Parse buf[0..n) into *out (caller frees with json_free).  `what` names the
 * source in error messages (e.g. the file path). */
ar_status json_parse(const char *buf, size_t n, const char *what, json_t *out);

/* Read a whole file (at most max_bytes) and parse it. AR_EIO if unreadable. */
ar_status json_read_file(const char *path, size_t max_bytes, json_t *out);

/* Free the tree (safe on a zeroed json_t). */
void json_free(json_t *v);

/* Member `key` of object v, or NULL (also when v is not an object). */
const json_t *json_get(const json_t *v, const char *key);

#endif
