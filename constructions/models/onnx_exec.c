/* SPDX-License-Identifier: GPL-3.0-or-later */
/* onnx_exec.c -- the graph walk of onnx_exec (see onnx_exec.h); the
 * operators are in onnx_ops.c.  The input and the constants are checked
 * (onnx_tensor_check) before any node runs; each operator keeps its output
 * such a tensor, so every node reads checked tensors only. */
#include "constructions/models/onnx_exec.h"
#include "constructions/models/onnx_exec_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Value ids: 0..nconst-1 constants, nconst the graph input, then the
 * outputs of node i at base[i] .. base[i] + nout - 1. */
typedef struct {
    const onnx_graph_t *G;
    size_t nval;
    size_t *base;        /* per node */
    const char **name;   /* per value id */
} valmap_t;

static ar_status valmap_init(const onnx_graph_t *G, valmap_t *V)
{
    memset(V, 0, sizeof *V);
    V->G = G;
    V->base = ar_calloc(G->nnode + 1, sizeof *V->base, "ONNX value map");
    if (!V->base)
        return AR_ENOMEM;
    size_t id = G->nconst + 1;
    for (size_t i = 0; i < G->nnode; i++) {
        V->base[i] = id;
        id += G->node[i].nout;
    }
    V->nval = id;
    V->name = ar_calloc(id, sizeof *V->name, "ONNX value map");
    if (!V->name)
        return AR_ENOMEM;
    for (size_t c = 0; c < G->nconst; c++)
        V->name[c] = G->consts[c].name;
    V->name[G->nconst] = G->input[0];
    for (size_t i = 0; i < G->nnode; i++)
        for (size_t k = 0; k < G->node[i].nout; k++)
            V->name[V->base[i] + k] = G->node[i].out[k];
    return AR_OK;
}

/* The id of the value `s` defined before node `before` (the reader checked
 * that one exists), or (size_t)-1. */
static size_t valmap_find(const valmap_t *V, const char *s, size_t before)
{
    size_t lim = before < V->G->nnode ? V->base[before] : V->nval;
    for (size_t id = 0; id < lim; id++)
        if (strcmp(V->name[id], s) == 0)
            return id;
    return (size_t)-1;
}

static size_t producer(const valmap_t *V, size_t id)
{
    size_t lo = 0, hi = V->G->nnode;   /* the node i with base[i] <= id < base[i+1] */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (V->base[mid] <= id)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static ar_status tensor_copy(const onnx_tensor_t *S, const char *name, onnx_tensor_t *D)
{
    memset(D, 0, sizeof *D);
    ar_status st = onnx_tensor_alloc(D, S->rank, S->dims);
    if (st)
        return st;
    D->dtype = S->dtype;
    if (S->size)
        memcpy(D->data, S->data, S->size * sizeof(double));
    size_t n = strlen(name);
    D->name = ar_calloc(n + 1, 1, "ONNX value");
    if (!D->name) {
        onnx_tensor_clear(D);
        return AR_ENOMEM;
    }
    memcpy(D->name, name, n);
    return AR_OK;
}

/* The source named in messages (graphs built in memory may have none). */
static const char *src(const onnx_graph_t *G)
{
    return G->source ? G->source : "ONNX graph";
}

/* The graph input and every constant are tensors the operators may read. */
static ar_status check_values(const onnx_graph_t *G, const onnx_tensor_t *input, size_t max_elems)
{
    if (onnx_tensor_check(input, max_elems)) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", ar_error_get());
        ar_error_set("%s: the graph input: %s", src(G), msg);
        return AR_EINVAL;
    }
    for (size_t c = 0; c < G->nconst; c++)
        if (onnx_tensor_check(&G->consts[c], max_elems)) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", ar_error_get());
            ar_error_set("%s: constant '%s': %s", src(G), G->consts[c].name, msg);
            return AR_EINVAL;
        }
    return AR_OK;
}

ar_status onnx_exec(const onnx_graph_t *G, const onnx_tensor_t *input, const char *const *targets, size_t nt,
                    onnx_tensor_t *out)
{
    onnx_exec_limits_t lim = { ONNX_EXEC_MAX_ELEMS, ONNX_EXEC_MAX_WORK };
    return onnx_exec_limited(G, input, targets, nt, &lim, out);
}

