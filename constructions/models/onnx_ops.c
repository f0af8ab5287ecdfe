/* SPDX-License-Identifier: GPL-3.0-or-later */
/* onnx_ops.c -- the operators of onnx_exec (see onnx_exec.h), opset 9
 * semantics, double arithmetic.
 *
 * Defined on every input: each operator reads tensors that pass
 * onnx_tensor_check for the run's element limit (so that no product of
 * dims can overflow, and integer tensors hold integers of their range) and
 * keeps that true of its output; sizes that attributes drive (pads,
 * strides, dilations, kernels, axes, target shapes) are computed with
 * overflow checks; doubles become integers only through int_value_ok; and
 * each node's work is charged to the run before it is done. */
#include "constructions/models/onnx_exec_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "numerics/vec_axpy.h"

#define EXACT_I64 ((int64_t)1 << 53)          /* int64 values are held exactly up to 2^53 */

static int is_int_type(int dt) { return dt == ONNX_I32 || dt == ONNX_I64; }

static const char *type_name(int dt)
{
    return dt == ONNX_F32 ? "float" : dt == ONNX_F64 ? "double" : dt == ONNX_I32 ? "int32" : "int64";
}

/* Whether v is an integer of type dt's range (int64: |v| <= 2^53). */
static int int_value_ok(double v, int dt)
{
    if (!isfinite(v) || v != trunc(v))
        return 0;
    if (dt == ONNX_I32)
        return v >= -2147483648.0 && v <= 2147483647.0;
    return fabs(v) <= (double)EXACT_I64;
}

/* The entries of a tensor of dims[0..r) into *size (0 when a dim is 0).
 * AR_EINVAL when a dim is negative or the nonzero dims multiply to more
 * than max (>= 1): then no product of dims overflows. */
static ar_status dims_count(size_t r, const int64_t *dims, size_t max, size_t *size)
{
    if (r > ONNX_MAX_RANK) {
        ar_error_set("rank %zu above %d", r, ONNX_MAX_RANK);
        return AR_EINVAL;
    }
    size_t nz = 1;
    int zero = 0;
    for (size_t i = 0; i < r; i++) {
        if (dims[i] < 0) {
            ar_error_set("dimension %zu is negative (%lld)", i, (long long)dims[i]);
            return AR_EINVAL;
        }
        if (dims[i] == 0) {
            zero = 1;
        } else if ((uint64_t)dims[i] > max / nz) {
            ar_error_set("dims beyond the limit of %zu entries (dimension %zu is %lld)", max, i, (long long)dims[i]);
            return AR_EINVAL;
        } else {
            nz *= (size_t)dims[i];
        }
    }
    *size = zero ? 0 : nz;
    return AR_OK;
}

static ar_status tensor_alloc_max(onnx_tensor_t *T, size_t r, const int64_t *dims, size_t max)
{
    size_t size;
    ar_status st = dims_count(r, dims, max, &size);
    if (st)
        return st;
    for (size_t i = 0; i < r; i++)
        T->dims[i] = dims[i];
    T->rank = r;
    T->size = size;
    T->dtype = ONNX_F64;
    T->data = ar_calloc(size ? size : 1, sizeof(double), "ONNX value");
    return T->data ? AR_OK : AR_ENOMEM;
}

ar_status onnx_tensor_alloc(onnx_tensor_t *T, size_t r, const int64_t *dims)
{
    return tensor_alloc_max(T, r, dims, ONNX_EXEC_MAX_ELEMS);
}

ar_status onnx_tensor_check(const onnx_tensor_t *T, size_t max_elems)
{
    if (T->dtype != ONNX_F32 && T->dtype != ONNX_F64 && T->dtype != ONNX_I32 && T->dtype != ONNX_I64) {
        ar_error_set("data type %d (float, double, int32 or int64 expected)", T->dtype);
        return AR_EINVAL;
    }
    size_t size;
    ar_status st = dims_count(T->rank, T->dims, max_elems ? max_elems : 1, &size);
    if (st)
        return st;
    if (size != T->size || !T->data) {
        ar_error_set("%zu entries%s for dims of %zu", T->size, !T->data ? " without data" : "", size);
        return AR_EINVAL;
    }
    if (is_int_type(T->dtype))
        for (size_t k = 0; k < size; k++)
            if (!int_value_ok(T->data[k], T->dtype)) {
                ar_error_set("entry %zu (%g) is not an %s%s", k, T->data[k], type_name(T->dtype),
                             T->dtype == ONNX_I64 ? " within 2^53" : "");
                return AR_EINVAL;
            }
    return AR_OK;
}

/* Charge a * b operations (saturating) to the run; AR_EINVAL beyond its budget. */
static ar_status charge(onnx_run_t *R, uint64_t a, uint64_t b)
{
    uint64_t w;
    if (__builtin_mul_overflow(a, b, &w) || w > R->max_work - R->work) {
        ar_error_set("the run's work budget of %llu operations is exhausted", (unsigned long long)R->max_work);
        return AR_EINVAL;
    }
    R->work += w;
    return AR_OK;
}

/* An operator's output: dims within the run's element limit, one operation
 * charged per entry (at least one), zero-filled F64 data. */
static ar_status out_alloc(onnx_run_t *R, onnx_tensor_t *T, size_t r, const int64_t *dims)
{
    size_t size;
    ar_status st = dims_count(r, dims, R->max_elems, &size);
    if (st || (st = charge(R, size ? size : 1, 1)))
        return st;
    return tensor_alloc_max(T, r, dims, R->max_elems);
}

static ar_status need_inputs(const onnx_node_t *N, const onnx_tensor_t *const *in, size_t lo, size_t hi)
{
    if (N->nin < lo || N->nin > hi) {
        ar_error_set("%zu inputs (%zu..%zu expected)", N->nin, lo, hi);
        return AR_EINVAL;
    }
    for (size_t k = 0; k < lo; k++)
        if (!in[k]) {
            ar_error_set("input %zu is missing", k);
            return AR_EINVAL;
        }
    return AR_OK;
}

static int64_t attr_int(const onnx_node_t *N, const char *name, int64_t def)
{
    const onnx_attr_t *a = onnx_attr_find(N, name);
    return a && a->type == ONNX_ATTR_INT ? a->i : def;
}

static double attr_float(const onnx_node_t *N, const char *name, double def)
{
    const onnx_attr_t *a = onnx_attr_find(N, name);
    return a && a->type == ONNX_ATTR_FLOAT ? a->f : def;
}

