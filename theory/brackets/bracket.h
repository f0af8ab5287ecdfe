/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bracket.h -- certified bracket lower <= rank_eps(A) <= upper for one instance.
 *
 * A = rowsoftmax(beta Q K^T) with the key multiplicities of K (compressed
 * form, THEORY 3.2: same eps-rank as the expanded matrix; repeated queries
 * do not change the eps-rank either).  Pipeline: enclosure (double with an
 * a-priori bound, or Arb) -> lower certificate on farthest-point prefixes
 * -> upper certificates (up to BRACKET_RSVD_MIN_N: svd; symeig and pchol
 * for self-attention; above it the randomized rsvd, its first sketch sized
 * from the lower end) -> lower certificate on index-order nets (capped by
 * the upper end) -> best of each.  Past the streaming threshold the image
 * is never stored (bracket_compute_stream).  status is bracket_status_decide's
 * (certified when each end is a non-trivial certificate or lower == upper,
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
#include "theory/certificates/cert_rsvd.h"
#include "theory/certificates/cert_status.h"

typedef void (*bracket_progress_fn)(void *ctx, const char *msg);

typedef struct {
    int use_svd;       /* 1 = run, 0 = skip, -1 = auto (default): cross-attention always;
                          self-attention when bracket_svd_needed says so; never when rsvd runs in auto */
    int use_symeig;    /* 1 = run, 0 = skip, -1 = auto (default): self-attention unless rsvd runs in auto */
    int use_lower;     /* 1 = run (default) */
    int no_grow;       /* 1 = no growth over the rows of the certified factors (lower_grow_cap,
                          lower_weighted_cap): blocks and nets only (tests); 0 (default) = grow */
    int use_pchol;     /* 1 = run, 0 = skip, -1 = auto (default): self-attention, only when symeig
                          certified nothing non-trivial (it never beat symeig on the goldens and costs
                          about a third of symeig's time) */
    int use_rsvd;      /* 1 = run, 0 = skip, -1 = auto (default): instead of the full factorisations
                          when max(m, n) > BRACKET_RSVD_MIN_N and use_svd is auto.  For self-attention
                          held in memory "rsvd" means the randomized symeig (rsym) first, and rsvd
                          itself when log t spreads (as symeig and the SVD) */
    long prec;         /* 0 = default: the double enclosure with its a-priori bound where it applies
                          (numerics/softmax_dbl.h), else Arb at 96 bits; > 0: Arb at this precision */
    int threads;       /* 0 = default (2) */
    size_t lower_cap;  /* a certified upper bound on rank_eps known to the caller (0 = none): lower
                          probes above it are skipped (same result, less work) and the randomized
                          upper certificates seek only ranks below it */
    size_t stream_bytes;  /* the image is streamed in row blocks (never stored) when 8 m n exceeds this
                             (0 = default, bracket_stream_bytes: ATTNRANK_STREAM_MIB MiB when that is
                             set, else when the image does not fit in memory); needs prec 0 and no
                             full factorisation forced */
    uint64_t seed;     /* sketch seed of rsvd (0 = RSVD_SEED) */
    int one_random;    /* self-attention above BRACKET_RSVD_MIN_N: 1 = one randomized factorisation
                          (rsym when the keys carry multiplicities, else rsvd when log t spreads and
                          rsym when it does not; the ball route), 0 (default) = rsvd then rsym when
                          log t spreads */
    int lower_from_matrix; /* 1: the lower end's row heuristics (farthest-point order, outer rows,
                              nets) read the rows of A's computed image as points of R^n instead of
                              the query coordinates, so the lower end is a function of the image
                              alone (claim R's invariance check, proofs-notes/claim-R.md); needs
                              8 m n more bytes and O(m^2 n) work; 0 (default): the coordinates */
    const double *bias;  /* NULL, or an additive logit bias: m x n row-major doubles over the queries and
                            keys as passed (numerics/softmax.h smx_compute_bias: -inf masks an entry to
                            exactly 0, a finite value is added to the logit); borrowed.  Only the dense
                            route's certificates are about such a matrix (route.h), with image_only */
    int image_only;    /* 1: only constructions that read the image alone (svd, rsvd, block test
                          matrices), never symeig, pchol or rsym, whose candidates need the keys to be
                          the queries: the certificates are then the same for every pair (Q, K) with
                          the same image (claim R's invariance check, proofs-notes/claim-R.md);
                          0 (default): all that apply */
    bracket_progress_fn progress;   /* stage messages (NULL = quiet) */
    void *progress_ctx;
} bracket_opts_t;

void bracket_opts_default(bracket_opts_t *o);

/* The one rule for self-attention, for every door (CLI, C, Python, sweeps): the keys are the
 * queries when K == Q or when they hold the same points (pointset_same_points: same n, d and
 * bit-identical coordinates), e.g. `--queries X --keys X` or bracket(X, X.copy()).  Issue 32:
 * the CLI treated that as cross-attention and Python as self-attention. */
int bracket_is_self(const pointset_t *Q, const pointset_t *K);

/* Self-attention sizes at or below which the SVD always runs in auto mode. */
#define BRACKET_SVD_ALWAYS_N 1000
/* max(m, n) above which the randomized upper certificate replaces the full
 * factorisations in auto mode (below, a full factorisation costs about 0.1 s). */
#define BRACKET_RSVD_MIN_N 500
/* Power iterations of the randomized factorisations (held and streamed alike). */
#define BRACKET_RSVD_POWER 1
/* The lower end's growth, peeling and weighted searches after the upper constructions may spend
 * BRACKET_LOWER_FACTOR times the upper constructions' estimated flops, and at least
 * BRACKET_LOWER_FLOOR flops (about half a second of one core): issue 32, the lower end's cost
 * bounded by the factorisations'. */
#define BRACKET_LOWER_FACTOR 1.0
/* Candidate sets from this size are peeled before the greedy growth runs (bracket_grow_lower). */
#define BRACKET_PEEL_MIN 64
#define BRACKET_LOWER_FLOOR 2e10

/* Rows of the streamed lower certificate (farthest-point prefix) when no cap is known. */
#define BRACKET_STREAM_LOWER_ROWS 2048

/* Accepted ranges of ATTNRANK_STREAM_MIB (MiB, default 1024) and
 * ATTNRANK_MAX_STREAM_N (points per side, default 65536). */
#define BRACKET_STREAM_MIB_MAX 1048576
#define BRACKET_STREAM_MAX_N_MAX 16777216

/* The explicit streaming threshold in MiB of the configuration in effect
 * (numerics/config.h stream_mib, from ATTNRANK_STREAM_MIB at the boundary):
 * 1024 reported when unset (then memory decides, bracket_stream_bytes).
 * Always AR_OK. */
ar_status bracket_stream_mib(size_t *mib);

/* *bytes = the streaming threshold in bytes of the image: o->stream_bytes
 * when set (see bracket_opts_t.stream_bytes); else the configuration's
 * stream_mib MiB when set (an explicit override); else memory decides: the
 * allocation bound ar_max_alloc() (the configuration's, default 16 GiB),
 * or half the physical memory when that is smaller -- the image is held
 * whenever it fits, streamed only when it does not. */
ar_status bracket_stream_bytes(const bracket_opts_t *o, size_t *bytes);
/* Largest spread max log t - min log t for which symeig stands in for the SVD. */
#define BRACKET_SVD_SPREAD 0.05

/* Self-attention sizes above which the SVD runs in auto mode only when symeig and pchol certified
 * nothing: its 22 n^3 flops (37 s at 4096 points on one core) against symeig's 9 n^3, for an
 * upper end that on self-attention rarely improves on symeig's (the same 2037 at 2048 points of
 * a d = 64 head, issue 32). */
#define BRACKET_SVD_SELF_MAX_N 2048

/* min(m, n) above which a lower end of min(m, n) - 1 ends the bracket without an upper
 * construction (one full factorisation could lower the upper end by one at most: 41 s at 4096
 * rows, 0.6 s at 300, where it decides [299, 299]). */
#define BRACKET_NEAR_FULL_N 2048

/* Unweighted self-attention whose log t spreads (rows of unequal norms: a real head's queries),
 * sizes above which the SVD runs in auto mode only when symeig and pchol certified nothing: on
 * real heads (N(0,1) rows at scale 1/sqrt(d), issue 32) its upper end was within 0.5 % of
 * symeig's (1087 against 1092 at d = 16, 2040 against 2042 at d = 64, n = 2048) for 2.4x
 * symeig's time, which put self-attention at 2.6-2.8x the cross-attention time of the same
 * shape.  At and below 1000 rows the SVD keeps running (375 against symeig's 390 at d = 16,
 * n = 512: 4 % for a fraction of a second).  Points on a sphere (log t constant) keep BRACKET_SVD_ALWAYS_N, weighted sets (the
 * ball's shells) BRACKET_SVD_SELF_MAX_N: there the multiplicities make T far from scalar. */
#define BRACKET_SVD_UNWEIGHTED_MAX_N 1000

/* Auto policy for the truncated SVD on self-attention (after symeig and
 * pchol ran; best = their better certificate, logt = log t_i, n entries).
 * Returns 1 (run the SVD) when they certified nothing non-trivial (or did
 * not apply: logt NULL), when n <= BRACKET_SVD_ALWAYS_N, or when log t
 * spreads over more than BRACKET_SVD_SPREAD and n <= BRACKET_SVD_SELF_MAX_N.  Rationale
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
    ar_cert_status_t status;  /* certified or inconclusive */
    double maxerr;            /* enclosure error of A (max row l1) */
    long prec;                /* Arb precision used */
    double seconds;           /* total wall time */
    double seconds_enclose;   /* time in smx_compute */
    upper_cert_t up_svd, up_symeig, up_pchol, up_rsvd, up_rsym;  /* each upper method's result
                                  (method none and rank 0 when not run) */
    rsvd_info_t rsvd;         /* the sketch of the better randomized certificate (when one ran) */
    int streamed;             /* 1: the image was streamed in row blocks, never stored */
    const char *enclosure;    /* "double" or "arb" (NULL before the enclosure) */
    double seconds_lower;     /* time in fps_order + lower_blocks + lower_nets */
    double seconds_upper;     /* time in the upper certificates */
    double upper_flops;       /* estimated flops of the upper constructions that ran */
    double lower_budget, lower_spent;   /* the lower searches' budget and estimated spending (flops) */
    int lower_cut;            /* 1: a lower search stopped early, or was skipped, on its budget */
} bracket_t;

