/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bracket_status.c -- certified or inconclusive (see bracket_status.h). */
#include "theory/brackets/bracket_status.h"

#include <string.h>

int bracket_end_trivial(const char *method)
{
    return !method || !*method || strcmp(method, "trivial") == 0;
}

const char *bracket_status_decide(size_t lower, const char *lower_method, size_t upper, const char *upper_method)
{
    int tight = lower == upper;
    int informative = !bracket_end_trivial(lower_method) || !bracket_end_trivial(upper_method);
    return tight || informative ? "certified" : "inconclusive";
}
