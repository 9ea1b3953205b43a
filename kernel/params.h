/*
 * Boot parameters. A file declares its own with the BOOT_PARAM_* macros from
 * lib/cmdline.h; they land in the boot_params linker section, and
 * params_parse() applies the command line to all of them at once.
 */
#pragma once
#include "lib/cmdline.h"

void params_parse(const char *cmdline);
void params_print_all(void);
