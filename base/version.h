/* SPDX-License-Identifier: GPL-3.0-or-later */
/* version.h -- provenance: project and library versions. */
#ifndef ATTNRANK_BASE_VERSION_H
#define ATTNRANK_BASE_VERSION_H

#define ATTNRANK_VERSION "0.2.0"

/* JSON object text (no braces) with attnrank, commit (git describe of the
 * source built, "unknown" outside git), mpfr, gmp, flint, arb and blas
 * versions, e.g. "\"attnrank\":\"0.2.0\",\"mpfr\":\"4.2.0\",...".  Static buffer. */
const char *version_json_fields(void);

/* The source's commit as in version_json_fields. */
const char *version_commit(void);

/* One human-readable line with the same information. */
const char *version_line(void);

#endif
