/* SPDX-License-Identifier: GPL-3.0-or-later */
/* amat.c -- blocks of rows of an enclosed matrix, in memory or streamed (see amat.h). */
#include "numerics/amat.h"
#include "base/cancel.h"

#include <cblas.h>
#include "base/blas.h"
#include "base/parallel.h"
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "base/config.h"

void amat_memory(amat_t *M, const smx_t *A)
{
    memset(M, 0, sizeof *M);
    M->m = A->m;
    M->n = A->n;
    M->A = A;
}

void amat_stream(amat_t *M, const smxd_t *S)
{
    memset(M, 0, sizeof *M);
    M->m = S->m;
    M->n = S->n;
    M->S = S;
}

size_t amat_block_rows(const amat_t *M)
{
    size_t bytes = AMAT_DEFAULT_BLOCK_BYTES, lim = ar_max_alloc() / 4;
    if (lim < bytes)
        bytes = lim;                    /* a small allocation bound (ATTNRANK_MAX_ALLOC_GB): smaller blocks */
    size_t b = M->blk ? M->blk : bytes / (8 * (M->n ? M->n : 1));
    if (b < 16)
        b = 16;
    return b < M->m ? b : M->m;
}

/* Block B of rows [i0, i0 + cnt) of M: a view into the held image, or the rows of the
 * streamed image S evaluated into buf (cnt x n, row-major) and err (cnt row errors). */
static void block_view(const amat_t *M, const smxd_t *S, size_t i0, size_t cnt, double *buf, double *err,
                       amat_block_t *B)
{
    *B = (amat_block_t){.i0 = i0, .b = cnt};
    if (M->A) {
        B->a = M->A->a + i0;
        B->lda = M->m;
        B->rowmajor = 0;
        B->rowerr = M->A->rowerr + i0;
    } else {
        smxd_rows_rm(S, NULL, i0, cnt, buf, M->n, err, NULL);
        B->a = buf;
        B->lda = M->n;
        B->rowmajor = 1;
        B->rowerr = err;
    }
}

ar_status amat_visit(amat_t *M, amat_visit_fn f, void *ctx)
{
    size_t m = M->m, n = M->n, b = amat_block_rows(M);
    double *buf = NULL, *err = NULL;
    if (!M->A) {
        buf = ar_calloc(b * n, sizeof *buf, "streamed row block");
        err = buf ? ar_calloc(b, sizeof *err, "streamed row errors") : NULL;
        if (!err) {
            free(buf);
            return AR_ENOMEM;
        }
    }
    ar_status st = AR_OK;
    for (size_t i0 = 0; i0 < m && st == AR_OK && (st = cancel_check()) == AR_OK; i0 += b) {
        amat_block_t B;
        block_view(M, M->S, i0, i0 + b < m ? b : m - i0, buf, err, &B);
        st = f(ctx, &B);
    }
    free(buf);
    free(err);
    M->passes++;
    return st;
}

size_t amat_visit_slots(const amat_t *M, size_t slot_bytes)
{
    size_t b = amat_block_rows(M), nb = M->m ? (M->m + b - 1) / b : 0;
    size_t per = slot_bytes + (M->A ? 0 : b * (M->n + 1) * sizeof(double)), lim = ar_max_alloc() / 2;
    size_t fit = per ? lim / per : (size_t)PAR_MAX_JOBS;
    size_t s = (size_t)par_threads();
    if (s > nb)
        s = nb;
    if (s > fit)
        s = fit;
    return s ? s : 1;
}

/* The shared state of one amat_visit_par. */
typedef struct {
    amat_t *M;
    amat_visit_par_fn f;
    void *ctx;
    size_t b, nb;
    atomic_size_t next;         /* the next block to take */
    atomic_int failed;          /* 1 once a block failed: no more are taken */
    atomic_int nomem;           /* 1 when a streamed slot's buffer could not be allocated */
    ar_status *st;              /* nb statuses */
    const volatile int *cancel; /* the caller's cancellation flag */
    const ar_config_t *cfg;     /* the caller's configuration with one thread */
} vpar_state;