/* INTS attribute `name` with exactly n entries into v, else v = def (if
 * given; v and def are distinct arrays). */
static ar_status attr_ints(const onnx_node_t *N, const char *name, size_t n, const int64_t *def, int64_t *v)
{
    const onnx_attr_t *a = onnx_attr_find(N, name);
    if (!a) {
        if (!def) {
            ar_error_set("attribute '%s' is missing", name);
            return AR_EINVAL;
        }
        if (n)
            memcpy(v, def, n * sizeof *v);
        return AR_OK;
    }
    if (a->type != ONNX_ATTR_INTS || a->n != n) {
        ar_error_set("attribute '%s' must be %zu integers", name, n);
        return AR_EINVAL;
    }
    if (n)
        memcpy(v, a->ints, n * sizeof *v);
    return AR_OK;
}

/* ---- element-wise ---- */
typedef double (*binop_t)(double, double);
static double op_add(double a, double b) { return a + b; }
static double op_sub(double a, double b) { return a - b; }
static double op_mul(double a, double b) { return a * b; }
static double op_div(double a, double b) { return a / b; }
static double op_pow(double a, double b) { return b == 2.0 ? a * a : pow(a, b); }

typedef enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_POW } binop_code;

/* x `f` y on integers of type dt, exactly in int64 (the operands pass
 * int_value_ok): Div truncates toward zero, Pow takes an exponent >= 0.
 * AR_EINVAL on division by zero, a negative exponent or a result outside
 * dt's range. */
static ar_status int_op(binop_code f, double x, double y, int dt, double *r)
{
    if (!int_value_ok(x, dt) || !int_value_ok(y, dt)) {
        ar_error_set("an operand is not an %s", type_name(dt));
        return AR_EINVAL;
    }
    int64_t a = (int64_t)x, b = (int64_t)y, v = 0;
    int ovf = 0;
    switch (f) {
    case OP_ADD: ovf = __builtin_add_overflow(a, b, &v); break;
    case OP_SUB: ovf = __builtin_sub_overflow(a, b, &v); break;
    case OP_MUL: ovf = __builtin_mul_overflow(a, b, &v); break;
    case OP_DIV:
        if (b == 0) {
            ar_error_set("integer division by zero");
            return AR_EINVAL;
        }
        v = a / b;                                    /* |a| <= 2^53: not INT64_MIN / -1 */
        break;
    case OP_POW:
        if (b < 0) {
            ar_error_set("integer power with the negative exponent %lld", (long long)b);
            return AR_EINVAL;
        }
        v = 1;              /* square and multiply; |a| >= 2 makes every later square a factor of |v| */
        for (int64_t base = a; b > 0 && !ovf;) {
            if (b & 1)
                ovf = __builtin_mul_overflow(v, base, &v) || v > EXACT_I64 || v < -EXACT_I64;
            b >>= 1;
            if (b > 0 && !ovf)
                ovf = __builtin_mul_overflow(base, base, &base) || base > EXACT_I64;
        }
        break;
    }
    if (ovf || v > EXACT_I64 || v < -EXACT_I64 || (dt == ONNX_I32 && (v > INT32_MAX || v < INT32_MIN))) {
        ar_error_set("the integer result is beyond the %s range%s", type_name(dt),
                     dt == ONNX_I64 ? " held (2^53)" : "");
        return AR_EINVAL;
    }
    *r = (double)v;
    return AR_OK;
}

/* Multidirectional broadcasting of the right-aligned shapes xa[0..ra) and
 * xb[0..rb): *r = max(ra, rb), the result's dims, and the strides sa, sb of
 * either operand in the result's index space (0 on broadcast axes).  The
 * strides are products of the operands' dims (checked tensors: no overflow). */
static ar_status broadcast(const int64_t *xa, size_t ra, const int64_t *xb, size_t rb, size_t *r, int64_t *dims,
                           size_t *sa, size_t *sb)
{
    *r = ra > rb ? ra : rb;
    size_t stA = 1, stB = 1;
    for (size_t i = *r; i-- > 0;) {
        size_t ia = i + ra, ib = i + rb;             /* right-aligned: index i - (r - rank) */
        int64_t da = ia >= *r ? xa[ia - *r] : 1, db = ib >= *r ? xb[ib - *r] : 1;
        if (da != db && da != 1 && db != 1) {
            ar_error_set("shapes do not broadcast (dimension %zu: %lld vs %lld)", i, (long long)da, (long long)db);
            return AR_EINVAL;
        }
        dims[i] = da == 1 ? db : da;
        sa[i] = da == 1 ? 0 : stA;
        sb[i] = db == 1 ? 0 : stB;
        stA *= (size_t)da;
        stB *= (size_t)db;
    }
    return AR_OK;
}

/* Advance the multi-index idx over dims[0..r) (last index fastest) and the
 * two operand offsets *pa, *pb with their strides. */
static void odometer2(size_t *idx, const int64_t *dims, size_t r, const size_t *sa, const size_t *sb, size_t *pa,
                      size_t *pb)
{
    for (size_t i = r; i-- > 0;) {
        idx[i]++;
        *pa += sa[i];
        *pb += sb[i];
        if ((int64_t)idx[i] < dims[i])
            return;
        *pa -= sa[i] * idx[i];
        *pb -= sb[i] * idx[i];
        idx[i] = 0;
    }
}

