/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_drivers.c -- the drivers around attnrank take their variables as
 * untrusted input (issue 21 items 7, 8, 9): `make verify`'s CLAIM, JOBS,
 * VERIFY_FORMAT and RESUME, FUZZ_SECONDS, PREFIX and DESTDIR are checked by
 * the Makefile before any recipe (or make's own expansion) uses them;
 * scripts/verify_jobs.sh checks its arguments again and removes only a
 * shard directory it made inside the resolved build directory; the Slurm
 * scripts take ATTNRANK_SHARDS and the CPUs as decimal (never octal),
 * split ATTNRANK_SWEEP without glob expansion and keep --shard/--out for
 * themselves; merge.sbatch records the merge's real exit status and fails
 * when it cannot.  Every refusal: exit 2, one line on stderr, nothing on
 * stdout, no command of the value run (a sentinel file stays absent), no
 * file outside the build directory removed (a sentinel directory
 * survives), no sbatch called.  Fake `sbatch` and attnrank binaries (shell
 * scripts) stand in for Slurm and the real sweeps; make runs with -n.  The
 * repository root is the working directory (make check runs from there). */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "cli/cliutil.h"

extern char **environ;

static char tdir[256], root[1024], sentinel[512];

typedef struct {
    int status;        /* exit code, 128 + signal, or -1 when killed after the timeout */
    char out[131072];  /* make -n of a half-built tree prints ~10 kB of commands */
    char err[8192];
} drv_run_t;

static void setup(void)
{
    cli_tmpdir_make(tdir, sizeof tdir, "drivers");
    ck_assert_ptr_nonnull(getcwd(root, sizeof root));
    char p[1200];
    snprintf(p, sizeof p, "%s/scripts/verify_jobs.sh", root);
    ck_assert_msg(access(p, R_OK) == 0, "run from the repository root (no %s)", p);
    snprintf(sentinel, sizeof sentinel, "%s/sentinel", tdir);
}

static void teardown(void)
{
    cli_tmpdir_remove(tdir);
}

/* Write an executable shell script at path. */
static void write_script(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(chmod(path, 0755), 0);
}

static int exists(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0;
}

/* Run argv (argv[0] a command found on the PATH given here) in directory cwd
 * with only PATH=<tdir>/fakebin:/usr/sbin:/usr/bin:/sbin:/bin, LC_ALL=C,
 * HOME=<tdir> and the NULL-terminated "NAME=value" list env (nothing of the
 * caller's environment: no MAKEFLAGS of an outer make), stdout and stderr
 * captured; killed after 60 s. */
static void drv_run(drv_run_t *r, const char *cwd, const char *const *argv, const char *const *env)
{
    char po[512], pe[512], path[600], home[300];
    snprintf(po, sizeof po, "%s/run.out", tdir);
    snprintf(pe, sizeof pe, "%s/run.err", tdir);
    snprintf(path, sizeof path, "PATH=%s/fakebin:/usr/sbin:/usr/bin:/sbin:/bin", tdir);
    snprintf(home, sizeof home, "HOME=%s", tdir);
    const char *envp[40];
    int k = 0;
    envp[k++] = path;
    envp[k++] = home;
    envp[k++] = "LC_ALL=C";
    for (int i = 0; env && env[i] && k < 39; i++)
        envp[k++] = env[i];
    envp[k] = NULL;
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        int fo = open(po, O_WRONLY | O_CREAT | O_TRUNC, 0600), fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fo < 0 || fe < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0 || chdir(cwd) != 0)
            _exit(126);
        environ = (char **)envp;
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    int ws = 0;
    double waited = 0;
    for (;;) {
        pid_t w = waitpid(pid, &ws, WNOHANG);
        ck_assert(w >= 0);
        if (w == pid)
            break;
        if (waited >= 60) {
            kill(pid, SIGKILL);
            waitpid(pid, &ws, 0);
            ws = -1;
            break;
        }
        usleep(5000);
        waited += 0.005;
    }
    r->status = ws == -1 ? -1 : WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    cli_slurp(po, r->out, sizeof r->out);
    cli_slurp(pe, r->err, sizeof r->err);
    unlink(po);
    unlink(pe);
}

