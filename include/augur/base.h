/*
 * base.h - allocation hooks, arena, growable vector, string buffer and
 * file input/output shared by every module of libaugur (module: base).
 */
#ifndef AUGUR_BASE_H
#define AUGUR_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "augur/error.h"

/* ---- allocation ---------------------------------------------------------- */

/*
 * All memory of libaugur goes through these. They never return NULL: when the
 * allocator fails, the out-of-memory handler runs, and the default one prints
 * a message and aborts. augur_free(NULL) is a no-op.
 */
AUGUR_API void *augur_malloc(size_t size);
AUGUR_API void *augur_calloc(size_t n, size_t size);
AUGUR_API void *augur_realloc(void *ptr, size_t size);
/* Allocates n * size bytes, treating an overflowing product as out of memory. */
AUGUR_API void *augur_mallocarray(size_t n, size_t size);
AUGUR_API void *augur_reallocarray(void *ptr, size_t n, size_t size);
AUGUR_API char *augur_strdup(const char *s);
AUGUR_API void augur_free(void *ptr);

/*
 * Allocator hooks. realloc(ud, NULL, n) allocates, realloc(ud, p, 0) frees
 * and returns NULL. Returning NULL for n > 0 means "out of memory". Passing
 * NULL restores the C library allocator.
 */
typedef void *augur_realloc_fn(void *ud, void *ptr, size_t size);
AUGUR_API void augur_set_allocator(augur_realloc_fn *fn, void *ud);

/*
 * Called with the size that could not be allocated. It must not return
 * (abort, exit or longjmp). NULL restores the default handler.
 */
typedef void augur_oom_fn(size_t size);
AUGUR_API void augur_set_oom_handler(augur_oom_fn *fn);

/*
 * Failure injection, for tests: from this call on, the n-th allocating call
 * (augur_malloc, _calloc, _realloc, _mallocarray, _reallocarray, _strdup,
 * arena blocks, vector and buffer growth; not augur_free) fails as if the
 * allocator had returned NULL, so the out-of-memory handler runs, whatever
 * allocator is installed. n = 0 disarms; UINT64_MAX only counts. The count
 * is process-wide and atomic (threads that allocate share it). Allocations
 * made by third-party libraries on their own (libyaml, jansson, libclang,
 * zlib, the C library) are not counted and never fail. The augur command
 * arms it from $AUGUR_FAIL_ALLOC (docs/design.md).
 */
AUGUR_API void augur_alloc_fail_nth(uint64_t n);
/* Allocating calls counted since augur_alloc_fail_nth() armed the count. */
AUGUR_API uint64_t augur_alloc_calls(void);

/* Sets *out = a * b; returns false (and leaves *out alone) on overflow. */
AUGUR_API bool augur_mul_overflows(size_t a, size_t b, size_t *out);

/* ---- arena --------------------------------------------------------------- */

struct augur_arena_block;

/* A bump allocator: everything is freed at once by augur_arena_release(). */
struct augur_arena {
    struct augur_arena_block *head;
    size_t block_size;
    size_t total;
};

/* Prepares an empty arena; block_size 0 picks the default (64 KiB). */
AUGUR_API void augur_arena_init(struct augur_arena *arena, size_t block_size);
/* Returns zeroed memory aligned for any type, valid until the arena is released. */
AUGUR_API void *augur_arena_alloc(struct augur_arena *arena, size_t size);
AUGUR_API char *augur_arena_strdup(struct augur_arena *arena, const char *s);
AUGUR_API char *augur_arena_strndup(struct augur_arena *arena, const char *s, size_t n);
AUGUR_API char *augur_arena_strfmt(struct augur_arena *arena, const char *fmt, ...)
    AUGUR_PRINTF(2, 3);
/* Frees every block; the arena is empty and reusable afterwards. */
AUGUR_API void augur_arena_release(struct augur_arena *arena);

/* ---- growable vector ----------------------------------------------------- */

/* A growable array of fixed-size elements. */
struct augur_vec {
    void *data;
    size_t len;
    size_t cap;
    size_t elem;
};

#define AUGUR_VEC_AT(vec, type, i) (((type *)(vec)->data)[i])

