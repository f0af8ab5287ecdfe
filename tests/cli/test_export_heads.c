/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_export_heads.c -- a user's own model (issue 18 part 3), end to end:
 * scripts/export_heads.py on a randomly initialised 4-layer PyTorch
 * nn.TransformerEncoder and on a module with separate q/k projections
 * writes Q and K that reproduce the attention weights PyTorch itself returns
 * (the script's --check: relative error <= 1e-9, printed), and
 * `attnrank calib --manifest` runs on the manifest (every bracket certified,
 * one association line per layer); a manifest whose path leaves its
 * directory is refused with one line.  Needs Debian's python3-torch; skipped
 * with a printed reason otherwise. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "cli/cliutil.h"

static char tdir[256];

static void setup(void)
{
    cli_tmpdir_make(tdir, sizeof tdir, "export");
}

static void teardown(void)
{
    cli_tmpdir_remove(tdir);
}

static int have_torch(void)
{
    if (system("/usr/bin/python3 -c 'import torch, numpy' > /dev/null 2>&1") != 0) {
        printf("test_export_heads: SKIP the PyTorch exporter: /usr/bin/python3 cannot import torch "
               "(Debian: apt-get install python3-torch)\n");
        return 0;
    }
    return 1;
}

/* Run the shell command cmd with stdout to tdir/out.txt; its exit status. */
static int sh_out(const char *cmd, char *out, size_t cap)
{
    char full[2048], p[400];
    snprintf(full, sizeof full, "%s > '%s/out.txt' 2>&1", cmd, tdir);
    int st = system(full);
    snprintf(p, sizeof p, "%s/out.txt", tdir);
    cli_slurp(p, out, cap);
    return st;
}

START_TEST(export_demo_and_calibrate)
{
    if (!have_torch())
        return;
    char cmd[1024], out[8192];
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 scripts/export_heads.py --demo '%s/demo' --layers 4 --inputs 4 --check",
             tdir);
    ck_assert_msg(sh_out(cmd, out, sizeof out) == 0, "%s", out);
    const char *r = strstr(out, "reproduced to relative error ");
    ck_assert_msg(r != NULL, "%s", out);
    double err = strtod(r + strlen("reproduced to relative error "), NULL);
    ck_assert_msg(err <= 1e-9, "exported Q, K reproduce the weights only to %g", err);
    printf("test_export_heads: 4-layer random nn.TransformerEncoder, weights reproduced to %.2g\n", err);
    char manifest[400];
    snprintf(manifest, sizeof manifest, "%s/demo/manifest.json", tdir);
    const char *a[] = { "calib", "--manifest", manifest, "--scales", "1", "--perms", "50", "--boot", "50", "--format",
                        "json", NULL };
    cli_run_t rr;
    cli_run_ex(&rr, tdir, a, 0, 0);
    ck_assert_msg(rr.status == 0, "exit %d: %s", rr.status, rr.err);
    size_t settings = 0, layers = 0;
    for (char *line = strtok(rr.out, "\n"); line; line = strtok(NULL, "\n")) {
        if (strstr(line, "\"summary\":\"association\"")) {
            layers += strstr(line, "\"layer\":\"all\"") == NULL;
            continue;
        }
        if (strstr(line, "\"summary\""))
            continue;
        ck_assert_msg(strstr(line, "\"model\":\"random-transformer\",") && strstr(line, "\"weights\":false"), "%s", line);
        const char *c = strstr(line, "\"certified\":"), *n = strstr(line, "\"inputs\":");
        ck_assert(c && n && strtol(c + 12, NULL, 10) == strtol(n + 9, NULL, 10));   /* every bracket certified */
        settings++;
    }
    ck_assert_uint_eq(settings, 4 * 4);
    ck_assert_uint_eq(layers, 4);
    /* a path that leaves the manifest's directory */
    snprintf(cmd, sizeof cmd, "sed 's#\"q/L0_H0_I0.npy\"#\"../q/L0_H0_I0.npy\"#' '%s' > '%s/bad.json'", manifest, tdir);
    ck_assert_int_eq(system(cmd), 0);
    char bad[400];
    snprintf(bad, sizeof bad, "%s/bad.json", tdir);
    const char *b[] = { "calib", "--manifest", bad, NULL };
    cli_run_ex(&rr, tdir, b, 0, 0);
    ck_assert_int_eq(rr.status, 2);
    ck_assert_str_eq(rr.out, "");
    ck_assert_msg(strstr(rr.err, "\"..\" component") && strchr(rr.err, '\n') == rr.err + strlen(rr.err) - 1, "%s",
                  rr.err);
}
END_TEST

