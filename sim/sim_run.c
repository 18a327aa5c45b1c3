/*
 * sim_run.c - the interpreter feeding the cache simulator: events
 * to cache accesses (vector lanes coalesced, __shared__ left out), counts
 * per level gathered per source line, array and access (module: sim).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#    include <omp.h>
#endif

#include "augur/cachesim.h"
#include "augur/interp.h"
#include "augur/sim.h"

/* one simulator thread per interpreter thread; a level per cache level and memory */
_Static_assert(AUGUR_INTERP_MAX_THREADS <= AUGUR_CACHESIM_MAX_THREADS, "threads fit the caches");
_Static_assert(AUGUR_WORK_MAX_LEVELS >= AUGUR_CACHESIM_MAX_LEVELS + 1, "levels fit a workload");

/*
 * A request is near when its line lies within stream_reach lines of a
 * stream the thread's prefetcher follows: a stream prefetcher follows steps
 * of a line or two, and keeps a table of the streams touched last (the
 * machine's core.prefetch_streams). A far request opens a stream in place
 * of the oldest. The prefetcher sees the requests the L1 misses, as a
 * core's L2 streamer does: an access whose line the L1 holds is near and
 * moves no stream. So a gather that comes back to a few regions (a road
 * graph's far neighbours, numbered in runs) is followed, and so is one
 * through a band whose new lines come in order (a matrix renumbered by
 * RCM), while one at random, or beside more column streams than the table
 * holds, is not.
 */
#define NO_STREAM (UINT64_MAX / 2) /* far from every line of a 64-bit address space */
#define HELD_MEMO 64               /* tag_of()'s answers remembered per batch, a power of two */

/*
 * CUDA: a warp runs its lanes in step (SIMT), so the k-th time its lanes
 * run one access is one instruction, whichever step of the interpreter's
 * round robin each lane reached it in (a lane that left a loop early waits
 * at its end for the others, and their stores after it are one
 * instruction). The memory system sees one request per line the
 * instruction touches, for the sectors it needs (Pai et al. AGP'17 §6.4: "the
 * number of distinct 32-byte cache lines per warp for a load
 * instruction"). The interpreter runs blocks one after another, so a
 * block's instructions are gathered and sent when the next block starts.
 */
struct warp_instr {
    struct augur_event first; /* the first lane's event: SM, access, direction */
    uint32_t lanes;           /* the lanes that ran it (SIMT efficiency: lanes / 32) */
};

struct instr_grain {
    uint32_t instr;
    uint64_t grain;
};

struct occ_list { /* instruction ids of one warp's access, by occurrence */
    uint32_t *id;
    uint32_t n, cap;
};

#define PENDING_WARPS 32 /* a block has at most 1024 threads */
#define PENDING_LINES 64 /* 32 lanes, each access across at most two lines */

/* The lines one warp's last load fetched from beyond L1, and the level that served each. */
struct pending {
    uint64_t line[PENDING_LINES];
    uint8_t level[PENDING_LINES];
    uint32_t n;
};

struct cuda_block {
    uint64_t block, run; /* the block being gathered, of which run (UINT64_MAX: none) */
    uint32_t wpb;        /* warps per block */
    uint32_t nslots;     /* accesses x 2 directions */
    uint32_t *occ;       /* per thread of the block and slot: executions so far */
    size_t nocc;
    struct occ_list *lists; /* per warp of the block and slot */
    size_t nlists;
    struct warp_instr *instr;
    uint32_t ninstr, capinstr;
    struct instr_grain *grains;
    size_t ngrains, capgrains;
    bool failed;                        /* out of memory: the run's CUDA counts are incomplete */
    struct pending pend[PENDING_WARPS]; /* per warp of the block */
};

