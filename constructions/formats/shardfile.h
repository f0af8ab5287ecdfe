/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shardfile.h -- shard files: the results of one shard of a sweep as JSON
 * lines, and the strict reader that `attnrank merge` and the resumption of
 * a shard trust (issue 17).
 *
 * A shard file is UTF-8 text, one JSON object per line, each line ending
 * in '\n':
 *   line 1     the header: {"attnrank_shard":1, "sweep":S, "shard":K,
 *              "shards":N, "plan":P, "params":..., "precision":...,
 *              "provenance":{...}, ...}: format version 1, the sweep's name
 *              (verify, scale, calib), 0 <= K < N <= SHARD_MAX, P the
 *              SHA-256 (64 hex digits) of the sweep's point list and its
 *              assignment, the sweep's parameters, the precision policy and
 *              the versions (attnrank, commit, libraries, BLAS core); other
 *              members (threads, host) are informative;
 *   lines 2..  one record per point: an object with a non-empty string
 *              "point" (the point's id in the plan, unique in the file) and
 *              no member "end";
 *   last line  the end record {"end":true,"records":R,"sha256":H}: R the
 *              number of point records, H the SHA-256 of every byte of the
 *              file before this line; a file written with a key (below)
 *              also has "hmac":M, the HMAC-SHA256 of the same bytes.
 * A file without its end record is truncated (the writer keeps its lines
 * in PATH.partial until it ends, then renames it to PATH); one whose hash
 * or count disagrees is corrupted.  Every line is parsed by the project's
 * strict JSON reader (constructions/formats/json.h: duplicate keys, bad
 * UTF-8, non-finite numbers, nesting deeper than 64 are refused).
 *
 * The SHA-256 detects corruption, not forgery: anyone who can write the
 * file can recompute it.  A key (a secret file of SHARDFILE_KEY_MIN..MAX
 * bytes that only the runs of one user see) adds the HMAC, which a reader
 * given the same key checks: a file not written by a holder of the key is
 * refused. */
#ifndef ATTNRANK_CONSTRUCTIONS_SHARDFILE_H
#define ATTNRANK_CONSTRUCTIONS_SHARDFILE_H

#include <stddef.h>
#include <jansson.h>
#include "base/status.h"

#define SHARDFILE_FORMAT 1
#define SHARDFILE_MAX_BYTES ((size_t)1 << 30)   /* largest shard file read (1 GiB) */
#define SHARDFILE_MAX_RECORDS 1000000

/* ---- keys --------------------------------------------------------------- */

#define SHARDFILE_KEY_MIN 16
#define SHARDFILE_KEY_MAX 4096

typedef struct {
    unsigned char bytes[SHARDFILE_KEY_MAX];
    size_t len;
} shardfile_key_t;

/* Read the key file `path`: a regular file of SHARDFILE_KEY_MIN..MAX bytes,
 * its bytes used as they are.  AR_EINVAL (size, kind) or AR_EIO, one line. */
ar_status shardfile_key_load(const char *path, shardfile_key_t *key);

/* ---- writing ---------------------------------------------------------- */

typedef struct shardfile_writer shardfile_writer_t;

/* 0 when PATH can receive a shard file: a non-empty name whose directory
 * exists and is writable, PATH absent or a regular file (not a directory,
 * a symbolic link or a device), PATH.partial absent, a regular file or a
 * symbolic link (which shardfile_begin removes, never follows).  AR_EINVAL
 * with one line otherwise; checked before a shard computes anything. */
ar_status shardfile_check_target(const char *path);

/* Create PATH.partial and write the header line: "attnrank_shard" first,
 * then the members of `header` in order.  An existing PATH.partial is
 * removed and a new file created exclusively, never through a symbolic
 * link (open with O_CREAT | O_EXCL | O_NOFOLLOW).  key (NULL: none) adds
 * the HMAC to the end record.  *w on success. */
ar_status shardfile_begin(const char *path, const json_t *header, const shardfile_key_t *key,
                          shardfile_writer_t **w);

/* Append one record (an object with "point") as one line and flush it. */
ar_status shardfile_put(shardfile_writer_t *w, const json_t *record);

/* Append a record line read from a shard file (shardfile_t.text) as it is. */
ar_status shardfile_put_text(shardfile_writer_t *w, const char *line);

/* Write the end record, flush and sync, rename PATH.partial to PATH; frees w
 * (also on failure, leaving PATH.partial). */
ar_status shardfile_end(shardfile_writer_t *w);

/* Close PATH.partial as it is (a later run can resume from its records); frees w. */
void shardfile_abandon(shardfile_writer_t *w);

/* Compact one-line text of v with doubles at 17 significant digits (exact
 * round trip through the reader); caller frees.  NULL on allocation failure. */
char *shardfile_dump(const json_t *v);

/* ---- reading ---------------------------------------------------------- */

typedef struct {
    char *what;          /* the file's name in messages */
    json_t *header;
    json_t **rec;        /* nrec point records, in file order */
    size_t *line;        /* line number of each record */
    char **text;         /* each record's line as read (without its newline) */
    size_t nrec;
    size_t shard, shards;
    const char *sweep, *plan;   /* members of header */
    int keyed;           /* the end record carries an HMAC (checked when a key was given) */
} shardfile_t;

/* Parse buf[0..n) as a shard file named `what` in messages.  complete = 1:
 * the end record must be there and agree; complete = 0 (a PATH.partial of
 * an interrupted shard): the header and every complete, valid record line
 * up to the first bad or incomplete one, no end record needed.  With a key
 * (complete files only), the end record's HMAC must be there and be the
 * key's.  AR_EINVAL with one line "WHAT: ..." (WHAT:LINE: for a bad line);
 * out is cleared on failure. */
ar_status shardfile_parse(const char *buf, size_t n, const char *what, int complete, const shardfile_key_t *key,
                          shardfile_t *out);

/* Read the regular file `path` (infile_open, at most SHARDFILE_MAX_BYTES)
 * and parse it.  AR_EIO when it cannot be opened or read. */
ar_status shardfile_read(const char *path, int complete, const shardfile_key_t *key, shardfile_t *out);

void shardfile_clear(shardfile_t *f);

/* ---- a set of shard files of one sweep --------------------------------- */

/* The files are shards of one run: the same sweep, number of shards, plan,
 * parameters, precision and provenance as f[0] (one line naming the file
 * and what differs), no shard index twice, none missing. */
ar_status shardset_check(const shardfile_t *f, size_t nf);

/* rec[u] = the record of unit u of the plan (ids[u], assigned to shard
 * owner[u]) from the files: every record's point is in the plan, in the
 * file of its shard, present once; every unit has a record.  One line
 * naming the file (and line) otherwise. */
ar_status shardset_collect(const shardfile_t *f, size_t nf, const char *const *ids, const size_t *owner,
                           size_t nunits, const json_t **rec);

/* ---- strict members of a record ("where" names the file and line) ------ */

/* An integer in [0, max] (at most 2^53). */
ar_status shardrec_size(const json_t *o, const char *key, size_t max, const char *where, size_t *v);
/* A number (finite: the reader refuses anything else); with allow_null,
 * null stands for NaN (for the members that attnrank itself may write as
 * null: the caller must then treat NaN as "not available", never compare
 * it into a pass).  Without allow_null, null is refused. */
ar_status shardrec_real(const json_t *o, const char *key, int allow_null, const char *where, double *v);
/* The characters a string of a record may hold: exactly the ones attnrank
 * itself writes there, so that a string read from a file can never drive a
 * terminal, add a row to a TSV or markdown table, or break a JSON line.
 *   SHARDREC_NAME  method and certificate names, statuses, model names:
 *                  ASCII letters, digits and the characters " _-.,:;=+/()",
 *                  not starting or ending with a space (empty allowed);
 *   SHARDREC_NOTE  one line of prose under a point: printable ASCII
 *                  (0x20..0x7e) but for '|', '\\', '"' and '`'. */
typedef enum { SHARDREC_NAME, SHARDREC_NOTE } shardrec_text_t;

/* 1 when s holds only characters of class cls (see above). */
int shardrec_text_ok(const char *s, shardrec_text_t cls);

/* A string of class cls of fewer than cap bytes, copied to buf. */
ar_status shardrec_string(const json_t *o, const char *key, shardrec_text_t cls, char *buf, size_t cap,
                          const char *where);
ar_status shardrec_bool(const json_t *o, const char *key, const char *where, int *v);

/* An array of exactly n integers, each in [0, max] (at most 2^53); with
 * null_ok, null stands for SIZE_MAX (the "none" of the callers' tables). */
ar_status shardrec_sizes(const json_t *o, const char *key, size_t n, size_t max, int null_ok, const char *where,
                         size_t *v);
/* An array of exactly n numbers; with null_ok, null stands for NaN (as in
 * shardrec_real), otherwise it is refused. */
ar_status shardrec_reals(const json_t *o, const char *key, size_t n, int null_ok, const char *where, double *v);

/* "FILE:LINE" of the record rec among the files (for messages); "?:0" when
 * it is in none. */
void shardset_where(const shardfile_t *f, size_t nf, const json_t *rec, char *buf, size_t cap);

/* Set o[key] to the number v, or null when v is not finite. */
int shardrec_set_real(json_t *o, const char *key, double v);

#endif
