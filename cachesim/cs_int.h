/*
 * cs_int.h - internals of the cache simulator shared by its files: the
 * per-level state, the counters and the entry points of the simulation core.
 */
#ifndef AUGUR_CS_INT_H
#define AUGUR_CS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "augur/cachesim.h"

#define CS_INVALID UINT64_MAX /* an empty way; (CS_INVALID >> 1) is never a line address */
#define CS_NIL     UINT32_MAX /* end of a fully associative LRU list */
#define CS_NSTRIDE 64         /* entries of a stride prefetcher's table */

/*
 * Per-line state beside the tag word. The tag word of a line is
 * (line address << 1) | dirty, so that the L1 hit path reads one array.
 */
struct cs_meta {
    uint16_t own;   /* tag of the access that filled or last dirtied the line */
    uint8_t svalid; /* valid sectors (all of them on a level without sectors) */
    uint8_t sdirty; /* dirty sectors */
    uint8_t pf;     /* brought in by the prefetcher and not used yet */
    uint8_t pad[3];
};

/* A stride prefetcher entry, keyed by the caller's tag (its stand-in for the load's PC). */
struct cs_stride {
    uint64_t last;
    int64_t stride;
    uint32_t key; /* tag + 1; 0: empty */
    uint32_t conf;
};

/*
 * One instance of a level (a private cache of one thread, or a cache shared
 * by a group of threads). Set-associative levels keep each set's ways in
 * recency order, most recent first, invalid ways last: the LRU victim is
 * always the last way. Fully associative levels keep a hash from line
 * address to slot and a doubly linked recency list.
 */
struct cs_inst {
    uint64_t *tags; /* nsets * ways tag words (aligned to 64 bytes) */
    void *tags_raw;
    struct cs_meta *meta;
    /* fully associative only: */
    uint32_t *prev, *next; /* recency list over slots */
    uint32_t head, tail;   /* most and least recently used slot; CS_NIL when empty */
    uint32_t *hash;        /* open addressing, linear probing: slot + 1, 0 = empty */
    uint32_t hmask;
    uint32_t *freel; /* free slots */
    uint32_t nfree;
    struct cs_stride *stride; /* CS_NSTRIDE entries, stride prefetcher only */
};

struct cs_level {
    char name[16];
    unsigned line_bits;
    unsigned sector_bits;
    uint32_t line, sector;
    uint32_t nsect;  /* sectors per line (1 without sectors) */
    uint32_t full;   /* mask of all sectors */
    uint64_t nlines; /* per instance */
    uint64_t nsets;  /* 1 when fully associative */
    uint64_t set_mask;
    bool pow2;     /* nsets is a power of two: index with set_mask */
    uint32_t ways; /* per set (set-associative) */
    bool fa;       /* fully associative with a hash (nlines > 64) */
    uint32_t shared_by;
    uint32_t ninst;
    bool wt;     /* write-through */
    bool walloc; /* write misses allocate */
    bool incl;   /* inclusive of the levels above */
    enum augur_prefetch pf;
    struct cs_inst *inst;
};

/* The counts of one (level, tag); hits are accesses - misses. */
struct cs_ctr {
    uint64_t acc, wr, miss, wmiss;
    uint64_t sacc, smiss;
    uint64_t evict, wb, inval;
    uint64_t pf, pfhit;
    uint64_t fill, wbytes;
    uint64_t rowhit, rowmiss;
    uint64_t pad;
};

struct augur_cachesim {
    unsigned nlevels;
    unsigned nthreads;
    unsigned ntags;
    struct cs_level lv[AUGUR_CACHESIM_MAX_LEVELS];
    struct cs_ctr *ctr; /* (nlevels + 1) * ntags, level-major; memory last */
    /* The L1 hit path: per thread, the tag array of its L1 instance. */
    uint64_t **l1_tags;
    bool l1_fast; /* L1 is set-associative, power-of-two sets, write-back, no sectors or prefetcher
                   */
    /* DRAM row buffers */
    unsigned row_bits; /* 0: no row-buffer model */
    uint32_t banks;
    enum augur_dram_policy dram_policy;
    uint64_t *open; /* open block + 1 per bank (LRU: in recency order); 0 = none */
};

/* cs_sim.c: the simulation core. */
void cs_access(struct augur_cachesim *sim, unsigned thread, uint64_t addr, uint64_t size,
               bool is_write, uint32_t tag);
void cs_inst_clear(const struct cs_level *L, struct cs_inst *I);

#endif
