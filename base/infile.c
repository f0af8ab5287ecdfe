/* SPDX-License-Identifier: GPL-3.0-or-later */
/* infile.c -- non-blocking open of input files (see infile.h). */
#include "base/infile.h"
#include "base/pinset.h"

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_name(mode_t m)
{
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO or pipe";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISCHR(m))
        return "a character device";
    return "not a regular file";
}

/* The descriptor handed over by infile_handoff (this thread only). */
static _Thread_local struct {
    const char *path;   /* NULL: nothing handed over */
    int fd;             /* -1 once infile_open took it */
} handoff = { NULL, -1 };

void infile_handoff(const char *path, int fd)
{
    infile_handoff_end();
    handoff.path = path;
    handoff.fd = fd;
}

void infile_handoff_end(void)
{
    if (handoff.path && handoff.fd >= 0)
        close(handoff.fd);
    handoff.path = NULL;
    handoff.fd = -1;
}

ar_status infile_open(const char *path, const char *what, infile_kind kind, FILE **f, long long *size)
{
    *f = NULL;
    if (size)
        *size = -1;
    if (!what)
        what = "regular file";
    if (!path || !*path) {
        ar_error_set("empty file name (expected a %s)", what);
        return AR_EINVAL;
    }
    if (pinset_active()) {              /* a pinned load reads only verified bytes (infile_read_all) */
        ar_error_set("%s: a %s cannot be streamed from disk inside a pinned load (only its verified bytes may be read)",
                     path, what);
        return AR_EINVAL;
    }
    int fd;
    if (handoff.path) {                   /* the caller's descriptor, once, for its own path only */
        if (strcmp(path, handoff.path) != 0) {
            ar_error_set("%s: not the file handed over for reading (%s)", path, handoff.path);
            return AR_EINVAL;
        }
        if (handoff.fd < 0) {
            ar_error_set("%s: the descriptor handed over for it was already taken", path);
            return AR_EINVAL;
        }
        fd = handoff.fd;
        handoff.fd = -1;
    } else {
        fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    }
    if (fd < 0) {
        ar_error_set("%s: cannot open: %s", path, strerror(errno));
        return AR_EIO;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        ar_error_set("%s: cannot stat: %s", path, strerror(errno));
        close(fd);
        return AR_EIO;
    }
    int regular = S_ISREG(sb.st_mode);
    int stream = S_ISFIFO(sb.st_mode) || S_ISCHR(sb.st_mode);
    if (!regular && !(stream && kind == INFILE_ANY)) {
        ar_error_set("%s: is %s (expected a %s)", path, kind_name(sb.st_mode), what);
        close(fd);
        return AR_EINVAL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        ar_error_set("%s: cannot switch to blocking reads: %s", path, strerror(errno));
        close(fd);
        return AR_EIO;
    }
    FILE *fp = fdopen(fd, "rb");
    if (!fp) {
        ar_error_set("%s: cannot open: %s", path, strerror(errno));
        close(fd);
        return AR_EIO;
    }
    if (size && regular)
        *size = (long long)sb.st_size;
    *f = fp;
    return AR_OK;
}

ar_status infile_read_all(const char *path, const char *what, size_t max_bytes, char **buf, size_t *n)
{
    *buf = NULL;
    *n = 0;
    if (pinset_active()) {              /* a pinned load: the verified bytes, or nothing */
        const char *kept;
        size_t kn;
        ar_status st = pinset_lookup(path, &kept, &kn);
        if (st)
            return st;
        if (kn > max_bytes) {
            ar_error_set("%s: file too large (%zu bytes, limit %zu)", path, kn, max_bytes);
            return AR_EINVAL;
        }
        char *b = ar_calloc(kn + 1, 1, path);
        if (!b)
            return AR_ENOMEM;
        memcpy(b, kept, kn);
        *buf = b;
        *n = kn;
        return AR_OK;
    }
    FILE *f;
    long long sz;
    ar_status st = infile_open(path, what, INFILE_REGULAR, &f, &sz);
    if (st)
        return st;
    if (sz < 0 || (unsigned long long)sz > max_bytes) {
        fclose(f);
        ar_error_set("%s: file too large (%lld bytes, limit %zu)", path, sz, max_bytes);
        return AR_EINVAL;
    }
    char *b = ar_calloc((size_t)sz + 1, 1, path);
    if (!b) {
        fclose(f);
        return AR_ENOMEM;
    }
    /* read one byte more than the size: a file that grew since is refused */
    size_t got = fread(b, 1, (size_t)sz + 1, f);
    int err = ferror(f);
    fclose(f);
    if (err || got != (size_t)sz) {
        free(b);
        ar_error_set("%s: %s", path, err ? "read error" : "changed size while being read");
        return err ? AR_EIO : AR_EINVAL;
    }
    *buf = b;
    *n = got;
    return AR_OK;
}
