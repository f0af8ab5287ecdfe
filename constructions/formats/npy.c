/* SPDX-License-Identifier: GPL-3.0-or-later */
/* npy.c -- strict reader/writer for NumPy .npy files (float64/float32,
 * at most 2 dimensions) and for multiplicity files (one positive decimal
 * integer per line).  Every error message is one line starting with the
 * file path. */
#include "constructions/formats/npy.h"
#include "base/infile.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <flint/fmpz_vec.h>

#define NPY_MAX_HEADER (1u << 20)

/* Record "path: message" and return status. */
static ar_status path_error(ar_status st, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static ar_status path_error(ar_status st, const char *path, const char *fmt, ...)
{
    char buf[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ar_error_set("%s: %s", path, buf);
    return st;
}

static int host_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* ---- header parsing ----------------------------------------------------- */

typedef struct {
    const char *s;
    size_t len, pos;
} cursor;

static void skip_ws(cursor *c)
{
    while (c->pos < c->len && (c->s[c->pos] == ' ' || c->s[c->pos] == '\t' ||
                               c->s[c->pos] == '\n' || c->s[c->pos] == '\r'))
        c->pos++;
}

static int peek(const cursor *c)
{
    return c->pos < c->len ? (unsigned char)c->s[c->pos] : -1;
}

/* A quoted string without escapes; (*out, *olen) point into the header. */
static int parse_string(cursor *c, const char **out, size_t *olen)
{
    int q = peek(c);
    if (q != '\'' && q != '"')
        return 0;
    size_t start = ++c->pos;
    while (c->pos < c->len && c->s[c->pos] != q) {
        if (c->s[c->pos] == '\\' || c->s[c->pos] == '\n')
            return 0;
        c->pos++;
    }
    if (c->pos >= c->len)
        return 0;
    *out = c->s + start;
    *olen = c->pos - start;
    c->pos++;
    return 1;
}

static int match_word(cursor *c, const char *w)
{
    size_t n = strlen(w);
    if (c->len - c->pos < n || memcmp(c->s + c->pos, w, n) != 0)
        return 0;
    /* the word must end here */
    if (c->pos + n < c->len) {
        char nx = c->s[c->pos + n];
        if ((nx >= 'a' && nx <= 'z') || (nx >= 'A' && nx <= 'Z') || (nx >= '0' && nx <= '9') || nx == '_')
            return 0;
    }
    c->pos += n;
    return 1;
}

/* Non-negative decimal integer (optional Python 2 'L' suffix), no overflow. */
static int parse_size(cursor *c, size_t *v)
{
    if (peek(c) < '0' || peek(c) > '9')
        return 0;
    size_t x = 0;
    while (peek(c) >= '0' && peek(c) <= '9') {
        size_t dgt = (size_t)(c->s[c->pos] - '0');
        if (x > (SIZE_MAX - dgt) / 10)
            return -1;
        x = x * 10 + dgt;
        c->pos++;
    }
    if (peek(c) == 'L')
        c->pos++;
    *v = x;
    return 1;
}

typedef struct {
    int have_descr, have_fortran, have_shape;
    int itemsize;        /* 1, 2, 4 or 8 */
    char kind;           /* 'f' (float16/32/64), 'i' or 'u' (integers of 1..8 bytes) */
    int little;          /* byte order of the data */
    int fortran;
    size_t ndim;
    size_t shape[2];
} npy_header;

#define HDR_FAIL(...) do { path_error(AR_EINVAL, path, __VA_ARGS__); return AR_EINVAL; } while (0)

static ar_status parse_shape(cursor *c, npy_header *h, const char *path)
{
    if (peek(c) != '(')
        HDR_FAIL("malformed header: 'shape' is not a tuple");
    c->pos++;
    skip_ws(c);
    size_t nd = 0;
    int trailing_comma = 0;
    while (peek(c) != ')') {
        size_t v;
        int r = parse_size(c, &v);
        if (r < 0)
            HDR_FAIL("shape extent overflows");
        if (r == 0)
            HDR_FAIL("malformed header: bad integer in 'shape'");
        if (nd < 2)
            h->shape[nd] = v;
        nd++;
        skip_ws(c);
        trailing_comma = 0;
        if (peek(c) == ',') {
            c->pos++;
            skip_ws(c);
            trailing_comma = 1;
        } else if (peek(c) != ')')
            HDR_FAIL("malformed header: expected ',' or ')' in 'shape'");
    }
    c->pos++;
    if (nd == 1 && !trailing_comma)
        HDR_FAIL("malformed header: 'shape' (n) is not a tuple (need (n,))");
    if (nd == 0)
        HDR_FAIL("0-dimensional arrays are not supported (need shape (r,) or (r, c))");
    if (nd > 2)
        HDR_FAIL("%zu-dimensional array: only 1 or 2 dimensions are supported", nd);
    h->ndim = nd;
    if (nd == 1)
        h->shape[1] = 1;
    if (h->shape[0] == 0 || h->shape[1] == 0)
        HDR_FAIL("shape has a zero extent (%zu x %zu)", h->shape[0], h->shape[1]);
    h->have_shape = 1;
    return AR_OK;
}

static ar_status parse_descr(const char *v, size_t n, npy_header *h, const char *path)
{
    char bo = 0;
    const char *t = v;
    size_t tn = n;
    if (tn > 0 && (t[0] == '<' || t[0] == '>' || t[0] == '=' || t[0] == '|')) {
        bo = t[0];
        t++;
        tn--;
    }
    /* float64/32/16 and integers of 1, 2, 4, 8 bytes (an integer must be an exact double: checked when
     * read); the same rules as the Python package */
    int ok = tn == 2 && (t[0] == 'f' || t[0] == 'i' || t[0] == 'u') && t[1] >= '1' && t[1] <= '8';
    int size = ok ? t[1] - '0' : 0;
    ok = ok && (size == 1 || size == 2 || size == 4 || size == 8) && !(t[0] == 'f' && size == 1) &&
         (size == 1 || bo != '|');
    if (!ok)
        HDR_FAIL("unsupported dtype '%.*s' (need float64, float32, float16 or an integer type: '<f8', '<f4', "
                 "'<f2', '<i8', '|u1', ...)", (int)(n < 40 ? n : 40), v);
    h->kind = t[0];
    h->itemsize = size;
    h->little = bo == '<' ? 1 : bo == '>' ? 0 : host_little_endian();
    h->have_descr = 1;
    return AR_OK;
}

static ar_status parse_header(const char *s, size_t len, npy_header *h, const char *path)
{
    cursor c = { s, len, 0 };
    memset(h, 0, sizeof *h);
    skip_ws(&c);
    if (peek(&c) != '{')
        HDR_FAIL("malformed header: expected '{'");
    c.pos++;
    skip_ws(&c);
    while (peek(&c) != '}') {
        const char *k;
        size_t kn;
        if (!parse_string(&c, &k, &kn))
            HDR_FAIL("malformed header: expected a quoted key");
        skip_ws(&c);
        if (peek(&c) != ':')
            HDR_FAIL("malformed header: expected ':' after key");
        c.pos++;
        skip_ws(&c);
        if (kn == 5 && memcmp(k, "descr", 5) == 0) {
            const char *v;
            size_t vn;
            if (h->have_descr)
                HDR_FAIL("malformed header: duplicate key 'descr'");
            if (!parse_string(&c, &v, &vn))
                HDR_FAIL("unsupported dtype (descr is not a simple string)");
            if (parse_descr(v, vn, h, path) != AR_OK)
                return AR_EINVAL;
        } else if (kn == 13 && memcmp(k, "fortran_order", 13) == 0) {
            if (h->have_fortran)
                HDR_FAIL("malformed header: duplicate key 'fortran_order'");
            if (match_word(&c, "True"))
                h->fortran = 1;
            else if (match_word(&c, "False"))
                h->fortran = 0;
            else
                HDR_FAIL("malformed header: 'fortran_order' must be True or False");
            h->have_fortran = 1;
        } else if (kn == 5 && memcmp(k, "shape", 5) == 0) {
            if (h->have_shape)
                HDR_FAIL("malformed header: duplicate key 'shape'");
            if (parse_shape(&c, h, path) != AR_OK)
                return AR_EINVAL;
        } else
            HDR_FAIL("malformed header: unexpected key '%.*s'", (int)(kn < 40 ? kn : 40), k);
        skip_ws(&c);
        if (peek(&c) == ',') {
            c.pos++;
            skip_ws(&c);
        } else if (peek(&c) != '}')
            HDR_FAIL("malformed header: expected ',' or '}'");
    }
    c.pos++;
    skip_ws(&c);
    if (c.pos != c.len)
        HDR_FAIL("malformed header: unexpected text after '}'");
    if (!h->have_descr || !h->have_fortran || !h->have_shape)
        HDR_FAIL("malformed header: missing key '%s'",
                 !h->have_descr ? "descr" : !h->have_fortran ? "fortran_order" : "shape");
    return AR_OK;
}

/* ---- npy_read ------------------------------------------------------------ */

static size_t read_fully(FILE *f, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        size_t k = fread((char *)buf + got, 1, n - got, f);
        if (k == 0)
            break;
        got += k;
    }
    return got;
}

/* IEEE binary16 bits to double (exact: every half is a double). */
static double half_to_double(uint32_t hbits)
{
    int sign = (hbits >> 15) & 1, ex = (hbits >> 10) & 31;
    double mant = (double)(hbits & 1023u), v;
    if (ex == 0)
        v = ldexp(mant, -24);                          /* subnormal */
    else if (ex == 31)
        v = mant == 0 ? INFINITY : NAN;
    else
        v = ldexp(mant + 1024.0, ex - 25);
    return sign ? -v : v;
}

/* Decode one item (kind, itemsize, byte order) to double; *inexact = 1 when an integer is not
 * exactly a double (beyond 2^53 in magnitude and not representable). */
static double decode_item(const unsigned char *p, char kind, int itemsize, int little, int *inexact)
{
    uint64_t u = 0;
    for (int k = 0; k < itemsize; k++)
        u |= (uint64_t)p[little ? k : itemsize - 1 - k] << (8 * k);
    if (kind == 'f') {
        if (itemsize == 8) {
            double v;
            memcpy(&v, &u, 8);
            return v;
        }
        if (itemsize == 4) {
            uint32_t w = (uint32_t)u;
            float v;
            memcpy(&v, &w, 4);
            return (double)v;
        }
        return half_to_double((uint32_t)u);
    }
    if (kind == 'u') {
        double v = (double)u;
        if (u > (UINT64_C(1) << 53) && (v >= 0x1p64 || (uint64_t)v != u))
            *inexact = 1;
        return v;
    }
    /* signed: sign-extend itemsize bytes */
    int64_t x;
    if (itemsize < 8 && (u >> (8 * itemsize - 1)) & 1)
        u |= ~UINT64_C(0) << (8 * itemsize);
    memcpy(&x, &u, 8);
    double v = (double)x;
    if ((x > (INT64_C(1) << 53) || x < -(INT64_C(1) << 53)) && (v >= 0x1p63 || (int64_t)v != x))
        *inexact = 1;
    return v;
}

/* The file is read in full: header (prefix 10 or 12 bytes + header_len),
 * then exactly rows*cols*itemsize data bytes.  On regular files the length
 * is checked before any allocation sized by the header. */
static ar_status npy_read_ex(const char *path, double **data, size_t *rows, size_t *cols, int neg_inf);

ar_status npy_read(const char *path, double **data, size_t *rows, size_t *cols)
{
    return npy_read_ex(path, data, rows, cols, 0);
}

ar_status npy_read_bias(const char *path, double **data, size_t *rows, size_t *cols)
{
    return npy_read_ex(path, data, rows, cols, 1);
}

/* The prefix of the open file f: magic, format version 1.0, 2.0 or 3.0 and the header length
 * *hlen (at most NPY_MAX_HEADER, within the file's length fsize when fsize >= 0); *prefix: the
 * prefix's length in bytes (10 or 12). */
static ar_status npy_read_prefix(FILE *f, const char *path, long long fsize, size_t *hlen, size_t *prefix)
{
    unsigned char pre[12];
    size_t got = read_fully(f, pre, 8);
    if (got == 0)
        return path_error(AR_EINVAL, path, "empty file (not a .npy file)");
    if (got < 6 || memcmp(pre, "\x93NUMPY", 6) != 0)
        return path_error(AR_EINVAL, path, "bad magic (not a .npy file)");
    if (got < 8)
        return path_error(AR_EINVAL, path, "truncated header");
    int major = pre[6], minor = pre[7];
    if (!((major == 1 || major == 2 || major == 3) && minor == 0))
        return path_error(AR_EINVAL, path, "unsupported .npy format version %d.%d", major, minor);
    size_t lensz = major == 1 ? 2 : 4;
    if (read_fully(f, pre + 8, lensz) != lensz)
        return path_error(AR_EINVAL, path, "truncated header");
    *hlen = major == 1 ? (size_t)pre[8] | (size_t)pre[9] << 8
                       : (size_t)pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
    *prefix = 8 + lensz;
    if (*hlen > NPY_MAX_HEADER)
        return path_error(AR_EINVAL, path, "header length %zu exceeds %u bytes", *hlen, NPY_MAX_HEADER);
    if (fsize >= 0 && (unsigned long long)fsize < *prefix + *hlen)
        return path_error(AR_EINVAL, path, "truncated header (%zu bytes declared, %lld available)",
                          *hlen, fsize - (long long)*prefix);
    return AR_OK;
}

/* The header dictionary of hlen bytes read from f and parsed into h. */
static ar_status npy_read_dict(FILE *f, const char *path, size_t hlen, npy_header *h)
{
    char *hdr = malloc(hlen + 1);
    if (!hdr)
        return path_error(AR_ENOMEM, path, "out of memory reading the header");
    ar_status st = AR_OK;
    if (read_fully(f, hdr, hlen) != hlen) {
        st = path_error(AR_EINVAL, path, "truncated header");
    } else {
        hdr[hlen] = '\0';
        if (parse_header(hdr, hlen, h, path) != AR_OK)
            st = AR_EINVAL;
    }
    free(hdr);
    return st;
}

/* The data size of the shape in h: *count items of *nbytes bytes in all; refused when it overflows,
 * when it differs from what the file holds after the header (fsize >= 0: the file's length, the data
 * at offset) or when the doubles would exceed the allocation limit. */
static ar_status npy_check_size(const npy_header *h, const char *path, long long fsize, size_t offset,
                                size_t *count, size_t *nbytes)
{
    size_t r = h->shape[0], c = h->shape[1], is = (size_t)h->itemsize;
    if (r > SIZE_MAX / c || r * c > SIZE_MAX / 8)
        return path_error(AR_EINVAL, path, "shape %zu x %zu overflows the address space", r, c);
    *count = r * c;
    *nbytes = *count * is;
    if (fsize >= 0) {
        unsigned long long avail = (unsigned long long)fsize - offset;
        if (avail != *nbytes)
            return path_error(AR_EINVAL, path, "%s: data has %llu bytes, shape %zu x %zu of %zu-byte items needs %zu",
                              avail < *nbytes ? "truncated data" : "trailing bytes after the data",
                              avail, r, c, is, *nbytes);
    }
    if (*count * sizeof(double) > ar_max_alloc())
        return path_error(AR_ENOMEM, path, "array of %zu x %zu doubles exceeds the allocation limit", r, c);
    return AR_OK;
}

/* The count items (nbytes bytes) of h read from f, which must end there, and decoded into out
 * (row-major); an integer that is not exactly a double is refused, naming the first. */
static ar_status npy_read_data(FILE *f, const char *path, const npy_header *h, size_t count, size_t nbytes,
                               double *out)
{
    size_t r = h->shape[0], c = h->shape[1], is = (size_t)h->itemsize;
    ar_status st = AR_OK;
    unsigned char *raw = NULL;
    /* C-order float64: decode in place; otherwise through a raw buffer. */
    int in_place = (is == 8 && h->kind == 'f' && !h->fortran), inexact = 0;
    if (!in_place) {
        raw = ar_calloc(count, is, path);
        if (!raw)
            return AR_ENOMEM;
    }
    unsigned char *bytes = in_place ? (unsigned char *)out : raw;
    size_t nread = read_fully(f, bytes, nbytes);
    if (nread != nbytes)
        st = path_error(AR_EINVAL, path, "truncated data: %zu of %zu data bytes present", nread, nbytes);
    else if (fgetc(f) != EOF)
        st = path_error(AR_EINVAL, path, "trailing bytes after the data");
    else if (ferror(f))
        st = path_error(AR_EIO, path, "read error");
    else if (in_place) {
        for (size_t e = 0; e < count; e++)
            out[e] = decode_item(bytes + 8 * e, 'f', 8, h->little, &inexact);
    } else {
        for (size_t e = 0; e < count; e++) {
            size_t i = h->fortran ? e % r : e / c;
            size_t j = h->fortran ? e / r : e % c;
            int bad = 0;
            out[i * c + j] = decode_item(raw + is * e, h->kind, (int)is, h->little, &bad);
            if (bad && !inexact) {
                inexact = 1;
                st = path_error(AR_EINVAL, path, "the integer at row %zu, column %zu is not an exact double "
                                "(beyond 2^53); convert the file to float64", i, j);
            }
        }
    }
    free(raw);
    return st;
}

/* Every one of the count values in out (c columns) is finite, or -inf when neg_inf; else the first
 * other one is named. */
static ar_status npy_check_finite(const double *out, size_t count, size_t c, int neg_inf, const char *path)
{
    for (size_t e = 0; e < count; e++)
        if (!isfinite(out[e]) && !(neg_inf && out[e] == -INFINITY))
            return path_error(AR_EINVAL, path, "%s value at row %zu, column %zu",
                              isnan(out[e]) ? "NaN" : neg_inf ? "+inf" : "infinite", e / c, e % c);
    return AR_OK;
}

static ar_status npy_read_ex(const char *path, double **data, size_t *rows, size_t *cols, int neg_inf)
{
    *data = NULL;
    *rows = *cols = 0;
    FILE *f;
    ar_status st = infile_open(path, ".npy file", INFILE_ANY, &f, NULL);
    if (st != AR_OK)
        return st;
    double *out = NULL;
    long long fsize = -1;
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0) {
        if (S_ISDIR(sb.st_mode)) {
            st = path_error(AR_EINVAL, path, "is a directory (expected a .npy file)");
            goto done;
        }
        if (S_ISREG(sb.st_mode))
            fsize = (long long)sb.st_size;
    }
    size_t hlen = 0, prefix = 0, count = 0, nbytes = 0;
    npy_header h;
    if ((st = npy_read_prefix(f, path, fsize, &hlen, &prefix)) || (st = npy_read_dict(f, path, hlen, &h)) ||
        (st = npy_check_size(&h, path, fsize, prefix + hlen, &count, &nbytes)))
        goto done;
    out = ar_calloc(count, sizeof(double), path);
    if (!out) {
        st = AR_ENOMEM;
        goto done;
    }
    if ((st = npy_read_data(f, path, &h, count, nbytes, out)) ||
        (st = npy_check_finite(out, count, h.shape[1], neg_inf, path)))
        goto done;
    *data = out;
    *rows = h.shape[0];
    *cols = h.shape[1];
    out = NULL;
done:
    free(out);
    fclose(f);
    return st;
}

