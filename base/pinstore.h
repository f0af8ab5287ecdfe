/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pinstore.h -- pinned files read once: the bytes that are parsed are the
 * bytes that were hashed.
 *
 * A load that must use only pinned files (the claim-E model caches) opens a
 * scope with pinset_begin (base/pinset.h), checks every pinned file with pinstore_verify
 * (read once, SHA-256 compared with the committed digest, bytes kept), then
 * runs its readers.  While the scope is open, infile_read_all serves the
 * kept bytes for a path that was verified (compared after lexical
 * normalisation: repeated '/' and "./" segments removed) and refuses every
 * other path, so nothing a reader parses can come from a second read of the
 * file (which a concurrent writer could have changed after the check) or
 * from an unpinned file.  pinset_end frees the bytes.  The scope belongs
 * to the calling thread; scopes do not nest. */
#ifndef ATTNRANK_BASE_PINSTORE_H
#define ATTNRANK_BASE_PINSTORE_H

#include <stddef.h>
#include "base/status.h"
#include "base/pinset.h"

/* Read `path` (a regular file of at most max_bytes; `what` names it in
 * messages), check its SHA-256 against want (64 lowercase hex digits)
 * and keep the bytes in the open scope.  A mismatch is AR_EINVAL with one
 * line naming the file, the expected and the actual digest; AR_EIO when it
 * cannot be read; AR_EINVAL without an open scope. */
ar_status pinstore_verify(const char *path, const char *want, size_t max_bytes, const char *what);

#endif
