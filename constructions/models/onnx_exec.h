/* SPDX-License-Identifier: GPL-3.0-or-later */
/* onnx_exec.h -- run an ONNX graph (constructions/formats/onnx.h) in double
 * arithmetic on its exact stored weights, up to named values.  Only the
 * nodes those values depend on are run, in file order; intermediate values
 * are freed after their last use.  Computes no rank.
 *
 * Operators (opset 9 semantics, the set of the PP-OCRv4 recogniser): Add,
 * Sub, Mul, Div, Pow (multidirectional broadcasting; on two int32 or two
 * int64 tensors exact integer arithmetic, Div truncating), Sqrt, Relu,
 * Sigmoid, HardSigmoid, Clip (min/max attributes), Conv (2-D, groups,
 * strides, pads, dilations), BatchNormalization (inference), AveragePool
 * (2-D, count_include_pad 0 or 1), GlobalAveragePool, MatMul (batched, numpy
 * broadcasting), Softmax (flattened at `axis`), ReduceMean, Shape, Cast,
 * Slice (attributes), Concat, Reshape (0 copies, -1 infers), Transpose,
 * Squeeze.  Any other operator on the path to a target is AR_EINVAL naming
 * it; shape errors are AR_EINVAL naming the node.
 *
 * Defined on every graph and input: every size, pad, stride, dilation and
 * axis computation is overflow-checked, every double -> integer conversion
 * is checked (finite, integral, in range) before it is made, and integer
 * tensors (int32, int64) hold only integers of their type's range (int64:
 * |v| <= 2^53, the exact doubles).  A Cast to an integer type of a value
 * that is not finite or out of that range, an integer division by zero or
 * an integer result out of range is AR_EINVAL naming the node, as is a
 * value beyond the run's limits below.  Every message is one line. */
#ifndef ATTNRANK_CONSTRUCTIONS_ONNX_EXEC_H
#define ATTNRANK_CONSTRUCTIONS_ONNX_EXEC_H

#include <stddef.h>
#include <stdint.h>
#include "base/status.h"
#include "constructions/formats/onnx.h"

/* The limits of onnx_exec: 2^34 entries in one value (as before; ar_calloc
 * refuses most such values first), 2^44 operations (multiply-adds, window
 * terms, one per entry computed) in one run, some 10^4 times a PP-OCRv4
 * forward pass: a crafted graph is refused instead of running for years. */
#define ONNX_EXEC_MAX_ELEMS ((size_t)1 << 34)
#define ONNX_EXEC_MAX_WORK ((uint64_t)1 << 44)

/* Bounds of one run: every value read or computed (the input, the
 * constants, each node's output) has at most max_elems entries, counting
 * the product of its nonzero dims (1 <= max_elems <= ONNX_EXEC_MAX_ELEMS),
 * and the nodes' work, charged before it is done, adds up to at most
 * max_work operations. */
typedef struct {
    size_t max_elems;
    uint64_t max_work;
} onnx_exec_limits_t;

/* Evaluate the values targets[0..nt) of G for the single graph input
 * `input` (its name is ignored; G must have exactly one input).  out[t] is
 * filled with a copy of target t (clear each with onnx_tensor_clear).
 * AR_EINVAL when a target is no value of G, when the input or a constant
 * is not a consistent tensor (size the product of dims, a known data type,
 * integer types holding integers of their range) or exceeds the limits, and
 * when a node refuses its inputs.  out[] is zeroed on failure. */
ar_status onnx_exec_limited(const onnx_graph_t *G, const onnx_tensor_t *input, const char *const *targets,
                            size_t nt, const onnx_exec_limits_t *lim, onnx_tensor_t *out);

/* onnx_exec_limited with ONNX_EXEC_MAX_ELEMS and ONNX_EXEC_MAX_WORK. */
ar_status onnx_exec(const onnx_graph_t *G, const onnx_tensor_t *input, const char *const *targets, size_t nt,
                    onnx_tensor_t *out);

#endif
