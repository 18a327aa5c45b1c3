/*
 * t_cachesim.c - the cache simulator against hand-computed sequences on tiny
 * caches and against a naive LRU reference on random streams; bad
 * configurations and configurations from machine files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/augur.h"
#include "cachesim/cs_int.h" /* to switch the fast paths off and compare */
#include "tap.h"

/* One level of size bytes, line bytes, ways (0 = fully associative). */
static struct augur_cache_level_config lvl(const char *name, uint64_t size, uint32_t line,
                                           uint32_t ways)
{
    struct augur_cache_level_config l;

    memset(&l, 0, sizeof(l));
    snprintf(l.name, sizeof(l.name), "%s", name);
    l.size = size;
    l.line = line;
    l.ways = ways;
    return l;
}

static struct augur_cachesim *make(const struct augur_cache_config *cfg, unsigned nthreads,
                                   unsigned ntags)
{
    struct augur_cachesim *sim = NULL;
    struct augur_diag d;

    augur_diag_init(&d);
    if (augur_cachesim_new(cfg, nthreads, ntags, &sim, &d)) {
        printf("# config rejected: %s\n", d.msg);
        exit(1);
    }
    return sim;
}

static struct augur_cache_counts cnt(const struct augur_cachesim *sim, unsigned level, int tag)
{
    struct augur_cache_counts c;

    if (augur_cachesim_counts(sim, level, tag, &c))
        memset(&c, 0xff, sizeof(c));
    return c;
}

static void rd(struct augur_cachesim *sim, uint64_t addr)
{
    augur_cachesim_access(sim, 0, addr, 8, false, 0);
}

static void wr(struct augur_cachesim *sim, uint64_t addr)
{
    augur_cachesim_access(sim, 0, addr, 8, true, 0);
}

static void test_direct_mapped(void)
{
    struct augur_cache_config cfg = { 0 };
    struct augur_cachesim *sim;
    struct augur_cache_counts c;

    cfg.nlevels = 1;
    cfg.level[0] = lvl("L1", 256, 64, 1); /* 4 sets of one line */
    sim = make(&cfg, 1, 1);
    rd(sim, 0);   /* miss: set 0 <- line 0 */
    rd(sim, 64);  /* miss: set 1 <- line 1 */
    rd(sim, 8);   /* hit: line 0 */
    rd(sim, 256); /* miss: line 4 -> set 0, evicts line 0 (conflict) */
    rd(sim, 0);   /* miss: evicts line 4 */
    rd(sim, 128); /* miss: set 2 */
    rd(sim, 320); /* miss: line 5 -> set 1, evicts line 1 */
    rd(sim, 64);  /* miss: evicts line 5 */
    c = cnt(sim, 0, -1);
    is_int(c.accesses, 8, "direct-mapped: 8 accesses");
    is_int(c.hits, 1, "direct-mapped: 1 hit");
    is_int(c.misses, 7, "direct-mapped: 7 misses (conflicts)");
    is_int(c.evictions, 4, "direct-mapped: 4 evictions");
    is_int(c.writebacks, 0, "direct-mapped: no write-backs on reads");
    is_int(c.fill_bytes, 7 * 64, "direct-mapped: 7 lines filled");
    c = cnt(sim, 1, -1);
    is_int(c.reads, 7, "memory: 7 line reads");
    is_int(c.fill_bytes, 7 * 64, "memory: 448 bytes read");
    augur_cachesim_free(sim);
}

static void test_two_way_lru(void)
{
    struct augur_cache_config cfg = { 0 };
    struct augur_cachesim *sim;
    struct augur_cache_counts c;

    cfg.nlevels = 1;
    cfg.level[0] = lvl("L1", 256, 64, 2); /* 2 sets of 2 ways; even lines in set 0 */
    sim = make(&cfg, 1, 1);
    rd(sim, 0 * 64); /* miss [0] */
    rd(sim, 2 * 64); /* miss [2 0] */
    rd(sim, 0 * 64); /* hit  [0 2] */
    rd(sim, 4 * 64); /* miss, LRU is 2: [4 0] (FIFO would evict 0) */
    rd(sim, 0 * 64); /* hit under LRU [0 4] */
    rd(sim, 2 * 64); /* miss, evicts 4: [2 0] */
    rd(sim, 1 * 64); /* miss in set 1 */
    c = cnt(sim, 0, -1);
    is_int(c.hits, 2, "2-way: LRU keeps the line used last (2 hits)");
    is_int(c.misses, 5, "2-way: 5 misses");
    is_int(c.evictions, 2, "2-way: 2 evictions");
    augur_cachesim_free(sim);
}

/* augur_cachesim_holds: a look at a level that changes neither its order nor its counts. */
static void test_holds(void)
{
    struct augur_cache_config cfg = { 0 };
    struct augur_cachesim *sim;
    struct augur_cache_counts c;

    cfg.nlevels = 2;
    cfg.level[0] = lvl("L1", 256, 64, 2); /* 2 sets of 2 ways */
    cfg.level[1] = lvl("L2", 1024, 64, 4);
    sim = make(&cfg, 2, 1);
    rd(sim, 0 * 64);
    rd(sim, 2 * 64); /* set 0: [2 0] */
    ok(augur_cachesim_holds(sim, 0, 0, 0 * 64 + 8) && augur_cachesim_holds(sim, 0, 1, 2 * 64),
       "holds: lines read are in L1 and L2");
    ok(!augur_cachesim_holds(sim, 0, 0, 4 * 64) && !augur_cachesim_holds(sim, 1, 0, 0),
       "holds: not a line never read, nor another thread's private L1");
    ok(!augur_cachesim_holds(sim, 0, 2, 0) && !augur_cachesim_holds(sim, 2, 0, 0),
       "holds: false for a level or thread out of range");
    rd(sim, 4 * 64); /* evicts 0, the LRU line, had the look above moved it */
    ok(!augur_cachesim_holds(sim, 0, 0, 0) && augur_cachesim_holds(sim, 0, 0, 2 * 64),
       "holds: the look left the LRU order as it was");
    c = cnt(sim, 0, -1);
    is_int(c.accesses, 3, "holds: and counted nothing");
    augur_cachesim_free(sim);
}

static void test_fully_associative(void)
{
    struct augur_cache_config cfg = { 0 };
    struct augur_cachesim *sim;
    struct augur_cache_counts c;
    int pass, i;

    cfg.nlevels = 1;
    cfg.level[0] = lvl("L2", 256, 64, 0); /* 4 lines, fully associative */
    sim = make(&cfg, 1, 1);
    for (pass = 0; pass < 2; pass++)
        for (i = 0; i < 5; i++)
            rd(sim, (uint64_t)i * 4096); /* 5 lines cycling through 4: LRU always misses */
    c = cnt(sim, 0, -1);
    is_int(c.misses, 10, "fully associative: a 5-line cycle in 4 lines always misses");
    is_int(c.evictions, 6, "fully associative: 6 evictions");
    augur_cachesim_invalidate(sim);
    augur_cachesim_reset_counts(sim);
    for (pass = 0; pass < 2; pass++)
        for (i = 0; i < 4; i++)
            rd(sim, (uint64_t)i * 4096);
    c = cnt(sim, 0, -1);
    is_int(c.misses, 4, "fully associative: 4 lines fit (capacity)");
    is_int(c.hits, 4, "fully associative: second pass hits");
    augur_cachesim_free(sim);

    /* the hashed form (more than 64 lines) */
    cfg.level[0] = lvl("L2", 1024 * 64, 64, 0);
    sim = make(&cfg, 1, 1);
    for (pass = 0; pass < 3; pass++)
        for (i = 0; i < 1025; i++)
            rd(sim, (uint64_t)i * 64 * 7);
    c = cnt(sim, 0, -1);
    is_int(c.misses, 3 * 1025, "hashed fully associative: 1025-line cycle in 1024 always misses");
    is_int(c.evictions, 3 * 1025 - 1024, "hashed fully associative: evictions");
    augur_cachesim_reset_counts(sim);
    for (i = 1024; i >= 1; i--)
        rd(sim, (uint64_t)i * 64 * 7);
    c = cnt(sim, 0, -1);
    is_int(c.hits, 1024, "hashed fully associative: the last 1024 lines are all there");
    augur_cachesim_free(sim);
}

