/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_shardfile.c -- shard files (constructions/formats/shardfile.h):
 * written and read back with every double exact, the end record's count
 * and SHA-256 checked (truncated, corrupted, data after the end, empty
 * lines, duplicate points, bad headers refused with one line naming the
 * file and line), a .partial file read up to its first bad line, and the
 * set checks (versions, precision, parameters, plan, shard twice or
 * missing, points in the wrong shard or twice, missing points). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include "constructions/formats/shardfile.h"
#include "base/sha256.h"

static char dir[64];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/attnrank-shardfile-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static json_t *header(size_t k, size_t n, const char *commit)
{
    return json_pack("{s:s,s:i,s:i,s:s,s:{s:s},s:s,s:{s:s,s:s}}", "sweep", "test", "shard", (int)k, "shards", (int)n,
                     "plan", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "params", "a", "b",
                     "precision", "p53", "provenance", "attnrank", "0.1.0", "commit", commit);
}

/* Write shard k of n with points ids[0..np) (value x = 1/(i+3)) into name; returns the path (static). */
static const char *write_shard(const char *name, size_t k, size_t n, const char *const *ids, size_t np,
                               const char *commit)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    shardfile_writer_t *w;
    json_t *h = header(k, n, commit);
    ck_assert_int_eq(shardfile_begin(path, h, NULL, &w), AR_OK);
    json_decref(h);
    for (size_t i = 0; i < np; i++) {
        json_t *r = json_pack("{s:s}", "point", ids[i]);
        shardrec_set_real(r, "x", 1.0 / (double)(i + 3));
        shardrec_set_real(r, "nan", NAN);
        ck_assert_int_eq(shardfile_put(w, r), AR_OK);
        json_decref(r);
    }
    ck_assert_int_eq(shardfile_end(w), AR_OK);
    return path;
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    static char buf[1 << 16];
    *n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return buf;
}

static void refused(const char *buf, size_t n, int complete, const char *needle)
{
    shardfile_t f;
    ck_assert_msg(shardfile_parse(buf, n, "F.jsonl", complete, NULL, &f) == AR_EINVAL, "accepted: %.*s", (int)n, buf);
    ck_assert_msg(strstr(ar_error_get(), needle) && strstr(ar_error_get(), "F.jsonl"), "[%s] lacks '%s'",
                  ar_error_get(), needle);
    ck_assert_ptr_null(f.header);
}

