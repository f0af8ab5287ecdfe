/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pinset.h -- this thread's scope of pinned bytes (the state behind pinstore.h,
 * below base/infile so that infile can serve the kept bytes).
 *
 * A load that must use only pinned files (the claim-E model caches) opens a
 * scope with pinstore_begin, checks every pinned file with pinstore_verify
 * (read once, SHA-256 compared with the committed digest, bytes kept), then
 * runs its readers.  While the scope is open, infile_read_all serves the
 * kept bytes for a path that was verified (compared after lexical
 * normalisation: repeated '/' and "./" segments removed) and refuses every
 * other path, so nothing a reader parses can come from a second read of the
 * file (which a concurrent writer could have changed after the check) or
 * from an unpinned file.  pinstore_end frees the bytes.  The scope belongs
 * to the calling thread; scopes do not nest. */
#ifndef ATTNRANK_BASE_PINSET_H
#define ATTNRANK_BASE_PINSET_H

#include <stddef.h>
#include "base/status.h"

/* Open this thread's scope.  AR_EINVAL if one is already open. */
ar_status pinset_begin(void);

/* Keep `bytes` (n bytes, ownership taken, freed on error too) as the verified
 * content of `path` in the open scope.  AR_EINVAL without an open scope,
 * AR_ENOMEM when it cannot be kept. */
ar_status pinset_add(const char *path, char *bytes, size_t n);

/* Suspend the scope (pinset_active() is 0 until pinset_resume) so that the
 * disk, not the store, is read; returns the state to restore. */
int pinset_pause(void);
void pinset_resume(int was);

/* 1 while this thread's scope is open. */
int pinset_active(void);

/* The kept bytes of `path` (not NUL-terminated, owned by the scope) into
 * *buf, *n.  AR_EINVAL with one line naming the path when it was not
 * verified in this scope. */
ar_status pinset_lookup(const char *path, const char **buf, size_t *n);

/* Close the scope and free its bytes (safe without an open scope). */
void pinset_end(void);

#endif
