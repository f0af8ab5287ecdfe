# SPDX-License-Identifier: GPL-3.0-or-later
# mk/cli.mk -- the command bin/attnrank ($(BIN)): the objects of cli/*.c linked
# with the static library, and its man page generated from doc/cli.md.

$(BIN): $(CLI_OBJ) $(LIB_A)
	@mkdir -p $(dir $@)
	$(call link_prog,$(CC),$(CLI_OBJ) $(LIB_A))

$(BUILD)/attnrank.1: $(BIN) scripts/gen_man.sh doc/cli.md
	sh scripts/gen_man.sh '$(BIN)' > $@.tmp && mv $@.tmp $@

-include $(CLI_OBJ:.o=.d)
