"""What every lm-* helper needs: types, symbols, lists, CPUs, formatting.

Everything is read through GDB's debug information (field names, types,
offsets computed from them), never through numbers copied from the C code,
so a field added to a struct does not break the helpers.
"""

import gdb


class NotReady(gdb.GdbError):
    """The kernel has not got far enough for this helper: said plainly."""

    def __init__(self, what):
        super().__init__(f"{what}: if the kernel has not got that far yet, 'continue' a while "
                         "(or 'break kernel_init', then 'continue')")


_types = {}


def lookup_type(name):
    """gdb.lookup_type(name), cached; the cache empties on a new ELF."""
    if name not in _types:
        _types[name] = gdb.lookup_type(name)
    return _types[name]


def _clear_types(event):
    _types.clear()


gdb.events.new_objfile.connect(_clear_types)


def symbol(name):
    """The value of a kernel variable, static ones included."""
    sym = gdb.lookup_global_symbol(name) or gdb.lookup_static_symbol(name)
    if sym is None:
        raise gdb.GdbError(f"no symbol {name!r}: is build/leftmost.elf loaded?")
    return sym.value()


def offset_of(type_name, member):
    """Byte offset of member (may be dotted: "se.run_node") in the struct."""
    offset = 0
    t = lookup_type(type_name)
    for part in member.split("."):
        field = next((f for f in t.strip_typedefs().fields() if f.name == part), None)
        if field is None:
            raise gdb.GdbError(f"{type_name} has no member {member}")
        offset += field.bitpos // 8
        t = field.type
    return offset


def container_of(ptr, type_name, member):
    """The struct type_name * whose member lives at ptr (C's container_of)."""
    addr = int(ptr) - offset_of(type_name, member)
    return gdb.Value(addr).cast(lookup_type(type_name).pointer())


def list_entries(head, type_name, member):
    """The objects on a struct list_node list, head excluded."""
    node = head["next"]
    while int(node) != int(head.address):
        yield container_of(node, type_name, member)
        node = node["next"]


def enum_name(value, prefix=""):
    """An enum value as its enumerator's name, prefix removed ("RUNNING")."""
    for field in value.type.strip_typedefs().fields():
        if field.enumval == int(value):
            return field.name[len(prefix):] if field.name.startswith(prefix) else field.name
    return str(int(value))


def enum_names(enumerator, prefix=""):
    """{value: name} for the (maybe anonymous) enum declaring enumerator."""
    sym = gdb.lookup_symbol(enumerator)[0]
    if sym is None:
        raise gdb.GdbError(f"no enumerator {enumerator} in the debug information")
    return {f.enumval: f.name[len(prefix):] for f in sym.type.strip_typedefs().fields()}


def task_name(task):
    return task["name"].string()


def describe_task(task):
    """'hog (pid 5)', or '-' for NULL."""
    if not int(task):
        return "-"
    return f"{task_name(task)} (pid {int(task['pid'])})"


def ms(ns, signed=False):
    """ns as milliseconds with six decimals, as sched/debug.c prints them."""
    ns = int(ns)
    if signed and ns >= 1 << 63:
        ns -= 1 << 64
    sign = "-" if ns < 0 else ("+" if signed else "")
    ns = abs(ns)
    return f"{sign}{ns // 1000000}.{ns % 1000000:06d}"


def key_delta(a, b):
    """a - b for two vruntimes, as the signed difference (they may wrap)."""
    d = (int(a) - int(b)) % (1 << 64)
    return d - (1 << 64) if d >= 1 << 63 else d


# CPUs --------------------------------------------------------------------

def nr_cpus():
    return int(symbol("nr_cpus"))


def check_cpu_number(cpu):
    """Refuse a CPU number outside cpus[]."""
    limit = symbol("cpus").type.range()[1] + 1
    if not 0 <= cpu < limit:
        raise gdb.GdbError(f"cpu {cpu}: leftmost knows CPUs 0..{limit - 1}")


def cpu_struct(cpu):
    """&cpus[cpu], after checking that the CPU exists and has started."""
    check_cpu_number(cpu)
    c = symbol("cpus")[cpu]
    if not int(c["arch"]["self"]):
        raise NotReady(f"cpu {cpu} is not up yet (cpus[{cpu}].arch.self is NULL; "
                       f"CPUs started so far: {nr_cpus()})")
    return c.address


def selected_cpu():
    """The CPU GDB's selected thread is: QEMU shows vCPU n as thread n + 1.

    The GS base, once the kernel has set it, points at that CPU's entry
    in cpus[] (kernel/percpu.h), whose id is the answer straight from the
    kernel. Before that, the thread number is all there is."""
    thread = gdb.selected_thread()
    if thread is None:
        raise gdb.GdbError("no thread: connect first (target remote :1234)")
    try:
        base = int(gdb.parse_and_eval("$gs_base")) % (1 << 64)
    except gdb.error:
        base = 0
    cpus = symbol("cpus")
    start = int(cpus.address)
    if start <= base < start + cpus.type.sizeof and (base - start) % cpus.type.target().sizeof == 0:
        return int(gdb.Value(base).cast(cpus.type.target().pointer())["id"])
    return thread.num - 1


def parse_cpu(arg):
    """A command's optional CPU argument; the selected CPU if none."""
    arg = arg.strip()
    if not arg:
        return selected_cpu()
    try:
        return int(gdb.parse_and_eval(arg))
    except gdb.error as e:
        raise gdb.GdbError(f"not a CPU number: {arg} ({e})")


def cpu_rq(cpu):
    """&runqueues[cpu], once the scheduler runs there."""
    cpu_struct(cpu)
    rq = symbol("runqueues")[cpu]
    if not int(rq["idle"]):
        raise NotReady(f"the scheduler has not started on cpu {cpu} (runqueues[{cpu}].idle is NULL)")
    return rq.address


def cpu_current(cpu):
    """The task cpu runs, as the kernel itself records it (cpus[].current)."""
    task = cpu_struct(cpu)["current"]
    if not int(task):
        raise NotReady(f"cpu {cpu} runs no task yet (cpus[{cpu}].current is NULL)")
    return task


# Scheduling classes --------------------------------------------------------

def sched_classes():
    """The classes in the order the core tries them (sched_classes[] in
    sched/select.c, up to its NULL): rt, the normal class, idle."""
    array = symbol("sched_classes")
    for i in range(array.type.range()[1] + 1):
        if not int(array[i]):
            return
        yield array[i]


def normal_class():
    """The class of SCHED_NORMAL, BATCH and IDLE tasks, chosen at boot by
    sched=cfs|sd|o1. sched/sched.h's normal_sched_class is a macro for
    sched_classes[1], and a macro has no debug information: read the array."""
    return symbol("sched_classes")[1]


def normal_name():
    """The normal class's own name (its name field): 'fair' for CFS, 'sd' or 'o1'."""
    return normal_class()["name"].string()


def is_normal(task):
    """True if task belongs to the normal class, whichever was chosen."""
    return int(task["sched_class"]) == int(normal_class())


def prio_array_tasks(array, member):
    """(level, task) for each task in a struct prio_array (sched/prio_array.h),
    in the order a pick would take them: level 0 first, each list head first.
    member is the task's list node ("sd.run_list"). The lists are read, not
    the bitmap, so that a bitmap out of step with them cannot hide a task."""
    queue = array["queue"]
    for level in range(queue.type.range()[1] + 1):
        for task in list_entries(queue[level], "struct task", member):
            yield level, task


def bitmap40(array):
    """A prio_array's bitmap in hex, ten digits, as sched/debug.c prints it."""
    return f"{int(array['bitmap']):010x}"
