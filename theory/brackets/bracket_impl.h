/* bracket_impl.h -- what bracket.c and bracket_stream.c share (private). */
#ifndef ATTNRANK_THEORY_BRACKET_IMPL_H
#define ATTNRANK_THEORY_BRACKET_IMPL_H

#include "theory/brackets/bracket.h"

/* Validate the arguments of bracket_compute (AR_EINVAL with a message). */
ar_status bracket_check(const pointset_t *Q, const pointset_t *K, double beta, double eps);

/* out <- the trivial bracket 1 <= rank <= min(m, n), status "inconclusive". */
void bracket_set_trivial(bracket_t *out, size_t m, size_t n);

/* Stage message through o->progress (printf-style), if set. */
void bracket_say(const bracket_opts_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* First sketch size of rsvd from the certified lower end and the caller's cap. */
size_t bracket_sketch_size(size_t lower, size_t cap, size_t r);

/* The rsvd options of a bracket (seed, progress). */
void bracket_rsvd_opts(const bracket_opts_t *o, size_t l0, int power, rsvd_opts_t *ro);

/* Final consistency check (lower <= upper, else AR_ENUMERIC: a bug) and status. */
ar_status bracket_finish(bracket_t *out);

#endif
