/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_sweep_spec.c -- the typed sweep specs (sweeps/sweep_spec.h): spec ->
 * JSON -> spec is the identity (also through the shard writer's text and
 * reader, which takes every number as a double), for the defaults and for
 * specs with every member away from its default (awkward doubles, a seed
 * above 2^53, long paths); every validation refuses its bad value with one
 * line naming the member; the readers refuse unknown, missing and mistyped
 * members (what a forged shard header could hold). */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "testutil.h"
#include "constructions/formats/json.h"
#include "constructions/formats/shardfile.h"
#include "sweeps/sweep_spec.h"

/* o written as a shard header writes it and read back as the merge reads it. */
static json_t *through_text(const json_t *o)
{
    char *t = shardfile_dump(o);
    ck_assert_ptr_nonnull(t);
    json_t *r = NULL;
    ck_assert_int_eq(json_read_buffer(t, strlen(t), "spec", &r), AR_OK);
    free(t);
    return r;
}

static void scale_roundtrip(const scale_spec_t *s)
{
    ck_assert_int_eq(scale_spec_validate(s), AR_OK);
    json_t *j = scale_spec_json(s);
    ck_assert_ptr_nonnull(j);
    scale_spec_t b, c;
    memset(&b, 0x5a, sizeof b);
    ck_assert_msg(scale_spec_from_json(j, "spec", &b) == AR_OK, "%s", ar_error_get());
    json_t *r = through_text(j);
    ck_assert_msg(scale_spec_from_json(r, "spec", &c) == AR_OK, "%s", ar_error_get());
    /* member by member: the claim's own members exactly, the other claim's at their defaults */
    const scale_spec_t *v[2] = { &b, &c };
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(v[i]->claim, s->claim);
        ck_assert_uint_eq(v[i]->d, s->d);
        ck_assert(v[i]->beta_lo == s->beta_lo && v[i]->beta_hi == s->beta_hi && v[i]->eps == s->eps);
        ck_assert_uint_eq(v[i]->beta_count, s->beta_count);
        ck_assert_int_eq(v[i]->continuum, s->continuum);
        if (s->claim == SCALE_CLAIM_S) {
            ck_assert_int_eq(v[i]->family, s->family);
            ck_assert_uint_eq(v[i]->n, s->n);
            ck_assert_uint_eq(v[i]->n_max, s->n_max);
            ck_assert_int_eq(v[i]->packing, s->packing);
            ck_assert_int_eq(v[i]->instance, s->instance);
            ck_assert(v[i]->seed == s->seed);
            ck_assert_int_eq(v[i]->engine, s->engine);
        } else {
            ck_assert(v[i]->rho0 == s->rho0 && v[i]->hs == s->hs);
            ck_assert_int_eq(v[i]->unweighted, s->unweighted);
            ck_assert_int_eq(v[i]->upper, s->upper);
            ck_assert_int_eq(v[i]->sphere, s->sphere);
            ck_assert_uint_eq(v[i]->npoints, s->npoints);
        }
    }
    /* and the JSON of what was read is the JSON written */
    json_t *j2 = scale_spec_json(&c);
    ck_assert(json_equal(j, j2));
    json_decref(j2);
    json_decref(r);
    json_decref(j);
}

