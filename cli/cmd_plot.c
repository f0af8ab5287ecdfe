/* SPDX-License-Identifier: GPL-3.0-or-later */
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
#include "cli/table.h"

static const char help[] =
    "Usage: attnrank plot --input T1.tsv[,T2.tsv,...] --out PREFIX [--title TEXT]\n"
    "Reads tables written by 'attnrank scale --format tsv' and writes PREFIX.svg,\n"
    "PREFIX.png, and the data and gnuplot script behind them (PREFIX.dat, PREFIX.gp).\n"
    "Each dimension gets one colour: filled marks = certified lower bounds, open\n"
    "marks = certified upper bounds of the dense instance, crosses = continuum upper\n"
    "bounds; the dashed line has the law's slope (d-1)/2 through the lower bounds.\n"
    "Needs gnuplot (Debian package gnuplot-nox).\n";

static int run_gnuplot(const char *script)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        /* gnuplot loads a script name starting with '<' from a shell command */
        char arg[1100];
        snprintf(arg, sizeof arg, "%s%s", script[0] == '/' ? "" : "./", script);
        execlp("gnuplot", "gnuplot", arg, (char *)NULL);
        _exit(127);
    }
    int ws;
    if (waitpid(pid, &ws, 0) < 0)
        return -1;
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
}

/* Text from the user reaches gnuplot only inside single-quoted strings, where
 * gnuplot expands nothing (no backslash escapes, no `command` or @macro
 * substitution) and '' is the only escape: every ' is doubled.  Control
 * characters (a newline would end the command) are refused beforehand. */
static void gp_quoted(FILE *fg, const char *s)
{
    fputc('\'', fg);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', fg);
        fputc(*s, fg);
    }
    fputc('\'', fg);
}

/* A file name for gnuplot: quoted, and "./"-prefixed when relative, since
 * gnuplot runs a name starting with '|' (set output) or '<' (plot) as a
 * shell command. */
static void gp_path(FILE *fg, const char *path, const char *ext)
{
    char buf[1100];
    snprintf(buf, sizeof buf, "%s%s%s", path[0] == '/' ? "" : "./", path, ext);
    gp_quoted(fg, buf);
}

/* 1 if s holds a control character (bytes 0x00-0x1f, 0x7f). */
static int has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 1;
    return 0;
}

/* --input (required: a comma-separated list of non-empty file names), --out (required: a non-empty
 * path of at most 900 bytes) and --title (optional, at most 400 bytes): neither --out nor --title may
 * hold a control character.  Checked in that order. */
static ar_status plot_check_args(const char *in, const char *out, const char *title)
{
    if (!in || !out) {
        ar_error_set("plot: --input and --out are required");
        return AR_EINVAL;
    }
    if (out[0] == '\0' || strlen(out) > 900 || has_control(out)) {
        ar_error_set("plot: --out must be a non-empty path of at most 900 bytes without control characters");
        return AR_EINVAL;
    }
    if (title && (strlen(title) > 400 || has_control(title))) {
        ar_error_set("plot: --title must be at most 400 bytes without control characters (tab, newline, ...)");
        return AR_EINVAL;
    }
    /* --input: a comma-separated list of non-empty file names */
    if (in[0] == '\0' || in[0] == ',' || in[strlen(in) - 1] == ',' || strstr(in, ",,")) {
        ar_error_set("plot: --input: empty file name in the list '%s'", in);
        return AR_EINVAL;
    }
    return AR_OK;
}

/* The gnuplot data file fd from the table tb: one index per dimension present (their dimensions in
 * idx[0 .. *nidx - 1]), rows of 1+beta, lower, upper, continuum (NaN when absent); anchor[d]: the
 * law line's factor for dimension d, the geometric mean of lower/law. */
static void plot_write_data(FILE *fd, const table_t *tb, int *idx, int *nidx, double *anchor)
{
    for (int d = 2; d < TABLE_MAXD; d++) {
        if (!tb->cnt[d])
            continue;
        double s = 0;
        for (size_t i = 0; i < tb->cnt[d]; i++)
            s += log(tb->rows[d][i].lo / tb->rows[d][i].law);
        anchor[d] = exp(s / (double)tb->cnt[d]);
        idx[(*nidx)++] = d;
    }
    for (int k = 0; k < *nidx; k++) {
        int d = idx[k];
        fprintf(fd, "# d = %d\n", d);
        for (size_t i = 0; i < tb->cnt[d]; i++) {
            table_row_t *r = &tb->rows[d][i];
            fprintf(fd, "%.17g\t%.17g\t", r->x, r->lo);
            if (r->up > 0) fprintf(fd, "%.17g\t", r->up); else fprintf(fd, "NaN\t");
            if (r->co > 0) fprintf(fd, "%.17g\n", r->co); else fprintf(fd, "NaN\n");
        }
        fprintf(fd, "\n\n");
    }
}