/* A f B (code c); on two tensors of one integer type the exact int_op. */
static ar_status binary(onnx_run_t *R, const onnx_tensor_t *A, const onnx_tensor_t *B, binop_t f, binop_code c,
                        onnx_tensor_t *O)
{
    size_t r, sa[ONNX_MAX_RANK], sb[ONNX_MAX_RANK];
    int64_t dims[ONNX_MAX_RANK];
    ar_status st = broadcast(A->dims, A->rank, B->dims, B->rank, &r, dims, sa, sb);
    if (st || (st = out_alloc(R, O, r, dims)))
        return st;
    int idt = is_int_type(A->dtype) && A->dtype == B->dtype ? A->dtype : 0;
    if (!idt && c != OP_POW && r > 0 && O->size > 0) {
        /* floating point: the innermost axis in one loop per operation, each element the same
         * one operation as f would give (f is kept for Pow) */
        size_t inner = (size_t)dims[r - 1], ia = sa[r - 1], ib = sb[r - 1];
        size_t idx[ONNX_MAX_RANK] = { 0 }, pa = 0, pb = 0;
        for (size_t k = 0; k < O->size; k += inner) {
            double *o = O->data + k;
            const double *a = A->data + pa, *b = B->data + pb;
            switch (c) {
            case OP_ADD: for (size_t j = 0; j < inner; j++) o[j] = a[j * ia] + b[j * ib]; break;
            case OP_SUB: for (size_t j = 0; j < inner; j++) o[j] = a[j * ia] - b[j * ib]; break;
            case OP_MUL: for (size_t j = 0; j < inner; j++) o[j] = a[j * ia] * b[j * ib]; break;
            default:     for (size_t j = 0; j < inner; j++) o[j] = a[j * ia] / b[j * ib]; break;   /* OP_DIV */
            }
            if (r > 1) {                 /* advance the outer axes by one step */
                idx[r - 1] = inner - 1;
                pa += ia * (inner - 1);
                pb += ib * (inner - 1);
                odometer2(idx, dims, r, sa, sb, &pa, &pb);
            }
        }
    } else if (A->size == O->size && B->size == O->size) {
        for (size_t k = 0; k < O->size; k++)
            if (!idt)
                O->data[k] = f(A->data[k], B->data[k]);
            else if ((st = int_op(c, A->data[k], B->data[k], idt, &O->data[k])))
                return st;
    } else {
        size_t idx[ONNX_MAX_RANK] = { 0 }, pa = 0, pb = 0;
        for (size_t k = 0; k < O->size; k++) {
            if (!idt)
                O->data[k] = f(A->data[pa], B->data[pb]);
            else if ((st = int_op(c, A->data[pa], B->data[pb], idt, &O->data[k])))
                return st;
            odometer2(idx, dims, r, sa, sb, &pa, &pb);
        }
    }
    if (idt)
        O->dtype = idt;
    return AR_OK;
}

static ar_status unary(onnx_run_t *R, const onnx_node_t *N, const onnx_tensor_t *X, onnx_tensor_t *O)
{
    ar_status st = out_alloc(R, O, X->rank, X->dims);
    if (st)
        return st;
    const char *op = N->op;
    double lo = attr_float(N, "min", -INFINITY), hi = attr_float(N, "max", INFINITY);
    double al = attr_float(N, "alpha", 0.2), be = attr_float(N, "beta", 0.5);
    int f = !strcmp(op, "Relu") ? 0 : !strcmp(op, "Sigmoid") ? 1 : !strcmp(op, "Sqrt") ? 2 : !strcmp(op, "Clip") ? 3 : 4;
    for (size_t k = 0; k < X->size; k++) {
        double x = X->data[k], y;
        switch (f) {
        case 0: y = x > 0 ? x : 0; break;
        case 1: y = 1.0 / (1.0 + exp(-x)); break;
        case 2: y = sqrt(x); break;
        case 3: y = x < lo ? lo : x > hi ? hi : x; break;
        default: y = fmax(0.0, fmin(1.0, al * x + be)); break;   /* HardSigmoid */
        }
        O->data[k] = y;
    }
    return AR_OK;
}

/* ---- convolution and pooling (N C H W) ---- */

/* The output extent floor((x + p0 + p1 - (d (k - 1) + 1)) / s) + 1 of one
 * spatial axis (x, p0, p1 >= 0; k, d, s >= 1), in checked int64 arithmetic;
 * 0 when the dilated window is longer than the padded input.  AR_EINVAL
 * when the padded extent or the dilated window overflows. */
static ar_status out_extent(int64_t x, int64_t p0, int64_t p1, int64_t k, int64_t d, int64_t s, int64_t *o)
{
    int64_t ext, span;
    if (__builtin_add_overflow(x, p0, &ext) || __builtin_add_overflow(ext, p1, &ext) ||
        __builtin_mul_overflow(d, k - 1, &span) || __builtin_add_overflow(span, 1, &span)) {
        ar_error_set("the padded input (%lld + %lld + %lld) or the window (%lld, dilation %lld) overflows int64",
                     (long long)x, (long long)p0, (long long)p1, (long long)k, (long long)d);
        return AR_EINVAL;
    }
    *o = ext < span ? 0 : (ext - span) / s + 1;
    return AR_OK;
}

/* The pointwise convolution of one group: O (mo planes of p) = Wt (mo x ci) X (ci planes of p)
 * + bias (NULL: 0).  Every output element is bias, then + w x for input channel 0, 1, ...
 * in that order, one multiply and one add each (C11 mode contracts no FMA): the same bits as
 * the plain loops, in blocks of 2 channels x 4 positions kept in registers across the input
 * channels (the PP-OCRv4 forward pass spends most of its time here). */
static void conv_pointwise(const double *restrict X, const double *restrict Wt, const double *bias, size_t mo,
                           size_t ci, size_t p, double *restrict O)
{
    size_t o0 = 0;
    for (; o0 + 2 <= mo; o0 += 2) {
        const double *w0 = Wt + o0 * ci, *w1 = w0 + ci;
        double b0 = bias ? bias[o0] : 0.0, b1 = bias ? bias[o0 + 1] : 0.0;
        double *q0 = O + o0 * p, *q1 = q0 + p;
        size_t k = 0;
        for (; k + 4 <= p; k += 4) {
            double a0 = b0, a1 = b0, a2 = b0, a3 = b0, c0 = b1, c1 = b1, c2 = b1, c3 = b1;
            const double *x = X + k;
            for (size_t i = 0; i < ci; i++, x += p) {
                double v = w0[i], u = w1[i];
                a0 += v * x[0];
                a1 += v * x[1];
                a2 += v * x[2];
                a3 += v * x[3];
                c0 += u * x[0];
                c1 += u * x[1];
                c2 += u * x[2];
                c3 += u * x[3];
            }
            q0[k] = a0; q0[k + 1] = a1; q0[k + 2] = a2; q0[k + 3] = a3;
            q1[k] = c0; q1[k + 1] = c1; q1[k + 2] = c2; q1[k + 3] = c3;
        }
        for (; k < p; k++) {
            double a = b0, c = b1;
            for (size_t i = 0; i < ci; i++) {
                a += w0[i] * X[i * p + k];
                c += w1[i] * X[i * p + k];
            }
            q0[k] = a;
            q1[k] = c;
        }
    }
    for (; o0 < mo; o0++) {                       /* the last channels, one plane at a time */
        double *o = O + o0 * p;
        double bv = bias ? bias[o0] : 0.0;
        for (size_t k = 0; k < p; k++)
            o[k] = bv;
        for (size_t i = 0; i < ci; i++)
            vec_axpy(o, X + i * p, Wt[o0 * ci + i], p);
    }
}

