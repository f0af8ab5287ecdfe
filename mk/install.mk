# SPDX-License-Identifier: GPL-3.0-or-later
# mk/install.mk -- make install PREFIX=... [DESTDIR=...]: the command, the
# header, the shared and static libraries, the pkg-config file, the man page,
# the Python package and the documentation (tests/api/test_install.c installs
# into a temporary prefix and builds examples/bracket.c against it).

install: $(BIN) lib $(BUILD)/attnrank.1
	install -d '$(DESTDIR)$(PREFIX)/bin' '$(DESTDIR)$(PREFIX)/lib/pkgconfig' '$(DESTDIR)$(PREFIX)/include' \
	  '$(DESTDIR)$(PREFIX)/share/man/man1' '$(DESTDIR)$(PREFIX)/lib/python3/dist-packages/attnrank'
	install -m 755 '$(BIN)' '$(DESTDIR)$(PREFIX)/bin/attnrank'
	install -m 644 include/attnrank.h '$(DESTDIR)$(PREFIX)/include/attnrank.h'
	install -m 755 '$(SO_FILE)' '$(DESTDIR)$(PREFIX)/lib/libattnrank.so.$(SO_VERSION)'
	ln -sf libattnrank.so.$(SO_VERSION) '$(DESTDIR)$(PREFIX)/lib/$(SO_NAME)'
	ln -sf $(SO_NAME) '$(DESTDIR)$(PREFIX)/lib/libattnrank.so'
	install -m 644 '$(LIB_A)' '$(DESTDIR)$(PREFIX)/lib/libattnrank.a'
	install -m 644 '$(BUILD)/attnrank.pc' '$(DESTDIR)$(PREFIX)/lib/pkgconfig/attnrank.pc'
	install -m 644 '$(BUILD)/attnrank.1' '$(DESTDIR)$(PREFIX)/share/man/man1/attnrank.1'
	install -m 644 python/attnrank/*.py '$(DESTDIR)$(PREFIX)/lib/python3/dist-packages/attnrank/'
	install -d '$(DESTDIR)$(PREFIX)/share/doc/attnrank/doc'
	install -m 644 README.md CHANGELOG.md LICENSE CITATION.cff '$(DESTDIR)$(PREFIX)/share/doc/attnrank/'
	install -m 644 doc/*.md '$(DESTDIR)$(PREFIX)/share/doc/attnrank/doc/'