/* ---- npy_write ----------------------------------------------------------- */

static ar_status close_checked(FILE *f, const char *path, ar_status st)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        if (st == AR_OK)
            st = path_error(AR_EIO, path, "write error: %s", strerror(errno));
    }
    return st;
}

/* Header padded with spaces and ended by '\n' so that the data starts at a
 * multiple of 64 bytes.  Data little-endian regardless of the host. */
ar_status npy_write(const char *path, const double *data, size_t rows, size_t cols)
{
    if (rows == 0 || cols == 0 || rows > SIZE_MAX / cols / 8) {
        return path_error(AR_EINVAL, path, "cannot write a %zu x %zu array", rows, cols);
    }
    for (size_t e = 0; e < rows * cols; e++)
        if (!isfinite(data[e]))
            return path_error(AR_EINVAL, path, "refusing to write a non-finite value at row %zu, column %zu",
                              e / cols, e % cols);
    char hdr[256];
    int len = snprintf(hdr, sizeof hdr, "{'descr': '<f8', 'fortran_order': False, 'shape': (%zu, %zu), }",
                       rows, cols);
    size_t total = 10 + (size_t)len + 1;
    size_t pad = (64 - total % 64) % 64;
    memset(hdr + len, ' ', pad);
    hdr[len + pad] = '\n';
    size_t hlen = (size_t)len + pad + 1;
    FILE *f = fopen(path, "wb");
    if (!f)
        return path_error(AR_EIO, path, "cannot open for writing: %s", strerror(errno));
    unsigned char pre[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                              (unsigned char)(hlen & 0xff), (unsigned char)(hlen >> 8) };
    ar_status st = AR_OK;
    if (fwrite(pre, 1, 10, f) != 10 || fwrite(hdr, 1, hlen, f) != hlen)
        st = path_error(AR_EIO, path, "write error: %s", strerror(errno));
    unsigned char buf[8 * 512];
    size_t count = rows * cols;
    for (size_t e0 = 0; e0 < count && st == AR_OK; e0 += 512) {
        size_t m = count - e0 < 512 ? count - e0 : 512;
        for (size_t k = 0; k < m; k++) {
            uint64_t u;
            memcpy(&u, data + e0 + k, 8);
            for (int b = 0; b < 8; b++)
                buf[8 * k + b] = (unsigned char)(u >> (8 * b));
        }
        if (fwrite(buf, 1, 8 * m, f) != 8 * m)
            st = path_error(AR_EIO, path, "write error: %s", strerror(errno));
    }
    return close_checked(f, path, st);
}

