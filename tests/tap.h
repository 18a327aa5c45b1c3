/*
 * tap.h - a small Test Anything Protocol helper: one TAP program per module.
 */
#ifndef AUGUR_TAP_H
#define AUGUR_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_run, tap_failed;

static inline int tap_ok(int pass, const char *name, const char *expr, const char *file, int line)
{
    printf("%sok %d - %s\n", pass ? "" : "not ", ++tap_run, name);
    if (!pass) {
        tap_failed++;
        printf("#   failed: %s\n#   at %s:%d\n", expr, file, line);
    }
    fflush(stdout);
    return pass;
}

static inline int tap_is_int(long long got, long long want, const char *name, const char *file,
                             int line)
{
    int pass = tap_ok(got == want, name, "got == expected", file, line);

    if (!pass)
        printf("#        got: %lld\n#   expected: %lld\n", got, want);
    return pass;
}

static inline int tap_is_str(const char *got, const char *want, const char *name, const char *file,
                             int line)
{
    int pass = tap_ok(got && want && strcmp(got, want) == 0, name, "strings equal", file, line);

    if (!pass)
        printf("#        got: '%s'\n#   expected: '%s'\n", got ? got : "(null)",
               want ? want : "(null)");
    return pass;
}

/* Passes when |got - want| <= tol * max(1, |want|). */
static inline int tap_is_double(double got, double want, double tol, const char *name,
                                const char *file, int line)
{
    double scale = fabs(want) > 1.0 ? fabs(want) : 1.0;
    int pass = tap_ok(fabs(got - want) <= tol * scale, name, "|got - expected| <= tol", file, line);

    if (!pass)
        printf("#        got: %.17g\n#   expected: %.17g (tolerance %g)\n", got, want, tol);
    return pass;
}

static inline void tap_skip(const char *why, const char *name)
{
    printf("ok %d - %s # SKIP %s\n", ++tap_run, name, why);
}

static inline void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void tap_diag(const char *fmt, ...)
{
    va_list ap;

    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

/* Prints the plan; main returns it. */
/* The shared datasets' folder, or NULL where the tests have none (unset or empty). */
static inline const char *tap_datasets(void)
{
    const char *dir = getenv("AUGUR_DATASETS");

    return dir && *dir ? dir : NULL;
}

static inline int tap_done(void)
{
    printf("1..%d\n", tap_run);
    return tap_failed != 0;
}

#define ok(cond, name) tap_ok((cond) != 0, name, #cond, __FILE__, __LINE__)
#define is_int(got, want, name) \
    tap_is_int((long long)(got), (long long)(want), name, __FILE__, __LINE__)
#define is_str(got, want, name)         tap_is_str(got, want, name, __FILE__, __LINE__)
#define is_double(got, want, tol, name) tap_is_double(got, want, tol, name, __FILE__, __LINE__)
#define skip(why, name)                 tap_skip(why, name)
#define diag(...)                       tap_diag(__VA_ARGS__)

#endif
