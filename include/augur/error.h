/*
 * error.h - error codes and diagnostics of libaugur (module: base).
 */
#ifndef AUGUR_ERROR_H
#define AUGUR_ERROR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#    define AUGUR_API          __attribute__((visibility("default")))
#    define AUGUR_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#    define AUGUR_API
#    define AUGUR_PRINTF(f, a)
#endif

/*
 * Every error code of the library: name, value, message. A fallible function
 * returns 0 or one of these negative values.
 */
#define AUGUR_ERRNO_MAP(X)                          \
    X(EINVAL, -1, "invalid argument")               \
    X(ENOMEM, -2, "out of memory")                  \
    X(EIO, -3, "input/output error")                \
    X(EPARSE, -4, "cannot parse input")             \
    X(ECLANG, -5, "libclang failure")               \
    X(EFORMAT, -6, "unknown or unsupported format") \
    X(EMODEL, -7, "invalid machine model")          \
    X(ERANGE, -8, "value out of range")             \
    X(ETRUNC, -9, "truncated input")                \
    X(ENOENT, -10, "no such file or directory")     \
    X(ELIMIT, -11, "size limit exceeded")           \
    X(EUNSUP, -12, "unsupported construct")         \
    X(EBIND, -13, "cannot bind kernel to dataset")  \
    X(ERUN, -14, "cannot run kernel")

enum augur_errno {
    AUGUR_OK = 0,
#define X(name, value, text) AUGUR_##name = (value),
    AUGUR_ERRNO_MAP(X)
#undef X
};

/* Returns the message for an error code; unknown codes give "unknown error". */
AUGUR_API const char *augur_strerror(int code);

/* Returns the symbolic name of an error code ("EPARSE"), or "UNKNOWN". */
AUGUR_API const char *augur_err_name(int code);

/*
 * Details of a failure: the code, where it happened in the user's input
 * (file, 1-based line and column; 0 when not known) and a message.
 * Callers provide the storage; every function that takes one accepts NULL.
 */
struct augur_diag {
    int code;
    uint32_t line;
    uint32_t col;
    char file[512];
    char msg[512];
};

/* Clears a diagnostic to "no error". */
AUGUR_API void augur_diag_init(struct augur_diag *diag);

/*
 * Records a failure in diag (which may be NULL) and returns code, so that a
 * caller can write "return augur_diag_set(diag, AUGUR_EPARSE, ...)".
 * file may be NULL; line and col may be 0.
 */
AUGUR_API int augur_diag_set(struct augur_diag *diag, int code, const char *file, uint32_t line,
                             uint32_t col, const char *fmt, ...) AUGUR_PRINTF(6, 7);
AUGUR_API int augur_diag_setv(struct augur_diag *diag, int code, const char *file, uint32_t line,
                              uint32_t col, const char *fmt, va_list ap) AUGUR_PRINTF(6, 0);

/*
 * Writes "file:line:col: message" (parts that are unknown are left out) into
 * buf, truncating to size. Returns the length it would have written.
 */
AUGUR_API int augur_diag_format(const struct augur_diag *diag, char *buf, size_t size);

#endif