/* Assert a clean refusal of argv: exit 2, stdout empty, stderr one line that
 * contains needle, the sentinel file not created. */
static void expect_refused(const char *what, const char *cwd, const char *const *argv, const char *const *env,
                           const char *needle)
{
    drv_run_t *r = malloc(sizeof *r);
    ck_assert_ptr_nonnull(r);
    drv_run(r, cwd, argv, env);
    size_t len = strlen(r->err);
    ck_assert_msg(r->status == 2, "%s: exit %d, expected 2 (stderr: %s)", what, r->status, r->err);
    ck_assert_msg(r->out[0] == '\0', "%s: stdout not empty: %.300s", what, r->out);
    ck_assert_msg(len > 1 && strchr(r->err, '\n') == r->err + len - 1, "%s: stderr is not one line: [%s]", what,
                  r->err);
    ck_assert_msg(strstr(r->err, needle) != NULL, "%s: message [%s] does not mention '%s'", what, r->err, needle);
    ck_assert_msg(!exists(sentinel), "%s: the value's command ran (%s exists)", what, sentinel);
    free(r);
}

/* `make -n TARGET NAME=value` (on the command line, and as NAME=value in
 * the environment) is refused at parse time naming NAME. */
static void make_refuses(const char *target, const char *name, const char *value)
{
    char assign[600], what[700], needle[64];
    snprintf(assign, sizeof assign, "%s=%s", name, value);
    snprintf(needle, sizeof needle, "*** %s must be", name);
    const char *argv[] = { "make", "-C", root, "--no-print-directory", "-n", target, assign, NULL };
    snprintf(what, sizeof what, "make -n %s '%s'", target, assign);
    expect_refused(what, tdir, argv, NULL, needle);
    const char *argv_env[] = { "make", "-C", root, "--no-print-directory", "-n", target, NULL };
    const char *env[] = { assign, NULL };
    snprintf(what, sizeof what, "%s make -n %s (environment)", assign, target);
    expect_refused(what, tdir, argv_env, env, needle);
}

START_TEST(make_validates_variables)
{
    char v[600];
    snprintf(v, sizeof v, "S; touch %s", sentinel);
    make_refuses("verify-run", "CLAIM", v);
    snprintf(v, sizeof v, "$(shell touch %s)", sentinel);       /* make's own expansion never sees it */
    make_refuses("verify-run", "CLAIM", v);
    make_refuses("verify", "CLAIM", "/../../../x");
    make_refuses("verify-run", "CLAIM", "SB");
    make_refuses("verify-run", "JOBS", "010");
    make_refuses("verify-run", "JOBS", "08");
    make_refuses("verify-run", "JOBS", "257");
    snprintf(v, sizeof v, "1;touch %s", sentinel);
    make_refuses("verify-run", "JOBS", v);
    make_refuses("verify-run", "VERIFY_FORMAT", "xml");
    make_refuses("verify-run", "RESUME", "yes");
    make_refuses("fuzz-run", "FUZZ_SECONDS", "0");
    snprintf(v, sizeof v, "30;touch %s", sentinel);
    make_refuses("fuzz-run", "FUZZ_SECONDS", v);
    snprintf(v, sizeof v, "/usr/local;touch %s", sentinel);
    make_refuses("install", "PREFIX", v);
    make_refuses("install", "DESTDIR", "/tmp/a b");
    make_refuses("check-run", "SAN", "2");
    snprintf(v, sizeof v, "build;touch %s", sentinel);
    make_refuses("check-run", "BUILD", v);
    /* valid values: the recipe passes them single-quoted */
    drv_run_t *r = malloc(sizeof *r);
    ck_assert_ptr_nonnull(r);
    const char *ok[] = { "make", "-C", root, "--no-print-directory", "-n", "verify-run", "CLAIM=S", "JOBS=2", NULL };
    drv_run(r, tdir, ok, NULL);
    ck_assert_msg(r->status == 0, "make -n verify-run CLAIM=S JOBS=2: exit %d (%s)", r->status, r->err);
    ck_assert_msg(strstr(r->out, "sh scripts/verify_jobs.sh '2' '") && strstr(r->out, "/build' 'S'"), "%.2000s", r->out);
    free(r);
}
END_TEST

