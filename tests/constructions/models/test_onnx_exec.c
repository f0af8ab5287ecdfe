/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_onnx_exec.c -- the ONNX interpreter (constructions/models/onnx_exec.h)
 * is defined on crafted graphs (issue 21, item 14): graphs built in memory
 * that once reached undefined behaviour -- a double beyond int64 converted
 * in Reshape (reached by a Cast of +inf, NaN or 1e300, an integer Div by
 * zero, a Concat of an int64 and a float), signed overflow in the output
 * size of Conv and AveragePool (pads, dilations near INT64_MAX), a
 * count_include_pad window of 2^124 cells, dims whose product or sum
 * overflows behind a zero dim, an input whose size disagrees with its dims
 * -- are refused with AR_EINVAL and one line naming the node or value, or
 * (the huge pooling window) computed exactly; each assertion fails without
 * its fix.  Small Conv, AveragePool, integer and shape computations are
 * checked against direct formulas, so the checks change no result. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "constructions/models/onnx_exec.h"

/* ---- graphs built in memory (freed with onnx_graph_clear) ---- */

static char *sdup(const char *s)
{
    char *d = strdup(s);
    ck_assert_ptr_nonnull(d);
    return d;
}

/* A graph of one input "x", no constants, no nodes. */
static void g_init(onnx_graph_t *G)
{
    memset(G, 0, sizeof *G);
    G->source = sdup("crafted.onnx");
    G->opset = 9;
    G->ninput = 1;
    G->input = calloc(1, sizeof *G->input);
    ck_assert_ptr_nonnull(G->input);
    G->input[0] = sdup("x");
}

/* dims[0..rank) with their product (0 after a zero dim, whatever follows). */
static size_t dims_size(size_t rank, const int64_t *dims)
{
    size_t n = 1;
    for (size_t i = 0; i < rank; i++)
        n = dims[i] == 0 || n == 0 ? 0 : n * (size_t)dims[i];
    return n;
}

static void tensor_set(onnx_tensor_t *T, const char *name, int dtype, size_t rank, const int64_t *dims,
                       const double *v)
{
    memset(T, 0, sizeof *T);
    T->name = sdup(name);
    T->dtype = dtype;
    T->rank = rank;
    for (size_t i = 0; i < rank; i++)
        T->dims[i] = dims[i];
    T->size = dims_size(rank, dims);
    T->data = calloc(T->size ? T->size : 1, sizeof(double));
    ck_assert_ptr_nonnull(T->data);
    for (size_t k = 0; v && k < T->size; k++)
        T->data[k] = v[k];
}

static void g_const(onnx_graph_t *G, const char *name, int dtype, size_t rank, const int64_t *dims, const double *v)
{
    G->consts = realloc(G->consts, (G->nconst + 1) * sizeof *G->consts);
    ck_assert_ptr_nonnull(G->consts);
    tensor_set(&G->consts[G->nconst++], name, dtype, rank, dims, v);
}

/* A node `op` named by its output `out`, reading the nin names in[]. */
static onnx_node_t *g_node(onnx_graph_t *G, const char *op, const char *out, size_t nin, const char *const *in)
{
    G->node = realloc(G->node, (G->nnode + 1) * sizeof *G->node);
    ck_assert_ptr_nonnull(G->node);
    onnx_node_t *N = &G->node[G->nnode++];
    memset(N, 0, sizeof *N);
    N->op = sdup(op);
    N->name = sdup(out);
    N->nin = nin;
    N->in = calloc(nin + 1, sizeof *N->in);
    ck_assert_ptr_nonnull(N->in);
    for (size_t k = 0; k < nin; k++)
        N->in[k] = sdup(in[k]);
    N->nout = 1;
    N->out = calloc(1, sizeof *N->out);
    ck_assert_ptr_nonnull(N->out);
    N->out[0] = sdup(out);
    return N;
}

static onnx_attr_t *n_attr(onnx_node_t *N, const char *name, int type)
{
    N->attr = realloc(N->attr, (N->nattr + 1) * sizeof *N->attr);
    ck_assert_ptr_nonnull(N->attr);
    onnx_attr_t *A = &N->attr[N->nattr++];
    memset(A, 0, sizeof *A);
    A->name = sdup(name);
    A->type = type;
    return A;
}

static void n_int(onnx_node_t *N, const char *name, int64_t v)
{
    n_attr(N, name, ONNX_ATTR_INT)->i = v;
}

static void n_ints(onnx_node_t *N, const char *name, size_t n, const int64_t *v)
{
    onnx_attr_t *A = n_attr(N, name, ONNX_ATTR_INTS);
    A->n = n;
    A->ints = calloc(n ? n : 1, sizeof *A->ints);
    ck_assert_ptr_nonnull(A->ints);
    memcpy(A->ints, v, n * sizeof *v);
}

/* Run G on X up to `target` into *out; the message is one line. */
static ar_status run(const onnx_graph_t *G, const onnx_tensor_t *X, const char *target, onnx_tensor_t *out)
{
    ar_status st = onnx_exec(G, X, &target, 1, out);
    if (st) {
        ck_assert_ptr_null(strchr(ar_error_get(), '\n'));
        ck_assert(out->data == NULL);
    }
    return st;
}

