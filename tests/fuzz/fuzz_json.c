/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_json.c -- libFuzzer harness for the JSON reader on jansson
 * (constructions/formats/json.c).  Invariants: a refused input gives no tree
 * and one message line naming the source; an accepted one nests at most
 * JSON_MAX_DEPTH deep, holds only finite numbers, has no duplicate keys,
 * survives jansson's compact dump and a re-read unchanged (json_equal), and
 * json_read_file on the same bytes agrees with json_read_buffer. */
#include <math.h>
#include "constructions/formats/json.h"
#include "fuzz_util.h"

/* Depth of v (0 for scalars); every number finite, every object's keys
 * distinct. */
static int check_tree(const json_t *v)
{
    if (json_is_number(v))
        FUZZ_REQUIRE(json_is_real(v) && isfinite(json_number_value(v)));
    if (!json_is_array(v) && !json_is_object(v))
        return 0;
    int d = 0;
    size_t i;
    const char *key;
    json_t *x;
    if (json_is_array(v)) {
        json_array_foreach(v, i, x) {
            int dx = check_tree(x);
            d = dx > d ? dx : d;
        }
    } else {
        size_t n = 0;
        json_object_foreach((json_t *)v, key, x) {
            int dx = check_tree(x);
            d = dx > d ? dx : d;
            n++;
        }
        FUZZ_REQUIRE(n == json_object_size(v));
    }
    return d + 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *v = (json_t *)1;
    ar_status st = json_read_buffer((const char *)data, size, "fuzz", &v);
    json_t *w = (json_t *)1;
    ar_status sf = json_read_file(fuzz_file(data, size), 1u << 20, &w);
    FUZZ_REQUIRE(sf == st);
    if (st != AR_OK) {
        FUZZ_REQUIRE(v == NULL && w == NULL);
        FUZZ_REQUIRE_ONE_LINE();
        FUZZ_REQUIRE(strncmp(ar_error_get(), "/proc/self/fd/", 14) == 0);
        return 0;
    }
    FUZZ_REQUIRE(v != NULL && json_equal(v, w));
    json_decref(w);
    FUZZ_REQUIRE(check_tree(v) <= JSON_MAX_DEPTH);
    char *dump = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    FUZZ_REQUIRE(dump != NULL);
    json_t *again;
    FUZZ_REQUIRE(json_read_buffer(dump, strlen(dump), "dump", &again) == AR_OK);
    FUZZ_REQUIRE(json_equal(v, again));
    json_decref(again);
    free(dump);
    json_decref(v);
    return 0;
}