/* A fake build directory (tests/run_verify touches ran-runner), a fake
 * attnrank (appends its arguments to bin.log), and outside/jobs2S/keep, a
 * directory outside the build directory that must survive. */
static void fake_build(char *build, size_t cap, char *bin, size_t bcap, char *keep, size_t kcap)
{
    char p[700], s[1400];
    snprintf(build, cap, "%s/build", tdir);
    snprintf(p, sizeof p, "%s/tests", build);
    ck_assert_int_eq(mkdir(build, 0700), 0);
    ck_assert_int_eq(mkdir(p, 0700), 0);
    snprintf(p, sizeof p, "%s/tests/run_verify", build);
    snprintf(s, sizeof s, "#!/bin/sh\necho \"$ATTNRANK_VERIFY_SHARDS ${CK_RUN_SUITE:-}\" > '%s/ran-runner'\n", tdir);
    write_script(p, s);
    snprintf(bin, bcap, "%s/attn", tdir);
    snprintf(s, sizeof s, "#!/bin/sh\necho \"$*\" >> '%s/bin.log'\n", tdir);
    write_script(bin, s);
    snprintf(p, sizeof p, "%s/outside", tdir);
    ck_assert_int_eq(mkdir(p, 0700), 0);
    snprintf(p, sizeof p, "%s/outside/jobs2S", tdir);
    ck_assert_int_eq(mkdir(p, 0700), 0);
    snprintf(keep, kcap, "%s/outside/jobs2S/keep", tdir);
    ck_assert_int_eq(test_write_file(p, "keep", "x", 1), 0);
}

/* verify_jobs.sh JOBS BIN BUILD CLAIM is refused; keep survives; neither
 * the runner nor the binary ran. */
static void jobs_refused(const char *jobs, const char *bin, const char *build, const char *claim, const char *resume,
                         const char *keep, const char *needle)
{
    char script[1100], what[1400], res[64];
    snprintf(script, sizeof script, "%s/scripts/verify_jobs.sh", root);
    snprintf(res, sizeof res, "RESUME=%s", resume ? resume : "");
    const char *argv[] = { "sh", script, jobs, bin, build, claim, NULL };
    const char *env[] = { res, NULL };
    snprintf(what, sizeof what, "verify_jobs.sh '%s' BIN '%s' '%s' (RESUME '%s')", jobs, build, claim,
             resume ? resume : "");
    expect_refused(what, root, argv, resume ? env : NULL, needle);
    char p[600];
    ck_assert_msg(exists(keep), "%s: %s was removed", what, keep);
    snprintf(p, sizeof p, "%s/ran-runner", tdir);
    ck_assert_msg(!exists(p), "%s: the runner ran", what);
    snprintf(p, sizeof p, "%s/bin.log", tdir);
    ck_assert_msg(!exists(p), "%s: attnrank ran", what);
}

