/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_method.h -- the certificate methods: one enum, one name table.
 *
 * Every certificate a bracket end, a circulant search, a ball search or a
 * packing reports names its construction by an ar_method_t; the printed
 * name ("trivial", "diagdom", "svd", "ball-cluster", ...) is produced only
 * where the method is printed or serialised (text tables, JSON, the public
 * API's char arrays, shard files), and read back only by ar_method_parse.
 * The names are those the library always printed (README, golden tables).
 *
 * Composite names become predicates: ar_method_is_trivial (the trivial end,
 * or no certificate at all), ar_method_is_ball (the "ball-*" lower ends of
 * the ball route, theory/brackets/bracket_ball.h). */
#ifndef ATTNRANK_THEORY_CERT_METHOD_H
#define ATTNRANK_THEORY_CERT_METHOD_H

#include "numerics/status.h"

typedef enum {
    AR_METHOD_NONE = 0,       /* "": no certificate (a construction that did not run) */
    AR_METHOD_TRIVIAL,        /* "trivial": rank >= 1 (eps < 1) or rank <= min(m, n) */
    AR_METHOD_DIAGDOM,        /* "diagdom": Varah's diagonal-dominance bound (THEORY 3.4a) */
    AR_METHOD_INVNORM,        /* "invnorm": the interval inverse's norm bound */
    AR_METHOD_INVNORM_VARAH,  /* "invnorm-varah": a packing's blocks certified by Varah's bound */
    AR_METHOD_SVD,            /* "svd": truncated SVD upper certificate */
    AR_METHOD_SYMEIG,         /* "symeig": symmetric eigen upper certificate */
    AR_METHOD_PCHOL,          /* "pchol": pivoted Cholesky upper certificate */
    AR_METHOD_RSVD,           /* "rsvd": randomized range-finder upper certificate */
    AR_METHOD_RSYM,           /* "rsym": its symmetrised variant */
    AR_METHOD_PROJECTION,     /* "projection": circulant Fourier-band projection */
    AR_METHOD_L1LP,           /* "l1lp": circulant l1 linear programme */
    AR_METHOD_CLUSTER,        /* "cluster": ball cluster lower certificate (delta > 0) */
    AR_METHOD_BALL_DIAGDOM,   /* "ball-diagdom": the ball route's lower end by diagdom */
    AR_METHOD_BALL_CLUSTER,   /* "ball-cluster": the ball route's lower end by cluster */
    AR_METHOD_TENSOR_CHEB,    /* "tensor-cheb": tensor-Chebyshev upper certificate */
    AR_METHOD_POLYNOMIAL,     /* "polynomial": harmonic polynomial upper certificate */
    AR_METHOD_CIRCULANT_BLOCKS,      /* "circulant-blocks": the circulant route's block lower end */
    AR_METHOD_CIRCULANT_L1LP,        /* "circulant-l1lp": its Fourier-band upper end by l1lp */
    AR_METHOD_CIRCULANT_PROJECTION,  /* "circulant-projection": ... by projection */
    AR_METHOD_PACKING_DIAGDOM,       /* "packing-diagdom": the packing route's lower end */
    AR_METHOD_COUNT
} ar_method_t;

/* The printed name of m (a static string; "" for AR_METHOD_NONE); "unknown"
 * for a value outside the enum.  Never NULL. */
const char *ar_method_name(ar_method_t m);

/* The method whose printed name is s (exact, case-sensitive; "" gives
 * AR_METHOD_NONE).  AR_OK and *out set, or AR_EINVAL (message set, *out
 * untouched) for NULL or an unknown name. */
ar_status ar_method_parse(const char *s, ar_method_t *out);

/* 1 if m is no proof beyond the trivial bracket: AR_METHOD_TRIVIAL or
 * AR_METHOD_NONE (the status rule, theory/brackets/bracket_status.h). */
int ar_method_is_trivial(ar_method_t m);

/* 1 if m is one of the ball route's own lower ends ("ball-diagdom",
 * "ball-cluster"), as opposed to the dense certificates it also runs. */
int ar_method_is_ball(ar_method_t m);

/* The ball route's name for a cluster certificate's method: diagdom ->
 * ball-diagdom, cluster -> ball-cluster; any other method unchanged. */
ar_method_t ar_method_ball(ar_method_t m);

/* 1 if a composite label "<context>/.../<method>" (law points' upper_method,
 * read back from shard files) names a trivial end: the label is empty, or
 * the text after its last '/' (the whole label when it has none) is
 * "trivial".  label non-NULL; sets no error message. */
int ar_method_label_trivial(const char *label);

#endif