static ar_status conv(onnx_run_t *R, const onnx_node_t *N, const onnx_tensor_t *X, const onnx_tensor_t *W,
                      const onnx_tensor_t *B, onnx_tensor_t *O)
{
    if (X->rank != 4 || W->rank != 4) {
        ar_error_set("only 2-D convolutions (rank 4) are supported");
        return AR_EINVAL;
    }
    int64_t one2[2] = { 1, 1 }, zero4[4] = { 0, 0, 0, 0 }, st2[2], dl2[2], pd[4], ks[2];
    ar_status st;
    if ((st = attr_ints(N, "strides", 2, one2, st2)) || (st = attr_ints(N, "dilations", 2, one2, dl2)) ||
        (st = attr_ints(N, "pads", 4, zero4, pd)) || (st = attr_ints(N, "kernel_shape", 2, W->dims + 2, ks)))
        return st;
    int64_t g = attr_int(N, "group", 1);
    int64_t n = X->dims[0], c = X->dims[1], h = X->dims[2], w = X->dims[3];
    int64_t m = W->dims[0], cg = W->dims[1], kh = W->dims[2], kw = W->dims[3];
    if (g < 1 || c % g || m % g || cg != c / g || kh < 1 || kw < 1 || ks[0] != kh || ks[1] != kw || st2[0] < 1 ||
        st2[1] < 1 || dl2[0] < 1 || dl2[1] < 1 || pd[0] < 0 || pd[1] < 0 || pd[2] < 0 || pd[3] < 0 ||
        (B && (B->rank != 1 || B->dims[0] != m)) || attr_int(N, "auto_pad", 0)) {
        ar_error_set("inconsistent convolution (input %lld x %lld, weights %lld x %lld x %lld x %lld, group %lld)",
                     (long long)c, (long long)h, (long long)m, (long long)cg, (long long)kh, (long long)kw,
                     (long long)g);
        return AR_EINVAL;
    }
    int64_t oh, ow;
    if ((st = out_extent(h, pd[0], pd[2], kh, dl2[0], st2[0], &oh)) ||
        (st = out_extent(w, pd[1], pd[3], kw, dl2[1], st2[1], &ow)))
        return st;
    if (oh < 1 || ow < 1) {
        ar_error_set("the input is too small for the kernel");
        return AR_EINVAL;
    }
    int64_t od[4] = { n, m, oh, ow };
    /* cg kh kw: a product of W's dims, within the element limit */
    if ((st = out_alloc(R, O, 4, od)) || (st = charge(R, O->size, (uint64_t)(cg * kh * kw))))
        return st;
    /* Indices below stay in int64: y st <= padded - span and i dl <= span - 1 (out_extent). */
    int64_t mg = m / g;
    if (kh == 1 && kw == 1 && st2[0] == 1 && st2[1] == 1 && !pd[0] && !pd[1] && !pd[2] && !pd[3]) {
        for (int64_t b = 0; b < n; b++)           /* pointwise: per group a product, blocked */
            for (int64_t grp = 0; grp < g; grp++)
                conv_pointwise(X->data + ((size_t)(b * c + grp * cg)) * (size_t)(h * w),
                               W->data + (size_t)(grp * mg * cg), B ? B->data + grp * mg : NULL,
                               (size_t)mg, (size_t)cg, (size_t)(h * w),
                               O->data + ((size_t)(b * m + grp * mg)) * (size_t)(h * w));
        return AR_OK;
    }
    for (int64_t b = 0; b < n; b++)
        for (int64_t oc = 0; oc < m; oc++) {
            double *o = O->data + ((size_t)(b * m + oc)) * (size_t)(oh * ow);
            double bias = B ? B->data[oc] : 0.0;
            for (int64_t k = 0; k < oh * ow; k++)
                o[k] = bias;
            int64_t grp = oc / mg;
            for (int64_t ic = 0; ic < cg; ic++) {
                const double *x = X->data + ((size_t)(b * c + grp * cg + ic)) * (size_t)(h * w);
                const double *wk = W->data + ((size_t)(oc * cg + ic)) * (size_t)(kh * kw);
                for (int64_t i = 0; i < kh; i++)
                    for (int64_t j = 0; j < kw; j++) {
                        double wv = wk[i * kw + j];
                        for (int64_t y = 0; y < oh; y++) {
                            int64_t iy = y * st2[0] - pd[0] + i * dl2[0];
                            if (iy < 0 || iy >= h)
                                continue;
                            for (int64_t xx = 0; xx < ow; xx++) {
                                int64_t ix = xx * st2[1] - pd[1] + j * dl2[1];
                                if (ix >= 0 && ix < w)
                                    o[y * ow + xx] += wv * x[iy * w + ix];
                            }
                        }
                    }
            }
        }
    return AR_OK;
}

static ar_status batchnorm(onnx_run_t *R, const onnx_node_t *N, const onnx_tensor_t *const *in, onnx_tensor_t *O)
{
    const onnx_tensor_t *X = in[0];
    if (X->rank < 2) {
        ar_error_set("input of rank %zu", X->rank);
        return AR_EINVAL;
    }
    int64_t c = X->dims[1];
    for (int k = 1; k <= 4; k++)
        if (in[k]->rank != 1 || in[k]->dims[0] != c) {
            ar_error_set("parameter %d does not have %lld entries", k, (long long)c);
            return AR_EINVAL;
        }
    double eps = attr_float(N, "epsilon", 1e-5);
    ar_status st = out_alloc(R, O, X->rank, X->dims);
    if (st)
        return st;
    size_t inner = 1;
    for (size_t i = 2; i < X->rank; i++)
        inner *= (size_t)X->dims[i];
    for (size_t k = 0; k < X->size; k++) {
        size_t ch = (k / inner) % (size_t)c;
        double s = in[1]->data[ch], b = in[2]->data[ch], mu = in[3]->data[ch], var = in[4]->data[ch];
        O->data[k] = s * (X->data[k] - mu) / sqrt(var + eps) + b;
    }
    return AR_OK;
}

