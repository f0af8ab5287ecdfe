/* SPDX-License-Identifier: GPL-3.0-or-later */
/* blas_cores.h -- which OpenBLAS 0.3.21 cores this CPU can run: the table of
 * x86-64 core names with the instruction sets their kernels use, the CPU's
 * features, and the check of a forced core (OPENBLAS_CORETYPE) against them.
 * Tests: tests/base/test_blas_cores.c. */
#ifndef ATTNRANK_BASE_BLAS_CORES_H
#define ATTNRANK_BASE_BLAS_CORES_H

#include <stddef.h>
#include "base/status.h"

/* Instruction-set features that OpenBLAS kernels need (bit mask). */
enum {
    BLAS_F_SSE3 = 1u << 0, BLAS_F_SSSE3 = 1u << 1, BLAS_F_SSE41 = 1u << 2, BLAS_F_3DNOW = 1u << 3,
    BLAS_F_AVX = 1u << 4, BLAS_F_FMA4 = 1u << 5, BLAS_F_FMA = 1u << 6, BLAS_F_AVX2 = 1u << 7,
    BLAS_F_AVX512F = 1u << 8, BLAS_F_AVX512BW = 1u << 9, BLAS_F_AVX512DQ = 1u << 10, BLAS_F_AVX512VL = 1u << 11,
    BLAS_F_AVX512BF16 = 1u << 12
};

/* The features of the CPU this process runs on (cpuid through
 * __builtin_cpu_supports, which also checks that the OS saves the ymm/zmm
 * state; 0 on other architectures). */
unsigned blas_cpu_features(void);

/* Whether the kernels of the OpenBLAS 0.3.21 core `core` (an
 * OPENBLAS_CORETYPE value, case-insensitive as OpenBLAS compares it) can run
 * on a CPU with `features`: a pure function of its arguments (the message
 * buffer aside).  AR_OK, or AR_EINVAL with one line naming the core, the
 * missing features and what to do (unset OPENBLAS_CORETYPE, or a core the
 * CPU runs).  Names OpenBLAS 0.3.21 cannot be forced to (unknown names,
 * SapphireRapids, "") are refused too: OpenBLAS would quietly detect the CPU
 * instead of the core asked for, so a run "under" it would test nothing. */
ar_status blas_core_check(const char *core, unsigned features);

/* The i-th core name of the table behind blas_core_check (NULL past the end). */
const char *blas_core_name(size_t i);

#endif
