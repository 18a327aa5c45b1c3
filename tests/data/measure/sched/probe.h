/* probe.h - the team size probe.c checks its iterations against (a "" include of its folder) */
#define PROBE_THREADS 2
