/* SPDX-License-Identifier: GPL-3.0-or-later */
/* law.c -- a law row's derived values (see law.h). */
#include "theory/claims/law.h"

#include <math.h>
#include <string.h>

/* Contract: law.h. */
double law_variable(const law_t *L, double beta)
{
    return L->variable && strcmp(L->variable, "beta") == 0 ? beta : 1.0 + beta;
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
    return L->tier && strcmp(L->tier, "extended") == 0;
}

/* Contract: law.h. */
int law_asserted(const law_t *L)
{
    return !L->kind || strcmp(L->kind, "report") != 0;
}
