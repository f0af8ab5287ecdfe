/* SPDX-License-Identifier: GPL-3.0-or-later */
/* blas_select.h -- the CLI's safe choice of OpenBLAS kernels.
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
 * tests/numerics/test_linalg.c; the core check (base/blas_cores.h) in
 * tests/base/test_blas_cores.c; the variables are validated by
 * attnrank_check_environment (include/attnrank.h) first. */
#ifndef ATTNRANK_CLI_BLAS_SELECT_H
#define ATTNRANK_CLI_BLAS_SELECT_H

/* Apply the policy above; call first thing in main(), after
 * attnrank_check_environment. May not return (exec). */
void blas_select_kernel(int argc, char **argv);

#endif