START_TEST(test_scale_roundtrip)
{
    scale_spec_t s;
    scale_spec_default(&s, SCALE_CLAIM_S);
    s.d = 2;
    s.beta_lo = 10;
    s.beta_hi = 100;
    s.beta_count = 3;
    s.eps = 0.1;
    scale_roundtrip(&s);
    s.d = 3;
    s.beta_lo = 0.1 + 0.2;                 /* not a short decimal */
    s.beta_hi = 1e300;
    s.beta_count = 64;
    s.eps = nextafter(1.0, 0.0);
    s.family = SCALE_FAMILY_FIBONACCI;
    s.n = 1u << 24;
    s.n_max = 2;
    s.packing = 0;
    s.instance = 0;
    s.continuum = 1;
    s.seed = UINT64_MAX;                   /* above 2^53: a double could not hold it */
    s.engine = SCALE_ENGINE_DENSE;
    scale_roundtrip(&s);
    s.beta_lo = s.beta_hi = 0;
    s.beta_count = 1;                      /* one point at beta = 0 is a grid */
    s.seed = 0;
    scale_roundtrip(&s);

    scale_spec_default(&s, SCALE_CLAIM_B);
    s.d = 4;
    s.beta_lo = 4;
    s.beta_hi = 16;
    s.beta_count = 3;
    s.eps = 0.05;
    scale_roundtrip(&s);
    s.rho0 = 0;
    s.unweighted = 1;
    s.upper = 1;
    s.sphere = 0;
    s.npoints = 100000;
    s.continuum = 1;
    s.hs = 1.0 / 3.0;
    scale_roundtrip(&s);
}
END_TEST

START_TEST(test_verify_calib_roundtrip)
{
    verify_spec_t v, w;
    verify_spec_default(&v);
    json_t *j = verify_spec_json(&v);
    char *t = json_dumps(j, JSON_COMPACT);
    /* the members of the verify shard header's params since shards began */
    ck_assert_str_eq(t, "{\"claim\":null,\"d\":0,\"tier\":\"default\"}");
    free(t);
    ck_assert_int_eq(verify_spec_from_json(j, "spec", &w), AR_OK);
    ck_assert(memcmp(&v, &w, sizeof v) == 0);
    json_decref(j);
    snprintf(v.claim, sizeof v.claim, "S");
    v.d = 64;
    v.tier = VERIFY_TIER_EXTENDED;
    j = verify_spec_json(&v);
    json_t *r = through_text(j);
    ck_assert_int_eq(verify_spec_from_json(r, "spec", &w), AR_OK);
    ck_assert_str_eq(w.claim, "S");
    ck_assert_uint_eq(w.d, 64);
    ck_assert_int_eq(w.tier, VERIFY_TIER_EXTENDED);
    json_decref(r);
    json_decref(j);

    calib_spec_t c, e;
    calib_spec_default(&c);
    for (int round = 0; round < 2; round++) {
        if (round == 1) {
            c.model = CALIB_MODEL_MANIFEST;
            memset(c.manifest, 'm', sizeof c.manifest - 1);   /* the longest path */
            c.manifest[sizeof c.manifest - 1] = '\0';
            snprintf(c.data, sizeof c.data, "/data/é \"quoted\"");
            snprintf(c.licenses, sizeof c.licenses, "lic");
            c.sentences = 7;
            c.eps = 1e-300;
            c.nscales = 16;
            for (size_t i = 0; i < 16; i++)
                c.scales[i] = 0.1 * (double)(i + 1);
            c.ntau = 8;
            for (size_t i = 0; i < 8; i++)
                c.taus[i] = 0.2 * (double)(i + 1) + 1e-9;
            c.tau_main = 7;
            c.perms = 10000000;
            c.boot = 1;
            c.level = 0.999;
            c.seed = (uint64_t)1 << 63;
            c.threads = 64;
        }
        ck_assert_int_eq(calib_spec_validate(&c), AR_OK);
        j = calib_spec_json(&c);
        ck_assert_ptr_nonnull(j);
        r = through_text(j);
        memset(&e, 0x5a, sizeof e);
        ck_assert_msg(calib_spec_from_json(r, "spec", &e) == AR_OK, "%s", ar_error_get());
        ck_assert_int_eq(e.model, c.model);
        ck_assert_str_eq(e.manifest, c.manifest);
        ck_assert_str_eq(e.data, c.data);
        ck_assert_str_eq(e.licenses, c.licenses);
        ck_assert(e.sentences == c.sentences && e.eps == c.eps && e.nscales == c.nscales && e.ntau == c.ntau);
        ck_assert(memcmp(e.scales, c.scales, c.nscales * sizeof c.scales[0]) == 0);
        ck_assert(memcmp(e.taus, c.taus, c.ntau * sizeof c.taus[0]) == 0);
        ck_assert(e.tau_main == c.tau_main && e.perms == c.perms && e.boot == c.boot && e.level == c.level);
        ck_assert(e.seed == c.seed && e.threads == c.threads);
        json_decref(r);
        json_decref(j);
    }
}
END_TEST