START_TEST(verify_jobs_validates)
{
    char build[512], bin[512], keep[512], v[600], p[700], t[700];
    fake_build(build, sizeof build, bin, sizeof bin, keep, sizeof keep);
    snprintf(v, sizeof v, "S; touch %s", sentinel);
    jobs_refused("2", bin, build, v, NULL, keep, "make verify: CLAIM must be empty or one of S B R T E");
    jobs_refused("2", bin, build, "/../../../x", NULL, keep, "CLAIM must be empty or one of");
    const char *jobs_bad[] = { "010", "08", "0", "257", "", "+2", "2 ", "0x2" };
    for (size_t i = 0; i < sizeof jobs_bad / sizeof jobs_bad[0]; i++)
        jobs_refused(jobs_bad[i], bin, build, "S", NULL, keep, "make verify: JOBS must be a decimal integer in 1..256");
    snprintf(v, sizeof v, "1;touch %s", sentinel);
    jobs_refused(v, bin, build, "S", NULL, keep, "JOBS must be a decimal integer");
    jobs_refused("2", bin, build, "S", "yes", keep, "RESUME must be empty, 0 or 1");
    /* a directory outside the build directory: not a build directory, or reached through links */
    snprintf(p, sizeof p, "%s/outside", tdir);
    jobs_refused("2", bin, p, "S", NULL, keep, "is not a build directory");
    jobs_refused("2", bin, "build", "S", NULL, keep, "absolute paths");
    snprintf(p, sizeof p, "%s/verify-shards", build);
    snprintf(t, sizeof t, "%s/outside", tdir);
    ck_assert_int_eq(symlink(t, p), 0);
    jobs_refused("2", bin, build, "S", NULL, keep, "resolves outside the build directory");
    ck_assert_int_eq(unlink(p), 0);
    ck_assert_int_eq(mkdir(p, 0700), 0);
    snprintf(p, sizeof p, "%s/verify-shards/jobs2S", build);
    snprintf(t, sizeof t, "%s/outside/jobs2S", tdir);
    ck_assert_int_eq(symlink(t, p), 0);
    jobs_refused("2", bin, build, "S", NULL, keep, "is a symbolic link: refused");
    ck_assert_int_eq(unlink(p), 0);
    /* the old argument order with a directory outside as the 4th: a usage error */
    char script[1100], runner[600];
    snprintf(script, sizeof script, "%s/scripts/verify_jobs.sh", root);
    snprintf(runner, sizeof runner, "%s/tests/run_verify", build);
    snprintf(t, sizeof t, "%s/outside/jobs2S", tdir);
    const char *old[] = { "sh", script, "2", bin, runner, t, "S", NULL };
    expect_refused("verify_jobs.sh in the old argument order", root, old, NULL, "usage: scripts/verify_jobs.sh");
    ck_assert(exists(keep));
}
END_TEST

/* A real run with GNU parallel (when installed): a binary whose path holds
 * blanks and shell syntax runs with exactly its arguments, the old shard
 * directory is emptied (inside the build directory), the runner is handed
 * the shard directory, and nothing of the path runs. */
