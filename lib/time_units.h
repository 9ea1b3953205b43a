/* Nanoseconds per unit: clock_ns(), timers and sleeps all count nanoseconds. */
#ifndef LIB_TIME_UNITS_H
#define LIB_TIME_UNITS_H

#define NS_PER_US 1000ULL
#define NS_PER_MS 1000000ULL
#define NS_PER_S  1000000000ULL

#endif