/* The gnuplot script fg: an SVG then a PNG of the data file PREFIX.dat (PREFIX = out) under title
 * (NULL: the default), per dimension idx[k] its lower, upper and continuum series and the law's slope
 * through anchor[idx[k]]. */
static void plot_write_script(FILE *fg, const char *out, const char *title, const table_t *tb, const int *idx,
                              int nidx, const double *anchor)
{
    static const char *colours[] = { "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d" };
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0)
            fprintf(fg, "set terminal svg size 1150,650 dynamic font 'Helvetica,13'\nset output ");
        else
            fprintf(fg, "set terminal pngcairo size 1150,650 font 'Helvetica,11'\nset output ");
        gp_path(fg, out, pass == 0 ? ".svg" : ".png");
        fprintf(fg, "\nset logscale xy\nset grid\nset key outside right top\nset xlabel '1 + beta'\n"
                    "set ylabel 'certified eps-rank bracket'\nset title ");
        gp_quoted(fg, title ? title : "attnrank: certified eps-rank brackets vs (1+beta)^{(d-1)/2}");
        fprintf(fg, "\nplot \\\n");
        for (int k = 0; k < nidx; k++) {
            int d = idx[k];
            const char *c = colours[k % 7];
            int has_up = 0, has_co = 0;
            for (size_t i = 0; i < tb->cnt[d]; i++) {
                has_up |= tb->rows[d][i].up > 0;
                has_co |= tb->rows[d][i].co > 0;
            }
            fputs("  ", fg);
            gp_path(fg, out, ".dat");
            fprintf(fg, " index %d using 1:2 with linespoints pt 7 lc rgb '%s' title 'd=%d lower', \\\n", k, c, d);
            if (has_up) {
                fputs("  ", fg);
                gp_path(fg, out, ".dat");
                fprintf(fg, " index %d using 1:3 with linespoints pt 6 lc rgb '%s' title 'd=%d upper (instance)', \\\n",
                        k, c, d);
            }
            if (has_co) {
                fputs("  ", fg);
                gp_path(fg, out, ".dat");
                fprintf(fg, " index %d using 1:4 with linespoints pt 2 dt 3 lc rgb '%s' title 'd=%d upper (continuum)', \\\n",
                        k, c, d);
            }
            fputs("  ", fg);
            gp_path(fg, out, ".dat");
            fprintf(fg, " index %d using 1:(%.17g*$1**%.3g) with lines dt 2 lc rgb '%s' title 'slope %.3g'%s\n", k,
                    anchor[d], 0.5 * (d - 1), c, 0.5 * (d - 1), k + 1 < nidx ? ", \\" : "");
        }
        fprintf(fg, "unset output\n");
    }
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
    if ((st = plot_check_args(in, out, title)))
        return cmd_fail(st);
    table_t tb;
    if ((st = table_init(&tb)))
        return cmd_fail(st);
    char *list = strdup(in);
    if (!list) {
        table_clear(&tb);
        ar_error_set("plot: out of memory");
        return cmd_fail(AR_ENOMEM);
    }
    for (char *save = NULL, *t = strtok_r(list, ",", &save); t && !st; t = strtok_r(NULL, ",", &save))
        st = table_read(&tb, t);
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
        table_clear(&tb);
        return cmd_fail(st);
    }
    int idx[TABLE_MAXD], nidx = 0;
    double anchor[TABLE_MAXD];
    plot_write_data(fd, &tb, idx, &nidx, anchor);
    fclose(fd);
    plot_write_script(fg, out, title, &tb, idx, nidx, anchor);
    fclose(fg);
    table_clear(&tb);
    int rc = run_gnuplot(gp);
    if (rc != 0) {
        ar_error_set(rc == 127 ? "plot: gnuplot not found (apt-get install gnuplot-nox)"
                               : "plot: gnuplot failed on %s (exit %d)", gp, rc);
        return cmd_fail(AR_EIO);
    }
    printf("wrote %s.svg and %s.png (data %s, script %s)\n", out, out, dat, gp);
    return 0;
}
