# SPDX-License-Identifier: GPL-3.0-or-later
# mk/cli.mk -- the command bin/attnrank ($(BIN)): the objects of cli/*.c linked
# with the static library (the objects but main.o also as libattnrank-cli.a, which
# the test runners and benchmarks link), and its man page generated from doc/cli.md.

CLI_LIB_OBJ := $(filter-out $(BUILD)/cli/main.o,$(CLI_OBJ))

$(CLI_LIB_A): $(CLI_LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@; $(AR) rcs $@ $^

$(BIN): $(BUILD)/cli/main.o $(CLI_LIB_A) $(LIB_A)
	@mkdir -p $(dir $@)
	$(call link_prog,$(CC),$(BUILD)/cli/main.o $(CLI_LIB_A) $(LIB_A))

$(BUILD)/attnrank.1: $(BIN) scripts/gen_man.sh doc/cli.md
	sh scripts/gen_man.sh '$(BIN)' > $@.tmp && mv $@.tmp $@

-include $(CLI_OBJ:.o=.d)
