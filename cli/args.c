/* SPDX-License-Identifier: GPL-3.0-or-later */
/* args.c -- strict option parsing and number conversion. */
#include "cli/args.h"
#include "base/parse.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

ar_status args_parse(int argc, char **argv, int first, opt_t *opts, size_t nopts, const char *cmd)
{
    for (size_t k = 0; k < nopts; k++)
        opts[k].value = NULL;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
            ar_error_set("%s: unexpected argument '%s' (see 'attnrank %s --help')", cmd, a, cmd);
            return AR_EINVAL;
        }
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        opt_t *o = NULL;
        for (size_t k = 0; k < nopts; k++)
            if (strlen(opts[k].name) == len && strncmp(opts[k].name, name, len) == 0)
                o = &opts[k];
        if (!o) {
            ar_error_set("%s: unknown option '--%.*s' (see 'attnrank %s --help')", cmd, (int)len, name, cmd);
            return AR_EINVAL;
        }
        if (o->value) {
            ar_error_set("%s: option '--%s' given twice", cmd, o->name);
            return AR_EINVAL;
        }
        if (!o->has_arg) {
            if (eq) {
                ar_error_set("%s: option '--%s' takes no value", cmd, o->name);
                return AR_EINVAL;
            }
            o->value = "1";
        } else if (eq) {
            o->value = eq + 1;
        } else {
            if (i + 1 >= argc) {
                ar_error_set("%s: option '--%s' needs a value", cmd, o->name);
                return AR_EINVAL;
            }
            o->value = argv[++i];
        }
    }
    return AR_OK;
}

const char *args_get(const opt_t *opts, size_t nopts, const char *name)
{
    for (size_t k = 0; k < nopts; k++)
        if (strcmp(opts[k].name, name) == 0)
            return opts[k].value;
    return NULL;
}

/* A printable one-line copy of (the start of) s for messages: bytes outside
 * 0x20..0x7e as \xHH, "..." when cut. */
static void args_show(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    const char *p = s ? s : "";
    for (; *p && k + 8 < cap; p++) {
        unsigned char ch = (unsigned char)*p;
        k += (size_t)snprintf(out + k, cap - k, ch >= 0x20 && ch < 0x7f ? "%c" : "\\x%02x", ch);
    }
    snprintf(out + k, cap - k, "%s", *p ? "..." : "");
}

ar_status args_double(const char *opt, const char *s, double *out)
{
    parse_real_t r = parse_real(s, out);
    if (r != PARSE_OK) {
        char shown[64];
        args_show(s, shown, sizeof shown);
        ar_error_set("--%s: '%s' %s", opt, shown, parse_real_reason(r));
        return AR_EINVAL;
    }
    return AR_OK;
}

int args_digits(const char *s, uint64_t *v)
{
    return parse_digits(s, v);
}

ar_status args_split(const char *opt, char *buf, char **items, size_t max, size_t *n)
{
    *n = 0;
    for (char *p = buf;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (*p == '\0') {
            ar_error_set("--%s: empty item in the comma-separated list (write values separated by single "
                         "commas, e.g. 0.05,0.1)", opt);
            return AR_EINVAL;
        }
        if (*n == max) {
            ar_error_set("--%s: at most %zu values", opt, max);
            return AR_EINVAL;
        }
        items[(*n)++] = p;
        if (!comma)
            return AR_OK;
        p = comma + 1;
    }
}

ar_status args_double_list(const char *opt, const char *s, double *v, size_t max, size_t *n)
{
    char buf[512], *items[ARGS_LIST_MAX];
    if (strlen(s) >= sizeof buf || max > ARGS_LIST_MAX) {
        ar_error_set("--%s: list too long (at most %zu characters)", opt, sizeof buf - 1);
        return AR_EINVAL;
    }
    strcpy(buf, s);
    size_t k;
    ar_status st = args_split(opt, buf, items, max, &k);
    for (size_t i = 0; st == AR_OK && i < k; i++)
        st = args_double(opt, items[i], &v[i]);
    if (st == AR_OK)
        *n = k;
    return st;
}

ar_status args_uint(const char *opt, const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    uint64_t v = 0;
    if (!args_digits(s, &v)) {
        char shown[64];
        args_show(s, shown, sizeof shown);
        ar_error_set("--%s: '%s' is not a decimal integer in [%llu, %llu]", opt, shown, (unsigned long long)lo,
                     (unsigned long long)hi);
        return AR_EINVAL;
    }
    if (v < lo || v > hi) {
        ar_error_set("--%s: %llu is outside [%llu, %llu]", opt, (unsigned long long)v, (unsigned long long)lo,
                     (unsigned long long)hi);
        return AR_EINVAL;
    }
    *out = v;
    return AR_OK;
}

