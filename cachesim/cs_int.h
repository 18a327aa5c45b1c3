/*
 * cs_int.h - internals of the cache simulator shared by its files: the
 * per-level state, the counters and the entry points of the simulation core.
 */
#ifndef AUGUR_CS_INT_H
#define AUGUR_CS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "augur/cachesim.h"

#define CS_INVALID   UINT64_MAX /* an empty way: its line address is above any real one */
#define CS_NIL       UINT32_MAX /* end of a fully associative recency list */
#define CS_TAGSH     17         /* tag word: line address << 17 | owner tag << 1 | dirty */
#define CS_ADDR_BITS 48         /* addresses are taken modulo 2^48 (line addresses < 2^46) */
#define CS_PF_AHEAD  16         /* the batch path prefetches host memory this many accesses ahead */
#define CS_MAX_WAYS  64         /* set-associative levels; more ways: fully associative */
#define CS_NMEMO     128        /* memo entries per thread, by a hash of (line, tag) */

/*
 * Per-line state that only sectored levels and levels with a prefetcher need;
 * everything else lives in the tag word.
 */
struct cs_meta {
    uint8_t svalid; /* valid sectors */
    uint8_t sdirty; /* dirty sectors */
    uint8_t pf;     /* brought in by the prefetcher and not used yet */
    uint8_t pad;
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
 * by a group of threads).
 * Set-associative: blk holds one block of `stride` 64-bit words per set:
 * fpw words of 8-bit fingerprints (a hash of each way's line address, found
 * for all ways at once with word-wide byte compares), then the recency order
 * and the ways' tag words. With up to 16 ways the recency order is one word
 * of 4-bit way numbers, most recent first (a hit moves its nibble to the
 * front, the victim is the last nibble, an invalidated way goes last); with
 * more ways it is one 32-bit stamp per way after the tag words (0 = invalid;
 * the victim has the smallest). Either way replacement is true LRU, nothing
 * but the order moves, and a set's state is one contiguous block of host
 * memory.
 * Fully associative (more than 64 lines): blk holds one tag word per slot, a
 * hash maps line addresses to slots and a doubly linked list keeps recency.
 */
struct cs_inst {
    uint64_t *blk;
    void *blk_raw;
    struct cs_meta *meta; /* per line (set * ways + way, or slot); NULL when not needed */
    uint32_t clock;       /* last stamp given */
    /* fully associative only: */
    uint32_t *prev, *next; /* recency list over slots */
    uint32_t head, tail;   /* most and least recently used slot; CS_NIL when empty */
    uint32_t *hash;        /* open addressing, linear probing: slot + 1, 0 = empty */
    uint32_t hmask;
    uint32_t *freel; /* free slots */
    uint32_t nfree;
    struct cs_stride *stride; /* the level's nstride entries, stride prefetcher only */
    uint32_t psel;            /* adaptive replacement: leader sets' miss balance, 0 .. 1023 */
    uint32_t bip;             /* fills inserted at the LRU place, to make every 32nd recent */
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
    bool pow2;       /* nsets is a power of two: index with set_mask */
    uint32_t ways;   /* per set (set-associative) */
    uint32_t fpw;    /* fingerprint words per set block */
    bool perm;       /* at most 16 ways: recency is a nibble permutation in one word after the
                        fingerprints */
    uint32_t tagoff; /* words before the tag words in a set block (fpw, + 1 with perm) */
    uint32_t stride; /* 64-bit words per set block: fpw + (perm or stamps) + ways */
    bool fa;         /* fully associative with a hash (more than 64 lines) */
    bool big;        /* its state is larger than a host L2: the batch path prefetches it */
    bool meta;       /* sectors or a prefetcher: per-line meta is kept */
    uint32_t shared_by;
    uint32_t ninst;
    bool wt;     /* write-through */
    bool walloc; /* write misses allocate */
    bool incl;   /* inclusive of the levels above */
    bool dip;    /* adaptive replacement (dynamic insertion) */
    enum augur_cache_prefetch pf;
    uint32_t nstride; /* the stride prefetcher's entries, a power of two */
    struct cs_inst *inst;
};

/* The counts of one (level, tag); hits are accesses - misses. */
struct cs_ctr {
    uint64_t acc, wr, miss, wmiss;
    uint64_t sacc, smiss, wsacc, wsmiss; /* sectors; of them written */
    uint64_t evict, wb, inval;
    uint64_t pf, pfhit;
    uint64_t fill, wbytes;
    uint64_t rowhit, rowmiss;
    uint64_t xfer; /* requests this level served whose line another thread's cache held dirty */
};

/*
 * Counts of the level walk (cs_sim.c walk), CS_NSRV words per tag: how many
 * accesses of the tag each level served (memory at nlevels), reads and
 * writes apart, and the DRAM row-buffer outcomes of its fills. Every count of
 * such an access follows from the level that served it (it missed every
 * level above and hit there), so the walk bumps one word per access and
 * augur_cachesim_counts() derives accesses, misses and fill bytes per level.
 * The clean evictions of the walk's fills are counted here too, by owner.
 */
#define CS_SRV_SH       4 /* log2 of the words per tag */
#define CS_NSRV         (1u << CS_SRV_SH)
#define CS_SRV(l, w)    (2 * (l) + (w)) /* served at level l (nlevels: memory), w: a write */
#define CS_SRV_ROWHIT   (2 * (AUGUR_CACHESIM_MAX_LEVELS + 1))
#define CS_SRV_ROWMISS  (CS_SRV_ROWHIT + 1)
#define CS_SRV_EVICT(l) (CS_SRV_ROWMISS + 1 + (l)) /* clean lines of the tag evicted at level l */
_Static_assert(CS_SRV_EVICT(AUGUR_CACHESIM_MAX_LEVELS - 1) < CS_NSRV, "walk counts fit CS_NSRV");

