/* SPDX-License-Identifier: GPL-3.0-or-later */
/* api_cpus.c -- the CPUs this process may use: the default thread count (see api_impl.h).
 *
 * Read at the boundary only (api_config_from_env), once per call: the affinity mask
 * (sched_getaffinity) and the cgroup v2 quota (/sys/fs/cgroup/cpu.max, "QUOTA PERIOD" or
 * "max PERIOD").  The file is untrusted input: anything but two decimal fields in range leaves
 * the affinity count. */
#include "api/api_impl.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>

/* A decimal integer of 1..18 digits at *p (advanced past it); 0 if none. */
static int read_dec(const char **p, unsigned long long *v)
{
    const char *s = *p;
    unsigned long long x = 0;
    int nd = 0;
    while (*s >= '0' && *s <= '9' && nd < 19) {
        x = 10 * x + (unsigned long long)(*s - '0');
        s++;
        nd++;
    }
    if (nd == 0 || nd > 18)
        return 0;
    *v = x;
    *p = s;
    return 1;
}

size_t api_cpu_quota_parse(const char *text, size_t cpus)
{
    if (!text || cpus < 1)
        return cpus < 1 ? 1 : cpus;
    const char *p = text;
    unsigned long long quota = 0, period = 0;
    int unlimited = strncmp(p, "max", 3) == 0;
    if (unlimited)
        p += 3;
    else if (!read_dec(&p, &quota))
        return cpus;
    if (*p != ' ')
        return cpus;
    p++;
    if (!read_dec(&p, &period) || period == 0)
        return cpus;
    if (*p == '\n')
        p++;
    if (*p != '\0' || unlimited || quota == 0)
        return cpus;
    unsigned long long q = (quota + period - 1) / period;          /* a started CPU counts */
    return q < cpus ? (size_t)q : cpus;
}

size_t api_cpu_count(void)
{
    size_t cpus = 1;
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int c = CPU_COUNT(&set);
        if (c > 0)
            cpus = (size_t)c;
    }
    char buf[128];
    FILE *f = fopen("/sys/fs/cgroup/cpu.max", "r");
    if (f) {
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        int whole = feof(f) && !ferror(f);
        fclose(f);
        buf[len] = '\0';
        if (whole && strlen(buf) == len)
            cpus = api_cpu_quota_parse(buf, cpus);
    }
    return cpus > AR_CONFIG_MAX_THREADS ? AR_CONFIG_MAX_THREADS : cpus;
}
