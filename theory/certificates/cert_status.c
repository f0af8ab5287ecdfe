/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_status.c -- the statuses' one name table (see cert_status.h). */
#include "theory/certificates/cert_status.h"

#include <string.h>

static const char *const names[AR_CERT_STATUS_COUNT] = {
    [AR_CERT_INCONCLUSIVE] = "inconclusive",
    [AR_CERT_CERTIFIED] = "certified",
};

const char *ar_cert_status_name(ar_cert_status_t s)
{
    return (unsigned)s < AR_CERT_STATUS_COUNT ? names[s] : "unknown";
}

ar_status ar_cert_status_parse(const char *name, ar_cert_status_t *out)
{
    for (int s = 0; name && s < AR_CERT_STATUS_COUNT; s++)
        if (strcmp(name, names[s]) == 0) {
            *out = (ar_cert_status_t)s;
            return AR_OK;
        }
    ar_error_set("unknown status '%s' (\"certified\" or \"inconclusive\")", name ? name : "(null)");
    return AR_EINVAL;
}
