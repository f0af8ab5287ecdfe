/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_onnx_exec.c -- libFuzzer harness for the ONNX interpreter
 * (constructions/models/onnx_exec.c, onnx_ops.c) behind the reader.
 *
 * Input: 6 header bytes, then an ONNX ModelProto.  Header byte 0 picks the
 * graph input's rank (b % 5) and type (bit 3: int64, else float), bytes 1..4
 * its dims (1 + b % 8 each), byte 5 the seed of its values (float: k/8 for k
 * in -16..16; int64: -3..3).  A graph the reader accepts is run with
 * onnx_exec_limited (at most FUZZ_MAX_ELEMS entries a value, FUZZ_MAX_WORK
 * operations a run) up to its graph outputs (or, without any, the outputs of
 * its last node).  Invariants: the run ends with AR_OK or AR_EINVAL; a
 * refused run leaves zeroed outputs and one message line; an accepted one
 * gives each target under its name with rank <= ONNX_MAX_RANK, size the
 * product of its dims within the limit, int32/int64 entries integers of
 * their range (int64 within 2^53, no -0), and finite entries when every node is
 * one that keeps finite values finite (Relu, Sigmoid, HardSigmoid, Clip,
 * Softmax, Shape, Slice, Concat, Reshape, Transpose, Squeeze, Cast to an
 * integer or to double); a second run gives the same status, message and
 * bits. */
#include <math.h>
#include "constructions/formats/onnx.h"
#include "constructions/models/onnx_exec.h"
#include "fuzz_util.h"

#define FUZZ_HEADER 6
#define FUZZ_MAX_ELEMS 4096
#define FUZZ_MAX_WORK ((uint64_t)1 << 20)
#define FUZZ_MAX_TARGETS 16

static void make_input(const uint8_t *h, onnx_tensor_t *X)
{
    memset(X, 0, sizeof *X);
    X->rank = h[0] % 5;
    X->dtype = h[0] & 8 ? ONNX_I64 : ONNX_F32;
    X->size = 1;
    for (size_t i = 0; i < X->rank; i++) {
        X->dims[i] = 1 + h[1 + i] % 8;
        X->size *= (size_t)X->dims[i];
    }
    X->data = calloc(X->size, sizeof(double));
    FUZZ_REQUIRE(X->data != NULL);
    uint32_t s = 0x9e3779b9u ^ h[5];
    for (size_t k = 0; k < X->size; k++) {
        s = s * 1664525u + 1013904223u;
        uint32_t r = s >> 16;
        X->data[k] = X->dtype == ONNX_I64 ? (double)((int)(r % 7) - 3) : (double)((int)(r % 33) - 16) / 8.0;
    }
}

static int finite_safe(const onnx_node_t *N)
{
    static const char *const ok[] = { "Relu", "Sigmoid", "HardSigmoid", "Clip", "Softmax", "Shape", "Slice",
                                      "Concat", "Reshape", "Transpose", "Squeeze" };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (!strcmp(N->op, ok[i]))
            return 1;
    if (!strcmp(N->op, "Cast")) {
        const onnx_attr_t *a = onnx_attr_find(N, "to");
        return a && a->type == ONNX_ATTR_INT && a->i != ONNX_F32;
    }
    return 0;
}