/* v fails validation with a message containing needle. */
static void scale_bad(const scale_spec_t *v, const char *needle)
{
    ck_assert_int_eq(scale_spec_validate(v), AR_EINVAL);
    ck_assert_msg(strstr(ar_error_get(), needle) && !strchr(ar_error_get(), '\n'), "[%s] lacks %s", ar_error_get(),
                  needle);
}

START_TEST(test_validation)
{
    scale_spec_t s, v;
    scale_spec_default(&s, SCALE_CLAIM_S);
    s.d = 3;
    s.beta_lo = 10;
    s.beta_hi = 100;
    s.beta_count = 2;
    s.eps = 0.1;
    ck_assert_int_eq(scale_spec_validate(&s), AR_OK);
    const double bad_eps[] = { 0, 1, -0.1, 1.5, NAN };
    for (size_t i = 0; i < sizeof bad_eps / sizeof bad_eps[0]; i++) {
        v = s;
        v.eps = bad_eps[i];
        scale_bad(&v, "eps");
    }
    v = s;
    v.beta_lo = -1;                       /* a negative beta */
    scale_bad(&v, "beta");
    v = s;
    v.beta_lo = 200;                      /* LO > HI */
    scale_bad(&v, "beta");
    v = s;
    v.beta_hi = INFINITY;
    scale_bad(&v, "beta");
    v = s;
    v.beta_lo = 0;                        /* a geometric grid from 0 */
    scale_bad(&v, "LO > 0");
    v = s;
    v.beta_count = 0;
    scale_bad(&v, "beta_count");
    v = s;
    v.beta_count = 65;
    scale_bad(&v, "beta_count");
    v = s;
    v.d = 1;
    scale_bad(&v, "d must be");
    v = s;
    v.d = 17;
    scale_bad(&v, "d must be");
    v = s;
    v.family = SCALE_FAMILY_POLYGON;      /* polygons live in d = 2 */
    scale_bad(&v, "family polygon");
    v = s;
    v.n = 1;
    scale_bad(&v, "n and n_max");
    v = s;
    v.hs = 0.25;                          /* hs is claim B's, with the continuum */
    scale_bad(&v, "hs");
    scale_spec_default(&v, SCALE_CLAIM_B);
    v.d = 5;
    v.beta_lo = 0;
    v.beta_hi = 0;
    v.beta_count = 1;
    v.eps = 0.1;
    scale_bad(&v, "claim B needs beta LO > 0");
    v.beta_lo = v.beta_hi = 1;
    v.continuum = 1;
    scale_bad(&v, "d = 2, 3, 4");
    v.d = 3;
    v.hs = 0.6;
    scale_bad(&v, "hs");
    v.hs = 0;
    v.rho0 = 1;
    scale_bad(&v, "rho0");
    v.rho0 = 0.5;
    v.npoints = 0;
    scale_bad(&v, "npoints");

    verify_spec_t w;
    verify_spec_default(&w);
    w.d = 65;
    ck_assert_int_eq(verify_spec_validate(&w), AR_EINVAL);
    verify_spec_default(&w);
    snprintf(w.claim, sizeof w.claim, "s;");
    ck_assert_int_eq(verify_spec_validate(&w), AR_EINVAL);

    calib_spec_t c, d;
    calib_spec_default(&c);
    d = c;
    d.eps = 1;
    ck_assert_int_eq(calib_spec_validate(&d), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "eps"));
    d = c;
    d.taus[1] = d.taus[0];                /* taus must increase */
    ck_assert_int_eq(calib_spec_validate(&d), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "taus"));
    d = c;
    d.scales[2] = -1;
    ck_assert_int_eq(calib_spec_validate(&d), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "scales"));
    d = c;
    d.tau_main = 3;
    ck_assert_int_eq(calib_spec_validate(&d), AR_EINVAL);
    d = c;
    d.level = 1;
    ck_assert_int_eq(calib_spec_validate(&d), AR_EINVAL);
    d = c;
    d.model = CALIB_MODEL_MANIFEST;       /* without a manifest file */
    ck_assert_int_eq(calib_spec_validate(&d), AR_EINVAL);
    d = c;
    d.perms = 0;
    ck_assert_int_eq(calib_spec_validate(&d), AR_EINVAL);
}
END_TEST

