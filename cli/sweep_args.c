/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_args.c -- the options of `attnrank verify|scale|calib|merge`
 * parsed into the sweeps' typed specs and runs (see sweep_args.h).  The
 * messages are the commands' own, as before the specs. */
#include "cli/sweep_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/args.h"

static const char help_verify[] =
    "Usage: attnrank verify [--claim S|B|R|T|E] [--d D] [--tier default|extended|all]\n"
    "                       [--format text|json] [--strict] [--shard K/N --out FILE [--key KEYFILE]]\n"
    "Runs the sweeps of the laws table, brackets every instance, fits both ends\n"
    "against the law's variable and prints one row per law with its verdict:\n"
    "  pass          all brackets certified, both fitted exponents within the declared\n"
    "                tolerance and every rank/law ratio inside the declared band\n"
    "  fail          certified brackets that contradict the declared law (a finding)\n"
    "  inconclusive  a bracket could not be certified, or too few points\n"
    "and claim T's planted heads with the verdict of their assertions.\n"
    "Claims without a check in this version are listed as inconclusive (implemented: false).\n"
    "--d selects law rows by dimension (r for claim R); a request that selects no row\n"
    "(e.g. --claim S --d 1) is an error (exit 2) that lists the claims and dimensions.\n"
    "--tier: rows of the default run (default), the rows outside it (extended, such\n"
    "as claim S in d = 6), or both (all); with --d and no --tier, all.\n"
    "--shard K/N --out FILE: compute only the points of shard K of N (0 <= K < N;\n"
    "the rule and the file are described in README 'Sweeps on a cluster') into the\n"
    "shard file FILE, and print nothing; a FILE already complete for this shard is\n"
    "kept (resumption), FILE.partial of an interrupted run is continued.\n"
    "--key KEYFILE (or ATTNRANK_SHARD_KEY=KEYFILE): the shard file gets an HMAC-SHA256\n"
    "under the key, which 'attnrank merge --key KEYFILE' checks (README 'Sweeps on a cluster').\n"
    "'attnrank merge FILES...' prints the table from the N shard files.\n"
    "A failed law is a finding, reported with exit status 0; with --strict (for\n"
    "regression runs) any failed row gives exit status 3.  1/2: errors.\n";

static const char help_scale[] =
    "Usage: attnrank scale --claim S --d D --beta LO:HI:COUNT --eps E\n"
    "                      [--family polygon|fibonacci|uniform] [--n N] [--n-max N]\n"
    "                      [--engine scale|dense] [--continuum] [--no-packing] [--no-instance]\n"
    "                      [--seed S] [--format md|tsv|json]\n"
    "Sweeps beta over COUNT geometrically spaced values in [LO, HI] (COUNT <= 64) and\n"
    "prints, per beta: the certified lower bound (worst case over point sets of the\n"
    "size that certifies it), the certified upper bound of the dense instance of\n"
    "size n, optionally the certified continuum upper bound, the law\n"
    "(1+beta)^((d-1)/2) and the ratios.  Ends with the fitted exponents.\n"
    "Engines: scale (default) uses structured certificates: the circulant path for\n"
    "d = 2 (dense 20160-gon), cap packings for lower bounds and the polynomial\n"
    "certificate on Fibonacci (d = 3) or uniform sets for upper bounds (d >= 3);\n"
    "dense brackets one O(n^3) instance (n <= 2000 by default).\n"
    "A progress bar goes to stderr when it is a terminal.\n"
    "--shard K/N --out FILE [--key KEYFILE]: compute only shard K of N of the grid's\n"
    "points into the shard file FILE (resumable; 'attnrank merge FILES...' prints the\n"
    "table; --key or ATTNRANK_SHARD_KEY adds an HMAC, see 'attnrank verify --help').\n"
    "Claim B (ball instances with multiplicities) has its own sweep: see\n"
    "'attnrank scale --claim B --help'.\n";

