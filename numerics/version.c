/* version.c -- provenance strings: project and library versions. */
#include "numerics/version.h"

#include <stdio.h>
#include <gmp.h>
#include <mpfr.h>
#include <flint/flint.h>
#include <arb.h>
#include "numerics/blas_select.h"

const char *version_json_fields(void)
{
    static char buf[512];
    snprintf(buf, sizeof buf,
             "\"attnrank\":\"%s\",\"mpfr\":\"%s\",\"gmp\":\"%s\",\"flint\":\"%s\",\"arb\":\"%s\",\"blas_core\":\"%s\"",
             ATTNRANK_VERSION, mpfr_get_version(), gmp_version, flint_version, arb_version,
             blas_corename());
    return buf;
}

const char *version_line(void)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "attnrank %s (MPFR %s, GMP %s, FLINT %s, Arb %s, BLAS core %s)",
             ATTNRANK_VERSION, mpfr_get_version(), gmp_version, flint_version, arb_version,
             blas_corename());
    return buf;
}