struct simsub {
    struct augur_cachesim *sim;
    const struct augur_interp *in;
    const int32_t *acc_map; /* node id - kernel_id to access number */
    uint32_t kernel_id;
    bool cuda;
    uint32_t grain; /* CUDA: coalescing unit, the first level's sector (or line) in bytes */
    uint32_t line;  /* CUDA: the first level's line in bytes */
    uint64_t jobs;  /* CUDA: warp memory instructions */
    uint64_t lanes; /* CUDA: of them, the active lanes summed */
    uint64_t *acc_jobs, *acc_lanes; /* CUDA: the same per access number (NULL: not kept) */
    uint64_t loads;                 /* CUDA: of them, loads (Pai et al. AGP'17 §6.3's jobs) */
    uint32_t *warp_jobs;            /* CUDA: loads per global warp id, nwarp_jobs of them */
    size_t nwarp_jobs;
    bool no_memory;
    struct cuda_block cb;
    unsigned nl1;         /* CUDA: the private write-through levels nearest the SMs */
    uint64_t last_run;    /* CUDA: the run (launch) whose events came last */
    uint32_t *run_jobs;   /* CUDA: loads per global warp id in the current run */
    uint64_t run_max_sum; /* CUDA: over the runs closed, each one's busiest warp's loads */
    /* CUDA: loads by the deepest level one of their requests reached (the warp waits for it) */
    uint64_t load_reach[AUGUR_CACHESIM_MAX_LEVELS + 1];
    uint32_t *warp_reach, *run_reach; /* the same per global warp id, NREACH each */
    uint64_t run_max_reach[AUGUR_CACHESIM_MAX_LEVELS + 1]; /* over the runs, the busiest warp's */
    /*
     * Each access counts under two tags, 2a for requests near a stream of
     * the thread and 2a + 1 for far ones; streams holds each thread's
     * nstreams streams, their last line (NO_STREAM: none), the most recent
     * first. NULL: one tag.
     */
    uint64_t *streams;
    uint32_t nstreams, stream_reach,
        line_shift; /* the prefetcher's streams, their reach, log2 line */
    /*
     * tag_of()'s answers to "does the thread's L1 hold this line?" for the
     * batch being tagged: the L1 does not change until the batch is sent,
     * so a line asked again gets the answer it got (line + 1; 0: none).
     */
    uint64_t held_line[HELD_MEMO];
    uint32_t held_thread[HELD_MEMO];
    bool held_ans[HELD_MEMO];
    unsigned naccesses;
    /*
     * The miss epochs (augur_sim_profile.miss_epochs), when counted: per
     * access number whether it is indirect, per thread its accesses so
     * far, and per thread, level and window where its open epoch ends.
     */
    bool *indirect;
    uint64_t *pos, *epoch_end;
    unsigned nlevels;
    uint64_t miss_reads[AUGUR_CACHESIM_MAX_LEVELS + 1];
    uint64_t miss_epochs[AUGUR_CACHESIM_MAX_LEVELS + 1][AUGUR_WORK_NWINDOWS];
    uint8_t reach[AUGUR_INTERP_EVENT_BATCH + 1];
    /* the last access, held back while the next lane of its vector may follow */
    bool held;
    struct augur_event last;
    struct augur_cache_access buf[AUGUR_INTERP_EVENT_BATCH + 1];
};

/* True when e is the next lane of the vector access that ended with prev. */
static bool next_lane(const struct augur_event *prev, const struct augur_cache_access *acc,
                      const struct augur_event *e)
{
    return (e->flags & AUGUR_EV_SIMD) && e->lane > prev->lane && prev->node == e->node &&
           prev->thread == e->thread && acc->addr + acc->size == e->addr &&
           acc->is_write == ((e->flags & AUGUR_EV_WRITE) != 0);
}

/* Whether the L1 of e's thread held addr's line when the batch being tagged began. */
static bool l1_held(struct simsub *s, const struct augur_event *e, uint64_t addr)
{
    uint64_t line = addr >> s->line_shift;
    unsigned k = (unsigned)((line ^ e->thread * UINT64_C(0x9E3779B1)) & (HELD_MEMO - 1));

    if (s->held_line[k] != line + 1 || s->held_thread[k] != e->thread) {
        s->held_line[k] = line + 1;
        s->held_thread[k] = e->thread;
        s->held_ans[k] = augur_cachesim_holds(s->sim, e->thread, 0, addr);
    }
    return s->held_ans[k];
}

/* The tag of an access of e: its access number, near or far when split. */
static uint32_t tag_of(struct simsub *s, const struct augur_event *e, uint64_t addr)
{
    uint32_t tag = (uint32_t)s->acc_map[e->node - s->kernel_id];

    /* CPU: an L1 hit is no request (the batch's earlier accesses are not in yet) */
    if (s->streams && !s->cuda && l1_held(s, e, addr))
        return 2 * tag;
    if (s->streams) {
        const uint32_t ns = s->nstreams;
        const uint64_t reach = s->stream_reach;
        uint64_t *h = &s->streams[(size_t)e->thread * ns], line = addr >> s->line_shift;
        unsigned j = 0;
        bool far;

        /* |line - h[j]| <= reach, in unsigned arithmetic */
        while (j < ns && line - h[j] + reach > 2 * reach)
            j++;
        far = j == ns;
        tag = 2 * tag + far;
        /* the stream (or a new one, in place of the oldest) becomes the most recent */
        for (j -= far; j > 0; j--)
            h[j] = h[j - 1];
        h[0] = line;
    }
    return tag;
}

#define NREACH (AUGUR_CACHESIM_MAX_LEVELS + 1) /* deepest levels a load can reach */

/* Grows the per-warp tables to hold warp w; false when out of memory (the tables stay whole). */
static bool grow_warps(struct simsub *s, uint32_t w)
{
    size_t n = s->nwarp_jobs ? s->nwarp_jobs : 1024, old = s->nwarp_jobs;
    uint32_t **tab[] = { &s->warp_jobs, &s->run_jobs, &s->warp_reach, &s->run_reach };

    while (n <= w)
        n *= 2;
    for (int i = 0; i < 4; i++) {
        size_t per = i < 2 ? 1 : NREACH;
        uint32_t *t = augur_reallocarray(*tab[i], n * per, sizeof(*t));

        if (!t)
            return false;
        *tab[i] = t;
        memset(t + old * per, 0, (n - old) * per * sizeof(*t));
    }
    s->nwarp_jobs = n;
    return true;
}

/* Counts one instruction of warp w; loads per warp too, growing the per-warp tables as warps
 * appear. */
static void count_job(struct simsub *s, uint32_t w, bool write)
{
    s->jobs++;
    if (write)
        return;
    s->loads++;
    if (w >= s->nwarp_jobs && !s->no_memory && !grow_warps(s, w))
        s->no_memory = true;
    if (w < s->nwarp_jobs) {
        s->warp_jobs[w]++;
        s->run_jobs[w]++;
    }
}

