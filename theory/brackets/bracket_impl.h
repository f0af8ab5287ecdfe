/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bracket_impl.h -- what bracket.c and bracket_stream.c share (private). */
#ifndef ATTNRANK_THEORY_BRACKET_IMPL_H
#define ATTNRANK_THEORY_BRACKET_IMPL_H

#include "theory/brackets/bracket.h"

/* Start of bracket_compute and bracket_compute_stream: *o <- the defaults when
 * NULL (def holds them), out zeroed with status "inconclusive", the arguments
 * validated (AR_EINVAL with a message). */
ar_status bracket_begin(const pointset_t *Q, const pointset_t *K, double beta, double eps,
                        const bracket_opts_t **o, bracket_opts_t *def, bracket_t *out);

/* out <- the trivial bracket 1 <= rank <= min(m, n), status "inconclusive". */
void bracket_set_trivial(bracket_t *out, size_t m, size_t n);

/* Stage message through o->progress (printf-style), if set. */
void bracket_say(const bracket_opts_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* First sketch size of rsvd from the certified lower end and the caller's cap. */
size_t bracket_sketch_size(size_t lower, size_t cap, size_t r);

/* The rsvd options of a bracket (seed, progress). */
void bracket_rsvd_opts(const bracket_opts_t *o, size_t l0, int power, rsvd_opts_t *ro);

/* Cross-attention queries whose norms spread (max/min > 1.5): the upper half by norm
 * (ties by index), in farthest-point order, its first min(half, maxlen) entries into order
 * (returns that length, 0 when the rule does not apply or allocation fails; the prefix costs
 * O(m maxlen d), fps_prefix).  Rows with larger |q| have more peaked softmax rows, whose block
 * test matrices certify more (lower-certificates.md, 3.3). */
size_t bracket_outer_order(const pointset_t *Q, size_t *order, size_t maxlen);

/* lower_blocks_cap(A, order, len, eps, cap, lc) on the farthest-point order of the queries Q
 * (outer = 0: fps_order of Q, len = m) or of their outer half (outer = 1: bracket_outer_order,
 * lc->rank 0 when that rule does not apply), with the order computed only as far as the search
 * reads it: the same certificate, at O(m L d) for the order instead of O(m^2 d), L the first
 * power of two (from 256, by factors of 4) beyond the certified prefix (4000 queries: the
 * order's 84 ms -> about 5 ms).  order: m entries of scratch. */
ar_status bracket_blocks_fps(const smx_t *A, const pointset_t *Q, int outer, double eps, size_t cap,
                             size_t *order, lower_cert_t *lc);

/* The budget a secondary lower search may reach: what ctl has spent plus BRACKET_SHARE of its
 * budget (at least BRACKET_LOWER_FLOOR), never above the budget itself; ctl's budget when it has
 * none (<= 0).  Used for the index-order nets after the growth (they supply the lower end of
 * structured families, polygon and Fibonacci spiral, at small sizes, where the floor covers them;
 * on a head's 4096 rows their probes above a peeled end cost 8 s and certified nothing) and for
 * the growth that follows a peel which certified less than a quarter of its rows (10 s for 402
 * rows on a d = 32 head, below the 571 of the farthest-point blocks). */
#define BRACKET_SHARE 0.1
double bracket_share_budget(const lower_ctl_t *ctl);

/* The lower end over the rows cand[0..len) of a certified factor in pivoted-QR order (distinct
 * rows of A; rewritten): block growth (lower_grow_ctl) when its estimated cost fits in what is
 * left of ctl's budget, else peeling (lower_peel_cap) when that fits, else the growth cut short
 * by the budget; then weighted test matrices on the certified rows followed by the other
 * candidates (lower_weighted_ctl), all capped by cap and charged to ctl; the larger certificate
 * replaces out->lo when larger. */
ar_status bracket_grow_lower(const smx_t *A, size_t *cand, size_t len, double eps, size_t cap,
                             const bracket_opts_t *o, bracket_t *out, lower_ctl_t *ctl);

/* The lower end's work control after upper constructions of upper_flops estimated flops: a
 * budget of max(BRACKET_LOWER_FLOOR, BRACKET_LOWER_FACTOR x upper_flops), o's progress. */
void bracket_lower_ctl(const bracket_opts_t *o, double upper_flops, lower_ctl_t *ctl);

/* out's report of the lower searches' work control (budget, spending, cut). */
void bracket_lower_record(bracket_t *out, const lower_ctl_t *ctl);

/* All m rows of A by their largest entry, descending (ties by index), into order; returns m (0
 * when its scratch cannot be allocated).  The lower end's candidates when a certified factor has
 * more than half the full rank, instead of its pivoted QR (O(m k^2): 15 s at 4096 points for a
 * choice among nearly every row): peaked rows make strong diagonals in block test matrices. */
size_t bracket_peak_order(const smx_t *A, size_t *order);

/* Estimated flops of one full factorisation of an m x n image by `method` and its certifying
 * passes (the lower end's budget, bracket_lower_ctl). */
double bracket_full_flops(upper_method_t method, size_t m, size_t n);

/* Final consistency check (lower <= upper, else AR_ENUMERIC: a bug) and status. */
ar_status bracket_finish(bracket_t *out);

#endif
