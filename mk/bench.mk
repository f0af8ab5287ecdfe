# SPDX-License-Identifier: GPL-3.0-or-later
# mk/bench.mk -- make bench: the benchmark programs bench/*.c (each one file,
# linked with the static library) and bench/run.sh, which runs them with the
# CLI and the verify runner and records their figures in bench/results/.

BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

bench: deps
	@$(MAKE) --no-print-directory bench-run

bench-run: $(BIN) $(BENCH_BIN) $(BUILD)/tests/run_verify
	@BUILD='$(BUILD)' sh bench/run.sh '$(abspath $(BIN))'

$(BUILD)/bench/%: bench/%.c $(CLI_LIB_A) $(LIB_A)
	@mkdir -p $(dir $@)
	$(call link_prog,$(CC),$(ALL_CFLAGS) $< $(CLI_LIB_A) $(LIB_A))