/* Counts a load of warp w by the deepest level its requests reached. */
static void count_reach(struct simsub *s, uint32_t w, uint8_t deepest)
{
    s->load_reach[deepest]++;
    if (w < s->nwarp_jobs) {
        s->warp_reach[(size_t)w * NREACH + deepest]++;
        s->run_reach[(size_t)w * NREACH + deepest]++;
    }
}

/* Ends a run's count: its busiest warp's loads join the sum, a level-synchronous search's bound. */
static void close_run(struct simsub *s)
{
    uint32_t most = 0;
    size_t busiest = 0;

    for (size_t w = 0; w < s->nwarp_jobs; w++)
        if (s->run_jobs[w] > most) {
            most = s->run_jobs[w];
            busiest = w;
        }
    s->run_max_sum += most;
    if (most)
        for (unsigned l = 0; l < NREACH; l++)
            s->run_max_reach[l] += s->run_reach[busiest * NREACH + l];
    if (s->run_jobs) {
        memset(s->run_jobs, 0, s->nwarp_jobs * sizeof(*s->run_jobs));
        memset(s->run_reach, 0, s->nwarp_jobs * NREACH * sizeof(*s->run_reach));
    }
}

static int cmp_grain(const void *a, const void *b)
{
    const struct instr_grain *x = a, *y = b;

    if (x->instr != y->instr)
        return x->instr < y->instr ? -1 : 1;
    return x->grain < y->grain ? -1 : x->grain > y->grain;
}

/*
 * The level a load's request to line waits for: where the cache served it,
 * or, for an L1 hit on a line the warp's previous load is still fetching
 * (row_start[v] and row_start[v + 1] go out together), that fetch's level.
 */
static uint8_t wait_level(const struct pending *p, uint64_t line, uint8_t served)
{
    if (served == 0 && p)
        for (uint32_t j = 0; j < p->n; j++)
            if (p->line[j] == line)
                return p->level[j];
    return served;
}

/* Sends the gathered block: each instruction's distinct grains, one request per run in a line. */
static void flush_block(struct simsub *s)
{
    struct cuda_block *cb = &s->cb;
    size_t k = 0;

    qsort(cb->grains, cb->ngrains, sizeof(*cb->grains), cmp_grain);
    for (uint32_t w = 0; w < PENDING_WARPS; w++)
        cb->pend[w].n = 0;
    for (uint32_t i = 0; i < cb->ninstr; i++) {
        const struct augur_event *e = &cb->instr[i].first;
        bool write = (e->flags & AUGUR_EV_WRITE) != 0;
        uint32_t wib = e->warp % cb->wpb;
        struct pending *pw = wib < PENDING_WARPS ? &cb->pend[wib] : NULL, now;
        uint8_t deepest = 0;

        now.n = 0;
        count_job(s, e->warp, write);
        s->lanes += cb->instr[i].lanes;
        if (s->acc_jobs) {
            int32_t acc = s->acc_map[e->node - s->kernel_id];

            s->acc_jobs[acc]++;
            s->acc_lanes[acc] += cb->instr[i].lanes;
        }
        while (k < cb->ngrains && cb->grains[k].instr == i) {
            uint64_t first = cb->grains[k].grain, last = first;
            struct augur_cache_access a;

            while (++k < cb->ngrains && cb->grains[k].instr == i &&
                   (cb->grains[k].grain == last ||
                    (cb->grains[k].grain == last + 1 &&
                     cb->grains[k].grain * s->grain / s->line == first * s->grain / s->line)))
                last = cb->grains[k].grain;
            a.addr = first * s->grain;
            a.size = (uint32_t)((last - first + 1) * s->grain);
            a.thread = e->thread;
            a.is_write = write;
            a.pad = 0;
            a.tag = tag_of(s, e, a.addr);
            if (write) {
                augur_cachesim_access_batch(s->sim, &a, 1);
            } else {
                uint8_t r;
                uint64_t line = a.addr / s->line;

                augur_cachesim_access_batch_reach(s->sim, &a, 1, &r);
                if (r > 0 && now.n < PENDING_LINES) {
                    now.line[now.n] = line;
                    now.level[now.n++] = r;
                }
                r = wait_level(pw, line, r);
                deepest = r > deepest ? r : deepest;
            }
        }
        if (!write) {
            count_reach(s, e->warp, deepest);
            if (pw) {
                memcpy(pw->line, now.line, now.n * sizeof(*now.line));
                memcpy(pw->level, now.level, now.n * sizeof(*now.level));
                pw->n = now.n;
            }
        }
    }
    cb->ninstr = 0;
    cb->ngrains = 0;
    for (size_t i = 0; i < cb->nlists; i++)
        cb->lists[i].n = 0;
    if (cb->occ)
        memset(cb->occ, 0, cb->nocc * sizeof(*cb->occ));
    cb->block = cb->run = UINT64_MAX;
}

/* Grows *p (n elements of size) to hold at least need; false when out of memory. */
static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
    size_t n = *cap ? *cap : 64;
    void *q;

    if (need <= *cap)
        return true;
    while (n < need)
        n *= 2;
    if (!(q = augur_reallocarray(*p, n, size)))
        return false;
    *p = q;
    *cap = n;
    return true;
}

