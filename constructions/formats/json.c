/* json.c -- strict recursive-descent JSON reader (see json.h). */
#include "constructions/formats/json.h"
#include "numerics/infile.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

typedef struct {
    const char *s;
    size_t n, i;
    const char *what;
} jp_t;

static ar_status jp_fail(const jp_t *p, const char *msg)
{
    ar_error_set("%s: invalid JSON at byte %zu: %s", p->what, p->i, msg);
    return AR_EINVAL;
}

static void jp_ws(jp_t *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' ||
                           p->s[p->i] == '\r'))
        p->i++;
}

static ar_status jp_value(jp_t *p, json_t *v, int depth);

/* Append one code point as UTF-8 to buf (capacity ensured by the caller). */
static size_t utf8_put(char *buf, uint32_t c)
{
    if (c < 0x80) { buf[0] = (char)c; return 1; }
    if (c < 0x800) { buf[0] = (char)(0xC0 | (c >> 6)); buf[1] = (char)(0x80 | (c & 0x3F)); return 2; }
    if (c < 0x10000) {
        buf[0] = (char)(0xE0 | (c >> 12)); buf[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        buf[2] = (char)(0x80 | (c & 0x3F)); return 3;
    }
    buf[0] = (char)(0xF0 | (c >> 18)); buf[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    buf[2] = (char)(0x80 | ((c >> 6) & 0x3F)); buf[3] = (char)(0x80 | (c & 0x3F)); return 4;
}

static int jp_hex4(jp_t *p, uint32_t *c)
{
    if (p->n - p->i < 4)
        return 0;
    uint32_t x = 0;
    for (int k = 0; k < 4; k++) {
        char h = p->s[p->i + k];
        x <<= 4;
        if (h >= '0' && h <= '9') x |= (uint32_t)(h - '0');
        else if (h >= 'a' && h <= 'f') x |= (uint32_t)(h - 'a' + 10);
        else if (h >= 'A' && h <= 'F') x |= (uint32_t)(h - 'A' + 10);
        else return 0;
    }
    p->i += 4;
    *c = x;
    return 1;
}

/* p->i at the opening quote. The decoded string is never longer than the raw one. */
static ar_status jp_string(jp_t *p, char **out, size_t *outlen)
{
    p->i++;
    size_t start = p->i, end = start;
    while (end < p->n && p->s[end] != '"') {
        if (p->s[end] == '\\')
            end++;
        end++;
    }
    if (end >= p->n)
        return jp_fail(p, "unterminated string");
    char *buf = ar_calloc(end - start + 1, 1, "JSON string");
    if (!buf)
        return AR_ENOMEM;
    size_t k = 0;
    while (p->i < end) {
        unsigned char c = (unsigned char)p->s[p->i];
        if (c < 0x20) { free(buf); return jp_fail(p, "control character in string"); }
        if (c != '\\') { buf[k++] = (char)c; p->i++; continue; }
        p->i++;
        char e = p->s[p->i++];
        uint32_t cp;
        switch (e) {
        case '"': buf[k++] = '"'; break;
        case '\\': buf[k++] = '\\'; break;
        case '/': buf[k++] = '/'; break;
        case 'b': buf[k++] = '\b'; break;
        case 'f': buf[k++] = '\f'; break;
        case 'n': buf[k++] = '\n'; break;
        case 'r': buf[k++] = '\r'; break;
        case 't': buf[k++] = '\t'; break;
        case 'u':
            if (!jp_hex4(p, &cp)) { free(buf); return jp_fail(p, "bad \\u escape"); }
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                uint32_t lo;
                if (p->i + 2 > end || p->s[p->i] != '\\' || p->s[p->i + 1] != 'u') {
                    free(buf); return jp_fail(p, "unpaired surrogate");
                }
                p->i += 2;
                if (!jp_hex4(p, &lo) || lo < 0xDC00 || lo > 0xDFFF) {
                    free(buf); return jp_fail(p, "unpaired surrogate");
                }
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                free(buf); return jp_fail(p, "unpaired surrogate");
            }
            if (cp == 0) { free(buf); return jp_fail(p, "NUL character in string"); }
            k += utf8_put(buf + k, cp);
            break;
        default:
            free(buf);
            return jp_fail(p, "invalid escape");
        }
    }
    if (p->i != end) { free(buf); return jp_fail(p, "malformed escape at end of string"); }
    p->i = end + 1;
    buf[k] = '\0';
    *out = buf;
    *outlen = k;
    return AR_OK;
}

static ar_status jp_number(jp_t *p, json_t *v)
{
    size_t j = p->i;
    if (j < p->n && p->s[j] == '-') j++;
    if (j >= p->n) return jp_fail(p, "bad number");
    if (p->s[j] == '0') j++;
    else if (p->s[j] >= '1' && p->s[j] <= '9') { while (j < p->n && p->s[j] >= '0' && p->s[j] <= '9') j++; }
    else return jp_fail(p, "bad number");
    if (j < p->n && p->s[j] == '.') {
        j++;
        if (j >= p->n || p->s[j] < '0' || p->s[j] > '9') return jp_fail(p, "bad fraction");
        while (j < p->n && p->s[j] >= '0' && p->s[j] <= '9') j++;
    }
    if (j < p->n && (p->s[j] == 'e' || p->s[j] == 'E')) {
        j++;
        if (j < p->n && (p->s[j] == '+' || p->s[j] == '-')) j++;
        if (j >= p->n || p->s[j] < '0' || p->s[j] > '9') return jp_fail(p, "bad exponent");
        while (j < p->n && p->s[j] >= '0' && p->s[j] <= '9') j++;
    }
    char tmp[128];
    if (j - p->i >= sizeof tmp) return jp_fail(p, "number too long");
    memcpy(tmp, p->s + p->i, j - p->i);
    tmp[j - p->i] = '\0';
    errno = 0;
    double x = strtod(tmp, NULL);
    if (!isfinite(x)) return jp_fail(p, "number out of range");
    v->type = JSON_NUMBER;
    v->number = x;
    p->i = j;
    return AR_OK;
}

static int jp_lit(jp_t *p, const char *lit)
{
    size_t L = strlen(lit);
    if (p->n - p->i < L || memcmp(p->s + p->i, lit, L) != 0)
        return 0;
    p->i += L;
    return 1;
}

/* Grow a (items, keys) pair to hold at least need entries. */
static ar_status jp_grow(json_t *v, size_t *cap, size_t need, int with_keys)
{
    if (need <= *cap)
        return AR_OK;
    size_t nc = *cap ? 2 * *cap : 8;
    json_t *it = realloc(v->items, nc * sizeof *it);
    if (!it) { ar_error_set("out of memory reading JSON"); return AR_ENOMEM; }
    memset(it + *cap, 0, (nc - *cap) * sizeof *it);
    v->items = it;
    if (with_keys) {
        char **ks = realloc(v->keys, nc * sizeof *ks);
        if (!ks) { ar_error_set("out of memory reading JSON"); return AR_ENOMEM; }
        memset(ks + *cap, 0, (nc - *cap) * sizeof *ks);
        v->keys = ks;
    }
    *cap = nc;
    return AR_OK;
}

static ar_status jp_container(jp_t *p, json_t *v, int depth, int is_obj)
{
    if (depth >= JSON_MAX_DEPTH)
        return jp_fail(p, "nesting too deep");
    char close = is_obj ? '}' : ']';
    v->type = is_obj ? JSON_OBJECT : JSON_ARRAY;
    size_t cap = 0;
    p->i++;
    jp_ws(p);
    if (p->i < p->n && p->s[p->i] == close) { p->i++; return AR_OK; }
    for (;;) {
        ar_status st = jp_grow(v, &cap, v->len + 1, is_obj);
        if (st) return st;
        if (is_obj) {
            jp_ws(p);
            if (p->i >= p->n || p->s[p->i] != '"') return jp_fail(p, "expected a key");
            size_t kl;
            st = jp_string(p, &v->keys[v->len], &kl);
            if (st) return st;
            jp_ws(p);
            if (p->i >= p->n || p->s[p->i] != ':') { v->len++; return jp_fail(p, "expected ':'"); }
            p->i++;
        }
        v->len++;
        st = jp_value(p, &v->items[v->len - 1], depth + 1);
        if (st) return st;
        jp_ws(p);
        if (p->i >= p->n) return jp_fail(p, "unterminated container");
        if (p->s[p->i] == ',') { p->i++; continue; }
        if (p->s[p->i] == close) { p->i++; return AR_OK; }
        return jp_fail(p, is_obj ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static ar_status jp_value(jp_t *p, json_t *v, int depth)
{
    jp_ws(p);
    if (p->i >= p->n)
        return jp_fail(p, "unexpected end of input");
    char c = p->s[p->i];
    if (c == '{') return jp_container(p, v, depth, 1);
    if (c == '[') return jp_container(p, v, depth, 0);
    if (c == '"') { v->type = JSON_STRING; return jp_string(p, &v->str, &v->len); }
    if (c == '-' || (c >= '0' && c <= '9')) return jp_number(p, v);
    if (jp_lit(p, "true")) { v->type = JSON_BOOL; v->boolean = 1; return AR_OK; }
    if (jp_lit(p, "false")) { v->type = JSON_BOOL; v->boolean = 0; return AR_OK; }
    if (jp_lit(p, "null")) { v->type = JSON_NULL; return AR_OK; }
    return jp_fail(p, "unexpected character");
}

ar_status json_parse(const char *buf, size_t n, const char *what, json_t *out)
{
    memset(out, 0, sizeof *out);
    if (!buf || memchr(buf, '\0', n)) {
        ar_error_set("%s: invalid JSON: NUL byte in input", what);
        return AR_EINVAL;
    }
    jp_t p = { buf, n, 0, what };
    ar_status st = jp_value(&p, out, 0);
    if (st == AR_OK) {
        jp_ws(&p);
        if (p.i != n)
            st = jp_fail(&p, "trailing data");
    }
    if (st)
        json_free(out);
    return st;
}

ar_status json_read_file(const char *path, size_t max_bytes, json_t *out)
{
    memset(out, 0, sizeof *out);
    FILE *f;
    ar_status ost = infile_open(path, "JSON file", INFILE_REGULAR, &f, NULL);
    if (ost != AR_OK)
        return ost;
    if (fseek(f, 0, SEEK_END) != 0) { fclose(f); ar_error_set("%s: cannot seek", path); return AR_EIO; }
    long sz = ftell(f);
    if (sz < 0 || fseek(f, 0, SEEK_SET) != 0) { fclose(f); ar_error_set("%s: cannot read size", path); return AR_EIO; }
    if ((size_t)sz > max_bytes) {
        fclose(f);
        ar_error_set("%s: file too large (%ld bytes, limit %zu)", path, sz, max_bytes);
        return AR_EINVAL;
    }
    char *buf = ar_calloc((size_t)sz + 1, 1, path);
    if (!buf) { fclose(f); return AR_ENOMEM; }
    size_t got = fread(buf, 1, (size_t)sz, f);
    fclose(f);
    if (got != (size_t)sz) { free(buf); ar_error_set("%s: short read", path); return AR_EIO; }
    ar_status st = json_parse(buf, got, path, out);
    free(buf);
    return st;
}

void json_free(json_t *v)
{
    if (!v)
        return;
    free(v->str);
    if (v->items)
        for (size_t i = 0; i < v->len; i++)
            json_free(&v->items[i]);
    if (v->keys)
        for (size_t i = 0; i < v->len; i++)
            free(v->keys[i]);
    free(v->items);
    free(v->keys);
    memset(v, 0, sizeof *v);
}

const json_t *json_get(const json_t *v, const char *key)
{
    if (!v || v->type != JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < v->len; i++)
        if (v->keys[i] && strcmp(v->keys[i], key) == 0)
            return &v->items[i];
    return NULL;
}
