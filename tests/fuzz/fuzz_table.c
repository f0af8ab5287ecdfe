/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_table.c -- libFuzzer harness for the `plot` table reader (cli/table.c,
 * table_parse on the raw bytes).  Invariants on every stored row: finite
 * values in the documented ranges; on a refused input: a one-line message
 * naming the input. */
#include <math.h>
#include <string.h>
#include "cli/table.h"
#include "fuzz_util.h"

static table_t tb;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (table_init(&tb) != AR_OK)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (int d = 0; d < TABLE_MAXD; d++)
        tb.cnt[d] = 0;
    tb.used = 0;
    ar_status st = table_parse(&tb, (const char *)data, size, "fuzz.tsv");
    if (st != AR_OK) {
        const char *m = ar_error_get();
        FUZZ_REQUIRE(strncmp(m, "fuzz.tsv:", 9) == 0 && strchr(m, '\n') == NULL);
    }
    size_t total = 0;
    for (int d = 0; d < TABLE_MAXD; d++) {
        FUZZ_REQUIRE(tb.cnt[d] == 0 || d >= 2);
        for (size_t i = 0; i < tb.cnt[d]; i++) {
            const table_row_t *r = &tb.rows[d][i];
            FUZZ_REQUIRE(isfinite(r->x) && r->x >= 1 && r->x <= 1 + TABLE_MAX_BETA);
            FUZZ_REQUIRE(r->lo >= 1 && r->up >= 0 && r->co >= 0 && isfinite(r->law) && r->law > 0);
            FUZZ_REQUIRE(isfinite(log(r->lo / r->law)));   /* the anchor of the law line */
        }
        total += tb.cnt[d];
    }
    FUZZ_REQUIRE(total == tb.used);
    return 0;
}
