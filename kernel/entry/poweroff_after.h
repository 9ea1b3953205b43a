#pragma once

void poweroff_after_start(void);      /* boot CPU, once timers run: poweroff_after= */
