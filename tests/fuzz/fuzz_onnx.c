/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_onnx.c -- libFuzzer harness for the ONNX reader on protobuf-c
 * (constructions/formats/onnx.c).  Invariants: a refused input leaves a
 * zeroed graph and one message line naming the source; an accepted one has
 * an opset >= 1, every constant's size equal to the product of its dims
 * (rank <= ONNX_MAX_RANK) with finite values, every node an op type and at
 * least one output, and every node input either empty (omitted), a graph
 * input, a constant or an output of an earlier node; onnx_read_file on the
 * same bytes agrees. */
#include <math.h>
#include "constructions/formats/onnx.h"
#include "fuzz_util.h"

static int defined_before(const onnx_graph_t *G, const char *s, size_t node)
{
    for (size_t i = 0; i < G->ninput; i++)
        if (!strcmp(G->input[i], s))
            return 1;
    for (size_t c = 0; c < G->nconst; c++)
        if (!strcmp(G->consts[c].name, s))
            return 1;
    for (size_t i = 0; i < node; i++)
        for (size_t k = 0; k < G->node[i].nout; k++)
            if (!strcmp(G->node[i].out[k], s))
                return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    onnx_graph_t G;
    memset(&G, 0xab, sizeof G);
    ar_status st = onnx_read_buffer(data, size, "fuzz", &G);
    onnx_graph_t F;
    ar_status sf = onnx_read_file(fuzz_file(data, size), 1u << 20, &F);
    FUZZ_REQUIRE(sf == st);
    if (st != AR_OK) {
        onnx_graph_t Z;
        memset(&Z, 0, sizeof Z);
        FUZZ_REQUIRE(memcmp(&G, &Z, sizeof G) == 0 && memcmp(&F, &Z, sizeof F) == 0);
        FUZZ_REQUIRE_ONE_LINE();
        return 0;
    }
    FUZZ_REQUIRE(G.opset >= 1 && G.nconst == F.nconst && G.nnode == F.nnode);
    for (size_t c = 0; c < G.nconst; c++) {
        const onnx_tensor_t *T = &G.consts[c];
        FUZZ_REQUIRE(T->rank <= ONNX_MAX_RANK && T->name && T->name[0]);
        size_t n = 1;
        for (size_t i = 0; i < T->rank; i++)
            n *= (size_t)T->dims[i];
        FUZZ_REQUIRE(n == T->size);
        for (size_t k = 0; k < T->size; k++)
            FUZZ_REQUIRE(isfinite(T->data[k]) && T->data[k] == F.consts[c].data[k]);
    }
    for (size_t i = 0; i < G.nnode; i++) {
        const onnx_node_t *N = &G.node[i];
        FUZZ_REQUIRE(N->op[0] && N->nout >= 1);
        for (size_t k = 0; k < N->nin; k++)
            FUZZ_REQUIRE(!N->in[k][0] || defined_before(&G, N->in[k], i));
    }
    onnx_graph_clear(&G);
    onnx_graph_clear(&F);
    return 0;
}