/* ---- multiplicity files ---------------------------------------------------- */

static int is_blank(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r';
}

/* The one-line message for a byte that cannot occur in a multiplicity file. */
static ar_status mult_bad_byte(const char *path, size_t line, unsigned char ch)
{
    if (ch == '+' || ch == '-')
        return path_error(AR_EINVAL, path, "line %zu: sign '%c' not allowed", line, ch);
    if (ch >= 0x20 && ch < 0x7f)
        return path_error(AR_EINVAL, path, "line %zu: invalid character '%c'", line, ch);
    return path_error(AR_EINVAL, path, "line %zu: invalid byte 0x%02x", line, ch);
}

/* Validation of a multiplicity file byte by byte, as it is read: the first
 * error in file order is reported, with the same messages as mult_read's
 * line parser. */
typedef struct {
    size_t line;       /* 1-based */
    size_t bytes;      /* bytes in the current line */
    int digit;         /* a digit seen in the current line */
    int nonzero;       /* a nonzero digit seen */
    int trailing;      /* a blank seen after the digits */
} mult_scan_t;

static ar_status mult_scan_byte(mult_scan_t *sc, const char *path, unsigned char ch)
{
    if (ch == '\n') {
        if (!sc->digit)
            return path_error(AR_EINVAL, path, "line %zu: empty line (expected a positive integer)", sc->line);
        if (!sc->nonzero)
            return path_error(AR_EINVAL, path, "line %zu: multiplicity 0 (must be >= 1)", sc->line);
        *sc = (mult_scan_t){ sc->line + 1, 0, 0, 0, 0 };
        return AR_OK;
    }
    sc->bytes++;
    if (is_blank((char)ch)) {
        sc->trailing |= sc->digit;
        return AR_OK;
    }
    if (ch < '0' || ch > '9')
        return mult_bad_byte(path, sc->line, ch);
    if (sc->trailing)
        return mult_bad_byte(path, sc->line, ' ');   /* "1 2": the blank is inside the number */
    sc->digit = 1;
    sc->nonzero |= ch != '0';
    return AR_OK;
}

