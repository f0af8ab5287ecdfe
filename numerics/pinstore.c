/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pinstore.c -- verified bytes of pinned files (see pinstore.h). */
#include "numerics/pinstore.h"

#include <stdlib.h>
#include <string.h>
#include "numerics/infile.h"
#include "numerics/sha256.h"

typedef struct {
    char *path;      /* normalised */
    char *bytes;
    size_t n;
} pin_entry_t;

static _Thread_local int scope_open;
static _Thread_local pin_entry_t *entries;
static _Thread_local size_t nentries, capentries;

/* Lexical normalisation: collapse repeated '/', drop "./" segments (no
 * symlink resolution: the path names what the reader will ask for). */
static char *normalise(const char *p)
{
    size_t n = strlen(p);
    char *o = ar_calloc(n + 1, 1, "pinned path");
    if (!o)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        if (p[i] == '/' && k > 0 && o[k - 1] == '/') {
            i++;
            continue;
        }
        if (p[i] == '.' && (i + 1 == n || p[i + 1] == '/') && (k == 0 || o[k - 1] == '/') && i + 1 < n) {
            i += 2;                                  /* "./" */
            continue;
        }
        o[k++] = p[i++];
    }
    o[k] = '\0';
    return o;
}

ar_status pinstore_begin(void)
{
    if (scope_open) {
        ar_error_set("pinstore: a scope is already open on this thread");
        return AR_EINVAL;
    }
    scope_open = 1;
    return AR_OK;
}

int pinstore_active(void) { return scope_open; }

void pinstore_end(void)
{
    for (size_t i = 0; i < nentries; i++) {
        free(entries[i].path);
        free(entries[i].bytes);
    }
    free(entries);
    entries = NULL;
    nentries = capentries = 0;
    scope_open = 0;
}

ar_status pinstore_verify(const char *path, const char *want, size_t max_bytes, const char *what)
{
    if (!scope_open) {
        ar_error_set("pinstore: %s checked outside a scope", path);
        return AR_EINVAL;
    }
    char *buf;
    size_t n;
    scope_open = 0;                                  /* read the disk, not the store */
    ar_status st = infile_read_all(path, what, max_bytes, &buf, &n);
    scope_open = 1;
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
    if (nentries == capentries) {
        size_t c = capentries ? 2 * capentries : 16;
        pin_entry_t *e = realloc(entries, c * sizeof *e);
        if (!e) {
            free(buf);
            ar_error_set("pinstore: out of memory");
            return AR_ENOMEM;
        }
        entries = e;
        capentries = c;
    }
    char *np = normalise(path);
    if (!np) {
        free(buf);
        return AR_ENOMEM;
    }
    entries[nentries].path = np;
    entries[nentries].bytes = buf;
    entries[nentries].n = n;
    nentries++;
    return AR_OK;
}

ar_status pinstore_lookup(const char *path, const char **buf, size_t *n)
{
    char *np = normalise(path);
    if (!np)
        return AR_ENOMEM;
    ar_status st = AR_EINVAL;
    for (size_t i = nentries; i-- > 0;)
        if (strcmp(entries[i].path, np) == 0) {
            *buf = entries[i].bytes;
            *n = entries[i].n;
            st = AR_OK;
            break;
        }
    if (st)
        ar_error_set("%s: not among the pinned files checked for this load (only pinned files may be read)", path);
    free(np);
    return st;
}
