/* SPDX-License-Identifier: GPL-3.0-or-later */
/* attnrank.h -- the public C API of attnrank: certified eps-rank brackets of
 * softmax attention matrices in the max-row-l1 norm, attention-head analysis
 * and the paper's laws table.
 *
 *   A_ij = w_j exp(beta q_i.k_j) / sum_l w_l exp(beta q_i.k_l)
 *   rank_eps(A) = min { rank B : max_i sum_j |A_ij - B_ij| <= eps }
 *
 * Every bracket lower <= rank_eps(A) <= upper returned here is a pair of
 * rigorous certificates (README "What it computes"); the numbers are the
 * ones `attnrank bracket --format json` prints for the same instance (the
 * CLI is a client of this API).
 *
 * Conventions
 *   - Every fallible function returns an attnrank_status (ATTNRANK_OK == 0).
 *     On failure attnrank_error_message() returns a one-line message in the
 *     calling thread (a thread-local buffer, valid until the thread's next
 *     call into the library); the library never prints and never exits.
 *   - Arrays are row-major doubles owned by the caller and only read during
 *     the call; the library copies what it keeps.  Objects the library
 *     allocates (attnrank_points, strings in results) are released by the
 *     matching *_free / *_clear function; every such function accepts NULL
 *     or a zeroed struct.
 *   - Coordinates and beta are exact doubles (the certificates are about
 *     exactly these numbers); multiplicities are exact integers of any size.
 *   - Results are plain size-checked structs (below); a failed or cancelled
 *     call leaves its result zeroed but for its size field (nothing to
 *     clear, no partial result).
 *   - Thread safety: different threads may run calls at the same time on
 *     different result structs (points objects are read-only during a
 *     call and may be shared).  Process-wide settings (environment
 *     variables, OpenBLAS's own thread pool) are read, never written.
 *   - No FLINT, Arb, GMP or MPFR type appears here. */
#ifndef ATTNRANK_H
#define ATTNRANK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>   /* memset, for ATTNRANK_INIT */

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && defined(ATTNRANK_BUILDING)
#define ATTNRANK_EXPORT __attribute__((visibility("default")))
#else
#define ATTNRANK_EXPORT
#endif

/* ---- version ---- */

/* API version MAJOR.MINOR.PATCH as MAJOR * 10000 + MINOR * 100 + PATCH.  The
 * shared library's soname is libattnrank.so.MAJOR; a new MINOR adds
 * functions, enum values and fields at the END of the size-checked structs
 * below: a caller compiled against an older MINOR (from 0.3 on) keeps
 * working with the newer library, and one compiled against a newer MINOR
 * runs on an older library from 0.3 on (see "Size-checked structs").  0.3 changed the layout once:
 * every caller-allocated struct gained its leading size field, so callers
 * compiled against 0.2 or older must be rebuilt once (the soname stays .so.0
 * while MAJOR is 0; compare attnrank_api_version() with ATTNRANK_API_VERSION). */
#define ATTNRANK_API_VERSION_MAJOR 0
#define ATTNRANK_API_VERSION_MINOR 3
#define ATTNRANK_API_VERSION_PATCH 0
#define ATTNRANK_API_VERSION (ATTNRANK_API_VERSION_MAJOR * 10000 + ATTNRANK_API_VERSION_MINOR * 100 + \
                              ATTNRANK_API_VERSION_PATCH)

/* The library's version ("0.2.0"), static storage. */
ATTNRANK_EXPORT const char *attnrank_version(void);
/* ATTNRANK_API_VERSION of the library actually loaded (compare with the header's). */
ATTNRANK_EXPORT int attnrank_api_version(void);
/* One line naming attnrank, its source commit, MPFR, GMP, FLINT, Arb and the
 * BLAS core ("attnrank 0.2.0 (commit ...; MPFR ...)"), in a buffer of the
 * calling thread (valid until its next call of this function). */
ATTNRANK_EXPORT const char *attnrank_version_line(void);
/* The same as JSON object members ("\"attnrank\":\"0.2.0\",\"commit\":...",
 * no braces), in a buffer of the calling thread: what the CLI appends to
 * each JSON line. */
