# Install and uninstall presenter-host (see scripts/install.sh, which does the work),
# or build its Debian package (scripts/deb: dist/presenter-host_<version>_<arch>.deb,
# checked with lintian).
#   make install [PREFIX=/usr/local] [DESTDIR=...] [FROM=<products folder of an earlier build>]
#   make uninstall [PREFIX=/usr/local] [DESTDIR=...]
#   make deb [FROM=<products folder of an earlier release build>]
PREFIX ?= /usr/local
FROM ?=

.PHONY: install uninstall deb
install:
	DESTDIR="$(DESTDIR)" scripts/install.sh --prefix "$(PREFIX)" $(if $(FROM),--from "$(FROM)")

uninstall:
	DESTDIR="$(DESTDIR)" scripts/install.sh --prefix "$(PREFIX)" --uninstall

deb:
	scripts/deb --lint $(if $(FROM),--from "$(FROM)")
