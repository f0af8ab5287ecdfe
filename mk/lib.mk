# SPDX-License-Identifier: GPL-3.0-or-later
# mk/lib.mk -- the library: the objects of LIB_SRC (mk/config.mk) and the
# pattern rule every C object of $(BUILD) is compiled by, the static library
# libattnrank.a, the shared library from a second tree of position-independent
# objects, its pkg-config file, and the source's commit (version_commit.h).

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(LIB_A): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@; $(AR) rcs $@ $^

# ---- the shared library: the same sources as position-independent objects in a second
# tree, symbols hidden but the public API's (api/libattnrank.map, checked by
# tests/api/test_install.c with nm -D), its small libraries linked as shared objects
# (a process loading it pays their mappings; the programs keep their static link)
SO_MAJOR := 0
SO_VERSION := 0.2.0
SO_NAME := libattnrank.so.$(SO_MAJOR)
PIC_OBJ := $(LIB_SRC:%.c=$(BUILD)/pic/%.o)
SO_FILE := $(BUILD)/lib/libattnrank.so.$(SO_VERSION)
LDLIBS_SO = $(LIBS_BIG) $(shell pkg-config --libs lapacke blas 2>/dev/null) $(LIBS_SMALL) $(LIBS_SYS)

lib: $(SO_FILE) $(BUILD)/lib/libattnrank.so $(LIB_A) $(BUILD)/attnrank.pc

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -DATTNRANK_BUILDING -MMD -MP -c $< -o $@

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

# the source's commit (git describe --dirty) for the provenance of every result
# (base/version.h): rewritten only when it changes, so version.o rebuilds then
# (in every object tree: $(BUILD), $(BUILD)/pic and build-fuzz)
$(BUILD)/version_commit.h: FORCE
	@mkdir -p $(dir $@)
	@c=$$(git describe --always --dirty --abbrev=12 2>/dev/null | tr -cd 'A-Za-z0-9._+-'); c=$${c:-unknown}; \
	  echo "#define ATTNRANK_COMMIT \"$$c\"" > $@.tmp; cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

$(BUILD)/base/version.o $(BUILD)/pic/base/version.o: $(BUILD)/version_commit.h
$(BUILD)/base/version.o $(BUILD)/pic/base/version.o: ALL_CFLAGS += -I$(BUILD)

-include $(LIB_OBJ:.o=.d) $(PIC_OBJ:.o=.d)