/* Assert that G refuses X at `target` with AR_EINVAL and a message holding
 * both needles. */
static void expect_refused(const onnx_graph_t *G, const onnx_tensor_t *X, const char *target, const char *n1,
                           const char *n2)
{
    onnx_tensor_t out;
    ar_status st = run(G, X, target, &out);
    if (st == AR_OK)
        onnx_tensor_clear(&out);
    ck_assert_msg(st == AR_EINVAL, "status %d, expected AR_EINVAL (message '%s')", st, ar_error_get());
    const char *m = ar_error_get();
    ck_assert_msg(strstr(m, n1) && (!n2 || strstr(m, n2)), "message '%s' lacks '%s' / '%s'", m, n1,
                  n2 ? n2 : "");
}

static const int64_t D1[1] = { 1 }, D4[4] = { 1, 1, 4, 4 };
static const double V16[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

/* ---- Cast to an integer type, the shape of a Reshape ---- */

/* y = Reshape(k, Cast(v, to)) with v = num / den (float constants). */
static void cast_graph(onnx_graph_t *G, int dtype_v, double num, double den, int64_t to)
{
    g_init(G);
    double one = 1.0;
    g_const(G, "k", ONNX_F32, 1, D1, &one);
    g_const(G, "num", dtype_v, 1, D1, &num);
    g_const(G, "den", dtype_v, 1, D1, &den);
    g_node(G, "Div", "v", 2, (const char *[]){ "num", "den" });
    n_int(g_node(G, "Cast", "c", 1, (const char *[]){ "v" }), "to", to);
    g_node(G, "Reshape", "y", 2, (const char *[]){ "k", "c" });
}

START_TEST(cast_nonfinite_to_int64)
{
    onnx_tensor_t X;
    tensor_set(&X, "x", ONNX_F32, 1, D1, NULL);
    struct { double num, den; int dtype; const char *why; } c[] = {
        { 1.0, 0.0, ONNX_F32, "not finite" },      /* +inf */
        { -1.0, 0.0, ONNX_F32, "not finite" },     /* -inf */
        { 0.0, 0.0, ONNX_F32, "not finite" },      /* NaN */
        { 1e300, 1.0, ONNX_F64, "beyond 2^53" },
        { 9007199254740994.0, 1.0, ONNX_F64, "beyond 2^53" },   /* 2^53 + 2 */
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        onnx_graph_t G;
        cast_graph(&G, c[i].dtype, c[i].num, c[i].den, ONNX_I64);
        expect_refused(&G, &X, "y", "node 'c' (Cast)", c[i].why);
        onnx_graph_clear(&G);
    }
    /* int32: 3e9 is out of range; the Cast alone, no Reshape after it */
    onnx_graph_t G;
    cast_graph(&G, ONNX_F64, 3e9, 1.0, ONNX_I32);
    expect_refused(&G, &X, "c", "node 'c' (Cast)", "out of range");
    onnx_graph_clear(&G);
    /* in range: truncation toward zero, the Reshape takes it */
    cast_graph(&G, ONNX_F64, -7.0, 2.0, ONNX_I64);
    onnx_tensor_t out;
    ck_assert_msg(run(&G, &X, "c", &out) == AR_OK, "%s", ar_error_get());
    ck_assert(out.dtype == ONNX_I64 && out.size == 1 && out.data[0] == -3.0);
    onnx_tensor_clear(&out);
    onnx_graph_clear(&G);
    cast_graph(&G, ONNX_F64, -1.0, 4.0, ONNX_I32);   /* -0.25: the integer 0, not -0 */
    ck_assert_msg(run(&G, &X, "c", &out) == AR_OK, "%s", ar_error_get());
    ck_assert(out.dtype == ONNX_I32 && out.data[0] == 0.0 && !signbit(out.data[0]));
    onnx_tensor_clear(&out);
    onnx_graph_clear(&G);
    cast_graph(&G, ONNX_F64, 3.0, 2.0, ONNX_I64);    /* Reshape(k, [1]) */
    ck_assert_msg(run(&G, &X, "y", &out) == AR_OK, "%s", ar_error_get());
    ck_assert(out.rank == 1 && out.dims[0] == 1 && out.data[0] == 1.0);
    onnx_tensor_clear(&out);
    onnx_graph_clear(&G);
    onnx_tensor_clear(&X);
}
END_TEST

/* ---- integer arithmetic: exact, in range ---- */

/* y = a op b on two int64 scalars-as-vectors; Reshape(k, y) after it as "r". */
static void int_graph(onnx_graph_t *G, const char *op, double a, double b)
{
    g_init(G);
    double one = 1.0;
    g_const(G, "k", ONNX_F32, 1, D1, &one);
    g_const(G, "a", ONNX_I64, 1, D1, &a);
    g_const(G, "b", ONNX_I64, 1, D1, &b);
    g_node(G, op, "y", 2, (const char *[]){ "a", "b" });
    g_node(G, "Reshape", "r", 2, (const char *[]){ "k", "y" });
}

START_TEST(int_div_by_zero)
{
    onnx_tensor_t X;
    tensor_set(&X, "x", ONNX_F32, 1, D1, NULL);
    onnx_graph_t G;
    /* Div by zero gave +inf as an int64, then (int64_t)inf in Reshape */
    int_graph(&G, "Div", 6, 0);
    expect_refused(&G, &X, "r", "node 'y' (Div)", "division by zero");
    onnx_graph_clear(&G);
    onnx_tensor_clear(&X);
}
END_TEST

START_TEST(int_results_in_range)
{
    onnx_tensor_t X;
    tensor_set(&X, "x", ONNX_F32, 1, D1, NULL);
    onnx_graph_t G;
    struct { const char *op; double a, b; } bad[] = {
        { "Mul", 4503599627370496.0, 4 },            /* 2^52 * 4 */
        { "Add", 9007199254740992.0, 1 },            /* 2^53 + 1 */
        { "Sub", -9007199254740992.0, 2 },
        { "Pow", 2, 60 },
        { "Pow", 2, -1 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int_graph(&G, bad[i].op, bad[i].a, bad[i].b);
        expect_refused(&G, &X, "y", "(", bad[i].b < 0 ? "negative exponent" : "beyond the int64 range");
        onnx_graph_clear(&G);
    }
    onnx_tensor_clear(&X);
}
END_TEST

START_TEST(int_results_exact)
{
    onnx_tensor_t X;
    tensor_set(&X, "x", ONNX_F32, 1, D1, NULL);
    onnx_graph_t G;
    struct { const char *op; double a, b, want; } good[] = {
        { "Div", 7, 2, 3 }, { "Div", -7, 2, -3 }, { "Div", 7, -2, -3 }, { "Mul", -3, 5, -15 },
        { "Add", 9007199254740991.0, 1, 9007199254740992.0 }, { "Pow", 3, 4, 81 }, { "Pow", -2, 3, -8 },
        { "Pow", 0, 0, 1 }, { "Pow", 1, 9007199254740992.0, 1 }, { "Pow", -1, 9007199254740991.0, -1 },
        { "Pow", 2, 53, 9007199254740992.0 },
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        int_graph(&G, good[i].op, good[i].a, good[i].b);
        onnx_tensor_t out;
        ck_assert_msg(run(&G, &X, "y", &out) == AR_OK, "%s %g %g: %s", good[i].op, good[i].a, good[i].b,
                      ar_error_get());
        ck_assert_msg(out.dtype == ONNX_I64 && out.data[0] == good[i].want, "%s %g %g = %.17g", good[i].op,
                      good[i].a, good[i].b, out.data[0]);
        onnx_tensor_clear(&out);
        onnx_graph_clear(&G);
    }
    /* floats keep IEEE division */
    g_init(&G);
    double one = 1.0, zero = 0.0;
    g_const(&G, "a", ONNX_F32, 1, D1, &one);
    g_const(&G, "b", ONNX_F32, 1, D1, &zero);
    g_node(&G, "Div", "y", 2, (const char *[]){ "a", "b" });
    onnx_tensor_t out;
    ck_assert_msg(run(&G, &X, "y", &out) == AR_OK, "%s", ar_error_get());
    ck_assert(isinf(out.data[0]) && out.data[0] > 0);
    onnx_tensor_clear(&out);
    onnx_graph_clear(&G);
    onnx_tensor_clear(&X);
}
END_TEST

START_TEST(concat_int_with_float)
{
    /* Concat(int64 [2], float +inf): the output is int64, as input 0 */
    onnx_graph_t G;
    g_init(&G);
    double two = 2, one = 1, zero = 0;
    g_const(&G, "s", ONNX_I64, 1, D1, &two);
    g_const(&G, "one", ONNX_F32, 1, D1, &one);
    g_const(&G, "zero", ONNX_F32, 1, D1, &zero);
    g_node(&G, "Div", "inf", 2, (const char *[]){ "one", "zero" });
    n_int(g_node(&G, "Concat", "shape", 2, (const char *[]){ "s", "inf" }), "axis", 0);
    onnx_tensor_t X;
    tensor_set(&X, "x", ONNX_F32, 1, D1, NULL);
    expect_refused(&G, &X, "shape", "node 'shape' (Concat)", "is not an int64");
    onnx_graph_clear(&G);
    /* an integral float joins the int64 */
    g_init(&G);
    g_const(&G, "s", ONNX_I64, 1, D1, &two);
    g_const(&G, "f", ONNX_F32, 1, D1, &one);
    n_int(g_node(&G, "Concat", "shape", 2, (const char *[]){ "s", "f" }), "axis", -1);
    onnx_tensor_t out;
    ck_assert_msg(run(&G, &X, "shape", &out) == AR_OK, "%s", ar_error_get());
    ck_assert(out.dtype == ONNX_I64 && out.size == 2 && out.data[0] == 2 && out.data[1] == 1);
    onnx_tensor_clear(&out);
    onnx_graph_clear(&G);
    onnx_tensor_clear(&X);
}
END_TEST

/* ---- Conv and AveragePool: output sizes in checked int64 ---- */

/* y = Conv(x, w) with a kh x kw kernel of ones and the given attributes (NULL: absent). */
static void conv_graph(onnx_graph_t *G, int64_t kh, int64_t kw, const int64_t *pads, const int64_t *strides,
                       const int64_t *dil)
{
    g_init(G);
    int64_t wd[4] = { 1, 1, kh, kw };
    double ones[64];
    for (size_t k = 0; k < 64; k++)
        ones[k] = 1.0;
    g_const(G, "w", ONNX_F32, 4, wd, ones);
    onnx_node_t *N = g_node(G, "Conv", "y", 2, (const char *[]){ "x", "w" });
    if (pads)
        n_ints(N, "pads", 4, pads);
    if (strides)
        n_ints(N, "strides", 2, strides);
    if (dil)
        n_ints(N, "dilations", 2, dil);
}

START_TEST(conv_pads_overflow)
{
    onnx_tensor_t X;
    tensor_set(&X, "x", ONNX_F32, 4, D4, V16);
    onnx_graph_t G;
    const int64_t M = INT64_MAX, big = (int64_t)1 << 62;
    const int64_t pads_max[4] = { M, 0, M, 0 }, pads_half[4] = { 0, big, 0, big };
    conv_graph(&G, 1, 1, pads_max, NULL, NULL);
    expect_refused(&G, &X, "y", "node 'y' (Conv)", "overflows int64");
    onnx_graph_clear(&G);
    conv_graph(&G, 1, 1, pads_half, NULL, NULL);       /* 4 + 2^62 + 2^62 */
    expect_refused(&G, &X, "y", "node 'y' (Conv)", "overflows int64");
    onnx_graph_clear(&G);
    onnx_tensor_clear(&X);
}
END_TEST

START_TEST(conv_dilation_overflow)
{
    onnx_tensor_t X;
    tensor_set(&X, "x", ONNX_F32, 4, D4, V16);
    onnx_graph_t G;
    const int64_t dil_max[2] = { INT64_MAX, 1 }, dil_half[2] = { 1, (int64_t)1 << 62 };
    conv_graph(&G, 3, 3, NULL, NULL, dil_max);         /* INT64_MAX x (3 - 1) */
    expect_refused(&G, &X, "y", "node 'y' (Conv)", "overflows int64");
    onnx_graph_clear(&G);
    conv_graph(&G, 3, 3, NULL, NULL, dil_half);        /* 2^62 x 2 */
    expect_refused(&G, &X, "y", "node 'y' (Conv)", "overflows int64");
    onnx_graph_clear(&G);
    onnx_tensor_clear(&X);
}
END_TEST

START_TEST(conv_window_fits)
{
    onnx_tensor_t X;
    tensor_set(&X, "x", ONNX_F32, 4, D4, V16);
    onnx_graph_t G;
    /* an output beyond the element limit */
    const int64_t pads_40[4] = { (int64_t)1 << 40, 0, (int64_t)1 << 40, 0 };
    conv_graph(&G, 1, 1, pads_40, NULL, NULL);
    expect_refused(&G, &X, "y", "node 'y' (Conv)", "beyond the limit");
    onnx_graph_clear(&G);
    /* a window longer than the input by less than a stride: no output (floor, not truncation) */
    const int64_t s2[2] = { 2, 2 };
    onnx_tensor_t X2;
    const int64_t d2[4] = { 1, 1, 2, 2 };
    tensor_set(&X2, "x", ONNX_F32, 4, d2, V16);
    conv_graph(&G, 3, 3, NULL, s2, NULL);
    expect_refused(&G, &X2, "y", "node 'y' (Conv)", "too small");
    onnx_graph_clear(&G);
    onnx_tensor_clear(&X2);
    /* a kernel of extent 0 */
    conv_graph(&G, 0, 1, NULL, NULL, NULL);
    expect_refused(&G, &X, "y", "node 'y' (Conv)", "inconsistent convolution");
    onnx_graph_clear(&G);
    /* a 2 x 2 kernel of ones, pads 1, stride 2, dilation 1 on the 4 x 4 input: 3 x 3 window sums */
    const int64_t p1[4] = { 1, 1, 1, 1 };
    conv_graph(&G, 2, 2, p1, s2, NULL);
    onnx_tensor_t out;
    ck_assert_msg(run(&G, &X, "y", &out) == AR_OK, "%s", ar_error_get());
    ck_assert(out.rank == 4 && out.dims[2] == 3 && out.dims[3] == 3);
    for (int64_t y = 0; y < 3; y++)
        for (int64_t x = 0; x < 3; x++) {
            double s = 0;
            for (int64_t i = 0; i < 2; i++)
                for (int64_t j = 0; j < 2; j++) {
                    int64_t iy = 2 * y - 1 + i, ix = 2 * x - 1 + j;
                    if (iy >= 0 && iy < 4 && ix >= 0 && ix < 4)
                        s += V16[iy * 4 + ix];
                }
            ck_assert(out.data[y * 3 + x] == s);
        }
    onnx_tensor_clear(&out);
    onnx_graph_clear(&G);
    onnx_tensor_clear(&X);
}
END_TEST

/* A 1 x 1 convolution with groups and a bias (batch 2, 6 input and 10 output channels in 2 groups,
 * 3 x 5 planes, so that the blocked kernel's remainders in channels and positions are both
 * reached) against the direct formula in its order -- bias, then input channels 0, 1, ... --
 * bit for bit. */
START_TEST(conv_pointwise_values)
{
    const int64_t xd[4] = { 2, 6, 3, 5 }, wd[4] = { 10, 3, 1, 1 }, bd[1] = { 10 };
    double xv[180], wv[30], bv[10];
    for (int k = 0; k < 180; k++)
        xv[k] = 0.25 + k / 11.0;
    for (int k = 0; k < 30; k++)
        wv[k] = -1.0 + k / 7.0;
    for (int k = 0; k < 10; k++)
        bv[k] = k / 3.0;
    onnx_tensor_t X;
    tensor_set(&X, "x", ONNX_F32, 4, xd, xv);
    for (int with_bias = 0; with_bias < 2; with_bias++) {
        onnx_graph_t G;
        g_init(&G);
        g_const(&G, "w", ONNX_F32, 4, wd, wv);
        if (with_bias)
            g_const(&G, "b", ONNX_F32, 1, bd, bv);
        onnx_node_t *N = with_bias ? g_node(&G, "Conv", "y", 3, (const char *[]){ "x", "w", "b" })
                                   : g_node(&G, "Conv", "y", 2, (const char *[]){ "x", "w" });
        n_int(N, "group", 2);
        onnx_tensor_t out;
        ck_assert_msg(run(&G, &X, "y", &out) == AR_OK, "%s", ar_error_get());
        ck_assert(out.rank == 4 && out.dims[0] == 2 && out.dims[1] == 10 && out.dims[2] == 3 && out.dims[3] == 5);
        for (int b = 0; b < 2; b++)
            for (int oc = 0; oc < 10; oc++)
                for (int k = 0; k < 15; k++) {
                    int grp = oc / 5;
                    double want = with_bias ? bv[oc] : 0.0;
                    for (int ic = 0; ic < 3; ic++)
                        want += wv[oc * 3 + ic] * xv[(b * 6 + grp * 3 + ic) * 15 + k];
                    ck_assert_msg(out.data[(b * 10 + oc) * 15 + k] == want, "bias %d: (%d, %d, %d)", with_bias, b,
                                  oc, k);
                }
        onnx_tensor_clear(&out);
        onnx_graph_clear(&G);
    }
    onnx_tensor_clear(&X);
}
END_TEST

/* y = AveragePool(x) with kernel ks and the given attributes (NULL: absent). */
static void pool_graph(onnx_graph_t *G, const int64_t *ks, const int64_t *pads, const int64_t *strides, int incl)
{
    g_init(G);
    onnx_node_t *N = g_node(G, "AveragePool", "y", 1, (const char *[]){ "x" });
    n_ints(N, "kernel_shape", 2, ks);
    if (pads)
        n_ints(N, "pads", 4, pads);
    if (strides)
        n_ints(N, "strides", 2, strides);
    if (incl >= 0)
        n_int(N, "count_include_pad", incl);
}

/* The AveragePool of the 4 x 4 input V16 at output (y, x), directly. */
static double pool_ref(const int64_t *ks, const int64_t *pd, const int64_t *s2, int incl, int64_t y, int64_t x)
{
    double s = 0;
    int64_t cnt = 0;
    for (int64_t i = 0; i < ks[0]; i++)
        for (int64_t j = 0; j < ks[1]; j++) {
            int64_t iy = y * s2[0] - pd[0] + i, ix = x * s2[1] - pd[1] + j;
            if (iy >= 0 && iy < 4 && ix >= 0 && ix < 4) {
                s += V16[iy * 4 + ix];
                cnt++;
            }
        }
    return s / (double)(incl ? ks[0] * ks[1] : cnt ? cnt : 1);
}

START_TEST(avgpool_pads_overflow)
{
    onnx_tensor_t X;
    tensor_set(&X, "x", ONNX_F32, 4, D4, V16);
    onnx_graph_t G;
    const int64_t M = INT64_MAX, k1[2] = { 1, 1 }, k3[2] = { 3, 3 };
    const int64_t pads_max[4] = { 0, M, 0, M }, pads_half[4] = { (int64_t)1 << 62, 0, (int64_t)1 << 62, 0 };
    pool_graph(&G, k1, pads_max, NULL, -1);
    expect_refused(&G, &X, "y", "node 'y' (AveragePool)", "overflows int64");
    onnx_graph_clear(&G);
    pool_graph(&G, k3, pads_half, NULL, 1);
    expect_refused(&G, &X, "y", "node 'y' (AveragePool)", "overflows int64");
    onnx_graph_clear(&G);
    const int64_t kbig[2] = { M, 1 };
    pool_graph(&G, kbig, NULL, NULL, -1);
    expect_refused(&G, &X, "y", "node 'y' (AveragePool)", "smaller than the pooling window");
    onnx_graph_clear(&G);
    onnx_tensor_clear(&X);
}
END_TEST

START_TEST(avgpool_huge_window)
{
    onnx_tensor_t X;
    tensor_set(&X, "x", ONNX_F32, 4, D4, V16);
    onnx_graph_t G;
    /* a 2^62 x 2^62 window over pads of 2^61 with stride 2^62: one output cell, the window holds the
     * whole input; count_include_pad divides by 2^124 (was an int64 product, and 2^124 loop steps) */
    const int64_t h = (int64_t)1 << 61, kh[2] = { 2 * h, 2 * h }, ph[4] = { h, h, h, h }, sh[2] = { 2 * h, 2 * h };
    for (int incl = 0; incl <= 1; incl++) {
        pool_graph(&G, kh, ph, sh, incl);
        onnx_tensor_t out;
        ck_assert_msg(run(&G, &X, "y", &out) == AR_OK, "%s", ar_error_get());
        ck_assert(out.rank == 4 && out.dims[2] == 1 && out.dims[3] == 1);
        double want = incl ? 136.0 / ldexp(1.0, 124) : 136.0 / 16.0;
        ck_assert_msg(out.data[0] == want, "count_include_pad %d: %.17g, expected %.17g", incl, out.data[0], want);
        onnx_tensor_clear(&out);
        onnx_graph_clear(&G);
    }
    onnx_tensor_clear(&X);
}
END_TEST

START_TEST(avgpool_values)
{
    onnx_tensor_t X;
    tensor_set(&X, "x", ONNX_F32, 4, D4, V16);
    onnx_graph_t G;
    /* small windows against the direct formula: no strides attribute (the default), then strides */
    const int64_t k3[2] = { 3, 2 }, p[4] = { 1, 0, 2, 1 }, s21[2] = { 2, 1 }, one2[2] = { 1, 1 };
    for (int v = 0; v < 4; v++) {
        int incl = v & 1;
        const int64_t *st = v & 2 ? s21 : NULL;
        pool_graph(&G, k3, p, st, incl);
        onnx_tensor_t out;
        ck_assert_msg(run(&G, &X, "y", &out) == AR_OK, "%s", ar_error_get());
        const int64_t *s = st ? st : one2;
        int64_t oh = (4 + 1 + 2 - 3) / s[0] + 1, ow = (4 + 0 + 1 - 2) / s[1] + 1;
        ck_assert(out.dims[2] == oh && out.dims[3] == ow);
        for (int64_t y = 0; y < oh; y++)
            for (int64_t x = 0; x < ow; x++)
                ck_assert(out.data[y * ow + x] == pool_ref(k3, p, s, incl, y, x));
        onnx_tensor_clear(&out);
        onnx_graph_clear(&G);
    }
    onnx_tensor_clear(&X);
}
END_TEST

/* ---- floating-point broadcasting against the direct formula ---- */

/* y = x OP b for x of dims xd (rank 3, values 1..) and a constant b of rank rb (values 0.5 + k):
 * every output element equals the one operation on the right-aligned, broadcast operands, bit
 * for bit (the interpreter's innermost-axis loop against the definition). */
START_TEST(float_broadcast_values)
{
    static const int64_t xd[3] = { 2, 3, 4 };
    static const struct { size_t rb; int64_t bd[3]; } shapes[] = {
        { 1, { 4 } }, { 1, { 1 } }, { 2, { 3, 1 } }, { 3, { 2, 1, 4 } }, { 3, { 1, 3, 1 } }, { 3, { 2, 3, 4 } },
    };
    static const char *ops[4] = { "Add", "Sub", "Mul", "Div" };
    double xv[24], bv[24];
    for (int k = 0; k < 24; k++) {
        xv[k] = 1.0 + k / 7.0;
        bv[k] = 0.5 + k / 3.0;
    }
    onnx_tensor_t X;
    tensor_set(&X, "x", ONNX_F32, 3, xd, xv);
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
        for (int o = 0; o < 4; o++)
            for (int swap = 0; swap < 2; swap++) {
                onnx_graph_t G;
                g_init(&G);
                g_const(&G, "b", ONNX_F32, shapes[sh].rb, shapes[sh].bd, bv);
                g_node(&G, ops[o], "y", 2, swap ? (const char *[]){ "b", "x" } : (const char *[]){ "x", "b" });
                onnx_tensor_t out;
                ck_assert_msg(run(&G, &X, "y", &out) == AR_OK, "%s", ar_error_get());
                ck_assert(out.rank == 3 && out.size == 24);
                size_t rb = shapes[sh].rb;
                for (int64_t i = 0; i < 2; i++)
                    for (int64_t j = 0; j < 3; j++)
                        for (int64_t k = 0; k < 4; k++) {
                            int64_t id[3] = { i, j, k }, pb = 0;
                            for (size_t a = 0; a < rb; a++) {       /* b's axis a is x's axis 3 - rb + a */
                                int64_t dd = shapes[sh].bd[a], ix = dd == 1 ? 0 : id[3 - rb + a];
                                pb = pb * dd + ix;
                            }
                            double x = xv[(i * 3 + j) * 4 + k], b = bv[pb], l = swap ? b : x, r = swap ? x : b;
                            double want = o == 0 ? l + r : o == 1 ? l - r : o == 2 ? l * r : l / r;
                            ck_assert_msg(out.data[(i * 3 + j) * 4 + k] == want, "%s shape %zu swap %d at (%lld %lld %lld)",
                                          ops[o], sh, swap, (long long)i, (long long)j, (long long)k);
                        }
                onnx_tensor_clear(&out);
                onnx_graph_clear(&G);
            }
    onnx_tensor_clear(&X);
}
END_TEST

/* ---- dims, sizes, limits ---- */

START_TEST(const_dims_overflow)
{
    onnx_tensor_t X;
    tensor_set(&X, "x", ONNX_F32, 1, D1, NULL);
    /* three constants of dims [0, 2^62] (the reader's product check stops at the 0): the sum of
     * the concatenated axis overflowed int64 */
    onnx_graph_t G;
    g_init(&G);
    const int64_t dz[2] = { 0, (int64_t)1 << 62 };
    g_const(&G, "z", ONNX_F32, 2, dz, NULL);
    n_int(g_node(&G, "Concat", "y", 3, (const char *[]){ "z", "z", "z" }), "axis", 1);
    expect_refused(&G, &X, "y", "constant 'z'", "dims beyond the limit");
    onnx_graph_clear(&G);
    /* [1, 0, 2^62, 2^62] into a Conv with pads 2^62: the padded extent overflowed */
    g_init(&G);
    const int64_t dx[4] = { 1, 0, (int64_t)1 << 62, (int64_t)1 << 62 }, dw[4] = { 1, 0, 1, 1 };
    const int64_t pads[4] = { (int64_t)1 << 62, 0, (int64_t)1 << 62, 0 };
    g_const(&G, "big", ONNX_F32, 4, dx, NULL);
    g_const(&G, "w", ONNX_F32, 4, dw, NULL);
    n_ints(g_node(&G, "Conv", "y", 2, (const char *[]){ "big", "w" }), "pads", 4, pads);
    expect_refused(&G, &X, "y", "constant 'big'", "dims beyond the limit");
    onnx_graph_clear(&G);
    onnx_tensor_clear(&X);
}
END_TEST

START_TEST(reshape_product_wraps)
{
    onnx_graph_t G;
    /* a Reshape to [2^32, 2^32] of an empty input: the product wrapped to 0 */
    onnx_tensor_t E;
    const int64_t d03[2] = { 0, 3 };
    tensor_set(&E, "x", ONNX_F32, 2, d03, NULL);
    g_init(&G);
    double shp[2] = { 4294967296.0, 4294967296.0 };
    const int64_t d2[1] = { 2 };
    g_const(&G, "s", ONNX_I64, 1, d2, shp);
    g_node(&G, "Reshape", "y", 2, (const char *[]){ "x", "s" });
    expect_refused(&G, &E, "y", "node 'y' (Reshape)", "beyond 2^64");
    onnx_graph_clear(&G);
    onnx_tensor_clear(&E);
}
END_TEST

START_TEST(input_checked)
{
    onnx_graph_t G;
    /* an input whose size disagrees with its dims (Add read past its data) */
    onnx_tensor_t B;
    const int64_t d22[2] = { 2, 2 };
    tensor_set(&B, "x", ONNX_F32, 2, d22, V16);
    B.size = 3;
    B.data = realloc(B.data, 3 * sizeof *B.data);
    ck_assert_ptr_nonnull(B.data);
    g_init(&G);
    g_node(&G, "Add", "y", 2, (const char *[]){ "x", "x" });
    expect_refused(&G, &B, "y", "the graph input", "for dims of 4");
    B.size = 4;
    B.data = realloc(B.data, 4 * sizeof *B.data);
    ck_assert_ptr_nonnull(B.data);
    B.data[3] = 4;
    /* an int64 input holding 2.5, +inf, 2^60 */
    B.dtype = ONNX_I64;
    double bad[3] = { 2.5, INFINITY, 1152921504606846976.0 };
    for (int i = 0; i < 3; i++) {
        B.data[1] = bad[i];
        expect_refused(&G, &B, "y", "the graph input", "is not an int64");
    }
    B.data[1] = 2;
    onnx_tensor_t out;
    ck_assert_msg(run(&G, &B, "y", &out) == AR_OK, "%s", ar_error_get());
    ck_assert(out.dtype == ONNX_I64 && out.data[1] == 4);
    onnx_tensor_clear(&out);
    B.dtype = 3;                                      /* int8: not a type the interpreter holds */
    expect_refused(&G, &B, "y", "the graph input", "data type 3");
    onnx_graph_clear(&G);
    onnx_tensor_clear(&B);
}
END_TEST

START_TEST(limits_refuse)
{
    onnx_tensor_t X;
    tensor_set(&X, "x", ONNX_F32, 4, D4, V16);
    onnx_graph_t G;
    const int64_t p1[4] = { 1, 1, 1, 1 };
    conv_graph(&G, 2, 2, p1, NULL, NULL);             /* 5 x 5 outputs, 4 terms each */
    const char *t = "y";
    onnx_tensor_t out;
    onnx_exec_limits_t lim = { 24, 1000 };
    ck_assert_int_eq(onnx_exec_limited(&G, &X, &t, 1, &lim, &out), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "beyond the limit of 24 entries"));
    lim.max_elems = 8;                                 /* the input itself */
    ck_assert_int_eq(onnx_exec_limited(&G, &X, &t, 1, &lim, &out), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "the graph input"));
    lim.max_elems = 25;
    lim.max_work = 25 + 99;
    ck_assert_int_eq(onnx_exec_limited(&G, &X, &t, 1, &lim, &out), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "work budget of 124 operations"));
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "node 'y' (Conv)"));
    lim.max_work = 25 + 100;
    ck_assert_msg(onnx_exec_limited(&G, &X, &t, 1, &lim, &out) == AR_OK, "%s", ar_error_get());
    onnx_tensor_clear(&out);
    lim.max_elems = 0;
    ck_assert_int_eq(onnx_exec_limited(&G, &X, &t, 1, &lim, &out), AR_EINVAL);
    onnx_graph_clear(&G);
    onnx_tensor_clear(&X);
}
END_TEST

