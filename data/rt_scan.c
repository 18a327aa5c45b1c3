/*
 * rt_scan.c - the line scanner and number parsers every dataset reader uses
 * (module: data). Parsing is the cost of loading, so integers are parsed by
 * hand and decimals take Clinger's exact fast path before falling back to strtod.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt_int.h"

void rt_scan_init(struct rt_scan *s, const char *text, size_t len, const char *file,
                  struct augur_diag *diag)
{
    s->p = text;
    s->end = text + len;
    s->line_start = text;
    s->line = 1;
    s->file = file;
    s->diag = diag;
}

int rt_error(const struct rt_scan *s, int code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    augur_diag_setv(s->diag, code, s->file, rt_line(s), rt_col(s), fmt, ap);
    va_end(ap);
    return code;
}

int rt_error_line(const struct rt_scan *s, int code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    augur_diag_setv(s->diag, code, s->file, rt_line(s), 0, fmt, ap);
    va_end(ap);
    return code;
}

bool rt_next_content_line(struct rt_scan *s, const char *comment)
{
    for (;;) {
        rt_skip_blanks(s);
        if (s->p >= s->end)
            return false;
        if (*s->p == '\n' || (comment && *s->p && strchr(comment, *s->p))) {
            rt_next_line(s);
            continue;
        }
        return true;
    }
}

static inline bool is_delim(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\0' || c == '\f' || c == '\v';
}

int rt_expect_eol(struct rt_scan *s, const char *what)
{
    const char *q;

    if (rt_at_eol(s))
        return 0;
    q = s->p; /* after the blanks rt_at_eol() skipped */
    /* Quote the offending word only, not the lines after it. */
    while (q < s->end && q - s->p < 20 && (!is_delim(*q) || q == s->p))
        q++;
    return rt_error(s, AUGUR_EPARSE, "unexpected '%.*s' after %s", (int)(q - s->p), s->p, what);
}

static int bad_token(struct rt_scan *s, const char *what)
{
    const char *q = s->p;

    while (!is_delim(*q) && q - s->p < 24)
        q++;
    if (s->p >= s->end || *s->p == '\n')
        return rt_error(s, AUGUR_EPARSE, "expected %s, found end of %s", what,
                        s->p >= s->end ? "file" : "line");
    return rt_error(s, AUGUR_EPARSE, "expected %s, found '%.*s'", what, (int)(q - s->p), s->p);
}

int rt_parse_u64(struct rt_scan *s, uint64_t *out, const char *what)
{
    const char *q;
    uint64_t v = 0;

    rt_skip_blanks(s);
    q = s->p;
    if (*q == '+')
        q++;
    if ((unsigned)(*q - '0') > 9)
        return *q == '-' && (unsigned)(q[1] - '0') <= 9
                   ? rt_error(s, AUGUR_ERANGE, "%s must not be negative", what)
                   : bad_token(s, what);
    while ((unsigned)(*q - '0') <= 9) {
        unsigned d = (unsigned)(*q - '0');

        if (v > (UINT64_MAX - d) / 10)
            return rt_error(s, AUGUR_ERANGE, "%s is too large", what);
        v = v * 10 + d;
        q++;
    }
    if (!is_delim(*q))
        return bad_token(s, what);
    s->p = q;
    *out = v;
    return 0;
}

int rt_parse_i64(struct rt_scan *s, int64_t *out, const char *what)
{
    bool neg;
    uint64_t v;
    int rc;
    const char *start;

    rt_skip_blanks(s);
    start = s->p;
    neg = *s->p == '-';
    if (neg)
        s->p++;
    if (*s->p == '-' || *s->p == '+') {
        s->p = start;
        return bad_token(s, what);
    }
    rc = rt_parse_u64(s, &v, what);
    if (rc) {
        s->p = start;
        return rc == AUGUR_ERANGE ? rt_error(s, rc, "%s is out of range", what)
                                  : bad_token(s, what);
    }
    if (v > (uint64_t)INT64_MAX + neg) {
        s->p = start;
        return rt_error(s, AUGUR_ERANGE, "%s is out of range", what);
    }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 0;
}

