/* ktest=procfs: the tests of kernel/fs/proc/procfs.c, through its public interface. */
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/fs/fs.h"
#include "kernel/task/process.h"
#include "kernel/debug/ktest.h"
#include "kernel/sysctl.h"
#include "kernel/fs/path_walk.h"
#include "sched/api.h"
#include "sched/platform.h"
#include "lib/printf.h"
#include "lib/string.h"

/* Tests: /proc as a program sees it, through the file system's calls. */

static long read_text(const char *path, char *buf, size_t size)
{
	struct file *f;
	int err = fs_open(NULL, path, O_RDONLY, 0, &f);
	if (err)
		return err;
	long n = kernel_read(f, buf, size - 1);
	file_put(f);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

static long write_text(const char *path, const char *text)
{
	struct file *f;
	int err = fs_open(NULL, path, O_WRONLY | O_TRUNC, 0, &f);
	if (err)
		return err;
	long n = kernel_write(f, text, strlen(text));
	file_put(f);
	return n;
}

KTEST(procfs, a_tunable_is_read_and_written_with_its_range)
{
	char buf[32];
	const char *knob = "/proc/sys/kernel/ktest_knob";
	int64_t before;
	KASSERT(t, sysctl_get("ktest_knob", &before) == 0);
	KEXPECT_EQ(t, write_text(knob, "9\n"), 2);
	KEXPECT(t, read_text(knob, buf, sizeof(buf)) == 2 && strcmp(buf, "9\n") == 0);
	KEXPECT_EQ(t, write_text(knob, "11\n"), -EINVAL);          /* out of 1..10: unchanged */
	KEXPECT_EQ(t, write_text(knob, "seven"), -EINVAL);
	KEXPECT(t, read_text(knob, buf, sizeof(buf)) == 2 && strcmp(buf, "9\n") == 0);
	KEXPECT_EQ(t, write_text("/proc/uptime", "1"), -EACCES);   /* takes no writes */
	sysctl_set("ktest_knob", before);
}

KTEST(procfs, a_program_cannot_change_proc)
{
	KEXPECT_EQ(t, fs_mkdir(NULL, "/proc/x", 0755), -ENOENT);
	KEXPECT_EQ(t, fs_unlink(NULL, "/proc/uptime"), -EPERM);
	KEXPECT_EQ(t, fs_rmdir(NULL, "/proc/sys"), -EPERM);
	KEXPECT_EQ(t, fs_rename(NULL, "/proc/uptime", NULL, "/tmp/uptime", 0), -EXDEV);
	struct file *f;
	KEXPECT_EQ(t, fs_open(NULL, "/proc/new", O_CREAT | O_WRONLY, 0644, &f), -ENOENT);
}

KTEST(procfs, a_process_has_a_directory_while_it_is_there)
{
	const char *argv[] = { "/bin/sleep", "0.3", NULL }, *envp[] = { NULL };
	struct inode *sleep;
	if (path_lookup(NULL, argv[0], &sleep) != 0)
		KSKIP(t, "no /bin/sleep in the initramfs");
	inode_put(sleep);
	int status, pid = process_spawn("/bin/sleep", argv, envp);
	KASSERT(t, pid > 0);
	char path[48], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	KEXPECT(t, read_text(path, buf, sizeof(buf)) > 0);
	char head[24];
	snprintf(head, sizeof(head), "%d (sleep) ", pid);
	KEXPECT(t, strncmp(buf, head, strlen(head)) == 0);
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	KEXPECT(t, read_text(path, buf, sizeof(buf)) == 15 && memcmp(buf, "/bin/sleep\0" "0.3\0", 15) == 0);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, pid);
	KEXPECT(t, read_text(path, buf, sizeof(buf)) == 6 && strcmp(buf, "sleep\n") == 0);
	process_wait(pid, &status);
	/* Gone with its process, not at the next look into /proc (which a
	 * lookup of /proc/PID would be): what it held comes back at once. */
	struct inode *proc;
	char name[12];
	snprintf(name, sizeof(name), "%d", pid);
	KASSERT(t, path_lookup(NULL, "/proc", &proc) == 0);
	tree_lock();
	KEXPECT(t, dir_find(proc, name, strlen(name)) == NULL);
	tree_unlock();
	inode_put(proc);
	snprintf(path, sizeof(path), "/proc/%d", pid);
	struct inode *gone;
	KEXPECT_EQ(t, path_lookup(NULL, path, &gone), -ENOENT);
}

/* /proc/schedstat's cpu lines: how many, and their yld_count summed. */
static int schedstat_yields(const char *text, int64_t *yields)
{
	int cpus = 0;
	*yields = 0;
	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *count = strncmp(line, "cpu", 3) == 0 ? strchr(line, ' ') : NULL;
		const char *end = count ? strchr(count + 1, ' ') : NULL;
		int64_t v;
		if (end && parse_i64(count + 1, (size_t)(end - count - 1), &v) == 0) {
			*yields += v;
			cpus++;
		}
	}
	return cpus;
}

KTEST(procfs, schedstat_counts_what_the_scheduler_does)
{
	static char buf[4096];
	KASSERT(t, read_text("/proc/schedstat", buf, sizeof(buf)) > 0);
	KEXPECT(t, strncmp(buf, "version 15\ntimestamp ", 21) == 0);
	int64_t before, after;
	KEXPECT_EQ(t, schedstat_yields(buf, &before), cpus_online());
	sched_yield();
	read_text("/proc/schedstat", buf, sizeof(buf));
	schedstat_yields(buf, &after);
	KEXPECT(t, after > before);
}
