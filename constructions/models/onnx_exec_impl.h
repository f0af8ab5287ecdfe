/* onnx_exec_impl.h -- private to onnx_exec.c and onnx_ops.c: one operator
 * applied to resolved input tensors. */
#ifndef ATTNRANK_CONSTRUCTIONS_ONNX_EXEC_IMPL_H
#define ATTNRANK_CONSTRUCTIONS_ONNX_EXEC_IMPL_H

#include "constructions/formats/onnx.h"

/* Apply node N to in[0..N->nin) (NULL for an omitted optional input) into
 * out[0..N->nout) (zeroed by the caller; filled on success). */
ar_status onnx_op_apply(const onnx_node_t *N, const onnx_tensor_t *const *in, onnx_tensor_t *out);

/* Allocate T->data for the given dims (rank r); dtype F64 unless set after. */
ar_status onnx_tensor_alloc(onnx_tensor_t *T, size_t r, const int64_t *dims);

#endif
