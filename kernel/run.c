/*
 * `run=name[:key=value,...][;name...]`: run built-in workloads one after the
 * other (user/), then power off, so a script boots a list and reads the
 * RESULT lines. A bad name or parameter is reported with what is accepted,
 * and the rest of the list still runs.
 */
#include <stdbool.h>
#include "kernel/run.h"
#include "kernel/programs.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "lib/printf.h"

static const struct workload *find_workload(const char *name, size_t len)
{
	for_each_workload(w)
		if (strlen(w->name) == len && strncmp(w->name, name, len) == 0)
			return w;
	return NULL;
}

static void list_workloads(void)
{
	pr_info("run: the workloads (run=name:key=value,...;name...):");
	for_each_workload(w) {
		pr_info("  %s: %s", w->name, w->about);
		for (size_t i = 0; i < w->nparams; i++) {
			const struct workload_param *p = &w->params[i];
			pr_info("      %s=<%lld..%lld> (default %lld): %s", p->name, (long long)p->min,
				(long long)p->max, (long long)p->def, p->help);
		}
	}
}

static void accepted_params(const struct workload *w, char *buf, size_t len)
{
	buf[0] = 0;
	for (size_t i = 0; i < w->nparams; i++) {
		size_t used = strlen(buf);
		snprintf(buf + used, len - used, "%s%s", i ? ", " : "", w->params[i].name);
	}
}

/* Apply "k=v,k=v" (len bytes) to values, which has a slot for each of w's
 * parameters; false (with a message) on a bad one. */
static bool parse_params(const struct workload *w, const char *s, size_t len, int64_t *values)
{
	const char *end = s + len;
	while (s < end) {
		const char *comma = s;
		while (comma < end && *comma != ',')
			comma++;
		const char *eq = s;
		while (eq < comma && *eq != '=')
			eq++;
		size_t i = 0;
		while (i < w->nparams && !(strlen(w->params[i].name) == (size_t)(eq - s) &&
					   strncmp(w->params[i].name, s, (size_t)(eq - s)) == 0))
			i++;
		char accepted[256];
		if (i == w->nparams) {
			accepted_params(w, accepted, sizeof(accepted));
			pr_err("run: %s: no parameter '%.*s' (accepted: %s)", w->name, (int)(eq - s), s, accepted);
			return false;
		}
		const struct workload_param *p = &w->params[i];
		int64_t v;
		if (eq == comma || parse_i64(eq + 1, (size_t)(comma - eq - 1), &v) != 0 || v < p->min || v > p->max) {
			pr_err("run: %s: %.*s: %s takes a number from %lld to %lld", w->name, (int)(comma - s), s,
			       p->name, (long long)p->min, (long long)p->max);
			return false;
		}
		values[i] = v;
		s = comma + (comma < end);
	}
	return true;
}

int run_workloads(const char *list)
{
	int failed = 0;
	for (const char *item = list; *item; ) {
		const char *end = strchr(item, ';');
		size_t len = end ? (size_t)(end - item) : strlen(item);
		size_t name_len = 0;
		while (name_len < len && item[name_len] != ':')
			name_len++;
		const char *colon = name_len < len ? item + name_len : NULL;

		if (name_len == 4 && strncmp(item, "list", 4) == 0) {
			list_workloads();
		} else if (len > 0) {
			const struct workload *w = find_workload(item, name_len);
			int64_t values[WORKLOAD_MAX_PARAMS];   /* WORKLOAD() checks that w's fit */
			if (!w) {
				pr_err("run: no workload named '%.*s' ('run=list' lists them)", (int)name_len, item);
				failed++;
			} else {
				for (size_t i = 0; i < w->nparams; i++)
					values[i] = w->params[i].def;
				if (!colon || parse_params(w, colon + 1, len - name_len - 1, values)) {
					pr_info("run: %.*s", (int)len, item);
					failed += w->run(values) != 0;
				} else {
					failed++;
				}
			}
		}
		item += len + (end != NULL);
	}
	return failed;
}