static ar_status avgpool(onnx_run_t *R, const onnx_node_t *N, const onnx_tensor_t *X, int global, onnx_tensor_t *O)
{
    if (X->rank != 4) {
        ar_error_set("only 2-D pooling (rank 4) is supported");
        return AR_EINVAL;
    }
    int64_t h = X->dims[2], w = X->dims[3], ks[2] = { h, w }, s2[2] = { 1, 1 }, pd[4] = { 0, 0, 0, 0 };
    ar_status st;
    if (!global) {
        int64_t one2[2] = { 1, 1 }, zero4[4] = { 0, 0, 0, 0 };
        if ((st = attr_ints(N, "kernel_shape", 2, NULL, ks)) || (st = attr_ints(N, "strides", 2, one2, s2)) ||
            (st = attr_ints(N, "pads", 4, zero4, pd)))
            return st;
        if (attr_int(N, "ceil_mode", 0) || attr_int(N, "auto_pad", 0)) {
            ar_error_set("ceil_mode and auto_pad are not supported");
            return AR_EINVAL;
        }
    }
    int incl = attr_int(N, "count_include_pad", 0) != 0;
    if (ks[0] < 1 || ks[1] < 1 || s2[0] < 1 || s2[1] < 1 || pd[0] < 0 || pd[1] < 0 || pd[2] < 0 || pd[3] < 0) {
        ar_error_set("bad pooling attributes");
        return AR_EINVAL;
    }
    int64_t oh, ow;
    if ((st = out_extent(h, pd[0], pd[2], ks[0], 1, s2[0], &oh)) ||
        (st = out_extent(w, pd[1], pd[3], ks[1], 1, s2[1], &ow)))
        return st;
    if (oh < 1 || ow < 1) {
        ar_error_set("the input is smaller than the pooling window");
        return AR_EINVAL;
    }
    int64_t od[4] = { X->dims[0], X->dims[1], oh, ow };
    /* each output entry sums the window's part inside the input: at most min(ks, h) x min(ks, w) terms */
    uint64_t terms = (uint64_t)(ks[0] < h ? ks[0] : h) * (uint64_t)(ks[1] < w ? ks[1] : w);
    if ((st = out_alloc(R, O, 4, od)) || (st = charge(R, O->size, terms)))
        return st;
    double area = (double)ks[0] * (double)ks[1];    /* count_include_pad's divisor, no int64 product */
    /* Window bounds stay in int64: y s <= padded - ks (out_extent), so y s - pd0 + ks <= h + pd2. */
    for (int64_t p = 0; p < X->dims[0] * X->dims[1]; p++) {
        const double *x = X->data + (size_t)(p * h * w);
        for (int64_t y = 0; y < oh; y++) {
            int64_t y0 = y * s2[0] - pd[0], y1 = y0 + ks[0];
            y0 = y0 < 0 ? 0 : y0;
            y1 = y1 > h ? h : y1;
            for (int64_t xx = 0; xx < ow; xx++) {
                int64_t x0 = xx * s2[1] - pd[1], x1 = x0 + ks[1];
                x0 = x0 < 0 ? 0 : x0;
                x1 = x1 > w ? w : x1;
                double s = 0;
                int64_t cnt = 0;
                for (int64_t iy = y0; iy < y1; iy++)
                    for (int64_t ix = x0; ix < x1; ix++) {
                        s += x[iy * w + ix];
                        cnt++;
                    }
                O->data[(size_t)((p * oh + y) * ow + xx)] = s / (incl ? area : (double)(cnt ? cnt : 1));
            }
        }
    }
    return AR_OK;
}

/* ---- linear algebra and reductions ---- */
static ar_status matmul(onnx_run_t *R, const onnx_tensor_t *A, const onnx_tensor_t *B, onnx_tensor_t *O)
{
    if (A->rank < 2 || B->rank < 2) {
        ar_error_set("MatMul of rank < 2 is not supported");
        return AR_EINVAL;
    }
    int64_t m = A->dims[A->rank - 2], k = A->dims[A->rank - 1], k2 = B->dims[B->rank - 2], n = B->dims[B->rank - 1];
    if (k != k2) {
        ar_error_set("inner dimensions %lld and %lld differ", (long long)k, (long long)k2);
        return AR_EINVAL;
    }
    size_t r, sa[ONNX_MAX_RANK], sb[ONNX_MAX_RANK];
    int64_t dims[ONNX_MAX_RANK];
    ar_status st = broadcast(A->dims, A->rank - 2, B->dims, B->rank - 2, &r, dims, sa, sb);   /* batch dimensions */
    if (st)
        return st;
    dims[r] = m;
    dims[r + 1] = n;
    if ((st = out_alloc(R, O, r + 2, dims)) || (st = charge(R, O->size, (uint64_t)k)))
        return st;
    size_t nb = 1;
    for (size_t i = 0; i < r; i++)
        nb *= (size_t)dims[i];
    size_t idx[ONNX_MAX_RANK] = { 0 }, pa = 0, pb = 0;
    for (size_t bt = 0; O->size && bt < nb; bt++) {
        const double *a = A->data + pa * (size_t)(m * k), *b = B->data + pb * (size_t)(k * n);
        double *o = O->data + bt * (size_t)(m * n);
        for (int64_t i = 0; i < m; i++)
            for (int64_t l = 0; l < k; l++) {
                double av = a[i * k + l];
                for (int64_t j = 0; j < n; j++)
                    o[i * n + j] += av * b[l * n + j];
            }
        odometer2(idx, dims, r, sa, sb, &pa, &pb);
    }
    return AR_OK;
}

static ar_status softmax(onnx_run_t *R, const onnx_node_t *N, const onnx_tensor_t *X, onnx_tensor_t *O)
{
    int64_t ax = attr_int(N, "axis", 1);
    if (ax < 0)
        ax += (int64_t)X->rank;                       /* rank <= 8: no overflow */
    if (ax < 0 || ax > (int64_t)X->rank) {
        ar_error_set("axis %lld out of range", (long long)attr_int(N, "axis", 1));
        return AR_EINVAL;
    }
    ar_status st = out_alloc(R, O, X->rank, X->dims);
    if (st || (st = charge(R, X->size, 2)))
        return st;
    size_t inner = 1;
    for (size_t i = (size_t)ax; i < X->rank; i++)
        inner *= (size_t)X->dims[i];
    for (size_t r0 = 0; inner && r0 < X->size; r0 += inner) {
        double mx = -INFINITY, s = 0;
        for (size_t j = 0; j < inner; j++)
            mx = fmax(mx, X->data[r0 + j]);
        for (size_t j = 0; j < inner; j++)
            s += (O->data[r0 + j] = exp(X->data[r0 + j] - mx));
        for (size_t j = 0; j < inner; j++)
            O->data[r0 + j] /= s;
    }
    return AR_OK;
}