AUGUR_API void augur_vec_init(struct augur_vec *vec, size_t elem_size);
/* Makes room for at least n elements in total. */
AUGUR_API void augur_vec_reserve(struct augur_vec *vec, size_t n);
/* Appends one zeroed element and returns it; valid until the next growth. */
AUGUR_API void *augur_vec_push(struct augur_vec *vec);
/* Appends n elements copied from src. */
AUGUR_API void augur_vec_append(struct augur_vec *vec, const void *src, size_t n);
/* Hands the array to the caller (free with augur_free()); the vector is empty again. */
AUGUR_API void *augur_vec_take(struct augur_vec *vec, size_t *len);
AUGUR_API void augur_vec_release(struct augur_vec *vec);

/* ---- string buffer ------------------------------------------------------- */

/* A growable NUL-terminated string; s is never NULL after init. */
struct augur_buf {
    char *s;
    size_t len;
    size_t cap;
};

AUGUR_API void augur_buf_init(struct augur_buf *buf);
AUGUR_API void augur_buf_reserve(struct augur_buf *buf, size_t extra);
AUGUR_API void augur_buf_add(struct augur_buf *buf, const void *data, size_t n);
AUGUR_API void augur_buf_puts(struct augur_buf *buf, const char *s);
AUGUR_API void augur_buf_putc(struct augur_buf *buf, char c);
AUGUR_API void augur_buf_printf(struct augur_buf *buf, const char *fmt, ...) AUGUR_PRINTF(2, 3);
/* Empties the buffer, keeping its memory. */
AUGUR_API void augur_buf_reset(struct augur_buf *buf);
/* Hands the string to the caller (free with augur_free()); the buffer is empty again. */
AUGUR_API char *augur_buf_detach(struct augur_buf *buf, size_t *len);
AUGUR_API void augur_buf_release(struct augur_buf *buf);

/* ---- files --------------------------------------------------------------- */

/*
 * The bytes one operation of augur may hold: half of this machine's physical
 * memory, or half of the address-space limit (ulimit -v) when that is lower.
 */
AUGUR_API size_t augur_memory_budget(void);

/*
 * Returns 0 when an allocation of bytes fits the memory budget, else
 * AUGUR_ELIMIT with a message naming what (e.g. "ELL of 6 rows x 10^9 slots")
 * and both sizes. Check before allocating anything an option or a header sizes.
 */
AUGUR_API int augur_memory_check(uint64_t bytes, const char *what, struct augur_diag *diag);

/*
 * Reads a whole text file into buf (replacing its contents), inflating it
 * as it is read when it is gzip-compressed (detected by its magic bytes, not
 * its name; concatenated members are read in turn). "-" reads standard input.
 * The limit applies while reading, to the decompressed bytes: max_bytes, or
 * when 0 a default of a quarter of this machine's memory (under which a gzip
 * stream may also not inflate more than 200-fold). Errors: AUGUR_ELIMIT over
 * the limit; AUGUR_EFORMAT for binary data (a NUL byte); AUGUR_ETRUNC or
 * AUGUR_EPARSE for a truncated or corrupt gzip stream; AUGUR_EIO for a
 * directory or a FIFO with no writer (it is never waited for).
 * *compressed, when not NULL, says whether the file was gzip.
 */
AUGUR_API int augur_file_read(const char *path, size_t max_bytes, struct augur_buf *buf,
                              bool *compressed, struct augur_diag *diag);

/*
 * Safe output. A regular file (or a new path) is written atomically: writes
 * go to a temporary file beside it, which replaces it (keeping its mode) only
 * on augur_out_commit(), so a reader never sees a half-written file and a
 * failed run leaves the old one. A character device or a FIFO is written
 * through (a FIFO with no reader is an error, never a wait). A symbolic link
 * is followed only to a file in its own folder; any other special file, or a
 * link out of its folder, is refused. The path "-" is standard output.
 */
struct augur_out {
    FILE *fp;
    char *path;
    char *tmp;
};