START_TEST(verify_jobs_runs)
{
    if (system("command -v parallel >/dev/null 2>&1") != 0) {
        fprintf(stderr, "verify_jobs_runs: SKIPPED: GNU parallel is not installed (apt-get install parallel)\n");
        return;
    }
    char build[512], bin[512], keep[512], p[900], s[1400];
    fake_build(build, sizeof build, bin, sizeof bin, keep, sizeof keep);
    snprintf(p, sizeof p, "%s/my $(cd;touch sentinel) bin", tdir);     /* HOME is tdir: it would make the sentinel */
    /* the line is built first and appended by one printf (one write): the two parallel jobs
     * append at once, and a write per argument let their lines interleave */
    snprintf(s, sizeof s, "#!/bin/sh\nl=\nfor a in \"$@\"; do l=\"$l[$a]\"; done\nprintf '%%s\\n' \"$l\" >> '%s/bin.log'\n",
             tdir);
    write_script(p, s);
    char old[700];
    snprintf(old, sizeof old, "%s/verify-shards/jobs2S/old", build);
    snprintf(s, sizeof s, "mkdir -p '%s/verify-shards/jobs2S' && touch '%s'", build, old);
    ck_assert_int_eq(system(s), 0);
    char script[1100];
    snprintf(script, sizeof script, "%s/scripts/verify_jobs.sh", root);
    const char *argv[] = { "sh", script, "2", p, build, "S", NULL };
    drv_run_t *r = malloc(sizeof *r);
    ck_assert_ptr_nonnull(r);
    drv_run(r, root, argv, NULL);
    ck_assert_msg(r->status == 0, "exit %d: %s", r->status, r->err);
    free(r);
    ck_assert_msg(!exists(sentinel), "a command in the binary's path ran");
    ck_assert_msg(!exists(old), "the old shard directory was not emptied");
    ck_assert(exists(keep));
    char log[2048], want[1200];
    snprintf(p, sizeof p, "%s/bin.log", tdir);
    cli_slurp(p, log, sizeof log);
    for (int k = 0; k < 4; k++) {            /* JOBS=2: 2 x 2 verify shards */
        snprintf(want, sizeof want, "[verify][--claim][S][--shard][%d/4][--out][%s/verify-shards/jobs2S/shard-%d-of-4.jsonl]\n",
                 k, build, k);
        ck_assert_msg(strstr(log, want) != NULL, "no '%s' in the binary's log: %s", want, log);
    }
    snprintf(p, sizeof p, "%s/ran-runner", tdir);
    cli_slurp(p, log, sizeof log);
    snprintf(want, sizeof want, "%s/verify-shards/jobs2S verify_S\n", build);
    ck_assert_str_eq(log, want);
}
END_TEST

/* A fake sbatch (logs its arguments one a line to sbatch.log, prints job id
 * 4242) and a fake attnrank for the Slurm scripts. */
static void fake_slurm(char *bin, size_t cap)
{
    char p[600], s[1200];
    snprintf(p, sizeof p, "%s/fakebin", tdir);
    ck_assert_int_eq(mkdir(p, 0700), 0);
    snprintf(p, sizeof p, "%s/fakebin/sbatch", tdir);
    snprintf(s, sizeof s, "#!/bin/sh\nfor a in \"$@\"; do printf '%%s\\n' \"$a\"; done >> '%s/sbatch.log'\necho 4242\n",
             tdir);
    write_script(p, s);
    snprintf(bin, cap, "%s/attn", tdir);
    snprintf(s, sizeof s, "#!/bin/sh\nfor a in \"$@\"; do printf '[%%s]' \"$a\"; done >> '%s/bin.log'\necho >> '%s/bin.log'\n"
             "echo rows || exit 1\necho 'a message' >&2\nexit ${FAKE_RC:-0}\n", tdir, tdir);
    write_script(bin, s);
}

/* sweep.sbatch with ATTNRANK_BIN, ATTNRANK_OUT=<tdir>/out and NAME=value is
 * refused before sbatch runs or out is created. */
static void sweep_refused(const char *bin, const char *name, const char *value, const char *needle)
{
    char script[1100], b[600], o[600], sub[1100], assign[700], what[800], p[600];
    snprintf(script, sizeof script, "%s/scripts/slurm/sweep.sbatch", root);
    snprintf(b, sizeof b, "ATTNRANK_BIN=%s", bin);
    snprintf(o, sizeof o, "ATTNRANK_OUT=%s/out", tdir);
    snprintf(sub, sizeof sub, "SLURM_SUBMIT_DIR=%s", root);
    snprintf(assign, sizeof assign, "%s=%s", name, value);
    const char *argv[] = { "bash", script, NULL };
    const char *env[] = { b, strcmp(name, "ATTNRANK_OUT") ? o : assign, sub, assign, NULL };
    snprintf(what, sizeof what, "sweep.sbatch with %s", assign);
    expect_refused(what, tdir, argv, env, needle);
    snprintf(p, sizeof p, "%s/sbatch.log", tdir);
    ck_assert_msg(!exists(p), "%s: sbatch was called", what);
    snprintf(p, sizeof p, "%s/out", tdir);
    ck_assert_msg(!exists(p), "%s: the results directory was created", what);
}

