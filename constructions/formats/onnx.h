/* SPDX-License-Identifier: GPL-3.0-or-later */
/* onnx.h -- the strict reader of ONNX model files (the PP-OCRv4 recogniser
 * of constructions/models/ppocr_model), on protobuf-c with the bindings
 * generated from python3-onnx's onnx.proto (onnx.pb-c.[ch], committed; see
 * scripts/gen_onnx_pb.sh): a maintained protobuf library, not a hand-written
 * wire parser.  The protobuf message is converted into the plain structs
 * below and freed; nothing outside this file sees protobuf-c types.
 *
 * Accepted: a ModelProto with a graph whose weights are `Constant` nodes or
 * initializers, tensors of type float, double, int32 or int64 stored in
 * raw_data (little-endian) or in the typed repeated fields, at most
 * ONNX_MAX_RANK dimensions, attributes of type FLOAT, INT, FLOATS, INTS or
 * TENSOR (Constant's value).  Refused with AR_EINVAL and one line naming the
 * source: a message protobuf-c cannot decode, a missing graph, a tensor
 * whose data length disagrees with its dims or that holds NaN/Inf, a
 * negative or overflowing dim, a node without op_type or outputs, a value
 * name produced twice, a node input that is neither a graph input, a
 * constant nor the output of an earlier node (the file must be
 * topologically sorted, as ONNX requires), a non-default operator domain,
 * external data, sparse tensors and subgraphs. */
#ifndef ATTNRANK_CONSTRUCTIONS_ONNX_H
#define ATTNRANK_CONSTRUCTIONS_ONNX_H

#include <stddef.h>
#include <stdint.h>
#include "base/status.h"

#define ONNX_MAX_RANK 8

typedef enum { ONNX_F32 = 1, ONNX_I32 = 6, ONNX_I64 = 7, ONNX_F64 = 11 } onnx_dtype;

/* A dense tensor; values of every type are held as doubles (float32 and
 * int32 exactly; int64 exactly up to 2^53, larger magnitudes are refused). */
typedef struct {
    char *name;
    int dtype;                        /* onnx_dtype */
    size_t rank;
    int64_t dims[ONNX_MAX_RANK];
    size_t size;                      /* product of dims (1 for rank 0) */
    double *data;
} onnx_tensor_t;

typedef enum { ONNX_ATTR_FLOAT = 1, ONNX_ATTR_INT = 2, ONNX_ATTR_TENSOR = 4, ONNX_ATTR_FLOATS = 6,
               ONNX_ATTR_INTS = 7 } onnx_attr_type;

typedef struct {
    char *name;
    int type;                         /* onnx_attr_type */
    double f;                         /* FLOAT */
    int64_t i;                        /* INT */
    size_t n;                         /* FLOATS / INTS count */
    double *floats;
    int64_t *ints;
} onnx_attr_t;

typedef struct {
    char *op, *name;
    size_t nin, nout, nattr;
    char **in, **out;                 /* an empty input name is an omitted optional input */
    onnx_attr_t *attr;
} onnx_node_t;

typedef struct {
    char *source;                     /* the file name given to the reader */
    int64_t opset;                    /* the default domain's opset version */
    size_t ninput, noutput;
    char **input, **output;           /* graph inputs (not initializers) and outputs */
    size_t nconst;
    onnx_tensor_t *consts;            /* Constant nodes' values and initializers, by name */
    size_t nnode;
    onnx_node_t *node;                /* every node but the Constant nodes, in file order */
} onnx_graph_t;

/* Decode buf[0..n) into *G (clear with onnx_graph_clear); `what` names the
 * source in messages.  *G is zeroed on failure. */
ar_status onnx_read_buffer(const uint8_t *buf, size_t n, const char *what, onnx_graph_t *G);

/* Read the regular file `path` (opened with infile_open; at most max_bytes,
 * else AR_EINVAL "file too large") and decode it as onnx_read_buffer does.
 * AR_EIO when it cannot be opened or read. */
ar_status onnx_read_file(const char *path, size_t max_bytes, onnx_graph_t *G);

void onnx_graph_clear(onnx_graph_t *G);
void onnx_tensor_clear(onnx_tensor_t *T);

/* The constant named `name`, or NULL. */
const onnx_tensor_t *onnx_const_find(const onnx_graph_t *G, const char *name);

/* The attribute `name` of node N, or NULL. */
const onnx_attr_t *onnx_attr_find(const onnx_node_t *N, const char *name);

#endif