/* Powers of ten that a double holds exactly (Clinger's fast path). */
static const double exact_pow10[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

int rt_parse_double(struct rt_scan *s, double *out, const char *what)
{
    const char *q;
    bool neg = false;
    uint64_t mant = 0;
    int ndigits = 0, exp10 = 0;
    bool any = false;
    char *endp;
    double v;

    rt_skip_blanks(s);
    q = s->p;
    if (*q == '-' || *q == '+')
        neg = *q++ == '-';
    while ((unsigned)(*q - '0') <= 9) {
        if (ndigits < 19) {
            mant = mant * 10 + (unsigned)(*q - '0');
            if (mant)
                ndigits++;
        } else {
            exp10++;
        }
        any = true;
        q++;
    }
    if (*q == '.') {
        q++;
        while ((unsigned)(*q - '0') <= 9) {
            if (ndigits < 19) {
                mant = mant * 10 + (unsigned)(*q - '0');
                if (mant)
                    ndigits++;
                exp10--;
            }
            any = true;
            q++;
        }
    }
    if (any && (*q == 'e' || *q == 'E')) {
        const char *e = q + 1;
        bool eneg = false;
        int ev = 0;

        if (*e == '-' || *e == '+')
            eneg = *e++ == '-';
        if ((unsigned)(*e - '0') > 9)
            goto slow;
        while ((unsigned)(*e - '0') <= 9) {
            if (ev < 100000)
                ev = ev * 10 + (*e - '0');
            e++;
        }
        exp10 += eneg ? -ev : ev;
        q = e;
    }
    if (!any || !is_delim(*q))
        goto slow;
    if (ndigits < 19 && mant <= (UINT64_C(1) << 53) && exp10 >= -22 && exp10 <= 22) {
        v = (double)mant;
        v = exp10 < 0 ? v / exact_pow10[-exp10] : v * exact_pow10[exp10];
        *out = neg ? -v : v;
        s->p = q;
        return 0;
    }
slow:
    /*
     * Long mantissas, huge exponents, inf and nan: the C library rounds
     * correctly. strtod would skip a newline to read the next line's number,
     * so an empty token is refused first. Underflow (ERANGE with a zero or
     * subnormal result) is the correctly rounded value and is kept.
     */
    if (is_delim(*s->p))
        return bad_token(s, what);
    v = strtod(s->p, &endp);
    if (endp == s->p || !is_delim(*endp))
        return bad_token(s, what);
    if (!isfinite(v))
        return rt_error(s, AUGUR_ERANGE, "%s is not a finite number", what);
    s->p = endp;
    *out = v;
    return 0;
}

bool rt_parse_word(struct rt_scan *s, char *buf, size_t size)
{
    size_t n = 0;

    rt_skip_blanks(s);
    if (is_delim(*s->p) || s->p >= s->end)
        return false;
    while (!is_delim(*s->p) && s->p < s->end) {
        if (n + 1 < size)
            buf[n++] = *s->p;
        s->p++;
    }
    if (size)
        buf[n] = '\0';
    return true;
}

uint64_t rt_count_lines(const struct rt_scan *s)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), nl = ones * '\n';
    const uint64_t low7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
    const char *p = s->p, *end = s->end;
    uint64_t n = 0;

    if (p >= end)
        return 0;
    /*
     * Eight bytes at a time: a byte of x is zero where the text holds '\n',
     * and the top bit of each byte of t marks exactly those bytes. The per-byte
     * counts gather in acc for at most 255 words before they are summed.
     */
    while ((size_t)(end - p) >= 8) {
        uint64_t acc = 0;

        for (int i = 0; i < 255 && (size_t)(end - p) >= 8; i++, p += 8) {
            uint64_t w, x, t;

            memcpy(&w, p, 8);
            x = w ^ nl;
            t = ~(((x & low7) + low7) | x | low7);
            acc += t >> 7;
        }
        acc = (acc & UINT64_C(0x00FF00FF00FF00FF)) + ((acc >> 8) & UINT64_C(0x00FF00FF00FF00FF));
        n += (acc * UINT64_C(0x0001000100010001)) >> 48;
    }
    for (; p < end; p++)
        n += *p == '\n';
    return n + (end[-1] != '\n'); /* a last line without a newline */
}
