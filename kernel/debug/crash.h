#pragma once
#include <stdbool.h>

bool crash_requested(void);
void crash_now(void);
