# SPDX-License-Identifier: GPL-3.0-or-later
# mk/fuzz.mk -- make fuzz, make fuzz-smoke: libFuzzer harnesses
# tests/fuzz/fuzz_<name>.c (seeds in tests/fuzz/corpus/<name>/), built with
# clang (FUZZ_CC) under ASan + UBSan in build-fuzz/ and run one after the
# other for FUZZ_SECONDS each (fuzz-smoke: 30 s).

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 600
FUZZ_BUILD := build-fuzz
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -frounding-math -I. -Itests/fuzz \
              -fsanitize=address,undefined -fno-sanitize-recover=undefined
# the library and the CLI but main.c, every source built for fuzzing, into one
# archive: each harness links only the objects it uses (fuzz_merge runs the whole
# merge path in process)
FUZZ_LIB_SRC := $(LIB_SRC) $(filter-out cli/main.c,$(CLI_SRC))
FUZZ_LIB_OBJ := $(FUZZ_LIB_SRC:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_LIB_A := $(FUZZ_BUILD)/lib/libattnrank-fuzz.a
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(FUZZ_SRC))
FUZZ_BIN := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz_%)

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
$(FUZZ_BUILD)/base/version.o: $(BUILD)/version_commit.h
$(FUZZ_BUILD)/base/version.o: FUZZ_FLAGS += -I$(BUILD)

$(FUZZ_LIB_A): $(FUZZ_LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@; $(AR) rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_util.h $(FUZZ_LIB_A)
	@mkdir -p $(dir $@)
	$(call link_prog,$(FUZZ_CC),$(FUZZ_FLAGS) $(PKGS_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_LIB_A))

-include $(FUZZ_LIB_OBJ:.o=.d)
