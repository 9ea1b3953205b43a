#pragma once

void heartbeat_start(void);           /* boot CPU, once timers run: heartbeat= */
