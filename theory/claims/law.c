/* SPDX-License-Identifier: GPL-3.0-or-later */
/* law.c -- a law row's derived values (see law.h). */
#include "theory/claims/law.h"

#include <math.h>

/* The name tables of law.h's enums. */
static const char *const variable_names[] = { [LAW_VAR_ONE_PLUS_BETA] = "1+beta", [LAW_VAR_BETA] = "beta",
                                              [LAW_VAR_N] = "n" };
static const char *const upper_names[] = { [LAW_UPPER_INSTANCE] = "instance", [LAW_UPPER_CONTINUUM] = "continuum" };
static const char *const kind_names[] = { [LAW_EXPONENT] = "exponent", [LAW_SATURATION] = "saturation",
                                          [LAW_REPORT] = "report" };
static const char *const tier_names[] = { [LAW_TIER_DEFAULT] = "default", [LAW_TIER_EXTENDED] = "extended" };

#define NAME_OF(tab, x) ((size_t)(x) < sizeof tab / sizeof tab[0] ? tab[x] : "?")

/* Contract: law.h. */
const char *law_variable_name(law_variable_t v)
{
    return NAME_OF(variable_names, v);
}

/* Contract: law.h. */
const char *law_upper_name(law_upper_t u)
{
    return NAME_OF(upper_names, u);
}

/* Contract: law.h. */
const char *law_kind_name(law_kind_t k)
{
    return NAME_OF(kind_names, k);
}

/* Contract: law.h. */
const char *law_tier_name(law_tier_t t)
{
    return NAME_OF(tier_names, t);
}

/* Contract: law.h. */
double law_variable(const law_t *L, double beta)
{
    return L->variable == LAW_VAR_BETA ? beta : 1.0 + beta;
}

/* Contract: law.h. */
double law_value(const law_t *L, double beta)
{
    if (L->law)
        return L->law(L, beta);
    return pow(law_variable(L, beta), L->predicted);
}

/* Contract: law.h. */
int law_extended(const law_t *L)
{
    return L->tier == LAW_TIER_EXTENDED;
}

/* Contract: law.h. */
int law_asserted(const law_t *L)
{
    return L->kind != LAW_REPORT;
}
