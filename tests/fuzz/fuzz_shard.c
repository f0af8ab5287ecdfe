/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_shard.c -- libFuzzer harness for the shard-file reader
 * (constructions/formats/shardfile.c) that `attnrank merge` and shard
 * resumption trust.  Invariants: a refused input gives no header and one
 * message line naming the source; an accepted complete file has a header
 * with 0 <= shard < shards, distinct point ids, the same records when read
 * from the file and from the buffer, and when read as a partial file; and
 * written again (its header and record lines through the writer) it reads
 * back to the same records, with a fresh, consistent end record. */
#include "constructions/formats/shardfile.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    shardfile_t f, g, p;
    ar_status st = shardfile_parse((const char *)data, size, "fuzz", 1, NULL, &f);
    if (st != AR_OK) {
        FUZZ_REQUIRE_ONE_LINE();
        FUZZ_REQUIRE(strncmp(ar_error_get(), "fuzz", 4) == 0);
    }
    ar_status sf = shardfile_read(fuzz_file(data, size), 1, NULL, &g);
    FUZZ_REQUIRE((st == AR_OK) == (sf == AR_OK));
    ar_status sp = shardfile_parse((const char *)data, size, "fuzz", 0, NULL, &p);
    if (st != AR_OK) {
        FUZZ_REQUIRE(f.header == NULL && f.nrec == 0 && g.header == NULL);
        if (sp == AR_OK)
            shardfile_clear(&p);
        return 0;
    }
    FUZZ_REQUIRE(sp == AR_OK && p.nrec == f.nrec);
    FUZZ_REQUIRE(f.shard < f.shards && f.nrec == g.nrec);
    for (size_t i = 0; i < f.nrec; i++) {
        FUZZ_REQUIRE(json_equal(f.rec[i], g.rec[i]) && json_equal(f.rec[i], p.rec[i]));
        for (size_t j = 0; j < i; j++)
            FUZZ_REQUIRE(strcmp(json_string_value(json_object_get(f.rec[i], "point")),
                                json_string_value(json_object_get(f.rec[j], "point"))) != 0);
    }
    /* written again: header members (without the format member) and the record lines */
    json_t *h = json_deep_copy(f.header);
    FUZZ_REQUIRE(h != NULL);
    json_object_del(h, "attnrank_shard");
    char path[] = "/tmp/attnrank-fuzz-shard-XXXXXX";
    int fd = mkstemp(path);
    FUZZ_REQUIRE(fd >= 0);
    close(fd);
    shardfile_writer_t *w;
    FUZZ_REQUIRE(shardfile_begin(path, h, NULL, &w) == AR_OK);
    for (size_t i = 0; i < f.nrec; i++)
        FUZZ_REQUIRE(shardfile_put_text(w, f.text[i]) == AR_OK);
    FUZZ_REQUIRE(shardfile_end(w) == AR_OK);
    shardfile_t r;
    FUZZ_REQUIRE(shardfile_read(path, 1, NULL, &r) == AR_OK);
    unlink(path);
    FUZZ_REQUIRE(r.nrec == f.nrec && r.shard == f.shard && r.shards == f.shards);
    for (size_t i = 0; i < f.nrec; i++)
        FUZZ_REQUIRE(json_equal(f.rec[i], r.rec[i]));
    shardfile_clear(&r);
    json_decref(h);
    shardfile_clear(&f);
    shardfile_clear(&g);
    shardfile_clear(&p);
    return 0;
}
