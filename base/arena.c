/*
 * arena.c - bump allocator for IR and other data freed all at once (module: base).
 */
#include <stdalign.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "augur/base.h"

struct augur_arena_block {
    struct augur_arena_block *next;
    size_t used;
    size_t size;
    alignas(max_align_t) unsigned char data[];
};

#define ARENA_ALIGN   alignof(max_align_t)
#define ARENA_DEFAULT (64 * 1024)

void augur_arena_init(struct augur_arena *arena, size_t block_size)
{
    arena->head = NULL;
    arena->block_size = block_size ? block_size : ARENA_DEFAULT;
    arena->total = 0;
}

static struct augur_arena_block *new_block(size_t size)
{
    struct augur_arena_block *b = augur_malloc(sizeof(*b) + size);

    b->next = NULL;
    b->used = 0;
    b->size = size;
    return b;
}

void *augur_arena_alloc(struct augur_arena *arena, size_t size)
{
    struct augur_arena_block *b = arena->head;
    size_t need = (size + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
    void *p;

    if (need < size)
        AUGUR_BUG("arena allocation of %zu bytes overflows", size);
    if (!b || b->size - b->used < need) {
        if (need > arena->block_size / 4) {
            /* A large object gets a block of its own behind the current one. */
            struct augur_arena_block *big = new_block(need);

            if (b) {
                big->next = b->next;
                b->next = big;
            } else {
                arena->head = big;
            }
            big->used = need;
            arena->total += need;
            memset(big->data, 0, need);
            return big->data;
        }
        b = new_block(arena->block_size);
        b->next = arena->head;
        arena->head = b;
    }
    p = b->data + b->used;
    b->used += need;
    arena->total += need;
    memset(p, 0, need);
    return p;
}

char *augur_arena_strndup(struct augur_arena *arena, const char *s, size_t n)
{
    char *p = augur_arena_alloc(arena, n + 1);

    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *augur_arena_strdup(struct augur_arena *arena, const char *s)
{
    return augur_arena_strndup(arena, s, strlen(s));
}

char *augur_arena_strfmt(struct augur_arena *arena, const char *fmt, ...)
{
    va_list ap;
    int n;
    char *p;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        AUGUR_BUG("bad format string '%s'", fmt);
    p = augur_arena_alloc(arena, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void augur_arena_release(struct augur_arena *arena)
{
    struct augur_arena_block *b = arena->head;

    while (b) {
        struct augur_arena_block *next = b->next;

        augur_free(b);
        b = next;
    }
    arena->head = NULL;
    arena->total = 0;
}
