/* SPDX-License-Identifier: GPL-3.0-or-later */
/* table.c -- strict reader of 'scale --format tsv' tables (see table.h). */
#include "cli/table.h"
#include "base/infile.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/args.h"

#define TABLE_NF 16
#define TABLE_MAX_RANK 9007199254740992.0   /* 2^53: ranks are exact doubles */

static const char table_header[] =
    "d\tbeta\tn\tlower\tlower_points\tlower_certificate\tupper\tupper_err\tupper_certificate\tcontinuum\t"
    "continuum_certificate\tlaw\tlower_over_law\tupper_over_law\tstatus\tseconds";

static const char *const field_names[TABLE_NF] = {
    "d", "beta", "n", "lower", "lower_points", "lower_certificate", "upper", "upper_err", "upper_certificate",
    "continuum", "continuum_certificate", "law", "lower_over_law", "upper_over_law", "status", "seconds"
};

ar_status table_init(table_t *t)
{
    memset(t, 0, sizeof *t);
    for (int d = 0; d < TABLE_MAXD; d++)
        if (!(t->rows[d] = calloc(TABLE_MAXROWS, sizeof(table_row_t)))) {
            table_clear(t);
            ar_error_set("plot: out of memory for the table");
            return AR_ENOMEM;
        }
    return AR_OK;
}

void table_clear(table_t *t)
{
    for (int d = 0; d < TABLE_MAXD; d++) {
        free(t->rows[d]);
        t->rows[d] = NULL;
        t->cnt[d] = 0;
    }
    t->used = 0;
}

/* Plain decimal number (see table.h) -> 1 and *v (finite); 0 otherwise. */
static int plain_number(const char *s, double *v)
{
    const char *p = s;
    if (*p == '-')
        p++;
    size_t digits = 0;
    while (*p >= '0' && *p <= '9')
        p++, digits++;
    if (*p == '.') {
        p++;
        while (*p >= '0' && *p <= '9')
            p++, digits++;
    }
    if (!digits)
        return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (*p < '0' || *p > '9')
            return 0;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p != '\0')
        return 0;
    errno = 0;
    char *end;
    double x = strtod(s, &end);
    if (*end != '\0' || !isfinite(x) || errno == ERANGE)
        return 0;
    *v = x;
    return 1;
}

/* Decimal integer in [lo, hi] -> 1 and *v; 0 otherwise. */
static int integer_in(const char *s, double lo, double hi, double *v)
{
    uint64_t u;
    if (!args_digits(s, &u) || (double)u < lo || (double)u > hi)
        return 0;
    *v = (double)u;
    return 1;
}

#define ROW_FAIL(...)                                                                     \
    do {                                                                                  \
        char m_[200];                                                                     \
        snprintf(m_, sizeof m_, __VA_ARGS__);                                             \
        ar_error_set("%s:%zu: %s", name, lineno, m_);                                     \
        return AR_EINVAL;                                                                 \
    } while (0)

