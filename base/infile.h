/* SPDX-License-Identifier: GPL-3.0-or-later */
/* infile.h -- open an input file without ever blocking in open(2).
 *
 * Every reader of user-supplied files (.npy, multiplicities, JSON model
 * files, weight shards, vocabularies, corpus files, plot tables) opens its
 * input here.  The open is non-blocking, so a FIFO with no writer cannot
 * hang the program: the descriptor is switched back to blocking reads
 * afterwards, and reading a writer-less FIFO returns end-of-file at once
 * (POSIX), which the reader reports as an empty or truncated input.
 * Directories, sockets and block devices are refused with a one-line
 * message. */
#ifndef ATTNRANK_BASE_INFILE_H
#define ATTNRANK_BASE_INFILE_H

#include <stdio.h>
#include "base/status.h"

typedef enum {
    INFILE_ANY = 0,       /* regular files, FIFOs, pipes and character devices */
    INFILE_REGULAR = 1    /* regular files only (inputs whose size is checked up front) */
} infile_kind;

/* Open `path` for binary reading.  `what` names the expected content in
 * messages ("PATH: is a directory (expected a WHAT)"; for example ".npy
 * file" or "weight shard"; NULL: "regular file").  On success *f is open
 * and, when size is not NULL, *size is the file size for regular files and
 * -1 otherwise.  AR_EIO when the file cannot be opened (message with the
 * reason), AR_EINVAL when it is a directory, socket or block device, or not
 * regular under INFILE_REGULAR, and AR_EINVAL inside a pinned load
 * (base/pinstore.h), which reads only verified bytes.  Messages name
 * the path (escaped by ar_error_set) and are one line. */
ar_status infile_open(const char *path, const char *what, infile_kind kind, FILE **f, long long *size);

/* Read the whole regular file `path` (opened with infile_open, kind
 * INFILE_REGULAR) into a buffer of *n bytes plus a terminating NUL
 * (allocated, caller frees).  AR_EINVAL "file too large" above max_bytes
 * and when the file changes size while being read; AR_EIO on a read error.
 * Messages name the path and are one line.  Inside a pinned load
 * (base/pinstore.h) it returns a copy of the verified bytes of `path`
 * and refuses any path that was not verified. */
ar_status infile_read_all(const char *path, const char *what, size_t max_bytes, char **buf, size_t *n);

/* Hand the descriptor fd, which the caller opened itself (for example with
 * base/path.h's path_open_beneath, confined to a directory), to the
 * next infile_open(path, ...) on this thread: that call takes fd instead of
 * opening path by name, then checks it exactly as it checks a file it
 * opened (kind, blocking reads, size), so that a reader which takes a path
 * (npy_read) reads the very file the caller opened: no check/use race.
 * While fd is handed over, infile_open of any other path is refused
 * (AR_EINVAL).  infile_handoff_end() withdraws it, closing fd when no
 * infile_open took it; call it after the reader returns, on every path. */
void infile_handoff(const char *path, int fd);
void infile_handoff_end(void);

#endif
