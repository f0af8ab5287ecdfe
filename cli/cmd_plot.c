/* cmd_plot.c -- `attnrank plot`: log-log plots (SVG and PNG, via gnuplot) of
 * certified brackets against 1+beta from `attnrank scale --format tsv` tables,
 * one colour per dimension, with the law's slope drawn through each
 * dimension's lower bounds. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/args.h"
#include "cli/commands.h"

static const char help[] =
    "Usage: attnrank plot --input T1.tsv[,T2.tsv,...] --out PREFIX [--title TEXT]\n"
    "Reads tables written by 'attnrank scale --format tsv' and writes PREFIX.svg,\n"
    "PREFIX.png, and the data and gnuplot script behind them (PREFIX.dat, PREFIX.gp).\n"
    "Each dimension gets one colour: filled marks = certified lower bounds, open\n"
    "marks = certified upper bounds of the dense instance, crosses = continuum upper\n"
    "bounds; the dashed line has the law's slope (d-1)/2 through the lower bounds.\n"
    "Needs gnuplot (Debian package gnuplot-nox).\n";

#define PLOT_MAXD 17
#define PLOT_MAXROWS 4096

typedef struct { double x, lo, up, co, law; } prow_t;

static int run_gnuplot(const char *script)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int ws;
    if (waitpid(pid, &ws, 0) < 0)
        return -1;
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
}

/* Parse one scale TSV into rows[d]. */
static ar_status read_table(const char *path, prow_t *rows[PLOT_MAXD], size_t cnt[PLOT_MAXD])
{
    FILE *f = fopen(path, "r");
    if (!f) {
        ar_error_set("%s: cannot open (%s)", path, strerror(errno));
        return AR_EIO;
    }
    char line[4096];
    size_t lineno = 0, used = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n' || strncmp(line, "d\t", 2) == 0)
            continue;
        char *fld[20];
        size_t nf = 0;
        line[strcspn(line, "\r\n")] = '\0';
        for (char *t = line; t && nf < 20;) {      /* split on single tabs (empty fields kept) */
            fld[nf++] = t;
            char *tab = strchr(t, '\t');
            if (tab)
                *tab = '\0';
            t = tab ? tab + 1 : NULL;
        }
        char *e1, *e2, *e3, *e4, *e5, *e6;
        if (nf < 16) {
            ar_error_set("%s:%zu: expected 16 tab-separated fields of 'attnrank scale --format tsv', got %zu",
                         path, lineno, nf);
            fclose(f);
            return AR_EINVAL;
        }
        long d = strtol(fld[0], &e1, 10);
        double beta = strtod(fld[1], &e2), lo = strtod(fld[3], &e3), up = strtod(fld[6], &e4),
               co = strtod(fld[9], &e5), law = strtod(fld[11], &e6);
        if (*e1 || *e2 || *e3 || *e4 || *e5 || *e6 || d < 2 || d >= PLOT_MAXD || !(beta >= 0) || !isfinite(beta) ||
            !(law > 0)) {
            ar_error_set("%s:%zu: malformed row", path, lineno);
            fclose(f);
            return AR_EINVAL;
        }
        if (cnt[d] >= PLOT_MAXROWS) {
            ar_error_set("%s: too many rows for d = %ld", path, d);
            fclose(f);
            return AR_EINVAL;
        }
        rows[d][cnt[d]++] = (prow_t){ 1 + beta, lo, up, co, law };
        used++;
    }
    fclose(f);
    if (!used) {
        ar_error_set("%s: no data rows", path);
        return AR_EINVAL;
    }
    return AR_OK;
}