START_TEST(roundtrip_and_refusals)
{
    const char *ids[] = { "p/0", "p/1", "p/2" };
    const char *path = write_shard("s.jsonl", 1, 2, ids, 3, "c1");
    char partial[160];
    snprintf(partial, sizeof partial, "%s.partial", path);
    ck_assert(access(partial, F_OK) != 0);   /* renamed when complete */
    shardfile_t f;
    ck_assert_int_eq(shardfile_read(path, 1, NULL, &f), AR_OK);
    ck_assert(f.nrec == 3 && f.shard == 1 && f.shards == 2 && !strcmp(f.sweep, "test"));
    for (size_t i = 0; i < 3; i++) {
        double x, y;
        ck_assert_int_eq(shardrec_real(f.rec[i], "x", 0, "w", &x), AR_OK);
        ck_assert_int_eq(shardrec_real(f.rec[i], "nan", 1, "w", &y), AR_OK);
        ck_assert(x == 1.0 / (double)(i + 3) && isnan(y));
        ck_assert_uint_eq(f.line[i], i + 2);
    }
    size_t sz;
    ck_assert_int_eq(shardrec_size(f.rec[0], "x", 10, "w", &sz), AR_EINVAL);
    shardfile_clear(&f);
    size_t n;
    char *buf = slurp(path, &n);
    char *b2 = malloc(n + 64);
    /* truncated anywhere: refused; the partial reading keeps the whole lines */
    for (size_t cut = 0; cut < n; cut += 7) {
        refused(buf, cut, 1, cut == 0 ? "empty" : "truncated");
        if (cut > (size_t)(strchr(buf, '\n') - buf)) {
            ck_assert_int_eq(shardfile_parse(buf, cut, "F.jsonl", 0, NULL, &f), AR_OK);
            ck_assert_uint_le(f.nrec, 3);
            shardfile_clear(&f);
        }
    }
    /* a digit changed inside a record: still JSON, but corrupted */
    memcpy(b2, buf, n);
    char *x = strstr(b2, "\"x\":0.3");
    ck_assert_ptr_nonnull(x);
    x[6] = '4';
    refused(b2, n, 1, "corrupted");
    /* data after the end record; an empty line; not JSON; a duplicate point */
    memcpy(b2, buf, n);
    memcpy(b2 + n, "{\"point\":\"q\"}\n", 14);
    refused(b2, n + 14, 1, "after the end record");
    const char *second = strchr(buf, '\n') + 1;
    size_t hl = (size_t)(second - buf);
    memcpy(b2, buf, hl);
    b2[hl] = '\n';
    memcpy(b2 + hl + 1, second, n - hl);
    refused(b2, n + 1, 1, "empty line");
    memcpy(b2 + hl, "nonsense\n", 9);
    memcpy(b2 + hl + 9, second, n - hl);
    refused(b2, n + 9, 1, "invalid JSON");
    /* the same point twice, with a consistent end record */
    char dup[4096];
    const char *l2 = strchr(second, '\n') + 1;
    size_t o = 0;
    memcpy(dup + o, buf, (size_t)(l2 - buf));
    o += (size_t)(l2 - buf);
    memcpy(dup + o, second, (size_t)(l2 - second));
    o += (size_t)(l2 - second);
    char hex[65];
    sha256_hex(dup, o, hex);
    o += (size_t)snprintf(dup + o, sizeof dup - o, "{\"end\":true,\"records\":2,\"sha256\":\"%s\"}\n", hex);
    refused(dup, o, 1, "present twice");
    /* headers */
    const char *hb[] = { "{\"point\":\"a\"}\n", "{\"attnrank_shard\":2,\"sweep\":\"t\"}\n",
                         "{\"attnrank_shard\":1,\"sweep\":\"t\",\"shard\":2,\"shards\":2,\"plan\":\"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\",\"params\":1,\"precision\":1,\"provenance\":{}}\n",
                         "{\"attnrank_shard\":1,\"sweep\":\"t\",\"shard\":0,\"shards\":2,\"plan\":\"xyz\",\"params\":1,\"precision\":1,\"provenance\":{}}\n",
                         "[1,2]\n" };
    const char *hn[] = { "not a shard file", "format", "shard 2 of 2", "plan", "not a JSON object" };
    for (size_t i = 0; i < sizeof hb / sizeof hb[0]; i++)
        refused(hb[i], strlen(hb[i]), 1, hn[i]);
    free(b2);
}
END_TEST

