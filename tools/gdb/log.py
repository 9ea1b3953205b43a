"""The kernel log: lm-log [N].

printk() (kernel/printk.c) copies every line it prints into log_buf, a
ring of LOG_BUF_SIZE bytes; log_buf_head counts the bytes ever written, so
the newest byte is at (log_buf_head - 1) % LOG_BUF_SIZE. The ring keeps
the log even when the serial console was quiet or nobody was looking.
"""

import gdb

from utils import symbol


def log_text():
    """The ring's contents, oldest byte first (from a line start if it wrapped)."""
    buf = symbol("log_buf")
    size = buf.type.sizeof
    head = int(symbol("log_buf_head"))
    data = bytes(gdb.selected_inferior().read_memory(buf.address, size))
    if head <= size:
        return data[:head].decode("utf-8", "replace")
    start = head % size
    text = (data[start:] + data[:start]).decode("utf-8", "replace")
    return text[text.find("\n") + 1:]       # the oldest line was partly overwritten


class LmLog(gdb.Command):
    """Print the last lines of the kernel log (its ring buffer), like dmesg.

Usage: lm-log [N]      (default 20 lines; 0 for the whole buffer)"""

    def __init__(self):
        super().__init__("lm-log", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        count = int(gdb.parse_and_eval(arg)) if arg.strip() else 20
        lines = log_text().splitlines()
        if not lines:
            raise gdb.GdbError("the kernel log is empty: nothing printed yet "
                               "(printk's first line is 'leftmost: booting')")
        gdb.write("\n".join(lines[-count:] if count else lines) + "\n")


LmLog()