typedef struct {
    vpar_state *s;
    size_t slot;
} vpar_job;

/* A thread's job: blocks in increasing order while any is left, each evaluated (streamed) into
 * the slot's buffer and handed to f. */
static void vpar_thread(void *arg)
{
    vpar_job *J = arg;
    vpar_state *s = J->s;
    const ar_config_t *prev = ar_config_install(s->cfg);
    const amat_t *M = s->M;
    size_t m = M->m, n = M->n, b = s->b;
    double *buf = NULL, *err = NULL;
    smxd_t S1;
    if (!M->A) {
        S1 = *M->S;
        S1.nthreads = s->cfg->threads;  /* the slot's share of the threads (amat_visit_par) */
        buf = malloc(b * n * sizeof *buf);
        err = buf ? malloc(b * sizeof *err) : NULL;
    }
    for (;;) {
        size_t i = atomic_fetch_add(&s->next, 1);
        if (i >= s->nb || atomic_load(&s->failed))
            break;
        if (cancel_check_flag(s->cancel)) {
            s->st[i] = AR_ECANCELED;
            atomic_store(&s->failed, 1);
            break;
        }
        if (!M->A && !err) {
            s->st[i] = AR_ENOMEM;
            atomic_store(&s->nomem, 1);
            atomic_store(&s->failed, 1);
            break;
        }
        size_t i0 = i * b;
        amat_block_t B;
        block_view(M, &S1, i0, i0 + b < m ? b : m - i0, buf, err, &B);
        if ((s->st[i] = s->f(s->ctx, &B, J->slot)) != AR_OK)
            atomic_store(&s->failed, 1);
    }
    free(buf);
    free(err);
    ar_config_install(prev);
}

ar_status amat_visit_par(amat_t *M, size_t slot_bytes, amat_visit_par_fn f, void *ctx)
{
    size_t b = amat_block_rows(M), nb = M->m ? (M->m + b - 1) / b : 0;
    size_t slots = amat_visit_slots(M, slot_bytes);
    ar_status st = cancel_check();
    if (st != AR_OK)
        return st;
    ar_status *sts = ar_calloc(nb ? nb : 1, sizeof *sts, "block statuses");
    if (!sts)
        return AR_ENOMEM;
    /* each slot's share of the threads: 1 when there are at least as many blocks as threads;
     * when there are fewer (a few sample rows, a short matrix) the spare threads go to the
     * blocks' own fixed partitions, which give the same bits for any count */
    ar_config_t one = *ar_config();
    one.threads = par_threads() / (int)slots;
    if (one.threads < 1)
        one.threads = 1;
    vpar_state s = {.M = M, .f = f, .ctx = ctx, .b = b, .nb = nb, .st = sts, .cancel = cancel_current(),
                    .cfg = &one};
    atomic_init(&s.next, 0);
    atomic_init(&s.failed, 0);
    atomic_init(&s.nomem, 0);
    vpar_job jobs[PAR_MAX_JOBS];
    for (size_t t = 0; t < slots; t++)
        jobs[t] = (vpar_job){.s = &s, .slot = t};
    blas_single_begin();
    par_run((int)slots, vpar_thread, NULL, jobs, sizeof jobs[0]);
    blas_single_end();
    for (size_t i = 0; i < nb && st == AR_OK; i++)
        st = sts[i];
    if (st == AR_ECANCELED)
        (void)cancel_check();           /* its message */
    else if (st == AR_ENOMEM && atomic_load(&s.nomem))
        ar_error_set("amat: out of memory for a streamed row block of %zu x %zu", b, M->n);
    free(sts);
    M->passes++;
    return st;
}

/* The products run on a fixed partition (mul: the block's rows; tmul: the rows of Z) into
 * par_parts(len, AMAT_PART_ROWS) parts, a function of the shape alone, each part one
 * single-threaded dgemm (OpenBLAS set to one thread meanwhile) writing only its own rows; the
 * parts are spread over attnrank's threads (par_for).  Every entry is summed by one BLAS call of
 * a shape that depends neither on OPENBLAS_NUM_THREADS nor on the thread count, so the products,
 * and the factors and certified numbers made from them, are the same for any thread count
 * (OpenBLAS 0.3.21's dgemm sums some shapes differently with 1 and 2 BLAS threads). */