START_TEST(huge_axes_refused)
{
    onnx_tensor_t X;
    const int64_t d23[2] = { 2, 3 };
    tensor_set(&X, "x", ONNX_F32, 2, d23, V16);
    const int64_t MIN = INT64_MIN, MAX = INT64_MAX;
    struct { const char *op, *attr; int ints; int64_t v; const char *why; } c[] = {
        { "Concat", "axis", 0, MIN, "axis" },
        { "Concat", "axis", 0, MAX, "axis" },
        { "Softmax", "axis", 0, MIN, "axis" },
        { "Softmax", "axis", 0, MAX, "axis" },
        { "ReduceMean", "axes", 1, MIN, "axis" },
        { "ReduceMean", "axes", 1, MAX, "axis" },
        { "Squeeze", "axes", 1, MIN, "axis" },
        { "Squeeze", "axes", 1, MAX, "axis" },
        { "Transpose", "perm", 2, MAX, "permutation" },
        { "Transpose", "perm", 2, MIN, "permutation" },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        onnx_graph_t G;
        g_init(&G);
        onnx_node_t *N = g_node(&G, c[i].op, "y", 1, (const char *[]){ "x" });
        int64_t v[2] = { c[i].v, 0 };
        if (c[i].ints)
            n_ints(N, c[i].attr, (size_t)c[i].ints, v);
        else
            n_int(N, c[i].attr, c[i].v);
        expect_refused(&G, &X, "y", c[i].op, c[i].why);
        onnx_graph_clear(&G);
    }
    /* Slice: an axis of INT64_MIN is refused; starts INT64_MIN, ends INT64_MAX clamp to the whole axis */
    onnx_graph_t G;
    g_init(&G);
    onnx_node_t *N = g_node(&G, "Slice", "y", 1, (const char *[]){ "x" });
    n_ints(N, "starts", 1, &MIN);
    n_ints(N, "ends", 1, &MAX);
    n_ints(N, "axes", 1, &MIN);
    expect_refused(&G, &X, "y", "node 'y' (Slice)", "axis");
    onnx_graph_clear(&G);
    g_init(&G);
    N = g_node(&G, "Slice", "y", 1, (const char *[]){ "x" });
    const int64_t ax1 = -1;
    n_ints(N, "starts", 1, &MIN);
    n_ints(N, "ends", 1, &MAX);
    n_ints(N, "axes", 1, &ax1);
    onnx_tensor_t out;
    ck_assert_msg(run(&G, &X, "y", &out) == AR_OK, "%s", ar_error_get());
    ck_assert(out.dims[0] == 2 && out.dims[1] == 3 && out.data[5] == 6);
    onnx_tensor_clear(&out);
    onnx_graph_clear(&G);
    onnx_tensor_clear(&X);
}
END_TEST

