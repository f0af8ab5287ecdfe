/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fround.c -- directed rounding the compiler cannot move (see fround.h).
 *
 * Every fesetround() of the library is in this file.  fround_run is noipa:
 * callers (in this file too) see an opaque call, so the arithmetic of a body
 * runs between the two mode switches. */
#include "numerics/fround.h"

#include <fenv.h>
#include <math.h>

__attribute__((noinline, noipa)) void fround_run(int mode, fround_body_fn body, void *ctx)
{
    int saved = fegetround();
    fesetround(mode);
    body(ctx);
    fesetround(saved);
}

typedef struct {
    double a, b, r;
} fround_op;

static FROUND_BODY void op_add(void *c)
{
    fround_op *o = c;
    o->r = o->a + o->b;
}

static FROUND_BODY void op_sub(void *c)
{
    fround_op *o = c;
    o->r = o->a - o->b;
}

static FROUND_BODY void op_mul(void *c)
{
    fround_op *o = c;
    o->r = o->a * o->b;
}

static FROUND_BODY void op_div(void *c)
{
    fround_op *o = c;
    o->r = o->a / o->b;
}

static double op_run(int mode, fround_body_fn body, double a, double b)
{
    fround_op o = {a, b, 0.0};
    fround_run(mode, body, &o);
    return o.r;
}

double fround_add_up(double a, double b) { return op_run(FE_UPWARD, op_add, a, b); }
double fround_add_down(double a, double b) { return op_run(FE_DOWNWARD, op_add, a, b); }
double fround_sub_up(double a, double b) { return op_run(FE_UPWARD, op_sub, a, b); }
double fround_sub_down(double a, double b) { return op_run(FE_DOWNWARD, op_sub, a, b); }
double fround_mul_up(double a, double b) { return op_run(FE_UPWARD, op_mul, a, b); }
double fround_mul_down(double a, double b) { return op_run(FE_DOWNWARD, op_mul, a, b); }
double fround_div_up(double a, double b) { return op_run(FE_UPWARD, op_div, a, b); }
double fround_div_down(double a, double b) { return op_run(FE_DOWNWARD, op_div, a, b); }

typedef struct {
    const double *x, *Y;
    size_t d, cnt;
    double scale;
    double *out;
} sqdist_ctx;

/* Body, in FE_DOWNWARD. */
static FROUND_BODY void sqdist_body(void *arg)
{
    sqdist_ctx *c = arg;
    size_t d = c->d;
    for (size_t j = 0; j < c->cnt; j++) {
        const double *y = c->Y + j * d;
        double s = 0.0;
        for (size_t k = 0; k < d; k++) {
            double hi = c->x[k] >= y[k] ? c->x[k] : y[k];
            double lo = c->x[k] >= y[k] ? y[k] : c->x[k];
            double t = hi - lo;           /* 0 <= t <= |x_k - y_k| (NaN stays NaN) */
            s = s + t * t;
        }
        c->out[j] = 0.5 * (c->scale * s);
    }
}

void fround_half_sqdist_down(const double *x, const double *Y, size_t d, size_t cnt, double scale,
                             double *out)
{
    if (!(scale >= 0)) {
        for (size_t j = 0; j < cnt; j++)
            out[j] = NAN;
        return;
    }
    sqdist_ctx c = {.x = x, .Y = Y, .d = d, .cnt = cnt, .scale = scale, .out = out};
    fround_run(FE_DOWNWARD, sqdist_body, &c);
}