static const char help_scale_b[] =
    "Usage: attnrank scale --claim B --d D --beta LO:HI:COUNT --eps E [--rho0 R] [--unweighted]\n"
    "                      [--upper] [--n N] [--continuum] [--hs H] [--no-sphere]\n"
    "                      [--format md|tsv|json] [--shard K/N --out FILE]\n"
    "Per beta (COUNT geometric values, <= 64): the certified lower end on radial shells\n"
    "with Gaussian multiplicities (rho0 default sqrt(3)/2; 0 = full ball), its exact\n"
    "total point count log10 n and the condition n >= e^{beta/8}; with --upper the\n"
    "certified upper end of a dense weighted lattice of about N distinct points\n"
    "(default 2000); with --continuum (d = 2, 3, 4) the certified rank of the shells\n"
    "continuum of the same ball (radial spacing H kernel widths, 0 < H <= 0.5, default\n"
    "0.5: a coarser object no longer measures the ball; the uniform measure on each\n"
    "sphere; its certificate names the spacing) and the lower end also from the route chooser\n"
    "on the default shells instance; the certified sphere cap packing at the same\n"
    "beta (contrast, unless --no-sphere); the law beta^{d/2}; and the fitted exponents.\n"
    "--shard K/N --out FILE [--key KEYFILE]: compute only shard K of N of the grid's\n"
    "points into the shard file FILE (resumable; 'attnrank merge FILES...' prints the\n"
    "table; --key or ATTNRANK_SHARD_KEY adds an HMAC, see 'attnrank verify --help').\n";

static const char help_calib[] =
    "Usage: attnrank calib [--model use-lite|pp-ocrv4|all | --manifest FILE] [--data DIR]\n"
    "                      [--licenses DIR] [--sentences N] [--eps E] [--scales S1,S2,..]\n"
    "                      [--taus T1,T2,..] [--tau-main T] [--perms P] [--boot B] [--level L]\n"
    "                      [--seed S] [--threads T] [--format text|tsv|json] [--per-sentence]\n"
    "Claim E on the attention heads of a real model.  --model use-lite (default):\n"
    "Google's Universal Sentence Encoder lite (2 layers x 4 heads) over the committed\n"
    "corpus of license sentences (/usr/share/common-licenses, checked against its\n"
    "sha256 manifest); pp-ocrv4: the PP-OCRv4 text recogniser (2 SVTR blocks x 8\n"
    "heads, dh 15) over the 24 rendered text-line images; all: both, and their\n"
    "pooled association.  Run 'make calib-data' first (DIR defaults to\n"
    ".cache/calib; every cached file is checked against its pinned sha256 before\n"
    "it is read).  --manifest FILE: your own model's heads, as written by\n"
    "scripts/export_heads.py (a JSON manifest naming one Q and one K .npy file per\n"
    "layer, head and input, relative to the manifest's directory).\n"
    "--sentences N keeps the first N inputs of each model.  For every layer, head\n"
    "and scale s (beta = s times the model's own logit scale; defaults 0.5,1,2,4)\n"
    "and every input: the visible dimension r, the certified r(tau) (defaults\n"
    "0.05,0.1,0.2), the certified bracket lower <= rank_eps(A) <= upper (eps 0.1),\n"
    "and the UNCERTIFIED numerical rank (numpy's default tolerance and eps s_1),\n"
    "stable rank and effective rank of A; per head the weights-only r(tau) when the\n"
    "model gives its weights.  Then Spearman's rho between the mean reduction\n"
    "1 - r(tau)/dh at the main tau (default 0.1) and the mean certified upper end\n"
    "across settings, per layer, per model and pooled over models, with a\n"
    "permutation p-value (P = 10000 permutations), the asymptotic Student-t p-value\n"
    "(n - 2 degrees of freedom) and a percentile bootstrap interval over inputs\n"
    "(B = 2000 replicates, level L = 0.95; seed 1).\n"
    "TSV: one row per (model, layer, head, scale) under a header, then '#' lines\n"
    "with the associations.  JSON: one line per (model, layer, head, scale) with\n"
    "\"model\", \"layer\", \"head\", \"scale\", ...; then per model one line per layer\n"
    "and one for all layers with \"summary\":\"association\", \"spearman\", \"ci\",\n"
    "\"p_value\", \"p_value_t\"; with all, a last pooled line (\"model\":\"all\").  --per-sentence\n"
    "(JSON only) first prints one line per (model, layer, head, scale, input).\n"
    "--shard K/N --out FILE: compute only the settings (model, layer, head, scale) of\n"
    "shard K of N (balanced by an a-priori cost) into the shard file FILE (resumable;\n"
    "nothing printed; --key KEYFILE or ATTNRANK_SHARD_KEY adds an HMAC, see 'attnrank verify --help');\n"
    "'attnrank merge [--format F] [--per-sentence] FILES...' prints\n"
    "the calibration from the N files, identical to one run but for the times.\n"
    "--threads T: the settings run side by side on T threads (default: every CPU the\n"
    "process may use); every number is the same for any T.\n";

