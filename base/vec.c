/*
 * vec.c - growable vector and string buffer (module: base).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "augur/base.h"

void augur_vec_init(struct augur_vec *vec, size_t elem_size)
{
    vec->data = NULL;
    vec->len = 0;
    vec->cap = 0;
    vec->elem = elem_size;
}

void augur_vec_reserve(struct augur_vec *vec, size_t n)
{
    size_t cap = vec->cap ? vec->cap : 8;

    if (n <= vec->cap)
        return;
    while (cap < n)
        cap = cap > SIZE_MAX / 2 ? n : cap * 2;
    vec->data = augur_reallocarray(vec->data, cap, vec->elem);
    vec->cap = cap;
}

void *augur_vec_push(struct augur_vec *vec)
{
    void *slot;

    if (vec->len == vec->cap)
        augur_vec_reserve(vec, vec->len + 1);
    slot = (char *)vec->data + vec->len * vec->elem;
    memset(slot, 0, vec->elem);
    vec->len++;
    return slot;
}

void augur_vec_append(struct augur_vec *vec, const void *src, size_t n)
{
    if (!n)
        return;
    augur_vec_reserve(vec, vec->len + n);
    memcpy((char *)vec->data + vec->len * vec->elem, src, n * vec->elem);
    vec->len += n;
}

void *augur_vec_take(struct augur_vec *vec, size_t *len)
{
    void *data = vec->data;

    if (len)
        *len = vec->len;
    augur_vec_init(vec, vec->elem);
    return data;
}

void augur_vec_release(struct augur_vec *vec)
{
    augur_free(vec->data);
    augur_vec_init(vec, vec->elem);
}

static char buf_empty[1];

void augur_buf_init(struct augur_buf *buf)
{
    buf->s = buf_empty;
    buf->len = 0;
    buf->cap = 0;
}

void augur_buf_reserve(struct augur_buf *buf, size_t extra)
{
    size_t need = buf->len + extra + 1, cap = buf->cap ? buf->cap : 64;

    if (need < extra)
        AUGUR_BUG("string buffer size overflows");
    if (need <= buf->cap)
        return;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    buf->s = augur_realloc(buf->cap ? buf->s : NULL, cap);
    if (!buf->cap)
        buf->s[0] = '\0';
    buf->cap = cap;
}

void augur_buf_add(struct augur_buf *buf, const void *data, size_t n)
{
    augur_buf_reserve(buf, n);
    memcpy(buf->s + buf->len, data, n);
    buf->len += n;
    buf->s[buf->len] = '\0';
}

void augur_buf_puts(struct augur_buf *buf, const char *s)
{
    augur_buf_add(buf, s, strlen(s));
}

void augur_buf_putc(struct augur_buf *buf, char c)
{
    augur_buf_add(buf, &c, 1);
}

void augur_buf_printf(struct augur_buf *buf, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        AUGUR_BUG("bad format string '%s'", fmt);
    augur_buf_reserve(buf, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(buf->s + buf->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    buf->len += (size_t)n;
}

void augur_buf_reset(struct augur_buf *buf)
{
    buf->len = 0;
    if (buf->cap)
        buf->s[0] = '\0';
}

char *augur_buf_detach(struct augur_buf *buf, size_t *len)
{
    char *s;

    if (!buf->cap)
        augur_buf_reserve(buf, 0);
    s = buf->s;
    if (len)
        *len = buf->len;
    augur_buf_init(buf);
    return s;
}

void augur_buf_release(struct augur_buf *buf)
{
    if (buf->cap)
        augur_free(buf->s);
    augur_buf_init(buf);
}

/* ---- small helpers ------------------------------------------------------ */

bool augur_str_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);

    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

bool augur_path_is_cxx(const char *path)
{
    static const char *const suffixes[] = { ".cpp", ".cc", ".cxx", ".c++", ".C",
                                            ".hpp", ".hh", ".hxx", ".h++", ".H" };

    for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
        if (augur_str_ends_with(path, suffixes[i]))
            return true;
    return false;
}

bool augur_str_starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

int augur_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return x < y ? -1 : x > y;
}

int augur_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

int augur_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    if (x != x || y != y)
        return (x != x) - (y != y);
    return x < y ? -1 : x > y;
}