static void test_write_back(void)
{
    struct augur_cache_config cfg = { 0 };
    struct augur_cachesim *sim;
    struct augur_cache_counts c, m;

    cfg.nlevels = 1;
    cfg.level[0] = lvl("L1", 128, 64, 1); /* 2 sets of one line */
    sim = make(&cfg, 1, 1);
    wr(sim, 0);   /* miss, allocate (fetch), dirty */
    wr(sim, 8);   /* hit, already dirty */
    wr(sim, 128); /* miss in set 0: evicts dirty line 0 -> write-back */
    rd(sim, 64);  /* miss in set 1 */
    rd(sim, 192); /* miss in set 1: evicts clean line 1 */
    c = cnt(sim, 0, -1);
    is_int(c.writes, 3, "write-back: 3 writes");
    is_int(c.write_misses, 2, "write-back: 2 write misses");
    is_int(c.read_misses, 2, "write-back: 2 read misses");
    is_int(c.writebacks, 1, "write-back: one dirty eviction");
    is_int(c.writeback_bytes, 64, "write-back: 64 bytes written back");
    m = cnt(sim, 1, -1);
    is_int(m.reads, 4, "write-back: 4 line fills from memory (write-allocate fetches)");
    is_int(m.writes, 1, "write-back: 1 write to memory");
    augur_cachesim_flush(sim);
    c = cnt(sim, 0, -1);
    m = cnt(sim, 1, -1);
    is_int(c.writebacks, 2, "flush writes the dirty line 2 back");
    is_int(m.writes, 2, "flush reaches memory");
    augur_cachesim_flush(sim);
    is_int(cnt(sim, 1, -1).writes, 2, "a second flush has nothing left to write");
    augur_cachesim_free(sim);
}

static void test_write_through(void)
{
    struct augur_cache_config cfg = { 0 };
    struct augur_cachesim *sim;
    struct augur_cache_counts c, m;

    cfg.nlevels = 1;
    cfg.level[0] = lvl("L1", 128, 64, 1);
    cfg.level[0].write_policy = AUGUR_CACHE_WRITE_THROUGH; /* no-write-allocate by default */
    sim = make(&cfg, 1, 1);
    wr(sim, 0); /* miss, not allocated, written through */
    rd(sim, 0); /* miss, allocated */
    wr(sim, 0); /* hit, written through */
    rd(sim, 0); /* hit */
    c = cnt(sim, 0, -1);
    m = cnt(sim, 1, -1);
    is_int(c.misses, 2, "write-through: the write miss does not allocate");
    is_int(c.write_misses, 1, "write-through: one write miss");
    is_int(c.hits, 2, "write-through: 2 hits");
    is_int(c.writeback_bytes, 16, "write-through: both 8-byte writes go down");
    is_int(c.writebacks, 0, "write-through: lines are never dirty");
    is_int(m.writes, 2, "write-through: memory sees both writes");
    is_int(m.reads, 1, "write-through: one line fill");
    is_int(m.writeback_bytes, 16, "write-through: 16 bytes written to memory");

    /* write-through with write-allocate: the first write fetches */
    augur_cachesim_free(sim);
    cfg.level[0].write_allocate = true;
    cfg.level[0].write_allocate_set = true;
    sim = make(&cfg, 1, 1);
    wr(sim, 0);
    rd(sim, 0);
    c = cnt(sim, 0, -1);
    is_int(c.misses, 1, "write-through + allocate: the write miss fetches the line");
    is_int(cnt(sim, 1, -1).reads, 1, "... one fill");
    augur_cachesim_free(sim);
}

static void inclusion_run(bool inclusive, struct augur_cache_counts *l1,
                          struct augur_cache_counts *l2, struct augur_cache_counts *mem)
{
    struct augur_cache_config cfg = { 0 };
    struct augur_cachesim *sim;

    cfg.nlevels = 2;
    cfg.level[0] = lvl("L1", 128, 64, 1); /* 2 sets of one line */
    cfg.level[1] = lvl("L2", 128, 64, 0); /* 2 lines, fully associative */
    cfg.level[1].inclusive = inclusive;
    sim = make(&cfg, 1, 1);
    wr(sim, 0);   /* L1 {0*}, L2 {0} */
    rd(sim, 64);  /* L1 {0*, 1}, L2 {1 0} */
    rd(sim, 128); /* L2 evicts 0; inclusive: L1's dirty 0 is invalidated and written back */
    rd(sim, 0);   /* L2 evicts 1 (inclusive: L1's 1 goes too) */
    rd(sim, 64);  /* inclusive: miss; non-inclusive: L1 still has it */
    *l1 = cnt(sim, 0, -1);
    *l2 = cnt(sim, 1, -1);
    *mem = cnt(sim, 2, -1);
    augur_cachesim_free(sim);
}

static void test_inclusion(void)
{
    struct augur_cache_counts l1, l2, mem;

    inclusion_run(true, &l1, &l2, &mem);
    is_int(l1.misses, 5, "inclusive: every L1 access misses");
    is_int(l1.invalidations, 2, "inclusive: L2 evictions back-invalidate two L1 lines");
    is_int(l1.evictions, 1, "inclusive: L1 evicts only line 2 itself");
    is_int(l2.accesses, 5, "inclusive: L2 sees 5 requests");
    is_int(l2.evictions, 3, "inclusive: L2 evicts 0, 1, 2");
    is_int(l2.writebacks, 1, "inclusive: the dirty L1 copy leaves with the L2 eviction");
    is_int(mem.writes, 1, "inclusive: memory gets line 0");

    inclusion_run(false, &l1, &l2, &mem);
    is_int(l1.misses, 4, "non-inclusive: L1 keeps line 1 after L2 drops it");
    is_int(l1.hits, 1, "non-inclusive: one L1 hit");
    is_int(l1.invalidations, 0, "non-inclusive: no back-invalidation");
    is_int(l1.evictions, 2, "non-inclusive: L1 evicts lines 0 and 2");
    is_int(l1.writebacks, 1, "non-inclusive: L1 writes the dirty line 0 back");
    /* L1's write-back of line 0 finds it gone from L2 (evicted clean) and goes on to memory */
    is_int(l2.writebacks, 0, "non-inclusive: L2 evicted line 0 while clean");
    is_int(mem.writes, 1, "non-inclusive: the write-back passes through to memory");
}

static void test_sectors(void)
{
    struct augur_cache_config cfg = { 0 };
    struct augur_cachesim *sim;
    struct augur_cache_counts c, m;

    cfg.nlevels = 1;
    cfg.level[0] = lvl("L2", 1024, 128, 0); /* 8 lines of four 32-byte sectors */
    cfg.level[0].sector = 32;
    sim = make(&cfg, 1, 1);
    augur_cachesim_access(sim, 0, 0, 4, false, 0);    /* line miss: sector 0 */
    augur_cachesim_access(sim, 0, 32, 4, false, 0);   /* line present, sector 1 missing */
    augur_cachesim_access(sim, 0, 4, 4, false, 0);    /* hit */
    augur_cachesim_access(sim, 0, 100, 8, false, 0);  /* sector 3 missing */
    augur_cachesim_access(sim, 0, 120, 16, false, 0); /* straddles: sector 3 hit, line 1 miss */
    c = cnt(sim, 0, -1);
    m = cnt(sim, 1, -1);
    is_int(c.accesses, 6, "sectors: 6 line requests");
    is_int(c.misses, 4, "sectors: 4 requests miss a sector");
    is_int(c.sector_accesses, 6, "sectors: 6 sectors requested");
    is_int(c.sector_misses, 4, "sectors: 4 sector misses");
    is_int(c.fill_bytes, 4 * 32, "sectors: only missing sectors are fetched");
    is_int(m.reads, 4, "sectors: 4 DRAM transactions of 32 bytes");
    is_int(m.fill_bytes, 128, "sectors: 128 bytes from memory");
    augur_cachesim_access(sim, 0, 4096, 128, false, 0); /* a whole coalesced line */
    c = cnt(sim, 0, -1);
    is_int(c.sector_misses, 8, "sectors: a 128-byte access misses 4 sectors at once");
    is_int(c.accesses, 7, "... as one request");
    /* a write fills whole sectors without reading them; a partly written one is read */
    augur_cachesim_access(sim, 0, 8192, 64, true, 0); /* sectors 0-1 whole */
    augur_cachesim_access(sim, 0, 8256, 40, true, 0); /* sector 2 whole, sector 3 in part */
    c = cnt(sim, 0, -1);
    is_int(c.fill_bytes, 4 * 32 + 128 + 32,
           "sectors: a write reads only the sector it fills in part");
    is_int(c.sector_misses, 12, "sectors: the written sectors still miss");
    augur_cachesim_free(sim);
}