START_TEST(sets)
{
    const char *ids[] = { "a", "b", "c", "d" };
    size_t owner[] = { 0, 1, 0, 1 };
    const char *a[] = { "a", "c" }, *b[] = { "b", "d" }, *bx[] = { "b", "d", "c" }, *bm[] = { "b" };
    char p0[128], p1[128], p1c[128], p1x[128], p1m[128], p0b[128];
    snprintf(p0, sizeof p0, "%s", write_shard("0.jsonl", 0, 2, a, 2, "c1"));
    snprintf(p1, sizeof p1, "%s", write_shard("1.jsonl", 1, 2, b, 2, "c1"));
    snprintf(p1c, sizeof p1c, "%s", write_shard("1c.jsonl", 1, 2, b, 2, "c2"));
    snprintf(p1x, sizeof p1x, "%s", write_shard("1x.jsonl", 1, 2, bx, 3, "c1"));
    snprintf(p1m, sizeof p1m, "%s", write_shard("1m.jsonl", 1, 2, bm, 1, "c1"));
    snprintf(p0b, sizeof p0b, "%s", write_shard("0b.jsonl", 0, 2, a, 2, "c1"));
    shardfile_t f[3];
    const json_t *rec[4];
#define READ(i, p) ck_assert_int_eq(shardfile_read(p, 1, NULL, &f[i]), AR_OK)
#define CLEAR(n) for (size_t q = 0; q < (n); q++) shardfile_clear(&f[q])
    READ(0, p0); READ(1, p1);
    ck_assert_int_eq(shardset_check(f, 2), AR_OK);
    ck_assert_int_eq(shardset_collect(f, 2, ids, owner, 4, rec), AR_OK);
    ck_assert(rec[3] == f[1].rec[1] && rec[2] == f[0].rec[1]);
    ck_assert_int_eq(shardset_check(f, 1), AR_EINVAL);
    ck_assert(strstr(ar_error_get(), "shard 1/2 missing"));
    CLEAR(2);
    READ(0, p0); READ(1, p1c);
    ck_assert_int_eq(shardset_check(f, 2), AR_EINVAL);
    ck_assert(strstr(ar_error_get(), "another version: commit c2") && strstr(ar_error_get(), "1c.jsonl"));
    CLEAR(2);
    READ(0, p0); READ(1, p0b);
    ck_assert_int_eq(shardset_check(f, 2), AR_EINVAL);
    ck_assert(strstr(ar_error_get(), "given twice"));
    CLEAR(2);
    READ(0, p0); READ(1, p1x);
    ck_assert_int_eq(shardset_check(f, 2), AR_OK);
    ck_assert_int_eq(shardset_collect(f, 2, ids, owner, 4, rec), AR_EINVAL);
    ck_assert(strstr(ar_error_get(), "present twice") || strstr(ar_error_get(), "belongs to shard 0/2"));
    CLEAR(2);
    READ(0, p0); READ(1, p1m);
    ck_assert_int_eq(shardset_collect(f, 2, ids, owner, 4, rec), AR_EINVAL);
    ck_assert(strstr(ar_error_get(), "incomplete: point 'd'") && strstr(ar_error_get(), "1m.jsonl"));
    CLEAR(2);
#undef READ
#undef CLEAR
}
END_TEST

/* Keys: a keyed file reads back under its key, and without one (keyed = 1);
 * another key, a missing HMAC, an HMAC that is not hex are refused; the
 * record strings' classes; the output target checks; a planted PATH.partial
 * symbolic link is removed, never written through. */