/* One data row (NUL-terminated, no '\n'). */
static ar_status parse_row(table_t *t, char *line, const char *name, size_t lineno)
{
    char *f[TABLE_NF + 1];
    size_t nf = 0;
    for (char *p = line; p && nf <= TABLE_NF;) {
        f[nf++] = p;
        char *tab = strchr(p, '\t');
        if (tab)
            *tab = '\0';
        p = tab ? tab + 1 : NULL;
    }
    if (nf != TABLE_NF)
        ROW_FAIL("expected %d tab-separated fields of 'attnrank scale --format tsv', got %s%zu", TABLE_NF,
                 nf > TABLE_NF ? "more than " : "", nf > TABLE_NF ? (size_t)TABLE_NF : nf);
    for (size_t k = 0; k < nf; k++)
        if (f[k][0] == '\0')
            ROW_FAIL("field %zu (%s) is empty", k + 1, field_names[k]);
    double d, beta, n, lo, lp, up, co, law;
    if (!integer_in(f[0], 2, TABLE_MAXD - 1, &d))
        ROW_FAIL("field 1 (d) must be an integer in [2, %d]", TABLE_MAXD - 1);
    if (!plain_number(f[1], &beta) || !(beta >= 0 && beta <= TABLE_MAX_BETA))
        ROW_FAIL("field 2 (beta) must be a plain decimal number in [0, %g]", TABLE_MAX_BETA);
    if (!integer_in(f[2], 0, TABLE_MAX_RANK, &n))   /* 0: no dense instance */
        ROW_FAIL("field 3 (n) must be a non-negative integer");
    if (!integer_in(f[3], 1, TABLE_MAX_RANK, &lo))
        ROW_FAIL("field 4 (lower) must be an integer in [1, 2^53]");
    if (!integer_in(f[4], 0, TABLE_MAX_RANK, &lp))
        ROW_FAIL("field 5 (lower_points) must be a non-negative integer");
    if (!integer_in(f[6], 0, TABLE_MAX_RANK, &up))
        ROW_FAIL("field 7 (upper) must be an integer in [0, 2^53]");
    if (!integer_in(f[9], 0, TABLE_MAX_RANK, &co))
        ROW_FAIL("field 10 (continuum) must be an integer in [0, 2^53]");
    double want = pow(1.0 + beta, 0.5 * (d - 1));
    if (!plain_number(f[11], &law) || !(law > 0) || !(fabs(law - want) <= 1e-5 * want))
        ROW_FAIL("field 12 (law) must be (1+beta)^((d-1)/2) = %.6g", want);
    int di = (int)d;
    if (t->cnt[di] >= TABLE_MAXROWS)
        ROW_FAIL("more than %d rows for d = %d", TABLE_MAXROWS, di);
    t->rows[di][t->cnt[di]++] = (table_row_t){ 1 + beta, lo, up, co, law };
    t->used++;
    return AR_OK;
}

ar_status table_parse(table_t *t, const char *buf, size_t len, const char *name)
{
    char line[TABLE_MAX_LINE + 1];
    size_t lineno = 0;
    for (size_t pos = 0; pos < len;) {
        lineno++;
        const char *nl = memchr(buf + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - buf) : len, ll = end - pos;
        if (ll > TABLE_MAX_LINE)
            ROW_FAIL("line longer than %d bytes", TABLE_MAX_LINE);
        memcpy(line, buf + pos, ll);
        line[ll] = '\0';
        pos = end + 1;
        if (ll > 0 && line[ll - 1] == '\r')
            line[--ll] = '\0';
        for (size_t k = 0; k < ll; k++) {
            unsigned char ch = (unsigned char)line[k];
            if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
                ROW_FAIL("control byte 0x%02x in column %zu", ch, k + 1);
        }
        if (ll == 0 || line[0] == '#')
            continue;
        if (strncmp(line, "d\t", 2) == 0) {
            if (strcmp(line, table_header) != 0)
                ROW_FAIL("not the header of 'attnrank scale --format tsv'");
            continue;
        }
        ar_status st = parse_row(t, line, name, lineno);
        if (st)
            return st;
    }
    return AR_OK;
}

ar_status table_read(table_t *t, const char *path)
{
    FILE *f;
    ar_status ost = infile_open(path, "table of 'attnrank scale --format tsv'", INFILE_ANY, &f, NULL);
    if (ost != AR_OK)
        return ost;
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fclose(f);
        ar_error_set("%s: is a directory (expected a table of 'attnrank scale --format tsv')", path);
        return AR_EINVAL;
    }
    char *buf = malloc(TABLE_MAX_BYTES + 1);
    if (!buf) {
        fclose(f);
        ar_error_set("%s: out of memory reading the table", path);
        return AR_ENOMEM;
    }
    size_t len = fread(buf, 1, TABLE_MAX_BYTES + 1, f);
    int bad = ferror(f);
    fclose(f);
    ar_status st = AR_OK;
    if (bad) {
        ar_error_set("%s: read error", path);
        st = AR_EIO;
    } else if (len > TABLE_MAX_BYTES) {
        ar_error_set("%s: larger than %u bytes (not a table of 'attnrank scale')", path, TABLE_MAX_BYTES);
        st = AR_EINVAL;
    } else {
        size_t before = t->used;
        st = table_parse(t, buf, len, path);
        if (st == AR_OK && t->used == before) {
            ar_error_set("%s: no data rows", path);
            st = AR_EINVAL;
        }
    }
    free(buf);
    return st;
}