static void test_row_buffers(void)
{
    struct augur_cache_config cfg = { 0 };
    struct augur_cachesim *sim;
    struct augur_cache_counts m;
    static const uint64_t addrs[] = { 0, 64, 512, 128, 256, 0 }; /* blocks 0 0 2 0 1 0 */
    unsigned i;

    cfg.nlevels = 1;
    cfg.level[0] = lvl("L1", 64, 64, 1); /* one line: each new line misses */
    cfg.dram.row_bytes = 256;
    cfg.dram.banks = 2;
    cfg.dram.policy = AUGUR_DRAM_OPEN_BANK;
    sim = make(&cfg, 1, 1);
    for (i = 0; i < 6; i++)
        rd(sim, addrs[i]);
    m = cnt(sim, 1, -1);
    is_int(m.row_hits, 2, "open-bank rows: 2 hits (block 0 twice in bank 0)");
    is_int(m.row_misses, 4, "open-bank rows: 4 misses (block 2 closes block 0)");
    augur_cachesim_free(sim);

    cfg.dram.policy =
        AUGUR_DRAM_LRU; /* Pai et al. AGP'17: fully associative LRU of 256-byte blocks */
    sim = make(&cfg, 1, 1);
    for (i = 0; i < 6; i++)
        rd(sim, addrs[i]);
    m = cnt(sim, 1, -1);
    is_int(m.row_hits, 3, "LRU rows: 3 hits");
    is_int(m.row_misses, 3, "LRU rows: 3 misses");
    augur_cachesim_free(sim);
}

static void test_prefetch(void)
{
    struct augur_cache_config cfg = { 0 };
    struct augur_cachesim *sim;
    struct augur_cache_counts c;
    unsigned i;

    cfg.nlevels = 1;
    cfg.level[0] = lvl("L1", 1024, 64, 0);
    sim = make(&cfg, 1, 1);
    for (i = 0; i < 8; i++)
        rd(sim, i * 64);
    is_int(cnt(sim, 0, -1).misses, 8, "no prefetcher: a sequential stream misses every line");
    augur_cachesim_free(sim);

    cfg.level[0].prefetch = AUGUR_CACHE_PREFETCH_NEXT_LINE;
    sim = make(&cfg, 1, 1);
    for (i = 0; i < 8; i++)
        rd(sim, i * 64);
    c = cnt(sim, 0, -1);
    is_int(c.misses, 1, "next-line: only the first line misses");
    is_int(c.prefetches, 8, "next-line: 8 lines prefetched (one ahead)");
    is_int(c.prefetch_hits, 7, "next-line: 7 used");
    is_int(cnt(sim, 1, -1).reads, 9, "next-line: 9 lines read from memory");
    augur_cachesim_free(sim);

    cfg.level[0] = lvl("L1", 4096, 64, 0);
    cfg.level[0].prefetch = AUGUR_CACHE_PREFETCH_STRIDE;
    cfg.level[0].stride_entries = 64;
    sim = make(&cfg, 1, 1);
    for (i = 0; i < 6; i++)
        rd(sim, i * 256); /* stride of 4 lines */
    c = cnt(sim, 0, -1);
    is_int(c.misses, 3, "stride: trained after two equal strides, then hits");
    is_int(c.prefetches, 4, "stride: 4 prefetches");
    is_int(c.prefetch_hits, 3, "stride: 3 used");
    augur_cachesim_free(sim);
}

/*
 * Misses of a level (last of nlevels) when a cyclic scan over `lines` lines
 * runs `passes` times, with the level's replacement repl and ways ways.
 */
static uint64_t scan_misses(unsigned nlevels, uint32_t ways, enum augur_cache_replacement repl,
                            uint64_t lines, unsigned passes)
{
    struct augur_cache_config cfg = { 0 };
    struct augur_cachesim *sim;
    uint64_t misses;

    cfg.nlevels = nlevels;
    cfg.level[0] = lvl("L1", 4096, 64, 4);
    /* ways 0: fully associative, 2048 lines */
    cfg.level[nlevels - 1] = lvl("LL", 256 * (ways ? ways : 8) * 64, 64, ways);
    cfg.level[nlevels - 1].replacement = repl;
    if (!(sim = make(&cfg, 1, 1)))
        return UINT64_MAX;
    for (unsigned p = 0; p < passes; p++)
        for (uint64_t i = 0; i < lines; i++)
            rd(sim, i * 64);
    misses = cnt(sim, nlevels - 1, -1).misses;
    augur_cachesim_free(sim);
    return misses;
}

static void test_replacement(void)
{
    /* 256 sets: a scan over 1.5 x the level's lines, 10 times */
    for (unsigned nl = 1; nl <= 2; nl++)
        for (uint32_t ways = 8; ways <= 32; ways *= 4) {
            uint64_t lines = 256 * ways, scan = lines * 3 / 2;
            uint64_t lru = scan_misses(nl, ways, AUGUR_CACHE_LRU, scan, 10);
            uint64_t dip = scan_misses(nl, ways, AUGUR_CACHE_ADAPTIVE, scan, 10);

            is_int(lru, scan * 10, "LRU: a cyclic scan larger than the level misses every line");
            diag("%u levels, %u ways: adaptive %llu of %llu miss", nl, ways,
                 (unsigned long long)dip, (unsigned long long)(scan * 10));
            ok(dip < scan * 10 / 2, "adaptive: it keeps part of the scan");
            ok(dip >= scan * 10 / 3, "adaptive: no more than the level holds stays");
            is_int(scan_misses(nl, ways, AUGUR_CACHE_ADAPTIVE, lines / 2, 10), lines / 2,
                   "adaptive: a working set that fits misses once per line");
        }
    is_int(scan_misses(1, 8, (enum augur_cache_replacement)0, 2048 * 3 / 2, 2), 2 * 3072,
           "a zeroed level is LRU");
    is_int(scan_misses(2, 0, AUGUR_CACHE_LRU, 3072, 10), 30720,
           "fully associative LRU: the scan misses every line");
    is_int(scan_misses(2, 0, AUGUR_CACHE_ADAPTIVE, 3072, 10), 30720,
           "fully associative: no sets to duel, adaptive stays LRU");
}

