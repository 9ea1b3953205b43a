#pragma once

/* Run a `run=` list ("name:k=v,k=v;name2"): each workload in turn, even
 * after one fails. Returns how many failed (a bad name or parameter counts);
 * "list" prints the workloads and their parameters. */
int run_workloads(const char *list);