START_TEST(sweep_validates)
{
    char bin[512], v[600];
    fake_slurm(bin, sizeof bin);
    const char *shards_bad[] = { "010", "08", "0", "4097", "+4", "4 ", "1e3" };
    for (size_t i = 0; i < sizeof shards_bad / sizeof shards_bad[0]; i++)
        sweep_refused(bin, "ATTNRANK_SHARDS", shards_bad[i],
                      "attnrank-submit: ATTNRANK_SHARDS must be a decimal integer in 1..4096 without leading zeros");
    snprintf(v, sizeof v, "4;touch %s", sentinel);
    sweep_refused(bin, "ATTNRANK_SHARDS", v, "ATTNRANK_SHARDS must be a decimal integer");
    snprintf(v, sizeof v, "$(touch %s)", sentinel);
    sweep_refused(bin, "ATTNRANK_SHARDS", v, "ATTNRANK_SHARDS must be a decimal integer");
    sweep_refused(bin, "ATTNRANK_CPUS", "02", "ATTNRANK_CPUS must be a decimal integer in 1..1024");
    sweep_refused(bin, "ATTNRANK_CPUS", "1025", "ATTNRANK_CPUS must be a decimal integer in 1..1024");
    sweep_refused(bin, "ATTNRANK_SWEEP", "verify --shard 0/2", "may not hold '--shard'");
    sweep_refused(bin, "ATTNRANK_SWEEP", "calib --out=/tmp/x", "may not hold '--out'");
    snprintf(v, sizeof v, "touch %s", sentinel);
    sweep_refused(bin, "ATTNRANK_SWEEP", v, "must start with verify, scale or calib");
    sweep_refused(bin, "ATTNRANK_SWEEP", "verify\n--d 3", "no control character");
    sweep_refused(bin, "ATTNRANK_MERGE_FORMAT", "xml", "ATTNRANK_MERGE_FORMAT must be text, json or tsv");
    sweep_refused(bin, "ATTNRANK_SBATCH_ARGS", "--array=0-1", "may not hold '--array'");
    sweep_refused(bin, "ATTNRANK_SBATCH_ARGS", "--partition=x *", "must be sbatch options");
    snprintf(v, sizeof v, "%s/out\nx", tdir);
    sweep_refused(bin, "ATTNRANK_OUT", v, "ATTNRANK_OUT must be non-empty and hold no control character");
    snprintf(v, sizeof v, "%s/out%%j", tdir);
    sweep_refused(bin, "ATTNRANK_OUT", v, "may not hold '%'");
    /* valid: N = 10 is ten tasks 0..9 (bash read "010" as octal 8 before) */
    char script[1100], b[600], o[600], sub[1100], p[600], log[4096];
    snprintf(script, sizeof script, "%s/scripts/slurm/sweep.sbatch", root);
    snprintf(b, sizeof b, "ATTNRANK_BIN=%s", bin);
    snprintf(o, sizeof o, "ATTNRANK_OUT=%s/out", tdir);
    snprintf(sub, sizeof sub, "SLURM_SUBMIT_DIR=%s", root);
    const char *argv[] = { "bash", script, NULL };
    const char *env[] = { b, o, sub, "ATTNRANK_SHARDS=10", "ATTNRANK_CPUS=2", "ATTNRANK_SBATCH_ARGS=--partition=x",
                          NULL };
    drv_run_t *r = malloc(sizeof *r);
    ck_assert_ptr_nonnull(r);
    drv_run(r, tdir, argv, env);
    ck_assert_msg(r->status == 0, "exit %d: %s", r->status, r->err);
    free(r);
    snprintf(p, sizeof p, "%s/sbatch.log", tdir);
    cli_slurp(p, log, sizeof log);
    ck_assert_msg(strstr(log, "\n--partition=x\n--array=0-9\n--cpus-per-task=2\n") != NULL, "%s", log);
    ck_assert_msg(strstr(log, "\n--dependency=afterany:4242\n") != NULL, "%s", log);
}
END_TEST

