/* SPDX-License-Identifier: GPL-3.0-or-later */
/* blas_cores.c -- which OpenBLAS cores this CPU can run (see blas_cores.h). */
#include "base/blas_cores.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* ---- forced cores: what their kernels need ------------------------------
 * The x86-64 core names OpenBLAS 0.3.21's force_coretype accepts (compared
 * case-insensitively), with the instruction sets their kernels use.  Read
 * from the Debian 12 library itself (objdump of libopenblasp-r0.3.21.so,
 * instructions of each *_<CORE> kernel: 3DNow! femms in the Opteron
 * kernels, FMA4 vfmaddpd in Bulldozer..Excavator, AVX-512 in SkylakeX and
 * Cooperlake) and from OpenBLAS's own detection, which picks Cooperlake only
 * with AVX512_BF16 and SkylakeX only with AVX-512 VL; on 64-bit builds
 * Katmai, Coppermine, Northwood, Banias and Athlon run the Prescott kernels.
 * Forcing a core the CPU lacks ends in SIGILL at the first such kernel. */
typedef struct {
    const char *name;
    unsigned needs;
} blas_core_t;

#define F_SSE3 BLAS_F_SSE3
#define F_SSSE3 (BLAS_F_SSE3 | BLAS_F_SSSE3)
#define F_SSE41 (F_SSSE3 | BLAS_F_SSE41)
#define F_AVX (F_SSE41 | BLAS_F_AVX)
#define F_AVX2 (F_AVX | BLAS_F_FMA | BLAS_F_AVX2)
#define F_AVX512 (F_AVX2 | BLAS_F_AVX512F | BLAS_F_AVX512BW | BLAS_F_AVX512DQ | BLAS_F_AVX512VL)

static const blas_core_t blas_cores[] = {
    { "Katmai", F_SSE3 }, { "Coppermine", F_SSE3 }, { "Northwood", F_SSE3 }, { "Prescott", F_SSE3 },
    { "Banias", F_SSE3 }, { "Atom", F_SSSE3 }, { "Core2", F_SSSE3 }, { "Penryn", F_SSE41 },
    { "Dunnington", F_SSE41 }, { "Nehalem", F_SSE41 }, { "Athlon", F_SSE3 },
    { "Opteron", BLAS_F_SSE3 | BLAS_F_3DNOW }, { "Opteron_SSE3", BLAS_F_SSE3 | BLAS_F_3DNOW },
    { "Barcelona", F_SSE3 }, { "Nano", F_SSSE3 }, { "Sandybridge", F_AVX }, { "Bobcat", F_SSSE3 },
    { "Bulldozer", F_AVX | BLAS_F_FMA4 }, { "Piledriver", F_AVX | BLAS_F_FMA4 | BLAS_F_FMA },
    { "Haswell", F_AVX2 }, { "Steamroller", F_AVX | BLAS_F_FMA4 | BLAS_F_FMA },
    { "Excavator", F_AVX | BLAS_F_FMA4 | BLAS_F_FMA }, { "Zen", F_AVX2 }, { "SkylakeX", F_AVX512 },
    { "Cooperlake", F_AVX512 | BLAS_F_AVX512BF16 },
};
#define NCORES (sizeof blas_cores / sizeof blas_cores[0])

static const struct { unsigned bit; const char *name; } blas_feature_names[] = {
    { BLAS_F_SSE3, "SSE3" }, { BLAS_F_SSSE3, "SSSE3" }, { BLAS_F_SSE41, "SSE4.1" }, { BLAS_F_3DNOW, "3DNow!" },
    { BLAS_F_AVX, "AVX" }, { BLAS_F_FMA4, "FMA4" }, { BLAS_F_FMA, "FMA" }, { BLAS_F_AVX2, "AVX2" },
    { BLAS_F_AVX512F, "AVX512F" }, { BLAS_F_AVX512BW, "AVX512BW" }, { BLAS_F_AVX512DQ, "AVX512DQ" },
    { BLAS_F_AVX512VL, "AVX512VL" }, { BLAS_F_AVX512BF16, "AVX512_BF16" },
};