static void test_shared_and_tags(void)
{
    struct augur_cache_config cfg = { 0 };
    struct augur_cachesim *sim;
    struct augur_cache_counts c;

    cfg.nlevels = 2;
    cfg.level[0] = lvl("L1", 64, 64, 1);
    cfg.level[1] = lvl("L2", 256, 64, 0);
    cfg.level[1].shared_by = 2;
    sim = make(&cfg, 2, 1);
    augur_cachesim_access(sim, 0, 0, 8, false, 0);
    augur_cachesim_access(sim, 1, 0, 8, false, 0); /* private L1 miss, shared L2 hit */
    c = cnt(sim, 1, -1);
    is_int(c.accesses, 2, "shared L2: both threads' misses arrive");
    is_int(c.hits, 1, "shared L2: the second thread hits the first one's line");
    is_int(cnt(sim, 0, -1).misses, 2, "private L1s: both miss");
    augur_cachesim_free(sim);

    cfg.level[1].shared_by = 1;
    sim = make(&cfg, 2, 1);
    augur_cachesim_access(sim, 0, 0, 8, false, 0);
    augur_cachesim_access(sim, 1, 0, 8, false, 0);
    is_int(cnt(sim, 1, -1).hits, 0, "private L2s: no sharing");
    augur_cachesim_free(sim);

    /* straddling accesses touch both lines */
    cfg.nlevels = 1;
    cfg.level[0] = lvl("L1", 1024, 64, 2);
    sim = make(&cfg, 1, 1);
    augur_cachesim_access(sim, 0, 60, 8, false, 0);
    c = cnt(sim, 0, -1);
    is_int(c.accesses, 2, "straddling access: two line requests");
    is_int(c.misses, 2, "straddling access: two misses");
    augur_cachesim_access(sim, 0, 56, 8, false, 0);
    is_int(cnt(sim, 0, -1).hits, 1, "an access ending at the boundary touches one line");
    augur_cachesim_free(sim);

    /* per-tag attribution: misses to the requester, evictions and write-backs to the owner */
    cfg.level[0] = lvl("L1", 128, 64, 0); /* 2 lines */
    sim = make(&cfg, 1, 3);
    augur_cachesim_access(sim, 0, 0, 8, false, 0);
    augur_cachesim_access(sim, 0, 64, 8, false, 0);
    augur_cachesim_access(sim, 0, 640, 8, false, 1);   /* evicts line 0, owned by tag 0 */
    augur_cachesim_access(sim, 0, 640, 8, true, 1);    /* dirty, owned by tag 1 */
    augur_cachesim_access(sim, 0, 1280, 8, false, 0);  /* evicts 64 (tag 0, clean) */
    augur_cachesim_access(sim, 0, 1920, 8, false, 0);  /* evicts 640 (tag 1, dirty) */
    augur_cachesim_access(sim, 0, 1920, 8, false, 99); /* tag beyond ntags: counted under 2 */
    is_int(cnt(sim, 0, 0).misses, 4, "tag 0: 4 misses");
    is_int(cnt(sim, 0, 1).misses, 1, "tag 1: 1 miss");
    is_int(cnt(sim, 0, 0).evictions, 2, "tag 0's lines evicted twice");
    is_int(cnt(sim, 0, 1).evictions, 1, "tag 1's line evicted once");
    is_int(cnt(sim, 0, 1).writebacks, 1, "tag 1 owns the write-back");
    is_int(cnt(sim, 0, 0).writebacks, 0, "tag 0 wrote nothing");
    is_int(cnt(sim, 0, 2).hits, 1, "an out-of-range tag lands on the last one");
    is_int(cnt(sim, 0, -1).accesses, 7, "totals sum the tags");
    is_int(cnt(sim, 2, -1).accesses, (uint64_t)-1, "counts of a level beyond memory fail");
    is_str(augur_cachesim_level_name(sim, 1), "memory", "the level after the caches is memory");
    augur_cachesim_free(sim);
}

/*
 * Coherence: thread 0 writes a line, thread 1 reads it, thread 0 writes it
 * again, thread 1 reads it again (tags 0 and 1 are the threads). l1ways 0
 * is a fully associative L1 (the general path), else the walk's.
 */
static void coherence_run(bool coherent, uint32_t l1ways, uint32_t l2shared, const char *name)
{
    struct augur_cache_config cfg = { 0 };
    struct augur_cachesim *sim;
    unsigned meet = l2shared > 1 ? 1 : 2; /* where the threads meet: the shared L2 or memory */
    char what[160];

    cfg.nlevels = 2;
    cfg.level[0] = lvl("L1", 1024, 64, l1ways);
    cfg.level[1] = lvl("L2", 8192, 64, 4);
    cfg.level[1].shared_by = l2shared;
    cfg.coherent = coherent;
    sim = make(&cfg, 2, 2);
    augur_cachesim_access(sim, 0, 640, 8, true, 0);
    augur_cachesim_access(sim, 1, 640, 8, false, 1); /* the line moves: a transfer */
    augur_cachesim_access(sim, 1, 648, 8, false, 1); /* now thread 1's own */
    augur_cachesim_access(sim, 0, 656, 8, false, 0); /* thread 0 kept a clean copy */
    augur_cachesim_access(sim, 0, 640, 8, true, 0);  /* removes thread 1's */
    augur_cachesim_access(sim, 1, 640, 8, false, 1); /* moves again */
    snprintf(what, sizeof(what), "%s: thread 1's L1 misses", name);
    is_int(cnt(sim, 0, 1).misses, coherent ? 2 : 1, what);
    snprintf(what, sizeof(what), "%s: transfers where the threads meet", name);
    is_int(cnt(sim, meet, 1).transfers, coherent ? 2 : 0, what);
    snprintf(what, sizeof(what), "%s: no transfers elsewhere", name);
    is_int(cnt(sim, 3 - meet, -1).transfers + cnt(sim, 0, -1).transfers, 0, what);
    snprintf(what, sizeof(what), "%s: thread 1's copy invalidated once", name);
    is_int(cnt(sim, 0, 1).invalidations, coherent ? 1 : 0, what);
    snprintf(what, sizeof(what), "%s: thread 0's dirty line written down twice", name);
    is_int(cnt(sim, 0, 0).writebacks, coherent ? 2 : 0, what);
    snprintf(what, sizeof(what), "%s: thread 0's L1 hits", name);
    is_int(cnt(sim, 0, 0).hits, 2, what);
    /* two writers: the second takes the dirty line (a transfer) and removes the first's copy */
    augur_cachesim_access(sim, 0, 1280, 8, true, 0);
    augur_cachesim_access(sim, 1, 1288, 8, true, 1);
    augur_cachesim_access(sim, 0, 1296, 8, false, 0);
    snprintf(what, sizeof(what), "%s: a write takes the line too", name);
    is_int(cnt(sim, meet, 1).transfers, coherent ? 3 : 0, what);
    snprintf(what, sizeof(what), "%s: and the first writer's read moves it back", name);
    is_int(cnt(sim, meet, 0).transfers, coherent ? 1 : 0, what);
    augur_cachesim_free(sim);
}

static void test_coherence(void)
{
    coherence_run(true, 2, 2, "coherent, shared L2");
    coherence_run(true, 2, 1, "coherent, private L2");
    coherence_run(true, 0, 2, "coherent, fully associative L1");
    coherence_run(true, 0, 1, "coherent, fully associative L1, private L2");
    coherence_run(false, 2, 2, "not coherent");
}

/* ---- a naive LRU reference: per set, timestamps; checked on random streams ---- */

struct ref {
    uint64_t nsets, ways, line;
    uint64_t *tag, *ts;
    unsigned char *dirty;
    uint64_t now, miss, evict, wb;
};

static void ref_init(struct ref *r, uint64_t size, uint64_t line, uint64_t ways)
{
    uint64_t nlines = size / line;

    r->ways = ways ? ways : nlines;
    r->nsets = nlines / r->ways;
    r->line = line;
    r->tag = calloc(nlines, sizeof(uint64_t));
    r->ts = calloc(nlines, sizeof(uint64_t));
    r->dirty = calloc(nlines, 1);
    r->now = r->miss = r->evict = r->wb = 0;
}

static void ref_access(struct ref *r, uint64_t addr, bool w)
{
    uint64_t la = addr / r->line, set = la % r->nsets, *t = r->tag + set * r->ways;
    uint64_t *ts = r->ts + set * r->ways, k, v = 0;
    unsigned char *d = r->dirty + set * r->ways;

    r->now++;
    for (k = 0; k < r->ways; k++)
        if (ts[k] && t[k] == la) {
            ts[k] = r->now;
            d[k] |= w;
            return;
        }
    r->miss++;
    for (k = 0; k < r->ways; k++) {
        if (!ts[k]) {
            v = k;
            break;
        }
        if (ts[k] < ts[v])
            v = k;
    }
    if (ts[v]) {
        r->evict++;
        r->wb += d[v];
    }
    t[v] = la;
    ts[v] = r->now;
    d[v] = w;
}

static void ref_free(struct ref *r)
{
    free(r->tag);
    free(r->ts);
    free(r->dirty);
}

static uint64_t rng_state = 88172645463325252ull;