static void check_output(const onnx_tensor_t *T, const char *name, int finite)
{
    FUZZ_REQUIRE(T->name && !strcmp(T->name, name) && T->data);
    FUZZ_REQUIRE(T->rank <= ONNX_MAX_RANK);
    size_t n = 1;
    for (size_t i = 0; i < T->rank; i++) {
        FUZZ_REQUIRE(T->dims[i] >= 0 && T->dims[i] <= FUZZ_MAX_ELEMS);
        n *= (size_t)T->dims[i];
    }
    FUZZ_REQUIRE(n == T->size && n <= FUZZ_MAX_ELEMS);
    FUZZ_REQUIRE(T->dtype == ONNX_F32 || T->dtype == ONNX_F64 || T->dtype == ONNX_I32 || T->dtype == ONNX_I64);
    for (size_t k = 0; k < n; k++) {
        double v = T->data[k];
        if (T->dtype == ONNX_I32)
            FUZZ_REQUIRE(v == trunc(v) && v >= -2147483648.0 && v <= 2147483647.0 && !(v == 0 && signbit(v)));
        else if (T->dtype == ONNX_I64)
            FUZZ_REQUIRE(v == trunc(v) && fabs(v) <= 9007199254740992.0 && !(v == 0 && signbit(v)));
        if (finite)
            FUZZ_REQUIRE(isfinite(v));
    }
}

static ar_status run(const onnx_graph_t *G, const onnx_tensor_t *X, const char *const *targets, size_t nt,
                     onnx_tensor_t *out)
{
    memset(out, 0xab, nt * sizeof *out);
    onnx_exec_limits_t lim = { FUZZ_MAX_ELEMS, FUZZ_MAX_WORK };
    ar_status st = onnx_exec_limited(G, X, targets, nt, &lim, out);
    FUZZ_REQUIRE(st == AR_OK || st == AR_EINVAL);
    if (st) {
        FUZZ_REQUIRE_ONE_LINE();
        onnx_tensor_t Z;
        memset(&Z, 0, sizeof Z);
        for (size_t t = 0; t < nt; t++)
            FUZZ_REQUIRE(memcmp(&out[t], &Z, sizeof Z) == 0);
    }
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < FUZZ_HEADER)
        return 0;
    onnx_graph_t G;
    if (onnx_read_buffer(data + FUZZ_HEADER, size - FUZZ_HEADER, "fuzz", &G) != AR_OK) {
        FUZZ_REQUIRE_ONE_LINE();
        return 0;
    }
    const char *targets[FUZZ_MAX_TARGETS];
    size_t nt = 0;
    for (size_t i = 0; i < G.noutput && nt < FUZZ_MAX_TARGETS; i++)
        targets[nt++] = G.output[i];
    if (!nt && G.nnode)
        for (size_t k = 0; k < G.node[G.nnode - 1].nout && nt < FUZZ_MAX_TARGETS; k++)
            targets[nt++] = G.node[G.nnode - 1].out[k];
    int finite = 1;
    for (size_t i = 0; i < G.nnode; i++)
        finite &= finite_safe(&G.node[i]);
    onnx_tensor_t X, out[FUZZ_MAX_TARGETS], again[FUZZ_MAX_TARGETS];
    make_input(data, &X);
    ar_status st = run(&G, &X, targets, nt, out);
    char msg[512];
    snprintf(msg, sizeof msg, "%s", ar_error_get());
    if (st == AR_OK)
        for (size_t t = 0; t < nt; t++)
            check_output(&out[t], targets[t], finite);
    /* the same run again: the same status, message and bits (no read of uninitialised or freed memory) */
    ar_status st2 = run(&G, &X, targets, nt, again);
    FUZZ_REQUIRE(st2 == st);
    if (st)
        FUZZ_REQUIRE(!strcmp(msg, ar_error_get()));
    for (size_t t = 0; st == AR_OK && t < nt; t++) {
        FUZZ_REQUIRE(again[t].rank == out[t].rank && again[t].size == out[t].size &&
                     again[t].dtype == out[t].dtype);
        FUZZ_REQUIRE(memcmp(again[t].dims, out[t].dims, sizeof out[t].dims) == 0);
        FUZZ_REQUIRE(memcmp(again[t].data, out[t].data, out[t].size * sizeof(double)) == 0);
    }
    for (size_t t = 0; st == AR_OK && t < nt; t++) {
        onnx_tensor_clear(&out[t]);
        onnx_tensor_clear(&again[t]);
    }
    onnx_tensor_clear(&X);
    onnx_graph_clear(&G);
    return 0;
}