ATTNRANK_EXPORT const char *attnrank_version_json(void);

/* ---- size-checked structs ----
 *
 * Every struct the caller allocates and hands to the library by pointer
 * (attnrank_options, attnrank_ball_spec, attnrank_bracket_result,
 * attnrank_head_result, attnrank_funk_hecke_result, attnrank_law,
 * attnrank_law_verdict) starts with `size_t size`, which the CALLER sets to
 * its own sizeof before the call: ATTNRANK_INIT(&x) zeroes x and sets it
 * (attnrank_options_default and attnrank_ball_spec_default do it too).  The
 * library checks it on entry:
 *   - below the struct's size in API 0.3 (the first version with the field;
 *     a zeroed struct has size 0): ATTNRANK_EINVAL with one line naming the
 *     struct ("attnrank_bracket_result.size 0 is smaller than ...");
 *   - results (outputs): the library fills its own full copy and writes the
 *     first min(size, its sizeof) bytes of it into the caller's struct, never
 *     more, and never the size field (it stays the caller's); so a caller
 *     compiled against an older header gets the fields it knows, and one
 *     compiled against a newer header gets its tail left untouched;
 *   - inputs (options, ball spec, the result attnrank_bracket_json reads):
 *     fields beyond the caller's size take their defaults; fields beyond
 *     the library's sizeof (a newer caller) are ignored.
 * A failed call, attnrank_bracket_clear and attnrank_head_clear zero those
 * bytes and keep size, so a struct can be reused without a new ATTNRANK_INIT.
 * attnrank_law_point is an element of attnrank_law_verdict's array and has no
 * size of its own: its layout is fixed while MAJOR is 0.
 * ATTNRANK_INIT(p): zero *p and set p->size = sizeof *p (p is evaluated more
 * than once: pass a plain pointer such as &x). */
#define ATTNRANK_INIT(p) ((void)memset((p), 0, sizeof *(p)), (p)->size = sizeof *(p))

/* ---- status and errors ---- */

typedef enum {
    ATTNRANK_OK = 0,
    ATTNRANK_EINVAL = 1,     /* bad argument or malformed input */
    ATTNRANK_ENOMEM = 2,     /* allocation failed, or a size beyond the memory limit */
    ATTNRANK_EIO = 3,        /* a file could not be read or written */
    ATTNRANK_ENUMERIC = 4,   /* a numerical routine failed */
    ATTNRANK_ECANCELED = 5   /* the caller's cancellation flag was set */
} attnrank_status;

/* The last failure's one-line message in the calling thread ("" if none). */
ATTNRANK_EXPORT const char *attnrank_error_message(void);
/* Static name of a status ("ok", "invalid input", ..., "cancelled"). */
ATTNRANK_EXPORT const char *attnrank_status_name(attnrank_status s);

/* Check once, before any work, every environment variable the library reads
 * (ATTNRANK_MAX_ALLOC_GB, ATTNRANK_BALL_DENSE_MAX, ATTNRANK_MAX_SCALE_N,
 * OPENBLAS_CORETYPE, ATTNRANK_BLAS_AUTO, ATTNRANK_OOM_REEXEC, ATTNRANK_STREAM_MIB,
 * ATTNRANK_MAX_STREAM_N, ATTNRANK_FLINT_THREADS, OPENBLAS_NUM_THREADS,
 * ATTNRANK_SHARD_KEY; doc/cli.md "Environment"): ATTNRANK_EINVAL
 * with a line naming the variable and its range for any value outside it,
 * and apply ATTNRANK_FLINT_THREADS to FLINT.  Optional: every call that
 * computes reads the library's variables once, at its start, into the
 * settings it runs under (nothing deeper reads the environment), and a value
 * outside its range refuses that call with ATTNRANK_EINVAL. */
ATTNRANK_EXPORT attnrank_status attnrank_check_environment(void);

/* Release FLINT's caches and thread pool; optional, once, from the main
 * thread before exit, when no other call runs. */
ATTNRANK_EXPORT void attnrank_cleanup(void);