static const char help_merge[] =
    "Usage: attnrank merge [--format text|json|tsv] [--per-sentence] [--key KEYFILE] FILES...\n"
    "Reads the shard files of one sweep (attnrank verify|scale|calib --shard K/N --out FILE)\n"
    "and prints what the sweep prints in one process: the verdict table of verify, the\n"
    "table and fits of scale, the calibration of calib (--format tsv for scale and calib,\n"
    "--per-sentence with json for calib).  Nothing is recomputed; the numbers\n"
    "are the shards' own, and every number but the times is the one-process run's.\n"
    "Refused with one line naming the file (exit 2, nothing printed): a file that is not a\n"
    "complete shard file (truncated, corrupted: the end record's count and SHA-256), shards\n"
    "of another version, commit, BLAS core, precision, parameters or point list, a shard\n"
    "given twice or missing, a point present twice, missing, or in the wrong shard, a\n"
    "record whose numbers are not finite, not the plan's (d, beta, eps, n) or impossible\n"
    "(lower > upper on one instance, a rank above the instance size, an error above eps),\n"
    "a string attnrank never writes, a header option that does not define the sweep.\n"
    "The SHA-256 in each file detects corruption, not forgery: with --key KEYFILE (or\n"
    "ATTNRANK_SHARD_KEY=KEYFILE) every file must carry the HMAC-SHA256 of that key,\n"
    "written by 'attnrank verify|scale|calib --shard K/N --out FILE --key KEYFILE'.\n"
    "Exit status (verify): 0 when every asserted row and claim-T case passes, 3 when one\n"
    "does not (as make verify fails); 2: bad input, 1: other errors.\n";

/* The common end of every sweep's run options: --shard K/N with --out FILE,
 * --key only with them; progress when stderr is a terminal. */
static ar_status run_shard_opts(const char *cmd, const char *shard, const char *out, const char *key, sweep_run_t *r)
{
    if (!shard != !out) {
        if (cmd)
            ar_error_set("%s: --shard K/N and --out FILE go together", cmd);
        else
            ar_error_set("--shard K/N and --out FILE go together");
        return AR_EINVAL;
    }
    if (key && !shard) {
        ar_error_set("%s: --key is for --shard K/N --out FILE", cmd ? cmd : "calib");
        return AR_EINVAL;
    }
    r->key = key;
    r->out = out;
    r->shard = shard != NULL;
    return shard ? shard_parse("shard", shard, &r->sel) : AR_OK;
}

/* The start every sweep command shares: parse argv[2..) against o as command
 * cmd; with --help, *help = help_text and nothing else is read. */
static ar_status parse_or_help(int argc, char **argv, opt_t *o, size_t no, const char *cmd, const char *help_text,
                               const char **help)
{
    ar_status st = args_parse(argc, argv, 2, o, no, cmd);
    if (st == AR_OK && args_get(o, no, "help"))
        *help = help_text;
    return st;
}

static void run_default(sweep_run_t *r)
{
    memset(r, 0, sizeof *r);
    r->format = SWEEP_FORMAT_TEXT;
    r->progress = isatty(2);
    r->sel.k = 0;
    r->sel.n = 1;
}

