# SPDX-License-Identifier: GPL-3.0-or-later
# mk/config.mk -- the configuration every other mk/*.mk file reads: the check
# of the variables a user sets, those variables' defaults, the compile and link
# flags (the one link line of every program), and the source lists, all derived
# from the tree by wildcard.

# ---- the variables a user sets (command line or environment) are checked before
# anything expands them: make would expand their text (a $(shell ...) inside runs)
# and the recipes paste values into shell commands.  scripts/check_make_vars.sh
# holds the checks and says what each variable must be; it is called once, here,
# with the raw text ($(value ...)) of each variable the user set, single-quoted,
# and which goal groups it applies to (from MAKECMDGOALS; only these fixed words
# pass).  A refusal stops make with the script's one line (exit 2).  Values are
# then single-quoted where a recipe passes them to the shell.  CC, CFLAGS,
# LDFLAGS, AR and FUZZ_CC are the build's own commands and flags: they are run as
# given.
ar_empty :=
ar_tab := $(ar_empty)	$(ar_empty)
define ar_newline


endef
ar_q := '
ar_checked := SAN WERROR BUILD BIN TEST_SRC CLAIM JOBS VERIFY_FORMAT RESUME TIER CHECK_JOBS FUZZ_SECONDS PREFIX DESTDIR
# VAR came from the command line or the environment (not from a makefile)
ar_user = $(filter command environment override,$(firstword $(origin $1)))
ar_set := $(foreach v,$(ar_checked),$(if $(call ar_user,$v),$v))
# 'NAME=value' for the shell: ' written '\'', a newline a tab ($(shell) drops
# newlines; the script refuses both alike)
ar_arg = '$1=$(subst $(ar_q),$(ar_q)\$(ar_q)$(ar_q),$(subst $(ar_newline),$(ar_tab),$(value $1)))'
ar_groups := $(if $(filter verify verify-run,$(MAKECMDGOALS)),--verify) \
             $(if $(filter check check-run,$(MAKECMDGOALS)),--check) \
             $(if $(filter fuzz fuzz-smoke fuzz-run,$(MAKECMDGOALS)),--fuzz) \
             $(if $(filter install,$(MAKECMDGOALS)),--install)
# make 4.4 and later export exported variables to $(shell), expanding them: the
# values are kept out of the script's environment until they have passed
ifneq ($(ar_set),)
unexport $(ar_set)
endif
ar_verdict := $(shell sh scripts/check_make_vars.sh $(ar_groups) $(foreach v,$(ar_set),$(call ar_arg,$v)) 2>&1 \
                && echo ok)
ifneq ($(ar_verdict),ok)
$(error $(or $(ar_verdict),scripts/check_make_vars.sh could not be run))
endif
ifneq ($(ar_set),)
export $(ar_set)
endif

# ---- the variables a user may set (doc/building.md)
PREFIX ?= /usr/local
SAN ?=
WERROR ?=
CC ?= cc

ifeq ($(SAN),1)
BUILD ?= build-asan
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
BUILD ?= build
SANFLAGS :=
endif
BIN ?= $(if $(filter 1,$(SAN)),$(BUILD)/bin/attnrank,bin/attnrank)

# the CPUs (nproc) when a decimal in 1..256, else 1: make check's build, make verify's shards
NCPU := $(shell n=$$(nproc 2>/dev/null); case $$n in ([1-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-6]) echo $$n ;; \
          (*) echo 1 ;; esac)

# ---- compile flags
PKGS_CFLAGS = $(shell pkg-config --cflags lapacke check 2>/dev/null)
PKGS_LIBS = $(shell pkg-config --libs lapacke blas check 2>/dev/null)

CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -frounding-math -pthread -I. -Itests \
             $(if $(filter 1,$(WERROR)),-Werror) $(SANFLAGS) $(PKGS_CFLAGS) $(CFLAGS)

# ---- link flags, written once.  The libraries: the big ones as shared objects,
# the small ones (jansson, nettle, protobuf-c, GSL without -lgslcblas) statically in
# a program: only the objects used are linked in, GSL's cblas_* references bind to
# OpenBLAS's libblas, and none of them is a shared object mapped at start-up: every
# mapping costs address space that ulimit -v must leave for OpenBLAS's threads,
# which it starts before main (tests/cli/test_cli.c test_memory_limit).  The shared
# library (mk/lib.mk) links the small ones as shared objects.
LIBS_BIG := -lglpk -lflint-arb -lflint -lmpfr -lgmp
LIBS_SMALL := -ljansson -lnettle -lprotobuf-c -lgsl
LIBS_SYS := -lm -ldl -lpthread
LDLIBS_ALL = $(LIBS_BIG) -Wl,-Bstatic $(LIBS_SMALL) -Wl,-Bdynamic $(PKGS_LIBS) $(LIBS_SYS)
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)
# $(call link_prog,COMPILER,FLAGS AND INPUTS): the link line of every program ($@):
# the CLI, the test and verify runners, the benchmarks and the fuzzers
link_prog = $1 $(ALL_LDFLAGS) -o $@ $2 $(LDLIBS_ALL)

# ---- sources, by directory (every .c file there; no hand-kept list)
LIB_SRC := $(sort $(wildcard base/*.c numerics/*.c constructions/*/*.c theory/*.c theory/*/*.c sweeps/*.c api/*.c))
CLI_SRC := $(sort $(wildcard cli/*.c))
BENCH_SRC := $(sort $(wildcard bench/*.c))
TEST_SRC ?= $(sort $(wildcard tests/*/test_*.c tests/*/*/test_*.c))
VERIFY_SRC := $(sort $(wildcard tests/verify/verify_*.c))
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
LIB_A := $(BUILD)/lib/libattnrank.a
# the CLI's pieces without main(): the process policies (cli/oom.c, cli/blas_select.c) and the
# command code, which the test runners and the benchmarks link too
CLI_LIB_A := $(BUILD)/lib/libattnrank-cli.a