/* Release the calling thread's caches (FLINT/Arb's thread-local caches,
 * GLPK's environment): call it in a thread other than the main one before
 * the thread exits, or they leak (the Python package's worker threads do). */
ATTNRANK_EXPORT void attnrank_thread_cleanup(void);

/* ---- options of a computation ---- */

typedef enum {
    ATTNRANK_ENGINE_AUTO = 0,   /* every route that applies and is affordable (default) */
    ATTNRANK_ENGINE_DENSE = 1,  /* only the dense route */
    ATTNRANK_ENGINE_SCALE = 2   /* only the structured routes (circulant, packing, polynomial, scale) */
} attnrank_engine;

/* Stage messages of a running bracket (e.g. "rsvd: sketch of 64 columns"):
 * called in the calling thread, msg valid during the call only. */
typedef void (*attnrank_progress_fn)(void *ctx, const char *msg);

/* Upper constructions of the dense route (bit mask; 0 = automatic). */
#define ATTNRANK_UPPER_SVD 1u
#define ATTNRANK_UPPER_SYMEIG 2u   /* self-attention only */
#define ATTNRANK_UPPER_PCHOL 4u    /* self-attention only */
#define ATTNRANK_UPPER_RSVD 8u

typedef struct {
    size_t size;                    /* the caller's sizeof (size-checked structs, above) */
    attnrank_engine engine;
    unsigned upper;                 /* ATTNRANK_UPPER_* mask; 0: automatic (CLI default) */
    long prec;                      /* 0: double enclosure where it applies, else Arb 96 bits;
                                       53..4096: Arb at this precision (CLI --prec) */
    int threads;                    /* attnrank's own threads, 0 = default (ATTNRANK_THREADS, else the CPUs the process may use); 1..64 */
    uint64_t sketch_seed;           /* seed of the randomized sketch, 0 = default 20110217 */
    attnrank_progress_fn progress;  /* NULL: quiet */
    void *progress_ctx;
    /* Cancellation: when non-NULL, *cancel is read between the stages of a
     * computation and inside its long loops (passes over A, lower-certificate
     * probes, polynomial passes, sweep points); once it is non-zero the call
     * returns ATTNRANK_ECANCELED and no result.  Set it from any thread. */
    const volatile int *cancel;
    double memory_limit_gb;         /* largest single allocation in GiB for this call, in
                                       [1e-6, 1048576]; 0: ATTNRANK_MAX_ALLOC_GB or 16 */
} attnrank_options;

/* The defaults written into the first min(size, the library's sizeof) bytes
 * of *o, o->size = size: engine auto, automatic uppers, prec 0, threads 0,
 * seed 0, no callback, no cancel flag, memory limit 0 (every field zero).
 * ATTNRANK_EINVAL (nothing written) for o NULL or a size below the struct's
 * 0.3 size.  Call it through attnrank_options_default. */
ATTNRANK_EXPORT attnrank_status attnrank_options_default_sized(attnrank_options *o, size_t size);

/* Defaults for *o (NULL: nothing): ATTNRANK_INIT(o), then the library's
 * defaults for the fields it knows (a header inline: the caller's sizeof). */
static inline void attnrank_options_default(attnrank_options *o)
{
    if (o) {
        ATTNRANK_INIT(o);
        (void)attnrank_options_default_sized(o, sizeof *o);
    }
}

/* ---- point sets ---- */

/* An opaque point set: n distinct points in R^d (exact doubles) with
 * multiplicities >= 1 of any size (none: all 1) and a provenance line. */
typedef struct attnrank_points attnrank_points;

/* A copy of the n x d row-major array x (finite entries, n, d >= 1) with
 * optional multiplicities: w64 (n values >= 1) or wdec (n decimal strings of
 * positive integers of any size, digits only); at most one of them non-NULL.
 * provenance: a short description or NULL.  *out owned by the caller
 * (attnrank_points_free). */
ATTNRANK_EXPORT attnrank_status attnrank_points_new(const double *x, size_t n, size_t d, const uint64_t *w64,
                                                    const char *const *wdec, const char *provenance,
                                                    attnrank_points **out);

