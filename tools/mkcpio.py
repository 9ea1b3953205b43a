#!/usr/bin/env python3
"""Write a "newc" cpio archive, the format of Linux's initramfs.

Usage: tools/mkcpio.py OUT PATH=FILE...

Each PATH=FILE puts the host's FILE into the archive as PATH (a leading
"/" is dropped: "bin/hello=build/user/bin/hello"), with FILE's permission
bits. Every directory above a PATH gets an entry of its own (mode 0755)
before its first file. Owners are root and every time is 0, so the same
files always give the same archive.

The format: each entry is a 110-byte ASCII header ("070701", then 13
numbers as 8 hex digits each), the name and its NUL, zeros up to a multiple
of 4 bytes, the data, zeros up to a multiple of 4; an entry named
"TRAILER!!!" ends the archive. lib/cpio.c reads it in the kernel.
"""
import os
import stat
import sys

MAGIC = b"070701"
TRAILER = "TRAILER!!!"

# The header's numbers, in order; those not given are 0.
FIELDS = ("ino", "mode", "uid", "gid", "nlink", "mtime", "filesize",
          "devmajor", "devminor", "rdevmajor", "rdevminor", "namesize", "check")


def header(**values):
    return MAGIC + b"".join(b"%08x" % values.get(f, 0) for f in FIELDS)


def pad4(data):
    return data + b"\0" * (-len(data) % 4)


def entry(ino, name, mode, nlink, data=b""):
    encoded = name.encode() + b"\0"
    head = header(ino=ino, mode=mode, nlink=nlink, filesize=len(data), namesize=len(encoded))
    return pad4(head + encoded) + pad4(data)


def archive(files):
    """The archive bytes for [(path in the archive, data, permission bits)]."""
    out, is_dir = [], {}              # every path so far: True for a directory
    for path, data, perm in files:
        path = path.lstrip("/")
        parts = path.split("/")
        if "" in parts or path in is_dir:
            raise ValueError("bad or repeated path: %r" % path)
        for depth in range(1, len(parts)):
            d = "/".join(parts[:depth])
            if d not in is_dir:
                is_dir[d] = True
                out.append(entry(len(is_dir), d, stat.S_IFDIR | 0o755, 2))
            elif not is_dir[d]:
                raise ValueError("%r is a file, not a directory" % d)
        is_dir[path] = False
        out.append(entry(len(is_dir), path, stat.S_IFREG | perm, 1, data))
    out.append(entry(0, TRAILER, 0, 1))
    return b"".join(out)


def main(argv):
    if len(argv) < 2 or not all("=" in a for a in argv[2:]):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    files = []
    for arg in argv[2:]:
        path, source = arg.split("=", 1)
        with open(source, "rb") as f:
            files.append((path, f.read(), stat.S_IMODE(os.stat(source).st_mode)))
    try:
        data = archive(files)
    except ValueError as e:
        print("mkcpio: %s" % e, file=sys.stderr)
        return 1
    # Write a temporary and rename it, so make never sees half an archive.
    with open(argv[1] + ".tmp", "wb") as f:
        f.write(data)
    os.replace(argv[1] + ".tmp", argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