ar_status sweep_args_verify(int argc, char **argv, verify_spec_t *s, sweep_run_t *r, const char **help)
{
    opt_t o[] = { { "claim", 1, NULL }, { "d", 1, NULL }, { "format", 1, NULL }, { "strict", 0, NULL },
                  { "help", 0, NULL }, { "tier", 1, NULL }, { "shard", 1, NULL }, { "out", 1, NULL },
                  { "key", 1, NULL } };
    size_t no = sizeof o / sizeof o[0];
    ar_status st;
    *help = NULL;
    verify_spec_default(s);
    run_default(r);
    if ((st = parse_or_help(argc, argv, o, no, "verify", help_verify, help)) || *help)
        return st;
    out_format_t fmt;
    if ((st = args_format(args_get(o, no, "format"), &fmt)))
        return st;
    if (fmt == FMT_TSV) {
        ar_error_set("verify: --format must be text or json");
        return AR_EINVAL;
    }
    r->format = fmt == FMT_JSON ? SWEEP_FORMAT_JSON : SWEEP_FORMAT_TEXT;
    const char *claim = args_get(o, no, "claim");
    if (claim && strlen(claim) >= sizeof s->claim) {
        ar_error_set("--claim: '%s' is not a claim (S, B, R, T, E, ...)", claim);
        return AR_EINVAL;
    }
    snprintf(s->claim, sizeof s->claim, "%s", claim ? claim : "");
    if (args_get(o, no, "d") && (st = args_size("d", args_get(o, no, "d"), 1, 64, &s->d)))
        return st;
    s->tier = s->d ? VERIFY_TIER_ALL : VERIFY_TIER_DEFAULT;
    const char *t = args_get(o, no, "tier");
    if (t && verify_tier_parse(t, &s->tier)) {
        ar_error_set("--tier: expected default, extended or all, got '%s'", t);
        return AR_EINVAL;
    }
    const char *shard = args_get(o, no, "shard");
    shard_sel_t sel = { 0, 1 };
    if (shard && (st = shard_parse("shard", shard, &sel)))
        return st;
    r->strict = args_get(o, no, "strict") != NULL;
    return run_shard_opts("verify", shard, args_get(o, no, "out"), args_get(o, no, "key"), r);
}

/* 1 if argv asks for --claim B. */
static int scale_is_ball(int argc, char **argv)
{
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--claim=B") == 0)
            return 1;
        if (strcmp(argv[i], "--claim") == 0 && i + 1 < argc && strcmp(argv[i + 1], "B") == 0)
            return 1;
    }
    return 0;
}

/* --format of scale: md (text), tsv or json. */
static ar_status scale_format(const char *fs, sweep_run_t *r)
{
    out_format_t fmt;
    ar_status st = args_format_in(fs, FMT_BIT(FMT_MD) | FMT_BIT(FMT_TSV) | FMT_BIT(FMT_JSON), &fmt);
    if (st == AR_OK && fmt != FMT_MD)
        r->format = fmt == FMT_TSV ? SWEEP_FORMAT_TSV : SWEEP_FORMAT_JSON;
    return st;
}

static ar_status scale_args_b(int argc, char **argv, scale_spec_t *s, sweep_run_t *r, const char **help)
{
    opt_t o[] = { { "claim", 1, NULL }, { "d", 1, NULL }, { "beta", 1, NULL }, { "eps", 1, NULL },
                  { "rho0", 1, NULL }, { "unweighted", 0, NULL }, { "upper", 0, NULL }, { "n", 1, NULL },
                  { "npoints", 1, NULL },
                  { "no-sphere", 0, NULL }, { "format", 1, NULL }, { "help", 0, NULL }, { "continuum", 0, NULL },
                  { "hs", 1, NULL }, { "shard", 1, NULL }, { "out", 1, NULL }, { "key", 1, NULL } };
    size_t no = sizeof o / sizeof o[0];
    ar_status st;
    scale_spec_default(s, SCALE_CLAIM_B);
    if ((st = parse_or_help(argc, argv, o, no, "scale --claim B", help_scale_b, help)) || *help)
        return st;
    if (!args_get(o, no, "d")) {
        ar_error_set("scale --claim B needs --d");
        return AR_EINVAL;
    }
    if ((st = args_size("d", args_get(o, no, "d"), 2, 16, &s->d)) ||
        (st = args_beta_grid(args_get(o, no, "beta"), SWEEP_SCALE_MAX_COUNT, &s->beta_lo, &s->beta_hi,
                             &s->beta_count)))
        return st;
    if (!(s->beta_lo > 0)) {   /* beta = 0 has no ball law */
        ar_error_set("--beta: need 0 < LO <= HI");
        return AR_EINVAL;
    }
    if ((st = args_eps(args_get(o, no, "eps"), &s->eps)) || (st = scale_format(args_get(o, no, "format"), r)))
        return st;
    if (args_get(o, no, "rho0")) {
        if ((st = args_double("rho0", args_get(o, no, "rho0"), &s->rho0)))
            return st;
        if (!(s->rho0 >= 0 && s->rho0 < 1)) {
            ar_error_set("--rho0 must be in [0, 1), got %g", s->rho0);
            return AR_EINVAL;
        }
    }
    s->unweighted = args_get(o, no, "unweighted") != NULL;
    s->upper = args_get(o, no, "upper") != NULL;
    /* --n, as every command names the number of points; --npoints is its old spelling (deprecated) */
    const char *ns = args_get(o, no, "n"), *nps = args_get(o, no, "npoints");
    if (ns && nps) {
        ar_error_set("give --n only (--npoints is its deprecated spelling)");
        return AR_EINVAL;
    }
    if (nps)
        fprintf(stderr, "attnrank: --npoints is deprecated and will be removed; use --n\n");
    if ((ns || nps) && (st = args_size(ns ? "n" : "npoints", ns ? ns : nps, 1, 100000, &s->npoints)))
        return st;
    if (args_get(o, no, "continuum")) {
        if (s->d > 4) {
            ar_error_set("--continuum: the shells-continuum certificate covers d = 2, 3, 4 (got --d %zu)", s->d);
            return AR_EINVAL;
        }
        s->continuum = 1;
    }
    if (args_get(o, no, "hs")) {
        if ((st = args_double("hs", args_get(o, no, "hs"), &s->hs)))
            return st;
        if (!(s->hs > 0 && s->hs <= SCALE_SPEC_HS_MAX) || !s->continuum) {
            ar_error_set("--hs needs --continuum and a value in (0, %g] (radial spacing in kernel widths: a coarser "
                         "shells continuum no longer measures the ball), got %s", SCALE_SPEC_HS_MAX,
                         args_get(o, no, "hs"));
            return AR_EINVAL;
        }
    }
    s->sphere = args_get(o, no, "no-sphere") == NULL;
    if (!args_get(o, no, "shard") != !args_get(o, no, "out") || (args_get(o, no, "key") && !args_get(o, no, "shard"))) {
        ar_error_set(args_get(o, no, "key") && !args_get(o, no, "shard") ? "scale: --key is for --shard K/N --out FILE"
                                                                          : "scale: --shard K/N and --out FILE go together");
        return AR_EINVAL;
    }
    return run_shard_opts("scale", args_get(o, no, "shard"), args_get(o, no, "out"), args_get(o, no, "key"), r);
}

