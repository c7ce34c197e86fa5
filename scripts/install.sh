#!/usr/bin/env bash
# Installs presenter-host, or uninstalls exactly what it installs.
#
#   scripts/install.sh [--prefix DIR] [--from DIR]     install (default prefix /usr/local)
#   scripts/install.sh [--prefix DIR] --uninstall      uninstall
#
# What it installs, under the prefix:
#   bin/presenter-host                         the release binary (the Swift runtime linked in)
#   libexec/presenter-host/presenter-host-plugins  where plugin code runs: the presenter
#                                              process, the scan helper, --in-process
#   libexec/presenter-host/presenter-host-fetch   its HTTP helper (add-bookmark's get-title;
#                                              both kept out of bin: they are not commands)
#   lib/presenter-host/plugins/lib*.so         the bundled presenters
#   include/presenter_abi.h                    the plugin ABI header
#   lib/pkgconfig/presenter-abi.pc             for `pkg-config --cflags presenter-abi`
#                                              and `--variable=plugindir`
#   share/man/man1/presenter-host.1            `man presenter-host`
# DESTDIR (from the environment, as packagers set it) is put in front of
# every path written, and never into the files. --from takes the products
# of an earlier build (a folder holding the executables and the lib*.so)
# instead of running scripts/release-build. `make install PREFIX=...` and
# `make uninstall PREFIX=...` call this script.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'install.sh: %s\n' "$*" >&2; }
fail() { printf 'Error: %s\n' "$*" >&2; exit 64; }

prefix=/usr/local
from=
action=install
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] && [ -n "$2" ] || fail "missing value for '--prefix DIR'; give the installation prefix"; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#--prefix=}; shift ;;
        --from) [ $# -ge 2 ] && [ -n "$2" ] || fail "missing value for '--from DIR'; give a build products folder"; from=$2; shift 2 ;;
        --from=*) from=${1#--from=}; shift ;;
        --uninstall) action=uninstall; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
        *) fail "unknown argument '$1'; use --prefix DIR, --from DIR or --uninstall" ;;
    esac
done
case "$prefix" in
    /*) ;;
    *) fail "--prefix '$prefix' is not an absolute path; give one such as /usr/local" ;;
esac
prefix=${prefix%/}
destdir=${DESTDIR:-}

plugins=(libMBHud.so libNetActivity.so libAddBookmark.so libLine.so)
plugindir=lib/presenter-host/plugins
# Every file this script installs, relative to the prefix: uninstall removes these and nothing else.
fetcher=libexec/presenter-host/presenter-host-fetch
pluginexec=libexec/presenter-host/presenter-host-plugins
files=(bin/presenter-host "$pluginexec" "$fetcher" include/presenter_abi.h lib/pkgconfig/presenter-abi.pc share/man/man1/presenter-host.1)
for plugin in "${plugins[@]}"; do files+=("$plugindir/$plugin"); done

if [ "$action" = uninstall ]; then
    for file in "${files[@]}"; do
        rm -f "$destdir$prefix/$file"
    done
    # The folders only this program uses, when nothing else was put there
    # (a plugin you installed yourself stays, and so does its folder).
    rmdir "$destdir$prefix/$plugindir" "$destdir$prefix/lib/presenter-host" "$destdir$prefix/libexec/presenter-host" 2>/dev/null || true
    say "removed presenter-host from $destdir$prefix"
    exit 0
fi

if [ -z "$from" ]; then
    say "building the release binary (scripts/release-build)"
    "$(dirname "$0")/setup" >&2
    "$(dirname "$0")/release-build" >&2
    from=$("$(dirname "$0")/release-build" --show-bin-path)
fi
for product in presenter-host presenter-host-plugins presenter-host-fetch "${plugins[@]}"; do
    [ -f "$from/$product" ] || fail "$from/$product does not exist; build first (scripts/release-build) or give --from the products folder"
done

root=$destdir$prefix
install -d "$root/bin" "$root/libexec/presenter-host" "$root/$plugindir" "$root/include" "$root/lib/pkgconfig" "$root/share/man/man1"
install -m 755 "$from/presenter-host" "$root/bin/presenter-host"
install -m 755 "$from/presenter-host-plugins" "$root/$pluginexec"
install -m 755 "$from/presenter-host-fetch" "$root/$fetcher"
for plugin in "${plugins[@]}"; do install -m 644 "$from/$plugin" "$root/$plugindir/$plugin"; done
install -m 644 Sources/PresenterABI/include/presenter_abi.h "$root/include/presenter_abi.h"
install -m 644 docs/presenter-host.1 "$root/share/man/man1/presenter-host.1"
scripts/presenter-abi-pc "$prefix" >"$root/lib/pkgconfig/presenter-abi.pc"
chmod 644 "$root/lib/pkgconfig/presenter-abi.pc"
say "installed presenter-host into $root"
