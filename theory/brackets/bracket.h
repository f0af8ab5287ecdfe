/* bracket.h -- certified bracket lower <= rank_eps(A) <= upper for one instance.
 *
 * A = rowsoftmax(beta Q K^T) with the key multiplicities of K (compressed
 * form, THEORY 3.2: same eps-rank as the expanded matrix; repeated queries
 * do not change the eps-rank either).  Pipeline: smx_compute -> upper
 * certificates (svd always; symeig and pchol for self-attention) -> lower
 * certificates (block test matrix on the farthest-point order of the
 * queries) -> best of each.  status is bracket_status_decide's (certified
 * when each end is a non-trivial certificate or lower == upper,
 * theory/brackets/bracket_status.h); when the enclosure of A is too wide
 * (2 * maxerr >= eps) only the trivial bounds 1 <= rank <= min(m, n) are
 * reported, inconclusive. */
#ifndef ATTNRANK_THEORY_BRACKET_H
#define ATTNRANK_THEORY_BRACKET_H

#include <stddef.h>
#include "numerics/status.h"
#include "constructions/pointsets/pointset.h"
#include "theory/certificates/cert_upper.h"
#include "theory/certificates/cert_lower.h"

typedef struct {
    int use_svd;       /* 1 = run, 0 = skip, -1 = auto (default): cross-attention always;
                          self-attention when bracket_svd_needed says so */
    int use_symeig, use_lower;                      /* 1 = run (defaults: 1) */
    int use_pchol;     /* 1 = run, 0 = skip, -1 = auto (default): self-attention, only when symeig
                          certified nothing non-trivial (it never beat symeig on the goldens and costs
                          about a third of symeig's time) */
    long prec;                                      /* Arb precision, 0 = default */
    int threads;                                    /* 0 = default (2) */
} bracket_opts_t;

void bracket_opts_default(bracket_opts_t *o);

/* Self-attention sizes at or below which the SVD always runs in auto mode. */
#define BRACKET_SVD_ALWAYS_N 1000
/* Largest spread max log t - min log t for which symeig stands in for the SVD. */
#define BRACKET_SVD_SPREAD 0.05

/* Auto policy for the truncated SVD on self-attention (after symeig and
 * pchol ran; best = their better certificate, logt = log t_i, n entries).
 * Returns 1 (run the SVD) when they certified nothing non-trivial (or did
 * not apply: logt NULL), when n <= BRACKET_SVD_ALWAYS_N, or when log t
 * spreads over more than BRACKET_SVD_SPREAD.  Rationale
 * (proofs-notes/upper-certificates.md): symeig factors S = T A T^{-1},
 * T = diag(t); when T is a multiple of the identity S = c A is symmetric
 * PSD and its top-k eigenpairs ARE A's truncated SVD, so the SVD can only
 * repeat symeig's candidates; the further T is from scalar the more the
 * two differ, and then both run. */
int bracket_svd_needed(size_t n, const double *logt, const upper_cert_t *best);

typedef struct {
    size_t m, n;              /* distinct queries and keys (compressed sizes) */
    size_t lower, upper;      /* the bracket */
    lower_cert_t lo;          /* winning lower certificate */
    upper_cert_t up;          /* winning upper certificate */
    const char *status;       /* "certified" or "inconclusive" */
    double maxerr;            /* enclosure error of A (max row l1) */
    long prec;                /* Arb precision used */
    double seconds;           /* total wall time */
    double seconds_enclose;   /* time in smx_compute */
    upper_cert_t up_svd, up_symeig, up_pchol;  /* each upper method's result
                                  (method "" and rank 0 when not run) */
    double seconds_lower;     /* time in fps_order + lower_blocks */
} bracket_t;

/* Q and K may be the same pointer (self-attention: symeig and pchol are
 * tried only then, with log t_i = (lognorm_i + log w_i)/2).  beta >= 0
 * finite, 0 < eps < 1, matching dimensions; o may be NULL (defaults).
 * Multiplicities of Q are ignored (repeated queries do not change the
 * eps-rank).  AR_EINVAL on bad input; AR_ENUMERIC (with a message) if the
 * certified lower bound ever exceeded the certified upper bound, which
 * would be a bug (never reported as a bracket). */
ar_status bracket_compute(const pointset_t *Q, const pointset_t *K, double beta, double eps,
                          const bracket_opts_t *o, bracket_t *out);

#endif