ar_status sweep_args_scale(int argc, char **argv, scale_spec_t *s, sweep_run_t *r, const char **help)
{
    *help = NULL;
    run_default(r);
    if (scale_is_ball(argc, argv))           /* claim B: ball sweeps */
        return scale_args_b(argc, argv, s, r, help);
    opt_t o[] = { { "claim", 1, NULL }, { "d", 1, NULL }, { "beta", 1, NULL }, { "eps", 1, NULL },
                  { "family", 1, NULL }, { "n", 1, NULL }, { "n-max", 1, NULL }, { "continuum", 0, NULL },
                  { "no-packing", 0, NULL }, { "seed", 1, NULL }, { "format", 1, NULL }, { "engine", 1, NULL },
                  { "no-instance", 0, NULL }, { "help", 0, NULL }, { "shard", 1, NULL }, { "out", 1, NULL },
                  { "key", 1, NULL } };
    size_t no = sizeof o / sizeof o[0];
    ar_status st;
    scale_spec_default(s, SCALE_CLAIM_S);
    if ((st = parse_or_help(argc, argv, o, no, "scale", help_scale, help)) || *help)
        return st;
    const char *claim = args_get(o, no, "claim");
    if (!claim || strcmp(claim, "S") != 0) {
        ar_error_set(claim ? "scale: --claim must be S or B, the claims with a sweep (got '%s')"
                           : "scale: --claim S or --claim B is required%s", claim ? claim : "");
        return AR_EINVAL;
    }
    if (!args_get(o, no, "d")) {
        ar_error_set("scale: --d is required");
        return AR_EINVAL;
    }
    if ((st = args_size("d", args_get(o, no, "d"), 2, 16, &s->d)) ||
        (st = args_beta_grid(args_get(o, no, "beta"), SWEEP_SCALE_MAX_COUNT, &s->beta_lo, &s->beta_hi,
                             &s->beta_count)) ||
        (st = args_eps(args_get(o, no, "eps"), &s->eps)) || (st = scale_format(args_get(o, no, "format"), r)))
        return st;
    const char *fam = args_get(o, no, "family");
    if (fam && scale_family_parse(fam, &s->family)) {
        ar_error_set("--family: expected polygon, fibonacci or uniform, got '%s'", fam);
        return AR_EINVAL;
    }
    if ((s->family == SCALE_FAMILY_POLYGON && s->d != 2) || (s->family == SCALE_FAMILY_FIBONACCI && s->d != 3)) {
        ar_error_set("--family %s does not exist in d = %zu", fam, s->d);
        return AR_EINVAL;
    }
    if (args_get(o, no, "n") && (st = args_size("n", args_get(o, no, "n"), 2, 1u << 24, &s->n)))
        return st;
    if (args_get(o, no, "n-max") && (st = args_size("n-max", args_get(o, no, "n-max"), 2, 1u << 24, &s->n_max)))
        return st;
    if (args_get(o, no, "seed") && (st = args_u64("seed", args_get(o, no, "seed"), &s->seed)))
        return st;
    s->continuum = args_get(o, no, "continuum") != NULL;
    s->instance = args_get(o, no, "no-instance") == NULL;
    const char *eng = args_get(o, no, "engine");
    if (eng && scale_engine_parse(eng, &s->engine)) {
        ar_error_set("--engine: expected scale or dense, got '%s'", eng);
        return AR_EINVAL;
    }
    s->packing = args_get(o, no, "no-packing") == NULL;
    return run_shard_opts("scale", args_get(o, no, "shard"), args_get(o, no, "out"), args_get(o, no, "key"), r);
}

