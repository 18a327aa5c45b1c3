/*
 * cachesim.h - a multi-level cache simulator: set-associative or fully
 * associative LRU levels, write policies, sectors, private and shared
 * instances, inclusion, prefetchers and a DRAM row-buffer model, with counts
 * per level and per caller-chosen tag (module: cachesim). docs/cachesim.md
 * describes the model.
 */
#ifndef AUGUR_CACHESIM_H
#define AUGUR_CACHESIM_H

#include <stdbool.h>
#include <stdint.h>

#include "augur/base.h"

#define AUGUR_CACHESIM_MAX_LEVELS  4
#define AUGUR_CACHESIM_MAX_THREADS 4096
#define AUGUR_CACHESIM_MAX_BYTES   (UINT64_C(1) << 40) /* 1 TiB: the largest cache */
#define AUGUR_CACHESIM_MAX_LINE    4096u               /* the largest line in bytes */
#define AUGUR_CACHESIM_MAX_TAGS    65536
#define AUGUR_CACHESIM_MAX_SECTORS 8 /* sectors per line */

/* A level's write policy (zero: write-back). */
enum augur_cache_write {
    AUGUR_CACHE_WRITE_BACK,
    AUGUR_CACHE_WRITE_THROUGH,
};

/* A level's prefetcher (zero: none). */
enum augur_cache_prefetch {
    AUGUR_CACHE_PREFETCH_NONE,
    AUGUR_CACHE_PREFETCH_NEXT_LINE, /* the next line on every demand miss */
    AUGUR_CACHE_PREFETCH_STRIDE,    /* a constant stride seen twice in a row */
};

/* A level's replacement (zero: LRU). */
enum augur_cache_replacement {
    AUGUR_CACHE_LRU,
    AUGUR_CACHE_ADAPTIVE, /* inserts some lines at the LRU end (docs/cachesim.md) */
};

/*
 * One cache level. A zero-initialised level plus size and line is a private,
 * fully associative, write-back, write-allocate, non-inclusive level without
 * a prefetcher.
 */
struct augur_cache_level_config {
    char name[16];
    uint64_t size;   /* bytes of one instance */
    uint32_t line;   /* bytes, a power of two in [4, 4096] */
    uint32_t sector; /* bytes, a power of two dividing line into at most 8; 0: no sectors */
    uint32_t ways;   /* 0: fully associative; else must divide size / line */
    /*
     * Simulator threads sharing one instance of this level: thread t uses
     * instance t / shared_by. 0 means 1 (private). Must be a multiple of the
     * level above's.
     */
    uint32_t shared_by;
    bool inclusive; /* holds every line of the levels above: its evictions back-invalidate them */
    enum augur_cache_write write_policy;
    /*
     * Whether a write miss allocates the line (fetching it first). Ignored
     * unless write_allocate_set; the default is true for write-back, false
     * for write-through.
     */
    bool write_allocate;
    bool write_allocate_set;
    enum augur_cache_prefetch prefetch;
    /* The stride prefetcher's table, loads tracked at once: a power of two (stride only). */
    uint32_t stride_entries;
    enum augur_cache_replacement replacement;
};

/* How the DRAM row buffers are modelled. */
enum augur_dram_policy {
    AUGUR_DRAM_OPEN_BANK, /* one open row per bank; block b maps to bank b mod banks */
    AUGUR_DRAM_LRU, /* Pai et al. AGP'17 §6.4: a fully associative LRU set of `banks` blocks */
};

struct augur_dram_config {
    uint32_t row_bytes; /* DRAM block (row-buffer) size, a power of two; 0: no row-buffer model */
    uint32_t banks;     /* open rows kept at a time (at most 4096; LRU: at most 256) */
    enum augur_dram_policy policy;
};

struct augur_cache_config {
    uint32_t nlevels; /* 1 .. AUGUR_CACHESIM_MAX_LEVELS */
    struct augur_cache_level_config level[AUGUR_CACHESIM_MAX_LEVELS]; /* nearest the core first */
    struct augur_dram_config dram;
    /*
     * Keep the threads' caches coherent (write-invalidate, as MESI): a write
     * removes the line from every instance the writing thread does not use;
     * a request that misses every instance of the thread's own while another
     * thread's holds the line dirty has that data written down to the first
     * level the two share (or memory) and is counted as a transfer there.
     * A CPU's caches are; a GPU's L1s are not.
     */
    bool coherent;
    /* Refuse configurations whose simulated state needs more host memory (0: 4 GiB). */
    uint64_t max_host_bytes;
};

/*
 * Multiplies a level's capacity by r in (0, 1] (a sample meets caches as much
 * smaller than its data as the full run does): sets go, ways and the line
 * stay; when fewer than one set would be left, one set of fewer ways; at
 * least one line. augur_cache_config_scale() scales every level.
 */
AUGUR_API void augur_cache_level_scale(struct augur_cache_level_config *lv, double r);
AUGUR_API void augur_cache_config_scale(struct augur_cache_config *cfg, double r);

struct augur_cachesim;

/*
 * Creates a simulator for nthreads threads (1 .. AUGUR_CACHESIM_MAX_THREADS)
 * keeping counts for ntags tags (1 .. AUGUR_CACHESIM_MAX_TAGS; 0 means 1).
 * Every cache starts empty. A bad configuration is AUGUR_EINVAL (AUGUR_ELIMIT
 * when its state would not fit max_host_bytes) with the level and the reason
 * in diag. The caller owns *out; free it with augur_cachesim_free().
 */