static ar_status reduce_mean(onnx_run_t *R, const onnx_node_t *N, const onnx_tensor_t *X, onnx_tensor_t *O)
{
    const onnx_attr_t *a = onnx_attr_find(N, "axes");
    int keep = attr_int(N, "keepdims", 1) != 0;
    unsigned char red[ONNX_MAX_RANK] = { 0 };
    if (!a) {
        memset(red, 1, sizeof red);
    } else {
        if (a->type != ONNX_ATTR_INTS) {
            ar_error_set("axes must be integers");
            return AR_EINVAL;
        }
        for (size_t i = 0; i < a->n; i++) {
            int64_t ax = a->ints[i] < 0 ? a->ints[i] + (int64_t)X->rank : a->ints[i];
            if (ax < 0 || ax >= (int64_t)X->rank) {
                ar_error_set("axis %lld out of range", (long long)a->ints[i]);
                return AR_EINVAL;
            }
            red[ax] = 1;
        }
    }
    int64_t od[ONNX_MAX_RANK];
    size_t orank = 0, cnt = 1;
    for (size_t i = 0; i < X->rank; i++) {
        if (red[i])
            cnt *= (size_t)X->dims[i];
        if (!red[i] || keep)
            od[orank++] = red[i] ? 1 : X->dims[i];
    }
    ar_status st = out_alloc(R, O, orank, od);
    if (st || (st = charge(R, X->size, 1)))
        return st;
    /* strides of the output in the input's index space (0 on reduced axes) */
    size_t so[ONNX_MAX_RANK], s = 1;
    for (size_t i = X->rank; i-- > 0;) {
        so[i] = red[i] ? 0 : s;
        if (!red[i])
            s *= (size_t)X->dims[i];
    }
    size_t idx[ONNX_MAX_RANK] = { 0 }, po = 0;
    for (size_t k = 0; k < X->size; k++) {
        O->data[po] += X->data[k];
        for (size_t i = X->rank; i-- > 0;) {
            idx[i]++;
            po += so[i];
            if ((int64_t)idx[i] < X->dims[i])
                break;
            po -= so[i] * idx[i];
            idx[i] = 0;
        }
    }
    for (size_t k = 0; k < O->size; k++)
        O->data[k] /= (double)(cnt ? cnt : 1);
    return AR_OK;
}

/* ---- shapes ---- */

/* Row-major strides of X into sx. */
static void strides_of(const onnx_tensor_t *X, size_t *sx)
{
    size_t s = 1;
    for (size_t i = X->rank; i-- > 0;) {
        sx[i] = s;
        s *= (size_t)X->dims[i];
    }
}

/* Advance the multi-index idx over dims[0..r) (last index fastest). */
static void odometer_next(size_t *idx, const int64_t *dims, size_t r)
{
    for (size_t i = r; i-- > 0;) {
        if ((int64_t)++idx[i] < dims[i])
            return;
        idx[i] = 0;
    }
}

static ar_status set_int_vector(onnx_run_t *R, onnx_tensor_t *O, const int64_t *v, size_t n)
{
    int64_t d = (int64_t)n;
    ar_status st = out_alloc(R, O, 1, &d);
    if (st)
        return st;
    for (size_t i = 0; i < n; i++)
        O->data[i] = (double)v[i];                    /* dims of a checked tensor: below 2^53 */
    O->dtype = ONNX_I64;
    return AR_OK;
}

static ar_status cast(onnx_run_t *R, const onnx_node_t *N, const onnx_tensor_t *X, onnx_tensor_t *O)
{
    int64_t to = attr_int(N, "to", 0);
    if (to != ONNX_F32 && to != ONNX_F64 && to != ONNX_I32 && to != ONNX_I64) {
        ar_error_set("cast to type %lld is not supported", (long long)to);
        return AR_EINVAL;
    }
    ar_status st = out_alloc(R, O, X->rank, X->dims);
    if (st)
        return st;
    for (size_t k = 0; k < X->size; k++) {
        double x = X->data[k];
        if (to == ONNX_F32) {
            O->data[k] = (double)(float)x;            /* IEC 60559 (C11 Annex F): beyond FLT_MAX rounds to inf */
        } else if (to == ONNX_F64) {
            O->data[k] = x;
        } else if (!int_value_ok(trunc(x), (int)to)) {
            ar_error_set("entry %zu (%g) cannot be cast to %s (%s)", k, x, type_name((int)to),
                         !isfinite(x) ? "not finite" : to == ONNX_I64 ? "beyond 2^53" : "out of range");
            return AR_EINVAL;
        } else {
            double t = trunc(x);
            O->data[k] = t == 0 ? 0.0 : t;            /* an integer has no -0 (trunc(-0.5) is -0) */
        }
    }
    O->dtype = (int)to;
    return AR_OK;
}

static ar_status slice(onnx_run_t *R, const onnx_node_t *N, const onnx_tensor_t *X, onnx_tensor_t *O)
{
    const onnx_attr_t *as = onnx_attr_find(N, "starts"), *ae = onnx_attr_find(N, "ends"),
                      *aa = onnx_attr_find(N, "axes");
    if (N->nin != 1 || !as || !ae || as->type != ONNX_ATTR_INTS || ae->type != ONNX_ATTR_INTS || as->n != ae->n ||
        (aa && (aa->type != ONNX_ATTR_INTS || aa->n != as->n))) {
        ar_error_set("only the opset-9 form (starts, ends, axes attributes) is supported");
        return AR_EINVAL;
    }
    int64_t lo[ONNX_MAX_RANK], hi[ONNX_MAX_RANK], od[ONNX_MAX_RANK];
    for (size_t i = 0; i < X->rank; i++)
        lo[i] = 0, hi[i] = X->dims[i];
    for (size_t q = 0; q < as->n; q++) {
        int64_t ax = aa ? aa->ints[q] : (int64_t)q;
        if (ax < 0)
            ax += (int64_t)X->rank;
        if (ax < 0 || ax >= (int64_t)X->rank) {
            ar_error_set("axis %lld out of range", (long long)(aa ? aa->ints[q] : (int64_t)q));
            return AR_EINVAL;
        }
        int64_t d = X->dims[ax], s = as->ints[q], e = ae->ints[q];
        if (s < 0) s += d;                            /* d >= 0: no overflow */
        if (e < 0) e += d;
        s = s < 0 ? 0 : s > d ? d : s;
        e = e < 0 ? 0 : e > d ? d : e;
        lo[ax] = s;
        hi[ax] = e > s ? e : s;
    }
    for (size_t i = 0; i < X->rank; i++)
        od[i] = hi[i] - lo[i];
    ar_status st = out_alloc(R, O, X->rank, od);
    if (st)
        return st;
    O->dtype = X->dtype;
    size_t sx[ONNX_MAX_RANK], idx[ONNX_MAX_RANK] = { 0 };
    strides_of(X, sx);
    for (size_t k = 0; k < O->size; k++) {
        size_t p = 0;
        for (size_t i = 0; i < X->rank; i++)
            p += (size_t)(lo[i] + (int64_t)idx[i]) * sx[i];
        O->data[k] = X->data[p];
        odometer_next(idx, od, X->rank);
    }
    return AR_OK;
}