const char *blas_core_name(size_t i)
{
    return i < NCORES ? blas_cores[i].name : NULL;
}

unsigned blas_cpu_features(void)
{
    unsigned f = 0;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    f |= __builtin_cpu_supports("sse3") ? BLAS_F_SSE3 : 0;
    f |= __builtin_cpu_supports("ssse3") ? BLAS_F_SSSE3 : 0;
    f |= __builtin_cpu_supports("sse4.1") ? BLAS_F_SSE41 : 0;
    f |= __builtin_cpu_supports("avx") ? BLAS_F_AVX : 0;       /* libgcc also checks that the OS saves ymm */
    f |= __builtin_cpu_supports("fma4") ? BLAS_F_FMA4 : 0;
    f |= __builtin_cpu_supports("fma") ? BLAS_F_FMA : 0;
    f |= __builtin_cpu_supports("avx2") ? BLAS_F_AVX2 : 0;
    f |= __builtin_cpu_supports("avx512f") ? BLAS_F_AVX512F : 0;   /* and zmm state */
    f |= __builtin_cpu_supports("avx512bw") ? BLAS_F_AVX512BW : 0;
    f |= __builtin_cpu_supports("avx512dq") ? BLAS_F_AVX512DQ : 0;
    f |= __builtin_cpu_supports("avx512vl") ? BLAS_F_AVX512VL : 0;
    f |= __builtin_cpu_supports("avx512bf16") ? BLAS_F_AVX512BF16 : 0;
    unsigned a, b, c, d;
    if (__get_cpuid(0x80000000u, &a, &b, &c, &d) && a >= 0x80000001u && __get_cpuid(0x80000001u, &a, &b, &c, &d) &&
        (d & (1u << 31)))
        f |= BLAS_F_3DNOW;
#endif
    return f;
}

/* The most capable core of the table that a CPU with `features` runs (NULL if none). */
static const char *blas_best_core(unsigned features)
{
    static const char *const pref[] = { "Cooperlake", "SkylakeX", "Haswell", "Sandybridge", "Nehalem", "Core2",
                                        "Prescott" };
    for (size_t k = 0; k < sizeof pref / sizeof pref[0]; k++)
        for (size_t i = 0; i < NCORES; i++)
            if (!strcmp(blas_cores[i].name, pref[k]) && (blas_cores[i].needs & ~features) == 0)
                return pref[k];
    return NULL;
}

ar_status blas_core_check(const char *core, unsigned features)
{
    const blas_core_t *c = NULL;
    for (size_t i = 0; core && i < NCORES; i++)
        if (strcasecmp(core, blas_cores[i].name) == 0)
            c = &blas_cores[i];
    const char *best = blas_best_core(features);
    char alt[64];
    snprintf(alt, sizeof alt, "%s%s", best ? ", such as " : "", best ? best : "");
    if (!c) {
        char names[400];
        size_t k = 0;
        for (size_t i = 0; i < NCORES && k < sizeof names; i++)
            k += (size_t)snprintf(names + k, sizeof names - k, "%s%s", i ? ", " : "", blas_cores[i].name);
        ar_error_set("OPENBLAS_CORETYPE='%s' is not a core OpenBLAS 0.3.21 can be set to (it would quietly pick "
                     "another); unset it, or name one of %s", core ? core : "", names);
        return AR_EINVAL;
    }
    unsigned missing = c->needs & ~features;
    if (missing) {
        char miss[160];
        size_t k = 0;
        for (size_t i = 0; i < sizeof blas_feature_names / sizeof blas_feature_names[0] && k < sizeof miss; i++)
            if (missing & blas_feature_names[i].bit)
                k += (size_t)snprintf(miss + k, sizeof miss - k, "%s%s", k ? ", " : "", blas_feature_names[i].name);
        ar_error_set("OPENBLAS_CORETYPE=%s: its kernels need %s, which this CPU lacks (they would stop with an "
                     "illegal instruction); unset OPENBLAS_CORETYPE to let attnrank choose, or name a core this CPU "
                     "runs%s", core, miss, alt);
        return AR_EINVAL;
    }
    return AR_OK;
}