AUGUR_API int augur_out_open(struct augur_out *out, const char *path, struct augur_diag *diag);
/* True when the output is a regular file (seekable, replaced on commit). */
AUGUR_API bool augur_out_is_file(const struct augur_out *out);
/* Flushes, closes and renames the temporary file over path. */
AUGUR_API int augur_out_commit(struct augur_out *out, struct augur_diag *diag);
/* Closes and removes the temporary file; path is left as it was. Safe to call twice. */
AUGUR_API void augur_out_abort(struct augur_out *out);

/* Writes a whole string atomically to path. */
AUGUR_API int augur_file_write(const char *path, const char *data, size_t len,
                               struct augur_diag *diag);

/* ---- child processes ------------------------------------------------------ */

/* Frees a NULL-terminated array of augur_malloc'd strings and the array; NULL is a no-op. */
AUGUR_API void augur_argv_free(char **argv);

/* Appends argv to buf as a shell command line (single-quoting where needed). */
AUGUR_API void augur_shell_join(struct augur_buf *buf, char *const *argv);

/*
 * The compiler's command as words: cc (NULL: $CC, else "cc") split at
 * blanks; NULL-terminated, *n words; each word and the array are the
 * caller's (augur_argv_free()).
 */
AUGUR_API char **augur_cc_words(const char *cc, size_t *n);

/* How a child process ended. */
struct augur_child {
    int status;     /* waitpid() status when not timed out */
    bool timed_out; /* killed at the limit */
    double seconds;
};

/*
 * Runs argv (argv[0] searched in PATH) in its own process group, in cwd
 * (NULL: here), with envp (NULL: this environment), for at most timeout
 * seconds (then SIGKILL to the group), collecting stdout and stderr (each up
 * to max bytes, the rest read and dropped). Returns 0 (the child ran; see
 * *child), or AUGUR_ERUN when it cannot be started.
 */
AUGUR_API int augur_run_child(char *const *argv, char *const *envp, const char *cwd, double timeout,
                              size_t max, struct augur_buf *out, struct augur_buf *err,
                              struct augur_child *child, struct augur_diag *diag);

/* ---- small helpers ------------------------------------------------------ */

/* Whether s ends with suffix (an empty suffix always). */
AUGUR_API bool augur_str_ends_with(const char *s, const char *suffix);
/*
 * Whether path names a C++ source by its suffix (.cpp, .cc, .cxx, .c++, .C and
 * the headers'): the front end parses it as C++; augur measure refuses it.
 */
AUGUR_API bool augur_path_is_cxx(const char *path);
/* Whether s begins with prefix. */
AUGUR_API bool augur_str_starts_with(const char *s, const char *prefix);

/* qsort() comparators: ascending uint32_t, uint64_t and double (NaN last). */
AUGUR_API int augur_cmp_u32(const void *a, const void *b);
AUGUR_API int augur_cmp_u64(const void *a, const void *b);
AUGUR_API int augur_cmp_double(const void *a, const void *b);

/*
 * splitmix64 (Steele, Lea and Flood, OOPSLA 2014): a small, well-mixed
 * generator whose stream depends on the seed only, so that every sample,
 * fold and random stand-in repeats from the same seed. Inline: the
 * interpreter draws one per random branch.
 */
static inline uint64_t augur_rand(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A uniform double in [0, 1) from the top 53 bits. */
static inline double augur_rand_unit(uint64_t *state)
{
    return (double)(augur_rand(state) >> 11) * 0x1.0p-53;
}

/* A uniform integer in [0, n), n >= 1 (Lemire's multiply-shift; bias below 2^-32). */
static inline uint32_t augur_rand_below(uint64_t *state, uint32_t n)
{
    return (uint32_t)(((augur_rand(state) >> 32) * (uint64_t)n) >> 32);
}

/* Monotonic wall-clock time in seconds (CLOCK_MONOTONIC). */
AUGUR_API double augur_now(void);

/* The library's version string ("0.1.0"). */
AUGUR_API const char *augur_version(void);

/* AUGUR_BUG: an invariant was violated; prints file:line and aborts. */
AUGUR_API _Noreturn void augur_bug(const char *file, int line, const char *fmt, ...)
    AUGUR_PRINTF(3, 4);
#define AUGUR_BUG(...) augur_bug(__FILE__, __LINE__, __VA_ARGS__)

#endif