static ar_status concat(onnx_run_t *R, const onnx_node_t *N, const onnx_tensor_t *const *in, onnx_tensor_t *O)
{
    const onnx_tensor_t *X = in[0];
    int64_t ax = attr_int(N, "axis", 0);
    if (ax < 0)
        ax += (int64_t)X->rank;
    if (ax < 0 || ax >= (int64_t)X->rank) {
        ar_error_set("axis %lld out of range", (long long)attr_int(N, "axis", 0));
        return AR_EINVAL;
    }
    int64_t od[ONNX_MAX_RANK];
    memcpy(od, X->dims, sizeof od);
    od[ax] = 0;
    for (size_t k = 0; k < N->nin; k++) {
        if (!in[k] || in[k]->rank != X->rank) {
            ar_error_set("inputs of different ranks");
            return AR_EINVAL;
        }
        for (size_t i = 0; i < X->rank; i++)
            if ((int64_t)i != ax && in[k]->dims[i] != X->dims[i]) {
                ar_error_set("inputs of different shapes");
                return AR_EINVAL;
            }
        if (__builtin_add_overflow(od[ax], in[k]->dims[ax], &od[ax])) {
            ar_error_set("the concatenated axis overflows int64");
            return AR_EINVAL;
        }
        /* the output takes X's type: an integer one must hold the other inputs' values */
        if (is_int_type(X->dtype) && in[k]->dtype != X->dtype)
            for (size_t e = 0; e < in[k]->size; e++)
                if (!int_value_ok(in[k]->data[e], X->dtype)) {
                    ar_error_set("input %zu entry %zu (%g) is not an %s, the type of input 0", k, e,
                                 in[k]->data[e], type_name(X->dtype));
                    return AR_EINVAL;
                }
    }
    ar_status st = out_alloc(R, O, X->rank, od);
    if (st)
        return st;
    O->dtype = X->dtype;
    size_t outer = 1, inner = 1;
    for (int64_t i = 0; i < ax; i++)
        outer *= (size_t)X->dims[i];
    for (size_t i = (size_t)ax + 1; i < X->rank; i++)
        inner *= (size_t)X->dims[i];
    size_t off = 0;
    for (size_t k = 0; O->size && k < N->nin; k++) {
        size_t blk = (size_t)in[k]->dims[ax] * inner;
        for (size_t o = 0; blk && o < outer; o++)
            memcpy(O->data + o * (size_t)od[ax] * inner + off, in[k]->data + o * blk, blk * sizeof(double));
        off += blk;
    }
    if (is_int_type(X->dtype))
        for (size_t k = 0; k < O->size; k++)
            if (O->data[k] == 0)
                O->data[k] = 0.0;                     /* a float input's -0 */
    return AR_OK;
}

/* Reshape X to want[0..r) (0 copies X's dim, one -1 is inferred); every
 * product is checked. */
static ar_status reshape_to(onnx_run_t *R, const onnx_tensor_t *X, const int64_t *want, size_t r, onnx_tensor_t *O)
{
    int64_t od[ONNX_MAX_RANK];
    size_t known = 1, infer = (size_t)-1;
    if (r > ONNX_MAX_RANK) {
        ar_error_set("rank %zu above %d", r, ONNX_MAX_RANK);
        return AR_EINVAL;
    }
    for (size_t i = 0; i < r; i++) {
        od[i] = want[i] == 0 && i < X->rank ? X->dims[i] : want[i];
        if (od[i] == -1 && infer == (size_t)-1) {
            infer = i;
        } else if (od[i] < 1) {
            ar_error_set("bad target shape entry %lld", (long long)want[i]);
            return AR_EINVAL;
        } else if (__builtin_mul_overflow(known, (size_t)od[i], &known)) {
            ar_error_set("the target shape's entries multiply beyond 2^64");
            return AR_EINVAL;
        }
    }
    if (infer != (size_t)-1) {
        if (X->size % known) {                        /* known >= 1 */
            ar_error_set("cannot infer a dimension");
            return AR_EINVAL;
        }
        od[infer] = (int64_t)(X->size / known);
        known = X->size;
    }
    if (known != X->size) {
        ar_error_set("%zu entries cannot take a shape of %zu", X->size, known);
        return AR_EINVAL;
    }
    ar_status st = out_alloc(R, O, r, od);
    if (st)
        return st;
    O->dtype = X->dtype;
    if (X->size)
        memcpy(O->data, X->data, X->size * sizeof(double));
    return AR_OK;
}

static ar_status reshape(onnx_run_t *R, const onnx_tensor_t *X, const onnx_tensor_t *S, onnx_tensor_t *O)
{
    if (S->rank != 1 || (S->dtype != ONNX_I64 && S->dtype != ONNX_I32) || S->size > ONNX_MAX_RANK) {
        ar_error_set("the shape input must be an integer vector of at most %d entries", ONNX_MAX_RANK);
        return AR_EINVAL;
    }
    int64_t want[ONNX_MAX_RANK];
    for (size_t i = 0; i < S->size; i++) {
        if (!int_value_ok(S->data[i], ONNX_I64)) {    /* checked before the conversion */
            ar_error_set("shape entry %zu (%g) is not an integer within 2^53", i, S->data[i]);
            return AR_EINVAL;
        }
        want[i] = (int64_t)S->data[i];
    }
    return reshape_to(R, X, want, S->size, O);
}