/* End of file: the last line (without '\n') must be complete too. */
static ar_status mult_scan_end(mult_scan_t *sc, const char *path)
{
    if (sc->bytes == 0)
        return AR_OK;
    return mult_scan_byte(sc, path, '\n');
}

/* Whole file into a NUL-terminated buffer.  Every byte is checked as it
 * arrives (mult_scan_byte), so an endless or binary stream is refused at its
 * first bad byte.  The buffer is bounded by ar_max_alloc; an allocation
 * failure is AR_ENOMEM ("out of memory"), never a shorter file. */
static ar_status mult_slurp(const char *path, char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    FILE *f;
    ar_status ost = infile_open(path, "multiplicity file", INFILE_ANY, &f, NULL);
    if (ost != AR_OK)
        return ost;
    struct stat sb;
    size_t cap = 4096, n = 0;
    mult_scan_t sc = { 1, 0, 0, 0, 0 };
    if (fstat(fileno(f), &sb) == 0) {
        if (S_ISDIR(sb.st_mode)) {
            fclose(f);
            return path_error(AR_EINVAL, path, "is a directory (expected a multiplicity file)");
        }
        if (S_ISREG(sb.st_mode) && sb.st_size > 0) {   /* one allocation for a regular file */
            if ((unsigned long long)sb.st_size >= ar_max_alloc()) {
                fclose(f);
                return path_error(AR_ENOMEM, path, "file of %lld bytes exceeds the allocation limit",
                                  (long long)sb.st_size);
            }
            cap = (size_t)sb.st_size + 2;   /* +1 for the NUL, +1 to see the end of file */
        }
    }
    char *b = malloc(cap);
    ar_status st = AR_OK;
    if (!b)
        st = path_error(AR_ENOMEM, path, "out of memory reading the file (%zu bytes)", cap);
    while (st == AR_OK) {
        if (n + 1 >= cap) {
            if (cap > ar_max_alloc() / 2) {
                st = path_error(AR_ENOMEM, path, "file exceeds the allocation limit");
                break;
            }
            char *nb = realloc(b, cap * 2);
            if (!nb) {
                st = path_error(AR_ENOMEM, path, "out of memory reading the file (%zu bytes read)", n);
                break;
            }
            b = nb;
            cap *= 2;
        }
        size_t k = fread(b + n, 1, cap - 1 - n, f);
        for (size_t i = n; i < n + k && st == AR_OK; i++)
            st = mult_scan_byte(&sc, path, (unsigned char)b[i]);
        n += k;
        if (k == 0) {
            if (st == AR_OK && !ferror(f))
                st = mult_scan_end(&sc, path);
            break;
        }
    }
    if (st == AR_OK && ferror(f))
        st = path_error(AR_EIO, path, "read error");
    fclose(f);
    if (st != AR_OK) {
        free(b);
        return st;
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return AR_OK;
}

/* Lines are separated by '\n'; a final '\n' is optional.  Each line: blanks,
 * one or more digits (value >= 1), blanks.  Errors name the 1-based line. */
ar_status mult_read(const char *path, fmpz **w, size_t *n)
{
    *w = NULL;
    *n = 0;
    char *buf;
    size_t len;
    ar_status st = mult_slurp(path, &buf, &len);
    if (st != AR_OK)
        return st;
    if (len == 0) {
        free(buf);
        return path_error(AR_EINVAL, path, "empty multiplicity file");
    }
    size_t lines = 0;
    for (size_t k = 0; k < len; k++)
        lines += buf[k] == '\n';
    if (buf[len - 1] != '\n')
        lines++;
    fmpz *v = _fmpz_vec_init((slong)lines);
    size_t pos = 0;
    for (size_t ln = 0; ln < lines && st == AR_OK; ln++) {
        size_t end = pos;
        while (end < len && buf[end] != '\n')
            end++;
        size_t a = pos, b = end;
        while (a < b && is_blank(buf[a]))
            a++;
        while (b > a && is_blank(buf[b - 1]))
            b--;
        if (a == b)
            st = path_error(AR_EINVAL, path, "line %zu: empty line (expected a positive integer)", ln + 1);
        int nonzero = 0;
        for (size_t k = a; k < b && st == AR_OK; k++) {
            unsigned char ch = (unsigned char)buf[k];
            if (ch < '0' || ch > '9')
                st = mult_bad_byte(path, ln + 1, ch);
            nonzero |= ch != '0';
        }
        if (st == AR_OK && !nonzero)
            st = path_error(AR_EINVAL, path, "line %zu: multiplicity 0 (must be >= 1)", ln + 1);
        if (st == AR_OK) {
            char save = buf[b];
            buf[b] = '\0';
            if (fmpz_set_str(v + ln, buf + a, 10) != 0)
                st = path_error(AR_EINVAL, path, "line %zu: invalid integer", ln + 1);
            buf[b] = save;
        }
        pos = end + 1;
    }
    free(buf);
    if (st != AR_OK) {
        _fmpz_vec_clear(v, (slong)lines);
        return st;
    }
    *w = v;
    *n = lines;
    return AR_OK;
}

ar_status mult_write(const char *path, const fmpz *w, size_t n)
{
    if (n == 0)
        return path_error(AR_EINVAL, path, "no multiplicities to write");
    for (size_t i = 0; i < n; i++)
        if (fmpz_cmp_ui(w + i, 1) < 0)
            return path_error(AR_EINVAL, path, "multiplicity %zu is < 1", i);
    FILE *f = fopen(path, "w");
    if (!f)
        return path_error(AR_EIO, path, "cannot open for writing: %s", strerror(errno));
    ar_status st = AR_OK;
    for (size_t i = 0; i < n && st == AR_OK; i++) {
        char *s = fmpz_get_str(NULL, 10, w + i);
        if (fputs(s, f) == EOF || fputc('\n', f) == EOF)
            st = path_error(AR_EIO, path, "write error: %s", strerror(errno));
        flint_free(s);
    }
    return close_checked(f, path, st);
}

ar_status pointset_read(pointset_t *P, const char *npy_path, const char *mult_path)
{
    memset(P, 0, sizeof *P);
    double *x;
    size_t r, c;
    ar_status st = npy_read(npy_path, &x, &r, &c);
    if (st != AR_OK)
        return st;
    fmpz *w = NULL;
    size_t nw = 0;
    if (mult_path) {
        st = mult_read(mult_path, &w, &nw);
        if (st != AR_OK) {
            free(x);
            return st;
        }
        if (nw != r) {
            _fmpz_vec_clear(w, (slong)nw);
            free(x);
            return path_error(AR_EINVAL, mult_path, "%zu multiplicities but %s has %zu points",
                              nw, npy_path, r);
        }
    }
    P->n = r;
    P->d = c;
    P->x = x;
    P->w = w;
    if (mult_path)
        pointset_set_provenance(P, "file %s (n=%zu d=%zu) mult %s", npy_path, r, c, mult_path);
    else
        pointset_set_provenance(P, "file %s (n=%zu d=%zu)", npy_path, r, c);
    return AR_OK;
}
