/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bracket.c -- the smallest client of the attnrank C API: the certified
 * eps-rank bracket of self-attention on the rows of a .npy file.
 *
 *   cc bracket.c $(pkg-config --cflags --libs attnrank) -o bracket
 *   ./bracket X.npy 30 0.1
 *
 * Prints one line: lower upper status lower_route/lower_certificate
 * upper_route/upper_certificate upper_err_bound (%.17g) n. */
#include <stdio.h>
#include <stdlib.h>
#include <attnrank.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s X.npy BETA EPS\n", argv[0]);
        return 2;
    }
    int api = attnrank_api_version();   /* the same MAJOR, and 0.3 or later: the size-checked structs */
    if (api / 10000 != ATTNRANK_API_VERSION_MAJOR || api < 300) {
        fprintf(stderr, "libattnrank %s does not match this header\n", attnrank_version());
        return 1;
    }
    attnrank_points *X = NULL;
    attnrank_bracket_result r;
    ATTNRANK_INIT(&r);                  /* zeroed, r.size = sizeof r: the library checks it */
    attnrank_status st = attnrank_points_read(argv[1], NULL, &X);
    if (st == ATTNRANK_OK)
        st = attnrank_bracket(X, NULL, strtod(argv[2], NULL), strtod(argv[3], NULL), NULL, &r);
    if (st != ATTNRANK_OK) {
        fprintf(stderr, "bracket: %s (%s)\n", attnrank_error_message(), attnrank_status_name(st));
        attnrank_points_free(X);
        return 1;
    }
    printf("%zu %zu %s %s/%s %s/%s %.17g %s\n", r.lower, r.upper, r.status, r.lower_route, r.lower_certificate,
           r.upper_route, r.upper_certificate, r.upper_err_bound, r.n);
    attnrank_bracket_clear(&r);
    attnrank_points_free(X);
    attnrank_cleanup();
    return 0;
}
