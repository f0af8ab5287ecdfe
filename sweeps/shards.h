/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shards.h -- running one shard of a sweep into a shard file, and reading a
 * set of shard files back (constructions/formats/shardfile.h), for
 * `attnrank verify|scale|calib --shard K/N --out FILE` and `attnrank merge`
 * (and the `make verify JOBS=N` Check runner, which links this file). */
#ifndef ATTNRANK_SWEEPS_SHARDS_H
#define ATTNRANK_SWEEPS_SHARDS_H

#include <stddef.h>
#include <jansson.h>
#include "constructions/formats/shardfile.h"
#include "numerics/shard.h"
#include "base/status.h"
#include "theory/claims/vplan.h"

/* The header of shard sel of a sweep: sweep, shard, shards, plan, params
 * and precision (both stolen), this binary's provenance
 * (version_json_fields), and, informative only, the threads (OpenBLAS,
 * FLINT) and the host name.  NULL when out of memory. */
json_t *shards_header(const char *sweep, json_t *params, const char *plan, shard_sel_t sel, json_t *precision);

/* Computes one unit: *rec a new record object with "point" = ids[u]. */
typedef ar_status (*shards_unit_fn)(size_t u, void *ctx, json_t **rec);
/* Checks a record of unit u read back (the sweep's strict reader). */
typedef ar_status (*shards_check_fn)(size_t u, void *ctx, const json_t *rec, const char *where);

/* Where a shard run's notices go: fn(ctx, line) with one line without
 * its newline ("skipped", "computing it again", "kept from .partial" and,
 * with progress, one "[shard K/N] i/m ID" line per point computed). */
typedef struct {
    void (*fn)(void *ctx, const char *line);
    void *ctx;
    int progress;
} shards_notice_t;

/* Run shard sel.k of the units (ids, owner from shard_assign) into `out`:
 *   out complete, valid, with this header and exactly this shard's points:
 *     nothing to do ("skipped", a notice to nt);
 *   out.partial of this header left by an interrupted run: its valid
 *     records are kept, the other points computed;
 *   otherwise every point of the shard is computed.
 * Points are written in plan order, each line flushed as it is done; the
 * file is renamed from out.partial to out only when complete.  out is
 * checked first (shardfile_check_target: AR_EINVAL before any point is
 * computed).  key (NULL: none): the file gets its HMAC, a complete file
 * is taken only when its HMAC is the key's, and no partial file is resumed. */
ar_status shards_run(const char *out, json_t *header, const char *const *ids, const size_t *owner, size_t nunits,
                     shard_sel_t sel, shards_unit_fn fn, shards_check_fn check, void *ctx, const shards_notice_t *nt,
                     const shardfile_key_t *key);

/* Read every file (complete; with key, each must carry the key's HMAC) and
 * check they are the shards of one run (shardset_check).  *files (nf
 * entries) on success; shards_free_all. */
ar_status shards_read_all(char *const *paths, size_t nf, const shardfile_key_t *key, shardfile_t **files);
void shards_free_all(shardfile_t *files, size_t nf);

/* The shard key of a run: the key file `path` (--key, or the configuration's
 * shard_key when from_env: ATTNRANK_SHARD_KEY as the boundary read it),
 * loaded into *storage (the caller's) with *key = storage; *key = NULL when
 * path is NULL, or empty and from_env.  AR_EINVAL/AR_EIO with one line
 * (prefixed "ATTNRANK_SHARD_KEY: " when from_env).  Nothing is cached. */
ar_status shards_key_load(const char *path, int from_env, shardfile_key_t *storage, const shardfile_key_t **key);

/* Start-up check of the configuration's shard key path (unset, empty, or a loadable key file). */
ar_status shards_key_env_check(const char *path);

/* A header written before the typed specs (its params record the command
 * line, "options", instead of the spec, "spec"): AR_EINVAL with one line
 * naming the file, the version that wrote it and this one.  AR_OK otherwise. */
ar_status shards_old_header(const json_t *header, const char *what);

/* The provenance of a header as JSON members without braces (for the
 * printed rows); caller frees. */
char *shards_prov_text(const json_t *header);

/* The verify sweep of a set of shard files: the plan rebuilt from their
 * parameters (and checked against their plan digest), and every unit's
 * result from its record.  *res (p->nunits) and *prov are allocated. */
ar_status verify_shards_load(const shardfile_t *files, size_t nf, vplan_t *p, vresult_t **res, char **prov);

/* The header members of a verify sweep: params {claim, d, tier} and the precision policy. */
json_t *verify_shard_params(const vplan_t *p);
json_t *shards_precision(void);

/* owner[] and ids[] of a verify plan for n shards (allocated; free both). */
ar_status verify_plan_owners(const vplan_t *p, size_t n, size_t **owner, const char ***ids);

#endif