/* The JSON text t is refused by the scale reader with needle in the message. */
static void scale_json_bad(const char *t, const char *needle)
{
    json_t *o = json_loads(t, 0, NULL);
    ck_assert_ptr_nonnull(o);
    scale_spec_t s;
    ck_assert_int_eq(scale_spec_from_json(o, "f.jsonl: header", &s), AR_EINVAL);
    ck_assert_msg(strstr(ar_error_get(), needle) && strstr(ar_error_get(), "f.jsonl"), "[%s] lacks %s",
                  ar_error_get(), needle);
    json_decref(o);
}

START_TEST(test_readers_refuse)
{
    scale_spec_t s;
    scale_spec_default(&s, SCALE_CLAIM_S);
    s.d = 3;
    s.beta_lo = 10;
    s.beta_hi = 100;
    s.beta_count = 2;
    s.eps = 0.1;
    json_t *j = scale_spec_json(&s);
    char *t = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    char buf[2048];
    /* a member a spec never has (what the old headers' options could smuggle) */
    const char *extra[] = { "shard", "out", "help", "format", "key", "frobnicate" };
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        snprintf(buf, sizeof buf, "{\"%s\":\"x\",%s", extra[i], t + 1);
        scale_json_bad(buf, extra[i]);
    }
    /* a missing member, a mistyped one, a value out of range, another claim */
    const char *from[] = { "\"engine\":\"scale\"", "\"packing\":true", "\"seed\":\"1\"", "\"seed\":\"1\"",
                           "\"eps\":0.10000000000000001", "\"d\":3", "\"claim\":\"S\"", "\"family\":null" };
    const char *to[] = { "\"engine\":\"scale\",\"engine2\":1", "\"packing\":\"yes\"", "\"seed\":1",
                         "\"seed\":\"-1\"", "\"eps\":1.5", "\"d\":2.5", "\"claim\":\"R\"", "\"family\":\"torus\"" };
    const char *needle[] = { "engine2", "packing", "seed", "seed", "eps", "d", "claim", "family" };
    for (size_t i = 0; i < sizeof from / sizeof from[0]; i++) {
        char *p = strstr(t, from[i]);
        ck_assert_msg(p != NULL, "%s not in %s", from[i], t);
        snprintf(buf, sizeof buf, "%.*s%s%s", (int)(p - t), t, to[i], p + strlen(from[i]));
        scale_json_bad(buf, needle[i]);
    }
    char *p = strstr(t, ",\"engine\":\"scale\"");
    ck_assert_ptr_nonnull(p);
    snprintf(buf, sizeof buf, "%.*s%s", (int)(p - t), t, p + strlen(",\"engine\":\"scale\""));
    scale_json_bad(buf, "lacks the member 'engine'");
    free(t);
    scale_json_bad("[1]", "object");
}
END_TEST

Suite *suite_sweep_spec(void)
{
    Suite *s = suite_create("sweep_spec");
    TEST_TCASE(tc, "sweep_spec");
    tcase_add_test(tc, test_scale_roundtrip);
    tcase_add_test(tc, test_verify_calib_roundtrip);
    tcase_add_test(tc, test_validation);
    tcase_add_test(tc, test_readers_refuse);
    suite_add_tcase(s, tc);
    return s;
}
