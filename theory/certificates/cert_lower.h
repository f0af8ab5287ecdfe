/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_lower.h -- lower certificates for the eps-rank (THEORY 3.4).
 *
 * Test-matrix certificate: rows S = {s_1..s_m}, a matrix W (n x m) with
 * ||W||_r1 <= 1, M = A_S W.  If M is invertible and eps ||M^{-1}||_inf < 1
 * then every B with ||A - B||_r1 <= eps has rank >= m.
 * Here W is the indicator of a partition of the columns into m blocks
 * (block b = columns j whose largest entry a_{s_a, j} over the chosen rows
 * is at a = b, ties to the first), so M_ab = sum_{j in block b} A_{s_a, j}.
 * M is known as Mmid + E with ||E||_inf <= max_{i in S} rowerr[i] plus the
 * rounding of the block sums (accounted for).  ||M^{-1}||_inf is bounded by
 * Varah's diagonal-dominance bound when it applies (THEORY 3.4a, O(m n)),
 * otherwise by invnorm_inf_bound (O(m^3)). */
#ifndef ATTNRANK_THEORY_CERT_LOWER_H
#define ATTNRANK_THEORY_CERT_LOWER_H

#include <stddef.h>
#include <stdint.h>
#include "numerics/status.h"
#include "numerics/softmax.h"
#include "theory/certificates/cert_method.h"

typedef struct {
    size_t rank;        /* rank_eps(A) >= rank is certified */
    double invnorm;     /* certified bound on ||M^{-1}||_inf, eps * invnorm < 1
                           (trivial: 1, the 1x1 test matrix of the all-ones W) */
    ar_method_t method; /* diagdom, invnorm or trivial (rank 1: ||A||_r1 = 1 > eps) */
    double seconds;
} lower_cert_t;

/* Work control of the searches whose cost can exceed the factorisations' (issue 32: the greedy
 * growth over 2048 candidate rows made 2048 LU factorisations of up to 1700 x 1700).  Costs are
 * counted in estimated flops from the sizes alone, so that where a search stops is a function of
 * the instance, never of the machine or its load. */
typedef void (*lower_progress_fn)(void *ctx, const char *msg);
typedef struct {
    double budget;                /* flops the searches sharing this struct may spend; <= 0: unlimited */
    double spent;                 /* in/out: flops spent so far */
    int cut;                      /* out: 1 once a search stopped early, or was not started, on the budget */
    lower_progress_fn progress;   /* a message at least once a second in the long loops, or NULL */
    void *progress_ctx;
    uint64_t peeled;              /* in/out: a 64-bit signature of the last row set lower_peel_cap started
                                     from (0: none); a call on the same set adds nothing and is skipped */
    int repeat;                   /* out of lower_peel_cap: 1 when it skipped a repeated set, else 0 */
    size_t floor;                 /* lower_nets_ctl: a net of at most floor rows (a certificate no larger
                                     than one the caller holds) is not computed and is taken as
                                     certified for the search's direction only; 0: none */
} lower_ctl_t;

/* A progress message through ctl (NULL, or no callback: nothing) when at least a second passed
 * since *last (then *last = now): what the long loops call; never touches a result. */
