# SPDX-License-Identifier: GPL-3.0-or-later
# mk/tests.mk -- make check: the packages (deps), the Check runner
# $(BUILD)/tests/run_tests of every tests/*/test_*.c suite (the golden
# brackets, the documentation's examples, the CLI, the C API and the Python
# package among them), the source checks (SPDX lines, layers, this build's
# variable checks) and the suites run side by side by scripts/run_check.sh.

TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
SUITES := $(basename $(notdir $(TEST_SRC)))

deps:
	@sh scripts/deps.sh

# the build of make check runs on every CPU (nproc, at most 256): the shared library's second
# object tree (build/pic) then costs about what the serial build saved; the suites run as before
check: deps
	@$(MAKE) --no-print-directory -j$(NCPU) check-build
	@$(MAKE) --no-print-directory check-run

# the Python suite (tests/api/test_python.c) loads the plain build's shared library;
# the sanitizer build's cannot be loaded by /usr/bin/python3, so SAN=1 skips it
CHECK_SO := $(if $(filter 1,$(SAN)),,$(BUILD)/lib/libattnrank.so)
check-build: $(BUILD)/tests/run_tests $(BIN) $(CHECK_SO)
check-run: $(BUILD)/tests/run_tests $(BIN) $(CHECK_SO)
	@sh scripts/check_spdx.sh
	@sh scripts/check_layers.sh
	@sh scripts/check_lib_symbols.sh '$(LIB_A)'
	@sh tests/scripts/test_check_sources.sh
	@sh tests/scripts/test_check_make_vars.sh
	@ATTNRANK_BIN='$(abspath $(BIN))' CK_DEFAULT_TIMEOUT=$${CK_DEFAULT_TIMEOUT:-300} \
	  ATTNRANK_TEST_LIBRARY='$(if $(CHECK_SO),$(abspath $(BUILD)/lib/$(SO_NAME)))' \
	  CHECK_JOBS='$(CHECK_JOBS)' sh scripts/run_check.sh '$(BUILD)/tests/run_tests'

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

$(BUILD)/tests/run_tests.o: tests/run_tests.c $(BUILD)/tests/suites.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -I$(BUILD)/tests -c $< -o $@

$(BUILD)/tests/run_tests: $(BUILD)/tests/run_tests.o $(TEST_OBJ) $(CLI_LIB_A) $(LIB_A)
	$(call link_prog,$(CC),$(filter-out FORCE,$^))

-include $(TEST_OBJ:.o=.d)