/* shard.sbatch: the sweep's words are passed as they are (a '*' is no glob),
 * K and N are decimal. */
START_TEST(shard_words_and_decimal)
{
    char bin[512], script[1100], b[600], o[600], p[600], log[2048], want[800];
    fake_slurm(bin, sizeof bin);
    ck_assert_int_eq(test_write_file(tdir, "aaa", "", 0), 0);   /* what a glob '*' would expand to */
    snprintf(p, sizeof p, "%s/out", tdir);
    ck_assert_int_eq(mkdir(p, 0700), 0);
    snprintf(script, sizeof script, "%s/scripts/slurm/shard.sbatch", root);
    snprintf(b, sizeof b, "ATTNRANK_BIN=%s", bin);
    snprintf(o, sizeof o, "ATTNRANK_OUT=%s/out", tdir);
    const char *argv[] = { "bash", script, NULL };
    const char *env[] = { b, o, "ATTNRANK_SHARDS=10", "SLURM_ARRAY_TASK_ID=9", "SLURM_CPUS_PER_TASK=2",
                          "ATTNRANK_SWEEP=verify --tier *", NULL };
    drv_run_t *r = malloc(sizeof *r);
    ck_assert_ptr_nonnull(r);
    drv_run(r, tdir, argv, env);
    ck_assert_msg(r->status == 0, "exit %d: %s", r->status, r->err);
    free(r);
    snprintf(p, sizeof p, "%s/bin.log", tdir);
    cli_slurp(p, log, sizeof log);
    snprintf(want, sizeof want, "[verify][--tier][*][--shard][9/10][--out][%s/out/shard-9-of-10.jsonl]\n", tdir);
    ck_assert_str_eq(log, want);
    unlink(p);
    const char *env_oct[] = { b, o, "ATTNRANK_SHARDS=10", "SLURM_ARRAY_TASK_ID=08", "ATTNRANK_SWEEP=verify", NULL };
    expect_refused("shard.sbatch with task 08", tdir, argv, env_oct, "attnrank-shard: SLURM_ARRAY_TASK_ID must be");
    const char *env_n[] = { b, o, "ATTNRANK_SHARDS=010", "SLURM_ARRAY_TASK_ID=9", "ATTNRANK_SWEEP=verify", NULL };
    expect_refused("shard.sbatch with 010 shards", tdir, argv, env_n, "attnrank-shard: ATTNRANK_SHARDS must be");
    const char *env_sh[] = { b, o, "ATTNRANK_SHARDS=10", "SLURM_ARRAY_TASK_ID=9", "ATTNRANK_SWEEP=verify --out x",
                             NULL };
    expect_refused("shard.sbatch with --out in the sweep", tdir, argv, env_sh, "may not hold --shard or --out");
    ck_assert(!exists(p));
}
END_TEST

/* merge.sbatch, run with env; returns the exit status, merged.rc's text in rc. */
static int merge_run(const char *bin, const char *fake_rc, char *rc, size_t cap, char *err, size_t ecap)
{
    char script[1100], b[600], o[600], f[64], p[600];
    snprintf(script, sizeof script, "%s/scripts/slurm/merge.sbatch", root);
    snprintf(b, sizeof b, "ATTNRANK_BIN=%s", bin);
    snprintf(o, sizeof o, "ATTNRANK_OUT=%s/out", tdir);
    snprintf(f, sizeof f, "FAKE_RC=%s", fake_rc);
    const char *argv[] = { "bash", script, NULL };
    const char *env[] = { b, o, f, "ATTNRANK_SHARDS=2", "ATTNRANK_MERGE_FORMAT=json", NULL };
    drv_run_t *r = malloc(sizeof *r);
    ck_assert_ptr_nonnull(r);
    drv_run(r, tdir, argv, env);
    int st = r->status;
    snprintf(err, ecap, "%s", r->err);
    free(r);
    snprintf(p, sizeof p, "%s/out/merged.rc", tdir);
    cli_slurp(p, rc, cap);
    return st;
}

