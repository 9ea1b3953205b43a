/*
 * Did the kernel give everything back? What it holds, as a program sees
 * it through sysinfo(): free memory (freeram, and bufferram, which
 * leftmost fills with its own page tables) and its count of tasks
 * (procs). A program takes the figures before its work and again once its
 * processes have all ended, and prints the difference: on leftmost both
 * must come back exactly (kernel/entry/sys_system.c says how free memory is
 * counted for that). On Linux they never do; the figures then say little.
 *
 * Some things go lazily. A dead process's task is freed by the kernel's
 * reaper soon after its parent has waited for it, its stack after a TLB
 * shootdown, and an orphan ends on its own. So the second reading waits,
 * polling, until the figures are back, and gives up after a bound: a leak
 * never comes back.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

struct kernel_usage {
	long long free_bytes;
	long tasks;
};

static inline struct kernel_usage kernel_usage_now(void)
{
	struct sysinfo si;
	if (sysinfo(&si) != 0)
		return (struct kernel_usage){ -1, -1 };
	return (struct kernel_usage){ ((long long)si.freeram + (long long)si.bufferram) * si.mem_unit, si.procs };
}

/* The figures once they are back to `before`, or after `seconds` of waiting. */
static inline struct kernel_usage kernel_usage_settled(struct kernel_usage before, int seconds)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	struct kernel_usage now = kernel_usage_now();
	for (int i = 0; i < seconds * 100 && (now.free_bytes != before.free_bytes || now.tasks != before.tasks); i++) {
		nanosleep(&tick, NULL);
		now = kernel_usage_now();
	}
	return now;
}

/* " leaked_pages=N leaked_bytes=N leaked_tasks=N", for a RESULT line: what
 * did not come back (negative: more came back than went). A part of a
 * page counts as a page. */
static inline void print_leaks(struct kernel_usage before, struct kernel_usage after)
{
	long long bytes = before.free_bytes - after.free_bytes;
	long long pages = bytes > 0 ? (bytes + 4095) / 4096 : -((-bytes + 4095) / 4096);
	printf(" leaked_pages=%lld leaked_bytes=%lld leaked_tasks=%ld", pages, bytes, after.tasks - before.tasks);
}

/*
 * Where they went. Booted with page_owner=on, leftmost's /proc/page_owner
 * lists the pages and kmalloc blocks in use, grouped by the place in the
 * kernel that asked for them: "COUNT KIND BYTES  PLACE". A program reads
 * it beside its first figures (into static room, so that reading takes no
 * memory the figures would count) and, when they do not come back, again,
 * and prints the groups that changed. Without the file both are empty.
 */
struct owners {
	char text[128 * 1024];
	size_t len;
};

/* A file's text into buf, NUL-terminated: read(), not stdio, so that the
 * reading takes no heap the figures would count. */
static inline char *read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	size_t n = 0;
	ssize_t got;
	while (fd >= 0 && n < size - 1 && (got = read(fd, buf + n, size - 1 - n)) > 0)
		n += (size_t)got;
	if (fd >= 0)
		close(fd);
	buf[n] = '\0';
	return buf;
}

static inline void owners_read(struct owners *o)
{
	o->len = strlen(read_text("/proc/page_owner", o->text, sizeof(o->text)));
}

/* Where a line of text ends: its newline, or the text's end. */
static inline const char *line_end(const char *line)
{
	const char *end = strchr(line, '\n');
	return end ? end : line + strlen(line);
}

/* A line's count and bytes, and its key: the kind and the place, which is
 * the line from its kind on with the bytes left out. */
struct owner_line {
	long count, bytes;
	char kind[16];
	const char *place;
	size_t place_len;
};

static inline int owner_parse(const char *line, const char *end, struct owner_line *l)
{
	int used = 0;
	if (sscanf(line, "%ld %15s %ld %n", &l->count, l->kind, &l->bytes, &used) != 3 || line + used > end)
		return -1;
	l->place = line + used;
	l->place_len = (size_t)(end - l->place);
	return 0;
}

/* In `in`, the count and bytes of the group `key` names (0 if none). */
static inline struct owner_line owners_find(const struct owners *in, const struct owner_line *key)
{
	struct owner_line l, none = { 0 };
	for (const char *line = in->text, *end; *line; line = *end ? end + 1 : end) {
		end = line_end(line);
		if (!owner_parse(line, end, &l) && !strcmp(l.kind, key->kind) && l.place_len == key->place_len &&
		    !memcmp(l.place, key->place, l.place_len))
			return l;
	}
	return none;
}

/* One line per group that is not as it was, "who: held now: +3 pages
 * (+12288 bytes) by PLACE"; a group gone from `after` shows as minus. */
static inline void owners_print_changes(const char *who, const struct owners *before, const struct owners *after)
{
	const struct owners *sides[2] = { after, before };
	for (int side = 0; side < 2; side++) {
		for (const char *line = sides[side]->text, *end; *line; line = *end ? end + 1 : end) {
			end = line_end(line);
			struct owner_line l;
			if (owner_parse(line, end, &l))
				continue;
			struct owner_line other = owners_find(sides[!side], &l);
			if (side == 1 && other.count)
				continue;         /* in both: said on the first side */
			long count = side ? -l.count : l.count - other.count;
			long bytes = side ? -l.bytes : l.bytes - other.bytes;
			if (count || bytes)
				printf("%s: held now: %+ld %s (%+ld bytes) by %.*s\n", who, count, l.kind, bytes,
				       (int)l.place_len, l.place);
		}
	}
}
