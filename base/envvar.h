/* SPDX-License-Identifier: GPL-3.0-or-later */
/* envvar.h -- strict readers of attnrank's environment variables.
 *
 * Unset: the default.  Set: the whole value must parse (base/parse.h;
 * an empty value, white space, trailing text, nan or inf are refused) and
 * lie in the accepted range; otherwise AR_EINVAL with one line naming the
 * variable, its value and the accepted range.  Every reader is cheap and
 * may be called again and again; the CLI calls each once at start-up so
 * that a bad value is refused before any work (exit 2). */
#ifndef ATTNRANK_BASE_ENVVAR_H
#define ATTNRANK_BASE_ENVVAR_H

#include <stddef.h>
#include "base/status.h"

/* A decimal integer in [lo, hi] (default def when unset). */
ar_status env_size(const char *name, size_t lo, size_t hi, size_t def, size_t *out);

/* A variable whose default belongs to another library (OpenBLAS's
 * OPENBLAS_NUM_THREADS): unset, *set = 0; set, a decimal integer in
 * [lo, hi] into *out and *set = 1, otherwise AR_EINVAL naming the variable,
 * its value and the range. */
ar_status env_size_opt(const char *name, size_t lo, size_t hi, int *set, size_t *out);

/* A finite decimal number in [lo, hi] (default def when unset). */
ar_status env_real(const char *name, double lo, double hi, double def, double *out);

/* "0" or "1" (default def when unset). */
ar_status env_flag(const char *name, int def, int *out);

/* A guard variable attnrank sets to "1" before it re-executes itself:
 * *set = 0 when unset, 1 when "1"; any other value is refused. */
ar_status env_guard(const char *name, int *set);

#endif