/* The rows of a .npy file (float64 or float32, C or Fortran order, n x d)
 * with the multiplicities of a text file (one positive decimal integer per
 * line), mult_path NULL for none: the readers of the CLI. */
ATTNRANK_EXPORT attnrank_status attnrank_points_read(const char *npy_path, const char *mult_path,
                                                     attnrank_points **out);

/* The points of sphere family `family` ("polygon" (d = 2), "fibonacci"
 * (d = 3), "packing" (separation theta, at most n points) or "uniform"
 * (seeded)) of n points in dimension d: the CLI's --geometry sphere.  theta
 * NaN means the default separation attnrank_sphere_packing_theta(beta) for
 * the packing family (ignored by the others; the packing needs theta > 0). */
ATTNRANK_EXPORT attnrank_status attnrank_sphere_generate(const char *family, size_t d, size_t n, double theta,
                                                         double beta, uint64_t seed, attnrank_points **out);

/* Default packing separation 3 / sqrt(1 + beta). */
ATTNRANK_EXPORT double attnrank_sphere_packing_theta(double beta);

/* A ball instance (claim B): family "shells", "dense" or "uniform" in B^d. */
typedef struct {
    size_t size;         /* the caller's sizeof (size-checked structs, above) */
    char family[16];     /* "shells", "dense" or "uniform" */
    size_t d;            /* 2..16 */
    double beta;         /* > 0: spacings (shells) and multiplicities */
    double rho0;         /* inner radius in [0, 1) (default sqrt(3)/2) */
    size_t npoints;      /* dense (approximate) and uniform (exact) sizes, 1..5000000 (default 2000) */
    uint64_t seed;       /* default 1 */
    int unweighted;      /* 1: no multiplicities */
    double m0;           /* multiplicity scale >= 1 (default 1) */
} attnrank_ball_spec;

/* Defaults of the CLI for family in dimension d at beta, written into the
 * first min(size, the library's sizeof) bytes of *s, s->size = size
 * (ATTNRANK_EINVAL for an unknown family, NULL arguments or a size below the
 * struct's 0.3 size).  Call it through attnrank_ball_spec_default. */
ATTNRANK_EXPORT attnrank_status attnrank_ball_spec_default_sized(attnrank_ball_spec *s, size_t size,
                                                                 const char *family, size_t d, double beta);

/* Defaults of the CLI for family in dimension d at beta (ATTNRANK_EINVAL for
 * an unknown family): ATTNRANK_INIT(s), then the library's defaults (a header
 * inline: the caller's sizeof). */
static inline attnrank_status attnrank_ball_spec_default(attnrank_ball_spec *s, const char *family, size_t d,
                                                         double beta)
{
    if (s)
        ATTNRANK_INIT(s);
    return attnrank_ball_spec_default_sized(s, sizeof *s, family, d, beta);
}

/* Generate the ball instance (multiplicities round(m0 exp(beta (1-|x|^2)/2)),
 * exact).  Refused before any work when it could not finish (README). */
ATTNRANK_EXPORT attnrank_status attnrank_ball_generate(const attnrank_ball_spec *s, attnrank_points **out);

ATTNRANK_EXPORT void attnrank_points_free(attnrank_points *p);
ATTNRANK_EXPORT size_t attnrank_points_count(const attnrank_points *p);       /* distinct points */
ATTNRANK_EXPORT size_t attnrank_points_dim(const attnrank_points *p);
/* The coordinates (n x d row-major), valid while p lives. */
ATTNRANK_EXPORT const double *attnrank_points_coords(const attnrank_points *p);
/* 1 if p has multiplicities (else every multiplicity is 1). */
ATTNRANK_EXPORT int attnrank_points_weighted(const attnrank_points *p);
/* Multiplicity of point i as a decimal string into buf (cap bytes with the
 * NUL); ATTNRANK_EINVAL when i >= n or buf is too small (*need is set to the
 * bytes needed when need != NULL). */
ATTNRANK_EXPORT attnrank_status attnrank_points_weight(const attnrank_points *p, size_t i, char *buf, size_t cap,
                                                       size_t *need);