ar_status sweep_args_calib(int argc, char **argv, calib_spec_t *s, sweep_run_t *r, const char **help)
{
    opt_t o[] = { { "data", 1, NULL }, { "licenses", 1, NULL }, { "sentences", 1, NULL }, { "eps", 1, NULL },
                  { "scales", 1, NULL }, { "taus", 1, NULL }, { "tau-main", 1, NULL }, { "perms", 1, NULL },
                  { "seed", 1, NULL }, { "threads", 1, NULL }, { "format", 1, NULL }, { "per-sentence", 0, NULL },
                  { "model", 1, NULL }, { "manifest", 1, NULL }, { "boot", 1, NULL }, { "level", 1, NULL },
                  { "shard", 1, NULL }, { "out", 1, NULL }, { "help", 0, NULL }, { "key", 1, NULL } };
    size_t no = sizeof o / sizeof o[0];
    ar_status st;
    const char *v;
    *help = NULL;
    calib_spec_default(s);
    run_default(r);
    if ((st = parse_or_help(argc, argv, o, no, "calib", help_calib, help)) || *help)
        return st;
    out_format_t fmt;
    if ((st = args_format(args_get(o, no, "format"), &fmt)))
        return st;
    r->format = fmt == FMT_JSON ? SWEEP_FORMAT_JSON : fmt == FMT_TSV ? SWEEP_FORMAT_TSV : SWEEP_FORMAT_TEXT;
    r->per_sentence = args_get(o, no, "per-sentence") != NULL;
    if (r->per_sentence && fmt != FMT_JSON) {
        ar_error_set("--per-sentence needs --format json");
        return AR_EINVAL;
    }
    if ((v = args_get(o, no, "eps")) && (st = args_eps(v, &s->eps)))
        return st;
    if ((v = args_get(o, no, "scales")) &&
        (st = args_double_list("scales", v, s->scales, SWEEP_CALIB_MAX_SCALES, &s->nscales)))
        return st;
    if ((v = args_get(o, no, "taus"))) {
        if ((st = args_double_list("taus", v, s->taus, SWEEP_CALIB_MAX_TAUS, &s->ntau)))
            return st;
        s->tau_main = s->ntau / 2;
    }
    if ((v = args_get(o, no, "tau-main"))) {
        double tm;
        if ((st = args_double("tau-main", v, &tm)))
            return st;
        size_t t = 0;
        while (t < s->ntau && s->taus[t] != tm)
            t++;
        if (t == s->ntau) {
            ar_error_set("--tau-main: %g is not one of the taus", tm);
            return AR_EINVAL;
        }
        s->tau_main = t;
    }
    if ((v = args_get(o, no, "perms")) && (st = args_size("perms", v, 1, 10000000, &s->perms)))
        return st;
    if ((v = args_get(o, no, "boot")) && (st = args_size("boot", v, 1, 1000000, &s->boot)))
        return st;
    if ((v = args_get(o, no, "level"))) {
        if ((st = args_double("level", v, &s->level)))
            return st;
        if (!(s->level > 0 && s->level < 1)) {
            ar_error_set("--level: %g is not in (0, 1)", s->level);
            return AR_EINVAL;
        }
    }
    if ((v = args_get(o, no, "seed")) && (st = args_u64("seed", v, &s->seed)))
        return st;
    if ((v = args_get(o, no, "threads")) && (st = args_size("threads", v, 1, 64, &s->threads)))
        return st;
    if ((v = args_get(o, no, "sentences")) && (st = args_size("sentences", v, 1, 1000000, &s->sentences)))
        return st;
    const char *model = args_get(o, no, "model"), *manifest = args_get(o, no, "manifest");
    if (model && manifest) {
        ar_error_set("--model and --manifest exclude each other");
        return AR_EINVAL;
    }
    if (manifest) {
        s->model = CALIB_MODEL_MANIFEST;
        if (strlen(manifest) >= sizeof s->manifest || !*manifest) {
            ar_error_set("--manifest: the file name must be 1..%zu bytes", sizeof s->manifest - 1);
            return AR_EINVAL;
        }
        snprintf(s->manifest, sizeof s->manifest, "%s", manifest);
    } else if (model && (calib_model_parse(model, &s->model) || s->model == CALIB_MODEL_MANIFEST)) {
        ar_error_set("--model: '%s' is not use-lite, pp-ocrv4 or all", model);
        return AR_EINVAL;
    }
    const char *data = args_get(o, no, "data"), *lic = args_get(o, no, "licenses");
    if ((data && (strlen(data) >= sizeof s->data || !*data)) || (lic && strlen(lic) >= sizeof s->licenses)) {
        ar_error_set("--data, --licenses: a directory name of 1..%zu bytes", sizeof s->data - 1);
        return AR_EINVAL;
    }
    if (data)
        snprintf(s->data, sizeof s->data, "%s", data);
    if (lic)
        snprintf(s->licenses, sizeof s->licenses, "%s", lic);
    return run_shard_opts(NULL, args_get(o, no, "shard"), args_get(o, no, "out"), args_get(o, no, "key"), r);
}