static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void against_reference(uint64_t size, uint32_t line, uint32_t ways, const char *name)
{
    struct augur_cache_config cfg = { 0 };
    struct augur_cachesim *sim;
    struct augur_cache_counts c;
    struct ref r;
    uint64_t span = size * 3, i, n = 200000;
    char label[128];

    cfg.nlevels = 1;
    cfg.level[0] = lvl("X", size, line, ways);
    sim = make(&cfg, 1, 1);
    ref_init(&r, size, line, ways);
    for (i = 0; i < n; i++) {
        /* a hot region and a cold one, so that hits, conflicts and capacity all occur */
        uint64_t a = (rnd() % 4 ? rnd() % (size / 2) : rnd() % span) & ~(uint64_t)7;
        bool w = rnd() % 10 < 3;

        augur_cachesim_access(sim, 0, a, 8, w, 0);
        ref_access(&r, a, w);
    }
    c = cnt(sim, 0, -1);
    snprintf(label, sizeof(label), "%s: misses equal the reference LRU's", name);
    is_int(c.misses, r.miss, label);
    snprintf(label, sizeof(label), "%s: evictions equal the reference's", name);
    is_int(c.evictions, r.evict, label);
    snprintf(label, sizeof(label), "%s: write-backs equal the reference's", name);
    is_int(c.writebacks, r.wb, label);
    ok(r.miss > n / 20 && r.miss < n - n / 20, "the stream mixes hits and misses");
    ref_free(&r);
    augur_cachesim_free(sim);
}

static void test_reference(void)
{
    against_reference(1024, 64, 1, "direct-mapped 16 sets");
    against_reference(2048, 64, 2, "2-way 16 sets");
    against_reference(3 * 64 * 4, 64, 3, "3-way 4 sets");
    against_reference(12 * 64 * 8, 64, 12, "12-way 8 sets");
    against_reference(16 * 64 * 4, 64, 16, "16-way 4 sets");
    against_reference(20 * 64 * 4, 64, 20, "20-way 4 sets (stamps)");
    against_reference(64 * 32 * 2, 32, 64, "64-way 2 sets (stamps)");
    against_reference(4096, 64, 1, "direct-mapped 64 sets");
    against_reference(8192, 64, 4, "4-way 32 sets");
    against_reference(11 * 3 * 64, 64, 11, "11-way 3 sets (not a power of two)");
    against_reference(16 * 32, 32, 0, "fully associative 16 lines");
    against_reference(1000 * 64, 64, 0, "hashed fully associative 1000 lines");
    against_reference(32768, 64, 8, "32 KiB 8-way");
}

/*
 * The loop path for simple hierarchies and the inlined L1 path against the
 * general recursive path: the same random stream (two threads, a shared
 * last level, writes, accesses across lines) must give the same counts.
 */
static void fast_vs_general(bool inclusive, uint32_t l3ways, const char *name)
{
    struct augur_cache_config cfg = { 0 };
    struct augur_cachesim *fast, *slow;
    unsigned l, t, i;
    bool same = true;
    char label[160];

    cfg.nlevels = 3;
    cfg.level[0] = lvl("L1", 1024, 64, 4);
    cfg.level[1] = lvl("L2", 4096, 64, 8);
    cfg.level[2] = lvl("L3", 64 * l3ways * 12, 64, l3ways); /* 12 sets: not a power of two */
    cfg.level[2].shared_by = 2;
    cfg.level[2].inclusive = inclusive;
    cfg.dram.row_bytes = 256;
    cfg.dram.banks = 4;
    fast = make(&cfg, 2, 5);
    slow = make(&cfg, 2, 5);
    ok(fast->simple && fast->l1_inline, "the configuration takes the fast paths");
    slow->simple = false;
    slow->l1_inline = false;
    rng_state = 1234567;
    for (i = 0; i < 300000; i++) {
        uint64_t r = rnd();
        unsigned th = (unsigned)(r & 1);
        uint64_t a = r % 7 < 5 ? (rnd() % 128) * 4 : rnd() % (64 * 1024);
        uint32_t size = r % 11 == 0 ? 16 : 4;
        bool w = r % 5 == 0;
        uint32_t tag = (uint32_t)(rnd() % 5);

        augur_cachesim_access(fast, th, a, size, w, tag);
        augur_cachesim_access(slow, th, a, size, w, tag);
    }
    augur_cachesim_flush(fast);
    augur_cachesim_flush(slow);
    for (l = 0; l <= 3 && same; l++)
        for (t = 0; t < 5; t++) {
            struct augur_cache_counts a = cnt(fast, l, (int)t), b = cnt(slow, l, (int)t);

            if (memcmp(&a, &b, sizeof(a)) != 0) {
                diag("level %u tag %u: accesses %llu/%llu misses %llu/%llu evictions %llu/%llu "
                     "write-backs %llu/%llu",
                     l, t, (unsigned long long)a.accesses, (unsigned long long)b.accesses,
                     (unsigned long long)a.misses, (unsigned long long)b.misses,
                     (unsigned long long)a.evictions, (unsigned long long)b.evictions,
                     (unsigned long long)a.writebacks, (unsigned long long)b.writebacks);
                same = false;
                break;
            }
        }
    snprintf(label, sizeof(label), "%s: fast paths and the general path count the same", name);
    ok(same, label);
    ok(cnt(fast, 2, -1).misses > 1000 && cnt(fast, 0, -1).hits > 100000,
       "... on a stream that hits and misses at every level");
    augur_cachesim_free(fast);
    augur_cachesim_free(slow);
}

static void test_fast_paths(void)
{
    fast_vs_general(false, 11, "non-inclusive, 11-way L3");
    fast_vs_general(true, 11, "inclusive, 11-way L3");
    fast_vs_general(true, 24, "inclusive, 24-way L3 (stamps)");
}

/*
 * The fast paths (memo, inlined L1 set, the level walk, the batch entry
 * point) against the general recursive path on more geometries: lines
 * growing down the hierarchy, direct-mapped and 16-way L1s, 2 and 4 levels,
 * set counts that are not powers of two, addresses above 2^38 (line
 * addresses past 32 bits: the remainder without the multiply-shift) and
 * above 2^48 (taken modulo 2^48), accesses of size 0 and across lines, tags
 * out of range, both DRAM policies, and counts reset, caches flushed and
 * emptied in the middle of the stream.
 */
struct geom {
    const char *name;
    unsigned nlevels;
    uint64_t size[4];
    uint32_t line[4], ways[4], shared[4];
    bool incl;
    enum augur_dram_policy dram;
    uint32_t banks;
};

/*
 * Sends a batch with the level that served each access; returns how many
 * reads the general path (want) saw served elsewhere, and keeps the deepest.
 */
static unsigned batch_reach(struct augur_cachesim *sim, const struct augur_cache_access *b,
                            unsigned n, uint8_t *reach, const uint8_t *want, unsigned *deepest)
{
    unsigned differ = 0;

    augur_cachesim_access_batch_reach(sim, b, n, reach);
    for (unsigned i = 0; i < n; i++) {
        if (b[i].is_write)
            continue; /* a write's fetch for ownership: the walk counts it, the general path not */
        differ += reach[i] != want[i];
        if (reach[i] > *deepest)
            *deepest = reach[i];
    }
    return differ;
}