/* Total multiplicity as a newly allocated decimal string (attnrank_free). */
ATTNRANK_EXPORT attnrank_status attnrank_points_total(const attnrank_points *p, char **out);
/* The provenance line, valid while p lives. */
ATTNRANK_EXPORT const char *attnrank_points_provenance(const attnrank_points *p);

/* Write the coordinates as an n x d float64 .npy file. */
ATTNRANK_EXPORT attnrank_status attnrank_points_write_npy(const attnrank_points *p, const char *path);

/* Read a .npy file into a newly allocated rows x cols array (attnrank_free). */
ATTNRANK_EXPORT attnrank_status attnrank_npy_read(const char *path, double **x, size_t *rows, size_t *cols);

/* attnrank_npy_read for a logit bias or mask (attnrank_bracket_biased): -inf entries accepted,
 * NaN and +inf refused. */
ATTNRANK_EXPORT attnrank_status attnrank_npy_read_bias(const char *path, double **x, size_t *rows, size_t *cols);

/* Free memory the library allocated for the caller (strings, arrays). */
ATTNRANK_EXPORT void attnrank_free(void *p);

/* ---- the bracket of one instance ---- */

#define ATTNRANK_NAME_LEN 64

typedef struct {
    size_t size;                      /* the caller's sizeof (size-checked structs, above) */
    size_t lower, upper;              /* lower <= rank_eps(A) <= upper, both certified */
    char status[16];                  /* "certified" or "inconclusive" (README "Statuses") */
    char routes[96];                  /* routes that ran, comma-separated */
    char lower_route[16], upper_route[16];   /* route of each end ("dense", "polynomial", ...) */
    char lower_certificate[ATTNRANK_NAME_LEN];   /* e.g. "invnorm", "circulant-blocks", "trivial" */
    char upper_certificate[ATTNRANK_NAME_LEN];   /* e.g. "rsvd", "polynomial", "trivial" */
    double lower_invnorm_bound;       /* certified ||M^-1||_inf of the lower end (eps * it < 1);
                                         -1 when the certificate has none (packing-diagdom);
                                         attnrank_bracket_ball: the cluster certificate's, as computed */
    double upper_err_bound;           /* certified ||A - B||_r1 of the upper end (<= eps) */
    char *n;                          /* total key multiplicity, exact decimal (owned: attnrank_bracket_clear) */
    char *m;                          /* total query multiplicity, exact decimal (owned) */
    double log10_n;                   /* log10 of n */
    size_t distinct_keys, distinct_queries, d;
    int self_attention;               /* 1: keys are the queries */
    double beta, eps;
    double enclosure_err;             /* max row-l1 error of the enclosure of A */
    long prec;                        /* Arb precision used (53: double enclosure) */
    char enclosure[8];                /* "double" or "arb" */
    int streamed;                     /* 1: A was evaluated in row blocks, never stored */
    int rsvd_run;                     /* 1: the randomized certificates ran (fields below) */
    size_t rsvd_rank, rsym_rank, rsvd_sketch, rsvd_passes;
    int rsvd_power;
    uint64_t rsvd_seed;
    size_t polygon_n;                 /* > 0: recognised as the regular polygon_n-gon */
    double polygon_eta;               /* its certified distance in ||.||_r1 */
    size_t poly_degree;               /* degree of the polynomial certificate (0: not run) */
    double seconds, seconds_enclose;  /* wall times */
    /* ball instances (attnrank_bracket_ball) only: */
    double log10_max_multiplicity;
    size_t cluster_centres;
    double cluster_delta, cluster_max_r;
    size_t tensor_points_per_axis, tensor_rank;
    int tensor_capped;
    double tensor_ratio;
    int dense_run;
    double seconds_generate;
    /* since 0.2 (issue 32): */
    char engine[8];                   /* the engine asked for: "auto", "dense" or "scale" */
    char *route_plan;                 /* JSON array, one object per route ("circulant", "ball", "packing",
                                         "polynomial", "scale", "dense"): {"route", "decision" ("ran",
                                         "skipped", "cut short" or "not applicable"), "predicted_seconds"
                                         (the cost model's estimate, or null), "seconds", "reason"} (owned) */
    double lower_budget_flops;        /* the dense route's lower searches: their budget (estimated flops, 0:
                                         the dense route did not run) */
    double lower_spent_flops;         /* ... what they spent */
    int lower_cut;                    /* 1: one of them stopped at the budget (a smaller, still certified end) */
    int logit_bias;                   /* 1: the matrix carries a logit bias or mask (attnrank_bracket_biased) */
} attnrank_bracket_result;