/* Starts gathering the block of e: tables sized for the launch's block. */
static bool start_block(struct simsub *s, const struct augur_event *e, uint64_t run)
{
    struct cuda_block *cb = &s->cb;
    uint64_t threads = augur_interp_stats(s->in)->block ? augur_interp_stats(s->in)->block : 1;
    uint32_t wpb = (uint32_t)((threads + 31) / 32), nslots = 2 * (s->naccesses ? s->naccesses : 1);
    size_t nocc = (size_t)wpb * 32 * nslots, nlists = (size_t)wpb * nslots;

    if (cb->wpb != wpb || cb->nslots != nslots) {
        for (size_t i = 0; i < cb->nlists; i++)
            augur_free(cb->lists[i].id);
        augur_free(cb->lists);
        augur_free(cb->occ);
        cb->occ = augur_calloc(nocc, sizeof(*cb->occ));
        cb->lists = augur_calloc(nlists, sizeof(*cb->lists));
        cb->nocc = cb->occ ? nocc : 0;
        cb->nlists = cb->lists ? nlists : 0;
        cb->wpb = wpb;
        cb->nslots = nslots;
        if (!cb->occ || !cb->lists)
            return false;
    }
    cb->block = e->warp / wpb;
    cb->run = run;
    return true;
}

/* Adds one lane's event to its warp instruction. */
static bool gather_event(struct simsub *s, const struct augur_event *e)
{
    struct cuda_block *cb = &s->cb;
    uint32_t wib = e->warp % cb->wpb, tib = wib * 32 + e->lane;
    uint32_t slot =
        2 * (uint32_t)s->acc_map[e->node - s->kernel_id] + ((e->flags & AUGUR_EV_WRITE) != 0);
    uint32_t occ = cb->occ[(size_t)tib * cb->nslots + slot]++;
    struct occ_list *l = &cb->lists[(size_t)wib * cb->nslots + slot];
    uint64_t lo = e->addr / s->grain, hi = (e->addr + e->size - 1) / s->grain;
    uint32_t id;

    if (occ >= l->n) {
        size_t cap = l->cap, capi = cb->capinstr;

        /* the warp's first lane to get this far: a new instruction */
        if (!grow((void **)&l->id, &cap, (size_t)l->n + 1, sizeof(*l->id)) ||
            !grow((void **)&cb->instr, &capi, (size_t)cb->ninstr + 1, sizeof(*cb->instr)))
            return false;
        l->cap = (uint32_t)cap;
        cb->capinstr = (uint32_t)capi;
        cb->instr[cb->ninstr].first = *e;
        cb->instr[cb->ninstr].lanes = 0;
        l->id[l->n++] = cb->ninstr++;
        occ = l->n - 1;
    }
    id = l->id[occ];
    cb->instr[id].lanes++;
    if (!grow((void **)&cb->grains, &cb->capgrains, cb->ngrains + 2, sizeof(*cb->grains)))
        return false;
    for (uint64_t g = lo; g <= hi && g <= lo + 1; g++) /* CUDA accesses: at most 16 bytes */
        cb->grains[cb->ngrains++] = (struct instr_grain){ id, g };
    return true;
}

/* CUDA: events to warp instructions, a block at a time. */
static void on_cuda_events(void *ud, const struct augur_event *ev, size_t n)
{
    struct simsub *s = ud;
    struct cuda_block *cb = &s->cb;
    uint64_t run = augur_interp_stats(s->in)->runs;

    for (size_t i = 0; i < n; i++) {
        const struct augur_event *e = &ev[i];

        if ((e->flags & AUGUR_EV_LOCAL) || cb->failed)
            continue; /* on-chip shared memory: no cache */
        if (cb->run != run || cb->wpb == 0 || e->warp / cb->wpb != cb->block) {
            if (cb->run != UINT64_MAX)
                flush_block(s);
            if (run != s->last_run) {
                if (s->last_run != UINT64_MAX)
                    close_run(s);
                /* a launch starts with the SMs' write-through L1s emptied: nothing keeps them
                 * coherent across launches, and the blocks land on other SMs */
                for (unsigned l = 0; l < s->nl1; l++)
                    augur_cachesim_invalidate_level(s->sim, l);
                s->last_run = run;
            }
            if (!start_block(s, e, run)) {
                cb->failed = true;
                continue;
            }
        }
        if (!gather_event(s, e))
            cb->failed = true;
    }
}

/*
 * Sends n accesses to the simulator; while epochs are counted, each indirect
 * read that is far from the thread's streams and waited for level i or
 * beyond joins the thread's open epoch of each window there, or opens
 * the next one.
 */
static void send(struct simsub *s, const struct augur_cache_access *acc, size_t n)
{
    size_t per_thread = (size_t)(s->nlevels + 1) * AUGUR_WORK_NWINDOWS;

    if (!s->indirect) {
        augur_cachesim_access_batch(s->sim, acc, n);
        return;
    }
    augur_cachesim_access_batch_reach(s->sim, acc, n, s->reach);
    for (size_t i = 0; i < n; i++) {
        const struct augur_cache_access *a = &acc[i];
        uint64_t pos = ++s->pos[a->thread], *end = &s->epoch_end[a->thread * per_thread];

        if (a->is_write || !(a->tag & 1) || !s->indirect[a->tag >> 1])
            continue;
        for (unsigned l = 1; l <= s->reach[i] && l <= s->nlevels; l++) {
            s->miss_reads[l]++;
            for (unsigned k = 0; k < AUGUR_WORK_NWINDOWS; k++) {
                uint64_t *e = &end[l * AUGUR_WORK_NWINDOWS + k];

                if (pos >= *e) {
                    s->miss_epochs[l][k]++;
                    *e = pos + AUGUR_WORK_WINDOW(k);
                }
            }
        }
    }
}

