/* SPDX-License-Identifier: GPL-3.0-or-later */
/* onnx.c -- ONNX ModelProto through protobuf-c into plain structs (see onnx.h). */
#include "constructions/formats/onnx.h"
#include "constructions/formats/onnx.pb-c.h"
#include "base/infile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a set of value names (open addressing, FNV-1a) ---- */
typedef struct {
    size_t cap, n;
    const char **slot;
} nameset_t;

static uint64_t fnv(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static ar_status nameset_init(nameset_t *S, size_t expect)
{
    S->cap = 16;
    while (S->cap < 2 * expect + 16)
        S->cap *= 2;
    S->n = 0;
    S->slot = ar_calloc(S->cap, sizeof *S->slot, "ONNX value names");
    return S->slot ? AR_OK : AR_ENOMEM;
}

static int nameset_has(const nameset_t *S, const char *s)
{
    for (size_t i = fnv(s) & (S->cap - 1);; i = (i + 1) & (S->cap - 1)) {
        if (!S->slot[i])
            return 0;
        if (strcmp(S->slot[i], s) == 0)
            return 1;
    }
}

/* Insert s (not copied); 0 if it was present already. */
static int nameset_add(nameset_t *S, const char *s)
{
    size_t i = fnv(s) & (S->cap - 1);
    for (; S->slot[i]; i = (i + 1) & (S->cap - 1))
        if (strcmp(S->slot[i], s) == 0)
            return 0;
    S->slot[i] = s;
    S->n++;
    return 1;
}

/* ---- conversion ---- */
static char *dupstr(const char *s)
{
    size_t n = strlen(s ? s : "");
    char *d = ar_calloc(n + 1, 1, "ONNX names");
    if (d)
        memcpy(d, s ? s : "", n);
    return d;
}

static int name_ok(const char *s)
{
    return s && *s;
}

void onnx_tensor_clear(onnx_tensor_t *T)
{
    if (!T)
        return;
    free(T->name);
    free(T->data);
    memset(T, 0, sizeof *T);
}

static ar_status tensor_convert(const Onnx__TensorProto *P, const char *what, const char *name, onnx_tensor_t *T)
{
    memset(T, 0, sizeof *T);
    if (P->n_external_data || (P->has_data_location && P->data_location != ONNX__TENSOR_PROTO__DATA_LOCATION__DEFAULT)) {
        ar_error_set("%s: tensor '%s' uses external data (not supported)", what, name);
        return AR_EINVAL;
    }
    if (P->segment) {
        ar_error_set("%s: tensor '%s' is segmented (not supported)", what, name);
        return AR_EINVAL;
    }
    int dt = P->has_data_type ? P->data_type : 0;
    size_t esz = dt == ONNX_F32 || dt == ONNX_I32 ? 4 : dt == ONNX_I64 || dt == ONNX_F64 ? 8 : 0;
    if (!esz) {
        ar_error_set("%s: tensor '%s' has data type %d (float, double, int32 or int64 expected)", what, name, dt);
        return AR_EINVAL;
    }
    if (P->n_dims > ONNX_MAX_RANK) {
        ar_error_set("%s: tensor '%s' has %zu dimensions (at most %d)", what, name, P->n_dims, ONNX_MAX_RANK);
        return AR_EINVAL;
    }
    size_t size = 1;
    for (size_t i = 0; i < P->n_dims; i++) {
        int64_t d = P->dims[i];
        if (d < 0 || (d > 0 && size > ((size_t)1 << 40) / (size_t)d)) {
            ar_error_set("%s: tensor '%s' has a negative or too large dimension %lld", what, name, (long long)d);
            return AR_EINVAL;
        }
        size *= (size_t)d;
        T->dims[i] = d;
    }
    T->rank = P->n_dims;
    T->dtype = dt;
    T->size = size;
    size_t have;
    if (P->has_raw_data)
        have = P->raw_data.len % esz ? (size_t)-1 : P->raw_data.len / esz;
    else
        have = dt == ONNX_F32 ? P->n_float_data : dt == ONNX_F64 ? P->n_double_data
             : dt == ONNX_I32 ? P->n_int32_data : P->n_int64_data;
    size_t typed = P->n_float_data + P->n_double_data + P->n_int32_data + P->n_int64_data + P->n_uint64_data +
                   P->n_string_data;
    if (have != size || (P->has_raw_data && typed)) {
        ar_error_set("%s: tensor '%s' holds %s values for %zu entries of its dims", what, name,
                     have == (size_t)-1 ? "a partial number of" : "a different number of", size);
        return AR_EINVAL;
    }
    T->name = dupstr(name);
    T->data = ar_calloc(size ? size : 1, sizeof(double), "ONNX tensor");
    if (!T->name || !T->data) {
        onnx_tensor_clear(T);
        return AR_ENOMEM;
    }
    const uint8_t *raw = P->has_raw_data ? P->raw_data.data : NULL;
    for (size_t k = 0; k < size; k++) {
        double v;
        if (dt == ONNX_F32) {
            float f;
            if (raw) memcpy(&f, raw + 4 * k, 4); else f = P->float_data[k];
            v = f;
        } else if (dt == ONNX_F64) {
            if (raw) memcpy(&v, raw + 8 * k, 8); else v = P->double_data[k];
        } else if (dt == ONNX_I32) {
            int32_t x;
            if (raw) memcpy(&x, raw + 4 * k, 4); else x = P->int32_data[k];
            v = x;
        } else {
            int64_t x;
            if (raw) memcpy(&x, raw + 8 * k, 8); else x = P->int64_data[k];
            if (x > ((int64_t)1 << 53) || x < -((int64_t)1 << 53)) {
                onnx_tensor_clear(T);
                ar_error_set("%s: tensor '%s' holds the int64 %lld, beyond 2^53", what, name, (long long)x);
                return AR_EINVAL;
            }
            v = (double)x;
        }
        if (!isfinite(v)) {
            onnx_tensor_clear(T);
            ar_error_set("%s: tensor '%s' holds a non-finite value at entry %zu", what, name, k);
            return AR_EINVAL;
        }
        T->data[k] = v;
    }
    return AR_OK;
}

static void attr_clear(onnx_attr_t *A)
{
    free(A->name);
    free(A->floats);
    free(A->ints);
}

static ar_status attr_convert(const Onnx__AttributeProto *P, const char *what, const char *node, onnx_attr_t *A)
{
    memset(A, 0, sizeof *A);
    if (!name_ok(P->name)) {
        ar_error_set("%s: node '%s' has an attribute without a name", what, node);
        return AR_EINVAL;
    }
    int t = P->has_type ? (int)P->type : 0;
    if (t != ONNX_ATTR_FLOAT && t != ONNX_ATTR_INT && t != ONNX_ATTR_FLOATS && t != ONNX_ATTR_INTS &&
        t != ONNX_ATTR_TENSOR) {
        ar_error_set("%s: node '%s' attribute '%s' has type %d (float, int, floats, ints or tensor expected)", what,
                     node, P->name, t);
        return AR_EINVAL;
    }
    A->name = dupstr(P->name);
    if (!A->name)
        return AR_ENOMEM;
    A->type = t;
    if (t == ONNX_ATTR_FLOAT) {
        A->f = P->f;
        if (!isfinite(A->f)) {
            ar_error_set("%s: node '%s' attribute '%s' is not finite", what, node, P->name);
            return AR_EINVAL;
        }
    } else if (t == ONNX_ATTR_INT) {
        A->i = P->i;
    } else if (t == ONNX_ATTR_FLOATS || t == ONNX_ATTR_INTS) {
        A->n = t == ONNX_ATTR_FLOATS ? P->n_floats : P->n_ints;
        if (t == ONNX_ATTR_FLOATS) {
            A->floats = ar_calloc(A->n ? A->n : 1, sizeof(double), "ONNX attribute");
            if (!A->floats)
                return AR_ENOMEM;
            for (size_t k = 0; k < A->n; k++) {
                A->floats[k] = P->floats[k];
                if (!isfinite(A->floats[k])) {
                    ar_error_set("%s: node '%s' attribute '%s' is not finite", what, node, P->name);
                    return AR_EINVAL;
                }
            }
        } else {
            A->ints = ar_calloc(A->n ? A->n : 1, sizeof(int64_t), "ONNX attribute");
            if (!A->ints)
                return AR_ENOMEM;
            if (A->n)
                memcpy(A->ints, P->ints, A->n * sizeof(int64_t));
        }
    } else if (!P->t) {
        ar_error_set("%s: node '%s' attribute '%s' holds no tensor", what, node, P->name);
        return AR_EINVAL;
    }
    return AR_OK;
}

static void node_clear(onnx_node_t *N)
{
    free(N->op);
    free(N->name);
    for (size_t i = 0; i < N->nin; i++)
        free(N->in[i]);
    for (size_t i = 0; i < N->nout; i++)
        free(N->out[i]);
    for (size_t i = 0; i < N->nattr; i++)
        attr_clear(&N->attr[i]);
    free(N->in);
    free(N->out);
    free(N->attr);
    memset(N, 0, sizeof *N);
}

void onnx_graph_clear(onnx_graph_t *G)
{
    if (!G)
        return;
    free(G->source);
    for (size_t i = 0; i < G->ninput; i++)
        free(G->input[i]);
    for (size_t i = 0; i < G->noutput; i++)
        free(G->output[i]);
    free(G->input);
    free(G->output);
    for (size_t i = 0; i < G->nconst; i++)
        onnx_tensor_clear(&G->consts[i]);
    free(G->consts);
    for (size_t i = 0; i < G->nnode; i++)
        node_clear(&G->node[i]);
    free(G->node);
    memset(G, 0, sizeof *G);
}

static ar_status strv_copy(char **src, size_t n, char ***dst)
{
    *dst = ar_calloc(n ? n : 1, sizeof(char *), "ONNX names");
    if (!*dst)
        return AR_ENOMEM;
    for (size_t i = 0; i < n; i++)
        if (!((*dst)[i] = dupstr(src[i])))
            return AR_ENOMEM;
    return AR_OK;
}

/* The Constant node P (its single output, its value attribute) into T. */
static ar_status constant_convert(const Onnx__NodeProto *P, const char *what, onnx_tensor_t *T)
{
    const char *out = P->n_output == 1 ? P->output[0] : NULL;
    if (!name_ok(out) || P->n_input != 0 || P->n_attribute != 1 || !P->attribute[0]->name ||
        strcmp(P->attribute[0]->name, "value") != 0 || !P->attribute[0]->t) {
        ar_error_set("%s: Constant node '%s' is not one output with one tensor attribute 'value'", what,
                     out ? out : "?");
        return AR_EINVAL;
    }
    return tensor_convert(P->attribute[0]->t, what, out, T);
}

/* The opset version of the default domain of Mp into G->opset; Mp must hold a graph, an opset
 * version for the default domain and no sparse initializers (checked in that order). */
static ar_status graph_check_model(const Onnx__ModelProto *Mp, const char *what, onnx_graph_t *G)
{
    const Onnx__GraphProto *g = Mp->graph;
    if (!g) {
        ar_error_set("%s: not an ONNX model (no graph)", what);
        return AR_EINVAL;
    }
    G->opset = -1;
    for (size_t i = 0; i < Mp->n_opset_import; i++) {
        const Onnx__OperatorSetIdProto *o = Mp->opset_import[i];
        if ((!o->domain || !*o->domain) && o->has_version)
            G->opset = o->version;
    }
    if (G->opset < 1) {
        ar_error_set("%s: no opset version for the default domain", what);
        return AR_EINVAL;
    }
    if (g->n_sparse_initializer) {
        ar_error_set("%s: sparse initializers are not supported", what);
        return AR_EINVAL;
    }
    return AR_OK;
}

/* G's constants (initializers and Constant nodes) and nodes allocated for g, and S initialised for
 * every name g defines; AR_ENOMEM when any allocation fails. */
static ar_status graph_alloc(const Onnx__GraphProto *g, onnx_graph_t *G, nameset_t *S)
{
    size_t nconst = g->n_initializer, nnode = 0, nnames = g->n_initializer + g->n_input;
    for (size_t i = 0; i < g->n_node; i++) {
        nnames += g->node[i]->n_output;
        if (g->node[i]->op_type && strcmp(g->node[i]->op_type, "Constant") == 0)
            nconst++;
        else
            nnode++;
    }
    G->consts = ar_calloc(nconst ? nconst : 1, sizeof *G->consts, "ONNX constants");
    G->node = ar_calloc(nnode ? nnode : 1, sizeof *G->node, "ONNX nodes");
    if (!G->consts || !G->node || nameset_init(S, nnames))
        return AR_ENOMEM;
    return AR_OK;
}

/* The initializers of g appended to G->consts, each name once into S. */
static ar_status graph_initializers(const Onnx__GraphProto *g, const char *what, onnx_graph_t *G, nameset_t *S)
{
    ar_status st = AR_OK;
    for (size_t i = 0; !st && i < g->n_initializer; i++) {
        const char *nm = g->initializer[i]->name;
        if (!name_ok(nm)) {
            ar_error_set("%s: initializer %zu has no name", what, i);
            st = AR_EINVAL;
        } else if (!(st = tensor_convert(g->initializer[i], what, nm, &G->consts[G->nconst]))) {
            if (!nameset_add(S, G->consts[G->nconst].name)) {
                ar_error_set("%s: value '%s' is defined twice", what, nm);
                st = AR_EINVAL;
            }
            G->nconst++;
        }
    }
    return st;
}

/* The graph inputs of g that are not initializers appended to G->input (allocated) and to S. */
static ar_status graph_inputs(const Onnx__GraphProto *g, const char *what, onnx_graph_t *G, nameset_t *S)
{
    ar_status st = AR_OK;
    for (size_t i = 0; !st && i < g->n_input; i++) {
        const char *nm = g->input[i]->name;
        if (!name_ok(nm)) {
            ar_error_set("%s: graph input %zu has no name", what, i);
            st = AR_EINVAL;
        } else if (!nameset_has(S, nm)) {
            if (!(G->input[G->ninput] = dupstr(nm)))
                st = AR_ENOMEM;
            else
                nameset_add(S, G->input[G->ninput++]);
        }
    }
    return st;
}

/* Node i of the graph (P, named nm in messages) has an op_type, the default operator domain, no
 * subgraph, and reads only values defined before it (in S); checked in that order. */
static ar_status node_check(const Onnx__NodeProto *P, size_t i, const char *nm, const char *what,
                            const nameset_t *S)
{
    ar_status st = AR_OK;
    if (!name_ok(P->op_type)) {
        ar_error_set("%s: node %zu ('%s') has no op_type", what, i, nm);
        return AR_EINVAL;
    }
    if (P->domain && *P->domain && strcmp(P->domain, "ai.onnx") != 0) {
        ar_error_set("%s: node '%s' is in the operator domain '%s' (only the default domain)", what, nm,
                     P->domain);
        return AR_EINVAL;
    }
    for (size_t a = 0; a < P->n_attribute; a++)
        if (P->attribute[a]->g || P->attribute[a]->n_graphs) {
            ar_error_set("%s: node '%s' holds a subgraph (not supported)", what, nm);
            st = AR_EINVAL;
        }
    if (st)
        return st;
    for (size_t k = 0; k < P->n_input; k++)
        if (P->input[k] && *P->input[k] && !nameset_has(S, P->input[k])) {
            ar_error_set("%s: node '%s' (%s) reads '%s', which no earlier node, constant or input defines", what,
                         nm, P->op_type, P->input[k]);
            return AR_EINVAL;
        }
    return AR_OK;
}

/* The non-Constant node P (named nm) appended to G->node with its inputs, outputs and attributes
 * (distinct names, none a tensor); its outputs must be named and new, and go into S. */
static ar_status node_convert(const Onnx__NodeProto *P, const char *nm, const char *what, onnx_graph_t *G,
                              nameset_t *S)
{
    ar_status st = AR_OK;
    onnx_node_t *N = &G->node[G->nnode++];
    if (P->n_output < 1) {
        ar_error_set("%s: node '%s' (%s) has no outputs", what, nm, P->op_type);
        return AR_EINVAL;
    }
    N->op = dupstr(P->op_type);
    N->name = dupstr(nm);
    N->nin = P->n_input;
    N->nout = P->n_output;
    N->attr = ar_calloc(P->n_attribute ? P->n_attribute : 1, sizeof *N->attr, "ONNX attributes");
    if (!N->op || !N->name || !N->attr || strv_copy(P->input, P->n_input, &N->in) ||
        strv_copy(P->output, P->n_output, &N->out))
        return AR_ENOMEM;
    for (size_t a = 0; !st && a < P->n_attribute; a++) {
        st = attr_convert(P->attribute[a], what, nm, &N->attr[a]);
        N->nattr++;
        for (size_t b = 0; !st && b + 1 < N->nattr; b++)
            if (strcmp(N->attr[b].name, N->attr[a].name) == 0) {
                ar_error_set("%s: node '%s' has the attribute '%s' twice", what, nm, N->attr[a].name);
                st = AR_EINVAL;
            }
        if (!st && N->attr[a].type == ONNX_ATTR_TENSOR) {
            ar_error_set("%s: node '%s' (%s) has a tensor attribute (only Constant may)", what, nm, N->op);
            st = AR_EINVAL;
        }
    }
    for (size_t k = 0; !st && k < N->nout; k++) {
        if (!name_ok(N->out[k])) {
            ar_error_set("%s: node '%s' has an unnamed output", what, nm);
            st = AR_EINVAL;
        } else if (!nameset_add(S, N->out[k])) {
            ar_error_set("%s: value '%s' is defined twice", what, N->out[k]);
            st = AR_EINVAL;
        }
    }
    return st;
}

/* Node i of the graph, P, checked (node_check) and converted: a Constant node into G->consts, any
 * other into G->node; the values it defines go into S. */
static ar_status graph_node(const Onnx__NodeProto *P, size_t i, const char *what, onnx_graph_t *G, nameset_t *S)
{
    const char *nm = P->name && *P->name ? P->name : P->n_output && P->output[0] ? P->output[0] : "?";
    ar_status st = node_check(P, i, nm, what, S);
    if (st)
        return st;
    if (strcmp(P->op_type, "Constant") == 0) {
        onnx_tensor_t *T = &G->consts[G->nconst];
        if ((st = constant_convert(P, what, T)))
            return st;
        G->nconst++;
        if (!nameset_add(S, T->name)) {
            ar_error_set("%s: value '%s' is defined twice", what, T->name);
            st = AR_EINVAL;
        }
        return st;
    }
    return node_convert(P, nm, what, G, S);
}

/* The graph outputs of g into G->output (allocated); each must be a value defined in S. */
static ar_status graph_outputs(const Onnx__GraphProto *g, const char *what, onnx_graph_t *G, const nameset_t *S)
{
    ar_status st = AR_OK;
    G->output = ar_calloc(g->n_output ? g->n_output : 1, sizeof(char *), "ONNX outputs");
    if (!G->output)
        st = AR_ENOMEM;
    for (size_t i = 0; !st && i < g->n_output; i++) {
        const char *nm = g->output[i]->name;
        if (!name_ok(nm) || !nameset_has(S, nm)) {
            ar_error_set("%s: graph output '%s' is not defined", what, nm ? nm : "");
            st = AR_EINVAL;
        } else if (!(G->output[G->noutput++] = dupstr(nm))) {
            st = AR_ENOMEM;
        }
    }
    return st;
}

/* The model Mp (named what in messages) into G: its opset, constants, inputs, nodes in order and
 * outputs, every value defined once before it is read.  G is left partly filled on error (the
 * caller clears it). */
static ar_status graph_convert(const Onnx__ModelProto *Mp, const char *what, onnx_graph_t *G)
{
    ar_status st = graph_check_model(Mp, what, G);
    if (st)
        return st;
    const Onnx__GraphProto *g = Mp->graph;
    nameset_t S;
    if ((st = graph_alloc(g, G, &S)))
        return st;
    st = graph_initializers(g, what, G, &S);
    G->input = ar_calloc(g->n_input ? g->n_input : 1, sizeof(char *), "ONNX inputs");
    if (!G->input)
        st = AR_ENOMEM;
    if (!st)
        st = graph_inputs(g, what, G, &S);
    for (size_t i = 0; !st && i < g->n_node; i++)
        st = graph_node(g->node[i], i, what, G, &S);
    if (!st)
        st = graph_outputs(g, what, G, &S);
    free(S.slot);
    return st;
}

ar_status onnx_read_buffer(const uint8_t *buf, size_t n, const char *what, onnx_graph_t *G)
{
    memset(G, 0, sizeof *G);
    Onnx__ModelProto *Mp = onnx__model_proto__unpack(NULL, n, buf ? buf : (const uint8_t *)"");
    if (!Mp) {
        ar_error_set("%s: not an ONNX model (protobuf-c could not decode the ModelProto message)", what);
        return AR_EINVAL;
    }
    ar_status st = graph_convert(Mp, what, G);
    onnx__model_proto__free_unpacked(Mp, NULL);
    if (!st && !(G->source = dupstr(what)))
        st = AR_ENOMEM;
    if (st)
        onnx_graph_clear(G);
    return st;
}

ar_status onnx_read_file(const char *path, size_t max_bytes, onnx_graph_t *G)
{
    memset(G, 0, sizeof *G);
    char *buf;
    size_t n;
    ar_status st = infile_read_all(path, "ONNX model file", max_bytes, &buf, &n);
    if (st)
        return st;
    st = onnx_read_buffer((const uint8_t *)buf, n, path, G);
    free(buf);
    return st;
}

const onnx_tensor_t *onnx_const_find(const onnx_graph_t *G, const char *name)
{
    for (size_t i = 0; i < G->nconst; i++)
        if (strcmp(G->consts[i].name, name) == 0)
            return &G->consts[i];
    return NULL;
}

const onnx_attr_t *onnx_attr_find(const onnx_node_t *N, const char *name)
{
    for (size_t i = 0; i < N->nattr; i++)
        if (strcmp(N->attr[i].name, name) == 0)
            return &N->attr[i];
    return NULL;
}
