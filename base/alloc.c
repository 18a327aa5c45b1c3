/*
 * alloc.c - the allocation hooks every allocation of libaugur goes through
 * (module: base).
 */
#define _DEFAULT_SOURCE /* madvise() */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "augur/base.h"

static void *libc_realloc(void *ud, void *ptr, size_t size)
{
    (void)ud;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, size);
}

static void default_oom(size_t size)
{
    fprintf(stderr, "augur: fatal: out of memory allocating %zu bytes\n", size);
    abort();
}

static augur_realloc_fn *alloc_fn = libc_realloc;
static void *alloc_ud;
static augur_oom_fn *oom_fn = default_oom;

/*
 * Failure injection (augur_alloc_fail_nth). Off, it is one load of fail_nth
 * and a branch predicted not taken per allocation. Armed, every allocating
 * call (augur_realloc and everything built on it) bumps alloc_calls
 * atomically, since worker threads allocate too, and the call that makes it
 * fail_nth fails as the system allocator would: no allocation, the OOM handler.
 */
static uint64_t fail_nth;
static uint64_t alloc_calls;

void augur_alloc_fail_nth(uint64_t n)
{
    __atomic_store_n(&alloc_calls, 0, __ATOMIC_RELAXED);
    fail_nth = n;
}

uint64_t augur_alloc_calls(void)
{
    return __atomic_load_n(&alloc_calls, __ATOMIC_RELAXED);
}

static bool injected_failure(void)
{
    return __atomic_add_fetch(&alloc_calls, 1, __ATOMIC_RELAXED) == fail_nth;
}

void augur_set_allocator(augur_realloc_fn *fn, void *ud)
{
    alloc_fn = fn ? fn : libc_realloc;
    alloc_ud = fn ? ud : NULL;
}

void augur_set_oom_handler(augur_oom_fn *fn)
{
    oom_fn = fn ? fn : default_oom;
}

bool augur_mul_overflows(size_t a, size_t b, size_t *out)
{
    size_t r;

    if (__builtin_mul_overflow(a, b, &r))
        return true;
    *out = r;
    return false;
}

/*
 * Large arrays (datasets, CSR, simulated caches) are written once right after
 * they are allocated. On virtual machines a first touch of each 4 KiB page is
 * expensive (about 3 ms per MiB measured here); asking for transparent huge
 * pages cuts that about 15-fold, and populating the range in one call another
 * 2-4 fold. Only hints: errors (old kernels) are ignored.
 */
#define HUGE_ADVICE_MIN     (4u << 20)
#define POPULATE_ADVICE_MIN (256u << 10)
#define POPULATE_ADVICE_MAX ((size_t)1 << 30)

static void advise_large(void *p, size_t size)
{
    uintptr_t page = 4096, lo = ((uintptr_t)p + page - 1) & ~(page - 1);
    uintptr_t hi = ((uintptr_t)p + size) & ~(page - 1);

    if (hi <= lo)
        return;
#ifdef MADV_HUGEPAGE
    if (size >= HUGE_ADVICE_MIN)
        madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
    /* Fault the pages in one call rather than one trap per page (about 4x cheaper here). */
    if (size <= POPULATE_ADVICE_MAX)
        madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#endif
}

void *augur_realloc(void *ptr, size_t size)
{
    void *p;

    if (size == 0)
        size = 1; /* a live allocation, never the free path of the hook */
    if (__builtin_expect(fail_nth != 0, 0) && injected_failure())
        p = NULL; /* as if alloc_fn had failed: ptr is untouched */
    else
        p = alloc_fn(alloc_ud, ptr, size);
    if (!p) {
        oom_fn(size);
        abort(); /* the handler must not return */
    }
    if (size >= POPULATE_ADVICE_MIN && alloc_fn == libc_realloc)
        advise_large(p, size);
    return p;
}

void *augur_malloc(size_t size)
{
    return augur_realloc(NULL, size);
}

void *augur_calloc(size_t n, size_t size)
{
    size_t bytes;
    void *p;

    if (augur_mul_overflows(n, size, &bytes)) {
        oom_fn(SIZE_MAX);
        abort();
    }
    p = augur_malloc(bytes);
    memset(p, 0, bytes);
    return p;
}

void *augur_reallocarray(void *ptr, size_t n, size_t size)
{
    size_t bytes;

    if (augur_mul_overflows(n, size, &bytes)) {
        oom_fn(SIZE_MAX);
        abort();
    }
    return augur_realloc(ptr, bytes);
}

void *augur_mallocarray(size_t n, size_t size)
{
    return augur_reallocarray(NULL, n, size);
}

char *augur_strdup(const char *s)
{
    size_t n = strlen(s) + 1;

    return memcpy(augur_malloc(n), s, n);
}

void augur_free(void *ptr)
{
    if (ptr)
        alloc_fn(alloc_ud, ptr, 0);
}

void augur_bug(const char *file, int line, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "augur: BUG: %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}