/*
 * Turns a batch of events into cache accesses. last is the event of the
 * latest access (s->last, the held one's, until this batch has one): it is
 * copied into s->last once, at the end.
 */
static void on_events(void *ud, const struct augur_event *ev, size_t n)
{
    struct simsub *s = ud;
    size_t k = s->held ? 1 : 0; /* buf[0] holds the held access */
    const struct augur_event *last = &s->last;

    memset(s->held_line, 0, sizeof(s->held_line)); /* the L1 moved on since the last batch */
    for (size_t i = 0; i < n; i++) {
        const struct augur_event *e = &ev[i];
        struct augur_cache_access *a;

        if (e->flags & (AUGUR_EV_LOCAL | AUGUR_EV_SIMD)) {
            if (e->flags & AUGUR_EV_LOCAL)
                continue; /* on-chip shared memory: no cache */
            if (k > 0 && next_lane(last, &s->buf[k - 1], e)) {
                s->buf[k - 1].size += e->size; /* one request for a contiguous vector access */
                last = e;
                continue;
            }
        }
        a = &s->buf[k++];
        a->addr = e->addr;
        a->size = e->size;
        a->thread = e->thread;
        a->is_write = (e->flags & AUGUR_EV_WRITE) != 0;
        a->pad = 0;
        a->tag = tag_of(s, e, e->addr);
        last = e;
    }
    if (last != &s->last)
        s->last = *last;
    /* a vector access at the end of the batch may go on in the next one */
    s->held = k > 0 && (s->last.flags & AUGUR_EV_SIMD);
    send(s, s->buf, s->held ? k - 1 : k);
    if (s->held)
        s->buf[0] = s->buf[k - 1];
}

/*
 * A CPU run's events reach the simulator on a second thread while the
 * interpreter runs on (where OpenMP allows more than one thread): the
 * interpreter's batches are copied whole and in order into chunks, and a
 * worker hands them to on_events() as the batches they were, since a batch
 * is a unit of the tagging (tag_of()). The counts are those of one thread.
 */
#define PIPE_SLOTS   4                               /* chunks in flight */
#define PIPE_EVENTS  (16 * AUGUR_INTERP_EVENT_BATCH) /* a chunk's events */
#define PIPE_BATCHES 64                              /* a chunk's batches */

struct pipe_chunk {
    struct augur_event ev[PIPE_EVENTS];
    uint32_t len[PIPE_BATCHES];
    uint32_t nev, nbatch;
};

struct pipe {
    struct simsub *s;
    struct pipe_chunk *chunk; /* PIPE_SLOTS of them */
    uint64_t made, used;      /* chunks handed to the worker, chunks it finished */
    bool stop;
    pthread_mutex_t mu;
    pthread_cond_t cv; /* either side waits for the other on it */
    pthread_t worker;
};