/* Certified bracket of A = rowsoftmax(beta Q K^T) with K's multiplicities,
 * through the route chooser of `attnrank bracket` (every route that applies
 * and is affordable; README "One bracket, every route").  K == NULL or K == Q:
 * self-attention (the structured routes apply only then).  beta finite >= 0,
 * 0 < eps < 1, same dimension; o NULL: defaults.  The query multiplicities
 * are ignored (repeated queries do not change the eps-rank).  On success
 * *r is filled (release with attnrank_bracket_clear). */
ATTNRANK_EXPORT attnrank_status attnrank_bracket(const attnrank_points *Q, const attnrank_points *K, double beta,
                                                 double eps, const attnrank_options *o, attnrank_bracket_result *r);

/* The same on arrays: queries m x d and keys n x d (row-major; keys NULL:
 * self-attention on the queries), multiplicities of the keys as w64 or wdec
 * (at most one; see attnrank_points_new). */
ATTNRANK_EXPORT attnrank_status attnrank_bracket_arrays(const double *queries, size_t m, const double *keys,
                                                        size_t n, size_t d, const uint64_t *w64,
                                                        const char *const *wdec, double beta, double eps,
                                                        const attnrank_options *o, attnrank_bracket_result *r);

/* attnrank_bracket for the attention a model computes with a mask or an additive bias on the
 * logits (issue 32: causal decoders, padding), Q m x d and K n x d (K NULL: the queries):
 *   A_ij = w_j exp(beta q_i.k_j + b_ij) / sum_l w_l exp(beta q_i.k_l + b_il),
 * bias: m x n row-major doubles over the queries and keys as given (NULL: attnrank_bracket_arrays),
 * each finite or -inf; b_ij = -inf masks the entry, which is then exactly 0 (a boolean mask is 0
 * and -inf; a causal mask has -inf above the diagonal), and every row needs one finite entry
 * (ATTNRANK_EINVAL names the row otherwise, or a NaN or +inf entry).  Only the dense route's
 * certificates apply (route_plan says so); the enclosure accounts for the bias's rounding
 * (proofs-notes/fast-enclosure.md, Lemma 2b).  Self-attention when keys is NULL or holds the
 * queries' points, as for attnrank_bracket.  bias is only read during the call. */
ATTNRANK_EXPORT attnrank_status attnrank_bracket_biased(const attnrank_points *Q, const attnrank_points *K,
                                                        const double *bias, double beta, double eps,
                                                        const attnrank_options *o, attnrank_bracket_result *r);

/* `attnrank bracket --geometry ball`: generate s and bracket self-attention
 * on it (the ball route and, up to ATTNRANK_BALL_DENSE_MAX distinct points,
 * the dense one); the ball fields of *r are set.  When points != NULL the
 * generated instance is handed to the caller (*points, attnrank_points_free). */
ATTNRANK_EXPORT attnrank_status attnrank_bracket_ball(const attnrank_ball_spec *s, double eps,
                                                      const attnrank_options *o, attnrank_bracket_result *r,
                                                      attnrank_points **points);

/* Free what a bracket result owns and zero it, size kept (NULL, zeroed or a
 * size below the 0.3 size: nothing). */
ATTNRANK_EXPORT void attnrank_bracket_clear(attnrank_bracket_result *r);

/* The JSON object of a result of attnrank_bracket or attnrank_bracket_arrays, one line without
 * the newline, exactly as `attnrank bracket --format json` prints it: source is the instance's
 * description (the "source" field; NULL: "arrays"), seed the generator's seed or NULL (the "seed"
 * field: null).  The same result gives the same text from every door (CLI, C, Python).  *out
 * owned by the caller (attnrank_free). */