void lower_tick(const lower_ctl_t *ctl, double *last, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The certificate's inequality: 1 if eps * bound < 1 with the product
 * rounded upward (so rounding can never make a failing test pass), 0 for a
 * non-finite or negative bound.  bound is a certified ||M^{-1}||_inf. */
int lower_certifies(double eps, double bound);

/* Certificate for one given row set S (rows[0..m), distinct) with the block
 * test matrix described above.  out->rank = m if certified, else the trivial
 * certificate (rank 1 when eps < 1).  0 < eps < 1 required (AR_EINVAL
 * otherwise, also for repeated or out-of-range rows).  The test
 * eps * bound < 1 is evaluated with the product rounded upward.  Cost
 * O(m n) plus O(m^3) when Varah's bound does not certify. */
ar_status lower_blocks_rows(const smx_t *A, const size_t *rows, size_t m, double eps,
                            lower_cert_t *out);

/* Largest certified prefix of `order` (distinct row indices, typically the
 * farthest-point order of the queries): galloping over the prefix length
 * (1, 2, 4, ... up to min(norder, n)) until a probe fails, then bisection
 * between the last certified and the first failed length; each probe is
 * one lower_blocks_rows evaluation.  Certification is not guaranteed to be
 * monotone in the length, so the result is the largest length found that
 * was actually certified (never an uncertified one); rank 1 (trivial) if
 * none. */
ar_status lower_blocks(const smx_t *A, const size_t *order, size_t norder, double eps,
                       lower_cert_t *out);

/* lower_blocks with every probe longer than cap answered "not certified"
 * without computing it.  When cap is a certified upper bound on rank_eps(A)
 * such probes cannot certify, so the result equals lower_blocks' (cap =
 * SIZE_MAX is lower_blocks); for any other cap the result is still a
 * certificate, possibly smaller. */
ar_status lower_blocks_cap(const smx_t *A, const size_t *order, size_t norder, double eps, size_t cap,
                           lower_cert_t *out);

/* lower_blocks_cap whose bisection runs only when the first failed length is at most
 * bisect_max: above it the bisection's ~log2(len) probes of O(len^3) each are not made, the
 * result is the last certified power-of-two prefix and *failed (or NULL) receives the failed
 * length (else 0), for the caller's cheaper search on that prefix (bracket_blocks_fps peels it).
 * bisect_max = SIZE_MAX is lower_blocks_cap. */
ar_status lower_blocks_gallop(const smx_t *A, const size_t *order, size_t norder, double eps, size_t cap,
                              size_t bisect_max, lower_cert_t *out, size_t *failed);

/* Diagonal dominance exactly as THEORY 3.4(a): rows[t] paired with column
 * cols[t]; certified when for every t
 *    A_{rows[t],cols[t]} - sum_{u != t} A_{rows[t],cols[u]} > eps
 * (with the enclosure error accounted for).  O(m^2). */
ar_status lower_diagdom(const smx_t *A, const size_t *rows, const size_t *cols, size_t m,
                        double eps, lower_cert_t *out);

/* Greedy delta-nets of the query points x (m x d row-major, the rows of A)
 * taken in index order (natural for structured families: consecutive
 * polygon vertices, the Fibonacci spiral), each probed with the block test
 * matrix of lower_blocks_rows; bisection over log(delta) for the largest
 * certified net.  Complements lower_blocks, whose farthest-point prefixes
 * are evenly spread only at some sizes.  O(30 (m |S| d + n |S| + |S|^3)). */
ar_status lower_nets(const smx_t *A, const double *x, size_t d, double eps, lower_cert_t *out);

/* lower_nets with nets of more than cap points answered "not certified"
 * (same result when cap is a certified upper bound, as lower_blocks_cap). */
ar_status lower_nets_cap(const smx_t *A, const double *x, size_t d, double eps, size_t cap, lower_cert_t *out);

/* lower_nets_cap under the work control ctl (NULL: unlimited): a net is probed only when its
 * estimated cost (m k d + 2 k n + 4 k^3 flops for k points) fits in the budget; otherwise the
 * search stops there (ctl->cut = 1) with the largest net certified so far. */
ar_status lower_nets_ctl(const smx_t *A, const double *x, size_t d, double eps, size_t cap, lower_ctl_t *ctl,
                         lower_cert_t *out);

/* Greedy growth over the candidate rows cand[0..ncand) (distinct; typically the pivoted-QR
 * order of a sketch's factor rows, cert_rsvd.h rsvd_opts_t.row_order): in order, a candidate
 * joins the set when the block test matrix of the grown set (blocks as lower_blocks_rows, ties
 * to the earlier member) has an estimated eps ||M^{-1}||_inf below 1 - 1e-6 (LAPACK inverse;
 * only a guide), up to min(ncand, n, cap) rows.  The grown set is then certified exactly as
 * lower_blocks_rows certifies a given set (the last members dropped, at most 8 times, should the
 * rigorous bound fail); the result is that certificate, or the trivial one.  How the set was
 * found plays no part in its validity (proofs-notes/lower-certificates.md, 3.3).  cap as
 * lower_blocks_cap.  rows_out (ncand entries, or NULL) receives the certified rows, in the
 * order whose block test matrix was certified (out->rank of them).  O(ncand (|S| n + |S|^3)). */
ar_status lower_grow_cap(const smx_t *A, const size_t *cand, size_t ncand, double eps, size_t cap,
                         lower_cert_t *out, size_t *rows_out);

/* lower_grow_cap under the work control ctl (NULL: unlimited, as lower_grow_cap): each candidate
 * costs its estimate's flops (2/3 s^3 for the LU, 4/3 s^3 more for the inverse); when the next
 * would exceed the budget the growth stops (ctl->cut = 1) and the set grown so far is certified
 * as above -- a smaller certificate, never a wrong one.  Progress once a second. */
ar_status lower_grow_ctl(const smx_t *A, const size_t *cand, size_t ncand, double eps, size_t cap,
                         lower_ctl_t *ctl, lower_cert_t *out, size_t *rows_out);

/* Peeling (issue 32; proofs-notes/lower-certificates.md 3.6): the rows S = the first s0 =
 * min(ncand, n, cap) candidates, each column assigned once to the row of S holding its largest
 * entry (ties: the first), M = A_S W of that block test matrix and R ~ M^{-1} (one LU).  While some
 * row of R has l1 norm above 0.99 / eps, the half of those rows with the largest norms (ties: the
 * earlier) are removed with their blocks, and R is updated to the inverse of what remains by the
 * Schur complement (O(s^2 k) for k rows instead of a new O(s^3) inverse).  The blocks of removed
 * rows are dropped, not reassigned: W keeps at most one 1 per column, so every intermediate M is
 * the test matrix of a valid W.  The final set is certified as lower_blocks_certify certifies a
 * given assignment, with the updated R as the approximate inverse (its accuracy is checked by the
 * verified bound itself; a fresh LU when that fails).  How the set was found plays no part in the
 * certificate's validity.  Costs about 2 s0^3 + the updates + 2 s0^3 for the check; refused
 * (trivial, ctl->cut = 1) when its estimate exceeds ctl's budget, skipped (trivial) when ctl
 * records a peel from the same set of s0 rows (the factors of a near-full-rank image share
 * their leading pivoted rows).  rows_out (ncand entries, or
 * NULL): the certified rows, in candidate order. */
ar_status lower_peel_cap(const smx_t *A, const size_t *cand, size_t ncand, double eps, size_t cap,
                         lower_ctl_t *ctl, lower_cert_t *out, size_t *rows_out);

/* The diagonally dominant subset (proofs-notes/lower-certificates.md 3.7): the rows S = the first
 * s = min(ncand, n) candidates, each column assigned to the row of S holding its largest entry
 * (ties: the first), M = A_S W; the rows t with 2 M_tt - sum_u M_tu > 1.0001 eps are kept (at most
 * cap of them, in candidate order).  Dropping a row moves its columns to other rows' blocks,
 * which leaves each row's sum over the assigned columns unchanged and never lowers a kept row's
 * diagonal block, so the kept rows stay dominant with their own blocks; they are certified by
 * lower_blocks_rows (Varah's bound: O(k n)).  How the rows were chosen plays no part in the
 * certificate.  O(s n) to choose.  rows_out (ncand entries, or NULL): the certified rows. */
ar_status lower_dominant_rows(const smx_t *A, const size_t *cand, size_t ncand, double eps, size_t cap,
                              lower_cert_t *out, size_t *rows_out);

/* The estimated flops of lower_peel_cap on s0 rows of an n-column image (2 s0 n + 5 s0^3). */
double lower_peel_cost(size_t s0, size_t n);

/* Weighted test matrices (issue 24; proofs-notes/lower-certificates.md 3.3): the prefixes of
 * cand[0..ncand) (distinct rows; typically the rows lower_grow_cap certified, first of them, then
 * the other pivoted-QR candidates) longer than `first`, galloping (first + 2, + 4, ...) until one
 * fails, then bisection; each prefix S is probed with W = Z / c, Z an approximate right inverse
 * of A_S from iteratively reweighted least-norm steps (a guide only, one BLAS thread) and c >=
 * ||Z||_r1 certified upward, so ||W||_r1 <= 1; M = A_S W (dgemm) with its rounding and the
 * enclosure bounded, then Varah or the verified inverse norm as for the blocks (method
 * "diagdom" or "invnorm").  The result is the largest certified prefix, or the trivial
 * certificate.  cap as lower_blocks_cap.  rows_out (ncand entries) and w_out (ncand * n
 * doubles: W^T, s x n column-major), or NULL, receive the certified rows and W.
 * O(16 log(ncand) |S|^2 n). */
ar_status lower_weighted_cap(const smx_t *A, const size_t *cand, size_t ncand, size_t first, double eps,
                             size_t cap, lower_cert_t *out, size_t *rows_out, double *w_out);

/* lower_weighted_cap under the work control ctl (NULL: unlimited): a prefix is probed only when
 * its worst-case cost (16 reweighting steps of 3 s^2 n + s^3 flops, and the check) fits in the
 * budget; otherwise the search stops there (ctl->cut = 1) with the best certificate found. */
ar_status lower_weighted_ctl(const smx_t *A, const size_t *cand, size_t ncand, size_t first, double eps,
                             size_t cap, lower_ctl_t *ctl, lower_cert_t *out, size_t *rows_out, double *w_out);

#endif
