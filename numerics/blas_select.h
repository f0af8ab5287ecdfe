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
 * The chosen kernels are tested against a naive reference in the test suite
 * (tests/numerics/test_blas_select.c). */
#ifndef ATTNRANK_NUMERICS_BLAS_SELECT_H
#define ATTNRANK_NUMERICS_BLAS_SELECT_H

#include "numerics/status.h"

/* Validate the variables of the policy: ATTNRANK_BLAS_AUTO ("0" or "1",
 * default 1) and the re-exec guard ATTNRANK_BLAS_REEXEC (unset or "1").
 * AR_EINVAL with a one-line message otherwise.  Call before
 * blas_select_kernel. */
ar_status blas_check_env(void);

/* Apply the policy above; call first thing in main(). May not return (exec). */
void blas_select_kernel(int argc, char **argv);

/* Name of the BLAS core in use ("Haswell", "Zen", ..., or "reference/unknown"). */
const char *blas_corename(void);

/* Set the number of OpenBLAS threads (no-op for other BLAS, and under a
 * finite RLIMIT_AS, see numerics/oom.h). */
void blas_set_threads(int n);

#endif
