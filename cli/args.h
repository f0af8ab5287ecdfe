/* args.h -- strict command-line parsing for the attnrank subcommands.
 * Options are "--name value" or "--name=value"; flags have no value.
 * Every parse error records a one-line message (ar_error_set). */
#ifndef ATTNRANK_CLI_ARGS_H
#define ATTNRANK_CLI_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include "numerics/status.h"

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
ar_status args_double(const char *opt, const char *s, double *out);   /* finite double */
ar_status args_size(const char *opt, const char *s, size_t lo, size_t hi, size_t *out);
ar_status args_u64(const char *opt, const char *s, uint64_t *out);

/* beta: finite and >= 0.  eps: 0 < eps < 1. */
ar_status args_beta(const char *s, double *beta);
ar_status args_eps(const char *s, double *eps);

/* Output formats. */
typedef enum { FMT_TEXT, FMT_TSV, FMT_JSON } out_format_t;
ar_status args_format(const char *s, out_format_t *f);

#endif
