/*
 * err.c - error code table and diagnostics (module: base).
 */
#include <stdio.h>
#include <string.h>

#include "augur/base.h"

const char *augur_strerror(int code)
{
    switch (code) {
    case AUGUR_OK:
        return "success";
#define X(name, value, text) \
    case AUGUR_##name:       \
        return text;
        AUGUR_ERRNO_MAP(X)
#undef X
    }
    return "unknown error";
}

const char *augur_err_name(int code)
{
    switch (code) {
    case AUGUR_OK:
        return "OK";
#define X(name, value, text) \
    case AUGUR_##name:       \
        return #name;
        AUGUR_ERRNO_MAP(X)
#undef X
    }
    return "UNKNOWN";
}

void augur_diag_init(struct augur_diag *diag)
{
    if (diag)
        memset(diag, 0, sizeof(*diag));
}

/*
 * Copies s into out, writing control characters as \xNN: a message quotes its input, and an
 * escape sequence from a hostile file must not reach the user's terminal.
 */
static void copy_escaped(char *out, size_t size, const char *s)
{
    size_t k = 0;

    for (; *s && k + 1 < size; s++) {
        unsigned char c = (unsigned char)*s;

        if (c < 0x20 || c == 0x7f) {
            if (k + 5 > size)
                break;
            snprintf(out + k, 5, "\\x%02x", c);
            k += 4;
        } else {
            out[k++] = (char)c;
        }
    }
    out[k] = '\0';
}

int augur_diag_setv(struct augur_diag *diag, int code, const char *file, uint32_t line,
                    uint32_t col, const char *fmt, va_list ap)
{
    char msg[sizeof(diag->msg)];

    if (!diag)
        return code;
    diag->code = code;
    diag->line = line;
    diag->col = col;
    copy_escaped(diag->file, sizeof(diag->file), file ? file : "");
    if (fmt)
        vsnprintf(msg, sizeof(msg), fmt, ap);
    else
        snprintf(msg, sizeof(msg), "%s", augur_strerror(code));
    copy_escaped(diag->msg, sizeof(diag->msg), msg);
    return code;
}

int augur_diag_set(struct augur_diag *diag, int code, const char *file, uint32_t line, uint32_t col,
                   const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    augur_diag_setv(diag, code, file, line, col, fmt, ap);
    va_end(ap);
    return code;
}

int augur_diag_format(const struct augur_diag *diag, char *buf, size_t size)
{
    const char *msg = diag->msg[0] ? diag->msg : augur_strerror(diag->code);

    if (!diag->file[0])
        return snprintf(buf, size, "%s", msg);
    if (!diag->line)
        return snprintf(buf, size, "%s: %s", diag->file, msg);
    if (!diag->col)
        return snprintf(buf, size, "%s:%u: %s", diag->file, diag->line, msg);
    return snprintf(buf, size, "%s:%u:%u: %s", diag->file, diag->line, diag->col, msg);
}
