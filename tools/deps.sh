#!/bin/sh
# tools/deps.sh [--check] [what...]
#
# Make sure the host has the Debian/Ubuntu packages that building, booting
# and testing leftmost need; install the missing ones with apt-get.
#   what   groups or package names (default: all groups)
#          build  compiler, assembler, linker, ISO tools (GRUB, xorriso, mtools),
#                 musl-tools (musl-gcc, for the ring-3 programs in user/bin/)
#          run    QEMU, OVMF (UEFI firmware), Python 3
#          debug  gdb
#          clang  clang, for the clang build check
#          browser  chromium, to render the trace SVG (make test asks for it)
#          bochs  Bochs, its BIOSes and its terminal display (make test,
#                 make run EMU=bochs and make bench EMU=bochs ask for it)
#          all    every group above but browser and bochs
#   --check  only report what is missing (exit 1 if anything is)
# Silent when everything is present, so `make run` can call it every time.
set -eu

build="gcc make binutils nasm grub-common grub-pc-bin grub-efi-amd64-bin xorriso mtools musl-tools"
run="qemu-system-x86 ovmf python3"
debug="gdb"
clang="clang"
browser="chromium"
bochs="bochs bochsbios vgabios bochs-term"

check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
[ $# -gt 0 ] || set -- all

# Expand group names into package names.
want=""
for w in "$@"; do
    case "$w" in
        all)   want="$want $build $run $debug $clang" ;;
        build) want="$want $build" ;;
        run)   want="$want $run" ;;
        debug) want="$want $debug" ;;
        clang) want="$want $clang" ;;
        browser) want="$want $browser" ;;
        bochs) want="$want $bochs" ;;
        -*)    echo "usage: $0 [--check] [build|run|debug|clang|browser|bochs|all|PACKAGE...]" >&2; exit 2 ;;
        *)     want="$want $w" ;;
    esac
done

# One dpkg-query for all packages (fast). Unknown packages print nothing,
# so a package is missing unless dpkg reports it "install ok installed".
# shellcheck disable=SC2086
installed=$(dpkg-query -W -f='${Package} ${Status}\n' $want 2>/dev/null |
            awk '$NF == "installed" { sub(/:.*/, "", $1); print $1 }' || true)
missing=""
for p in $want; do
    case " $missing " in *" $p "*) continue ;; esac       # listed twice
    if ! printf '%s\n' "$installed" | grep -qx "$p"; then
        missing="$missing $p"
    fi
done
missing=${missing# }
[ -n "$missing" ] || exit 0

if [ "$check" = 1 ]; then
    echo "deps: missing: $missing (run tools/deps.sh to install)" >&2
    exit 1
fi

# Install as root, or through sudo.
# (sudo drops the environment, so DEBIAN_FRONTEND is passed through env.)
apt="env DEBIAN_FRONTEND=noninteractive apt-get"
if [ "$(id -u)" = 0 ]; then
    :
elif command -v sudo >/dev/null 2>&1; then
    apt="sudo $apt"
else
    echo "deps: missing: $missing" >&2
    echo "deps: need root or sudo to install them (apt-get install $missing)" >&2
    exit 1
fi

echo "deps: installing $missing" >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# apt-get's output is shown only if it fails.
# shellcheck disable=SC2086
if ! { $apt update -q &&
       $apt install -y -q --no-install-recommends $missing; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "deps: apt-get failed" >&2
    exit 1
fi
echo "deps: installed $missing" >&2
