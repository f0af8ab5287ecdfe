/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pinstore.c -- pinned files verified into this thread's pin set (see pinstore.h). */
#include "base/pinstore.h"

#include <stdlib.h>
#include <string.h>
#include "base/infile.h"
#include "base/sha256.h"

/* Contract: pinstore.h. */
ar_status pinstore_verify(const char *path, const char *want, size_t max_bytes, const char *what)
{
    if (!pinset_active()) {
        ar_error_set("pinstore: %s checked outside a scope", path);
        return AR_EINVAL;
    }
    char *buf;
    size_t n;
    int was = pinset_pause();                       /* read the disk, not the store */
    ar_status st = infile_read_all(path, what, max_bytes, &buf, &n);
    pinset_resume(was);
    if (st)
        return st;
    char got[65];
    sha256_hex(buf, n, got);
    if (strcmp(got, want) != 0) {
        ar_error_set("%s: not the pinned file (sha256 expected %s, got %s): the cache was modified or damaged; "
                     "'make calib-data' restores it", path, want, got);
        free(buf);
        return AR_EINVAL;
    }
    return pinset_add(path, buf, n);
}