ATTNRANK_EXPORT attnrank_status attnrank_bracket_json(const attnrank_bracket_result *r, const char *source,
                                                      const uint64_t *seed, char **out);

/* ---- one attention head ---- */

#define ATTNRANK_HEAD_MAX_TAUS 32
#define ATTNRANK_NONE ((size_t)-1)   /* "no rank certified" */

typedef struct {
    size_t size;                   /* the caller's sizeof (size-checked structs, above) */
    size_t r;                      /* visible dimension: numerical rank of the row-centred logits */
    long r_exact;                  /* exact rank of the stored doubles, -1: not computed */
    double tol, tol_safety;        /* the rank tolerance and its safety factor */
    size_t ntau;
    double tau[ATTNRANK_HEAD_MAX_TAUS];
    size_t r_tau[ATTNRANK_HEAD_MAX_TAUS];      /* least k with eta(k) <= tau, or ATTNRANK_NONE */
    double eta[ATTNRANK_HEAD_MAX_TAUS];        /* certified eta(r_tau), NaN when none */
    size_t upper_via[ATTNRANK_HEAD_MAX_TAUS];  /* rank_eps <= upper_via through A_r(tau) at eps - eta, or NONE */
    size_t lower, upper;           /* the best certified bracket */
    char status[16];
    char lower_route[16], upper_route[16];   /* "direct", "visible" or "r(tau)" */
    size_t head_dim, m, distinct_keys;
    char *n;                       /* total key multiplicity, decimal (owned) */
    double beta, eps;
    size_t direct_lower, direct_upper;       /* the direct bracket (bracket_compute) */
    char direct_status[16];
    char direct_lower_certificate[ATTNRANK_NAME_LEN], direct_upper_certificate[ATTNRANK_NAME_LEN];
    size_t visible_lower, visible_upper;     /* through the rank-r logits (0: not run) */
    double visible_eta;
    char visible_status[32];
    size_t nsigma;
    double *sigma;                 /* singular values of the row-centred logits, descending (owned) */
    double seconds;
    /* weights-only mode (attnrank_head_weights): */
    size_t model_dim;
    double radius;
} attnrank_head_result;

/* `attnrank head`: r, r_exact, r(tau) with eta, and the bracket of the head
 * with queries Q (m x dh) and keys K (n x dh, optional multiplicities).
 * beta NaN: 1/sqrt(dh); taus (each in (0, 2), at most ATTNRANK_HEAD_MAX_TAUS)
 * NULL/0: {0.05}; exact_max: r_exact only when m n dh <= exact_max (0:
 * default 2^24; 1: never). */
ATTNRANK_EXPORT attnrank_status attnrank_head(const attnrank_points *Q, const attnrank_points *K, double beta,
                                              double eps, const double *taus, size_t ntau, size_t exact_max,
                                              const attnrank_options *o, attnrank_head_result *h);

/* Weights-only mode: r, r_exact and r(tau) of beta WQ WK^T (dmodel x dh
 * each) for inputs of norm <= radius (> 0).  beta NaN: 1/sqrt(dh). */
ATTNRANK_EXPORT attnrank_status attnrank_head_weights(const double *wq, const double *wk, size_t dmodel, size_t dh,
                                                      double beta, double radius, const double *taus, size_t ntau,
                                                      const attnrank_options *o, attnrank_head_result *h);

/* Free what a head result owns and zero it, size kept (as attnrank_bracket_clear). */
ATTNRANK_EXPORT void attnrank_head_clear(attnrank_head_result *h);

/* ---- the Funk-Hecke spectral check (not a certificate) ---- */

typedef struct {
    size_t size;                /* the caller's sizeof (size-checked structs, above) */
    size_t n, d;
    double beta, tau;
    size_t count_pred;          /* continuum eigenvalues >= tau lambda_0, with multiplicity */
    size_t count_num;           /* computed eigenvalues >= tau (largest computed) */
    unsigned long max_degree;   /* largest k with lambda_k >= tau lambda_0 */
    double max_relerr;          /* largest relative error over the first count_pred */
    size_t worst_index;
    double lambda0_pred, lambda0_num;
    double seconds;
} attnrank_funk_hecke_result;

