/*
 * t_interp.c - tests of the skeleton interpreter: OpenMP schedules against
 * the specification's rules, access counts against exact formulas, BFS
 * levels against the compiled reference kernel, hand-computed misses on
 * tiny caches, layout, vectors, CUDA blocks, traces and bad input.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "augur/augur.h"
#include "kernels/bfs/ref.c"
#include "tap.h"

static const char *datasets, *srcdir;

/* ---- helpers --------------------------------------------------------------------------- */

static struct augur_skel *parse(const char *text)
{
    struct augur_skel *s = NULL;
    struct augur_diag d;

    augur_diag_init(&d);
    if (augur_skel_parse(text, strlen(text), "t.skel", &s, &d) != 0) {
        char msg[1200];

        augur_diag_format(&d, msg, sizeof(msg));
        tap_diag("parse: %s", msg);
        return NULL;
    }
    return s;
}

/* A CSR matrix with the given row lengths, column j of entry k of row i = cols(i, k). */
static void make_csr(struct augur_csr *a, uint32_t n, uint32_t ncols, const uint32_t *len,
                     uint32_t (*colf)(uint32_t i, uint32_t k))
{
    uint64_t nnz = 0;

    memset(a, 0, sizeof(*a));
    for (uint32_t i = 0; i < n; i++)
        nnz += len[i];
    a->nrows = n;
    a->ncols = ncols;
    a->nnz = nnz;
    a->rowptr = augur_calloc(n + 1, sizeof(uint64_t));
    a->col = augur_calloc(nnz + 1, sizeof(uint32_t));
    a->val = augur_calloc(nnz + 1, sizeof(double));
    for (uint32_t i = 0; i < n; i++) {
        a->rowptr[i + 1] = a->rowptr[i] + len[i];
        for (uint32_t k = 0; k < len[i]; k++) {
            a->col[a->rowptr[i] + k] = colf(i, k);
            a->val[a->rowptr[i] + k] = 0.5 + k;
        }
    }
}

static uint32_t col_zero(uint32_t i, uint32_t k)
{
    (void)i;
    return k;
}

static uint32_t col_seven(uint32_t i, uint32_t k)
{
    return (7 * i + k) % 100;
}

/* Runs a hand-written kernel over csr; returns the interpreter (NULL on failure, rc set). */
static struct augur_interp *start(struct augur_skel *s, const struct augur_csr *csr,
                                  const struct augur_interp_opts *o, struct augur_bound **b,
                                  int *rc, struct augur_diag *d)
{
    struct augur_interp *in = NULL;

    augur_diag_init(d);
    *b = NULL;
    *rc = augur_bound_from_csr(csr, NULL, b, d);
    if (*rc == 0)
        *rc = augur_interp_new_bound(s, NULL, *b, o, &in, d);
    return in;
}

struct rec {
    size_t n, cap;
    struct augur_event *ev;
};

static void on_rec(void *ud, const struct augur_event *ev, size_t n)
{
    struct rec *r = ud;

    if (r->n + n > r->cap) {
        r->cap = (r->n + n) * 2;
        r->ev = realloc(r->ev, r->cap * sizeof(*r->ev));
    }
    memcpy(r->ev + r->n, ev, n * sizeof(*ev));
    r->n += n;
}

static unsigned nwarn;

static void on_warn(void *ud, const struct augur_diag *d)
{
    (void)ud;
    (void)d;
    nwarn++;
}

/* ---- OpenMP schedules --------------------------------------------------------------------- */

static void test_chunks(void)
{
    struct augur_omp_loop L;
    uint64_t ts, lo, hi;
    static const uint64_t guided1[] = { 25, 19, 14, 11, 8, 6, 5, 3 };
    static const uint64_t guided10[] = { 25, 19, 14, 11, 10, 10, 10, 1 };
    bool good = true;

    /* static, no chunk: contiguous blocks, the first n % T threads one longer (libgomp) */
    memset(&L, 0, sizeof(L));
    L.sched = AUGUR_SCHED_STATIC;
    L.niter = 10;
    L.nthreads = 3;
    for (unsigned t = 0; t < 3; t++) {
        static const uint64_t want[3][2] = { { 0, 4 }, { 4, 7 }, { 7, 10 } };

        ts = 0;
        good &= augur_omp_next_chunk(&L, t, &ts, &lo, &hi) && lo == want[t][0] &&
                hi == want[t][1] && !augur_omp_next_chunk(&L, t, &ts, &lo, &hi);
    }
    ok(good, "static: blocks [0,4) [4,7) [7,10) for 10 iterations on 3 threads");
    /* static, chunk 2: chunks dealt round-robin */
    L.chunk = 2;
    L.niter = 11;
    good = true;
    for (unsigned t = 0; t < 3; t++) {
        static const uint64_t want[3][4] = { { 0, 2, 6, 8 }, { 2, 4, 8, 10 }, { 4, 6, 10, 11 } };

        ts = 0;
        good &= augur_omp_next_chunk(&L, t, &ts, &lo, &hi) && lo == want[t][0] && hi == want[t][1];
        good &= augur_omp_next_chunk(&L, t, &ts, &lo, &hi) && lo == want[t][2] && hi == want[t][3];
        good &= !augur_omp_next_chunk(&L, t, &ts, &lo, &hi);
    }
    ok(good, "static, 2: chunk k to thread k mod 3");
    /* dynamic, 3: in request order, whoever asks */
    memset(&L, 0, sizeof(L));
    L.sched = AUGUR_SCHED_DYNAMIC;
    L.niter = 10;
    L.chunk = 3;
    L.nthreads = 2;
    good = true;
    for (unsigned c = 0; c < 4; c++) {
        ts = 0;
        good &= augur_omp_next_chunk(&L, c % 2, &ts, &lo, &hi) && lo == 3 * c &&
                hi == (c == 3 ? 10 : 3 * c + 3);
    }
    good &= !augur_omp_next_chunk(&L, 0, &ts, &lo, &hi);
    ok(good, "dynamic, 3: [0,3) [3,6) [6,9) [9,10)");
    /* guided: ceil(remaining / T), at least the chunk */
    memset(&L, 0, sizeof(L));
    L.sched = AUGUR_SCHED_GUIDED;
    L.niter = 100;
    L.nthreads = 4;
    good = true;
    for (unsigned c = 0; c < 8; c++)
        good &= augur_omp_next_chunk(&L, 0, &ts, &lo, &hi) && hi - lo == guided1[c];
    ok(good, "guided: 25 19 14 11 8 6 5 3 of 100 on 4 threads");
    memset(&L, 0, sizeof(L));
    L.sched = AUGUR_SCHED_GUIDED;
    L.niter = 100;
    L.nthreads = 4;
    L.chunk = 10;
    good = true;
    for (unsigned c = 0; c < 8; c++)
        good &= augur_omp_next_chunk(&L, c % 4, &ts, &lo, &hi) && hi - lo == guided10[c];
    good &= !augur_omp_next_chunk(&L, 0, &ts, &lo, &hi);
    ok(good, "guided, 10: 25 19 14 11 10 10 10 1");
    /* every schedule hands out every iteration exactly once */
    good = true;
    for (int trial = 0; trial < 200 && good; trial++) {
        static const enum augur_sched sch[] = { AUGUR_SCHED_STATIC, AUGUR_SCHED_DYNAMIC,
                                                AUGUR_SCHED_GUIDED };
        unsigned char seen[300];
        uint64_t tst[7];

        memset(&L, 0, sizeof(L));
        L.sched = sch[trial % 3];
        L.niter = (uint64_t)(trial * 37 % 300);
        L.nthreads = 1 + trial % 7;
        L.chunk = (uint64_t)(trial % 5);
        memset(seen, 0, sizeof(seen));
        memset(tst, 0, sizeof(tst));
        for (unsigned t = 0, idle = 0; idle < L.nthreads; t = (t + 1) % L.nthreads) {
            if (!augur_omp_next_chunk(&L, t, &tst[t], &lo, &hi)) {
                idle++;
                continue;
            }
            idle = 0;
            for (uint64_t i = lo; i < hi; i++)
                seen[i]++;
        }
        for (uint64_t i = 0; i < L.niter; i++)
            good &= seen[i] == 1;
    }
    ok(good, "every iteration exactly once (200 random loops and schedules)");
}

#define SCHED_SKEL                                                     \
    "augur-skeleton 1\n"                                               \
    "kernel sched @\"s.c\":1:1\n"                                      \
    "  param n i32 bind n (cli)\n"                                     \
    "  local i i32\n"                                                  \
    "  local t i32\n"                                                  \
    "  builtin omp.thread i32\n"                                       \
    "  array owner i32[] global param bind vec(n) (cli)\n"             \
    "  for i = 0; i < n; i += 1 @2:3 omp(parallel for schedule(%s))\n" \
    "    store owner[i] = omp.thread @3:5\n"                           \
    "    set t = owner[i] @4:5\n"

static void test_sched_run(void)
{
    static const uint32_t len11[11] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    struct augur_csr a;
    struct augur_skel *s;
    struct augur_bound *b;
    struct augur_interp *in;
    struct augur_interp_opts o;
    struct augur_diag d;
    struct rec r = { 0 };
    char text[1024];
    int rc;

    make_csr(&a, 11, 11, len11, col_zero);
    snprintf(text, sizeof(text), SCHED_SKEL, "static, 2");
    s = parse(text);
    memset(&o, 0, sizeof(o));
    o.nthreads = 3;
    in = start(s, &a, &o, &b, &rc, &d);
    is_int(rc, 0, "static, 2 kernel binds");
    if (in) {
        static const int32_t want[11] = { 0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2 };
        const int32_t *owner;
        uint64_t ext;
        bool order = true;
        uint64_t last[3] = { 0, 0, 0 };
        bool first[3] = { true, true, true };

        augur_interp_subscribe(in, on_rec, &r);
        is_int(augur_interp_run(in, &d), 0, "static, 2 runs");
        owner = augur_interp_array_data(in, 0, &ext);
        ok(ext == 11 && owner && memcmp(owner, want, sizeof(want)) == 0,
           "static, 2: iterations 0 1 6 7 on thread 0, 2 3 8 9 on 1, 4 5 10 on 2");
        for (size_t i = 0; i < r.n; i++) {
            unsigned t = r.ev[i].thread;

            order &= t < 3 && (first[t] || r.ev[i].index > last[t]);
            first[t] = false;
            last[t] = r.ev[i].index;
        }
        ok(order && r.n == 11, "each thread runs its iterations in order");
        is_int(augur_interp_stats(in)->thread[0].chunks, 2, "thread 0 took 2 chunks");
        is_int(augur_interp_stats(in)->thread[2].iterations, 3, "thread 2 ran 3 iterations");
    }
    augur_interp_free(in);
    augur_bound_free(b);
    augur_skel_free(s);
    free(r.ev);
    augur_csr_release(&a);
}

/* Dynamic scheduling with uneven iterations: who gets what follows the simulated time. */
static void test_dynamic_balance(void)
{
#define DYN_SKEL                                                       \
    "augur-skeleton 1\n"                                               \
    "kernel dyn @\"d.c\":1:1\n"                                        \
    "  param n i32 bind n (cli)\n"                                     \
    "  local i i32\n"                                                  \
    "  local j i64\n"                                                  \
    "  array rowptr i64[] global param bind csr.rowptr (cli)\n"        \
    "  array col i32[] global param bind csr.col (cli)\n"              \
    "  for i = 0; i < n; i += 1 @2:3 omp(parallel for schedule(%s))\n" \
    "    for j = rowptr[i]; j < rowptr[i + 1]; j += 1 @3:5\n"          \
    "      load col[j] @4:7\n"
    uint32_t len[101];
    struct augur_csr a;
    char buf[1024];

    len[0] = 100;
    for (int i = 1; i < 101; i++)
        len[i] = 1;
    make_csr(&a, 101, 101, len, col_zero);
    for (int dyn = 0; dyn < 2; dyn++) {
        struct augur_skel *s;
        struct augur_bound *b;
        struct augur_interp *in;
        struct augur_interp_opts o;
        struct augur_diag d;
        int rc;

        snprintf(buf, sizeof(buf), DYN_SKEL, dyn ? "dynamic, 1" : "static");
        s = parse(buf);
        memset(&o, 0, sizeof(o));
        o.nthreads = 2;
        o.quantum = 1;
        in = start(s, &a, &o, &b, &rc, &d);
        if (in && augur_interp_run(in, &d) == 0) {
            const struct augur_interp_stats *st = augur_interp_stats(in);

            if (dyn) {
                is_int(st->thread[0].events, 100, "dynamic: thread 0 spends 100 accesses on row 0");
                is_int(st->thread[0].iterations, 1, "dynamic: ... and runs no other row");
                is_int(st->thread[1].iterations, 100, "dynamic: thread 1 runs the 100 short rows");
                is_double(st->imbalance, 1.0, 1e-12, "dynamic: balanced");
            } else {
                is_int(st->thread[0].events, 150, "static: thread 0 has rows 0-50, 150 accesses");
                is_int(st->thread[1].events, 50, "static: thread 1 has rows 51-100");
                is_double(st->imbalance, 1.5, 1e-12, "static: imbalance 150 / 100");
            }
        } else {
            ok(0, "dynamic/static kernel runs");
        }
        augur_interp_free(in);
        augur_bound_free(b);
        augur_skel_free(s);
    }
    augur_csr_release(&a);
}

/*
 * A team waits at each worksharing loop's barrier: two loops whose heavy
 * rows fall to different threads balance over the call (201 and 199
 * accesses) but not in either phase (150 against 50, then 51 against 149).
 */
