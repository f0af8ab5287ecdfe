/* SPDX-License-Identifier: GPL-3.0-or-later */
/* npy.h -- NumPy .npy files (format versions 1.0, 2.0, 3.0) and
 * multiplicity files.
 *
 * npy_read accepts float64 or float32 data ('<f8', '<f4', '>f8', '>f4',
 * '|'-less or native forms), C or Fortran order, shape (r, c) or (r,)
 * (read as r x 1).  The result is r x c row-major doubles (float32 values
 * converted exactly).  Rejected with AR_EINVAL and a one-line message: bad
 * magic, unsupported version or dtype, malformed header, shapes with more
 * than 2 dimensions or a zero extent, truncated data, trailing garbage, NaN
 * or Inf entries.  AR_EIO when the file cannot be opened.
 *
 * Multiplicity files hold one positive decimal integer per line (any size;
 * surrounding spaces and a final newline allowed; no blank lines, signs,
 * exponents or comments). */
#ifndef ATTNRANK_CONSTRUCTIONS_NPY_H
#define ATTNRANK_CONSTRUCTIONS_NPY_H

#include <stddef.h>
#include <flint/fmpz.h>
#include "base/status.h"
#include "constructions/pointsets/pointset.h"

ar_status npy_read(const char *path, double **data, size_t *rows, size_t *cols);

/* npy_read for a logit bias or mask: -inf entries are accepted (a masked entry), NaN and +inf
 * refused as npy_read refuses every non-finite value. */
ar_status npy_read_bias(const char *path, double **data, size_t *rows, size_t *cols);

/* Write r x c row-major doubles as '<f8', C order, version 1.0. */
ar_status npy_write(const char *path, const double *data, size_t rows, size_t cols);

/* Read a multiplicity file; *w is an array of *n initialised fmpz (free with
 * _fmpz_vec_clear(*w, *n)). */
ar_status mult_read(const char *path, fmpz **w, size_t *n);

ar_status mult_write(const char *path, const fmpz *w, size_t n);

/* Convenience: read points (and optional multiplicities, path may be NULL)
 * into a pointset, checking that the counts agree. */
ar_status pointset_read(pointset_t *P, const char *npy_path, const char *mult_path);

#endif