/* A module with separate q/k projections that returns its weights. */
static const char factory[] =
    "import math, torch\n"
    "class Attn(torch.nn.Module):\n"
    "    def __init__(self, d, h):\n"
    "        super().__init__()\n"
    "        self.num_heads, self.dh = h, d // h\n"
    "        self.q_proj, self.k_proj, self.v_proj = (torch.nn.Linear(d, d) for _ in range(3))\n"
    "    def forward(self, x):\n"
    "        n = x.shape[1]\n"
    "        q = self.q_proj(x).view(1, n, self.num_heads, self.dh).transpose(1, 2)\n"
    "        k = self.k_proj(x).view(1, n, self.num_heads, self.dh).transpose(1, 2)\n"
    "        v = self.v_proj(x).view(1, n, self.num_heads, self.dh).transpose(1, 2)\n"
    "        w = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(self.dh), dim=-1)\n"
    "        return (w @ v).transpose(1, 2).reshape(1, n, -1), w\n"
    "class Net(torch.nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.a, self.b = Attn(24, 3), Attn(24, 3)\n"
    "    def forward(self, x):\n"
    "        return self.b(self.a(x)[0])[0]\n"
    "def make():\n"
    "    torch.manual_seed(3)\n"
    "    return Net(), [torch.randn(1, n, 24) for n in (9, 14, 20)]\n";

START_TEST(export_projection_modules)
{
    if (!have_torch())
        return;
    ck_assert_int_eq(test_write_file(tdir, "factory.py", factory, strlen(factory)), 0);
    char cmd[1024], out[8192];
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 scripts/export_heads.py --factory '%s/factory.py:make' '%s/proj' "
             "--name proj-net --check", tdir, tdir);
    ck_assert_msg(sh_out(cmd, out, sizeof out) == 0, "%s", out);
    const char *r = strstr(out, "reproduced to relative error ");
    ck_assert_msg(r && strtod(r + strlen("reproduced to relative error "), NULL) <= 1e-9, "%s", out);
    char manifest[400];
    snprintf(manifest, sizeof manifest, "%s/proj/manifest.json", tdir);
    const char *a[] = { "calib", "--manifest", manifest, "--scales", "1", "--perms", "20", "--boot", "20", "--format",
                        "tsv", NULL };
    cli_run_t rr;
    cli_run_ex(&rr, tdir, a, 0, 0);
    ck_assert_msg(rr.status == 0, "exit %d: %s", rr.status, rr.err);
    ck_assert_ptr_nonnull(strstr(rr.out, "proj-net\t1\t2\t8\t1\t"));   /* layer 1, head 2, dh 8, scale 1 */
    /* a factory whose model has no attention module */
    const char none[] = "import torch\ndef make():\n    return torch.nn.Linear(3, 3), [torch.randn(1, 4, 3)]\n";
    ck_assert_int_eq(test_write_file(tdir, "none.py", none, strlen(none)), 0);
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 scripts/export_heads.py --factory '%s/none.py:make' '%s/none'", tdir,
             tdir);
    ck_assert_int_ne(sh_out(cmd, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "no attention module"), "%s", out);
}
END_TEST

Suite *suite_export_heads(void)
{
    Suite *s = suite_create("export_heads");
    TCase *tc = tcase_create("export_heads");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, export_demo_and_calibrate);
    tcase_add_test(tc, export_projection_modules);
    suite_add_tcase(s, tc);
    return s;
}