ar_status sweep_args_merge(int argc, char **argv, char ***paths, size_t *nf, sweep_run_t *r, const char **help)
{
    const char *format = NULL, *keyfile = NULL;
    *help = NULL;
    *nf = 0;
    run_default(r);
    *paths = calloc((size_t)argc, sizeof **paths);
    if (!*paths) {
        ar_error_set("merge: out of memory");
        return AR_ENOMEM;
    }
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help")) {
            *help = help_merge;
            return AR_OK;
        } else if (!strcmp(a, "--format") || !strncmp(a, "--format=", 9)) {
            const char *v = a[8] == '=' ? a + 9 : i + 1 < argc ? argv[++i] : NULL;
            if (!v || format) {
                ar_error_set(v ? "merge: --format given twice" : "merge: --format needs a value");
                return AR_EINVAL;
            }
            format = v;
        } else if (!strcmp(a, "--key") || !strncmp(a, "--key=", 6)) {
            const char *v = a[5] == '=' ? a + 6 : i + 1 < argc ? argv[++i] : NULL;
            if (!v || keyfile) {
                ar_error_set(v ? "merge: --key given twice" : "merge: --key needs a file");
                return AR_EINVAL;
            }
            keyfile = v;
        } else if (!strcmp(a, "--per-sentence")) {
            r->per_sentence = 1;
        } else if (!strcmp(a, "--")) {
            for (i++; i < argc; i++)
                (*paths)[(*nf)++] = argv[i];
        } else if (a[0] == '-' && a[1] == '-') {
            ar_error_set("merge: unknown option '%s' (see 'attnrank merge --help')", a);
            return AR_EINVAL;
        } else
            (*paths)[(*nf)++] = argv[i];
    }
    out_format_t fmt;
    if (args_format(format, &fmt)) {
        ar_error_set("merge: --format: expected text, json or tsv (tsv for scale and calib), got '%s'", format);
        return AR_EINVAL;
    }
    r->format = fmt == FMT_JSON ? SWEEP_FORMAT_JSON : fmt == FMT_TSV ? SWEEP_FORMAT_TSV : SWEEP_FORMAT_TEXT;
    r->key = keyfile;
    return AR_OK;
}