static void test_barrier_phases(void)
{
    static const char skel[] =
        "augur-skeleton 1\n"
        "kernel ph @\"p.c\":1:1\n"
        "  param n i32 bind n (cli)\n"
        "  local i i32\n"
        "  local k i32\n"
        "  local j i64\n"
        "  array rowptr i64[] global param bind csr.rowptr (cli)\n"
        "  array col i32[] global param bind csr.col (cli)\n"
        "  region parallel @2:3 omp(parallel)\n"
        "    for i = 0; i < n; i += 1 @3:5 parallel omp(for schedule(static))\n"
        "      for j = rowptr[i]; j < rowptr[i + 1]; j += 1 @4:7\n"
        "        load col[j] @5:9\n"
        "    for k = 0; k < n; k += 1 @6:5 parallel omp(for schedule(static))\n"
        "      for j = rowptr[n - 1 - k]; j < rowptr[n - k]; j += 1 @7:7\n"
        "        load col[j] @8:9\n";
    uint32_t len[101];
    struct augur_csr a;
    struct augur_skel *s;
    struct augur_bound *b;
    struct augur_interp *in;
    struct augur_interp_opts o;
    struct augur_diag d;
    int rc;

    len[0] = 100;
    for (int i = 1; i < 101; i++)
        len[i] = 1;
    make_csr(&a, 101, 101, len, col_zero);
    s = parse(skel);
    memset(&o, 0, sizeof(o));
    o.nthreads = 2;
    in = start(s, &a, &o, &b, &rc, &d);
    if (in && augur_interp_run(in, &d) == 0) {
        const struct augur_interp_stats *st = augur_interp_stats(in);

        is_int(st->thread[0].events, 201, "barriers: thread 0 makes 150 + 51 accesses");
        is_int(st->thread[1].events, 199, "barriers: thread 1 makes 50 + 149");
        is_int(st->critical_events, 299, "barriers: the phases' busiest threads make 150 + 149");
        is_double(st->imbalance, 299.0 / 200.0, 1e-12, "barriers: imbalance 299 / 200");
    } else {
        ok(0, "two worksharing loops run");
    }
    augur_interp_free(in);
    augur_bound_free(b);
    augur_skel_free(s);
    augur_csr_release(&a);
}

/* augur_sched_parse(): the OMP_SCHEDULE forms, and a message for each refusal. */
static void test_sched_parse(void)
{
    static const struct {
        const char *text;
        enum augur_sched kind;
        uint64_t chunk;
        const char *back; /* augur_sched_format() of the result */
    } good[] = {
        { "static", AUGUR_SCHED_STATIC, 0, "static" },
        { "static,64", AUGUR_SCHED_STATIC, 64, "static,64" },
        { "dynamic", AUGUR_SCHED_DYNAMIC, 0, "dynamic" },
        { "dynamic,16", AUGUR_SCHED_DYNAMIC, 16, "dynamic,16" },
        { "guided,8", AUGUR_SCHED_GUIDED, 8, "guided,8" },
        { "auto", AUGUR_SCHED_AUTO, 0, "auto" },
        { " Dynamic , 4 ", AUGUR_SCHED_DYNAMIC, 4, "dynamic,4" },
        { "GUIDED,2147483647", AUGUR_SCHED_GUIDED, 2147483647, "guided,2147483647" },
    };
    static const struct {
        const char *text, *says;
    } bad[] = {
        { "", "empty schedule" },
        { "runtime", "names no schedule" },
        { "none", "unknown schedule kind 'none'" },
        { "fast,4", "unknown schedule kind 'fast'" },
        { "monotonic:dynamic", "unknown schedule kind" },
        { "static;4", "unknown schedule kind" },
        { "dynamic,0", "at least 1" },
        { "dynamic,", "not a whole number" },
        { "dynamic,x", "not a whole number" },
        { "dynamic,-1", "not a whole number" },
        { "dynamic,+4", "not a whole number" },
        { "dynamic,0x10", "not a whole number" },
        { "dynamic,4,5", "not a whole number" },
        { "dynamic,1.5", "not a whole number" },
        { "guided,2147483648", "too large" },
        { "guided,99999999999999999999999", "too large" },
        { "auto,4", "auto takes no chunk" },
    };
    char name[160], buf[48];

    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        enum augur_sched kind = AUGUR_SCHED_NONE;
        uint64_t chunk = 99;
        struct augur_diag d;

        augur_diag_init(&d);
        snprintf(name, sizeof(name), "schedule '%s' parses", good[i].text);
        ok(augur_sched_parse(good[i].text, &kind, &chunk, &d) == 0 && kind == good[i].kind &&
               chunk == good[i].chunk,
           name);
        snprintf(name, sizeof(name), "schedule '%s' formats as '%s'", good[i].text, good[i].back);
        is_str(augur_sched_format(kind, chunk, buf, sizeof(buf)), good[i].back, name);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        enum augur_sched kind = AUGUR_SCHED_NONE;
        uint64_t chunk = 99;
        struct augur_diag d;
        int rc;

        augur_diag_init(&d);
        rc = augur_sched_parse(bad[i].text, &kind, &chunk, &d);
        snprintf(name, sizeof(name), "schedule '%s' is refused: %s, output untouched", bad[i].text,
                 bad[i].says);
        ok(rc == AUGUR_EINVAL && d.code == AUGUR_EINVAL && strstr(d.msg, bad[i].says) &&
               kind == AUGUR_SCHED_NONE && chunk == 99,
           name);
        if (!strstr(d.msg, bad[i].says))
            tap_diag("message: %s", d.msg);
    }
}

/*
 * The schedule override: the skewed loop of test_dynamic_balance (row 0 holds 100 entries, rows
 * 1-100 one each) dealt as libgomp deals it under the schedule asked for, whatever the source
 * says; the source's chunk expression is not used.
 */
static void test_sched_override(void)
{
    static const struct {
        const char *source; /* the directive's schedule */
        enum augur_sched sched;
        uint64_t chunk;
        uint64_t events0, events1, iter0, iter1, chunks0, dealt1;
        const char *what;
    } cases[] = {
        /* static: rows 0-50 and 51-100, one block each */
        { "dynamic, 1", AUGUR_SCHED_STATIC, 0, 150, 50, 51, 50, 1, 0, "dynamic, 1 run as static" },
        { "guided, n", AUGUR_SCHED_AUTO, 0, 150, 50, 51, 50, 1, 0, "guided, n run as auto" },
        /* dynamic, 1: thread 0 is busy with row 0 while thread 1 takes the 100 short rows */
        { "static", AUGUR_SCHED_DYNAMIC, 1, 100, 100, 1, 100, 1, 100, "static run as dynamic,1" },
        { "static, 2", AUGUR_SCHED_DYNAMIC, 0, 100, 100, 1, 100, 1, 100,
          "static, 2 run as dynamic (chunk 1)" },
        /* static, 10: 11 chunks round-robin, thread 0 takes 0 2 4 6 8 10 (rows 0-9 ... 100) */
        { "dynamic, 1", AUGUR_SCHED_STATIC, 10, 150, 50, 51, 50, 6, 0,
          "dynamic, 1 run as static,10" },
    };
    uint32_t len[101];
    struct augur_csr a;
    char buf[1024], name[200];

    len[0] = 100;
    for (int i = 1; i < 101; i++)
        len[i] = 1;
    make_csr(&a, 101, 101, len, col_zero);
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        struct augur_skel *s;
        struct augur_bound *b;
        struct augur_interp *in;
        struct augur_interp_opts o;
        struct augur_diag d;
        int rc;

        snprintf(buf, sizeof(buf), DYN_SKEL, cases[c].source);
        s = parse(buf);
        if (c == 0)
            is_int(s ? augur_sched_nloops(s->kernels[0]) : 0, 1, "one worksharing loop");
        memset(&o, 0, sizeof(o));
        o.nthreads = 2;
        o.quantum = 1;
        o.sched_given = true;
        o.sched = cases[c].sched;
        o.chunk = cases[c].chunk;
        in = start(s, &a, &o, &b, &rc, &d);
        if (in && augur_interp_run(in, &d) == 0) {
            const struct augur_thread_work *w = augur_interp_thread_work(in);

            snprintf(name, sizeof(name), "%s: events %" PRIu64 " and %" PRIu64, cases[c].what,
                     cases[c].events0, cases[c].events1);
            ok(w[0].events == cases[c].events0 && w[1].events == cases[c].events1, name);
            snprintf(name, sizeof(name), "%s: iterations %" PRIu64 " and %" PRIu64, cases[c].what,
                     cases[c].iter0, cases[c].iter1);
            ok(w[0].iterations == cases[c].iter0 && w[1].iterations == cases[c].iter1, name);
            snprintf(name, sizeof(name), "%s: thread 0 takes %" PRIu64 " chunk%s", cases[c].what,
                     cases[c].chunks0, cases[c].chunks0 == 1 ? "" : "s");
            is_int(w[0].chunks, cases[c].chunks0, name);
            snprintf(name, sizeof(name), "%s: thread 1's iterations %s dealt on demand",
                     cases[c].what, cases[c].dealt1 ? "are" : "are not");
            is_int(w[1].dealt, cases[c].dealt1, name);
        } else {
            snprintf(name, sizeof(name), "%s: runs", cases[c].what);
            ok(0, name);
            tap_diag("%s", d.msg);
        }
        augur_interp_free(in);
        augur_bound_free(b);
        augur_skel_free(s);
    }
    augur_csr_release(&a);
}

/* Overrides the interpreter refuses: no kind to run, a chunk out of range, auto with one. */
static void test_sched_override_bad(void)
{
    static const struct {
        enum augur_sched sched;
        uint64_t chunk;
        const char *what;
    } bad[] = {
        { AUGUR_SCHED_RUNTIME, 0, "runtime" },
        { AUGUR_SCHED_NONE, 0, "none" },
        { AUGUR_SCHED_COUNT, 0, "a kind past the table" },
        { AUGUR_SCHED_DYNAMIC, AUGUR_SCHED_MAX_CHUNK + 1, "a chunk over 2^31 - 1" },
        { AUGUR_SCHED_AUTO, 4, "auto with a chunk" },
    };
    static const uint32_t len[4] = { 1, 2, 3, 4 };
    struct augur_csr a;
    char buf[1024], name[160];

    make_csr(&a, 4, 4, len, col_zero);
    snprintf(buf, sizeof(buf), DYN_SKEL, "static");
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct augur_skel *s = parse(buf);
        struct augur_bound *b;
        struct augur_interp *in;
        struct augur_interp_opts o;
        struct augur_diag d;
        int rc;

        memset(&o, 0, sizeof(o));
        o.nthreads = 2;
        o.sched_given = true;
        o.sched = bad[i].sched;
        o.chunk = bad[i].chunk;
        in = start(s, &a, &o, &b, &rc, &d);
        snprintf(name, sizeof(name), "schedule override refused: %s", bad[i].what);
        ok(!in && rc == AUGUR_EINVAL && strstr(d.msg, "schedule override"), name);
        augur_interp_free(in);
        augur_bound_free(b);
        augur_skel_free(s);
    }
    augur_csr_release(&a);
}

/*
 * A continue skips the rest of the body but not the for loop's step: the
 * ops node on the loop's own line (its step and test) counts every
 * iteration, serial and work-shared alike.
 */
static void test_continue_step(void)
{
    static const char *const texts[2] = {
        "augur-skeleton 1\n"
        "kernel c @\"c.c\":1:1\n"
        "  param n i32 bind n (cli)\n"
        "  local i i32 @2:10\n"
        "  array x f64[] global param bind vec(n) (cli)\n"
        "  for i = 0; i < n; i += 1 @2:5\n"
        "    if i < 2 @3:9\n"
        "      continue @3:18\n"
        "    load x[i] @4:9\n"
        "    ops iadd.i32=1 cmp.i32=1 @2:29\n",
        "augur-skeleton 1\n"
        "kernel c @\"c.c\":1:1\n"
        "  param n i32 bind n (cli)\n"
        "  local i i32 @2:10\n"
        "  array x f64[] global param bind vec(n) (cli)\n"
        "  for i = 0; i < n; i += 1 @2:5 parallel omp(parallel for schedule(dynamic, 1))\n"
        "    if i < 2 @3:9\n"
        "      continue @3:18\n"
        "    load x[i] @4:9\n"
        "    ops iadd.i32=1 cmp.i32=1 @2:29\n",
    };
    static const uint32_t len[4] = { 1, 1, 1, 1 };
    struct augur_csr a;

    make_csr(&a, 4, 4, len, col_zero);
    for (int k = 0; k < 2; k++) {
        struct augur_skel *s = parse(texts[k]);
        struct augur_bound *b;
        struct augur_interp *in;
        struct augur_interp_opts o;
        struct augur_diag d;
        int rc;

        memset(&o, 0, sizeof(o));
        o.nthreads = k + 1;
        in = start(s, &a, &o, &b, &rc, &d);
        if (in) {
            is_int(augur_interp_run(in, &d), 0, "continue: runs");
            is_int(augur_interp_node_count(in, 4, -1), 2, "continue: two iterations skip the load");
            is_int(augur_interp_node_count(in, 5, -1), 4,
                   k ? "the work-shared loop's step ops count all 4 iterations"
                     : "the loop's step ops count all 4 iterations");
        } else {
            ok(0, "continue kernel binds");
            diag("%s", d.msg);
        }
        augur_interp_free(in);
        augur_bound_free(b);
        augur_skel_free(s);
    }
    augur_csr_release(&a);
}

/* ---- the simulated branch predictor ------------------------------------------------------ */

static uint32_t bp_ones(uint32_t i, uint32_t k)
{
    (void)i, (void)k;
    return 1;
}

static uint32_t bp_alternate(uint32_t i, uint32_t k)
{
    (void)k;
    return i % 2;
}