static ar_status squeeze(onnx_run_t *R, const onnx_node_t *N, const onnx_tensor_t *X, onnx_tensor_t *O)
{
    const onnx_attr_t *a = onnx_attr_find(N, "axes");
    unsigned char drop[ONNX_MAX_RANK] = { 0 };
    for (size_t i = 0; i < X->rank; i++)
        drop[i] = !a && X->dims[i] == 1;
    if (a) {
        if (a->type != ONNX_ATTR_INTS) {
            ar_error_set("axes must be integers");
            return AR_EINVAL;
        }
        for (size_t q = 0; q < a->n; q++) {
            int64_t ax = a->ints[q] < 0 ? a->ints[q] + (int64_t)X->rank : a->ints[q];
            if (ax < 0 || ax >= (int64_t)X->rank || X->dims[ax] != 1) {
                ar_error_set("axis %lld is not a dimension of extent 1", (long long)a->ints[q]);
                return AR_EINVAL;
            }
            drop[ax] = 1;
        }
    }
    int64_t want[ONNX_MAX_RANK];
    size_t r = 0;
    for (size_t i = 0; i < X->rank; i++)
        if (!drop[i])
            want[r++] = X->dims[i];
    return reshape_to(R, X, want, r, O);
}

static ar_status transpose(onnx_run_t *R, const onnx_node_t *N, const onnx_tensor_t *X, onnx_tensor_t *O)
{
    int64_t perm[ONNX_MAX_RANK], rev[ONNX_MAX_RANK];
    for (size_t i = 0; i < X->rank; i++)
        rev[i] = (int64_t)(X->rank - 1 - i);
    ar_status st = attr_ints(N, "perm", X->rank, rev, perm);
    if (st)
        return st;
    unsigned char seen[ONNX_MAX_RANK] = { 0 };
    int64_t od[ONNX_MAX_RANK];
    for (size_t i = 0; i < X->rank; i++) {
        if (perm[i] < 0 || perm[i] >= (int64_t)X->rank || seen[perm[i]]) {
            ar_error_set("perm is not a permutation");
            return AR_EINVAL;
        }
        seen[perm[i]] = 1;
        od[i] = X->dims[perm[i]];
    }
    if ((st = out_alloc(R, O, X->rank, od)))
        return st;
    O->dtype = X->dtype;
    size_t sx[ONNX_MAX_RANK], idx[ONNX_MAX_RANK] = { 0 };
    strides_of(X, sx);
    for (size_t k = 0; k < O->size; k++) {
        size_t p = 0;
        for (size_t i = 0; i < X->rank; i++)
            p += idx[i] * sx[perm[i]];
        O->data[k] = X->data[p];
        odometer_next(idx, od, X->rank);
    }
    return AR_OK;
}

ar_status onnx_op_apply(onnx_run_t *R, const onnx_node_t *N, const onnx_tensor_t *const *in, onnx_tensor_t *out)
{
    const char *op = N->op;
    ar_status st;
    if (N->nout != 1 && strcmp(op, "BatchNormalization") != 0) {
        ar_error_set("%zu outputs (one expected)", N->nout);
        return AR_EINVAL;
    }
    struct { const char *name; binop_t f; binop_code c; } bin[] = {
        { "Add", op_add, OP_ADD }, { "Sub", op_sub, OP_SUB }, { "Mul", op_mul, OP_MUL }, { "Div", op_div, OP_DIV },
        { "Pow", op_pow, OP_POW } };
    for (size_t b = 0; b < sizeof bin / sizeof bin[0]; b++)
        if (!strcmp(op, bin[b].name))
            return (st = need_inputs(N, in, 2, 2)) ? st : binary(R, in[0], in[1], bin[b].f, bin[b].c, out);
    if (!strcmp(op, "Relu") || !strcmp(op, "Sigmoid") || !strcmp(op, "Sqrt") || !strcmp(op, "HardSigmoid") ||
        !strcmp(op, "Clip"))
        return (st = need_inputs(N, in, 1, 1)) ? st : unary(R, N, in[0], out);
    if (!strcmp(op, "Conv"))
        return (st = need_inputs(N, in, 2, 3)) ? st : conv(R, N, in[0], in[1], N->nin > 2 ? in[2] : NULL, out);
    if (!strcmp(op, "BatchNormalization")) {
        if (N->nout != 1) {
            ar_error_set("training-mode outputs are not supported");
            return AR_EINVAL;
        }
        return (st = need_inputs(N, in, 5, 5)) ? st : batchnorm(R, N, in, out);
    }
    if (!strcmp(op, "AveragePool") || !strcmp(op, "GlobalAveragePool"))
        return (st = need_inputs(N, in, 1, 1)) ? st : avgpool(R, N, in[0], op[0] == 'G', out);
    if (!strcmp(op, "MatMul"))
        return (st = need_inputs(N, in, 2, 2)) ? st : matmul(R, in[0], in[1], out);
    if (!strcmp(op, "Softmax"))
        return (st = need_inputs(N, in, 1, 1)) ? st : softmax(R, N, in[0], out);
    if (!strcmp(op, "ReduceMean"))
        return (st = need_inputs(N, in, 1, 1)) ? st : reduce_mean(R, N, in[0], out);
    if (!strcmp(op, "Shape"))
        return (st = need_inputs(N, in, 1, 1)) ? st : set_int_vector(R, out, in[0]->dims, in[0]->rank);
    if (!strcmp(op, "Cast"))
        return (st = need_inputs(N, in, 1, 1)) ? st : cast(R, N, in[0], out);
    if (!strcmp(op, "Slice"))
        return (st = need_inputs(N, in, 1, 1)) ? st : slice(R, N, in[0], out);
    if (!strcmp(op, "Concat"))
        return (st = need_inputs(N, in, 1, 16)) ? st : concat(R, N, in, out);
    if (!strcmp(op, "Reshape"))
        return (st = need_inputs(N, in, 2, 2)) ? st : reshape(R, in[0], in[1], out);
    if (!strcmp(op, "Squeeze"))
        return (st = need_inputs(N, in, 1, 1)) ? st : squeeze(R, N, in[0], out);
    if (!strcmp(op, "Transpose"))
        return (st = need_inputs(N, in, 1, 1)) ? st : transpose(R, N, in[0], out);
    ar_error_set("the operator %s is not supported", op);
    return AR_EINVAL;
}