static void *pipe_work(void *ud)
{
    struct pipe *p = ud;

    pthread_mutex_lock(&p->mu);
    for (;;) {
        struct pipe_chunk *c;

        while (p->used == p->made && !p->stop)
            pthread_cond_wait(&p->cv, &p->mu);
        if (p->used == p->made)
            break;
        c = &p->chunk[p->used % PIPE_SLOTS];
        pthread_mutex_unlock(&p->mu);
        for (uint32_t b = 0, off = 0; b < c->nbatch; off += c->len[b++])
            on_events(p->s, c->ev + off, c->len[b]);
        pthread_mutex_lock(&p->mu);
        p->used++;
        pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Hands the chunk being filled to the worker and waits for a free one. */
static void pipe_hand(struct pipe *p)
{
    pthread_mutex_lock(&p->mu);
    p->made++;
    pthread_cond_broadcast(&p->cv);
    while (p->made - p->used >= PIPE_SLOTS)
        pthread_cond_wait(&p->cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
    p->chunk[p->made % PIPE_SLOTS].nev = p->chunk[p->made % PIPE_SLOTS].nbatch = 0;
}

static void on_pipe_events(void *ud, const struct augur_event *ev, size_t n)
{
    struct pipe *p = ud;
    struct pipe_chunk *c = &p->chunk[p->made % PIPE_SLOTS];

    if (c->nev + n > PIPE_EVENTS || c->nbatch == PIPE_BATCHES) {
        pipe_hand(p);
        c = &p->chunk[p->made % PIPE_SLOTS];
    }
    memcpy(c->ev + c->nev, ev, n * sizeof(*ev));
    c->len[c->nbatch++] = (uint32_t)n;
    c->nev += (uint32_t)n;
}

/* Waits until the worker has simulated every event handed to the pipe. */
static void pipe_drain(struct pipe *p)
{
    if (!p)
        return;
    if (p->chunk[p->made % PIPE_SLOTS].nbatch)
        pipe_hand(p);
    pthread_mutex_lock(&p->mu);
    while (p->used != p->made)
        pthread_cond_wait(&p->cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

/* A pipe feeding s, its worker started; NULL where one thread is all there is, or on failure. */
static struct pipe *pipe_new(struct simsub *s)
{
    struct pipe *p;

#ifdef _OPENMP
    if (omp_get_max_threads() < 2)
        return NULL;
#else
    return NULL;
#endif
    p = augur_calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    p->s = s;
    p->chunk = augur_mallocarray(PIPE_SLOTS, sizeof(*p->chunk));
    if (!p->chunk || pthread_mutex_init(&p->mu, NULL)) {
        augur_free(p->chunk);
        augur_free(p);
        return NULL;
    }
    p->chunk[0].nev = p->chunk[0].nbatch = 0;
    if (pthread_cond_init(&p->cv, NULL) || pthread_create(&p->worker, NULL, pipe_work, p)) {
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
        augur_free(p->chunk);
        augur_free(p);
        return NULL;
    }
    return p;
}

/* Stops the worker (what was handed over gets simulated first) and frees the pipe. */
static void pipe_free(struct pipe *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->worker, NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    augur_free(p->chunk);
    augur_free(p);
}

/* Sends the held access at the end of a run. */
static void finish_events(struct simsub *s)
{
    if (s->cuda && s->cb.run != UINT64_MAX)
        flush_block(s);
    if (s->cuda && s->last_run != UINT64_MAX)
        close_run(s);
    s->last_run = UINT64_MAX; /* the run ids start again after a warm run */
    if (s->held)
        send(s, s->buf, 1);
    s->held = false;
}

static void add_counts(struct augur_cache_counts *d, const struct augur_cache_counts *s)
{
    d->accesses += s->accesses;
    d->reads += s->reads;
    d->writes += s->writes;
    d->hits += s->hits;
    d->misses += s->misses;
    d->read_misses += s->read_misses;
    d->write_misses += s->write_misses;
    d->sector_accesses += s->sector_accesses;
    d->sector_misses += s->sector_misses;
    d->sector_writes += s->sector_writes;
    d->sector_write_misses += s->sector_write_misses;
    d->evictions += s->evictions;
    d->writebacks += s->writebacks;
    d->invalidations += s->invalidations;
    d->prefetches += s->prefetches;
    d->prefetch_hits += s->prefetch_hits;
    d->fill_bytes += s->fill_bytes;
    d->writeback_bytes += s->writeback_bytes;
    d->row_hits += s->row_hits;
    d->row_misses += s->row_misses;
    d->transfers += s->transfers;
}

void augur_sim_profile_free(struct augur_sim_profile *p)
{
    if (!p)
        return;
    augur_free(p->lines);
    augur_free(p->arrays);
    augur_free(p->accesses);
    augur_free(p->thread);
    augur_free(p->jobs_per_warp);
    augur_free(p->reach_per_warp);
    augur_free(p);
}

static int cmp_line(const void *a, const void *b)
{
    const struct augur_sim_group *x = a, *y = b;

    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* The counts per level, access, line and array; jobs and lanes: CUDA's per access (or NULL). */
static struct augur_sim_profile *gather(const struct augur_skel *skel, struct augur_interp *in,
                                        struct augur_cachesim *sim, bool split,
                                        const uint64_t *jobs, const uint64_t *lanes)
{
    struct augur_sim_profile *p = augur_calloc(1, sizeof(*p));
    unsigned nl = augur_cachesim_nlevels(sim), nacc = augur_interp_naccesses(in),
             narr = augur_interp_narrays(in), nth = augur_interp_nthreads(in);
    const struct augur_node *kernel = augur_interp_kernel(in);

    p->nlevels = nl;
    for (unsigned l = 0; l <= nl; l++) {
        snprintf(p->level_name[l], sizeof(p->level_name[l]), "%s",
                 augur_cachesim_level_name(sim, l));
        augur_cachesim_counts(sim, l, -1, &p->level[l]);
    }
    p->naccesses = nacc;
    p->accesses = augur_calloc(nacc + 1, sizeof(*p->accesses));
    p->narrays = narr;
    p->arrays = augur_calloc(narr + 1, sizeof(*p->arrays));
    p->lines = augur_calloc(nacc + 1, sizeof(*p->lines));
    for (uint32_t a = 0; a < narr; a++)
        p->arrays[a].key = a;
    for (unsigned i = 0; i < nacc; i++) {
        const struct augur_node *n = skel->nodes[augur_interp_access_node(in, i)];
        struct augur_sim_group *g = &p->accesses[i], *ln = NULL;

        g->key = i;
        g->file = n->loc.line ? n->loc.file : kernel->loc.file;
        g->events = augur_interp_node_count(in, n->id, -1);
        if (n->u.access.mode == AUGUR_ACCESS_RMW)
            g->events *= 2;
        for (unsigned l = 0; l <= nl; l++) {
            if (split) {
                augur_cachesim_counts(sim, l, (int)(2 * i), &g->level[l]);
                augur_cachesim_counts(sim, l, (int)(2 * i + 1), &g->far[l]);
                add_counts(&g->level[l], &g->far[l]);
            } else {
                augur_cachesim_counts(sim, l, (int)i, &g->level[l]);
            }
        }
        for (size_t j = 0; j < p->nlines; j++)
            if (p->lines[j].key == n->loc.line && p->lines[j].file == g->file)
                ln = &p->lines[j];
        if (!ln) {
            ln = &p->lines[p->nlines++];
            ln->key = n->loc.line;
            ln->file = g->file;
        }
        ln->events += g->events;
        if (jobs) {
            g->warp_jobs = jobs[i];
            g->warp_lanes = lanes[i];
            ln->warp_jobs += jobs[i];
            ln->warp_lanes += lanes[i];
        }
        p->arrays[n->u.access.array].events += g->events;
        p->events += g->events;
        for (unsigned l = 0; l <= nl; l++) {
            add_counts(&ln->level[l], &g->level[l]);
            add_counts(&p->arrays[n->u.access.array].level[l], &g->level[l]);
        }
    }
    qsort(p->lines, p->nlines, sizeof(*p->lines), cmp_line);
    p->stats = *augur_interp_stats(in);
    p->thread = augur_calloc(nth, sizeof(*p->thread));
    memcpy(p->thread, augur_interp_thread_work(in), nth * sizeof(*p->thread));
    p->stats.thread = p->thread;
    augur_interp_op_totals(in, p->ops);
    p->far_measured = split;
    return p;
}

int augur_simulate(const struct augur_skel *skel, const struct augur_node *kernel,
                   struct augur_bound *data, const struct augur_cache_config *cfg,
                   const struct augur_sim_opts *opts, struct augur_sim_profile **out,
                   struct augur_interp **inp, struct augur_diag *diag)
{
    struct augur_sim_opts o;
    struct augur_interp *in = NULL;
    struct augur_cachesim *sim = NULL;
    struct simsub *sub = NULL;
    struct pipe *pipe = NULL;
    uint32_t rounds = 0;
    unsigned nacc, nth;
    double t0;
    bool split;
    int rc;

    memset(&o, 0, sizeof(o));
    if (opts)
        o = *opts;
    rc = augur_interp_new_bound(skel, kernel, data, &o.interp, &in, diag);
    if (rc)
        goto out;
    kernel = augur_interp_kernel(in); /* the skeleton's only one when kernel is NULL */
    nacc = augur_interp_naccesses(in);
    nth = augur_interp_nthreads(in);
    split = nacc && 2 * (uint64_t)nacc <= AUGUR_CACHESIM_MAX_TAGS && o.streams > 0;
    rc = augur_cachesim_new(cfg, nth, split ? 2 * nacc : nacc ? nacc : 1, &sim, diag);
    if (rc)
        goto out;
    sub = augur_calloc(1, sizeof(*sub));
    if (!sub ||
        (split && !(sub->streams = augur_mallocarray((size_t)nth * o.streams, sizeof(uint64_t))))) {
        rc = augur_diag_set(diag, AUGUR_ENOMEM, NULL, 0, 0, "simulate: out of memory");
        goto out;
    }
    for (size_t i = 0; split && i < (size_t)nth * o.streams; i++)
        sub->streams[i] = NO_STREAM;
    sub->nstreams = o.streams;
    sub->stream_reach = o.stream_reach;
    while (cfg->nlevels && (1u << sub->line_shift) < cfg->level[0].line)
        sub->line_shift++;
    sub->naccesses = nacc;
    sub->nlevels = cfg->nlevels;
    if (split && !kernel->u.kernel.cuda) {
        sub->indirect = augur_calloc(nacc, sizeof(*sub->indirect));
        sub->pos = augur_calloc(nth, sizeof(*sub->pos));
        sub->epoch_end = augur_calloc((size_t)nth * (cfg->nlevels + 1) * AUGUR_WORK_NWINDOWS,
                                      sizeof(*sub->epoch_end));
        if (!sub->indirect || !sub->pos || !sub->epoch_end) {
            rc = augur_diag_set(diag, AUGUR_ENOMEM, NULL, 0, 0, "simulate: out of memory");
            goto out;
        }
        for (unsigned i = 0; i < nacc; i++)
            sub->indirect[i] = skel->nodes[augur_interp_access_node(in, i)]->u.access.indirect;
    }
    sub->sim = sim;
    sub->in = in;
    sub->acc_map = augur_interp_node_access_map(in);
    sub->kernel_id = kernel->id;
    sub->cuda = kernel->u.kernel.cuda;
    sub->cb.block = sub->cb.run = UINT64_MAX;
    sub->last_run = UINT64_MAX;
    while (sub->cuda && sub->nl1 < cfg->nlevels && cfg->level[sub->nl1].shared_by <= 1 &&
           cfg->level[sub->nl1].write_policy == AUGUR_CACHE_WRITE_THROUGH)
        sub->nl1++;
    if (sub->cuda) {
        /* both or neither: without them the lines get no lane counts */
        sub->acc_jobs = augur_calloc(nacc ? nacc : 1, sizeof(*sub->acc_jobs));
        sub->acc_lanes = augur_calloc(nacc ? nacc : 1, sizeof(*sub->acc_lanes));
        if (!sub->acc_jobs || !sub->acc_lanes) {
            augur_free(sub->acc_jobs);
            augur_free(sub->acc_lanes);
            sub->acc_jobs = sub->acc_lanes = NULL;
        }
    }
    sub->line = cfg->nlevels ? cfg->level[0].line : 128;
    sub->grain = cfg->nlevels && cfg->level[0].sector ? cfg->level[0].sector : sub->line;
    if (!sub->cuda)
        pipe = pipe_new(sub);
    if (pipe)
        augur_interp_subscribe(in, on_pipe_events, pipe);
    else
        augur_interp_subscribe(in, sub->cuda ? on_cuda_events : on_events, sub);
    if (o.warm) {
        /* the counts below start from an empty predictor: the warm-up's jumps teach it nothing */
        augur_interp_predict_branches(in, false);
        if (o.rounds)
            rc = augur_interp_run_rounds(in, 0, &rounds, diag);
        else
            rc = augur_interp_run(in, diag);
        pipe_drain(pipe);
        augur_interp_predict_branches(in, true);
        if (rc)
            goto out;
        finish_events(sub);
        augur_cachesim_reset_counts(sim);
        augur_interp_reset_stats(in);
        sub->jobs = sub->loads = sub->lanes = sub->run_max_sum = 0;
        if (sub->acc_jobs) {
            memset(sub->acc_jobs, 0, (nacc ? nacc : 1) * sizeof(*sub->acc_jobs));
            memset(sub->acc_lanes, 0, (nacc ? nacc : 1) * sizeof(*sub->acc_lanes));
        }
        memset(sub->load_reach, 0, sizeof(sub->load_reach));
        memset(sub->run_max_reach, 0, sizeof(sub->run_max_reach));
        memset(sub->miss_reads, 0, sizeof(sub->miss_reads));
        memset(sub->miss_epochs, 0, sizeof(sub->miss_epochs));
        if (sub->warp_jobs) {
            memset(sub->warp_jobs, 0, sub->nwarp_jobs * sizeof(*sub->warp_jobs));
            memset(sub->run_jobs, 0, sub->nwarp_jobs * sizeof(*sub->run_jobs));
            memset(sub->warp_reach, 0, sub->nwarp_jobs * NREACH * sizeof(*sub->warp_reach));
            memset(sub->run_reach, 0, sub->nwarp_jobs * NREACH * sizeof(*sub->run_reach));
        }
        augur_interp_reset_data(in);
    }
    if (o.trace) {
        rc = augur_interp_trace_open(in, o.trace, diag);
        if (rc)
            goto out;
    }
    t0 = augur_now();
    if (o.rounds) {
        rc = augur_interp_run_rounds(in, 0, &rounds, diag);
    } else {
        rounds = o.runs ? o.runs : 1;
        for (uint32_t r = 0; r < rounds && !rc; r++)
            rc = augur_interp_run(in, diag);
    }
    pipe_drain(pipe);
    if (rc)
        goto out;
    finish_events(sub);
    if (sub->cb.failed) {
        rc = augur_diag_set(diag, AUGUR_ENOMEM, NULL, 0, 0,
                            "simulate: out of memory gathering a CUDA block's warp instructions");
        goto out;
    }
    if (!o.no_flush)
        augur_cachesim_flush(sim);
    if (o.trace) {
        rc = augur_interp_trace_close(in, diag);
        if (rc)
            goto out;
    }
    *out = gather(skel, in, sim, split, sub->acc_jobs, sub->acc_lanes);
    (*out)->seconds = augur_now() - t0;
    (*out)->rounds = rounds;
    (*out)->warp_jobs = sub->jobs;
    (*out)->warp_loads = sub->loads;
    (*out)->warp_lanes = sub->lanes;
    (*out)->run_max_loads = sub->run_max_sum;
    memcpy((*out)->warp_load_reach, sub->load_reach, sizeof(sub->load_reach));
    memcpy((*out)->run_max_reach, sub->run_max_reach, sizeof(sub->run_max_reach));
    if (sub->indirect) {
        memcpy((*out)->miss_reads, sub->miss_reads, sizeof(sub->miss_reads));
        memcpy((*out)->miss_epochs, sub->miss_epochs, sizeof(sub->miss_epochs));
        (*out)->epochs_measured = true;
    }
    if (sub->cuda && !sub->no_memory) {
        const struct augur_interp_stats *st = augur_interp_stats(in);
        uint64_t wpb = (st->block + 31) / 32, nw = st->grid * wpb;

        /* the table grows as warps appear: give every warp of the launch an entry */
        (*out)->nwarps = nw < sub->nwarp_jobs ? (size_t)nw : sub->nwarp_jobs;
        (*out)->jobs_per_warp = sub->warp_jobs;
        (*out)->reach_per_warp = sub->warp_reach;
        sub->warp_jobs = sub->warp_reach = NULL;
    }
out:
    pipe_free(pipe);
    if (rc == 0 && inp) {
        /* the caller keeps the interpreter: it must not call into the freed subscriber */
        augur_interp_unsubscribe_all(in);
        *inp = in;
        in = NULL;
    }
    augur_interp_free(in);
    augur_cachesim_free(sim);
    if (sub) {
        augur_free(sub->streams);
        augur_free(sub->indirect);
        augur_free(sub->pos);
        augur_free(sub->epoch_end);
        augur_free(sub->warp_jobs);
        augur_free(sub->acc_jobs);
        augur_free(sub->acc_lanes);
        augur_free(sub->run_jobs);
        augur_free(sub->warp_reach);
        augur_free(sub->run_reach);
        for (size_t i = 0; i < sub->cb.nlists; i++)
            augur_free(sub->cb.lists[i].id);
        augur_free(sub->cb.lists);
        augur_free(sub->cb.occ);
        augur_free(sub->cb.instr);
        augur_free(sub->cb.grains);
    }
    augur_free(sub);
    return rc;
}
