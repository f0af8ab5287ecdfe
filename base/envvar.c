/* SPDX-License-Identifier: GPL-3.0-or-later */
/* envvar.c -- strict environment variables (see envvar.h). */
#include "base/envvar.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/parse.h"

ar_status env_size(const char *name, size_t lo, size_t hi, size_t def, size_t *out)
{
    const char *s = getenv(name);
    if (!s) {
        *out = def;
        return AR_OK;
    }
    uint64_t v;
    if (!parse_digits(s, &v) || v < lo || v > hi) {
        ar_error_set("%s='%s': expected a decimal integer in [%zu, %zu] (or unset it for the default %zu)", name, s,
                     lo, hi, def);
        return AR_EINVAL;
    }
    *out = (size_t)v;
    return AR_OK;
}

ar_status env_size_opt(const char *name, size_t lo, size_t hi, int *set, size_t *out)
{
    const char *s = getenv(name);
    *set = 0;
    if (!s)
        return AR_OK;
    uint64_t v;
    if (!parse_digits(s, &v) || v < lo || v > hi) {
        ar_error_set("%s='%s': expected a decimal integer in [%zu, %zu] (or unset it)", name, s, lo, hi);
        return AR_EINVAL;
    }
    *out = (size_t)v;
    *set = 1;
    return AR_OK;
}

ar_status env_real(const char *name, double lo, double hi, double def, double *out)
{
    const char *s = getenv(name);
    if (!s) {
        *out = def;
        return AR_OK;
    }
    double v = 0;
    parse_real_t r = parse_real(s, &v);
    if (r != PARSE_OK || !(v >= lo && v <= hi)) {
        ar_error_set("%s='%s' %s: expected a number in [%.10g, %.10g] (or unset it for the default %.10g)", name, s,
                     r == PARSE_OK ? "is out of range" : parse_real_reason(r), lo, hi, def);
        return AR_EINVAL;
    }
    *out = v;
    return AR_OK;
}

ar_status env_flag(const char *name, int def, int *out)
{
    const char *s = getenv(name);
    if (!s) {
        *out = def;
        return AR_OK;
    }
    if (strcmp(s, "0") != 0 && strcmp(s, "1") != 0) {
        ar_error_set("%s='%s': expected 0 or 1 (or unset it for the default %d)", name, s, def);
        return AR_EINVAL;
    }
    *out = s[0] == '1';
    return AR_OK;
}

ar_status env_guard(const char *name, int *set)
{
    const char *s = getenv(name);
    *set = s != NULL;
    if (s && strcmp(s, "1") != 0) {
        ar_error_set("%s='%s': attnrank sets this guard to 1 itself when it re-executes; unset it", name, s);
        return AR_EINVAL;
    }
    return AR_OK;
}
