#!/bin/bash
# tools/mkiso.sh ELF ISO CMDLINE
#
# Build a bootable BIOS+UEFI ISO for the kernel ELF with grub-mkrescue.
# GRUB boots the kernel at once (no menu) with the multiboot2 command line
# CMDLINE and talks on the serial port as well as the screen. If a file
# initrd.cpio sits next to ELF, GRUB also loads it, as the multiboot2
# module named "initrd" (the programs in /bin: docs/boot.md).
#
# Command line: words are separated by spaces; double quotes group a value
# with spaces (as on Linux) and are removed, so the kernel receives
#   run="fairness:hogs=2;spawn"  as  run=fairness:hogs=2;spawn
#   msg="a b"                    as  "msg=a b"   (GRUB quotes words with spaces)
# ; = , : $ and the like reach the kernel intact. ' and \ are refused:
# GRUB's multiboot2 command would pass them on as \' and \\.
#
# Skips the work if ISO is newer than this script and was built from the
# same ELF and initrd (path, size, time) with the same CMDLINE (all kept in
# ISO.cmdline). Quiet unless it fails.
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 ELF ISO CMDLINE" >&2
    exit 2
fi
elf=$1 iso=$2 cmdline=$3

case "$cmdline" in
    *\'* | *\\*) echo "mkiso: ' and \\ are not allowed in the command line" >&2; exit 1 ;;
esac

# Turn the command line into GRUB script words: split on spaces outside
# double quotes, drop the double quotes, put each word in '...' (where
# GRUB treats every character literally: ; $ # { } and so on).
words=$(printf '%s\n' "$cmdline" | awk '{
    out = ""; word = ""; inq = 0; have = 0
    for (i = 1; i <= length($0); i++) {
        c = substr($0, i, 1)
        if (c == "\"") { inq = !inq; have = 1; continue }
        if ((c == " " || c == "\t") && !inq) {
            if (have) out = out " \047" word "\047"
            word = ""; have = 0; continue
        }
        word = word c; have = 1
    }
    if (inq) { print "unbalanced"; exit 1 }
    if (have) out = out " \047" word "\047"
    print out
}') || { echo "mkiso: unbalanced \" in the command line" >&2; exit 1; }

# MKISO_PRINT=FILE, for tests/tools/test_make_lines.py: append ISO, CMDLINE and
# the GRUB words to FILE, each ended by a NUL byte, and build nothing.
if [ -n "${MKISO_PRINT:-}" ]; then
    printf '%s\0' "$iso" "$cmdline" "$words" >> "$MKISO_PRINT"
    exit 0
fi

[ -f "$elf" ] || { echo "mkiso: $elf: no such file" >&2; exit 1; }

initrd=$(dirname "$elf")/initrd.cpio
[ -f "$initrd" ] || initrd=""

# Up to date? (Another ELF, e.g. the clang build, must not reuse this ISO.)
stamp="$(readlink -f "$elf") $(stat -c '%s %Y' "$elf")
$cmdline"
if [ -n "$initrd" ]; then
    stamp="$stamp
$(readlink -f "$initrd") $(stat -c '%s %Y' "$initrd")"
fi
if [ -f "$iso" ] && [ "$iso" -nt "$0" ] &&
   [ -f "$iso.cmdline" ] && [ "$(cat "$iso.cmdline")" = "$stamp" ]; then
    exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/iso/boot/grub"
cp "$elf" "$tmp/iso/boot/leftmost.elf"
module=""
if [ -n "$initrd" ]; then
    cp "$initrd" "$tmp/iso/boot/initrd.cpio"
    module="
    module2 /boot/initrd.cpio initrd"
fi
cat > "$tmp/iso/boot/grub/grub.cfg" <<CFG
set timeout=0
set default=0
# Video drivers, so that under UEFI GRUB finds a video mode (a framebuffer).
insmod all_video
serial --unit=0 --speed=115200
terminal_input serial console
terminal_output serial console

menuentry "leftmost" {
    multiboot2 /boot/leftmost.elf$words$module
    boot
}
CFG

# grub-mkrescue chatters on stderr even on success: show it only on failure.
mkdir -p "$(dirname "$iso")"
if ! grub-mkrescue -o "$iso.tmp" "$tmp/iso" >"$tmp/log" 2>&1; then
    cat "$tmp/log" >&2
    echo "mkiso: grub-mkrescue failed (tools/deps.sh installs what it needs)" >&2
    rm -f "$iso.tmp"
    exit 1
fi
mv "$iso.tmp" "$iso"
printf '%s\n' "$stamp" > "$iso.cmdline"
