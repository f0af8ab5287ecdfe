/* SPDX-License-Identifier: GPL-3.0-or-later */
/* onnx_exec_impl.h -- private to onnx_exec.c and onnx_ops.c: one operator
 * applied to resolved input tensors. */
#ifndef ATTNRANK_CONSTRUCTIONS_ONNX_EXEC_IMPL_H
#define ATTNRANK_CONSTRUCTIONS_ONNX_EXEC_IMPL_H

#include <stdint.h>
#include "constructions/formats/onnx.h"
#include "constructions/models/onnx_exec.h"

/* One run's limits (onnx_exec_limits_t) and the work charged so far. */
typedef struct {
    size_t max_elems;
    uint64_t max_work, work;
} onnx_run_t;

/* Apply node N to in[0..N->nin) (NULL for an omitted optional input; each
 * present one passes onnx_tensor_check with R->max_elems) into
 * out[0..N->nout) (zeroed by the caller; filled on success, to be cleared
 * by the caller on failure too).  Its work is charged to R first. */
ar_status onnx_op_apply(onnx_run_t *R, const onnx_node_t *N, const onnx_tensor_t *const *in, onnx_tensor_t *out);

/* Allocate T->data for the given dims (rank r, each >= 0, the nonzero ones
 * multiplying to at most ONNX_EXEC_MAX_ELEMS); dtype F64 unless set after. */
ar_status onnx_tensor_alloc(onnx_tensor_t *T, size_t r, const int64_t *dims);

/* AR_OK when T is a tensor the operators may read: a known data type, rank
 * <= ONNX_MAX_RANK, dims >= 0 whose nonzero ones multiply to at most
 * max_elems, size their product, data present (even when size is 0), and, for
 * int32 and int64, every entry an integer of the type's range (int64:
 * |v| <= 2^53).  Else AR_EINVAL with a one-line reason. */
ar_status onnx_tensor_check(const onnx_tensor_t *T, size_t max_elems);

#endif