AUGUR_API int augur_cachesim_new(const struct augur_cache_config *cfg, unsigned nthreads,
                                 unsigned ntags, struct augur_cachesim **out,
                                 struct augur_diag *diag);

/* Frees a simulator; NULL is a no-op. */
AUGUR_API void augur_cachesim_free(struct augur_cachesim *sim);

/*
 * Simulates one access by thread `thread` of size bytes (0 counts as 1) at
 * addr (taken modulo 2^48), a read or a write, attributed to tag (tags >=
 * ntags are counted under ntags - 1). An access that straddles line
 * boundaries touches each line; each line touched is one request to the
 * first level. Accesses are processed in call order: the caller decides how
 * threads interleave at shared levels (docs/cachesim.md). thread must be
 * below nthreads (checked with assert only: this is the hot path).
 */
AUGUR_API void augur_cachesim_access(struct augur_cachesim *sim, unsigned thread, uint64_t addr,
                                     uint32_t size, bool is_write, uint32_t tag);

/* One access of a batch. */
struct augur_cache_access {
    uint64_t addr;
    uint32_t size;
    uint16_t thread;
    uint8_t is_write;
    uint8_t pad;
    uint32_t tag;
};

/* Simulates n accesses in order; the same as n calls of augur_cachesim_access(). */
AUGUR_API void augur_cachesim_access_batch(struct augur_cachesim *sim,
                                           const struct augur_cache_access *acc, size_t n);

/*
 * Counts of one level (or, at index nlevels, of main memory). Requests are
 * line-granular: an access touching two lines is two requests to L1; a miss
 * at one level is one (or, when lines differ, several) requests to the next.
 */
/*
 * augur_cachesim_access_batch() that also writes, per access, the deepest
 * level that served it: 0 for an L1 hit, nlevels for memory (an access
 * across lines: its deepest line's). Prefetches and write-backs it caused
 * do not count. For measuring how misses cluster in time (the misses a
 * core's window overlaps); slower than the plain batch.
 */
AUGUR_API void augur_cachesim_access_batch_reach(struct augur_cachesim *sim,
                                                 const struct augur_cache_access *acc, size_t n,
                                                 uint8_t *reach);

struct augur_cache_counts {
    uint64_t accesses;      /* demand requests arriving (reads + writes) */
    uint64_t reads, writes; /* of which reads / writes */
    uint64_t hits, misses;  /* hits + misses = accesses */
    uint64_t read_misses, write_misses;
    uint64_t sector_accesses;     /* sectors requested (= accesses without sectors) */
    uint64_t sector_misses;       /* sectors not present (= misses without sectors) */
    uint64_t sector_writes;       /* of sector_accesses, written (= writes without sectors) */
    uint64_t sector_write_misses; /* of sector_misses, written */
    uint64_t evictions;           /* valid lines replaced, attributed to the line's owner tag */
    uint64_t writebacks;          /* dirty lines written to the next level, owner's tag */
    uint64_t
        invalidations;   /* lines removed by an inclusive level below or another thread's write */
    uint64_t prefetches; /* lines brought in by the prefetcher */
    uint64_t prefetch_hits;   /* first demand hits on prefetched lines */
    uint64_t fill_bytes;      /* bytes brought in from the next level (memory: read from DRAM) */
    uint64_t writeback_bytes; /* bytes sent to the next level (memory: written to DRAM) */
    uint64_t row_hits;        /* memory only: DRAM blocks found open */
    uint64_t row_misses;      /* memory only: DRAM blocks that had to be opened */
    /*
     * Of the requests this level served (hits; memory: all), those whose
     * line another thread had written and still held: the data passes
     * between cores (a coherent configuration only).
     */
    uint64_t transfers;
};

/*
 * Whether the instance of cache level (0 .. nlevels - 1) that thread uses
 * holds the line of addr now: a look that changes nothing (no replacement
 * state, no count). False for a level out of range.
 */
AUGUR_API bool augur_cachesim_holds(const struct augur_cachesim *sim, unsigned thread,
                                    unsigned level, uint64_t addr);

/* The number of cache levels (memory is level nlevels in augur_cachesim_counts). */
AUGUR_API unsigned augur_cachesim_nlevels(const struct augur_cachesim *sim);
AUGUR_API unsigned augur_cachesim_ntags(const struct augur_cachesim *sim);
/* The level's name ("L1"; "memory" for level nlevels). Borrowed. */
AUGUR_API const char *augur_cachesim_level_name(const struct augur_cachesim *sim, unsigned level);

/*
 * Counts of level (0 .. nlevels; nlevels is memory) for one tag, or summed
 * over all tags when tag is negative. Returns AUGUR_EINVAL for a level or tag
 * out of range.
 */
AUGUR_API int augur_cachesim_counts(const struct augur_cachesim *sim, unsigned level, int tag,
                                    struct augur_cache_counts *out);

/*
 * Writes every dirty line back (counted as write-backs, as if evicted at the
 * end of the run) and leaves the caches holding clean lines.
 */
AUGUR_API void augur_cachesim_flush(struct augur_cachesim *sim);

/* Zeroes every count; cache contents stay (e.g. to measure a second, warm pass). */
AUGUR_API void augur_cachesim_reset_counts(struct augur_cachesim *sim);

/* Empties every cache and row buffer without writing anything back; counts stay. */
AUGUR_API void augur_cachesim_invalidate(struct augur_cachesim *sim);

/*
 * Empties every instance of one cache level without writing anything back
 * (a GPU's write-through L1 at a kernel launch); counts stay.
 */
AUGUR_API void augur_cachesim_invalidate_level(struct augur_cachesim *sim, unsigned level);

#endif
