/* fround.c -- directed rounding the compiler cannot move (see fround.h).
 *
 * Every fesetround() of the library is in this file.  fround_run is noipa:
 * callers (in this file too) see an opaque call, so the arithmetic of a body
 * runs between the two mode switches. */
#include "numerics/fround.h"

#include <fenv.h>

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
