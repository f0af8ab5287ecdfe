/* SPDX-License-Identifier: GPL-3.0-or-later */
/* blas_select.h -- safe choice of OpenBLAS kernels and thread counts.
 *
 * OpenBLAS 0.3.21 (Debian 12) detects some AVX-512 CPUs as "Prescott" and
 * runs SSE3 kernels (about 4x slower dgemm).  OpenBLAS reads
 * OPENBLAS_CORETYPE once, when the library is loaded, so the only safe fix
 * from inside the program is to set it and re-execute.  Policy:
 *   - if OPENBLAS_CORETYPE is already set, or ATTNRANK_BLAS_AUTO=0, do nothing;
 *   - if the detected core is "Prescott" (the generic fallback) and the CPU
 *     reports AVX512F+AVX512DQ+AVX512BW+AVX512VL, choose "SkylakeX"; if it
 *     reports AVX2+FMA, choose "Haswell"; otherwise keep the fallback;
 *   - re-exec /proc/self/exe once with the variable set (a guard variable
 *     prevents loops).  If exec fails the program continues unchanged.
 * The kernels in use are tested against a naive reference in
 * tests/numerics/test_linalg.c; the core check in tests/numerics/test_blas_select.c. */
#ifndef ATTNRANK_NUMERICS_BLAS_SELECT_H
#define ATTNRANK_NUMERICS_BLAS_SELECT_H

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

/* Validate the variables of the policy: ATTNRANK_BLAS_AUTO ("0" or "1",
 * default 1), the re-exec guard ATTNRANK_BLAS_REEXEC (unset or "1") and,
 * when the BLAS is OpenBLAS, a user's OPENBLAS_CORETYPE against this CPU
 * (blas_core_check).  AR_EINVAL with a one-line message otherwise.  Call
 * first thing in main(), before any BLAS call and blas_select_kernel. */
ar_status blas_check_env(void);

/* Apply the policy above; call first thing in main(). May not return (exec). */
void blas_select_kernel(int argc, char **argv);

/* Name of the BLAS core in use ("Haswell", "Zen", ..., or "reference/unknown"). */
const char *blas_corename(void);

/* Set the number of OpenBLAS threads (no-op for other BLAS).  Under a finite
 * RLIMIT_AS (numerics/oom.h) only counts the process has already run with are
 * set (1, or back to a count it had): a larger one would start threads whose
 * buffers may not fit. */
void blas_set_threads(int n);

/* The number of OpenBLAS threads in use (1 for other BLAS). */
int blas_get_threads(void);

/* A region whose BLAS calls must run on one OpenBLAS thread (every call whose
 * result enters a certified number: OpenBLAS 0.3.21's dgemm and LAPACK sum
 * some shapes differently with 1 and 2 threads).  OpenBLAS's thread count is
 * one process-wide setting, so the regions are counted under a mutex: the
 * first blas_single_begin of the process (any thread) saves the count and sets
 * one thread, the matching last blas_single_end restores it.  Nested and
 * concurrent regions (two brackets in two threads of one process) are safe:
 * while any region is open the count stays 1, and no region ever restores a
 * count under another.  Each begin needs exactly one end on the same path. */
void blas_single_begin(void);
void blas_single_end(void);

#endif
