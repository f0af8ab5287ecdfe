/* SPDX-License-Identifier: GPL-3.0-or-later */
/* args.h -- strict command-line parsing for the attnrank subcommands.
 * Options are "--name value" or "--name=value"; flags have no value.
 * Every parse error records a one-line message (ar_error_set). */
#ifndef ATTNRANK_CLI_ARGS_H
#define ATTNRANK_CLI_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include "base/status.h"

typedef struct {
    const char *name;    /* without the leading "--" */
    int has_arg;         /* 1: takes a value, 0: flag */
    const char *value;   /* set by args_parse (flags: "1") */
} opt_t;

/* Parse argv[first..argc) against opts (values reset first).  Unknown
 * options, missing values, repeated options and positional arguments are
 * errors (AR_EINVAL). */
ar_status args_parse(int argc, char **argv, int first, opt_t *opts, size_t nopts, const char *cmd);

/* Value of option `name` or NULL. */
const char *args_get(const opt_t *opts, size_t nopts, const char *name);

/* Strict conversions: the whole string must be a number; messages name the option. */
/* A finite double (base/parse.h parse_real): overflow, underflow to 0 and
 * subnormals are refused, each with its own reason. */
ar_status args_double(const char *opt, const char *s, double *out);

/* Split the comma-separated list in buf (modified in place) of option --opt
 * into at most max items (pointers into buf).  An empty item (an empty
 * list, a leading or trailing comma, two commas in a row) or more than max
 * items: AR_EINVAL with a one-line message. */
ar_status args_split(const char *opt, char *buf, char **items, size_t max, size_t *n);

/* Most values in one list of args_double_list. */
#define ARGS_LIST_MAX 64

/* A comma-separated list of at most max (<= ARGS_LIST_MAX) doubles, each as
 * args_double, split by args_split; *n is written only on success. */
ar_status args_double_list(const char *opt, const char *s, double *v, size_t max, size_t *n);

/* The one integer parser.  args_digits: base/parse.h parse_digits: 1 and
 * *v = value when s is one or more ASCII decimal digits and nothing else (no
 * white space, sign, prefix or suffix -- strtoull would skip leading white
 * space and wrap a '-') and the value fits in 64 bits; 0 otherwise (*v untouched).
 * args_uint: the same for option --opt: s must be one or more ASCII decimal digits and
 * nothing else (no white space, sign, prefix or suffix), its value must fit
 * in 64 bits and lie in [lo, hi].  *out is written only on success;
 * otherwise AR_EINVAL with a one-line message naming --opt. */
int args_digits(const char *s, uint64_t *v);
ar_status args_uint(const char *opt, const char *s, uint64_t lo, uint64_t hi, uint64_t *out);
ar_status args_size(const char *opt, const char *s, size_t lo, size_t hi, size_t *out);   /* args_uint */
ar_status args_u64(const char *opt, const char *s, uint64_t *out);   /* args_uint over [0, 2^64-1] */

/* beta: finite and >= 0.  eps: 0 < eps < 1. */
ar_status args_beta(const char *s, double *beta);
ar_status args_eps(const char *s, double *eps);

/* A beta grid "LO:HI:COUNT": LO and HI as args_beta with LO <= HI, COUNT in
 * [1, max_count]; a geometric grid (COUNT > 1) needs LO > 0.  AR_EINVAL with
 * a one-line message naming --beta. */
ar_status args_beta_grid(const char *s, size_t max_count, double *lo, double *hi, size_t *count);

/* The dense engine's --prec (53..4096 bits) and --threads (1..64), when
 * present in o: written to *prec / *threads, left untouched otherwise. */
ar_status args_prec_threads(const opt_t *o, size_t no, long *prec, int *threads);

/* Output formats: text, md (scale's markdown table), tsv, json. */
typedef enum { FMT_TEXT, FMT_TSV, FMT_JSON, FMT_MD } out_format_t;
#define FMT_BIT(f) (1u << (f))

/* --format s parsed against the names of the formats in `allowed` (FMT_BIT
 * of each): NULL is FMT_TEXT (FMT_MD when text is not allowed); any other
 * name is AR_EINVAL with "--format: expected <the allowed names>, got 's'". */
ar_status args_format_in(const char *s, unsigned allowed, out_format_t *f);

/* args_format_in with text, tsv and json. */
ar_status args_format(const char *s, out_format_t *f);

#endif