int cmd_plot(int argc, char **argv)
{
    opt_t o[] = { { "input", 1, NULL }, { "out", 1, NULL }, { "title", 1, NULL }, { "help", 0, NULL } };
    size_t no = sizeof o / sizeof o[0];
    ar_status st;
    if ((st = args_parse(argc, argv, 2, o, no, "plot")))
        return cmd_fail(st);
    if (args_get(o, no, "help")) {
        fputs(help, stdout);
        return 0;
    }
    const char *in = args_get(o, no, "input"), *out = args_get(o, no, "out");
    const char *title = args_get(o, no, "title");
    if (!in || !out) {
        ar_error_set("plot: --input and --out are required");
        return cmd_fail(AR_EINVAL);
    }
    if (strlen(out) > 900 || strpbrk(out, "\"'\n")) {
        ar_error_set("plot: --out must be a plain path without quotes");
        return cmd_fail(AR_EINVAL);
    }
    if (title && strpbrk(title, "\"\\\n")) {
        ar_error_set("plot: --title must not contain quotes or backslashes");
        return cmd_fail(AR_EINVAL);
    }
    prow_t *rows[PLOT_MAXD] = { 0 };
    size_t cnt[PLOT_MAXD] = { 0 };
    for (int d = 0; d < PLOT_MAXD; d++)
        if (!(rows[d] = calloc(PLOT_MAXROWS, sizeof(prow_t)))) {
            for (int e = 0; e < d; e++)
                free(rows[e]);
            ar_error_set("plot: out of memory");
            return cmd_fail(AR_ENOMEM);
        }
    char *list = strdup(in);
    st = AR_OK;
    for (char *save = NULL, *t = strtok_r(list, ",", &save); t && !st; t = strtok_r(NULL, ",", &save))
        st = read_table(t, rows, cnt);
    free(list);
    char dat[1024], gp[1024];
    snprintf(dat, sizeof dat, "%s.dat", out);
    snprintf(gp, sizeof gp, "%s.gp", out);
    FILE *fd = NULL, *fg = NULL;
    if (!st && (!(fd = fopen(dat, "w")) || !(fg = fopen(gp, "w")))) {
        ar_error_set("plot: cannot write %s (%s)", fd ? gp : dat, strerror(errno));
        st = AR_EIO;
    }
    if (st) {
        if (fd) fclose(fd);
        for (int d = 0; d < PLOT_MAXD; d++)
            free(rows[d]);
        return cmd_fail(st);
    }
    /* one gnuplot index per dimension: 1+beta, lower, upper, continuum (NaN when absent);
     * the law line is anchored at the geometric mean of lower/law */
    int idx[PLOT_MAXD], nidx = 0;
    double anchor[PLOT_MAXD];
    for (int d = 2; d < PLOT_MAXD; d++) {
        if (!cnt[d])
            continue;
        double s = 0;
        for (size_t i = 0; i < cnt[d]; i++)
            s += log(rows[d][i].lo / rows[d][i].law);
        anchor[d] = exp(s / (double)cnt[d]);
        idx[nidx++] = d;
    }
    for (int k = 0; k < nidx; k++) {
        int d = idx[k];
        fprintf(fd, "# d = %d\n", d);
        for (size_t i = 0; i < cnt[d]; i++) {
            prow_t *r = &rows[d][i];
            fprintf(fd, "%.17g\t%.17g\t", r->x, r->lo);
            if (r->up > 0) fprintf(fd, "%.17g\t", r->up); else fprintf(fd, "NaN\t");
            if (r->co > 0) fprintf(fd, "%.17g\n", r->co); else fprintf(fd, "NaN\n");
        }
        fprintf(fd, "\n\n");
    }
    fclose(fd);
    static const char *colours[] = { "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d" };
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0)
            fprintf(fg, "set terminal svg size 1150,650 dynamic font 'Helvetica,13'\nset output '%s.svg'\n", out);
        else
            fprintf(fg, "set terminal pngcairo size 1150,650 font 'Helvetica,11'\nset output '%s.png'\n", out);
        fprintf(fg, "set logscale xy\nset grid\nset key outside right top\nset xlabel '1 + beta'\n"
                    "set ylabel 'certified eps-rank bracket'\nset title '%s'\n",
                title ? title : "attnrank: certified eps-rank brackets vs (1+beta)^{(d-1)/2}");
        fprintf(fg, "plot \\\n");
        for (int k = 0; k < nidx; k++) {
            int d = idx[k];
            const char *c = colours[k % 7];
            int has_up = 0, has_co = 0;
            for (size_t i = 0; i < cnt[d]; i++) {
                has_up |= rows[d][i].up > 0;
                has_co |= rows[d][i].co > 0;
            }
            fprintf(fg, "  '%s' index %d using 1:2 with linespoints pt 7 lc rgb '%s' title 'd=%d lower', \\\n", dat, k, c, d);
            if (has_up)
                fprintf(fg, "  '%s' index %d using 1:3 with linespoints pt 6 lc rgb '%s' title 'd=%d upper (instance)', \\\n", dat, k, c, d);
            if (has_co)
                fprintf(fg, "  '%s' index %d using 1:4 with linespoints pt 2 dt 3 lc rgb '%s' title 'd=%d upper (continuum)', \\\n", dat, k, c, d);
            fprintf(fg, "  '%s' index %d using 1:(%.17g*$1**%.3g) with lines dt 2 lc rgb '%s' title 'slope %.3g'%s\n", dat, k,
                    anchor[d], 0.5 * (d - 1), c, 0.5 * (d - 1), k + 1 < nidx ? ", \\" : "");
        }
        fprintf(fg, "unset output\n");
    }
    fclose(fg);
    for (int d = 0; d < PLOT_MAXD; d++)
        free(rows[d]);
    int rc = run_gnuplot(gp);
    if (rc != 0) {
        ar_error_set(rc == 127 ? "plot: gnuplot not found (apt-get install gnuplot-nox)"
                               : "plot: gnuplot failed on %s (exit %d)", gp, rc);
        return cmd_fail(AR_EIO);
    }
    printf("wrote %s.svg and %s.png (data %s, script %s)\n", out, out, dat, gp);
    return 0;
}