/* `attnrank funk-hecke`: the eigenvalues of K/n, K_ij = exp(beta (x_i.x_j - 1)),
 * for the points P on the unit sphere (no multiplicities), against the
 * continuum's Funk-Hecke eigenvalues, in double precision; 0 < tau <= 1. */
ATTNRANK_EXPORT attnrank_status attnrank_funk_hecke(const attnrank_points *P, double beta, double tau,
                                                    const attnrank_options *o, attnrank_funk_hecke_result *r);

/* ---- the laws table (read-only) and one row's verdict ---- */

typedef struct {
    size_t size;              /* the caller's sizeof (size-checked structs, above) */
    char claim[4];            /* "S", "B", "R" */
    int dim;                  /* d (S, B) or r (R) */
    char variable[16];        /* "1+beta" or "beta" */
    double predicted, tol, eps, band_lo, band_hi;
    size_t nbetas;
    double betas[32];         /* the fit window's sample points */
    size_t nns;
    double ns[32];            /* saturation rows: instance sizes */
    char family[32];
    char kind[16];            /* "exponent", "saturation" or "report" */
    char tier[16];            /* "default" or "extended" */
    char upper_source[16];    /* "instance" or "continuum" */
    int asserted;             /* 1: make verify asserts its verdict */
    char scope[512];          /* what the row does and does not test */
} attnrank_law;

/* Number of rows of the laws table. */
ATTNRANK_EXPORT size_t attnrank_laws_count(void);
/* Row i (0-based) of the table into *law; ATTNRANK_EINVAL when i is out of range. */
ATTNRANK_EXPORT attnrank_status attnrank_law_get(size_t i, attnrank_law *law);

/* One point of a verdict: an element of attnrank_law_verdict.pts, no size field (its layout is
 * fixed while MAJOR is 0; new per-point data would go to a new array at the end of the verdict). */
typedef struct {
    double beta;
    size_t n;                 /* instance size (distinct points; 0: none) */
    double log10_n;
    size_t lower, upper, continuum;           /* certified ends (0: none) */
    char lower_method[48], upper_method[48], continuum_method[48];
    size_t upper_fitted;      /* the upper value fitted (instance or continuum) */
    char status[16];
    double seconds;
} attnrank_law_point;

typedef struct {
    size_t size;              /* the caller's sizeof (size-checked structs, above) */
    size_t row;
    char verdict[16];         /* "pass", "fail" or "inconclusive" */
    char reason[256];
    double fit_lower, fit_upper;              /* fitted exponents (0 for saturation rows) */
    double band_min, band_max;                /* observed extremes of lower/law and upper/law */
    size_t npts;
    attnrank_law_point pts[32];
    double seconds;
} attnrank_law_verdict;

/* Run row i's sweep through the route chooser, fit, judge (what `attnrank
 * verify` prints for the row).  o: progress (one message per point) and
 * cancel are honoured, the other fields ignored (the rows declare theirs). */
ATTNRANK_EXPORT attnrank_status attnrank_law_run(size_t i, const attnrank_options *o, attnrank_law_verdict *v);

/* ---- the sweeps of the CLI: verify, scale, calib, merge ----
 *
 * DEPRECATED (since the version after 0.2.0, CHANGELOG "Unreleased"; to be
 * removed one version later): returns 2 and sets
 * attnrank_error_message() to one line saying so, whatever argv holds.
 * It used to parse the sweep options inside the library and print the
 * tables from it; the sweeps now take typed specs (scale, verify, calib:
 * the C structs of sweeps/sweep_spec.h, with a JSON form that the shard
 * headers store), their options are parsed by the attnrank command
 * (cli/sweep_args.c), and merges read the spec stored in the shard headers.
 * Run the sweeps with the `attnrank verify|scale|calib|merge` command. */
ATTNRANK_EXPORT int attnrank_sweep_command(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
