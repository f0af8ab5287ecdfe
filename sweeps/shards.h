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
#include "numerics/args.h"

/* The header of shard sel of a sweep: sweep, shard, shards, plan, params
 * and precision (both stolen), this binary's provenance
 * (version_json_fields), and, informative only, the threads (OpenBLAS,
 * FLINT) and the host name.  NULL when out of memory. */
json_t *shards_header(const char *sweep, json_t *params, const char *plan, shard_sel_t sel, json_t *precision);

/* Computes one unit: *rec a new record object with "point" = ids[u]. */
typedef ar_status (*shards_unit_fn)(size_t u, void *ctx, json_t **rec);
/* Checks a record of unit u read back (the sweep's strict reader). */
typedef ar_status (*shards_check_fn)(size_t u, void *ctx, const json_t *rec, const char *where);

/* Run shard sel.k of the units (ids, owner from shard_assign) into `out`:
 *   out complete, valid, with this header and exactly this shard's points:
 *     nothing to do ("skipped" on stderr);
 *   out.partial of this header left by an interrupted run: its valid
 *     records are kept, the other points computed;
 *   otherwise every point of the shard is computed.
 * Points are written in plan order, each line flushed as it is done; the
 * file is renamed from out.partial to out only when complete.  out is
 * checked first (shardfile_check_target: AR_EINVAL before any point is
 * computed).  key (NULL: none): the file gets its HMAC, a complete file
 * is taken only when its HMAC is the key's, and no partial file is resumed. */
ar_status shards_run(const char *out, json_t *header, const char *const *ids, const size_t *owner, size_t nunits,
                     shard_sel_t sel, shards_unit_fn fn, shards_check_fn check, void *ctx, int progress,
                     const shardfile_key_t *key);

/* Read every file (complete; with key, each must carry the key's HMAC) and
 * check they are the shards of one run (shardset_check).  *files (nf
 * entries) on success; shards_free_all. */
ar_status shards_read_all(char *const *paths, size_t nf, const shardfile_key_t *key, shardfile_t **files);
void shards_free_all(shardfile_t *files, size_t nf);

/* A sweep's options as given (name -> string value, or true for a flag), in
 * the command's option order, without the names in skip[0..nskip): the
 * header's record of the command line, re-parsed by `attnrank merge`.  NULL
 * when out of memory. */
json_t *shards_options_json(const opt_t *o, size_t no, const char *const *skip, size_t nskip);

/* One option a merge may read from a header: its name and whether it is a
 * flag (value true) or takes a value (a string). */
typedef struct {
    const char *name;
    int flag;
} shards_allowed_t;

/* 0 when every member of the header's options object op is one of
 * allow[0..n) with a value of its kind (a string, or true for a flag):
 * the options that define a sweep's point list and parameters.  Anything
 * else -- --shard, --out, --help, --format, --key, an unknown name -- is
 * refused with one line naming the file `what` (AR_EINVAL): a merge only
 * reads, it never runs a shard, writes a file or chooses its own output. */
ar_status shards_options_allowed(const json_t *op, const shards_allowed_t *allow, size_t n, const char *what);

/* The shard key (constructions/formats/shardfile.h): the file named by
 * opt (--key FILE), else by the environment variable ATTNRANK_SHARD_KEY;
 * *key = NULL when neither is set (or the variable is empty).  Loaded
 * once per process and path.  AR_EINVAL/AR_EIO with one line. */
ar_status shards_key(const char *opt, const shardfile_key_t **key);

/* Start-up check of ATTNRANK_SHARD_KEY (unset, empty, or a loadable key file). */
ar_status shards_key_env_check(void);

/* The command line "attnrank CMD --name value ..." of the options object op
 * of `what`'s header (values strings or true), with room for `extra` more
 * arguments: *argv (argc in *argc) and the strings it owns (shards_argv_free). */
typedef struct {
    char **argv;
    int argc;
    char **owned;
    size_t nowned;
} shards_argv_t;
ar_status shards_options_argv(const json_t *op, const char *cmd, const char *what, size_t extra, shards_argv_t *a);
void shards_argv_free(shards_argv_t *a);

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