#define AMAT_PART_ROWS 256     /* each part packs all of X: 256 rows keep that to a few per cent */

typedef struct {
    size_t m, n, l;
    const double *X;
    double *Y;
} mul_ctx;

typedef struct {
    const mul_ctx *c;
    const amat_block_t *B;
    size_t r0, r1;      /* mul: rows of the block; tmul: rows of Z (columns of A) */
} mul_part;

static void mul_part_job(mul_part *p)
{
    const mul_ctx *c = p->c;
    const amat_block_t *B = p->B;
    size_t cnt = p->r1 - p->r0;
    if (cnt == 0 || c->l == 0)
        return;
    /* Y[i0 + t, :] = sum_j A(t, j) X[j, :] for the part's rows t */
    const double *a = B->rowmajor ? B->a + p->r0 * B->lda : B->a + p->r0;
    cblas_dgemm(CblasColMajor, B->rowmajor ? CblasTrans : CblasNoTrans, CblasNoTrans, (int)cnt, (int)c->l, (int)c->n,
                1.0, a, (int)B->lda, c->X, (int)c->n, 0.0, c->Y + B->i0 + p->r0, (int)c->m);
}

static void tmul_part_job(mul_part *p)
{
    const mul_ctx *c = p->c;
    const amat_block_t *B = p->B;
    size_t cnt = p->r1 - p->r0;
    if (cnt == 0 || c->l == 0)
        return;
    /* Z[j, :] += sum_t A(t, j) Y[i0 + t, :] for the part's columns j of A */
    const double *a = B->rowmajor ? B->a + p->r0 : B->a + p->r0 * B->lda;
    cblas_dgemm(CblasColMajor, B->rowmajor ? CblasNoTrans : CblasTrans, CblasNoTrans, (int)cnt, (int)c->l, (int)B->b,
                1.0, a, (int)B->lda, c->X + B->i0, (int)c->m, 1.0, c->Y + p->r0, (int)c->n);
}

/* The fixed partition of [0, len) in parts, each through job. */
typedef struct {
    const mul_ctx *c;
    const amat_block_t *B;
    size_t len, parts;
    void (*job)(mul_part *);
} parts_ctx;

static void parts_one(void *arg, size_t j)
{
    const parts_ctx *q = arg;
    mul_part p = {.c = q->c, .B = q->B, .r0 = par_part_start(q->len, q->parts, j),
                  .r1 = par_part_start(q->len, q->parts, j + 1)};
    q->job(&p);
}

/* The parts of [0, len) (one when small) through job. */
static void run_parts(const mul_ctx *c, const amat_block_t *B, size_t len, void (*job)(mul_part *))
{
    size_t np = (double)len * (double)c->l >= 4096.0 ? par_parts(len, AMAT_PART_ROWS) : 1;
    parts_ctx q = {.c = c, .B = B, .len = len, .parts = np, .job = job};
    par_for(np, parts_one, &q, NULL);
}

static ar_status mul_block(void *arg, const amat_block_t *B)
{
    run_parts(arg, B, B->b, mul_part_job);
    return AR_OK;
}

static ar_status tmul_block(void *arg, const amat_block_t *B)
{
    const mul_ctx *c = arg;
    run_parts(c, B, c->n, tmul_part_job);
    return AR_OK;
}

/* The blocks of a product: a held image with no block size set is one block (issue 24: at
 * 16000 x 16000 the 262-row blocks of amat_visit ran the products at 69-80 GFlop/s, one block
 * at 89-91; tmul's inner dimension was the block's 262 rows, and Z was read and written once per
 * block); otherwise amat_visit's blocks. */
static ar_status visit_product(amat_t *M, amat_visit_fn f, void *ctx)
{
    if (!M->A || M->blk)
        return amat_visit(M, f, ctx);
    M->blk = M->m;                      /* amat_visit's blocks, one of them */
    ar_status st = amat_visit(M, f, ctx);
    M->blk = 0;
    return st;
}

