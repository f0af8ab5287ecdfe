/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pinset.c -- this thread's scope of verified bytes (see pinset.h). */
#include "base/pinset.h"

#include <stdlib.h>
#include <string.h>

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

ar_status pinset_begin(void)
{
    if (scope_open) {
        ar_error_set("pinstore: a scope is already open on this thread");
        return AR_EINVAL;
    }
    scope_open = 1;
    return AR_OK;
}

int pinset_active(void) { return scope_open; }

void pinset_end(void)
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

/* Contract: pinset.h. */
int pinset_pause(void)
{
    int was = scope_open;
    scope_open = 0;
    return was;
}

/* Contract: pinset.h. */
void pinset_resume(int was)
{
    scope_open = was;
}

/* Contract: pinset.h. */
ar_status pinset_add(const char *path, char *bytes, size_t n)
{
    if (!scope_open) {
        free(bytes);
        ar_error_set("pinstore: %s kept outside a scope", path);
        return AR_EINVAL;
    }
    if (nentries == capentries) {
        size_t c = capentries ? 2 * capentries : 16;
        pin_entry_t *e = realloc(entries, c * sizeof *e);
        if (!e) {
            free(bytes);
            ar_error_set("pinstore: out of memory");
            return AR_ENOMEM;
        }
        entries = e;
        capentries = c;
    }
    char *np = normalise(path);
    if (!np) {
        free(bytes);
        return AR_ENOMEM;
    }
    entries[nentries].path = np;
    entries[nentries].bytes = bytes;
    entries[nentries].n = n;
    nentries++;
    return AR_OK;
}

ar_status pinset_lookup(const char *path, const char **buf, size_t *n)
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