ar_status onnx_exec_limited(const onnx_graph_t *G, const onnx_tensor_t *input, const char *const *targets,
                            size_t nt, const onnx_exec_limits_t *lim, onnx_tensor_t *out)
{
    for (size_t t = 0; t < nt; t++)
        memset(&out[t], 0, sizeof out[t]);
    if (lim->max_elems < 1 || lim->max_elems > ONNX_EXEC_MAX_ELEMS) {
        ar_error_set("%s: an element limit of %zu (1..2^34 expected)", src(G), lim->max_elems);
        return AR_EINVAL;
    }
    if (G->ninput != 1) {
        ar_error_set("%s: the graph has %zu inputs (one expected)", src(G), G->ninput);
        return AR_EINVAL;
    }
    if (check_values(G, input, lim->max_elems))
        return AR_EINVAL;
    onnx_run_t R = { lim->max_elems, lim->max_work, 0 };
    valmap_t V;
    ar_status st = valmap_init(G, &V);
    size_t nn = G->nnode;
    size_t **inid = NULL;                     /* per node, its inputs' ids ((size_t)-1: omitted) */
    unsigned char *need = NULL;
    size_t *last = NULL, *tid = NULL;
    onnx_tensor_t *val = NULL;                /* node outputs (constants and input are borrowed) */
    if (!st) {
        inid = ar_calloc(nn + 1, sizeof *inid, "ONNX run");
        need = ar_calloc(nn + 1, 1, "ONNX run");
        last = ar_calloc(V.nval, sizeof *last, "ONNX run");
        tid = ar_calloc(nt + 1, sizeof *tid, "ONNX run");
        val = ar_calloc(V.nval, sizeof *val, "ONNX run");
        if (!inid || !need || !last || !tid || !val)
            st = AR_ENOMEM;
    }
    for (size_t t = 0; !st && t < nt; t++) {
        tid[t] = valmap_find(&V, targets[t], nn);
        if (tid[t] == (size_t)-1) {
            ar_error_set("%s: no value named '%s' in the graph", src(G), targets[t]);
            st = AR_EINVAL;
        }
    }
    for (size_t i = 0; !st && i < nn; i++) {
        const onnx_node_t *N = &G->node[i];
        inid[i] = ar_calloc(N->nin + 1, sizeof **inid, "ONNX run");
        if (!inid[i]) {
            st = AR_ENOMEM;
            break;
        }
        for (size_t k = 0; k < N->nin; k++)
            inid[i][k] = *N->in[k] ? valmap_find(&V, N->in[k], i) : (size_t)-1;
    }
    /* mark the nodes the targets depend on (backwards: inputs precede) */
    for (size_t t = 0; !st && t < nt; t++)
        if (tid[t] > G->nconst)
            need[producer(&V, tid[t])] = 1;
    for (size_t i = nn; !st && i-- > 0;)
        if (need[i])
            for (size_t k = 0; k < G->node[i].nin; k++) {
                size_t id = inid[i][k];
                if (id != (size_t)-1 && id > G->nconst)
                    need[producer(&V, id)] = 1;
            }
    for (size_t i = 0; !st && i < nn; i++)
        if (need[i])
            for (size_t k = 0; k < G->node[i].nin; k++)
                if (inid[i][k] != (size_t)-1)
                    last[inid[i][k]] = i + 1;
    for (size_t t = 0; !st && t < nt; t++)
        last[tid[t]] = (size_t)-1;            /* keep the targets */
    for (size_t i = 0; !st && i < nn; i++) {
        if (!need[i])
            continue;
        const onnx_node_t *N = &G->node[i];
        const onnx_tensor_t *inp[16] = { 0 };
        if (N->nin > 16) {
            ar_error_set("%s: node '%s' has %zu inputs", src(G), N->name, N->nin);
            st = AR_EINVAL;
            break;
        }
        for (size_t k = 0; k < N->nin; k++) {
            size_t id = inid[i][k];
            inp[k] = id == (size_t)-1 ? NULL : id < G->nconst ? &G->consts[id] : id == G->nconst ? input : &val[id];
        }
        st = onnx_op_apply(&R, N, inp, &val[V.base[i]]);
        if (st) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", ar_error_get());
            ar_error_set("%s: node '%s' (%s): %s", src(G), N->name, N->op, msg);
            break;
        }
        for (size_t k = 0; k < N->nin; k++) {   /* free what no later node reads */
            size_t id = inid[i][k];
            if (id != (size_t)-1 && id > G->nconst && last[id] == i + 1)
                onnx_tensor_clear(&val[id]);
        }
    }
    for (size_t t = 0; !st && t < nt; t++) {
        size_t id = tid[t];
        st = tensor_copy(id < G->nconst ? &G->consts[id] : id == G->nconst ? input : &val[id], targets[t], &out[t]);
    }
    if (st)
        for (size_t t = 0; t < nt; t++)
            onnx_tensor_clear(&out[t]);
    if (val)
        for (size_t id = G->nconst + 1; id < V.nval; id++)
            onnx_tensor_clear(&val[id]);
    if (inid)
        for (size_t i = 0; i < nn; i++)
            free(inid[i]);
    free(inid); free(need); free(last); free(tid); free(val);
    free(V.base); free(V.name);
    return st;
}