static void paths_agree(const struct geom *g)
{
    struct augur_cache_config cfg = { 0 };
    struct augur_cachesim *sim[3];
    struct augur_cache_access batch[64];
    uint8_t reach[64], general_reach[64];
    unsigned l, t, i, s, nb = 0, reach_differs = 0, deepest = 0;
    bool same = true, varied;
    char label[200];

    cfg.nlevels = g->nlevels;
    for (l = 0; l < g->nlevels; l++) {
        cfg.level[l] = lvl(l == 0   ? "A"
                           : l == 1 ? "B"
                           : l == 2 ? "C"
                                    : "D",
                           g->size[l], g->line[l], g->ways[l]);
        cfg.level[l].shared_by = g->shared[l];
        cfg.level[l].inclusive = g->incl && l > 0;
    }
    cfg.dram.row_bytes = 256;
    cfg.dram.banks = g->banks;
    cfg.dram.policy = g->dram;
    for (s = 0; s < 3; s++)
        sim[s] = make(&cfg, 2, 6);
    snprintf(label, sizeof(label), "%s: the configuration takes the walk", g->name);
    ok(sim[0]->simple_perm && sim[0]->l1_inline, label);
    sim[2]->simple = false; /* sim[2]: the general path; sim[1]: the batch entry point */
    sim[2]->l1_inline = false;
    rng_state = 99991;
    for (i = 0; i < 400000; i++) {
        uint64_t r = rnd(), hi = (r >> 33) % 9 == 0 ? UINT64_C(3) << 40 : 0;
        uint64_t a = hi + (r % 7 < 4 ? (rnd() % 512) * 4 : rnd() % (256 * 1024));
        uint32_t size = r % 13 == 0 ? 24 : r % 29 == 0 ? 0 : 8;
        bool w = r % 5 == 0;
        uint32_t tag = (uint32_t)(rnd() % 7); /* 6 is out of range: counted under 5 */
        unsigned th = (unsigned)((r >> 20) & 1);

        if ((r >> 40) % 97 == 0)
            a |= UINT64_C(1) << 50; /* above 2^48 */
        augur_cachesim_access(sim[0], th, a, size, w, tag);
        batch[nb].addr = a;
        batch[nb].size = size;
        batch[nb].thread = (uint16_t)th;
        batch[nb].is_write = w;
        batch[nb].pad = 0;
        batch[nb].tag = tag;
        /* the general path one access at a time, with the level that served it */
        augur_cachesim_access_batch_reach(sim[2], &batch[nb], 1, &general_reach[nb]);
        if (++nb == 64 || i % 1000 == 999) {
            reach_differs += batch_reach(sim[1], batch, nb, reach, general_reach, &deepest);
            nb = 0;
        }
        if (i % 100000 == 99999) {
            if (nb)
                reach_differs += batch_reach(sim[1], batch, nb, reach, general_reach, &deepest);
            nb = 0;
            for (s = 0; s < 3; s++) {
                if (i == 99999)
                    augur_cachesim_reset_counts(sim[s]);
                else if (i == 199999)
                    augur_cachesim_flush(sim[s]);
                else if (i == 299999)
                    augur_cachesim_invalidate(sim[s]);
            }
        }
    }
    if (nb)
        reach_differs += batch_reach(sim[1], batch, nb, reach, general_reach, &deepest);
    snprintf(label, sizeof(label), "%s: the walk and the general path serve each read alike",
             g->name);
    is_int(reach_differs, 0, label);
    snprintf(label, sizeof(label), "%s: ... some of them from memory", g->name);
    is_int(deepest, g->nlevels, label);
    for (s = 0; s < 3; s++)
        augur_cachesim_flush(sim[s]);
    for (s = 0; s < 2 && same; s++)
        for (l = 0; l <= g->nlevels && same; l++)
            for (t = 0; t < 6; t++) {
                struct augur_cache_counts a = cnt(sim[s], l, (int)t), b = cnt(sim[2], l, (int)t);

                if (memcmp(&a, &b, sizeof(a)) != 0) {
                    diag("%s level %u tag %u: accesses %llu/%llu misses %llu/%llu evictions "
                         "%llu/%llu write-backs %llu/%llu rows %llu/%llu",
                         s ? "batch" : "single", l, t, (unsigned long long)a.accesses,
                         (unsigned long long)b.accesses, (unsigned long long)a.misses,
                         (unsigned long long)b.misses, (unsigned long long)a.evictions,
                         (unsigned long long)b.evictions, (unsigned long long)a.writebacks,
                         (unsigned long long)b.writebacks, (unsigned long long)a.row_hits,
                         (unsigned long long)b.row_hits);
                    same = false;
                    break;
                }
            }
    snprintf(label, sizeof(label), "%s: single calls, batches and the general path count the same",
             g->name);
    ok(same, label);
    snprintf(label, sizeof(label), "%s: ... on a stream that hits and misses at every level",
             g->name);
    varied = cnt(sim[0], g->nlevels, -1).writes > 100;
    for (l = 0; l < g->nlevels; l++)
        varied = varied && cnt(sim[0], l, -1).hits > 1000 && cnt(sim[0], l, -1).misses > 1000;
    ok(varied, label);
    for (s = 0; s < 3; s++)
        augur_cachesim_free(sim[s]);
}

static void test_walk_geometries(void)
{
    static const struct geom g[] = {
        { "lines 32/64/128",
          3,
          { 1024, 8192, 11 * 128 * 12 },
          { 32, 64, 128 },
          { 4, 8, 11 },
          { 1, 1, 2 },
          false,
          AUGUR_DRAM_OPEN_BANK,
          16 },
        { "direct-mapped L1",
          3,
          { 2048, 8192, 65536 },
          { 64, 64, 64 },
          { 1, 4, 16 },
          { 1, 2, 2 },
          false,
          AUGUR_DRAM_OPEN_BANK,
          5 },
        { "16-way L1, 2 levels",
          2,
          { 16 * 64 * 4, 12 * 64 * 24 },
          { 64, 64 },
          { 16, 12 },
          { 1, 2 },
          false,
          AUGUR_DRAM_LRU,
          8 },
        { "4 levels, inclusive",
          4,
          { 1024, 4096, 3 * 64 * 40, 16 * 64 * 64 },
          { 64, 64, 64, 64 },
          { 2, 4, 3, 16 },
          { 1, 1, 2, 2 },
          true,
          AUGUR_DRAM_OPEN_BANK,
          1 },
        { "one level", 1, { 6 * 64 * 16 }, { 64 }, { 6 }, { 1 }, false, AUGUR_DRAM_LRU, 3 },
    };
    size_t i;

    for (i = 0; i < sizeof(g) / sizeof(g[0]); i++)
        paths_agree(&g[i]);
}

/* The walk's set index (a multiply-shift remainder for 32-bit line addresses) equals la % sets. */
static void test_set_index(void)
{
    static const uint32_t sets[] = { 3, 12, 1000, 53248 };
    size_t i, j;

    for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
        struct augur_cache_config cfg = { 0 };
        struct augur_cachesim *sim;
        bool same = true;
        char label[120];

        cfg.nlevels = 1;
        cfg.level[0] = lvl("L", (uint64_t)sets[i] * 11 * 64, 64, 11);
        sim = make(&cfg, 1, 1);
        for (j = 0; j < 200000 && same; j++) {
            uint64_t la = j < 1000 ? UINT32_MAX - j : rnd() >> (18 + j % 40);

            if (cs_fset(&sim->fl[0], la) != la % sets[i]) {
                diag("%u sets: line %llu gives set %llu", sets[i], (unsigned long long)la,
                     (unsigned long long)cs_fset(&sim->fl[0], la));
                same = false;
            }
        }
        snprintf(label, sizeof(label), "%u sets: the walk's set index is the remainder", sets[i]);
        ok(same, label);
        augur_cachesim_free(sim);
    }
    {
        /* set counts too large to allocate here, with the magic as cs_config.c makes it */
        static const uint64_t big[] = { 3000000019u, (UINT64_C(1) << 31) + 11, 40000001 };
        static const unsigned bits[] = { 32, 32, 26 };

        for (i = 0; i < 3; i++) {
            struct cs_flevel F;
            bool same = true;

            memset(&F, 0, sizeof(F));
            F.nsets = big[i];
            F.magic = UINT64_MAX / big[i] + 1;
            F.fastbits = 64 - bits[i];
            for (j = 0; j < 200000 && same; j++) {
                uint64_t la = rnd() >> (18 + j % 40);

                same = cs_fset(&F, la) == la % big[i];
            }
            ok(same, "a remainder by a large set count is exact below 2^46");
        }
    }
}

/*
 * An independent model of a non-inclusive, write-back, write-allocate
 * hierarchy (per set, timestamps; a dirty victim's data goes into the first
 * level below that holds its line, else to memory), against the simulator
 * on random streams: misses, evictions, write-backs per level and memory
 * reads and writes.
 */
struct mlref {
    unsigned n;
    struct ref lv[3];
    uint64_t acc[3], mem_rd, mem_wr;
};