/*
 * An L1 way that a (thread, tag) pair touched, in the thread's entry of a
 * hash of the line and the tag (cs_sim.c memo_of). It is only a hint: it is used
 * when that way's tag word is still the one the memo saw (the line, its owner
 * and its dirty bit), so eviction needs no care. 64 bytes.
 */
struct cs_memo {
    uint64_t base;  /* the line's first byte (below 2^48) */
    uint64_t *t;    /* the tag word */
    uint64_t tw;    /* what it held */
    uint64_t *perm; /* the set's recency permutation */
    uint64_t *cnt;  /* the tag's walk counts */
    uint32_t k;     /* the way */
    uint32_t tag;   /* the tag that filled it (always below ntags) */
    uint64_t pad[2];
};

/* What the level walk needs of one level, packed together. */
struct cs_flevel {
    uint64_t set_mask; /* power-of-two sets: la & set_mask */
    /*
     * Other set counts below 2^32: la % nsets by Lemire's multiply-shift,
     * exact for la below 2^fastbits, 64 minus the bits of nsets (so for every
     * line address below 2^32; for the usual set counts, for all of them).
     */
    uint64_t magic;
    uint64_t below; /* nibbles of recency positions 0 .. ways - 2 */
    uint64_t keep;  /* ~(below << 4 | 0xF): the permutation's bits beyond its ways */
    uint64_t nsets;
    uint32_t stride; /* words per set block */
    uint32_t fpw;    /* fingerprint words (the permutation word follows) */
    uint32_t ways;
    uint32_t lastsh; /* 4 * (ways - 1): the least recent way's nibble */
    uint32_t wmask;  /* (1 << ways) - 1: the ways' bits among 16 fingerprint bytes */
    uint32_t line;
    unsigned line_bits;
    unsigned fastbits;
    bool pow2;
    bool incl;
    bool dip;
};

struct augur_cachesim {
    unsigned nlevels;
    unsigned nthreads;
    unsigned ntags;
    struct cs_level lv[AUGUR_CACHESIM_MAX_LEVELS];
    struct cs_ctr *ctr; /* (nlevels + 1) * ntags, level-major; memory last */
    /* Per thread and level (thread-major, AUGUR_CACHESIM_MAX_LEVELS a thread), its instance. */
    struct cs_inst **iof;
    /*
     * Every level is without sectors and prefetcher, write-back and
     * write-allocate, and lines do not shrink going down: one-line accesses
     * walk the hierarchy in a loop (cs_sim.c simple_access) instead of the
     * general recursive path. Both give the same counts (t_cachesim checks it).
     */
    bool simple;
    bool big;         /* some level's state is larger than a host L2 (cs_level big) */
    bool simple_perm; /* simple, and every level set-associative with at most 16 ways */
    /*
     * Coherent private caches (cs_sim.c snoop): a write removes the line
     * from the other threads' instances; a miss of every instance of the
     * thread's own takes a dirty line from another thread's.
     */
    bool coh;
    /* simple, and L1 is set-associative with power-of-two sets: its hit path is inlined */
    bool l1_inline;
    unsigned l1_bits;
    uint32_t l1_ways, l1_fpw, l1_stride;
    uint64_t l1_mask;
    uint64_t l1_not; /* ~(L1 line - 1) */
    /*
     * simple_perm and l1_inline: an L1 miss walks the levels with fl, fblk
     * and srv (cs_sim.c walk), counting into srv instead of ctr.
     */
    struct cs_flevel fl[AUGUR_CACHESIM_MAX_LEVELS];
    uint64_t **fblk;        /* per thread and level (as iof), the instance's set blocks */
    uint64_t *srv;          /* ntags * CS_NSRV walk counts (cs_sim.c walk) */
    uint32_t bank_mask;     /* banks - 1 when banks is a power of two, else 0 */
    struct cs_memo *memo;   /* nthreads * CS_NMEMO; filled only when l1_inline */
    uint64_t memo_sentinel; /* what an unused memo points at: never a valid tag word */
    /* DRAM row buffers */
    unsigned row_bits; /* 0: no row-buffer model */
    uint32_t banks;
    enum augur_dram_policy dram_policy;
    uint64_t *open; /* open block + 1 per bank (LRU: in recency order); 0 = none */
    /*
     * The deepest level the access in progress reached (0: an L1 hit;
     * nlevels: memory): what augur_cachesim_access_batch_reach() reports.
     * Every path beyond an L1 hit raises it; only that function reads it.
     */
    unsigned reach;
};

/* cs_sim.c: the simulation core. */
/* Asks the host to fetch the simulator state that an access to addr will touch in big levels. */
void cs_prefetch_state(const struct augur_cachesim *sim, unsigned thread, uint64_t addr);
/* Empties an instance. */
void cs_inst_clear(const struct cs_level *L, struct cs_inst *I);
/* Points every last-line memo at nothing. */
void cs_memo_clear(struct augur_cachesim *sim);
/* The set of line address la in a level of the walk. */
static inline uint64_t cs_fset(const struct cs_flevel *F, uint64_t la)
{
    if (F->pow2)
        return la & F->set_mask;
    if (F->magic && !(la >> F->fastbits))
        return (uint64_t)(((unsigned __int128)(F->magic * la) * F->nsets) >> 64);
    return la % F->nsets;
}

#endif