/* Copy into dst src's report of how the dense ends were computed: the
 * enclosure (kind, precision, error, time), whether it was streamed, each
 * upper construction's result and the randomized sketch.  The ends (lower,
 * upper, lo, up, status) are not touched: a caller that keeps src's ends
 * (route_bracket, bracket_compute_ball) calls this so that what it prints
 * about them is src's. */
void bracket_copy_report(bracket_t *dst, const bracket_t *src);

/* Q and K may be the same pointer (self-attention: symeig and pchol are
 * tried only then, with log t_i = (lognorm_i + log w_i)/2).  beta >= 0
 * finite, 0 < eps < 1, matching dimensions; o may be NULL (defaults).
 * Multiplicities of Q are ignored (repeated queries do not change the
 * eps-rank).  AR_EINVAL on bad input; AR_ENUMERIC (with a message) if the
 * certified lower bound ever exceeded the certified upper bound, which
 * would be a bug (never reported as a bracket). */
ar_status bracket_compute(const pointset_t *Q, const pointset_t *K, double beta, double eps,
                          const bracket_opts_t *o, bracket_t *out);

/* The streamed variant (what bracket_compute runs above the streaming
 * threshold): the double enclosure evaluated in row blocks, rsvd upper
 * certificate, block test matrices on the rows of a farthest-point prefix
 * of the queries (at most lower_cap, else BRACKET_STREAM_LOWER_ROWS rows)
 * held in memory.  Same contract as bracket_compute; memory O((m + n) l +
 * block + prefix n).  AR_EINVAL when the double enclosure does not apply
 * (logits too large: see numerics/softmax_dbl.h; bracket_compute then
 * tries the in-memory Arb enclosure) and, with a message naming
 * ATTNRANK_MAX_STREAM_N, when m or n exceeds bracket_stream_max_n(). */
/* *out = the largest m or n the streamed route accepts: the configuration's
 * stream_max_n (numerics/config.h; ATTNRANK_MAX_STREAM_N at the boundary,
 * 65536 by default).  Always AR_OK. */
ar_status bracket_stream_max_n(size_t *out);

ar_status bracket_compute_stream(const pointset_t *Q, const pointset_t *K, double beta, double eps,
                                 const bracket_opts_t *o, bracket_t *out);

#endif
