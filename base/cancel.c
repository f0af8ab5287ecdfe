/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cancel.c -- the calling thread's cancellation flag. */
#include "base/cancel.h"

static _Thread_local const volatile int *cancel_flag;

const volatile int *cancel_install(const volatile int *flag)
{
    const volatile int *old = cancel_flag;
    cancel_flag = flag;
    return old;
}

const volatile int *cancel_current(void)
{
    return cancel_flag;
}

int cancel_check_flag(const volatile int *flag)
{
    return flag && *flag != 0;
}

ar_status cancel_check(void)
{
    if (cancel_check_flag(cancel_flag)) {
        ar_error_set("cancelled");
        return AR_ECANCELED;
    }
    return AR_OK;
}