static uint32_t bp_random(uint32_t i, uint32_t k)
{
    uint64_t h = ((uint64_t)i + 1) * UINT64_C(0x9E3779B97F4A7C15); /* splitmix64 of i */

    (void)k;
    h = (h ^ (h >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    h = (h ^ (h >> 27)) * UINT64_C(0x94D049BB133111EB);
    return (uint32_t)((h ^ (h >> 31)) >> 63);
}

/* The first node of kind kind in s. */
static uint32_t node_of_kind(const struct augur_skel *s, enum augur_node_kind kind)
{
    for (uint32_t id = 0; id < s->nnodes; id++)
        if (s->nodes[id]->kind == kind)
            return id;
    return 0;
}

/*
 * An if on c[i] over n rows of one entry each, swept eight times in a call:
 * a branch that never changes, one that alternates (its history tells it),
 * random bits (half of them missed in the first sweep, the later sweeps
 * recognised by their long histories), and the loops' own tests. A second
 * call counts afresh: the statistics' reset resets the predictor.
 */
static void test_branch_predictor(void)
{
    static const char *text = "augur-skeleton 1\n"
                              "kernel b @\"b.c\":1:1\n"
                              "  param n i32 bind n (cli)\n"
                              "  local r i32 @2:10\n"
                              "  local i i32 @3:14\n"
                              "  array c u32[] global param bind csr.col (cli)\n"
                              "  array x f64[] global param bind vec(n) (cli)\n"
                              "  for r = 0; r < 8; r += 1 @2:5\n"
                              "    for i = 0; i < n; i += 1 @3:9\n"
                              "      if c[i] == 1 @4:13\n"
                              "        load x[i] @5:13\n";
    enum { N = 4096, SWEEPS = 8 };
    static uint32_t len[N];
    uint32_t (*const pattern[3])(uint32_t, uint32_t) = { bp_ones, bp_alternate, bp_random };
    static const char *const name[3] = { "a branch always taken", "an alternating branch",
                                         "random bits" };
    struct augur_skel *s = parse(text);
    uint32_t branch, inner = 0;

    if (!s) {
        ok(0, "predictor kernel parses");
        return;
    }
    branch = node_of_kind(s, AUGUR_NODE_BRANCH);
    for (uint32_t id = node_of_kind(s, AUGUR_NODE_LOOP) + 1; id < s->nnodes && !inner; id++)
        if (s->nodes[id]->kind == AUGUR_NODE_LOOP)
            inner = id;
    for (uint32_t i = 0; i < N; i++)
        len[i] = 1;
    for (int p = 0; p < 3; p++) {
        struct augur_csr a;
        struct augur_bound *b;
        struct augur_interp *in;
        struct augur_interp_opts o;
        struct augur_diag d;
        int64_t first, again;
        int rc;

        make_csr(&a, N, 2, len, pattern[p]);
        memset(&o, 0, sizeof(o));
        augur_bp_config_from_machine(augur_machine_cpu_defaults(), &o.predictor);
        in = start(s, &a, &o, &b, &rc, &d);
        if (!in) {
            ok(0, "predictor kernel binds");
            diag("%s", d.msg);
            augur_csr_release(&a);
            continue;
        }
        is_int(augur_interp_run(in, &d), 0, "predictor kernel runs");
        first = augur_interp_node_mispredicts(in, branch);
        augur_interp_reset_stats(in);
        is_int(augur_interp_run(in, &d), 0, "and runs again");
        again = augur_interp_node_mispredicts(in, branch);
        diag("%s: %" PRId64 " of %d missed; the inner loop's test %" PRId64, name[p], first,
             SWEEPS * N, augur_interp_node_mispredicts(in, inner));
        if (p < 2)
            ok(first >= 0 && first <= SWEEPS * N / 50,
               p ? "an alternating branch: at most 2 % missed"
                 : "a branch always taken: at most 2 % missed");
        else
            ok(first >= N * 35 / 100 && first <= SWEEPS * N / 4,
               "random bits: half missed in the first sweep, most of the later sweeps learned");
        is_int(again, first, "a second call counts afresh");
        ok(augur_interp_node_mispredicts(in, inner) <= 2 * SWEEPS + 2,
           "the inner loop's test missed only about its exits (each, and the test after it)");
        augur_interp_free(in);
        augur_bound_free(b);
        o.predictor.ntables = 0;
        in = start(s, &a, &o, &b, &rc, &d);
        if (in) {
            is_int(augur_interp_run(in, &d), 0, "no predictor: runs");
            is_int(augur_interp_node_mispredicts(in, branch), -1, "no predictor: no count");
        }
        augur_interp_free(in);
        augur_bound_free(b);
        augur_bp_config_from_machine(augur_machine_cpu_defaults(), &o.predictor);
        o.predictor.history[1] = o.predictor.history[0];
        in = start(s, &a, &o, &b, &rc, &d);
        is_int(rc, AUGUR_EINVAL, "a predictor whose histories do not ascend is refused");
        ok(strstr(d.msg, "branch predictor") != NULL, "... naming the predictor");
        augur_interp_free(in);
        augur_bound_free(b);
        augur_csr_release(&a);
    }
    augur_skel_free(s);
}

/* Scalars declared before a parallel region are shared by its team; later ones are private. */
static void test_shared_scalars(void)
{
    static const char *text = "augur-skeleton 1\n"
                              "kernel sh @\"sh.c\":1:1\n"
                              "  param n i32 bind n (cli)\n"
                              "  local flag i32 @2:5\n"
                              "  local mine i32 @4:9\n"
                              "  builtin omp.thread i32\n"
                              "  array x f64[] global param bind vec(n) (cli)\n"
                              "  set flag = 0 @2:5\n"
                              "  region parallel @3:1 omp(parallel)\n"
                              "    set mine = omp.thread @4:9\n"
                              "    region master @5:1\n"
                              "      set flag = 7 @6:9\n"
                              "    sync barrier @7:1\n"
                              "    if flag == 7 @8:5\n"
                              "      load x[mine] @9:9\n"
                              "  if flag == 7 @10:3\n"
                              "    load x[0] @11:5\n"
                              "  if opaque(\"rand\") @12:3\n"
                              "    load x[1] @13:5\n";
    static const uint32_t len[4] = { 1, 1, 1, 1 };
    struct augur_csr a;
    struct augur_skel *s = parse(text);
    struct augur_bound *b;
    struct augur_interp *in;
    struct augur_interp_opts o;
    struct augur_diag d;
    struct rec r = { 0 };
    int rc;

    make_csr(&a, 4, 4, len, col_zero);
    memset(&o, 0, sizeof(o));
    o.nthreads = 3;
    o.probs = "12=0";
    in = start(s, &a, &o, &b, &rc, &d);
    if (in) {
        bool idx = true;

        augur_interp_subscribe(in, on_rec, &r);
        is_int(augur_interp_run(in, &d), 0, "shared scalars: runs");
        for (size_t i = 0; i < r.n; i++)
            if (r.ev[i].node == 8)
                idx &= r.ev[i].index == r.ev[i].thread;
        is_int(augur_interp_node_count(in, 8, -1), 3,
               "the master's store to a shared scalar is seen by every thread after the barrier");
        ok(idx, "a scalar set inside the region is private to each thread");
        is_int(augur_interp_node_count(in, 10, -1), 1, "the shared value stays after the region");
        is_int(augur_interp_node_count(in, 12, -1), 0, "--prob 12=0: the branch is never taken");
    } else {
        ok(0, "shared scalars kernel binds");
    }
    free(r.ev);
    augur_interp_free(in);
    augur_bound_free(b);
    augur_skel_free(s);
    augur_csr_release(&a);
    memset(&o, 0, sizeof(o));
    o.probs = "12=1.5";
    s = parse(text);
    make_csr(&a, 4, 4, len, col_zero);
    in = start(s, &a, &o, &b, &rc, &d);
    ok(!in && rc == AUGUR_EINVAL && strstr(d.msg, "bad probability list"),
       "a probability above 1 is refused");
    augur_interp_free(in);
    augur_bound_free(b);
    augur_skel_free(s);
    augur_csr_release(&a);
}

/* ---- the reference kernels on real data --------------------------------------------------------
 */

static struct augur_skel *parse_c(const char *rel, const char *function, const char *bind)
{
    struct augur_fe *fe = NULL;
    struct augur_fe_opts fo;
    struct augur_skel *s = NULL;
    struct augur_diag d;
    char path[4096];

    snprintf(path, sizeof(path), "%s/%s", srcdir, rel);
    memset(&fo, 0, sizeof(fo));
    fo.function = function;
    fo.bind = bind;
    augur_diag_init(&d);
    if (augur_fe_new(&fe, &d) == 0 && augur_fe_parse(fe, path, &fo, &s, &d) != 0) {
        char msg[1200];

        augur_diag_format(&d, msg, sizeof(msg));
        tap_diag("front end: %s", msg);
    }
    augur_fe_free(fe);
    return s;
}

static struct augur_dataset *load(const char *rel)
{
    struct augur_dataset *ds = NULL;
    struct augur_diag d;
    char path[4096];

    snprintf(path, sizeof(path), "%s/%s", datasets, rel);
    augur_diag_init(&d);
    if (augur_dataset_load(path, NULL, &ds, &d) != 0)
        tap_diag("cannot load %s", path);
    return ds;
}

/* Node id of the access to array name with the given mode (the first one). */
static uint32_t access_node(const struct augur_node *k, const struct augur_skel *s,
                            const char *name, enum augur_access_mode mode, unsigned nth)
{
    for (uint32_t i = k->id; i < s->nnodes; i++) {
        const struct augur_node *n = s->nodes[i];

        if (augur_node_kernel(n) != k)
            break;
        if (n->kind == AUGUR_NODE_ACCESS && n->u.access.mode == mode &&
            strcmp(k->u.kernel.arrays[n->u.access.array].name, name) == 0 && nth-- == 0)
            return i;
    }
    return UINT32_MAX;
}

struct colcheck {
    uint32_t node;
    const struct augur_csr *a;
    uint64_t k;
    bool good;
};

static void on_col(void *ud, const struct augur_event *ev, size_t n)
{
    struct colcheck *c = ud;

    for (size_t i = 0; i < n; i++)
        if (ev[i].node == c->node)
            c->good &= c->k < c->a->nnz && ev[i].index == c->a->col[c->k++];
}

static void test_spmv(void)
{
    struct augur_skel *s = parse_c("kernels/spmv/ref.c", "spmv_csr_ref", NULL);
    struct augur_dataset *ds = load("mtx/walshaw_fe_4elt2.mtx");
    struct augur_bound *b = NULL;
    struct augur_interp *in = NULL;
    struct augur_csr a;
    struct augur_diag d;
    const struct augur_node *k;
    uint64_t n, nnz;

    augur_diag_init(&d);
    if (!s || !ds || augur_dataset_csr(ds, true, &a, &d) != 0) {
        ok(0, "spmv: front end and dataset");
        augur_skel_free(s);
        augur_dataset_free(ds);
        return;
    }
    n = a.nrows;
    nnz = a.nnz;
    k = s->kernels[0];
    if (augur_bound_new(ds, NULL, &b, &d) == 0 &&
        augur_interp_new_bound(s, k, b, NULL, &in, &d) == 0) {
        struct colcheck cc = { access_node(k, s, "x", AUGUR_ACCESS_READ, 0), &a, 0, true };

        augur_interp_subscribe(in, on_col, &cc);
        is_int(augur_interp_run(in, &d), 0, "spmv: runs on walshaw_fe_4elt2");
        is_int(augur_interp_stats(in)->events, 3 * n + 3 * nnz, "spmv: 3 n + 3 nnz accesses");
        is_int(augur_interp_node_count(in, access_node(k, s, "rowptr", AUGUR_ACCESS_READ, 1), -1),
               n, "spmv: rowptr[i + 1] read n times");
        is_int(augur_interp_node_count(in, access_node(k, s, "val", AUGUR_ACCESS_READ, 0), -1), nnz,
               "spmv: val read nnz times");
        is_int(augur_interp_node_count(in, access_node(k, s, "y", AUGUR_ACCESS_WRITE, 0), -1), n,
               "spmv: y written n times");
        ok(cc.good && cc.k == nnz, "spmv: x[col[j]] visits the columns of the data in order");
        {
            uint64_t ops[AUGUR_OPK_COUNT];

            augur_interp_op_totals(in, ops);
            is_int(ops[AUGUR_OPK_FFMA], nnz, "spmv: one fused multiply-add per entry");
        }
    } else {
        ok(0, "spmv: binds");
    }
    augur_interp_free(in);
    in = NULL;
    augur_skel_free(s);
    /* the dynamic OpenMP variant on two threads: the same accesses, spread out */
    s = parse_c("kernels/spmv/omp.c", "spmv_csr_omp_dynamic", NULL);
    if (s) {
        struct augur_interp_opts o;

        memset(&o, 0, sizeof(o));
        o.nthreads = 2;
        if (augur_interp_new_bound(s, s->kernels[0], b, &o, &in, &d) == 0 &&
            augur_interp_run(in, &d) == 0) {
            const struct augur_interp_stats *st = augur_interp_stats(in);

            is_int(st->events, 3 * n + 3 * nnz, "spmv dynamic, 64: the same accesses");
            is_int(st->thread[0].iterations + st->thread[1].iterations, n,
                   "spmv dynamic, 64: every row once");
            is_int(st->thread[0].chunks + st->thread[1].chunks, (n + 63) / 64,
                   "spmv dynamic, 64: ceil(n / 64) chunks");
        } else {
            ok(0, "spmv dynamic runs");
        }
    }
    augur_interp_free(in);
    augur_bound_free(b);
    augur_skel_free(s);
    augur_csr_release(&a);
    augur_dataset_free(ds);
}

static void test_fv(void)
{
    struct augur_skel *s = parse_c("kernels/fv/ref.c", "fv_ell_ref", "idx=ell.idx,a=ell.val");
    struct augur_dataset *ds = load("mtx/walshaw_wing.mtx");
    struct augur_bound *b = NULL;
    struct augur_interp *in = NULL;
    struct augur_diag d;

    augur_diag_init(&d);
    if (s && ds && augur_bound_new(ds, NULL, &b, &d) == 0 &&
        augur_interp_new_bound(s, s->kernels[0], b, NULL, &in, &d) == 0 &&
        augur_interp_run(in, &d) == 0) {
        double n = 0, w = 0;

        augur_bound_scalar(b, "n", &n, NULL);
        augur_bound_scalar(b, "ell.width", &w, NULL);
        is_int(w, 4, "fv: the ELL width of walshaw_wing is its largest degree, 4");
        is_int(augur_interp_stats(in)->events, 2 * n + 3 * n * w, "fv: 2 n + 3 n width accesses");
    } else {
        char msg[1200];

        augur_diag_format(&d, msg, sizeof(msg));
        ok(0, "fv runs");
        tap_diag("%s", msg);
    }
    augur_interp_free(in);
    in = NULL;
    augur_skel_free(s);
    /* Langguth et al. JPDC'15 Fig. 5: per-thread private copies (local arrays made by each thread)
     */
    s = parse_c("kernels/fv/omp.c", "fv_ell_omp_private", "idx=ell.idx,a=ell.val");
    if (s && b) {
        struct augur_interp_opts o;
        struct rec r = { 0 };

        memset(&o, 0, sizeof(o));
        o.nthreads = 2;
        o.probs = "56=0"; /* the malloc failure test */
        if (augur_interp_new_bound(s, s->kernels[0], b, &o, &in, &d) == 0) {
            double n = 0, w = 0;
            uint64_t loc0 = 0, loc1 = 0;

            augur_bound_scalar(b, "n", &n, NULL);
            augur_bound_scalar(b, "ell.width", &w, NULL);
            augur_interp_subscribe(in, on_rec, &r);
            is_int(augur_interp_run(in, &d), 0, "fv private copies: runs on 2 threads");
            is_int(augur_interp_stats(in)->events, 4 * n * w + n * (2 + 3 * w),
                   "fv private copies: 4 n w copy accesses, then n (2 + 3 w)");
            is_int(augur_interp_stats(in)->thread[0].events,
                   augur_interp_stats(in)->thread[1].events, "fv private copies: equal halves");
            for (size_t i = 0; i < r.n; i++)
                if (strcmp(s->kernels[0]->u.kernel.arrays[r.ev[i].array].name, "loc_a") == 0) {
                    if (r.ev[i].thread == 0 && !loc0)
                        loc0 = r.ev[i].addr - r.ev[i].index * 8;
                    if (r.ev[i].thread == 1 && !loc1)
                        loc1 = r.ev[i].addr - r.ev[i].index * 8;
                }
            ok(loc0 && loc1 && loc0 != loc1, "fv private copies: each thread has its own loc_a");
        } else {
            ok(0, "fv private copies binds");
        }
        free(r.ev);
    }
    augur_interp_free(in);
    augur_bound_free(b);
    augur_skel_free(s);
    augur_dataset_free(ds);
}

/* A whole topology-driven BFS in the interpreter gives the reference kernel's levels. */
static void test_bfs(void)
{
    struct augur_dataset *ds = load("mtx/walshaw_4elt.mtx");
    struct augur_diag d;
    struct augur_csr a;
    struct augur_bound_opts bo;
    struct augur_bound *b = NULL;

    augur_diag_init(&d);
    memset(&bo, 0, sizeof(bo));
    bo.bfs_source_maxdeg = true;
    if (!ds || augur_dataset_csr(ds, true, &a, &d) != 0 || augur_bound_new(ds, &bo, &b, &d) != 0) {
        ok(0, "bfs: dataset");
        augur_dataset_free(ds);
        return;
    }
    for (int omp = 0; omp < 2; omp++) {
        struct augur_skel *s = omp ? parse_c("kernels/bfs/omp.c", "bfs_topo_round_omp", NULL)
                                   : parse_c("kernels/bfs/ref.c", "bfs_topo_round_ref", NULL);
        struct augur_interp *in = NULL;
        struct augur_interp_opts o;
        int32_t *level = augur_calloc(a.nrows, sizeof(int32_t));
        uint32_t src = augur_bound_bfs_source(b), rounds = 0;
        int32_t depth = bfs_topo_ref(a.nrows, a.rowptr, a.col, src, level);
        uint64_t ext = 0;
        const int32_t *mine;

        memset(&o, 0, sizeof(o));
        o.nthreads = omp ? 2 : 1;
        if (s && augur_interp_new_bound(s, s->kernels[0], b, &o, &in, &d) == 0 &&
            augur_interp_run_rounds(in, 0, &rounds, &d) == 0) {
            mine = augur_interp_array_data(in, 2, &ext);
            is_int(rounds, depth + 1,
                   omp ? "bfs omp: the reference's rounds, and the empty one"
                       : "bfs: the reference's rounds, and the empty one");
            ok(mine && ext == a.nrows && memcmp(mine, level, a.nrows * sizeof(int32_t)) == 0,
               omp ? "bfs omp, 2 threads: every node's level equals the compiled reference's"
                   : "bfs: every node's level equals the compiled reference's");
        } else {
            char msg[1200];

            augur_diag_format(&d, msg, sizeof(msg));
            ok(0, "bfs runs");
            tap_diag("%s", msg);
        }
        augur_free(level);
        augur_interp_free(in);
        augur_skel_free(s);
    }
    augur_bound_free(b);
    augur_csr_release(&a);
    augur_dataset_free(ds);
}

/* The index of the kernel's array called name, or UINT32_MAX. */
static uint32_t array_index(const struct augur_node *k, const char *name)
{
    for (uint32_t a = 0; a < k->u.kernel.narrays; a++)
        if (strcmp(k->u.kernel.arrays[a].name, name) == 0)
            return a;
    return UINT32_MAX;
}

/*
 * The data-driven BFS with the bindings inference gives it (no --bind): src
 * is node 0, queue a worklist of n nodes, level the BFS levels. On polblogs
 * (1490 nodes, 1222 reachable from node 0) every reached node is queued and
 * read back once, and its row is scanned once.
 */
static void test_bfs_frontier(void)
{
    struct augur_dataset *ds = load("mtx/polblogs.mtx");
    struct augur_skel *s = parse_c("kernels/bfs/ref.c", "bfs_frontier_ref", NULL);
    struct augur_diag d;
    struct augur_csr a;
    struct augur_bound *b = NULL;
    struct augur_interp *in = NULL;
    const struct augur_node *k;
    int32_t *level = NULL;
    uint32_t *queue = NULL, lv;
    uint64_t reached = 0, edges = 0, ext = 0;

    augur_diag_init(&d);
    if (!s || !ds || augur_dataset_csr(ds, true, &a, &d) != 0) {
        ok(0, "bfs frontier: front end and dataset");
        augur_skel_free(s);
        augur_dataset_free(ds);
        return;
    }
    k = s->kernels[0];
    lv = array_index(k, "level");
    for (uint32_t i = 0; i < k->u.kernel.nsyms; i++)
        if (strcmp(k->u.kernel.syms[i].name, "src") == 0)
            is_str(k->u.kernel.syms[i].bind, "=0", "bfs frontier: src is inferred as node 0");
    is_str(k->u.kernel.arrays[array_index(k, "queue")].bind, "vec(n)",
           "bfs frontier: queue is inferred as a worklist of n nodes");
    is_str(k->u.kernel.arrays[lv].bind, "bfs.level", "bfs frontier: level is inferred as levels");
    level = augur_calloc(a.nrows, sizeof(*level));
    queue = augur_calloc(a.nrows, sizeof(*queue));
    bfs_frontier_ref(a.nrows, a.rowptr, a.col, 0, level, queue);
    for (uint32_t v = 0; v < a.nrows; v++)
        if (level[v] != BFS_INF) {
            reached++;
            edges += a.rowptr[v + 1] - a.rowptr[v];
        }
    is_int(reached, 1222, "bfs frontier: the compiled reference reaches 1222 nodes of polblogs");
    if (augur_bound_new(ds, NULL, &b, &d) == 0 &&
        augur_interp_new_bound(s, k, b, NULL, &in, &d) == 0 && augur_interp_run(in, &d) == 0) {
        const int32_t *mine = augur_interp_array_data(in, lv, &ext);

        is_int(
            augur_interp_node_count(in, access_node(k, s, "queue", AUGUR_ACCESS_WRITE, 0), -1) +
                augur_interp_node_count(in, access_node(k, s, "queue", AUGUR_ACCESS_WRITE, 1), -1),
            reached, "bfs frontier: every reached node is queued once");
        is_int(augur_interp_node_count(in, access_node(k, s, "queue", AUGUR_ACCESS_READ, 0), -1),
               reached, "bfs frontier: every queued node is read back once");
        is_int(augur_interp_node_count(in, access_node(k, s, "col", AUGUR_ACCESS_READ, 0), -1),
               edges, "bfs frontier: the rows of the reached nodes are scanned once");
        ok(mine && ext == a.nrows && memcmp(mine, level, a.nrows * sizeof(int32_t)) == 0,
           "bfs frontier: every node's level equals the compiled reference's");
    } else {
        char msg[1200];

        augur_diag_format(&d, msg, sizeof(msg));
        ok(0, "bfs frontier runs with inferred bindings");
        tap_diag("%s", msg);
    }
    augur_free(level);
    augur_free(queue);
    augur_interp_free(in);
    augur_bound_free(b);
    augur_skel_free(s);
    augur_csr_release(&a);
    augur_dataset_free(ds);
}

/*
 * The OpenMP data-driven BFS claims a node with __atomic_compare_exchange_n:
 * the front end models it as an atomic update that stores the round when
 * the level is still the unvisited value, so inference finds the level
 * array, and two simulated threads never claim a node twice: every reached
 * node of polblogs enters next[] once, and the levels equal the compiled
 * reference's.
 */
static void test_bfs_frontier_omp(void)
{
    struct augur_dataset *ds = load("mtx/polblogs.mtx");
    struct augur_skel *s = parse_c("kernels/bfs/omp.c", "bfs_frontier_omp", NULL);
    struct augur_diag d;
    struct augur_csr a;
    struct augur_bound *b = NULL;
    struct augur_interp *in = NULL;
    struct augur_interp_opts o;
    const struct augur_node *k;
    int32_t *level = NULL;
    uint32_t *queue = NULL, lv;
    uint64_t reached = 0, ext = 0;

    augur_diag_init(&d);
    if (!s || !ds || augur_dataset_csr(ds, true, &a, &d) != 0) {
        ok(0, "bfs frontier omp: front end and dataset");
        augur_skel_free(s);
        augur_dataset_free(ds);
        return;
    }
    k = s->kernels[0];
    lv = array_index(k, "level");
    is_str(k->u.kernel.arrays[lv].bind, "bfs.level",
           "bfs frontier omp: level is inferred as levels (claimed by compare-and-swap)");
    level = augur_calloc(a.nrows, sizeof(*level));
    queue = augur_calloc(a.nrows, sizeof(*queue));
    bfs_frontier_ref(a.nrows, a.rowptr, a.col, 0, level, queue);
    for (uint32_t v = 0; v < a.nrows; v++)
        reached += level[v] != BFS_INF;
    memset(&o, 0, sizeof(o));
    o.nthreads = 2;
    if (augur_bound_new(ds, NULL, &b, &d) == 0 &&
        augur_interp_new_bound(s, k, b, &o, &in, &d) == 0 && augur_interp_run(in, &d) == 0) {
        const int32_t *mine = augur_interp_array_data(in, lv, &ext);

        is_int(augur_interp_node_count(in, access_node(k, s, "next", AUGUR_ACCESS_WRITE, 0), -1),
               reached - 1,
               "bfs frontier omp, 2 threads: every reached node but src is claimed once");
        ok(mine && ext == a.nrows && memcmp(mine, level, a.nrows * sizeof(int32_t)) == 0,
           "bfs frontier omp, 2 threads: every node's level equals the compiled reference's");
    } else {
        char msg[1200];

        augur_diag_format(&d, msg, sizeof(msg));
        ok(0, "bfs frontier omp runs with inferred bindings");
        tap_diag("%s", msg);
    }
    augur_free(level);
    augur_free(queue);
    augur_interp_free(in);
    augur_bound_free(b);
    augur_skel_free(s);
    augur_csr_release(&a);
    augur_dataset_free(ds);
}

/*
 * An array-section reduction: y[col[j]] += 1 over 10 rows of 3 entries
 * into y[0:8] (8 columns). At the end of the loop each thread reads and
 * writes every element of the section once (libgomp's merge), after the
 * loop's own 30 col reads and 30 updates of y (60 events).
 */
#define RED_SKEL                                                                  \
    "augur-skeleton 1\n"                                                          \
    "kernel colsum @\"r.c\":1:1\n"                                                \
    "  param n i32 bind n (cli)\n"                                                \
    "  param m i32 bind m (cli)\n"                                                \
    "  local i i32\n"                                                             \
    "  local j i32\n"                                                             \
    "  array rowptr u64[] global param bind csr.rowptr (cli)\n"                   \
    "  array col u32[] global param bind csr.col (cli)\n"                         \
    "  array y f64[] global param bind vec(m) (cli)\n"                            \
    "  for i = 0; i < n; i += 1 @2:5 parallel omp(parallel for schedule(static) " \
    "reduction(+: %s))\n"                                                         \
    "    for j = rowptr[i]; j < rowptr[i + 1]; j += 1 @3:9\n"                     \
    "      load col[j] @4:15\n"                                                   \
    "      update y[col[j]] @4:13 indirect(col)\n"

static uint32_t col_mod8(uint32_t i, uint32_t k)
{
    return (3 * i + k) % 8;
}

static void test_reduction(void)
{
    static const uint32_t len10[10] = { 3, 3, 3, 3, 3, 3, 3, 3, 3, 3 };
    static const char *const sections[] = { "y[:m]", "y[2:4]", "y" };
    static const uint64_t elems[] = { 8, 4, 8 };
    struct augur_csr a;

    make_csr(&a, 10, 8, len10, col_mod8);
    for (unsigned v = 0; v < 3; v++)
        for (unsigned T = 1; T <= 2; T++) {
            struct augur_skel *s;
            struct augur_bound *b = NULL;
            struct augur_interp *in = NULL;
            struct augur_interp_opts o;
            struct augur_diag d;
            struct rec r = { 0 };
            char text[2048], name[160];
            uint64_t reads[2] = { 0, 0 }, writes[2] = { 0, 0 };
            bool section = true;
            int rc;

            snprintf(text, sizeof(text), RED_SKEL, sections[v]);
            s = parse(text);
            memset(&o, 0, sizeof(o));
            o.nthreads = T;
            in = s ? start(s, &a, &o, &b, &rc, &d) : NULL;
            snprintf(name, sizeof(name), "reduction(+: %s), %u thread%s", sections[v], T,
                     T > 1 ? "s" : "");
            if (!in || augur_interp_subscribe(in, on_rec, &r) != 0 ||
                augur_interp_run(in, &d) != 0) {
                ok(0, name);
                augur_interp_free(in);
                augur_bound_free(b);
                augur_skel_free(s);
                continue;
            }
            /* the y events after each thread's last col read are the merge */
            for (size_t i = 0; i < r.n; i++) {
                const struct augur_event *e = &r.ev[i];

                if (e->array != 2 || e->thread >= 2)
                    continue;
                if (e->flags & AUGUR_EV_WRITE)
                    writes[e->thread]++;
                else
                    reads[e->thread]++;
            }
            /* each thread's last 2 x elements y events: read, write of lo, lo + 1, ... */
            for (unsigned t = 0; t < T; t++) {
                uint64_t ny = reads[t] + writes[t], k = 0;

                for (size_t i = 0; i < r.n; i++) {
                    const struct augur_event *e = &r.ev[i];

                    if (e->thread != t || e->array != 2 || ny-- > 2 * elems[v])
                        continue;
                    section &= e->index == (v == 1 ? 2 : 0) + k / 2 &&
                               ((e->flags & AUGUR_EV_WRITE) != 0) == (k % 2 == 1);
                    k++;
                }
                section &= k == 2 * elems[v];
            }
            is_int(reads[0] + reads[1], 30 + T * elems[v], name);
            is_int(writes[0] + writes[1], 30 + T * elems[v], "  ... and as many writes");
            is_int(augur_interp_stats(in)->events, 90 + 2 * T * elems[v],
                   "  ... 90 loop events and 2 per element and thread");
            ok(section, "  ... each thread merges the section in element order after its loop");
            is_int(augur_interp_node_count(
                       in, access_node(s->kernels[0], s, "y", AUGUR_ACCESS_RMW, 0), -1),
                   30 + T * elems[v], "  ... counted on the loop's update of y");
            augur_interp_free(in);
            augur_bound_free(b);
            augur_skel_free(s);
            free(r.ev);
        }
    {
        /* a section beyond the array: a run-time error at the loop, no access made */
        struct augur_skel *s;
        struct augur_bound *b = NULL;
        struct augur_interp *in;
        struct augur_diag d;
        char text[2048];
        int rc;

        snprintf(text, sizeof(text), RED_SKEL, "y[4:m]");
        s = parse(text);
        in = s ? start(s, &a, NULL, &b, &rc, &d) : NULL;
        ok(in && augur_interp_run(in, &d) == AUGUR_ERUN && d.line == 2 &&
               strstr(d.msg, "reduction section of 'y' [4:8] is beyond its 8 elements"),
           "reduction(+: y[4:m]) with 8 elements: an error naming the loop's line");
        augur_interp_free(in);
        augur_bound_free(b);
        augur_skel_free(s);
    }
    augur_csr_release(&a);
}

/* ---- caches by hand ---------------------------------------------------------------------- */

#define TWO_PASS_SKEL                                  \
    "augur-skeleton 1\n"                               \
    "kernel two @\"c.c\":1:1\n"                        \
    "  param n i32 bind n (cli)\n"                     \
    "  local t i32\n"                                  \
    "  local i i32\n"                                  \
    "  array x f64[] global param bind vec(n) (cli)\n" \
    "  array y f64[] global param bind vec(n) (cli)\n" \
    "  for t = 0; t < 2; t += 1 @2:3\n"                \
    "    for i = 0; i < n; i += 1 @3:5\n"              \
    "      load x[i] @4:7\n"                           \
    "      %s\n"

/* Misses at L1 of one simulation; writebacks too. */
static int sim_misses(const char *extra, uint32_t n, uint64_t size, uint32_t ways, uint64_t *misses,
                      uint64_t *wb)
{
    static const uint32_t ones[64] = { 0 };
    struct augur_csr a;
    struct augur_skel *s;
    struct augur_bound *b = NULL;
    struct augur_cache_config cfg;
    struct augur_sim_opts so;
    struct augur_sim_profile *p = NULL;
    struct augur_diag d;
    char text[2048];
    int rc;

    make_csr(&a, n, n, ones, col_zero);
    snprintf(text, sizeof(text), TWO_PASS_SKEL, extra);
    s = parse(text);
    memset(&cfg, 0, sizeof(cfg));
    cfg.nlevels = 1;
    cfg.level[0].size = size;
    cfg.level[0].line = 64;
    cfg.level[0].ways = ways;
    snprintf(cfg.level[0].name, sizeof(cfg.level[0].name), "L1");
    memset(&so, 0, sizeof(so));
    so.interp.layout = AUGUR_LAYOUT_ALIGN;
    so.interp.align = 4096;
    augur_diag_init(&d);
    rc = augur_bound_from_csr(&a, NULL, &b, &d);
    if (!rc)
        rc = augur_simulate(s, NULL, b, &cfg, &so, &p, NULL, &d);
    if (!rc) {
        *misses = p->level[0].misses;
        *wb = p->level[0].writebacks;
    }
    augur_sim_profile_free(p);
    augur_bound_free(b);
    augur_skel_free(s);
    augur_csr_release(&a);
    return rc;
}

static void test_hand_misses(void)
{
    uint64_t m = 0, wb = 0;

    /* x: 64 doubles, 8 lines, read twice */
    is_int(sim_misses("ops iadd.i32=1", 64, 256, 1, &m, &wb), 0, "tiny: runs");
    is_int(m, 16, "direct-mapped 256 B, 8 lines read twice: 16 capacity misses");
    sim_misses("ops iadd.i32=1", 64, 512, 2, &m, &wb);
    is_int(m, 8, "2-way 512 B: the 8 lines fit, 8 cold misses");
    sim_misses("ops iadd.i32=1", 64, 256, 0, &m, &wb);
    is_int(m, 16, "fully associative 4 lines, a cyclic 8-line stream: LRU misses all 16");
    /* x and y 4096 bytes apart (the same sets), read in turn */
    sim_misses("load y[i] @5:7", 32, 256, 1, &m, &wb);
    is_int(m, 128, "direct-mapped: x[i] and y[i] on the same set conflict on every access");
    sim_misses("load y[i] @5:7", 32, 512, 2, &m, &wb);
    is_int(m, 8, "2-way: x and y share the sets, 8 cold misses");
    /* stores: write-allocate, written back at the end */
    sim_misses("store y[i] @5:7", 32, 512, 2, &m, &wb);
    is_int(m, 8, "stores: 8 cold misses (write-allocate)");
    is_int(wb, 4, "stores: the 4 dirty lines of y written back at the end");
}

/* ---- layout, vectors, probabilities, CUDA, traces
 * ------------------------------------------------ */

static void test_layout(void)
{
    static const char *text = "augur-skeleton 1\n"
                              "kernel lay @\"l.c\":1:1\n"
                              "  param n i32 bind n (cli)\n"
                              "  local i i32\n"
                              "  array x f64[] global param bind vec(n) (cli)\n"
                              "  array y f64[] global param bind vec(n) (cli)\n"
                              "  array z f64[] global param bind vec(4096*n) (cli)\n"
                              "  array w i32[] global param bind vec(n) (cli)\n"
                              "  for i = 0; i < n; i += 1 @2:3\n"
                              "    load x[i] @3:5\n";
    static const uint32_t len[32] = { 0 };
    struct augur_csr a;
    struct augur_skel *s = parse(text);
    struct augur_bound *b;
    struct augur_interp *in;
    struct augur_interp_array x, y, z, w;
    struct augur_diag d;
    int rc;

    make_csr(&a, 32, 32, len, col_zero);
    in = start(s, &a, NULL, &b, &rc, &d);
    if (in) {
        augur_interp_array(in, 0, &x);
        augur_interp_array(in, 1, &y);
        augur_interp_array(in, 2, &z);
        augur_interp_array(in, 3, &w);
        is_int(x.base, 0x1000010, "malloc layout: the first small array 16 bytes into the heap");
        is_int(y.base, 0x1000010 + 272, "the next one a 272-byte chunk later (256 + 8, by 16)");
        is_int(z.base, UINT64_C(0x7f0000000010), "a 1 MiB array: a fresh mapping plus 16 bytes");
        is_int(w.base, 0x1000010 + 2 * 272, "small arrays keep filling the heap");
        is_int(z.extent, 4096 * 32, "vec(4096*n) has 4096 n elements");
    } else {
        ok(0, "layout kernel binds");
    }
    augur_interp_free(in);
    augur_bound_free(b);
    augur_skel_free(s);
    augur_csr_release(&a);
}

/*
 * Requests more than two lines from every stream the thread touched last
 * (16 of them) are counted apart as far: a stream's first request, a
 * step of 8 lines, and the columns of a column-major array once there are
 * more of them than the table holds.
 */
/*
 * Simulates text on a 32-row matrix (row lengths len, columns colf) through
 * one 4 KiB L1 of 64-byte lines; NULL (and a diagnostic) when it fails.
 */
static struct augur_sim_profile *simulate_l1(const char *text, const uint32_t *len,
                                             uint32_t (*colf)(uint32_t i, uint32_t k))
{
    struct augur_csr a;
    struct augur_skel *s = parse(text);
    struct augur_bound *b = NULL;
    struct augur_cache_config cfg;
    struct augur_sim_opts so;
    struct augur_sim_profile *p = NULL;
    struct augur_diag d;

    make_csr(&a, 32, 32, len, colf);
    memset(&cfg, 0, sizeof(cfg));
    cfg.nlevels = 1;
    cfg.level[0] = (struct augur_cache_level_config){ .name = "L1", .size = 4096, .line = 64 };
    memset(&so, 0, sizeof(so));
    so.streams = 16; /* the defaults' prefetcher: 16 streams, 2 lines of reach */
    so.stream_reach = 2;
    augur_diag_init(&d);
    if (!s || augur_bound_from_csr(&a, NULL, &b, &d) != 0 ||
        augur_simulate(s, NULL, b, &cfg, &so, &p, NULL, &d) != 0) {
        diag("%s", d.msg);
        p = NULL;
    }
    augur_bound_free(b);
    augur_skel_free(s);
    augur_csr_release(&a);
    return p;
}

static void far_counts(const char *text, unsigned naccesses, uint64_t *far, uint64_t *all,
                       uint64_t *far_misses)
{
    static const uint32_t len[32] = { 0 };
    struct augur_sim_profile *p = simulate_l1(text, len, col_zero);

    if (p && p->far_measured && p->naccesses == naccesses) {
        for (unsigned i = 0; i < naccesses; i++) {
            far[i] = p->accesses[i].far[0].accesses;
            all[i] = p->accesses[i].level[0].accesses;
            far_misses[i] = p->accesses[i].far[0].misses;
        }
    } else {
        memset(far, 0xff, naccesses * sizeof(*far));
    }
    augur_sim_profile_free(p);
}

static void test_far_requests(void)
{
    static const char *steps = "augur-skeleton 1\n"
                               "kernel far @\"f.c\":1:1\n"
                               "  param n i32 bind n (cli)\n"
                               "  local i i32\n"
                               "  array x f64[] global param bind vec(n) (cli)\n"
                               "  array z f64[] global param bind vec(4096*n) (cli)\n"
                               "  for i = 0; i < n; i += 1 @2:3\n"
                               "    load x[i] @3:5\n"
                               "    load z[64 * i] @4:5\n"
                               "    load z[64 * i + 16] @5:5\n";
    /* k columns of 4096 elements, read row by row (a column-major ELLPACK's) */
#define COLUMNS(k)                                          \
    "augur-skeleton 1\n"                                    \
    "kernel cols @\"c.c\":1:1\n"                            \
    "  param n i32 bind n (cli)\n"                          \
    "  local i i32\n"                                       \
    "  local k i32\n"                                       \
    "  array z f64[] global param bind vec(4096*n) (cli)\n" \
    "  for i = 0; i < n; i += 1 @2:3\n"                     \
    "    for k = 0; k < " #k "; k += 1 @3:5\n"              \
    "      load z[k * 4096 + i] @4:7\n"
    uint64_t far[3], all[3], miss[3];

    far_counts(steps, 3, far, all, miss);
    is_int(far[0], 1, "x[i]: only its first request far");
    is_int(all[0], 32, "x[i]: all 32 counted");
    /* z[64 i]: 512 bytes (8 lines) a step; z[64 i + 16]: 2 lines from z[64 i] */
    is_int(far[1], 32, "z[64 i]: every request far");
    is_int(far[2], 0, "z[64 i + 16]: near the stream z[64 i] just opened");
    is_int(miss[1], 32, "z[64 i]: the far ones miss");
    far_counts(COLUMNS(8), 1, far, all, miss);
    is_int(all[0], 256, "8 columns: 256 requests");
    is_int(far[0], 8, "8 columns: each one's first far, then followed");
    far_counts(COLUMNS(20), 1, far, all, miss);
    is_int(far[0], 640, "20 columns: all far (the table follows 16 streams)");
#undef COLUMNS
}

static uint32_t col_row(uint32_t i, uint32_t k)
{
    return i + k;
}

/*
 * The miss epochs: 32 gathers 8 lines apart, each a cold miss, every other
 * access of the thread (c[i] between them). A window of W accesses holds
 * W / 2 of them, so the epochs number 64 / W, and one from W = 64 on.
 */
static void test_miss_epochs(void)
{
    static const char *text = "augur-skeleton 1\n"
                              "kernel g @\"g.c\":1:1\n"
                              "  param n i32 bind n (cli)\n"
                              "  local i i32\n"
                              "  array c u32[] global param bind csr.col (cli)\n"
                              "  array x f64[] global param bind vec(4096*n) (cli)\n"
                              "  for i = 0; i < n; i += 1 @2:3\n"
                              "    load c[i] @3:5\n"
                              "    load x[64 * c[i]] @3:5 indirect(c)\n";
    static const uint32_t len[32] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                      1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    static const uint64_t want[AUGUR_WORK_NWINDOWS] = { 16, 8, 4, 2, 1, 1, 1, 1, 1 };
    struct augur_sim_profile *p = simulate_l1(text, len, col_row);

    if (!ok(p != NULL, "gather kernel simulates"))
        return;
    ok(p->epochs_measured, "epochs: counted");
    is_int(p->miss_reads[1], 32, "epochs: the 32 gathers wait for memory, not c[i]'s");
    for (unsigned k = 0; k < AUGUR_WORK_NWINDOWS; k++) {
        char name[64];

        snprintf(name, sizeof(name), "epochs: a window of %u accesses", AUGUR_WORK_WINDOW(k));
        is_int(p->miss_epochs[1][k], want[k], name);
    }
    is_int(p->miss_reads[0], 0, "epochs: none counted for L1");
    augur_sim_profile_free(p);
}

static void test_vectors(void)
{
    static const char *text = "augur-skeleton 1\n"
                              "kernel v @\"v.c\":1:1\n"
                              "  param n i32 bind n (cli)\n"
                              "  local i i32\n"
                              "  builtin lane i32\n"
                              "  array x f64[] global param bind vec(n) (cli)\n"
                              "  for i = 0; i < n / 8; i += 1 @2:3\n"
                              "    load x[8 * i + lane] @3:5 x8\n"
                              "    load x[8 * i + lane] @4:5 x8 mask(lane < 4)\n";
    static const uint32_t len[4096] = { 0 };
    struct augur_csr a;
    struct augur_skel *s = parse(text);
    struct augur_bound *b = NULL;
    struct augur_cache_config cfg;
    struct augur_sim_opts so;
    struct augur_sim_profile *p = NULL;
    struct augur_diag d;

    make_csr(&a, 4096, 4096, len, col_zero);
    memset(&cfg, 0, sizeof(cfg));
    cfg.nlevels = 1;
    cfg.level[0].size = 1 << 20;
    cfg.level[0].line = 64;
    cfg.level[0].ways = 8;
    memset(&so, 0, sizeof(so));
    so.interp.layout = AUGUR_LAYOUT_ALIGN;
    so.interp.align = 64;
    augur_diag_init(&d);
    if (augur_bound_from_csr(&a, NULL, &b, &d) == 0 &&
        augur_simulate(s, NULL, b, &cfg, &so, &p, NULL, &d) == 0) {
        is_int(p->events, 512 * 8 + 512 * 4, "vectors: an event per active lane");
        is_int(p->level[0].accesses, 1024,
               "vectors: one cache request per aligned 8-lane load (and per masked half)");
        is_int(p->level[0].misses, 512, "vectors: one miss per line");
    } else {
        ok(0, "vector kernel runs");
    }
    augur_sim_profile_free(p);
    augur_bound_free(b);
    augur_skel_free(s);
    augur_csr_release(&a);
}

static void test_prob(void)
{
    static const char *text = "augur-skeleton 1\n"
                              "kernel p @\"p.c\":1:1\n"
                              "  param n i32 bind n (cli)\n"
                              "  local i i32\n"
                              "  array x f64[] global param bind vec(n) (cli)\n"
                              "  for i = 0; i < n; i += 1 @2:3\n"
                              "    if opaque(\"rand\") @3:5 prob 0.25\n"
                              "      load x[i] @4:7\n"
                              "    if opaque(\"other\") @5:5\n"
                              "      load x[i] @6:7\n";
    static uint32_t len[10000];
    struct augur_csr a;
    struct augur_skel *s = parse(text);
    struct augur_bound *b;
    struct augur_interp *in;
    struct augur_interp_opts o;
    struct augur_diag d;
    int rc;

    make_csr(&a, 10000, 10000, len, col_zero);
    memset(&o, 0, sizeof(o));
    o.seed = 7;
    o.on_warn = on_warn;
    nwarn = 0;
    in = start(s, &a, &o, &b, &rc, &d);
    if (in && augur_interp_run(in, &d) == 0) {
        uint64_t c1 = augur_interp_node_count(in, 3, -1), c2 = augur_interp_node_count(in, 5, -1);

        ok(c1 > 2300 && c1 < 2700,
           "prob 0.25: about a quarter of 10000 iterations take the branch");
        ok(c2 > 4700 && c2 < 5300, "no probability: one half, the default");
        is_int(nwarn, 1, "a warning for the branch without a probability");
    } else {
        ok(0, "prob kernel runs");
    }
    augur_interp_free(in);
    augur_bound_free(b);
    augur_skel_free(s);
    augur_csr_release(&a);
}

static void test_cuda(void)
{
    static const char *text = "augur-skeleton 1\n"
                              "kernel k @\"k.cu\":1:1 cuda launch((n + 63) / 64, 64)\n"
                              "  param n i32 bind n (cli)\n"
                              "  builtin threadIdx.x u32\n"
                              "  builtin blockIdx.x u32\n"
                              "  builtin blockDim.x u32\n"
                              "  local i u32\n"
                              "  local t u32\n"
                              "  array I u32[] global param bind csr.col (cli)\n"
                              "  array X f64[] global param bind vec(n) (cli)\n"
                              "  array S u32[64] shared\n"
                              "  set t = threadIdx.x @2:3\n"
                              "  set i = blockIdx.x * blockDim.x + t @3:3\n"
                              "  if i < (u32)n @4:3\n"
                              "    load I[i] @5:5\n"
                              "    store S[t] = I[i] @5:5\n"
                              "  sync threads @6:3\n"
                              "  if i < (u32)n @7:3\n"
                              "    load X[S[(t + 1) % 64]] @8:5 indirect(S)\n";
    static uint32_t len[100];
    struct augur_csr a;
    struct augur_skel *s = parse(text);
    struct augur_bound *b;
    struct augur_interp *in;
    struct augur_interp_opts o;
    struct augur_diag d;
    struct rec r = { 0 };
    int rc;

    for (int i = 0; i < 100; i++)
        len[i] = 1;
    make_csr(&a, 100, 100, len, col_seven);
    memset(&o, 0, sizeof(o));
    o.sms = 2;
    in = start(s, &a, &o, &b, &rc, &d);
    if (in) {
        bool vals = true, warps = true;
        size_t nx = 0;

        augur_interp_subscribe(in, on_rec, &r);
        is_int(augur_interp_run(in, &d), 0, "cuda: 2 blocks of 64 run");
        for (size_t i = 0; i < r.n; i++) {
            const struct augur_event *e = &r.ev[i];

            if (e->array != 1)
                continue;
            nx++;
            {
                /* thread i of block b read S[(t+1) % 64], written by thread b*64 + (t+1)%64 */
                uint32_t blk = e->warp / 2, t = (e->warp % 2) * 32 + e->lane;
                uint32_t src = blk * 64 + (t + 1) % 64;
                uint64_t want = src < 100 ? a.col[src] : 0;

                vals &= e->index == want;
                warps &= e->thread == blk % 2;
            }
        }
        is_int(nx, 100, "cuda: one X access per thread below n");
        ok(vals, "cuda: values staged in __shared__ before the barrier are seen after it");
        ok(warps, "cuda: block b runs on SM b mod 2, warps numbered by block");
        {
            /* each if: 4 warps reach it once; warp 3 (i = 96..127) splits 4 lanes from 28 */
            const struct augur_interp_stats *st = augur_interp_stats(in);
            const struct augur_node *k = augur_skel_find_kernel(s, "k");
            unsigned nif = 0, right = 0;
            uint64_t div;

            is_int(st->warp_branches, 8, "cuda: 2 ifs x 4 warps: 8 warp branch instructions");
            is_int(st->divergent_branches, 2, "cuda: the last warp's lanes split at both ifs");
            is_int(st->branch_lanes, 8 * 32, "cuda: every lane of the 4 warps reached both ifs");
            for (uint32_t id = k->id; id < s->nnodes && augur_node_kernel(s->nodes[id]) == k;
                 id++) {
                int64_t nb = augur_interp_node_warp_branches(in, id, &div);

                if (s->nodes[id]->kind != AUGUR_NODE_BRANCH)
                    continue;
                nif++;
                right += nb == 4 && div == 1;
            }
            ok(nif == 2 && right == 2, "cuda: per if node, 4 warp branches, 1 divergent");
            augur_interp_reset_stats(in);
            is_int(augur_interp_node_warp_branches(in, k->id + 1, &div), 0,
                   "cuda: reset empties the per-node warp branches");
            is_int(augur_interp_run(in, &d), 0, "cuda: a second launch runs");
            is_int(augur_interp_stats(in)->divergent_branches, 2,
                   "cuda: the second launch counts the same");
        }
    }
    augur_interp_free(in);
    augur_bound_free(b);
    augur_skel_free(s);
    augur_csr_release(&a);
    free(r.ev);
}

static void test_trace(void)
{
    static const uint32_t len[16] = { 0 };
    struct augur_csr a;
    struct augur_skel *s;
    struct augur_bound *b;
    struct augur_interp *in;
    struct augur_diag d;
    char path[] = "/tmp/t_interp_traceXXXXXX", text[1024];
    int rc, fd = mkstemp(path);

    if (fd < 0) {
        ok(0, "trace: temporary file");
        return;
    }
    close(fd);
    make_csr(&a, 16, 16, len, col_zero);
    snprintf(text, sizeof(text), TWO_PASS_SKEL, "store y[i] @5:7");
    s = parse(text);
    in = start(s, &a, NULL, &b, &rc, &d);
    if (in && augur_interp_trace_open(in, path, &d) == 0 && augur_interp_run(in, &d) == 0 &&
        augur_interp_trace_close(in, &d) == 0) {
        FILE *fp = fopen(path, "rb");
        unsigned char h[40], rec[24];
        uint32_t hb = 0;
        uint64_t nev = 0, addr = 0;
        struct augur_interp_array x;

        ok(fp && fread(h, 40, 1, fp) == 1, "trace: header");
        for (int i = 0; i < 4; i++)
            hb |= (uint32_t)h[12 + i] << (8 * i);
        for (int i = 0; i < 8; i++)
            nev |= (uint64_t)h[32 + i] << (8 * i);
        ok(memcmp(h, AUGUR_TRACE_MAGIC, 8) == 0 && h[8] == AUGUR_TRACE_VERSION && h[16] == 24,
           "trace: magic, version, 24-byte records");
        is_int(nev, 64, "trace: 64 events (16 loads and 16 stores, twice)");
        augur_interp_array(in, 0, &x);
        if (fp && fseek(fp, hb, SEEK_SET) == 0 && fread(rec, 24, 1, fp) == 1)
            for (int i = 0; i < 8; i++)
                addr |= (uint64_t)rec[i] << (8 * i);
        is_int(addr, x.base, "trace: the first record is x[0]");
        if (fp) {
            fseek(fp, 0, SEEK_END);
            is_int(ftell(fp), hb + 64 * 24, "trace: header then the records");
            fclose(fp);
        }
    } else {
        ok(0, "trace written");
    }
    unlink(path);
    augur_interp_free(in);
    augur_bound_free(b);
    augur_skel_free(s);
    augur_csr_release(&a);
}

/* ---- bad input
 * ------------------------------------------------------------------------------------ */

/* Binds and runs text over a CSR of n rows of one entry (column 39999 in row 0); returns rc. */
static int try_run(const char *text, const struct augur_interp_opts *o, struct augur_diag *d)
{
    static uint32_t len[40];
    struct augur_csr a;
    struct augur_skel *s = parse(text);
    struct augur_bound *b = NULL;
    struct augur_interp *in = NULL;
    int rc;

    for (int i = 0; i < 40; i++)
        len[i] = 1;
    make_csr(&a, 40, 40000, len, col_zero);
    a.col[0] = 39999;
    a.val[1] = 0.25;
    augur_diag_init(d);
    if (!s)
        return -100;
    rc = augur_bound_from_csr(&a, NULL, &b, d);
    if (!rc)
        rc = augur_interp_new_bound(s, NULL, b, o, &in, d);
    if (!rc)
        rc = augur_interp_run(in, d);
    augur_interp_free(in);
    augur_bound_free(b);
    augur_skel_free(s);
    augur_csr_release(&a);
    return rc;
}

static void expect(int rc, int want, const struct augur_diag *d, const char *needle, uint32_t line,
                   const char *name)
{
    char msg[1300];

    augur_diag_format(d, msg, sizeof(msg));
    if (!ok(rc == want && strstr(d->msg, needle) && d->line == line, name))
        tap_diag("rc %d, '%s'", rc, msg);
}

static void test_bad(void)
{
    struct augur_diag d;
    struct augur_interp_opts o;
    char text[2048];
    const char *head = "augur-skeleton 1\n"
                       "kernel bad @\"b.c\":1:1\n"
                       "  param n i32 bind n (cli)\n"
                       "  local i i32\n"
                       "  local q i32\n";

    snprintf(text, sizeof(text),
             "%s  array x f64[] global param bind vec(n) (cli)\n"
             "  for i = 0; i < n; i += 1 @2:3\n"
             "    load x[i + 1] @3:9\n",
             head);
    expect(try_run(text, NULL, &d), AUGUR_ERUN, &d, "index 40 is out of range for 'x' (40", 3,
           "index past the end: the access's line and the index");
    snprintf(text, sizeof(text),
             "%s  array x f64[] global param bind vec(n) (cli)\n"
             "  for i = 0; i < n; i += 1 @2:3\n"
             "    load x[x[i] > 1.0 ? 0 : i - 1] @7:9\n",
             head);
    expect(try_run(text, NULL, &d), AUGUR_ERUN, &d, "index -1 of 'x' is negative", 7,
           "negative index: named, never read");
    snprintf(text, sizeof(text),
             "%s  local c i32\n  array col i16[] global param @4:20 bind csr.col (cli)\n"
             "  for i = 0; i < n; i += 1 @2:3\n"
             "    set c = col[i] @3:9\n",
             head);
    expect(try_run(text, NULL, &d), AUGUR_EBIND, &d, "too narrow for 'csr.col'", 4,
           "an i16 column array for 40000 columns");
    snprintf(text, sizeof(text),
             "%s  array col f64[] global param @5:20 bind csr.col (cli)\n"
             "  for i = 0; i < n; i += 1 @2:3\n"
             "    load col[i] @3:9\n",
             head);
    expect(try_run(text, NULL, &d), AUGUR_EBIND, &d, "holds indices", 5,
           "a floating-point array bound to indices");
    snprintf(text, sizeof(text),
             "%s  array v i32[] global param @6:20 bind csr.val (cli)\n"
             "  for i = 0; i < n; i += 1 @2:3\n"
             "    set q = v[i] @3:9\n",
             head);
    expect(try_run(text, NULL, &d), AUGUR_EBIND, &d, "holds real values", 6,
           "an integer array bound to real values");
    snprintf(text, sizeof(text),
             "%s  array x f64[n + 5] global param @7:20 bind vec(n) (cli)\n"
             "  for i = 0; i < n; i += 1 @2:3\n"
             "    load x[i] @3:9\n",
             head);
    expect(try_run(text, NULL, &d), AUGUR_EBIND, &d, "declared with 45 elements", 7,
           "a declared extent beyond the bound data");
    snprintf(text, sizeof(text),
             "augur-skeleton 1\nkernel bad @\"b.c\":1:1\n  param n i8 @9:3 bind m (cli)\n"
             "  local i i32\n  for i = 0; i < n; i += 1 @2:3\n    ops iadd.i32=1\n");
    expect(try_run(text, NULL, &d), AUGUR_EBIND, &d, "cannot hold m = 40000", 9,
           "a scalar too wide for its parameter");
    snprintf(text, sizeof(text),
             "%s  array x f64[] global param @8:20\n"
             "  for i = 0; i < n; i += 1 @2:3\n"
             "    load x[i] @3:9\n",
             head);
    expect(try_run(text, NULL, &d), AUGUR_EBIND, &d, "not bound", 8, "an unbound array");
    snprintf(text, sizeof(text), "%s  param z i32 bind =0 (cli)\n  set q = n / z @4:7\n", head);
    expect(try_run(text, NULL, &d), AUGUR_ERUN, &d, "division by zero", 4, "division by zero");
    memset(&o, 0, sizeof(o));
    o.max_steps = 1000;
    snprintf(text, sizeof(text), "%s  while n > 0 @5:3\n    ops iadd.i32=1 @5:3\n", head);
    expect(try_run(text, &o, &d), AUGUR_ERUN, &d, "without finishing", 5,
           "a loop that never ends is stopped");
    o.max_steps = 0;
    o.nthreads = 2;
    snprintf(text, sizeof(text),
             "%s  builtin omp.thread i32\n  region parallel @6:3 omp(parallel)\n"
             "    if omp.thread == 0 @7:5\n      sync barrier @8:7\n",
             head);
    expect(try_run(text, &o, &d), AUGUR_ERUN, &d, "different barriers", 8,
           "a barrier only some threads reach");
    /* an absurd cache */
    {
        static const uint32_t len[4] = { 1, 1, 1, 1 };
        struct augur_csr a;
        struct augur_skel *s;
        struct augur_bound *b = NULL;
        struct augur_cache_config cfg;
        struct augur_sim_profile *p = NULL;
        int rc;

        make_csr(&a, 4, 4, len, col_zero);
        snprintf(text, sizeof(text), TWO_PASS_SKEL, "ops iadd.i32=1");
        s = parse(text);
        memset(&cfg, 0, sizeof(cfg));
        cfg.nlevels = 1;
        cfg.level[0].size = 1000;
        cfg.level[0].line = 48;
        augur_diag_init(&d);
        rc = augur_bound_from_csr(&a, NULL, &b, &d);
        if (!rc)
            rc = augur_simulate(s, NULL, b, &cfg, NULL, &p, NULL, &d);
        ok(rc == AUGUR_EINVAL && p == NULL, "a 48-byte cache line is refused");
        augur_bound_free(b);
        augur_skel_free(s);
        augur_csr_release(&a);
    }
}

/* ---- the layouts real libraries use: targets' contents ------------------------------------ */

/* Rows 0..4 of a 5 x 5 matrix: {0, 1}, {}, {0, 2, 4}, {3}, {1, 2, 4}. */
static const uint32_t lay_len[5] = { 2, 0, 3, 1, 3 };

static uint32_t lay_col(uint32_t i, uint32_t k)
{
    static const uint32_t cols[5][3] = { { 0, 1 }, { 0 }, { 0, 2, 4 }, { 3 }, { 1, 2, 4 } };

    return cols[i][k];
}

/* An undirected graph: 0-1, 0-2, 1-3, 2-3, 3-4 (levels from 0: 0 1 1 2 3). */
static const uint32_t bfs_len[5] = { 2, 2, 2, 3, 1 };

static uint32_t bfs_col(uint32_t i, uint32_t k)
{
    static const uint32_t cols[5][3] = { { 1, 2 }, { 0, 3 }, { 0, 3 }, { 1, 2, 4 }, { 3 } };

    return cols[i][k];
}

/*
 * Fills target into an array of elem (size bytes each) and reads it back as integers into out
 * (at most cap); returns the count, or -1 on an error (diag set).
 */
static int64_t fill_ints(struct augur_bound *b, const char *target, enum augur_type elem,
                         uint32_t size, int64_t round, int64_t *out, uint64_t cap,
                         struct augur_diag *d)
{
    struct augur_array decl = { 0 };
    uint64_t count = 0;
    uint8_t buf[1024];

    decl.name = "a";
    decl.elem = elem;
    decl.elem_size = size;
    augur_diag_init(d);
    if (augur_bound_array_count(b, target, &count, d) != 0 || count > cap ||
        count * size > sizeof(buf) ||
        augur_bound_array_fill(b, &decl, target, round, count, buf, d) != 0)
        return -1;
    for (uint64_t i = 0; i < count; i++) {
        switch (size) {
        case 1:
            out[i] = elem == AUGUR_T_I8 ? (int8_t)buf[i] : buf[i];
            break;
        case 4: {
            int32_t v;

            memcpy(&v, buf + 4 * i, 4);
            out[i] = v;
            break;
        }
        default:
            memcpy(&out[i], buf + 8 * i, 8);
            break;
        }
    }
    return (int64_t)count;
}

/* True when fill_ints of target gives exactly want[0 .. n). */
static bool ints_are(struct augur_bound *b, const char *target, enum augur_type elem, uint32_t size,
                     int64_t round, const int64_t *want, int64_t n)
{
    int64_t got[64];
    struct augur_diag d;
    int64_t c = fill_ints(b, target, elem, size, round, got, 64, &d);

    if (c != n) {
        tap_diag("%s: %" PRId64 " elements, expected %" PRId64 " (%s)", target, c, n,
                 c < 0 ? d.msg : "");
        return false;
    }
    for (int64_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            tap_diag("%s: element %" PRId64 " is %" PRId64 ", expected %" PRId64, target, i, got[i],
                     want[i]);
            return false;
        }
    return true;
}

static void test_layout_targets(void)
{
    struct augur_csr a, g;
    struct augur_bound *b = NULL, *b3 = NULL, *bg = NULL;
    struct augur_bound_opts o = { 0 };
    struct augur_diag d;
    double v = 0;

    make_csr(&a, 5, 5, lay_len, lay_col);
    make_csr(&g, 5, 5, bfs_len, bfs_col);
    augur_diag_init(&d);
    o.nthreads = 2;
    if (augur_bound_from_csr(&a, &o, &b, &d) != 0 || (o.nthreads = 3, 0) ||
        augur_bound_from_csr(&a, &o, &b3, &d) != 0 || augur_bound_from_csr(&g, NULL, &bg, &d)) {
        ok(0, "layout targets: bound data");
        goto out;
    }
    {
        static const int64_t rowpairs[] = { 0, 2, 2, 2, 2, 5, 5, 6, 6, 9 };
        static const int64_t perm[] = { 2, 4, 0, 3, 1 }, ptr[] = { 0, 4, 7, 9 };
        static const int64_t jcol[] = { 0, 1, 0, 3, 2, 2, 1, 4, 4 };
        static const int64_t cs[] = { 0, 12, 24 }, cl[] = { 3, 3 };
        static const int64_t scol[] = { 0, 1, 0, 3, 1, 1, 2, 3, 0, 1, 4, 3,
                                        1, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0 };

        ok(ints_are(b, "csr.rowpairs", AUGUR_T_I64, 8, 0, rowpairs, 10),
           "csr.rowpairs: rowptr[i] and rowptr[i + 1] side by side");
        ok(ints_are(b, "jds.perm", AUGUR_T_I32, 4, 0, perm, 5),
           "jds.perm: rows by decreasing length, ties in order");
        ok(ints_are(b, "jds.ptr", AUGUR_T_I32, 4, 0, ptr, 4),
           "jds.ptr: diagonals of 4, 3 and 2 entries");
        ok(ints_are(b, "jds.col", AUGUR_T_I32, 4, 0, jcol, 9),
           "jds.col: entry d of each row longer than d, in permuted order");
        ok(augur_bound_scalar(b, "jds.ndiag", &v, &d) == 0 && v == 3, "jds.ndiag: the longest row");
        ok(ints_are(b, "sell4.cs", AUGUR_T_I32, 4, 0, cs, 3), "sell4.cs: two chunks of 3 x 4");
        ok(ints_are(b, "sell4.cl", AUGUR_T_I32, 4, 0, cl, 2), "sell4.cl: each chunk's widest row");
        ok(ints_are(b, "sell4.col", AUGUR_T_I32, 4, 0, scol, 24),
           "sell4.col: column by column, padding at the row itself (column 0 past the last row)");
        ok(augur_bound_scalar(b, "sell4.nchunks", &v, &d) == 0 && v == 2,
           "sell4.nchunks: ceil(5 / 4)");
    }
    {
        struct augur_array decl = { 0 };
        double val[24];

        decl.name = "v";
        decl.elem = AUGUR_T_F64;
        decl.elem_size = 8;
        ok(augur_bound_array_fill(b, &decl, "sell4.val", 0, 24, val, &d) == 0 && val[0] == 0.5 &&
               val[4] == 1.5 && val[1] == 0 && val[8] == 0 && val[10] == 2.5 && val[13] == 0,
           "sell4.val: values beside the columns, padding 0");
        ok(augur_bound_array_fill(b, &decl, "jds.val", 0, 9, val, &d) == 0 && val[0] == 0.5 &&
               val[4] == 1.5 && val[7] == 2.5,
           "jds.val: values diagonal by diagonal");
    }
    {
        static const int64_t p2[] = { 0, 2, 5 }, p3[] = { 0, 1, 3, 5 };
        static const int64_t o2[] = { 0, 0, 1, 1, 1 }, o3[] = { 0, 1, 1, 2, 2 };
        static const int64_t pnz3[] = { 0, 3, 6, 9 }, iota[] = { 0, 1, 2, 3, 4 };

        ok(ints_are(b, "parts(n)", AUGUR_T_I32, 4, 0, p2, 3), "parts(n), 2 threads");
        ok(ints_are(b3, "parts(n)", AUGUR_T_I32, 4, 0, p3, 4), "parts(n), 3 threads");
        ok(ints_are(b3, "parts(nnz)", AUGUR_T_I32, 4, 0, pnz3, 4), "parts(nnz), 3 threads");
        ok(ints_are(b, "owner(n)", AUGUR_T_I32, 4, 0, o2, 5), "owner(n), 2 threads");
        ok(ints_are(b3, "owner(n)", AUGUR_T_I32, 4, 0, o3, 5), "owner(n), 3 threads");
        ok(ints_are(b, "iota(n)", AUGUR_T_I64, 8, 0, iota, 5), "iota(n): a[i] = i");
    }
    {
        static const int64_t rp1[] = { 0, 1, 3, 3, 6, 7, 10 },
                             col1[] = { 0, 1, 2, 1, 3, 5, 4, 2, 3, 5 };
        static const int64_t perm1[] = { 0, 3, 5, 1, 4, 2 }, deg1[] = { 0, 2, 0, 3, 1, 3 };
        struct augur_array decl = { 0 };
        double x0[5], x1[6];
        uint64_t c0 = 0, c1 = 0;

        ok(ints_are(b, "csr1.rowptr", AUGUR_T_I32, 4, 0, rp1, 7),
           "csr1.rowptr: a leading element, offsets plus one");
        ok(ints_are(b, "csr1.col", AUGUR_T_I32, 4, 0, col1, 10),
           "csr1.col: a leading element, columns plus one");
        ok(ints_are(b, "jds1.perm", AUGUR_T_I32, 4, 0, perm1, 6), "jds1.perm: rows plus one");
        ok(ints_are(b, "deg1", AUGUR_T_I32, 4, 0, deg1, 6), "deg1: shifted, counts unchanged");
        decl.name = "x";
        decl.elem = AUGUR_T_F64;
        decl.elem_size = 8;
        ok(augur_bound_array_count(b, "vec(n)", &c0, &d) == 0 &&
               augur_bound_array_count(b, "vec1(n)", &c1, &d) == 0 && c0 == 5 && c1 == 6 &&
               augur_bound_array_fill(b, &decl, "vec(n)", 0, 5, x0, &d) == 0 &&
               augur_bound_array_fill(b, &decl, "vec1(n)", 0, 6, x1, &d) == 0 && x1[0] == 0 &&
               !memcmp(x0, x1 + 1, sizeof(x0)),
           "vec1(n): element i + 1 holds element i of vec(n)");
    }
    {
        /* an array of structs bound field by field: {int first, count} per node, and a field
           after padding */
        struct augur_array decl = { 0 };
        struct augur_rec_field f[AUGUR_REC_MAX_FIELDS];
        int32_t rec[5][2] = { { 0 } }, wide[5][4];
        uint64_t c = 0;
        unsigned nf = 0;
        const char *bad[] = { "rec()",
                              "rec(0:i32)",
                              "rec(0:q32:deg)",
                              "rec(0:i32:nosuch)",
                              "rec(0:i64:deg,4:i32:deg)",
                              "rec(0:i32:rec(0:i32:deg))",
                              "rec(x:i32:deg)" };
        bool all_bad = true;

        decl.name = "nodes";
        decl.elem = AUGUR_T_REC;
        decl.elem_size = 8;
        ok(augur_bound_array_count(b, "rec(4:i32:deg,0:i32:csr.rowptr)", &c, &d) == 0 && c == 5 &&
               augur_bound_array_fill(b, &decl, "rec(4:i32:deg,0:i32:csr.rowptr)", 0, 5, rec, &d) ==
                   0 &&
               rec[0][0] == 0 && rec[0][1] == 2 && rec[1][0] == 2 && rec[1][1] == 0 &&
               rec[2][0] == 2 && rec[2][1] == 3 && rec[4][0] == 6 && rec[4][1] == 3,
           "rec(): each field from its target, fewest elements of the two (deg's 5)");
        decl.elem_size = 16;
        memset(wide, 0x55, sizeof(wide));
        ok(augur_bound_array_fill(b, &decl, "rec(8:i32:deg)", 0, 5, wide, &d) == 0 &&
               wide[2][0] == 0 && wide[2][1] == 0 && wide[2][2] == 3 && wide[2][3] == 0,
           "rec(): bytes no field covers are zero");
        decl.elem_size = 8;
        ok(augur_bound_array_fill(b, &decl, "rec(6:i32:deg)", 0, 5, rec, &d) != 0 &&
               strstr(d.msg, "does not fit"),
           "rec(): a field past the element's end is refused");
        decl.elem = AUGUR_T_I32;
        decl.elem_size = 4;
        ok(augur_bound_array_fill(b, &decl, "rec(0:i32:deg)", 0, 5, rec, &d) != 0 &&
               strstr(d.msg, "array of structs"),
           "rec(): an array of numbers is refused");
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
            all_bad &= augur_bind_rec(bad[i], strlen(bad[i]), f, AUGUR_REC_MAX_FIELDS, &nf) != 0 &&
                       !augur_bind_is_array_target(bad[i]);
        ok(all_bad,
           "rec(): empty, short, bad type, unknown target, overlapping and nested refused");
        ok(augur_bind_rec("rec(0:i32:vec(n+1),8:f64:csr1.val)", 34, f, AUGUR_REC_MAX_FIELDS, &nf) ==
                   0 &&
               nf == 2 && f[0].offset == 0 && !strcmp(f[0].target, "vec(n+1)") &&
               f[1].type == AUGUR_T_F64 && !strcmp(f[1].target, "csr1.val"),
           "rec(): sized and 1-based targets as fields");
    }
    {
        static const int64_t f1[] = { 1, 0, 0, 0, 0 }, f2[] = { 0, 1, 1, 0, 0 };
        static const int64_t v2[] = { 1, 1, 1, 0, 0 }, p1[] = { 0, -1, -1, -1, -1 };
        static const int64_t p2[] = { 0, 0, 0, -1, -1 }, p3[] = { 0, 0, 0, 1, -1 };
        static const int64_t pp2[] = { 0, 1, 1, 1, -1, -1 }, lv3[] = { 0, 1, 1, 2, -1 };

        ok(ints_are(bg, "bfs.frontier", AUGUR_T_BOOL, 1, 1, f1, 5) &&
               ints_are(bg, "bfs.visited", AUGUR_T_I8, 1, 1, f1, 5),
           "bfs.frontier and bfs.visited at round 1: the source");
        ok(ints_are(bg, "bfs.frontier", AUGUR_T_BOOL, 1, 2, f2, 5),
           "bfs.frontier at round 2: the nodes of level 1");
        ok(ints_are(bg, "bfs.next", AUGUR_T_BOOL, 1, 1, f2, 5),
           "bfs.next at round 1: the nodes the round reaches, round 2's frontier");
        ok(ints_are(bg, "bfs.visited", AUGUR_T_I32, 4, 2, v2, 5),
           "bfs.visited at round 2: levels 0 and 1");
        ok(ints_are(bg, "bfs.parent", AUGUR_T_I32, 4, 1, p1, 5),
           "bfs.parent at round 1: the source is its own parent");
        ok(ints_are(bg, "bfs.parent", AUGUR_T_I64, 8, 2, p2, 5),
           "bfs.parent at round 2: levels 0 and 1 reached from 0");
        ok(ints_are(bg, "bfs.parent", AUGUR_T_I32, 4, 3, p3, 5),
           "bfs.parent at round 3: node 3 reached first from node 1");
        ok(ints_are(bg, "bfs1.parent", AUGUR_T_I32, 4, 2, pp2, 6),
           "bfs1.parent: node ids plus one, -1 kept");
        ok(ints_are(bg, "bfs.level(-1)", AUGUR_T_I64, 8, 3, lv3, 5),
           "bfs.level(-1) at round 3: levels 0 to 2, -1 for the nodes not reached");
        ok(fill_ints(bg, "bfs.parent", AUGUR_T_U8, 1, 1, (int64_t[8]){ 0 }, 8, &d) < 0 &&
               strstr(d.msg, "too narrow"),
           "bfs.parent refuses an unsigned char array (-1 does not fit)");
    }
    {
        static const char *const good[][2] = { { "n-1", "4" },       { "(n+7)/8", "1" },
                                               { "4*n", "20" },      { "nnz-2*n", "-1" },
                                               { "-n+nnz", "4" },    { "sell4.nchunks*4", "8" },
                                               { "nthreads+1", "3" } };

        for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
            char name[80];

            snprintf(name, sizeof(name), "scalar expression %s = %s", good[i][0], good[i][1]);
            ok(augur_bound_scalar(b, good[i][0], &v, &d) == 0 && v == atof(good[i][1]), name);
        }
        ok(augur_bound_scalar(b, "q-1", &v, &d) == AUGUR_EBIND && strstr(d.msg, "'q'") &&
               strstr(d.msg, "nnz") && strstr(d.msg, "jds.ndiag"),
           "scalar expression: an unknown name is named with the names that exist");
        ok(augur_bound_scalar(b, "n/(n-5)", &v, &d) == AUGUR_EBIND &&
               strstr(d.msg, "division by zero"),
           "scalar expression: division by zero");
        ok(augur_bound_array_count(b, "vec(n-8)", &(uint64_t){ 0 }, &d) == AUGUR_EBIND &&
               strstr(d.msg, "negative"),
           "a negative size is refused");
    }
out:
    augur_bound_free(b);
    augur_bound_free(b3);
    augur_bound_free(bg);
    augur_csr_release(&a);
    augur_csr_release(&g);
}

/* Kernels over the new layouts, run: file-scope arrays, thread ranges, the round's masks. */
static void test_layout_runs(void)
{
    static const char statics[] = "augur-skeleton 1\n"
                                  "kernel cg @\"cg.c\":1:1\n"
                                  "  param lastrow i32 bind n (cli)\n"
                                  "  local j i32\n"
                                  "  local k i32\n"
                                  "  array rowstr i32[20] global @2:1 bind csr1.rowptr (cli)\n"
                                  "  array colidx i32[30] global @3:1 bind csr1.col (cli)\n"
                                  "  array p f64[8] global @4:1 bind vec1(m) (cli)\n"
                                  "  for j = 1; j <= lastrow; j += 1 @5:3\n"
                                  "    for k = rowstr[j]; k < rowstr[j + 1]; k += 1 @6:5\n"
                                  "      load p[colidx[k]] @7:7\n";
    static const char small[] = "augur-skeleton 1\n"
                                "kernel cg @\"cg.c\":1:1\n"
                                "  array rowstr i32[5] global @2:1 bind csr1.rowptr (cli)\n"
                                "  load rowstr[1] @3:3\n";
    static const char ranges[] = "augur-skeleton 1\n"
                                 "kernel fl @\"fl.c\":1:1\n"
                                 "  local t i32\n"
                                 "  local e i32\n"
                                 "  builtin omp.thread i32\n"
                                 "  array ie i32[] global param @1:20 bind parts(nnz) (cli)\n"
                                 "  array owner i32[] global param @1:30 bind owner(n) (cli)\n"
                                 "  array ci i32[] global param @1:40 bind csr.col (cli)\n"
                                 "  array res f64[] global param @1:50 bind vec(n) (cli)\n"
                                 "  region parallel @2:1\n"
                                 "    set t = omp.thread @3:3\n"
                                 "    for e = ie[t]; e < ie[t + 1]; e += 1 @4:3\n"
                                 "      if owner[ci[e]] == t @5:5\n"
                                 "        update res[ci[e]] @6:7\n";
    struct augur_csr a;
    struct augur_diag d;
    struct augur_bound *b = NULL;
    struct augur_interp *in = NULL;
    struct augur_skel *s;
    int rc;

    make_csr(&a, 5, 5, lay_len, lay_col);
    s = parse(statics);
    in = s ? start(s, &a, NULL, &b, &rc, &d) : NULL;
    if (in && augur_interp_run(in, &d) == 0) {
        uint64_t n = 0;
        const int32_t *rs = NULL;

        for (unsigned i = 0; i < augur_interp_narrays(in); i++) {
            struct augur_interp_array ia;

            augur_interp_array(in, i, &ia);
            if (!strcmp(ia.name, "rowstr"))
                rs = augur_interp_array_data(in, i, &n);
        }
        ok(rs && n == 20 && rs[0] == 0 && rs[1] == 1 && rs[6] == 10 && rs[7] == 0 && rs[19] == 0,
           "a file-scope array holds the data first, zeros after");
        is_int(augur_interp_stats(in)->events, 9, "the 1-based loops read every entry once");
    } else {
        ok(0, "a file-scope array holds the data first, zeros after");
        tap_diag("%s", d.msg);
        ok(0, "the 1-based loops read every entry once");
    }
    augur_interp_free(in);
    augur_bound_free(b);
    augur_skel_free(s);
    s = parse(small);
    in = s ? start(s, &a, NULL, &b, &rc, &d) : NULL;
    ok(!in && rc == AUGUR_EBIND && strstr(d.msg, "fewer than") && strstr(d.msg, "'rowstr'"),
       "a file-scope array too small for the data is refused");
    augur_interp_free(in);
    augur_bound_free(b);
    augur_skel_free(s);
    s = parse(ranges);
    if (s) {
        struct augur_interp_opts o = { 0 };
        uint64_t upd = 0;

        o.nthreads = 2;
        in = start(s, &a, &o, &b, &rc, &d);
        if (in && augur_interp_run(in, &d) == 0) {
            /* each thread's half of the entries, an update where the column is its node */
            for (uint32_t i = 0; i < 5; i++)
                for (uint32_t k = 0; k < lay_len[i]; k++) {
                    uint64_t e = a.rowptr[i] + k, t = e < 4 ? 0 : 1, col = lay_col(i, k);

                    upd += (col < 2 ? 0 : 1) == t;
                }
            is_int(augur_interp_node_count(in, node_of_kind(s, AUGUR_NODE_ACCESS), -1), upd,
                   "parts(nnz) and owner(n) at 2 threads: each thread updates its own nodes");
        } else {
            ok(0, "parts(nnz) and owner(n) at 2 threads: each thread updates its own nodes");
            tap_diag("%s", d.msg);
        }
        augur_interp_free(in);
        augur_bound_free(b);
        augur_skel_free(s);
    }
    augur_csr_release(&a);
}

int main(void)
{
    datasets = tap_datasets();
    srcdir = getenv("AUGUR_SOURCE_DIR");
    test_chunks();
    test_sched_run();
    test_dynamic_balance();
    test_barrier_phases();
    test_sched_parse();
    test_sched_override();
    test_sched_override_bad();
    test_shared_scalars();
    test_continue_step();
    test_branch_predictor();
    test_reduction();
    test_hand_misses();
    test_far_requests();
    test_miss_epochs();
    test_layout();
    test_vectors();
    test_prob();
    test_cuda();
    test_trace();
    test_bad();
    test_layout_targets();
    test_layout_runs();
    if (datasets && srcdir && access(datasets, R_OK) == 0) {
        test_spmv();
        test_fv();
        test_bfs();
        test_bfs_frontier();
        test_bfs_frontier_omp();
    } else {
        tap_skip("no AUGUR_DATASETS / AUGUR_SOURCE_DIR", "reference kernels on shared datasets");
    }
    return tap_done();
}