START_TEST(keys_strings_targets)
{
    char kp[128], path[128], victim[128], lnk[160];
    snprintf(kp, sizeof kp, "%s/key", dir);
    FILE *f = fopen(kp, "wb");
    fputs("0123456789abcdef-key", f);
    fclose(f);
    shardfile_key_t key, other;
    ck_assert_int_eq(shardfile_key_load(kp, &key), AR_OK);
    ck_assert_uint_eq(key.len, 20);
    other = key;
    other.bytes[0] ^= 1;
    snprintf(path, sizeof path, "%s/k.jsonl", dir);
    shardfile_writer_t *w;
    json_t *h = header(0, 1, "abc");
    ck_assert_int_eq(shardfile_begin(path, h, &key, &w), AR_OK);
    json_decref(h);
    json_t *r = json_pack("{s:s}", "point", "p0");
    ck_assert_int_eq(shardfile_put(w, r), AR_OK);
    json_decref(r);
    ck_assert_int_eq(shardfile_end(w), AR_OK);
    shardfile_t g;
    ck_assert_int_eq(shardfile_read(path, 1, &key, &g), AR_OK);
    ck_assert_int_eq(g.keyed, 1);
    shardfile_clear(&g);
    ck_assert_int_eq(shardfile_read(path, 1, NULL, &g), AR_OK);
    ck_assert_int_eq(g.keyed, 1);
    shardfile_clear(&g);
    ck_assert_int_eq(shardfile_read(path, 1, &other, &g), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "not the shard key's"));
    const char *plain = write_shard("p.jsonl", 0, 1, (const char *[]){ "a" }, 1, "abc");
    ck_assert_int_eq(shardfile_read(plain, 1, &key, &g), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "no HMAC"));
    size_t n;
    char *b = slurp(plain, &n);
    char *e = strstr(b, "{\"end\"");
    char bad[4096];
    snprintf(bad, sizeof bad, "%.*s%.*s,\"hmac\":\"XYZ\"}\n", (int)(e - b), b, (int)(strchr(e, '}') - e), e);
    ck_assert_int_eq(shardfile_parse(bad, strlen(bad), "F", 1, NULL, &g), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "malformed end record"));
    snprintf(kp, sizeof kp, "%s/short", dir);
    f = fopen(kp, "wb");
    fputs("short", f);
    fclose(f);
    ck_assert_int_eq(shardfile_key_load(kp, &other), AR_EINVAL);
    /* the classes of record strings */
    ck_assert(shardrec_text_ok("lattice h=0.359/diagdom", SHARDREC_NAME));
    ck_assert(shardrec_text_ok("shells-continuum Q=3 L=23", SHARDREC_NAME));
    ck_assert(shardrec_text_ok("", SHARDREC_NAME));
    const char *notname[] = { " lead", "trail ", "a|b", "a\tb", "a\nb", "a\"b", "a\\b", "\x1b[2J", "caf\xc3\xa9", "a<b" };
    for (size_t i = 0; i < sizeof notname / sizeof notname[0]; i++)
        ck_assert_msg(!shardrec_text_ok(notname[i], SHARDREC_NAME), "name '%s' accepted", notname[i]);
    ck_assert(shardrec_text_ok("shells rho0=0.866: N = 10^1.5 points; n >= e^{beta/8} does NOT hold", SHARDREC_NOTE));
    const char *notnote[] = { "a|b", "a\tb", "a\nb", "a\"b", "a`b", "\x7f", "\x1b]0;x\x07" };
    for (size_t i = 0; i < sizeof notnote / sizeof notnote[0]; i++)
        ck_assert_msg(!shardrec_text_ok(notnote[i], SHARDREC_NOTE), "note '%s' accepted", notnote[i]);
    json_t *o = json_pack("{s:s}", "m", "ok\x01");
    char buf[32];
    ck_assert_int_eq(shardrec_string(o, "m", SHARDREC_NOTE, buf, sizeof buf, "W:2"), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "W:2: 'm'"));
    json_decref(o);
    /* targets */
    snprintf(victim, sizeof victim, "%s/victim", dir);
    f = fopen(victim, "wb");
    fputs("precious", f);
    fclose(f);
    ck_assert_int_eq(shardfile_check_target(""), AR_EINVAL);
    ck_assert_int_eq(shardfile_check_target(dir), AR_EINVAL);
    snprintf(lnk, sizeof lnk, "%s/l.jsonl", dir);
    ck_assert_int_eq(symlink(victim, lnk), 0);
    ck_assert_int_eq(shardfile_check_target(lnk), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "symbolic link"));
    snprintf(lnk, sizeof lnk, "%s/none/x.jsonl", dir);
    ck_assert_int_eq(shardfile_check_target(lnk), AR_EINVAL);
    snprintf(lnk, sizeof lnk, "%s/t.jsonl.partial", dir);
    ck_assert_int_eq(symlink(victim, lnk), 0);
    snprintf(path, sizeof path, "%s/t.jsonl", dir);
    ck_assert_int_eq(shardfile_check_target(path), AR_OK);
    h = header(0, 1, "abc");
    ck_assert_int_eq(shardfile_begin(path, h, NULL, &w), AR_OK);
    json_decref(h);
    ck_assert_int_eq(shardfile_end(w), AR_OK);
    b = slurp(victim, &n);
    ck_assert_uint_eq(n, 8);
    ck_assert(memcmp(b, "precious", 8) == 0);
}
END_TEST

Suite *suite_shardfile(void)
{
    Suite *s = suite_create("shardfile");
    TEST_TCASE(tc, "shardfile");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, roundtrip_and_refusals);
    tcase_add_test(tc, sets);
    tcase_add_test(tc, keys_strings_targets);
    suite_add_tcase(s, tc);
    return s;
}