START_TEST(merge_records_status)
{
    char bin[512], p[600], t[600], rc[64], err[8192];
    fake_slurm(bin, sizeof bin);
    snprintf(p, sizeof p, "%s/out", tdir);
    ck_assert_int_eq(mkdir(p, 0700), 0);
    ck_assert_int_eq(test_write_file(p, "shard-0-of-2.jsonl", "", 0), 0);
    ck_assert_int_eq(merge_run(bin, "3", rc, sizeof rc, err, sizeof err), 3);
    ck_assert_str_eq(rc, "3\n");
    ck_assert_msg(strstr(err, "a message") != NULL, "%s", err);
    ck_assert_int_eq(merge_run(bin, "0", rc, sizeof rc, err, sizeof err), 0);
    ck_assert_str_eq(rc, "0\n");
    /* merged.txt on a full disk: the binary's write error (status 1) is what is recorded */
    snprintf(t, sizeof t, "%s/out/merged.txt", tdir);
    ck_assert_int_eq(unlink(t), 0);
    ck_assert_int_eq(symlink("/dev/full", t), 0);
    ck_assert_int_eq(merge_run(bin, "0", rc, sizeof rc, err, sizeof err), 1);
    ck_assert_str_eq(rc, "1\n");
    ck_assert_int_eq(unlink(t), 0);
    /* merged.rc itself cannot be written: reported, and the job fails */
    snprintf(t, sizeof t, "%s/out/merged.rc", tdir);
    ck_assert_int_eq(unlink(t), 0);
    ck_assert_int_eq(symlink("/dev/full", t), 0);
    snprintf(t, sizeof t, "%s/out/merged.rc.tmp", tdir);
    ck_assert_int_eq(symlink("/dev/full", t), 0);
    int st = merge_run(bin, "0", rc, sizeof rc, err, sizeof err);
    ck_assert_msg(st != 0, "exit 0 although merged.rc could not be written (stderr: %s)", err);
    ck_assert_msg(strstr(err, "attnrank-merge: cannot record the merge's exit status 0") != NULL, "%s", err);
    /* the variables are checked as in sweep.sbatch */
    char script[1100], b[600], o[600];
    snprintf(script, sizeof script, "%s/scripts/slurm/merge.sbatch", root);
    snprintf(b, sizeof b, "ATTNRANK_BIN=%s", bin);
    snprintf(o, sizeof o, "ATTNRANK_OUT=%s/out", tdir);
    const char *argv[] = { "bash", script, NULL };
    const char *env[] = { b, o, "ATTNRANK_SHARDS=010", NULL };
    expect_refused("merge.sbatch with 010 shards", tdir, argv, env, "attnrank-merge: ATTNRANK_SHARDS must be");
    const char *envf[] = { b, o, "ATTNRANK_SHARDS=2", "ATTNRANK_MERGE_FORMAT=x;y", NULL };
    expect_refused("merge.sbatch with format x;y", tdir, argv, envf, "ATTNRANK_MERGE_FORMAT must be text, json or tsv");
}
END_TEST

Suite *suite_drivers(void)
{
    Suite *s = suite_create("drivers");
    TEST_TCASE(tc, "drivers");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, make_validates_variables);
    tcase_add_test(tc, verify_jobs_validates);
    tcase_add_test(tc, verify_jobs_runs);
    tcase_add_test(tc, sweep_validates);
    tcase_add_test(tc, shard_words_and_decimal);
    tcase_add_test(tc, merge_records_status);
    suite_add_tcase(s, tc);
    return s;
}