/* A block of Y = A X on its slot's thread (amat_visit_par): the same parts, run in order. */
static ar_status mul_block_par(void *arg, const amat_block_t *B, size_t slot)
{
    (void)slot;
    return mul_block(arg, B);
}

/* Y's rows are the blocks' own: a blocked or streamed product runs its blocks side by side
 * (amat_visit_par; a streamed block is evaluated on its thread), a held one-block product its
 * parts (run_parts).  Each block's parts and each part's dgemm are the same either way. */
ar_status amat_mul(amat_t *M, size_t l, const double *X, double *Y)
{
    mul_ctx c = {.m = M->m, .n = M->n, .l = l, .X = X, .Y = Y};
    blas_single_begin();
    ar_status st = !M->A || M->blk ? amat_visit_par(M, 0, mul_block_par, &c) : visit_product(M, mul_block, &c);
    blas_single_end();
    return st;
}

ar_status amat_tmul(amat_t *M, size_t l, const double *Y, double *Z)
{
    memset(Z, 0, M->n * l * sizeof *Z);
    mul_ctx c = {.m = M->m, .n = M->n, .l = l, .X = Y, .Y = Z};
    blas_single_begin();
    ar_status st = visit_product(M, tmul_block, &c);
    blas_single_end();
    return st;
}

typedef struct {
    const smx_t *A;
    const size_t *rows;
    size_t cnt, ldx, parts;
    double *X;
    int rowmajor;
} gather_ctx;

static void gather_part(void *arg, size_t p)
{
    const gather_ctx *g = arg;
    size_t m = g->A->m, n = g->A->n, cnt = g->cnt;
    for (size_t j = par_part_start(n, g->parts, p); j < par_part_start(n, g->parts, p + 1); j++) {
        const double *aj = g->A->a + j * m;
        if (g->rowmajor)
            for (size_t t = 0; t < cnt; t++)
                g->X[t * g->ldx + j] = aj[g->rows[t]];
        else
            for (size_t t = 0; t < cnt; t++)
                g->X[t + j * g->ldx] = aj[g->rows[t]];
    }
}

void amat_gather(const smx_t *A, const size_t *rows, size_t cnt, double *X, size_t ldx, int rowmajor)
{
    size_t n = A->n;
    gather_ctx g = {.A = A, .rows = rows, .cnt = cnt, .ldx = ldx, .X = X, .rowmajor = rowmajor,
                    .parts = (double)cnt * (double)n >= 65536.0 ? par_parts(n, AMAT_GATHER_COLS) : 1};
    par_for(g.parts, gather_part, &g, NULL);
}

ar_status amat_rows(const amat_t *M, const size_t *rows, size_t cnt, smx_t *R)
{
    memset(R, 0, sizeof *R);
    size_t n = M->n;
    R->a = ar_calloc(cnt * n, sizeof *R->a, "enclosure rows");
    R->rowerr = R->a ? ar_calloc(cnt, sizeof *R->rowerr, "enclosure row errors") : NULL;
    R->lognorm = R->rowerr ? ar_calloc(cnt, sizeof *R->lognorm, "enclosure log-normalisers") : NULL;
    if (!R->lognorm) {
        smx_clear(R);
        return AR_ENOMEM;
    }
    R->m = cnt;
    R->n = n;
    if (M->A) {
        amat_gather(M->A, rows, cnt, R->a, cnt, 0);
        for (size_t t = 0; t < cnt; t++) {
            R->rowerr[t] = M->A->rowerr[rows[t]];
            R->lognorm[t] = M->A->lognorm[rows[t]];
        }
        R->prec = M->A->prec;
        R->method = M->A->method;
    } else {
        ar_status rst = smxd_rows_at(M->S, rows, cnt, R->a, cnt, R->rowerr, R->lognorm);
        if (rst) {
            smx_clear(R);
            return rst;
        }
        R->prec = 53;
        R->method = "double";
    }
    R->maxerr = 0;
    for (size_t t = 0; t < cnt; t++)
        if (!(R->rowerr[t] <= R->maxerr))
            R->maxerr = R->rowerr[t];
    return AR_OK;
}