ar_status args_size(const char *opt, const char *s, size_t lo, size_t hi, size_t *out)
{
    uint64_t v;
    ar_status st = args_uint(opt, s, lo, hi, &v);
    if (st == AR_OK)
        *out = (size_t)v;
    return st;
}

ar_status args_u64(const char *opt, const char *s, uint64_t *out)
{
    return args_uint(opt, s, 0, UINT64_MAX, out);
}

ar_status args_beta(const char *s, double *beta)
{
    if (!s) {
        ar_error_set("--beta is required");
        return AR_EINVAL;
    }
    if (args_double("beta", s, beta))
        return AR_EINVAL;
    if (*beta < 0) {
        ar_error_set("--beta: must be >= 0, got %s", s);
        return AR_EINVAL;
    }
    return AR_OK;
}

ar_status args_eps(const char *s, double *eps)
{
    if (!s) {
        ar_error_set("--eps is required");
        return AR_EINVAL;
    }
    if (args_double("eps", s, eps))
        return AR_EINVAL;
    if (!(*eps > 0 && *eps < 1)) {
        ar_error_set("--eps: must be strictly between 0 and 1, got %s", s);
        return AR_EINVAL;
    }
    return AR_OK;
}

/* The --format names, in the order the messages list them. */
static const char *const format_names[] = { [FMT_TEXT] = "text", [FMT_MD] = "md", [FMT_TSV] = "tsv",
                                            [FMT_JSON] = "json" };
static const out_format_t format_order[] = { FMT_TEXT, FMT_MD, FMT_TSV, FMT_JSON };

ar_status args_format_in(const char *s, unsigned allowed, out_format_t *f)
{
    size_t n = sizeof format_order / sizeof format_order[0];
    if (!s) {
        *f = allowed & FMT_BIT(FMT_TEXT) ? FMT_TEXT : FMT_MD;
        return AR_OK;
    }
    for (size_t i = 0; i < n; i++)
        if ((allowed & FMT_BIT(format_order[i])) && strcmp(s, format_names[format_order[i]]) == 0) {
            *f = format_order[i];
            return AR_OK;
        }
    char list[64] = "";
    size_t k = 0, m = 0;
    for (size_t i = 0; i < n; i++)
        m += (allowed & FMT_BIT(format_order[i])) != 0;
    for (size_t i = 0; i < n; i++) {
        if (!(allowed & FMT_BIT(format_order[i])))
            continue;
        k++;
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s", k == 1 ? "" : k == m ? " or " : ", ",
                 format_names[format_order[i]]);
    }
    ar_error_set("--format: expected %s, got '%s'", list, s);
    return AR_EINVAL;
}

ar_status args_format(const char *s, out_format_t *f)
{
    return args_format_in(s, FMT_BIT(FMT_TEXT) | FMT_BIT(FMT_TSV) | FMT_BIT(FMT_JSON), f);
}

ar_status args_beta_grid(const char *s, size_t max_count, double *lo, double *hi, size_t *count)
{
    char buf[128];
    if (!s || strlen(s) >= sizeof buf) {
        ar_error_set("--beta: expected LO:HI:COUNT");
        return AR_EINVAL;
    }
    strcpy(buf, s);
    char *c1 = strchr(buf, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2) {
        ar_error_set("--beta: expected LO:HI:COUNT, got '%s'", s);
        return AR_EINVAL;
    }
    *c1 = *c2 = '\0';
    ar_status st;
    if ((st = args_beta(buf, lo)) || (st = args_beta(c1 + 1, hi)) ||
        (st = args_size("beta COUNT", c2 + 1, 1, max_count, count)))
        return st;
    if (*hi < *lo) {
        ar_error_set("--beta: need LO <= HI");
        return AR_EINVAL;
    }
    if (*count > 1 && *lo == 0) {
        ar_error_set("--beta: a geometric grid needs LO > 0");
        return AR_EINVAL;
    }
    return AR_OK;
}

ar_status args_prec_threads(const opt_t *o, size_t no, long *prec, int *threads)
{
    size_t v;
    ar_status st;
    if (args_get(o, no, "prec")) {
        if ((st = args_size("prec", args_get(o, no, "prec"), 53, 4096, &v)))
            return st;
        *prec = (long)v;
    }
    if (args_get(o, no, "threads")) {
        if ((st = args_size("threads", args_get(o, no, "threads"), 1, 64, &v)))
            return st;
        *threads = (int)v;
    }
    return AR_OK;
}