/* The way of level r holding line la, or -1. */
static int mlref_find(struct ref *r, uint64_t la)
{
    uint64_t set = la % r->nsets, k;

    for (k = 0; k < r->ways; k++)
        if (r->ts[set * r->ways + k] && r->tag[set * r->ways + k] == la)
            return (int)(set * r->ways + k);
    return -1;
}

static void mlref_down(struct mlref *m, unsigned l, uint64_t addr)
{
    for (; l < m->n; l++) {
        int k = mlref_find(&m->lv[l], addr / m->lv[l].line);

        if (k >= 0) {
            m->lv[l].dirty[k] = 1;
            return;
        }
    }
    m->mem_wr++;
}

static void mlref_access(struct mlref *m, uint64_t addr, bool w)
{
    unsigned l, f;

    for (l = 0; l < m->n; l++) {
        struct ref *r = &m->lv[l];
        int k = mlref_find(r, addr / r->line);

        m->acc[l]++;
        r->now++;
        if (k >= 0) {
            r->ts[k] = r->now;
            if (l == 0)
                r->dirty[k] |= w;
            break;
        }
        r->miss++;
    }
    if (l == m->n)
        m->mem_rd++;
    for (f = l; f-- > 0;) { /* fill the levels that missed, deepest first */
        struct ref *r = &m->lv[f];
        uint64_t la = addr / r->line, set = la % r->nsets, k, v = set * r->ways;

        for (k = set * r->ways; k < (set + 1) * r->ways; k++) {
            if (!r->ts[k]) {
                v = k;
                break;
            }
            if (r->ts[k] < r->ts[v])
                v = k;
        }
        if (r->ts[v]) {
            r->evict++;
            if (r->dirty[v]) {
                r->wb++;
                mlref_down(m, f + 1, r->tag[v] * r->line);
            }
        }
        r->tag[v] = la;
        r->ts[v] = ++r->now;
        r->dirty[v] = w && f == 0;
    }
}

static void against_ml_reference(unsigned n, const uint64_t *size, const uint32_t *line,
                                 const uint32_t *ways, const char *name)
{
    struct augur_cache_config cfg = { 0 };
    struct augur_cachesim *sim;
    struct mlref m;
    unsigned l, i;
    bool same = true;
    char label[160];

    memset(&m, 0, sizeof(m));
    m.n = n;
    cfg.nlevels = n;
    for (l = 0; l < n; l++) {
        cfg.level[l] = lvl("X", size[l], line[l], ways[l]);
        ref_init(&m.lv[l], size[l], line[l], ways[l]);
    }
    sim = make(&cfg, 1, 1);
    rng_state = 4242;
    for (i = 0; i < 300000; i++) {
        uint64_t r = rnd();
        uint64_t a = (r % 3 ? rnd() % (2 * size[0]) : rnd() % (3 * size[n - 1])) & ~(uint64_t)7;
        bool w = (r >> 32) % 4 == 0;

        augur_cachesim_access(sim, 0, a, 8, w, 0);
        mlref_access(&m, a, w);
    }
    for (l = 0; l < n; l++) {
        struct augur_cache_counts c = cnt(sim, l, -1);

        if (c.accesses != m.acc[l] || c.misses != m.lv[l].miss || c.evictions != m.lv[l].evict ||
            c.writebacks != m.lv[l].wb) {
            diag("level %u: accesses %llu/%llu misses %llu/%llu evictions %llu/%llu write-backs "
                 "%llu/%llu",
                 l, (unsigned long long)c.accesses, (unsigned long long)m.acc[l],
                 (unsigned long long)c.misses, (unsigned long long)m.lv[l].miss,
                 (unsigned long long)c.evictions, (unsigned long long)m.lv[l].evict,
                 (unsigned long long)c.writebacks, (unsigned long long)m.lv[l].wb);
            same = false;
        }
    }
    {
        struct augur_cache_counts c = cnt(sim, n, -1);

        if (c.reads != m.mem_rd || c.writes != m.mem_wr) {
            diag("memory: reads %llu/%llu writes %llu/%llu", (unsigned long long)c.reads,
                 (unsigned long long)m.mem_rd, (unsigned long long)c.writes,
                 (unsigned long long)m.mem_wr);
            same = false;
        }
    }
    snprintf(label, sizeof(label), "%s: every level counts as the independent model", name);
    ok(same, label);
    snprintf(label, sizeof(label), "%s: ... with misses and write-backs at the last level", name);
    ok(m.lv[n - 1].miss > 1000 && m.lv[n - 1].wb > 100, label);
    for (l = 0; l < n; l++)
        ref_free(&m.lv[l]);
    augur_cachesim_free(sim);
}

static void test_ml_reference(void)
{
    static const uint64_t s3[] = { 2048, 16384, 11 * 64 * 48 }, s2[] = { 1024, 12 * 128 * 8 };
    static const uint32_t l3[] = { 64, 64, 64 }, w3[] = { 8, 16, 11 }, l2[] = { 32, 128 },
                          w2[] = { 2, 12 };

    against_ml_reference(3, s3, l3, w3, "L1 8-way, L2 16-way, L3 11-way (48 sets)");
    against_ml_reference(2, s2, l2, w2, "2-way 32-byte L1, 12-way 128-byte L2 (8 sets)");
}

/* ---- bad configurations -------------------------------------------------- */

static void bad_cfg(const struct augur_cache_config *cfg, unsigned nthreads, int code,
                    const char *piece, const char *name)
{
    struct augur_cachesim *sim = NULL;
    struct augur_diag d;

    augur_diag_init(&d);
    if (!is_int(augur_cachesim_new(cfg, nthreads, 1, &sim, &d), code, name))
        augur_cachesim_free(sim);
    if (!ok(strstr(d.msg, piece) != NULL, "... with a clear message"))
        diag("message: %s", d.msg);
}

static void test_bad_configs(void)
{
    struct augur_cache_config cfg = { 0 };

    bad_cfg(&cfg, 1, AUGUR_EINVAL, "0 levels", "no levels");
    cfg.nlevels = 1;
    cfg.level[0] = lvl("L1", 2ull << 40, 64, 8);
    bad_cfg(&cfg, 1, AUGUR_EINVAL, "absurd (more than 1 TiB)", "a 2 TiB cache");
    cfg.level[0] = lvl("L1", 4096, 64, 0);
    cfg.level[0].prefetch = AUGUR_CACHE_PREFETCH_STRIDE;
    cfg.level[0].stride_entries = 48;
    bad_cfg(&cfg, 1, AUGUR_EINVAL, "not a power of two", "a stride prefetcher of 48 entries");
    cfg.level[0] = lvl("L1", 32768, 48, 8);
    bad_cfg(&cfg, 1, AUGUR_EINVAL, "line size 48 is not a power of two", "48-byte lines");
    cfg.level[0] = lvl("L1", 32768, 2, 8);
    bad_cfg(&cfg, 1, AUGUR_EINVAL, "line size 2", "2-byte lines");
    cfg.level[0] = lvl("L1", 1000, 64, 1);
    bad_cfg(&cfg, 1, AUGUR_EINVAL, "not a whole number of 64-byte lines", "partial lines");
    cfg.level[0] = lvl("L1", 32768, 64, 7);
    bad_cfg(&cfg, 1, AUGUR_EINVAL, "7 ways do not divide its 512 lines", "ways do not divide");
    cfg.level[0] = lvl("L1", 0, 64, 1);
    bad_cfg(&cfg, 1, AUGUR_EINVAL, "size is 0", "empty cache");
    cfg.level[0] = lvl("L1", 32768, 128, 4);
    cfg.level[0].sector = 24;
    bad_cfg(&cfg, 1, AUGUR_EINVAL, "sector 24", "24-byte sectors");
    cfg.level[0].sector = 8;
    bad_cfg(&cfg, 1, AUGUR_EINVAL, "at most 8 sectors", "16 sectors per line");
    cfg.level[0] = lvl("L1", 512ull << 30, 64, 16);
    bad_cfg(&cfg, 1, AUGUR_ELIMIT, "host memory", "a 512 GiB cache exceeds host memory");
    cfg.nlevels = 2;
    cfg.level[0] = lvl("L1", 32768, 64, 8);
    cfg.level[0].shared_by = 2;
    cfg.level[1] = lvl("L2", 1 << 20, 64, 16);
    cfg.level[1].shared_by = 3;
    bad_cfg(&cfg, 4, AUGUR_EINVAL, "not a multiple of the level above", "sharing does not nest");
    cfg.level[1].shared_by = 4;
    bad_cfg(&cfg, 0, AUGUR_EINVAL, "0 threads", "no threads");
    cfg.dram.row_bytes = 100;
    cfg.dram.banks = 4;
    bad_cfg(&cfg, 4, AUGUR_EINVAL, "row buffer of 100 bytes", "row buffer not a power of two");
    cfg.dram.row_bytes = 256;
    cfg.dram.banks = 0;
    bad_cfg(&cfg, 4, AUGUR_EINVAL, "0 banks", "no banks");
}

