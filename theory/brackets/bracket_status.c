/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bracket_status.c -- certified or inconclusive (see bracket_status.h). */
#include "theory/brackets/bracket_status.h"

ar_cert_status_t bracket_status_decide(size_t lower, ar_method_t lower_method, size_t upper, ar_method_t upper_method)
{
    int tight = lower == upper;
    int informative = !ar_method_is_trivial(lower_method) || !ar_method_is_trivial(upper_method);
    return tight || informative ? AR_CERT_CERTIFIED : AR_CERT_INCONCLUSIVE;
}