Suite *suite_onnx_exec(void)
{
    Suite *s = suite_create("onnx_exec");
    TCase *tc = tcase_create("onnx_exec");
    tcase_set_timeout(tc, 120);                       /* the unfixed pooling loop ran 2^124 steps */
    tcase_add_test(tc, cast_nonfinite_to_int64);
    tcase_add_test(tc, int_div_by_zero);
    tcase_add_test(tc, int_results_in_range);
    tcase_add_test(tc, int_results_exact);
    tcase_add_test(tc, concat_int_with_float);
    tcase_add_test(tc, conv_pads_overflow);
    tcase_add_test(tc, conv_dilation_overflow);
    tcase_add_test(tc, conv_window_fits);
    tcase_add_test(tc, avgpool_pads_overflow);
    tcase_add_test(tc, avgpool_huge_window);
    tcase_add_test(tc, avgpool_values);
    tcase_add_test(tc, float_broadcast_values);
    tcase_add_test(tc, conv_pointwise_values);
    tcase_add_test(tc, const_dims_overflow);
    tcase_add_test(tc, reshape_product_wraps);
    tcase_add_test(tc, input_checked);
    tcase_add_test(tc, limits_refuse);
    tcase_add_test(tc, huge_axes_refused);
    suite_add_tcase(s, tc);
    return s;
}
