# Install and uninstall presenter-host (see scripts/install.sh, which does the work).
#   make install [PREFIX=/usr/local] [DESTDIR=...] [FROM=<products folder of an earlier build>]
#   make uninstall [PREFIX=/usr/local] [DESTDIR=...]
PREFIX ?= /usr/local
FROM ?=

.PHONY: install uninstall
install:
	DESTDIR="$(DESTDIR)" scripts/install.sh --prefix "$(PREFIX)" $(if $(FROM),--from "$(FROM)")

uninstall:
	DESTDIR="$(DESTDIR)" scripts/install.sh --prefix "$(PREFIX)" --uninstall