/* ---- from machine files ------------------------------------------------- */

static struct augur_machine *machine(const char *file)
{
    const char *src = getenv("AUGUR_SOURCE_DIR");
    char path[1024];
    struct augur_machine *m = NULL;
    struct augur_diag d;

    snprintf(path, sizeof(path), "%s/samples/machines/%s", src ? src : ".", file);
    if (augur_machine_load(path, &m, &d)) {
        printf("# %s: %s\n", path, d.msg);
        return NULL;
    }
    return m;
}

static void test_from_machine(void)
{
    struct augur_machine *m;
    struct augur_cache_config cfg;
    struct augur_cachesim *sim = NULL;
    struct augur_diag d;
    uint64_t i;

    m = machine("dev-xeon-2vcpu.yml");
    if (!ok(m != NULL, "dev machine loads"))
        return;
    is_int(augur_cache_config_from_machine(m, 2, &cfg, &d), 0, "dev machine: config for 2 threads");
    is_int(cfg.nlevels, 3, "dev: 3 levels");
    is_int(cfg.level[2].ways, 11, "dev: L3 11-way");
    is_int(cfg.level[2].shared_by, 2, "dev: L3 shared by both threads");
    is_int(cfg.level[0].shared_by, 1, "dev: private L1");
    is_int(cfg.dram.row_bytes, 256, "dev: default 256-byte DRAM blocks (Pai et al. AGP'17 §6.4)");
    is_int(augur_cache_config_from_machine(m, 3, &cfg, &d), AUGUR_ERANGE,
           "dev: 3 threads on 2 cores is refused");
    ok(strstr(d.msg, "runs at most 2") != NULL, "... saying why");
    augur_cache_config_from_machine(m, 2, &cfg, NULL);
    if (is_int(augur_cachesim_new(&cfg, 2, 1, &sim, &d), 0, "dev: the simulator builds")) {
        /*
         * A 64 MiB sequential read per thread: every line misses everywhere.
         * Thread 1's region starts 8 blocks further, in other DRAM banks than
         * thread 0's, so the interleaved streams do not close each other's rows.
         */
        for (i = 0; i < (64u << 20); i += 64) {
            augur_cachesim_access(sim, 0, i, 8, false, 0);
            augur_cachesim_access(sim, 1, (1ull << 32) + 8 * 256 + i, 8, false, 0);
        }
        is_int(cnt(sim, 2, -1).misses, 2 * (64u << 20) / 64, "dev: cold L3 misses every line");
        is_int(cnt(sim, 3, -1).row_hits, 2 * (64u << 20) / 64 * 3 / 4,
               "dev: sequential lines hit the open row 3 times in 4");
    }
    augur_cachesim_free(sim);
    augur_machine_free(m);

    m = machine("sandy-bridge-e5-2670.yml");
    if (m) {
        is_int(augur_cache_config_from_machine(m, 16, &cfg, &d), 0, "snb: 16 threads");
        is_int(cfg.level[2].shared_by, 8, "snb: an L3 per 8 threads");
        is_int(cfg.level[0].ways, 0, "snb: unknown associativity simulated fully associative");
        ok(cfg.coherent, "snb: a CPU's caches are coherent");
        sim = NULL;
        is_int(augur_cachesim_new(&cfg, 16, 1, &sim, &d), 0, "snb: simulator builds");
        augur_cachesim_free(sim);
    }
    augur_machine_free(m);

    /* the seeds' machines, completed from the vendors' documents */
    m = machine("westmere-xeon.yml");
    if (m) {
        is_int(augur_cache_config_from_machine(m, 40, &cfg, &d), 0, "westmere: 40 threads");
        is_int(cfg.level[2].shared_by, 10, "westmere: an L3 per 10 cores");
        is_int(cfg.level[0].ways, 8, "westmere: L1 8-way");
        is_int(cfg.level[2].ways, 0, "westmere: L3 associativity unknown, fully associative");
    }
    augur_machine_free(m);

    m = machine("knl-7250.yml");
    if (m) {
        is_int(augur_cache_config_from_machine(m, 68, &cfg, &d), 0, "knl: 68 threads");
        is_int(cfg.level[1].shared_by, 2, "knl: an L2 per two-core tile");
        is_int(cfg.level[1].ways, 16, "knl: L2 16-way");
    }
    augur_machine_free(m);

    m = machine("tesla-k40c.yml");
    if (m) {
        is_int(augur_cache_config_from_machine(m, 15, &cfg, &d), 0, "k40c: 15 SMs");
        is_int(cfg.nlevels, 1, "k40c: the L2 alone, as Pai et al. AGP'17 simulate it");
        is_int(augur_cache_config_from_machine(m, 16, &cfg, &d), AUGUR_ERANGE,
               "k40c: 16 SMs refused");
    }
    augur_machine_free(m);

    /* a level without a line size, a GPU without a cache: nothing to simulate */
    {
        static const char no_line[] = "name: t\nkind: cpu\ncores: 1\n"
                                      "caches:\n  - {name: L1, size: 32 KiB}\n";
        static const char no_cache[] = "name: g\nkind: gpu\ngpu: {sms: 2}\n";

        m = NULL;
        if (is_int(augur_machine_parse(no_line, strlen(no_line), "t.yml", &m, &d), 0,
                   "a cache without a line size loads")) {
            is_int(augur_cache_config_from_machine(m, 1, &cfg, &d), AUGUR_EMODEL,
                   "no line size, no simulation");
            ok(strstr(d.msg, "gives no line size") != NULL && d.line > 0, "... naming the level");
        }
        augur_machine_free(m);
        m = NULL;
        if (is_int(augur_machine_parse(no_cache, strlen(no_cache), "g.yml", &m, &d), 0,
                   "a GPU without caches loads"))
            is_int(augur_cache_config_from_machine(m, 1, &cfg, &d), AUGUR_EMODEL,
                   "no cache levels, no simulation");
        augur_machine_free(m);
    }

    m = machine("h100-sxm.yml");
    if (m) {
        is_int(augur_cache_config_from_machine(m, 132, &cfg, &d), 0, "h100: 132 SMs");
        is_int(cfg.level[0].sector, 32, "h100: sectored L2");
        is_int(cfg.dram.policy, AUGUR_DRAM_LRU, "h100: LRU row buffers as Pai et al. AGP'17");
        ok(!cfg.coherent, "h100: the SMs' L1s are not kept coherent");
        sim = NULL;
        is_int(augur_cachesim_new(&cfg, 132, 1, &sim, &d), 0, "h100: simulator builds");
        augur_cachesim_free(sim);
        is_int(augur_cache_config_from_machine(m, 133, &cfg, &d), AUGUR_ERANGE,
               "h100: 133 SMs refused");
    }
    augur_machine_free(m);
}

int main(void)
{
    test_replacement();
    test_direct_mapped();
    test_two_way_lru();
    test_holds();
    test_fully_associative();
    test_write_back();
    test_write_through();
    test_inclusion();
    test_sectors();
    test_row_buffers();
    test_prefetch();
    test_shared_and_tags();
    test_coherence();
    test_reference();
    test_fast_paths();
    test_walk_geometries();
    test_set_index();
    test_ml_reference();
    test_bad_configs();
    test_from_machine();
    return tap_done();
}
