/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cliutil.h -- run the attnrank binary from a Check test: one runner for
 * every CLI suite (tests/cli/test_*.c).  The binary is $ATTNRANK_BIN (set by
 * `make check`), default bin/attnrank.  Header-only (static inline), like
 * testutil.h, because the runner builds only tests/<dir>/test_*.c. */
#ifndef ATTNRANK_TESTS_CLIUTIL_H
#define ATTNRANK_TESTS_CLIUTIL_H

#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    int status;        /* exit code, 128 + signal, or -1 when killed after the timeout (a hang) */
    char out[1 << 16];
    char err[4096];
} cli_run_t;

/* The binary under test. */
static inline const char *cli_bin(void)
{
    const char *b = getenv("ATTNRANK_BIN");
    return b ? b : "bin/attnrank";
}

/* Read at most cap - 1 bytes of path into buf (NUL-terminated; "" if absent). */
static inline void cli_slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n = 0;
    if (f) {
        n = fread(buf, 1, cap - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
}

/* Run cli_bin() with the NULL-terminated argument list (at most 62), its
 * stdout and stderr captured through files in the existing directory dir.
 * as_bytes > 0: the child runs under setrlimit(RLIMIT_AS, as_bytes).
 * timeout_s > 0: the child is killed after that many seconds (status -1). */
static inline void cli_run_ex(cli_run_t *r, const char *dir, const char *const *args, unsigned long long as_bytes,
                              double timeout_s)
{
    char po[512], pe[512];
    snprintf(po, sizeof po, "%s/out.txt", dir);
    snprintf(pe, sizeof pe, "%s/err.txt", dir);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        int fo = open(po, O_WRONLY | O_CREAT | O_TRUNC, 0600), fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fo, 1);
        dup2(fe, 2);
        const char *argv[64];
        int k = 0;
        argv[k++] = cli_bin();
        for (int i = 0; args[i] && k < 63; i++)
            argv[k++] = args[i];
        argv[k] = NULL;
        if (as_bytes) {
            struct rlimit rl = { (rlim_t)as_bytes, (rlim_t)as_bytes };
            if (setrlimit(RLIMIT_AS, &rl) != 0)
                _exit(126);
        }
        execv(cli_bin(), (char *const *)argv);
        _exit(127);
    }
    int ws = 0;
    double waited = 0;
    for (;;) {
        pid_t w = waitpid(pid, &ws, timeout_s > 0 ? WNOHANG : 0);
        ck_assert(w >= 0);
        if (w == pid)
            break;
        if (waited >= timeout_s) {
            kill(pid, SIGKILL);
            waitpid(pid, &ws, 0);
            ws = -1;
            break;
        }
        usleep(20000);
        waited += 0.02;
    }
    r->status = ws == -1 ? -1 : WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    cli_slurp(po, r->out, sizeof r->out);
    cli_slurp(pe, r->err, sizeof r->err);
    unlink(po);
    unlink(pe);
}

/* Run args (cli_run_ex in dir, killed after timeout_s seconds when > 0) and
 * assert a clean refusal: exit status exactly code, nothing on stdout, one
 * line "attnrank: ..." on stderr that contains needle (when not NULL). */
static inline void cli_expect_refused(const char *dir, const char *const *args, int code, const char *needle,
                                      double timeout_s)
{
    cli_run_t *r = malloc(sizeof *r);
    ck_assert(r != NULL);
    cli_run_ex(r, dir, args, 0, timeout_s);
    char cmd[512] = "";
    for (int i = 0; args[i]; i++) {
        strncat(cmd, args[i], sizeof cmd - strlen(cmd) - 2);
        strncat(cmd, " ", sizeof cmd - strlen(cmd) - 1);
    }
    ck_assert_msg(r->status != -1, "'%s': still running after %g s (a hang)", cmd, timeout_s);
    ck_assert_msg(r->status == code, "'%s': exit status %d, expected %d (stderr: %s)", cmd, r->status, code, r->err);
    ck_assert_msg(r->out[0] == '\0', "'%s': stdout not empty: %.200s", cmd, r->out);
    size_t len = strlen(r->err);
    ck_assert_msg(len > 11 && strncmp(r->err, "attnrank: ", 10) == 0 && strchr(r->err, '\n') == r->err + len - 1,
                  "'%s': stderr is not exactly one 'attnrank: ...' line: [%s]", cmd, r->err);
    if (needle)
        ck_assert_msg(strstr(r->err, needle) != NULL, "'%s': message [%s] does not mention '%s'", cmd, r->err,
                      needle);
    free(r);
}

/* Create a fresh temporary directory /tmp/attnrank-<tag>-XXXXXX into buf. */
static inline void cli_tmpdir_make(char *buf, size_t cap, const char *tag)
{
    snprintf(buf, cap, "/tmp/attnrank-%s-XXXXXX", tag);
    ck_assert(mkdtemp(buf) != NULL);
}

/* Remove a temporary directory made by cli_tmpdir_make, with its contents. */
static inline void cli_tmpdir_remove(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

#endif
