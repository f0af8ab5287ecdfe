/* onnx_exec.h -- run an ONNX graph (constructions/formats/onnx.h) in double
 * arithmetic on its exact stored weights, up to named values.  Only the
 * nodes those values depend on are run, in file order; intermediate values
 * are freed after their last use.  Computes no rank.
 *
 * Operators (opset 9 semantics, the set of the PP-OCRv4 recogniser): Add,
 * Sub, Mul, Div, Pow (multidirectional broadcasting), Sqrt, Relu, Sigmoid,
 * HardSigmoid, Clip (min/max attributes), Conv (2-D, groups, strides, pads,
 * dilations), BatchNormalization (inference), AveragePool (2-D,
 * count_include_pad 0 or 1), GlobalAveragePool, MatMul (batched, numpy
 * broadcasting), Softmax (flattened at `axis`), ReduceMean, Shape, Cast,
 * Slice (attributes), Concat, Reshape (0 copies, -1 infers), Transpose,
 * Squeeze.  Any other operator on the path to a target is AR_EINVAL naming
 * it; shape errors are AR_EINVAL naming the node. */
#ifndef ATTNRANK_CONSTRUCTIONS_ONNX_EXEC_H
#define ATTNRANK_CONSTRUCTIONS_ONNX_EXEC_H

#include <stddef.h>
#include "numerics/status.h"
#include "constructions/formats/onnx.h"

/* Evaluate the values targets[0..nt) of G for the single graph input
 * `input` (its name is ignored; G must have exactly one input).  out[t] is
 * filled with a copy of target t (clear each with onnx_tensor_clear).
 * AR_EINVAL when a target is no value of G. */
ar_status onnx_exec(const onnx_graph_t *G, const onnx_tensor_t *input, const char *const *targets, size_t nt,
                    onnx_tensor_t *out);

#endif
