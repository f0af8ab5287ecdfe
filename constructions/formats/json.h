/* SPDX-License-Identifier: GPL-3.0-or-later */
/* json.h -- the strict JSON reader for the model files of
 * constructions/models/real_model (TF.js model.json, SentencePiece
 * vocab.json), on jansson (a maintained parser instead of a hand-written
 * one).  Callers walk the tree with jansson's own API (json_object_get,
 * json_array_get, json_string_value, json_number_value, ...) and release it
 * with json_decref.
 *
 * Accepted: RFC 8259 text, any value at the top level; every number is read
 * as a double (JSON has one number type, as in JavaScript, the reference
 * runtime: json_is_real holds for every number).  Refused with AR_EINVAL and
 * one line naming the source and jansson's line, column and byte position:
 * syntax errors, raw control characters in strings, invalid escapes or lone
 * surrogates, \u0000 (strings are NUL-free C strings), invalid UTF-8,
 * numbers that overflow a double (jansson refuses them: every number is
 * finite), trailing data, duplicate object keys (JSON_REJECT_DUPLICATES:
 * JavaScript would keep the last, a first-key reader the first), and
 * nesting deeper than JSON_MAX_DEPTH arrays/objects (checked after parsing;
 * jansson's own limit is 2048). */
#ifndef ATTNRANK_CONSTRUCTIONS_JSON_H
#define ATTNRANK_CONSTRUCTIONS_JSON_H

#include <stddef.h>
#include <jansson.h>
#include "base/status.h"

#define JSON_MAX_DEPTH 64

/* Parse buf[0..n) into *root (caller releases with json_decref); `what`
 * names the source in messages.  *root is NULL on failure. */
ar_status json_read_buffer(const char *buf, size_t n, const char *what, json_t **root);

/* Read the regular file `path` (opened with infile_open; at most max_bytes,
 * else AR_EINVAL "file too large") and parse it as json_read_buffer does,
 * messages naming the path.  AR_EIO if it cannot be opened or read. */
ar_status json_read_file(const char *path, size_t max_bytes, json_t **root);

#endif
