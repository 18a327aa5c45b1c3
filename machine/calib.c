/*
 * calib.c - `augur calibrate`: measures the running machine with
 * microbenchmarks (clock, streaming bandwidth per cache level and thread
 * count, pointer-chase latency, service time versus chains in flight, gather
 * and scatter cost) on the cache geometry the OS reports (module: machine).
 * Every figure comes from repetitions that each run at least a minimum time
 * after a warm-up, timed with CLOCK_MONOTONIC: the best, median and range.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#    include <omp.h>
#endif
#ifdef AUGUR_HAVE_HWLOC
#    include <hwloc.h>
#endif

#include "augur/calibrate.h"
#include "calib_int.h"

#ifdef _OPENMP
#    define OMP(directive) _Pragma(#    directive)
#else
#    define OMP(directive)
#endif

#define KIB ((uint64_t)1 << 10)
#define MIB ((uint64_t)1 << 20)
#define GIB ((uint64_t)1 << 30)

#define MAX_REPS 15

/* Results the compiler must not drop. */
static volatile double calib_sink;
static volatile uintptr_t calib_sink_p;

/* A thread's streaming arrays, kept across measurements (faulted in once). */
struct pool {
    void *raw[3];
    double *arr[3];
    size_t cap[3];
};

struct ctx {
    struct augur_calib_result *res;
    struct pool *pools; /* one per thread of the largest thread count */
    uint64_t ws_cap;    /* no level's streaming working set exceeds this (quick) */
    const struct augur_calib_opts *opts;
    uint32_t reps, tries; /* repetitions wanted, tries allowed */
    double min_rep;
    uint64_t clock_n; /* iterations of the add chain in a clock reference (a quarter repetition) */
    uint64_t ram;     /* bytes of memory, 0 when unknown */
    int step, nsteps;
    uint64_t seed;
#ifdef AUGUR_HAVE_HWLOC
    hwloc_topology_t topo;
    hwloc_bitmap_t orig;   /* the process's binding before the run */
    hwloc_bitmap_t *cores; /* one PU of each core, to pin thread i to core i */
    uint32_t ncores;
#endif
};

static void progress(struct ctx *c, const char *stage)
{
    c->step++;
    if (c->opts->progress)
        c->opts->progress(c->opts->progress_ud, stage, c->step < c->nsteps ? c->step : c->nsteps,
                          c->nsteps);
}

const char *augur_calib_kernel_name(enum augur_calib_kernel k)
{
    static const char *const names[] = { "load", "copy", "triad" };

    return (unsigned)k < AUGUR_CALIB_NKERNELS ? names[k] : "unknown";
}

/* ---- statistics and memory ----------------------------------------------- */

/*
 * Repetitions of one measurement. A repetition in which a thread had the
 * CPU for less than 90 % of its wall time was preempted (the machine is
 * shared): it does not measure the machine, so another is run in its place,
 * up to four times as many tries in all (twice with --quick).
 */
#define MAX_TRIES (4 * MAX_REPS)

struct reps {
    uint32_t want, limit, tries, nok, nbad;
    double ok[MAX_TRIES], bad[MAX_TRIES];
};

/* want undisturbed repetitions, in at most tries tries (tries <= MAX_TRIES). */
static void reps_init(struct reps *rp, uint32_t want, uint32_t tries)
{
    memset(rp, 0, sizeof(*rp));
    rp->want = want;
    rp->limit = tries;
}

static bool reps_done(const struct reps *rp)
{
    return rp->nok >= rp->want || rp->tries >= rp->limit;
}

static void reps_add(struct reps *rp, double value, bool preempted)
{
    if (preempted)
        rp->bad[rp->nbad++] = value;
    else
        rp->ok[rp->nok++] = value;
    rp->tries++;
}

static void sort_doubles(double *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        double x = v[i];
        uint32_t j = i;

        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

/*
 * The statistics of the repetitions that ran undisturbed; when fewer than
 * wanted did, the best of the preempted ones fill in (counted in
 * st->preempted). rate: higher is better (a bandwidth, a clock); otherwise
 * lower is (a time).
 */
static void reps_stat(struct reps *rp, bool rate, struct augur_calib_stat *st)
{
    double s[MAX_TRIES] = { 0 };
    uint32_t n = rp->nok;

    memset(st, 0, sizeof(*st)); /* a pass's stat: no passes merged, not a ratio */
    memcpy(s, rp->ok, n * sizeof(*s));
    sort_doubles(rp->bad, rp->nbad);
    while (n < rp->want && st->preempted < rp->nbad) {
        s[n++] = rate ? rp->bad[rp->nbad - 1 - st->preempted] : rp->bad[st->preempted];
        st->preempted++;
    }
    sort_doubles(s, n);
    st->reps = n;
    if (n == 0) { /* nothing timed: zeros, which every reader takes as not measured */
        st->min = st->max = st->median = st->best = 0;
        return;
    }
    st->min = s[0];
    st->max = s[n - 1];
    st->median = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    st->best = rate ? st->max : st->min;
}

/* CPU time of the calling thread, in seconds. */
static double cpu_now(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A stretch of work of one thread: wall and CPU time at its start. */
struct span {
    double wall, cpu;
};

static void span_start(struct span *sp)
{
    sp->cpu = cpu_now();
    sp->wall = augur_now();
}

/* Ends the span: its wall time; *preempted when the thread had the CPU < 90 % of it. */
static double span_end(const struct span *sp, bool *preempted)
{
    double wall = augur_now() - sp->wall, cpu = cpu_now() - sp->cpu;

    *preempted = cpu < 0.9 * wall;
    return wall;
}

/* bytes of 64-byte-aligned memory; free *raw with augur_free(). */
static void *alloc_aligned(size_t bytes, void **raw)
{
    char *p = augur_malloc(bytes + 64);

    *raw = p;
    return p + (64 - (uintptr_t)p % 64) % 64;
}

static int thread_num(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/* ---- topology ------------------------------------------------------------ */

static void pin(struct ctx *c, int tid)
{
#ifdef AUGUR_HAVE_HWLOC
    if (c->ncores)
        hwloc_set_cpubind(c->topo, c->cores[(uint32_t)tid % c->ncores], HWLOC_CPUBIND_THREAD);
#else
    (void)c, (void)tid;
#endif
}

static void unpin_all(struct ctx *c, uint32_t nthreads)
{
#ifdef AUGUR_HAVE_HWLOC
    (void)nthreads; /* unused when built without OpenMP */
    if (!c->ncores)
        return;
    OMP(omp parallel num_threads(nthreads))
    hwloc_set_cpubind(c->topo, c->orig, HWLOC_CPUBIND_THREAD);
#else
    (void)c, (void)nthreads;
#endif
}

static void copy_str(char *dst, size_t size, const char *src)
{
    size_t n = 0;

    /* Trimmed of surrounding blanks (cpuid pads model names). */
    while (*src == ' ' || *src == '\t')
        src++;
    for (; src[n] && src[n] != '\n' && n + 1 < size; n++)
        dst[n] = src[n];
    while (n > 0 && (dst[n - 1] == ' ' || dst[n - 1] == '\t'))
        n--;
    dst[n] = '\0';
}

/* /proc/cpuinfo's value of key on the first processor, or "". */
static void cpuinfo(const char *key, char *out, size_t size)
{
    FILE *fp = fopen("/proc/cpuinfo", "r");
    char line[512];

    out[0] = '\0';
    if (!fp)
        return;
    while (fgets(line, sizeof(line), fp)) {
        char *colon = strchr(line, ':');

        if (colon && strncmp(line, key, strlen(key)) == 0 &&
            (line[strlen(key)] == ' ' || line[strlen(key)] == '\t' || line[strlen(key)] == ':')) {
            copy_str(out, size, colon + 1);
            break;
        }
    }
    fclose(fp);
}

/* A sysfs file's first line, or "". */
static void read_line(const char *path, char *out, size_t size)
{
    FILE *fp = fopen(path, "r");

    out[0] = '\0';
    if (!fp)
        return;
    if (fgets(out, (int)size, fp))
        copy_str(out, size, out);
    fclose(fp);
}

/* FNV-1a, 64 bits: a stable hash of the host's description. */
static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return h ^ 0xff; /* a separator, so "ab" + "c" differs from "a" + "bc" */
}

void augur_calib_host_id(char *out, size_t size)
{
    static const char *const keys[] = { "vendor_id", "cpu family",  "model",
                                        "stepping",  "model name",  "CPU implementer",
                                        "CPU part",  "CPU variant", "CPU revision" };
    uint64_t h = 0xcbf29ce484222325ULL;
    char v[256], path[96];

    if (!out || size == 0)
        return;
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        cpuinfo(keys[i], v, sizeof(v));
        h = fnv1a(fnv1a(h, keys[i]), v);
    }
    snprintf(v, sizeof(v), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
    h = fnv1a(h, v);
    for (int i = 0; i < 16; i++) {
        static const char *const fields[] = { "level", "type", "size", "ways_of_associativity" };

        for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
            snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/%s", i,
                     fields[f]);
            read_line(path, v, sizeof(v));
            h = fnv1a(h, v);
        }
    }
    snprintf(out, size, "%016llx", (unsigned long long)h);
}

/* Cache geometry from sysfs (no hwloc): data and unified caches of cpu0. */
static void topology_sysfs(struct augur_calib_result *r)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    r->cores = r->pus = n > 0 ? (uint32_t)n : 1;
    r->threads_per_core = 1;
    snprintf(r->topology_source, sizeof(r->topology_source), "sysfs");
    for (int i = 0; i < 16 && r->ncaches < AUGUR_CALIB_MAX_LEVELS; i++) {
        char path[128], v[128];
        struct augur_calib_cache *cc = &r->caches[r->ncaches];
        unsigned long long size;
        char unit = 0;

        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        read_line(path, v, sizeof(v));
        if (!v[0])
            break;
        if (strcmp(v, "Instruction") == 0)
            continue;
        memset(cc, 0, sizeof(*cc));
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        read_line(path, v, sizeof(v));
        cc->level = (uint32_t)atoi(v);
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        read_line(path, v, sizeof(v));
        if (sscanf(v, "%llu%c", &size, &unit) < 1 || cc->level == 0)
            continue;
        cc->os_size = size * (unit == 'K' ? KIB : unit == 'M' ? MIB : unit == 'G' ? GIB : 1);
        snprintf(path, sizeof(path),
                 "/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size", i);
        read_line(path, v, sizeof(v));
        cc->line = (uint32_t)atoi(v);
        snprintf(path, sizeof(path),
                 "/sys/devices/system/cpu/cpu0/cache/index%d/ways_of_associativity", i);
        read_line(path, v, sizeof(v));
        cc->ways = v[0] ? atoi(v) : -1;
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/shared_cpu_list",
                 i);
        read_line(path, v, sizeof(v));
        cc->shared_by = 1;
        {
            /* "0-3,8-11": count the CPUs of the ranges. */
            const char *p = v;
            uint32_t count = 0;

            while (*p) {
                char *end;
                long a = strtol(p, &end, 10), b = a;

                if (end == p)
                    break;
                if (*end == '-')
                    b = strtol(end + 1, &end, 10);
                count += b >= a ? (uint32_t)(b - a + 1) : 1;
                p = *end == ',' ? end + 1 : end;
                if (*end != ',')
                    break;
            }
            if (count)
                cc->shared_by = count;
        }
        r->ncaches++;
    }
}

static void topology(struct ctx *c)
{
    struct augur_calib_result *r = c->res;
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);

    c->ram = pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize : 0;
    cpuinfo("model name", r->cpu_model, sizeof(r->cpu_model));
    cpuinfo("vendor_id", r->cpu_vendor, sizeof(r->cpu_vendor));
    {
        char mhz[64];

        cpuinfo("cpu MHz", mhz, sizeof(mhz));
        r->os_mhz = mhz[0] ? atof(mhz) : 0.0;
    }
#ifdef AUGUR_HAVE_HWLOC
    if (hwloc_topology_init(&c->topo) == 0 && hwloc_topology_load(c->topo) == 0) {
        static const hwloc_obj_type_t types[] = { HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE,
                                                  HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L4CACHE };
        hwloc_obj_t pkg = hwloc_get_obj_by_type(c->topo, HWLOC_OBJ_PACKAGE, 0);
        int ncores = hwloc_get_nbobjs_by_type(c->topo, HWLOC_OBJ_CORE);
        int npus = hwloc_get_nbobjs_by_type(c->topo, HWLOC_OBJ_PU);

        snprintf(r->topology_source, sizeof(r->topology_source), "hwloc");
        r->cores = ncores > 0 ? (uint32_t)ncores : 1;
        r->pus = npus > 0 ? (uint32_t)npus : r->cores;
        r->threads_per_core = r->pus / r->cores ? r->pus / r->cores : 1;
        if (pkg) {
            const char *model = hwloc_obj_get_info_by_name(pkg, "CPUModel");
            const char *vendor = hwloc_obj_get_info_by_name(pkg, "CPUVendor");

            /* cpuinfo's name first (what users know), hwloc's when it has none. */
            char trimmed[128] = "";

            if (model)
                copy_str(trimmed, sizeof(trimmed), model);
            if (trimmed[0] && !r->cpu_model[0]) {
                copy_str(r->cpu_model, sizeof(r->cpu_model), trimmed);
            } else if (trimmed[0] && strcmp(trimmed, r->cpu_model) != 0) {
                size_t len = strlen(r->cpu_model);

                snprintf(r->cpu_model + len, sizeof(r->cpu_model) - len, " (%s)", trimmed);
            }
            if (vendor && !r->cpu_vendor[0])
                copy_str(r->cpu_vendor, sizeof(r->cpu_vendor), vendor);
        }
        for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
            hwloc_obj_t o = hwloc_get_obj_by_type(c->topo, types[i], 0);
            struct augur_calib_cache *cc = &r->caches[r->ncaches];
            int share;

            if (!o || o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION || !o->attr->cache.size)
                continue;
            memset(cc, 0, sizeof(*cc));
            cc->level = o->attr->cache.depth;
            cc->os_size = o->attr->cache.size;
            cc->line = o->attr->cache.linesize;
            cc->ways = o->attr->cache.associativity;
            share = hwloc_get_nbobjs_inside_cpuset_by_type(c->topo, o->cpuset, HWLOC_OBJ_CORE);
            cc->shared_by = share > 0 ? (uint32_t)share : 1;
            r->ncaches++;
        }
        /* Pinning: thread i on one PU of core i. */
        c->orig = hwloc_bitmap_alloc();
        c->cores = augur_calloc(r->cores, sizeof(*c->cores));
        if (c->orig && hwloc_get_cpubind(c->topo, c->orig, HWLOC_CPUBIND_PROCESS) == 0) {
            for (uint32_t i = 0; i < r->cores; i++) {
                hwloc_obj_t core = hwloc_get_obj_by_type(c->topo, HWLOC_OBJ_CORE, i);

                if (!core)
                    break;
                c->cores[i] = hwloc_bitmap_dup(core->cpuset);
                hwloc_bitmap_singlify(c->cores[i]);
                c->ncores = i + 1;
            }
        }
        if (r->ncaches > 0)
            return;
        r->ncaches = 0;
    }
#endif
    topology_sysfs(c->res);
}

static void topology_release(struct ctx *c)
{
#ifdef AUGUR_HAVE_HWLOC
    for (uint32_t i = 0; i < c->ncores; i++)
        hwloc_bitmap_free(c->cores[i]);
    augur_free(c->cores);
    if (c->orig)
        hwloc_bitmap_free(c->orig);
    if (c->topo)
        hwloc_topology_destroy(c->topo);
#else
    (void)c;
#endif
}

/* ---- the compiler's multiply-add chains ----------------------------------- */

/*
 * Asks the compiler that `augur measure` uses, with its default flags,
 * whether it keeps a carried multiply-add fused: it compiles SpMV's row sum
 * to assembly and looks for a fused multiply-add in it (x86's vfmadd and
 * vfnmadd, Arm's fmadd and fmla, Power's xsmadd). gcc splits the chain into
 * a multiply and an add for AMD's Zen (its tuning avoids FMA chains there)
 * and fuses it for Intel's cores, so the latency a row's sum waits for is
 * the compiler's choice, not the core's. -1 when it cannot be asked.
 */
static int8_t probe_fused_chains(char *cc_name, size_t cc_size)
{
    static const char probe[] =
        "double augur_probe(const double *a, const double *x, const unsigned *c, long n)\n"
        "{\n    double s = 0.0;\n\n    for (long i = 0; i < n; i++)\n"
        "        s += a[i] * x[c[i]];\n    return s;\n}\n";
    static const char *const fma_names[] = { "fmadd", "fnmadd", "fmla", "xsmadd", NULL };
    const char *base = getenv("TMPDIR");
    char dir[4096], path[4200], o3[] = "-O3", march[] = "-march=native", asm_only[] = "-S",
                                o[] = "-o", to_stdout[] = "-";
    char *args[] = { o3, march, asm_only, o, to_stdout, path };
    size_t nargs = sizeof(args) / sizeof(args[0]), ncc;
    struct augur_buf out, err;
    struct augur_diag diag;
    struct augur_child child;
    char **cc = augur_cc_words(NULL, &ncc), **argv;
    int8_t fused = -1;
    FILE *fp;

    snprintf(cc_name, cc_size, "%s", cc[0]);
    snprintf(dir, sizeof(dir), "%s/augur-probe-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(dir)) {
        augur_argv_free(cc);
        return -1;
    }
    snprintf(path, sizeof(path), "%s/probe.c", dir);
    fp = fopen(path, "w");
    if (fp && fputs(probe, fp) < 0) {
        fclose(fp);
        fp = NULL;
    } else if (fp && fclose(fp) != 0) {
        fp = NULL;
    }
    if (!fp) {
        unlink(path);
        rmdir(dir);
        augur_argv_free(cc);
        return -1;
    }
    argv = augur_mallocarray(ncc + nargs + 1, sizeof(*argv));
    memcpy(argv, cc, ncc * sizeof(*argv));
    memcpy(argv + ncc, args, nargs * sizeof(*argv));
    argv[ncc + nargs] = NULL;
    augur_buf_init(&out);
    augur_buf_init(&err);
    augur_diag_init(&diag);
    if (augur_run_child(argv, NULL, NULL, 30.0, (size_t)1 << 20, &out, &err, &child, &diag) == 0 &&
        !child.timed_out && WIFEXITED(child.status) && WEXITSTATUS(child.status) == 0 && out.s) {
        fused = 0;
        for (int i = 0; fma_names[i]; i++)
            if (strstr(out.s, fma_names[i]))
                fused = 1;
    }
    augur_buf_release(&out);
    augur_buf_release(&err);
    unlink(path);
    rmdir(dir);
    augur_free(argv);
    augur_argv_free(cc);
    return fused;
}

/* ---- clock --------------------------------------------------------------- */

static void measure_clock(struct ctx *c)
{
    struct reps rp;
    struct span sp;
    double el;
    bool pre;
    uint64_t n = 1000;

    pin(c, 0);
    /* Grow the chain until it runs a tenth of a repetition, then size it. */
    for (;;) {
        span_start(&sp);
        calib_sink_p = (uintptr_t)calib_add_chain(n);
        el = span_end(&sp, &pre);
        if (el >= c->min_rep / 10 || n > (UINT64_C(1) << 40))
            break;
        n *= 2;
    }
    n = (uint64_t)((double)n * c->min_rep / (el > 0 ? el : 1e-9)) + 1;
    c->clock_n = n / 4 + 1;
    reps_init(&rp, c->reps, c->tries);
    while (!reps_done(&rp)) {
        span_start(&sp);
        calib_sink_p = (uintptr_t)calib_add_chain(n);
        el = span_end(&sp, &pre);
        reps_add(&rp, 16.0 * (double)n / el / 1e9, pre);
    }
    reps_stat(&rp, true, &c->res->clock_ghz);
    progress(c, "clock");
}

/* ---- streaming bandwidth ------------------------------------------------- */

static double run_stream(enum augur_calib_kernel k, bool avx, double *a, double *b, double *cc,
                         size_t n)
{
    switch (k) {
    case AUGUR_CALIB_LOAD:
        return avx ? calib_load_avx512(a, n) : calib_load_c(a, n);
    case AUGUR_CALIB_COPY:
        if (avx)
            calib_copy_avx512(b, a, n);
        else
            calib_copy_c(b, a, n);
        return b[n - 1];
    default:
        if (avx)
            calib_triad_avx512(a, b, cc, 0.5, n);
        else
            calib_triad_c(a, b, cc, 0.5, n);
        return a[n - 1];
    }
}

/*
 * Bandwidth of kernel k with nthreads threads, each streaming over its own
 * arrays of ws_thread bytes in all (first touched by that thread). GB/s of
 * all threads together: bytes named by the kernel (no write-allocate).
 */
static void measure_bw(struct ctx *c, enum augur_calib_kernel k, uint32_t nthreads,
                       uint64_t ws_thread, struct augur_calib_stat *out)
{
    size_t narr = k == AUGUR_CALIB_LOAD ? 1 : k == AUGUR_CALIB_COPY ? 2 : 3;
    size_t n = (size_t)(ws_thread / (8 * narr));
    double t0 = 0, el = 0, bytes;
    uint64_t iters = 1;
    int warm_done = 0, done = 0, preempted = 0;
    bool avx = c->res->avx512;
    struct reps rp;

    n -= n % CALIB_BLOCK;
    if (n < CALIB_BLOCK)
        n = CALIB_BLOCK;
    bytes = (double)n * 8.0 * (double)narr * nthreads;
    reps_init(&rp, c->reps, c->tries);
    OMP(omp parallel num_threads(nthreads))
    {
        int tid = thread_num();
        struct pool *pl = &c->pools[tid];
        double *arr[3] = { NULL, NULL, NULL };
        double sink = 0.0;
        uint64_t m = 1;

        pin(c, tid);
        for (size_t j = 0; j < narr; j++) {
            if (pl->cap[j] < n) {
                augur_free(pl->raw[j]);
                pl->arr[j] = alloc_aligned(n * sizeof(double), &pl->raw[j]);
                pl->cap[j] = n;
            }
            arr[j] = pl->arr[j];
            for (size_t i = 0; i < n; i++)
                arr[j][i] = 1.0 + (double)j;
        }
        /* Warm-up: double the passes until they take an eighth of a repetition. */
        for (;;) {
            OMP(omp barrier)
            if (tid == 0)
                t0 = augur_now();
            for (uint64_t it = 0; it < m; it++)
                sink += run_stream(k, avx, arr[0], arr[1], arr[2], n);
            OMP(omp barrier)
            if (tid == 0) {
                el = augur_now() - t0;
                if (el >= c->min_rep / 8 || m >= (UINT64_C(1) << 40))
                    warm_done = 1;
                else
                    iters = m * 2;
            }
            OMP(omp barrier)
            if (warm_done)
                break;
            m = iters;
        }
        /* Every thread has read warm_done and m before iters changes. */
        OMP(omp barrier)
        if (tid == 0)
            iters = (uint64_t)((double)m * c->min_rep / (el > 0 ? el : 1e-9)) + 1;
        /* Repetitions: all threads start together; any preempted thread voids the repetition. */
        for (;;) {
            struct span sp;
            bool pre;

            OMP(omp barrier)
            if (tid == 0) {
                t0 = augur_now();
                preempted = 0;
            }
            OMP(omp barrier)
            span_start(&sp);
            for (uint64_t it = 0; it < iters; it++)
                sink += run_stream(k, avx, arr[0], arr[1], arr[2], n);
            span_end(&sp, &pre);
            if (pre) {
                OMP(omp atomic write)
                preempted = 1;
            }
            OMP(omp barrier)
            if (tid == 0) {
                reps_add(&rp, bytes * (double)iters / (augur_now() - t0) / 1e9, preempted);
                done = reps_done(&rp);
            }
            OMP(omp barrier)
            if (done)
                break;
        }
        OMP(omp critical(calib_sink))
        calib_sink += sink;
    }
    reps_stat(&rp, true, out);
}

/* ---- pointer chasing ----------------------------------------------------- */

/* A single random cycle through every 64-byte line of bytes bytes. */
struct chase {
    void *raw;
    char *base;
    uint32_t *order; /* the visiting order */
    size_t n;
};

static void chase_build(struct ctx *c, uint64_t bytes, struct chase *ch)
{
    size_t n = (size_t)(bytes / 64);

    if (n < 2)
        n = 2;
    ch->n = n;
    ch->base = alloc_aligned(n * 64, &ch->raw);
    ch->order = augur_mallocarray(n, sizeof(*ch->order));
    for (size_t i = 0; i < n; i++)
        ch->order[i] = (uint32_t)i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(augur_rand(&c->seed) % (i + 1));
        uint32_t t = ch->order[i];

        ch->order[i] = ch->order[j];
        ch->order[j] = t;
    }
    for (size_t i = 0; i < n; i++)
        *(void **)(ch->base + (size_t)ch->order[i] * 64) =
            ch->base + (size_t)ch->order[(i + 1) % n] * 64;
}

static void chase_release(struct chase *ch)
{
    augur_free(ch->raw);
    augur_free(ch->order);
    memset(ch, 0, sizeof(*ch));
}

/* ns between completed loads with k chains in flight (k = 1: the load-to-use latency). */
static void chase_measure(struct ctx *c, const struct chase *ch, int k,
                          struct augur_calib_stat *out)
{
    void *heads[CALIB_MAX_CHAINS];
    struct reps rp;
    struct span sp;
    double el;
    bool pre;
    uint64_t steps = 1000;

    pin(c, 0);
    /* The chains start evenly spaced along the cycle and walk on from call to call. */
    for (int j = 0; j < k; j++)
        heads[j] = ch->base + (size_t)ch->order[(size_t)j * ch->n / (size_t)k] * 64;
    calib_sink_p = calib_chase(heads, k, (ch->n < 100000 ? ch->n : 100000) / (uint64_t)k + 1);
    for (;;) {
        span_start(&sp);
        calib_sink_p = calib_chase(heads, k, steps);
        el = span_end(&sp, &pre);
        if (el >= c->min_rep / 8 || steps > (UINT64_C(1) << 40))
            break;
        steps *= 2;
    }
    steps = (uint64_t)((double)steps * c->min_rep / (el > 0 ? el : 1e-9)) + 1;
    reps_init(&rp, c->reps, c->tries);
    while (!reps_done(&rp)) {
        span_start(&sp);
        calib_sink_p = calib_chase(heads, k, steps);
        el = span_end(&sp, &pre);
        reps_add(&rp, el / ((double)steps * k) * 1e9, pre);
    }
    reps_stat(&rp, false, out);
}

static void latency_at(struct ctx *c, uint64_t bytes, struct augur_calib_stat *out)
{
    struct chase ch;

    chase_build(c, bytes, &ch);
    chase_measure(c, &ch, 1, out);
    chase_release(&ch);
}

/* ---- gathers ------------------------------------------------------------- */

/* A microbenchmark: runs iters units of work; returns a value the compiler must keep. */
typedef double unit_fn(struct ctx *c, void *ud, uint64_t iters);

/* The clock at this moment, GHz: a quarter repetition of the add chain; *pre when preempted. */
static double clock_ref(struct ctx *c, bool *pre)
{
    struct span sp;
    double el;
    bool p;

    span_start(&sp);
    calib_sink_p = (uintptr_t)calib_add_chain(c->clock_n);
    el = span_end(&sp, &p);
    *pre |= p;
    return el > 0 ? 16.0 * (double)c->clock_n / el / 1e9 : 0;
}

/*
 * ns per unit of fn: the count grown to an eighth of a repetition, then sized
 * to one. cycles: cycles per unit instead, each repetition against the mean
 * of two clock references timed before and after it, so that a change of
 * the core's clock (or of the share a host's other tenants leave it) between
 * measure_clock and this measurement cancels; the best is then the median
 * of the repetitions (out->ratio), as noise in a reference moves the ratio
 * down as surely as noise in fn moves it up.
 */
static void per_unit(struct ctx *c, unit_fn *fn, void *ud, bool cycles,
                     struct augur_calib_stat *out)
{
    uint64_t iters = 1;
    struct reps rp;
    struct span sp;
    double el;
    bool pre;

    for (;;) {
        span_start(&sp);
        calib_sink += fn(c, ud, iters);
        el = span_end(&sp, &pre);
        if (el >= c->min_rep / 8 || iters > (UINT64_C(1) << 40))
            break;
        iters *= 2;
    }
    iters = (uint64_t)((double)iters * c->min_rep / (el > 0 ? el : 1e-9)) + 1;
    reps_init(&rp, c->reps, c->tries);
    while (!reps_done(&rp)) {
        bool pre_ref = false;
        double ghz = !cycles ? 1 : c->clock_n ? clock_ref(c, &pre_ref) : c->res->clock_ghz.best;

        span_start(&sp);
        calib_sink += fn(c, ud, iters);
        el = span_end(&sp, &pre);
        if (cycles && c->clock_n)
            ghz = 0.5 * (ghz + clock_ref(c, &pre_ref));
        reps_add(&rp, el / (double)iters * 1e9 * ghz, pre || pre_ref);
    }
    reps_stat(&rp, false, out);
    if (cycles) {
        out->best = out->median;
        out->ratio = true;
    }
}

static void time_per_unit(struct ctx *c, unit_fn *fn, void *ud, struct augur_calib_stat *out)
{
    per_unit(c, fn, ud, false, out);
}

static void cycles_per_unit(struct ctx *c, unit_fn *fn, void *ud, struct augur_calib_stat *out)
{
    per_unit(c, fn, ud, true, out);
}

/* A time stat less a baseline's best time (what an operation adds to a loop). */
static void less_best(struct augur_calib_stat *st, const struct augur_calib_stat *base)
{
    st->best -= base->best;
    st->median -= base->best;
    st->min -= base->best;
    st->max -= base->best;
}

/* Puts v[0..n) in a random order (Fisher-Yates, the run's seed). */
static void shuffle_u32(struct ctx *c, uint32_t *v, uint32_t n)
{
    for (uint32_t e = n; e-- > 1;) {
        uint32_t j = (uint32_t)(augur_rand(&c->seed) % (e + 1)), t = v[e];

        v[e] = v[j];
        v[j] = t;
    }
}

/* A time stat scaled by k (ns to cycles, per element, ...). */
static void scaled(const struct augur_calib_stat *ns, double k, struct augur_calib_stat *out)
{
    *out = *ns;
    out->best = ns->best * k;
    out->median = ns->median * k;
    out->min = ns->min * k;
    out->max = ns->max * k;
}

/* The gather benchmark's array, index mask and xorshift state. */
struct gather_ud {
    double *x;
    uint32_t mask;
    bool scatter;
    uint64_t state[16];
};

/* iters iterations of two 8-element gathers (or scatters) at random indices */
static double run_gather_iters(struct ctx *c, void *ud, uint64_t iters)
{
    struct gather_ud *g = ud;
    bool avx = c->res->avx512;

    if (g->scatter) {
        (avx ? calib_scatter_avx512 : calib_scatter_c)(g->x, g->mask, iters, g->state);
        return 0;
    }
    return (avx ? calib_gather_avx512 : calib_gather_c)(g->x, g->mask, iters, g->state);
}

/*
 * ns (or cycles) per element of gathers (or scatters) at random indices in
 * the first range bytes of x (a power of two), fresh indices for every gather.
 */
static void gather_at(struct ctx *c, double *x, uint64_t range, bool scatter, bool cycles,
                      struct augur_calib_stat *out)
{
    struct gather_ud g = { x, (uint32_t)(range / 8 ? range / 8 - 1 : 0), scatter, { 0 } };
    struct augur_calib_stat st;

    pin(c, 0);
    for (int j = 0; j < 16; j++)
        g.state[j] = augur_rand(&c->seed) | 1;
    per_unit(c, run_gather_iters, &g, cycles, &st);
    scaled(&st, 1.0 / 16, out); /* an iteration is 16 elements */
}

/* ns per element of sequential loads from an array of bytes bytes (one thread). */
static void seq_load_at(struct ctx *c, uint64_t bytes, struct augur_calib_stat *out)
{
    struct augur_calib_stat bw;

    measure_bw(c, AUGUR_CALIB_LOAD, 1, bytes, &bw);
    /* GB/s to ns per 8-byte element; the spread flips with the inverse. */
    out->best = 8.0 / bw.best;
    out->median = 8.0 / bw.median;
    out->min = 8.0 / bw.max;
    out->max = 8.0 / bw.min;
    out->reps = bw.reps;
    out->preempted = bw.preempted;
}

/* ---- the core's data-dependent costs --------------------------------------- */

#define UPDATE_LEN 1024 /* updates per pass: y, idx and w stay in L1 */

struct update_ud {
    double y[UPDATE_LEN], w[UPDATE_LEN];
    uint32_t idx[UPDATE_LEN];
};

static double run_update(struct ctx *c, void *ud, uint64_t iters)
{
    struct update_ud *u = ud;

    (void)c;
    return calib_update(u->y, u->idx, u->w, UPDATE_LEN, iters);
}

static double run_atomic_update(struct ctx *c, void *ud, uint64_t iters)
{
    struct update_ud *u = ud;

    (void)c;
    return calib_atomic_update(u->y, u->idx, u->w, UPDATE_LEN, iters);
}

struct far_ud {
    double *y, *w;
    uint32_t *idx, n;
};

static double run_far_atomic(struct ctx *c, void *ud, uint64_t iters)
{
    struct far_ud *f = ud;

    (void)c;
    return calib_atomic_update(f->y, f->idx, f->w, f->n, iters);
}

/*
 * The misses in flight that atomic updates keep: one update in each line
 * of 4 times the last level (at least 64 MiB), in random order, so that
 * every one misses to memory: memory's latency over what each adds to an
 * update in L1 (l1_ns). A locked instruction waits for the loads before
 * it, so fewer misses overlap than plain loads keep.
 */
static void run_atomic_far(struct ctx *c, double l1_ns)
{
    struct augur_calib_result *r = c->res;
    uint64_t bytes = UINT64_C(64) << 20, lines;
    struct far_ud f = { 0 };
    struct augur_calib_stat far;

    if (r->ncaches && 4 * r->caches[r->ncaches - 1].os_size > bytes)
        bytes = 4 * r->caches[r->ncaches - 1].os_size;
    lines = bytes / 64;
    if (!(r->mem_latency_ns.best > 0) || lines * 8 > UINT32_MAX)
        return;
    f.n = (uint32_t)lines;
    f.y = augur_calloc(lines * 8, sizeof(double));
    f.w = augur_mallocarray(lines, sizeof(double));
    f.idx = augur_mallocarray(lines, sizeof(uint32_t));
    if (f.y && f.w && f.idx) {
        for (uint32_t e = 0; e < f.n; e++) {
            f.idx[e] = e * 8;
            f.w[e] = 1e-9;
        }
        shuffle_u32(c, f.idx, f.n);
        time_per_unit(c, run_far_atomic, &f, &far);
        scaled(&far, 1.0 / f.n, &far);
        if (far.best > l1_ns) {
            double k = r->mem_latency_ns.best;

            r->atomic_mlp.best = k / (far.best - l1_ns);
            r->atomic_mlp.median = far.median > l1_ns ? k / (far.median - l1_ns) : 0;
            r->atomic_mlp.min = far.max > l1_ns ? k / (far.max - l1_ns) : 0;
            r->atomic_mlp.max = far.min > l1_ns ? k / (far.min - l1_ns) : 0;
        }
    }
    augur_free(f.y);
    augur_free(f.w);
    augur_free(f.idx);
}

/*
 * What a locked read-modify-write (an OpenMP atomic update, a
 * compare-and-swap) adds to an update: y[i[e]] += w[e] with i[e] a random
 * permutation (independent updates, all in L1), atomic against plain, per
 * update. The lock orders the core's memory operations around it, so the
 * updates no longer overlap; the difference is what the model charges.
 */
static void run_atomic(struct ctx *c, struct update_ud *u)
{
    struct augur_calib_stat plain, atomic;

    for (uint32_t e = 0; e < UPDATE_LEN; e++)
        u->idx[e] = e;
    shuffle_u32(c, u->idx, UPDATE_LEN);
    cycles_per_unit(c, run_update, u, &plain);
    cycles_per_unit(c, run_atomic_update, u, &atomic);
    run_atomic_far(c, atomic.best / UPDATE_LEN / c->res->clock_ghz.best);
    less_best(&atomic, &plain);
    scaled(&atomic, 1.0 / UPDATE_LEN, &c->res->atomic_cycles);
    if (c->res->atomic_cycles.best < 0)
        memset(&c->res->atomic_cycles, 0, sizeof(c->res->atomic_cycles));
    progress(c, "atomic update");
}

struct fp_ud {
    double w[UPDATE_LEN];
    bool fma;
};

static double run_fp_chain(struct ctx *c, void *ud, uint64_t iters)
{
    struct fp_ud *f = ud;

    (void)c;
    return calib_fp_chain(f->w, UPDATE_LEN, iters, f->fma);
}

static double run_fdiv(struct ctx *c, void *ud, uint64_t iters)
{
    (void)c;
    (void)ud;
    return calib_fdiv(1.0, 1.5, iters);
}

/*
 * Cycles between independent scalar divisions: 8 at a time, each chain's
 * latency (an add and a division) spread over 8, under the divider's rate.
 */
static void run_fdiv_rate(struct ctx *c)
{
    struct augur_calib_stat st;

    cycles_per_unit(c, run_fdiv, NULL, &st);
    scaled(&st, 1.0 / 8, &c->res->fdiv_cycles);
    progress(c, "divisions");
}

/* The latency of a loop-carried floating-point add and multiply-add, in cycles. */
static void run_fp_latency(struct ctx *c)
{
    struct augur_calib_result *r = c->res;
    struct fp_ud *f = augur_calloc(1, sizeof(*f));
    struct augur_calib_stat st;

    if (!f)
        return;
    for (uint32_t e = 0; e < UPDATE_LEN; e++)
        f->w[e] = 1e-9;
    cycles_per_unit(c, run_fp_chain, f, &st);
    scaled(&st, 1.0 / UPDATE_LEN, &r->fadd_cycles);
    if (calib_has_fma()) {
        f->fma = true;
        cycles_per_unit(c, run_fp_chain, f, &st);
        scaled(&st, 1.0 / UPDATE_LEN, &r->fma_cycles);
    }
    augur_free(f);
    progress(c, "floating-point chains");
}

static double run_branch(struct ctx *c, void *ud, uint64_t iters)
{
    return (double)calib_branch(*(const uint64_t *)ud, iters, &c->seed);
}

struct table_ud {
    const uint8_t *bits;
    uint64_t mask;
};

static double run_branch_table(struct ctx *c, void *ud, uint64_t iters)
{
    const struct table_ud *t = ud;

    (void)c;
    return (double)calib_branch_table(t->bits, t->mask, iters);
}

#define BRANCH_TABLE_MAX ((uint64_t)1 << 22) /* outcomes: far beyond any predictor's history */

/*
 * The learning curve: a pattern of len random outcomes repeated, its cost
 * per jump over an all-zero one's, as a share of the longest pattern's.
 */
static void run_branch_learning(struct ctx *c, bool quick)
{
    struct augur_calib_curve *cv = &c->res->branch_learned;
    uint8_t *bits = augur_malloc(BRANCH_TABLE_MAX);
    struct augur_calib_stat zero, full, st;
    struct table_ud t = { bits, BRANCH_TABLE_MAX - 1 };
    double span;

    memset(bits, 0, BRANCH_TABLE_MAX);
    time_per_unit(c, run_branch_table, &t, &zero);
    for (uint64_t i = 0; i < BRANCH_TABLE_MAX; i++)
        bits[i] = (uint8_t)(augur_rand(&c->seed) & 1);
    time_per_unit(c, run_branch_table, &t, &full);
    span = full.best - zero.best;
    for (uint64_t len = 256; len <= BRANCH_TABLE_MAX && cv->n < AUGUR_CALIB_MAX_POINTS;
         len *= quick ? 4 : 2) {
        t.mask = len - 1;
        time_per_unit(c, run_branch_table, &t, &st);
        cv->x[cv->n] = (double)len / 2;
        cv->y[cv->n] = st;
        cv->y[cv->n].best = span > 0 ? (st.best - zero.best) / span : 1;
        cv->y[cv->n].median = span > 0 ? (st.median - zero.best) / span : 1;
        cv->y[cv->n].min = span > 0 ? (st.min - zero.best) / span : 1;
        cv->y[cv->n].max = span > 0 ? (st.max - zero.best) / span : 1;
        cv->n++;
    }
    augur_free(bits);
    progress(c, "branch learning");
}

/* a share taken from differences of timings, which noise can push past 0 or 1 */
static double clamp01(double v)
{
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

/*
 * Rare outcomes after runs of random length: a table of BRANCH_TABLE_MAX
 * outcomes, each rare with probability 1 / (run + 1). Fresh, its cost per
 * rare outcome over an all-zero table's; the share of that left when the
 * first 2048 rare outcomes' stretch repeats (within what the capacity
 * curve above learns, so that only the history's reach is measured).
 */
static void run_branch_runs(struct ctx *c, bool quick)
{
    struct augur_calib_result *r = c->res;
    uint8_t *bits = augur_malloc(BRANCH_TABLE_MAX);
    struct augur_calib_stat zero, fresh, rep;
    struct table_ud t = { bits, BRANCH_TABLE_MAX - 1 };

    if (!bits)
        return;
    memset(bits, 0, BRANCH_TABLE_MAX);
    cycles_per_unit(c, run_branch_table, &t, &zero);
    for (uint64_t run = 1; run <= 1024 && r->branch_run_cycles.n < AUGUR_CALIB_MAX_POINTS;
         run *= quick ? 4 : 2) {
        uint64_t rare = 0, len = 1;
        struct augur_calib_curve *cy = &r->branch_run_cycles, *cl = &r->branch_run_left;
        double per, share;

        for (uint64_t i = 0; i < BRANCH_TABLE_MAX; i++) {
            bits[i] = (uint8_t)(augur_rand(&c->seed) % (run + 1) == 0);
            rare += bits[i];
        }
        t.mask = BRANCH_TABLE_MAX - 1;
        cycles_per_unit(c, run_branch_table, &t, &fresh);
        while (len < BRANCH_TABLE_MAX && (double)len * (double)rare / BRANCH_TABLE_MAX < 2048)
            len *= 2;
        t.mask = len - 1;
        cycles_per_unit(c, run_branch_table, &t, &rep);
        /* a loaded machine can time the table at or below the all-zero one: no point */
        if (!rare || !(fresh.best > zero.best))
            continue;
        /* per rare outcome: the table's outcomes per rare one times the cost per outcome */
        per = (double)BRANCH_TABLE_MAX / (double)rare;
        share = clamp01((rep.best - zero.best) / (fresh.best - zero.best));
        cy->x[cy->n] = (double)run;
        cy->y[cy->n] = fresh;
        cy->y[cy->n].best = (fresh.best - zero.best) * per;
        cy->y[cy->n].median = fmax(0, (fresh.median - zero.best) * per);
        cy->y[cy->n].min = fmax(0, (fresh.min - zero.best) * per);
        cy->y[cy->n].max = fmax(0, (fresh.max - zero.best) * per);
        cy->n++;
        cl->x[cl->n] = (double)run;
        cl->y[cl->n] = rep;
        cl->y[cl->n].best = share;
        cl->y[cl->n].median = fresh.median > zero.best
                                  ? clamp01((rep.median - zero.best) / (fresh.median - zero.best))
                                  : share;
        cl->y[cl->n].min = cl->y[cl->n].max = share;
        cl->n++;
    }
    augur_free(bits);
    progress(c, "branch runs");
}

/* An empty parallel region of *ud threads: its fork and join. */
static double run_region(struct ctx *c, void *ud, uint64_t iters)
{
    int t = *(const int *)ud;

    (void)c, (void)t; /* unused when built without OpenMP */
    for (uint64_t i = 0; i < iters; i++) {
        OMP(omp parallel num_threads(t))
        {
            if (thread_num() < 0)
                calib_sink = 1;
        }
    }
    return 0;
}

/* malloc, a store to every page, free: a kernel's local array, made in every call. */
static double run_touch(struct ctx *c, void *ud, uint64_t iters)
{
    size_t bytes = *(const size_t *)ud;
    double sum = 0;

    (void)c;
    for (uint64_t i = 0; i < iters; i++) {
        volatile char *p = malloc(bytes);

        if (!p)
            return 0;
        for (size_t off = 0; off < bytes; off += 4096)
            p[off] = (char)off;
        sum += p[bytes / 2];
        free((void *)p);
    }
    return sum;
}

/* The first-touch curve: ns per page against the block size, 64 KiB to 256 MiB (64 quick). */
static void run_first_touch(struct ctx *c, bool quick)
{
    struct augur_calib_curve *cv = &c->res->first_touch;
    uint64_t cap = c->ram ? c->ram / 8 : GIB, most = (quick ? 64 : 256) * MIB;

    /* x2 steps even when quick: malloc's switch to fresh pages sits at a power of two */
    cap = cap > most ? most : cap;
    pin(c, 0);
    for (uint64_t bytes = 64 * KIB; bytes <= cap && cv->n < AUGUR_CALIB_MAX_POINTS; bytes *= 2) {
        size_t b = (size_t)bytes;
        struct augur_calib_stat st;

        time_per_unit(c, run_touch, &b, &st);
        cv->x[cv->n] = (double)bytes;
        scaled(&st, 4096.0 / (double)bytes, &cv->y[cv->n]);
        cv->n++;
    }
    progress(c, "first touch");
}

#define CHUNKS 1024 /* chunks of one iteration per dynamic loop */

/* A dynamic loop of CHUNKS one-iteration chunks over *ud threads. */
static double run_chunks(struct ctx *c, void *ud, uint64_t iters)
{
    int t = *(const int *)ud;

    (void)c, (void)t;
    for (uint64_t i = 0; i < iters; i++) {
        OMP(omp parallel for schedule(dynamic, 1) num_threads(t))
        for (int j = 0; j < CHUNKS; j++)
            if (thread_num() < 0)
                calib_sink = j;
    }
    return 0;
}

#define XFER_LINES 4096 /* 256 KiB: in every core's L2, so only the line's owner moves */

/* Chases through the lines of ch, which thread writer dirtied first. */
struct xfer_ud {
    struct chase ch;
    int writer, k;
};

/*
 * Per iteration, in a region of two threads: the writer stores into the
 * second word of every line (keeping the chase's pointers), then thread 0
 * walks the cycle with k chains in flight. With writer 1 each of thread 0's
 * loads finds its copy gone and the line dirty in the other core's cache
 * (and the writer's stores had to take the lines back first); with writer
 * 0 they hit its own.
 */
static double run_xfer(struct ctx *c, void *ud, uint64_t iters)
{
    struct xfer_ud *x = ud;
    void *heads[CALIB_MAX_CHAINS];

    (void)c;
    for (int j = 0; j < x->k; j++)
        heads[j] = x->ch.base + (size_t)x->ch.order[(size_t)j * x->ch.n / (size_t)x->k] * 64;
    for (uint64_t i = 0; i < iters; i++) {
        OMP(omp parallel num_threads(2))
        {
            if (thread_num() == x->writer)
                for (size_t l = 0; l < x->ch.n; l++)
                    ((volatile uint64_t *)(x->ch.base + l * 64))[1] = i;
            OMP(omp barrier)
            if (thread_num() == 0)
                calib_sink_p = calib_chase(heads, x->k, x->ch.n / (uint64_t)x->k);
        }
    }
    return 0;
}

/*
 * The transfer curve: ns per line that one core wrote and another then
 * loads, with k loads in flight: the difference per line between the other
 * thread writing and thread 0 writing, plus thread 0's own latency at that
 * working set over k.
 */
static void run_transfer(struct ctx *c)
{
    struct augur_calib_result *r = c->res;
    struct augur_calib_curve *cv = &r->transfer;
    struct xfer_ud x;
    struct augur_calib_stat own, remote, local;

    chase_build(c, (uint64_t)XFER_LINES * 64, &x.ch);
    latency_at(c, (uint64_t)XFER_LINES * 64, &own);
    OMP(omp parallel num_threads(2))
    pin(c, thread_num());
    cv->n = 0;
    for (x.k = 1; x.k <= 16; x.k *= 2) {
        struct augur_calib_stat *y = &cv->y[cv->n];
        double base;

        x.writer = 0;
        time_per_unit(c, run_xfer, &x, &local);
        x.writer = 1;
        time_per_unit(c, run_xfer, &x, &remote);
        base = own.best / x.k - local.best / XFER_LINES;
        scaled(&remote, 1.0 / XFER_LINES, y);
        y->best += base;
        y->median += base;
        y->min = fmax(0, y->min + base);
        y->max += base;
        /* a loaded machine can time the other core's lines at or below its own: no point */
        if (y->best > 0)
            cv->x[cv->n++] = x.k;
        if (c->opts->quick && x.k >= 4)
            break;
    }
    chase_release(&x.ch);
    progress(c, "transfer between cores");
}

/*
 * Chains of m updates: runs of m equal indices, each run its own element
 * (y stays in L1), from m = 1 (independent updates) to one chain through
 * the whole pass. Leaves idx all 0 (one chain), as the caller had it.
 */
static void run_chain_runs(struct ctx *c, struct update_ud *u)
{
    struct augur_calib_curve *cv = &c->res->chain_runs;

    for (uint32_t m = 1; m <= UPDATE_LEN && cv->n < AUGUR_CALIB_MAX_POINTS;
         m *= c->opts->quick ? 4 : 2) {
        for (uint32_t e = 0; e < UPDATE_LEN; e++)
            u->idx[e] = e / m;
        cycles_per_unit(c, run_update, u, &cv->y[cv->n]);
        scaled(&cv->y[cv->n], 1.0 / UPDATE_LEN, &cv->y[cv->n]);
        cv->x[cv->n++] = m;
    }
    memset(u->idx, 0, sizeof(u->idx));
}

/* ---- prefetch streams ------------------------------------------------------ */

struct streams_ud {
    const double *base;
    size_t start[64]; /* each stream's first element */
    size_t len;       /* elements per stream, a multiple of a line's 8 */
    uint32_t k;       /* streams */
};

/* A line of each stream in turn, summed as a tree: the loads wait on memory, not on the adds. */
static double run_streams_walk(struct ctx *c, void *ud, uint64_t iters)
{
    const struct streams_ud *u = ud;
    double s = 0;

    (void)c;
    for (uint64_t it = 0; it < iters; it++)
        for (size_t i = 0; i < u->len; i += 8)
            for (uint32_t k = 0; k < u->k; k++) {
                const double *p = u->base + u->start[k] + i;

                s += ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
            }
    return s;
}

/*
 * The streams curve: k sequential streams of loads interleaved line by
 * line, one load instruction for all of them (as the k loop of a
 * column-major ELLPACK row walks its columns, whose misses come a line of
 * each stream in turn), over an array of memory's working set. Stream q
 * walks half of the array's q-th k-th part from a random line of its first
 * half, so that no two streams keep a fixed distance (equal spacing makes
 * some counts collide in the caches' sets or the memory's banks).
 */
static void run_streams(struct ctx *c)
{
    static const uint32_t counts[] = { 1, 2, 4, 8, 12, 16, 20, 24, 32, 48, 64 };
    struct augur_calib_curve *cv = &c->res->streams;
    uint64_t bytes = c->res->mem_ws_thread ? c->res->mem_ws_thread : 64 * MIB;
    struct streams_ud u;
    void *raw;
    double *a;

    bytes = bytes > 256 * MIB ? 256 * MIB : bytes;
    pin(c, 0);
    a = alloc_aligned(bytes, &raw);
    for (size_t i = 0; i < bytes / sizeof(double); i++)
        a[i] = 1.0;
    cv->n = 0;
    u.base = a;
    for (size_t j = 0; j < sizeof(counts) / sizeof(counts[0]); j++) {
        size_t part = bytes / sizeof(double) / counts[j] / 8 * 8;

        u.k = counts[j];
        u.len = part / 2 / 8 * 8;
        for (uint32_t q = 0; q < u.k; q++)
            u.start[q] = q * part + (size_t)(augur_rand(&c->seed) % (part / 2 / 8)) * 8;
        time_per_unit(c, run_streams_walk, &u, &cv->y[cv->n]);
        scaled(&cv->y[cv->n], 8.0 / ((double)u.len * u.k), &cv->y[cv->n]);
        cv->x[cv->n++] = u.k;
    }
    augur_free(raw);
    progress(c, "prefetch streams");
}

uint32_t augur_calib_prefetch_streams(const struct augur_calib_curve *cv)
{
    double lo = 0, hi = 0, mid;

    if (!cv || cv->n < 3)
        return 0;
    for (uint32_t i = 0; i < cv->n && cv->x[i] <= 4; i++)
        if (cv->y[i].best > 0 && (lo == 0 || cv->y[i].best < lo))
            lo = cv->y[i].best;
    for (uint32_t i = cv->n - 2; i < cv->n; i++)
        hi = cv->y[i].best > hi ? cv->y[i].best : hi;
    if (!(lo > 0) || hi < 1.5 * lo)
        return 0;
    mid = 0.5 * (lo + hi);
    for (uint32_t i = 1; i < cv->n; i++)
        if (cv->y[i].best > mid)
            return (uint32_t)cv->x[i - 1];
    return 0;
}

static void run_core(struct ctx *c, uint32_t maxt)
{
    struct augur_calib_result *r = c->res;
    struct update_ud *u = augur_calloc(1, sizeof(*u));
    struct augur_calib_stat st, never, chunk;
    uint64_t mask;
    int t = (int)maxt;

    pin(c, 0);
    for (uint32_t e = 0; e < UPDATE_LEN; e++)
        u->w[e] = 1e-9;
    cycles_per_unit(c, run_update, u, &st); /* every idx[e] is 0: one chain */
    scaled(&st, 1.0 / UPDATE_LEN, &r->chain_cycles);
    run_chain_runs(c, u);
    progress(c, "update chain");
    run_atomic(c, u);
    augur_free(u);
    run_fp_latency(c);
    run_fdiv_rate(c);

    /* half the jumps mispredicted: the difference to never taken, per miss */
    mask = 0;
    cycles_per_unit(c, run_branch, &mask, &never);
    mask = 1;
    cycles_per_unit(c, run_branch, &mask, &st);
    less_best(&st, &never);
    scaled(&st, 2, &r->branch_miss_cycles);
    if (r->branch_miss_cycles.best < 0)
        memset(&r->branch_miss_cycles, 0, sizeof(r->branch_miss_cycles));
    progress(c, "branch miss");
    run_branch_learning(c, c->opts->quick);
    run_branch_runs(c, c->opts->quick);
    run_first_touch(c, c->opts->quick);
#ifdef _OPENMP
    {
        /* a team of one still forks and joins through the runtime */
        int one = 1;

        time_per_unit(c, run_region, &one, &r->region1_ns);
    }
#endif

    if (maxt < 2) {
        progress(c, "parallel region");
        return;
    }
    r->region_threads = maxt;
    OMP(omp parallel num_threads(t))
    pin(c, thread_num());
    time_per_unit(c, run_region, &t, &r->region_ns);
    /* the busiest thread takes CHUNKS / t of them, after the region's own cost */
    time_per_unit(c, run_chunks, &t, &chunk);
    less_best(&chunk, &r->region_ns);
    scaled(&chunk, (double)t / CHUNKS, &r->chunk_ns);
    if (r->chunk_ns.best < 0)
        memset(&r->chunk_ns, 0, sizeof(r->chunk_ns));
    progress(c, "parallel region");
    run_transfer(c);
}

/* ---- the plan ------------------------------------------------------------ */

static uint64_t clamp64(uint64_t v, uint64_t lo, uint64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static uint64_t pow2_floor(uint64_t v)
{
    uint64_t p = 1;

    while (p <= v / 2)
        p *= 2;
    return p;
}

/*
 * The working sets of level i: half the level (half of a shared level's
 * share per thread), and at least twice the level above where the levels
 * are close in size. For the chase, one thread.
 */
static uint64_t level_ws(const struct augur_calib_result *r, uint32_t i, uint32_t nthreads,
                         uint64_t cap)
{
    const struct augur_calib_cache *cc = &r->caches[i];
    uint32_t sharing = nthreads < cc->shared_by ? nthreads : cc->shared_by;
    uint64_t ws = cc->size / 2;

    if (i > 0 && ws < 2 * r->caches[i - 1].size)
        ws = (r->caches[i - 1].size + cc->size) / 2;
    if (cap && ws > cap)
        ws = cap;
    return ws / (sharing ? sharing : 1);
}

/* The latency of the memory end of the curve: the mean of its last two points. */
static double curve_mem(const struct augur_calib_curve *lat)
{
    return 0.5 * (lat->y[lat->n - 1].best + lat->y[lat->n - 2].best);
}

/*
 * One thread's load GB/s over ws bytes, the best of two measurements: one
 * disturbed --quick measurement would decide the check below alone.
 */
static double best_load_gbs(struct ctx *c, uint64_t ws)
{
    struct augur_calib_stat a, b;

    measure_bw(c, AUGUR_CALIB_LOAD, 1, ws, &a);
    measure_bw(c, AUGUR_CALIB_LOAD, 1, ws, &b);
    return a.best > b.best ? a.best : b.best;
}

/*
 * Whether a load's rate lies nearer the level's rate than memory's, by
 * ratio: over their geometric mean. A working set twice a cache's size,
 * of which the cache keeps half the lines, streams at the two rates'
 * harmonic mean, under the geometric mean, so on working sets that double
 * the largest one over it is the cache's size, not twice it; and a working
 * set the cache holds while other tenants take part of it (a shared L3's
 * own size) keeps more margin over the geometric mean than over the
 * midpoint, where one run's noise decided.
 */
static bool nearer_level(double gbs, double level_gbs, double mem_gbs)
{
    return gbs > sqrt(level_gbs * mem_gbs);
}

/*
 * The OS's size beyond the curve's reach: the curve's last point at most
 * a quarter of the size (probe_x) is checked against memory's latency,
 * a chase over twice that. Where it takes over 60 % of memory's latency
 * the level does not hold a working set a quarter its claimed size, and
 * the size written is the largest working set a load still streams nearer
 * the level's rate (half the chase's estimate) than memory's (twice
 * probe_x), doubling from the chase's estimate: the largest working set
 * whose latency is under half of memory's.
 */
static void check_beyond(const struct augur_calib_curve *lat, uint64_t os_size, uint64_t above_size,
                         const struct augur_calib_probes *pr, struct augur_calib_llc_check *out)
{
    uint64_t probe_x = 0, est = 0;
    double probe_y = 0, mem_ns, in, mem;

    for (uint32_t i = 0; i < lat->n; i++)
        if (lat->x[i] <= (double)os_size / 4) {
            probe_x = (uint64_t)lat->x[i];
            probe_y = lat->y[i].best;
        }
    if (!probe_x || probe_x <= 2 * above_size || !pr->chase_ns)
        return;
    mem_ns = pr->chase_ns(pr->ud, 2 * probe_x);
    if (!(mem_ns > 0) || probe_y < 0.6 * mem_ns)
        return;
    for (uint32_t i = 0; i < lat->n && lat->x[i] <= (double)probe_x; i++)
        if (lat->y[i].best < 0.5 * mem_ns)
            est = (uint64_t)lat->x[i];
    if (!est || est <= above_size)
        return;
    out->size = out->chase_cap = est;
    out->size_measured = true;
    in = pr->load_gbs(pr->ud, est / 2 > above_size ? est / 2 : est);
    mem = pr->load_gbs(pr->ud, 2 * probe_x);
    if (!(in > 0 && mem > 0))
        return;
    for (uint64_t ws = 2 * est; ws <= probe_x; ws *= 2) {
        if (!nearer_level(pr->load_gbs(pr->ud, ws), in, mem))
            break;
        out->size = out->streamed_to = ws;
    }
}

/*
 * The OS's size of the last-level cache is checked against the latency
 * curve when the curve reaches twice that size (else check_beyond): if a
 * working set of at most half the claimed size (and a quarter of the
 * curve's end) takes longer than the geometric mean of the level's own
 * latency (the curve just past twice the level above) and memory's (the
 * curve's end), it lies nearer memory's, and the cache may not hold it.
 * (Memory's end keeps rising with the page walks of huge working sets, by
 * 3x from 16 MiB to 1 GiB on a VM under nested paging, where a 128 MiB
 * chase at 190 ns lies under 60 % of the end though no cache holds it.) But
 * a random chase can find a shared level smaller than a stream does (on a
 * VM whose 32 MiB L3 other tenants share, a chase over 12 MiB or so is as
 * slow as memory while a load keeps 87 % of 16 MiB there; page walks are
 * not it: a chase of one line a page over 64 MiB of pages takes 35 ns,
 * bench/llc/chase.sh), so streaming decides: where a load over that half
 * streams nearer the level's rate (over an eighth of its size, or half the
 * chase's estimate where that is less: an OS size far beyond the real one
 * would put the first probe in memory too, and noise would decide) than
 * memory's (four times its size), the cache holds it and the OS's size stands; the
 * chase then measures the level's latency no further than the curve stayed
 * nearer the level's latency (chase_cap). Otherwise the size written is
 * the largest working set a load streams nearer the level's rate than
 * memory's, doubling from the chase's estimate (the largest working set
 * whose latency is nearer the level's, still above the level before),
 * with the latency chased within that estimate.
 */
void augur_calib_check_llc(const struct augur_calib_curve *lat, uint64_t os_size,
                           uint64_t above_size, const struct augur_calib_probes *pr,
                           struct augur_calib_llc_check *out)
{
    double mem_ns, inside = 0, in, half, mem, level_ns = 0, held;
    uint64_t inside_ws = 0, est = 0;

    memset(out, 0, sizeof(*out));
    out->size = os_size;
    if (!lat || lat->n < 4 || !os_size || !pr || !pr->load_gbs)
        return;
    if (lat->x[lat->n - 1] < 2.0 * (double)os_size) {
        check_beyond(lat, os_size, above_size, pr, out);
        return;
    }
    mem_ns = curve_mem(lat);
    for (uint32_t i = 0; i < lat->n; i++) {
        if (lat->x[i] <= (double)os_size / 2 && lat->x[i] <= lat->x[lat->n - 1] / 4) {
            inside = lat->y[i].best;
            inside_ws = (uint64_t)lat->x[i];
        }
        if (!level_ns && lat->x[i] >= 2.0 * (double)above_size && lat->y[i].best > 0)
            level_ns = lat->y[i].best;
    }
    held = level_ns > 0 && level_ns < mem_ns ? sqrt(level_ns * mem_ns) : 0.5 * mem_ns;
    if (!inside_ws || inside < held)
        return;
    for (uint32_t i = 0; i < lat->n; i++) {
        if (lat->y[i].best < held)
            est = (uint64_t)lat->x[i];
    }
    if (!est || est <= above_size)
        return;
    /* the level's rate inside what the chase found held, at most an eighth of the OS's size */
    in = pr->load_gbs(pr->ud, os_size / 8 < est / 2 ? os_size / 8 : est / 2);
    half = pr->load_gbs(pr->ud, inside_ws);
    mem = pr->load_gbs(pr->ud, 4 * os_size);
    out->streamed_half_gbs = half;
    if (in > 0 && mem > 0 && nearer_level(half, in, mem)) {
        out->chase_cap = est;
        return;
    }
    out->size = out->chase_cap = est;
    out->size_measured = true;
    /* a stream keeps more of a shared level than a random chase: as far as it streams nearer */
    for (uint64_t ws = 2 * est; in > 0 && mem > 0 && ws < inside_ws; ws *= 2) {
        if (!nearer_level(pr->load_gbs(pr->ud, ws), in, mem))
            break;
        out->size = out->streamed_to = ws;
    }
}

uint64_t augur_calib_streamed_size(const double *bytes, const struct augur_calib_stat *gbs,
                                   uint32_t n, uint64_t above, uint64_t from, uint64_t limit,
                                   double mem_gbs)
{
    uint64_t size = from;
    double in = 0;

    if (!bytes || !gbs || !from || !(mem_gbs > 0))
        return 0;
    for (uint32_t i = 0; i < n; i++)
        if (bytes[i] >= 2.0 * (double)above && bytes[i] <= (double)from && gbs[i].best > in)
            in = gbs[i].best;
    if (!(in > mem_gbs))
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        if (bytes[i] <= (double)from)
            continue;
        if (bytes[i] > (double)limit || !nearer_level(gbs[i].best, in, mem_gbs))
            break;
        size = (uint64_t)bytes[i];
    }
    return size;
}

static double load_probe(void *ud, uint64_t bytes)
{
    return best_load_gbs(ud, bytes);
}

static double chase_probe(void *ud, uint64_t bytes)
{
    struct augur_calib_stat st;

    latency_at(ud, bytes, &st);
    return st.best;
}

static void check_llc(struct ctx *c)
{
    struct augur_calib_result *r = c->res;
    struct augur_calib_cache *llc = r->ncaches ? &r->caches[r->ncaches - 1] : NULL;
    struct augur_calib_llc_check chk;
    const struct augur_calib_probes probes = { load_probe, chase_probe, c };

    for (uint32_t i = 0; i < r->ncaches; i++)
        r->caches[i].size = r->caches[i].os_size;
    if (!llc)
        return;
    augur_calib_check_llc(&r->latency, llc->os_size,
                          r->ncaches >= 2 ? r->caches[r->ncaches - 2].os_size : 0, &probes, &chk);
    llc->size = chk.size;
    llc->size_measured = chk.size_measured;
    llc->chase_cap = chk.chase_cap;
    llc->streamed_to = chk.streamed_to;
    llc->streamed_half_gbs = chk.streamed_half_gbs;
}

/*
 * LRU keeps nothing of a random cyclic chase over twice its lines: every
 * load goes to memory. A last level whose chase at twice its size stays
 * below 80 % of memory's latency keeps part of it, as adaptive insertion
 * does (docs/cachesim.md): its simulated replacement is adaptive.
 */
static void check_replacement(struct augur_calib_result *r)
{
    struct augur_calib_cache *llc = r->ncaches ? &r->caches[r->ncaches - 1] : NULL;
    const struct augur_calib_curve *lat = &r->latency;

    if (!llc || lat->n < 4 || !llc->size)
        return;
    /* the first point at twice the size or beyond (before the two that give memory's latency) */
    for (uint32_t i = 0; i + 2 < lat->n; i++)
        if (lat->x[i] >= 2.0 * (double)llc->size && lat->x[i] < 4.0 * (double)llc->size) {
            llc->latency_2x_ns = lat->y[i].best;
            llc->adaptive = lat->y[i].best < 0.8 * curve_mem(lat);
            break;
        }
}

/*
 * A last-level size that the chase contradicted is decided again on the
 * passes' best sweep. The first pass's probes fix the plan (where the
 * level's latency and rates are measured), but on a VM whose L3 other
 * tenants share one slowed probe there halves the size from one run to the
 * next (8 MiB written where the passes' best load streamed 16 MiB at
 * 89 GB/s, the level's rate 100 and memory's 35): the best of every pass
 * is the witness that repeats. The level's rate is the sweep's own within
 * the chase's estimate, not the level's bandwidth, which was measured
 * over half the size the first pass chose (81 GB/s over 32 MiB where the
 * sweep streamed 96 within 8 MiB). The replacement is then checked at the
 * size written.
 */
static void settle_llc(struct augur_calib_result *r)
{
    struct augur_calib_cache *llc = r->ncaches ? &r->caches[r->ncaches - 1] : NULL;
    uint64_t size;
    uint32_t t = 0;

    while (t < r->nthreads && r->threads[t] != 1)
        t++;
    if (!llc || !llc->size_measured || t == r->nthreads)
        return;
    size = augur_calib_streamed_size(r->sweep_bytes, r->sweep[AUGUR_CALIB_LOAD][t], r->nsweep,
                                     r->ncaches >= 2 ? r->caches[r->ncaches - 2].size : 0,
                                     llc->chase_cap, llc->os_size,
                                     r->mem_bw[AUGUR_CALIB_LOAD][t].best);
    if (!size || size == llc->size)
        return;
    llc->size = size;
    llc->streamed_to = size > llc->chase_cap ? size : 0;
    llc->latency_2x_ns = 0;
    llc->adaptive = false;
    check_replacement(r);
}

/* Memory's working set: past every cache (times factor), within lo .. hi. */
static uint64_t mem_ws_for(const struct augur_calib_result *r, bool os, uint64_t factor,
                           uint64_t lo, uint64_t hi)
{
    uint64_t llc = 0;

    if (r->ncaches) {
        const struct augur_calib_cache *cc = &r->caches[r->ncaches - 1];
        uint32_t inst = (r->cores + cc->shared_by - 1) / (cc->shared_by ? cc->shared_by : 1);

        llc = (os ? cc->os_size : cc->size) * (inst ? inst : 1);
    }
    return pow2_floor(clamp64(factor * llc, lo, hi));
}

static uint32_t count_doublings(uint64_t from, uint64_t to, uint64_t factor)
{
    uint32_t n = 0;

    for (uint64_t s = from; s <= to && n < AUGUR_CALIB_MAX_POINTS; s *= factor)
        n++;
    return n;
}

static int check_opts(const struct augur_calib_opts *opts, struct augur_diag *diag)
{
    if (opts->nthreads > AUGUR_CALIB_MAX_THREADS)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "at most %d thread counts can be measured in one run",
                              AUGUR_CALIB_MAX_THREADS);
    for (uint32_t i = 0; i < opts->nthreads; i++) {
        if (opts->threads[i] == 0 || opts->threads[i] > 1024)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "thread count %u is out of range [1, 1024]", opts->threads[i]);
#ifndef _OPENMP
        if (opts->threads[i] > 1)
            return augur_diag_set(diag, AUGUR_EUNSUP, NULL, 0, 0,
                                  "this augur was built without OpenMP: one thread only");
#endif
    }
    return 0;
}

static void describe(struct ctx *c)
{
    struct augur_calib_result *r = c->res;
    const struct augur_calib_opts *opts = c->opts;
    time_t now = time(NULL);
    struct tm tm;

    if (localtime_r(&now, &tm))
        strftime(r->date, sizeof(r->date), "%Y-%m-%dT%H:%M:%S%z", &tm);
    if (gethostname(r->host, sizeof(r->host)) != 0)
        r->host[0] = '\0';
    augur_calib_host_id(r->host_id, sizeof(r->host_id));
    r->host[sizeof(r->host) - 1] = '\0';
    topology(c);
    for (uint32_t i = 0; i < r->ncaches; i++) {
        snprintf(r->caches[i].name, sizeof(r->caches[i].name), "L%u", r->caches[i].level);
        r->caches[i].size = r->caches[i].os_size;
    }
#if defined(__x86_64__) || defined(__i386__)
    r->avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
                __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                __builtin_cpu_supports("avx512vl");
    r->simd_bits = __builtin_cpu_supports("avx512f") ? 512
                   : __builtin_cpu_supports("avx2")  ? 256
                                                     : 128;
#else
    r->simd_bits = 128;
#endif
    if (opts->nthreads) {
        /* Ascending, without repeats: the machine file's tables are. */
        for (uint32_t i = 0; i < opts->nthreads; i++) {
            uint32_t t = opts->threads[i], j = r->nthreads;

            while (j > 0 && r->threads[j - 1] > t)
                j--;
            if (j > 0 && r->threads[j - 1] == t)
                continue;
            memmove(r->threads + j + 1, r->threads + j, (r->nthreads - j) * sizeof(uint32_t));
            r->threads[j] = t;
            r->nthreads++;
        }
    } else {
        r->nthreads = r->cores < AUGUR_CALIB_MAX_THREADS ? r->cores : AUGUR_CALIB_MAX_THREADS;
#ifndef _OPENMP
        r->nthreads = 1;
#endif
        for (uint32_t i = 0; i < r->nthreads; i++)
            r->threads[i] = i + 1;
    }
}

static void run_latency(struct ctx *c, bool quick, uint64_t curve_max)
{
    struct augur_calib_result *r = c->res;

    for (uint64_t s = 4 * KIB; s <= curve_max && r->latency.n < AUGUR_CALIB_MAX_POINTS;
         s *= quick ? 4 : 2) {
        r->latency.x[r->latency.n] = (double)s;
        latency_at(c, s, &r->latency.y[r->latency.n]);
        r->latency.n++;
        progress(c, "latency curve");
    }
}

static void run_level_latency_and_mlp(struct ctx *c, int nmlp)
{
    static const int chains[] = { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32 };
    struct augur_calib_result *r = c->res;
    struct chase ch;

    for (uint32_t i = 0; i < r->ncaches; i++) {
        struct augur_calib_cache *cc = &r->caches[i];

        cc->ws_chase = level_ws(r, i, 1, c->ws_cap);
        /*
         * A level's latency is measured just past the level above: twice its
         * size is missed there (a random cycle defeats LRU) and sits well
         * inside this level, even when other tenants hold most of a shared
         * last level (on a VM whose 32 MiB L3 others share, a chase over 4 MiB
         * swung between 13 and 140 ns from one run to the next, one over 2 MiB
         * stayed near 11).
         */
        if (i > 0 && 2 * r->caches[i - 1].size < cc->ws_chase)
            cc->ws_chase = 2 * r->caches[i - 1].size;
        if (cc->chase_cap && cc->ws_chase > cc->chase_cap)
            cc->ws_chase = cc->chase_cap;
        latency_at(c, cc->ws_chase, &cc->latency_ns);
        progress(c, "latency per level");
    }
    chase_build(c, r->mem_ws_chase, &ch);
    chase_measure(c, &ch, 1, &r->mem_latency_ns);
    progress(c, "memory latency");
    for (int j = 0; j < nmlp; j++) {
        int k = c->opts->quick ? 1 << j : chains[j];

        r->mlp.x[r->mlp.n] = k;
        if (k == 1)
            r->mlp.y[r->mlp.n] = r->mem_latency_ns;
        else
            chase_measure(c, &ch, k, &r->mlp.y[r->mlp.n]);
        r->mlp.n++;
        progress(c, "service time vs chains in flight");
    }
    chase_release(&ch);
}

static void run_bandwidth(struct ctx *c)
{
    struct augur_calib_result *r = c->res;

    for (uint32_t i = 0; i < r->ncaches; i++)
        r->caches[i].ws_thread = level_ws(r, i, 1, c->ws_cap);
    for (uint32_t t = 0; t < r->nthreads; t++) {
        for (uint32_t i = 0; i <= r->ncaches; i++) {
            for (int k = 0; k < AUGUR_CALIB_NKERNELS; k++) {
                if (i < r->ncaches)
                    measure_bw(c, (enum augur_calib_kernel)k, r->threads[t],
                               level_ws(r, i, r->threads[t], c->ws_cap), &r->caches[i].bw[k][t]);
                else
                    measure_bw(c, (enum augur_calib_kernel)k, r->threads[t],
                               r->mem_ws_thread / r->threads[t], &r->mem_bw[k][t]);
                progress(c, "bandwidth per level");
            }
        }
    }
    for (uint32_t t = 0; t < r->nthreads; t++) {
        for (int k = 0; k < AUGUR_CALIB_NKERNELS; k++) {
            for (uint32_t p = 0; p < r->nsweep; p++) {
                measure_bw(c, (enum augur_calib_kernel)k, r->threads[t],
                           (uint64_t)r->sweep_bytes[p] / r->threads[t], &r->sweep[k][t][p]);
                progress(c, "bandwidth sweep");
            }
        }
    }
}

static void run_gather(struct ctx *c, uint64_t gmax, uint64_t step)
{
    struct augur_calib_result *r = c->res;
    void *xraw;
    double *x = alloc_aligned(gmax, &xraw);
    uint64_t l1 = r->ncaches ? pow2_floor(r->caches[0].size) : 32 * KIB;

    for (size_t i = 0; i < gmax / 8; i++)
        x[i] = 1.0;
    for (uint64_t range = 4 * KIB; range <= gmax && r->gather.n < AUGUR_CALIB_MAX_POINTS;
         range *= step) {
        r->gather.x[r->gather.n] = (double)range;
        gather_at(c, x, range, false, false, &r->gather.y[r->gather.n]);
        r->gather.n++;
        progress(c, "gather vs range");
    }
    seq_load_at(c, l1 / 2, &r->load_ns_per_element);
    gather_at(c, x, l1 / 2, false, true, &r->gather_cycles);
    progress(c, "gather in L1");
    gather_at(c, x, l1 / 2, true, true, &r->scatter_cycles);
    progress(c, "scatter in L1");
    augur_free(xraw);
}

/* ---- passes ----------------------------------------------------------------- */

/* What a pass measures: the plan the first pass fixed. */
struct pass_plan {
    bool quick;
    uint64_t curve_max;
    int nmlp;
    uint64_t gmax, gstep;
    uint32_t maxt;
};

/*
 * Every measured item of a result, in a fixed order: a stat, or a curve
 * (whose points line up across passes only when the curve has as many
 * points: one may stop early in a pass). key marks what a prediction reads.
 */
struct item {
    struct augur_calib_stat *st;
    struct augur_calib_curve *cv;
    bool key;
};

static void add_ref(struct augur_vec *v, struct augur_calib_stat *st, bool key)
{
    struct item *it = augur_vec_push(v);

    it->st = st;
    it->key = key;
}

static void add_curve(struct augur_vec *v, struct augur_calib_curve *cv, bool key)
{
    struct item *it = augur_vec_push(v);

    it->cv = cv;
    it->key = key;
}

static void list_stats(struct augur_calib_result *r, struct augur_vec *v)
{
    add_ref(v, &r->clock_ghz, true);
    for (uint32_t i = 0; i < r->ncaches; i++) {
        add_ref(v, &r->caches[i].latency_ns, true);
        for (int k = 0; k < AUGUR_CALIB_NKERNELS; k++)
            for (uint32_t t = 0; t < r->nthreads; t++)
                add_ref(v, &r->caches[i].bw[k][t], k == AUGUR_CALIB_LOAD);
    }
    add_ref(v, &r->mem_latency_ns, true);
    for (int k = 0; k < AUGUR_CALIB_NKERNELS; k++)
        for (uint32_t t = 0; t < r->nthreads; t++)
            add_ref(v, &r->mem_bw[k][t], k == AUGUR_CALIB_LOAD);
    add_curve(v, &r->mlp, true);
    add_curve(v, &r->latency, false);
    for (int k = 0; k < AUGUR_CALIB_NKERNELS; k++)
        for (uint32_t t = 0; t < r->nthreads; t++)
            for (uint32_t p = 0; p < r->nsweep; p++)
                add_ref(v, &r->sweep[k][t][p], false);
    add_curve(v, &r->gather, false);
    add_ref(v, &r->load_ns_per_element, false);
    add_ref(v, &r->gather_cycles, true);
    add_ref(v, &r->scatter_cycles, true);
    add_ref(v, &r->chain_cycles, true);
    add_ref(v, &r->branch_miss_cycles, true);
    add_ref(v, &r->region_ns, true);
    add_ref(v, &r->chunk_ns, false);
    add_ref(v, &r->fadd_cycles, true);
    add_ref(v, &r->fma_cycles, true);
    add_ref(v, &r->fdiv_cycles, false);
    add_ref(v, &r->atomic_cycles, true);
    add_ref(v, &r->atomic_mlp, false);
    add_ref(v, &r->region1_ns, true);
    add_curve(v, &r->transfer, false);
    add_curve(v, &r->branch_learned, false);
    add_curve(v, &r->branch_run_cycles, false);
    add_curve(v, &r->branch_run_left, false);
    add_curve(v, &r->chain_runs, false);
    add_curve(v, &r->first_touch, false);
    add_curve(v, &r->streams, true);
}

static double median_of(double *v, uint32_t n)
{
    qsort(v, n, sizeof(*v), augur_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

enum { MAX_PASSES = AUGUR_CALIB_PASSES + AUGUR_CALIB_EXTRA_PASSES };

/*
 * Merges the stats s[0 .. n) of the passes into *out: the best of the
 * passes' bests (a rate's highest, a time's lowest: other load only ever
 * slows a repetition, and passes spread over the run let one of them find a
 * quiet moment; a ratio's median: noise moves it either way), the median of
 * their medians; true when key and unstable.
 */
bool augur_calib_stat_merge(const struct augur_calib_stat *const *s, uint32_t n, bool key,
                            struct augur_calib_stat *out)
{
    double med[MAX_PASSES], bests[MAX_PASSES];
    struct augur_calib_stat st;
    bool rate = false;

    if (n == 0 || n > MAX_PASSES)
        return false;
    memset(&st, 0, sizeof(st));
    for (uint32_t k = 0; k < n; k++) {
        rate |= s[k]->best == s[k]->max && s[k]->max != s[k]->min;
        st.ratio |= s[k]->ratio;
    }
    for (uint32_t k = 0; k < n; k++) {
        med[k] = s[k]->median;
        bests[k] = s[k]->best;
        st.min = k == 0 || s[k]->min < st.min ? s[k]->min : st.min;
        st.max = k == 0 || s[k]->max > st.max ? s[k]->max : st.max;
        st.pass_lo = k == 0 || s[k]->best < st.pass_lo ? s[k]->best : st.pass_lo;
        st.pass_hi = k == 0 || s[k]->best > st.pass_hi ? s[k]->best : st.pass_hi;
        st.reps += s[k]->reps;
        st.preempted += s[k]->preempted;
    }
    st.passes = n;
    st.best = st.ratio ? median_of(bests, n) : rate ? st.pass_hi : st.pass_lo;
    st.median = median_of(med, n);
    st.unstable = key && n > 1 && fabs(st.best) > 0 &&
                  st.pass_hi - st.pass_lo > AUGUR_CALIB_UNSTABLE * fabs(st.best);
    *out = st;
    return st.unstable;
}

/*
 * Merges the passes into out (a copy of the first), stat by stat; returns how
 * many key stats stay unstable.
 */
static uint32_t merge_passes(struct augur_calib_result *const *pass, uint32_t npass,
                             struct augur_calib_result *out)
{
    struct augur_vec items[MAX_PASSES], mine;
    uint32_t nunstable = 0;

    augur_vec_init(&mine, sizeof(struct item));
    list_stats(out, &mine);
    for (uint32_t p = 0; p < npass; p++) {
        augur_vec_init(&items[p], sizeof(struct item));
        list_stats(pass[p], &items[p]);
    }
    for (size_t i = 0; i < mine.len; i++) {
        struct item *m = &AUGUR_VEC_AT(&mine, struct item, i);
        const struct augur_calib_stat *s[MAX_PASSES];
        uint32_t n = 0;

        if (m->st) {
            for (uint32_t p = 0; p < npass; p++)
                if (items[p].len == mine.len)
                    s[n++] = AUGUR_VEC_AT(&items[p], struct item, i).st;
            nunstable += augur_calib_stat_merge(s, n, m->key, m->st);
            continue;
        }
        for (uint32_t k = 0; k < m->cv->n; k++) {
            n = 0;
            for (uint32_t p = 0; p < npass; p++) {
                const struct augur_calib_curve *cv =
                    items[p].len == mine.len ? AUGUR_VEC_AT(&items[p], struct item, i).cv : NULL;

                if (cv && cv->n == m->cv->n && cv->x[k] == m->cv->x[k])
                    s[n++] = &cv->y[k];
            }
            nunstable += augur_calib_stat_merge(s, n, m->key, &m->cv->y[k]);
        }
    }
    for (uint32_t p = 0; p < npass; p++)
        augur_vec_release(&items[p]);
    augur_vec_release(&mine);
    return nunstable;
}

/* Empties the curves a pass fills point by point (their points stay where the plan put them). */
static void reset_curves(struct augur_calib_result *r)
{
    r->mlp.n = r->latency.n = r->gather.n = r->transfer.n = 0;
    r->branch_learned.n = r->branch_run_cycles.n = r->branch_run_left.n = 0;
    r->chain_runs.n = r->first_touch.n = r->streams.n = 0;
}

/* One more pass over every measurement, on the first pass's plan, into its own result. */
static struct augur_calib_result *one_pass(struct ctx *c, const struct augur_calib_result *first,
                                           const struct pass_plan *pp)
{
    struct augur_calib_result *r = augur_malloc(sizeof(*r));

    memcpy(r, first, sizeof(*r));
    reset_curves(r);
    c->res = r;
    measure_clock(c);
    run_latency(c, pp->quick, pp->curve_max);
    run_level_latency_and_mlp(c, pp->nmlp);
    run_bandwidth(c);
    run_gather(c, pp->gmax, pp->gstep);
    run_streams(c);
    run_core(c, pp->maxt);
    return r;
}

/*
 * The passes after the first (c->res), and extra ones while a value a
 * prediction reads is unstable; returns the merged result (the first's
 * memory), the others freed.
 */
static struct augur_calib_result *run_passes(struct ctx *c, const struct pass_plan *pp)
{
    struct augur_calib_result *pass[MAX_PASSES];
    struct augur_calib_result *merged = augur_malloc(sizeof(*merged));
    uint32_t n = 1, unstable;

    pass[0] = c->res;
    while (n < AUGUR_CALIB_PASSES)
        pass[n++] = one_pass(c, pass[0], pp);
    memcpy(merged, pass[0], sizeof(*merged));
    unstable = merge_passes(pass, n, merged);
    while (unstable && n < AUGUR_CALIB_PASSES + AUGUR_CALIB_EXTRA_PASSES) {
        c->nsteps += c->nsteps / AUGUR_CALIB_PASSES;
        pass[n++] = one_pass(c, pass[0], pp);
        memcpy(merged, pass[0], sizeof(*merged));
        unstable = merge_passes(pass, n, merged);
    }
    merged->passes = n;
    merged->nunstable = unstable;
    memcpy(pass[0], merged, sizeof(*merged));
    augur_free(merged);
    for (uint32_t p = 1; p < n; p++)
        augur_free(pass[p]);
    c->res = pass[0];
    return pass[0];
}

int augur_calibrate(const struct augur_calib_opts *opts, struct augur_calib_result **out,
                    struct augur_diag *diag)
{
    struct augur_calib_opts def;
    struct ctx c;
    struct augur_calib_result *r;
    uint64_t curve_max, ram_cap, gmax, gstep;
    double start = augur_now();
    uint32_t maxt = 1, nlat, nsweep;
    int nmlp, rc;
    bool quick;

    if (!opts) {
        memset(&def, 0, sizeof(def));
        opts = &def;
    }
    rc = check_opts(opts, diag);
    if (rc)
        return rc;
    quick = opts->quick;
    memset(&c, 0, sizeof(c));
    r = augur_calloc(1, sizeof(*r));
    c.res = r;
    c.opts = opts;
    c.seed = 0x5eed5eedull;
    c.reps = quick ? 3 : 7;
    c.tries = quick ? 2 * c.reps : 4 * c.reps;
    c.min_rep = quick ? 0.002 : 0.010;
    r->quick = quick;
    r->reps = c.reps;
    r->min_rep_seconds = c.min_rep;
    describe(&c);
    for (uint32_t i = 0; i < r->nthreads; i++)
        maxt = r->threads[i] > maxt ? r->threads[i] : maxt;
    c.pools = augur_calloc(maxt, sizeof(*c.pools));

    /*
     * The plan. Quick: the latency curve x4 up to 64 MiB, memory at 64-256
     * MiB. Full: the curve x2 up to twice the last cache (to check it) or
     * memory's working set, memory at 256 MiB to 2 GiB (a quarter of the RAM).
     */
    ram_cap = c.ram ? c.ram / 4 : GIB;
    ram_cap = ram_cap > 2 * GIB ? 2 * GIB : ram_cap < 64 * MIB ? 64 * MIB : ram_cap;
    if (quick) {
        r->mem_ws_chase = mem_ws_for(r, true, 4, 64 * MIB, 128 * MIB);
        curve_max = 64 * MIB;
    } else {
        r->mem_ws_chase = mem_ws_for(r, true, 2, 256 * MIB, ram_cap);
        curve_max = mem_ws_for(r, true, 2, 256 * MIB, ram_cap);
    }
    nlat = count_doublings(4 * KIB, curve_max, quick ? 4 : 2);
    nsweep = quick ? 0 : count_doublings(16 * KIB, r->mem_ws_chase, 2);
    nmlp = quick ? 6 : 10;
    gmax = quick ? 64 * MIB : 256 * MIB;
    gstep = quick ? 16 : 4;
    c.nsteps = 1 + (int)nlat + (int)r->ncaches + 1 + nmlp +
               (int)((r->ncaches + 1) * AUGUR_CALIB_NKERNELS * r->nthreads) +
               (int)count_doublings(4 * KIB, gmax, gstep) + 2 + 6 + 1 +
               (int)(nsweep * AUGUR_CALIB_NKERNELS * r->nthreads);

    c.nsteps *= AUGUR_CALIB_PASSES;
    r->fused_chains = probe_fused_chains(r->fused_cc, sizeof(r->fused_cc));
    measure_clock(&c);
    run_latency(&c, quick, curve_max);
    check_llc(&c);
    check_replacement(r);
    if (quick) {
        /* Unchecked sizes: keep every level's working set under memory's. */
        r->mem_ws_chase = mem_ws_for(r, false, 4, 64 * MIB, 128 * MIB);
        c.ws_cap = r->mem_ws_chase / 4;
    } else if (r->ncaches && r->caches[r->ncaches - 1].size_measured)
        r->mem_ws_chase = mem_ws_for(r, false, 8, 256 * MIB, r->mem_ws_chase);
    r->mem_ws_thread = r->mem_ws_chase;
    if (!quick) {
        for (uint64_t s = 16 * KIB; s <= r->mem_ws_thread && r->nsweep < AUGUR_CALIB_MAX_POINTS;
             s *= 2)
            r->sweep_bytes[r->nsweep++] = (double)s;
        c.nsteps += ((int)r->nsweep - (int)nsweep) * AUGUR_CALIB_NKERNELS * (int)r->nthreads;
    }
    run_level_latency_and_mlp(&c, nmlp);
    run_bandwidth(&c);
    run_gather(&c, gmax, gstep);
    run_streams(&c);
    run_core(&c, maxt);
    {
        struct pass_plan pp = { quick, curve_max, nmlp, gmax, gstep, maxt };

        r = run_passes(&c, &pp);
    }
    settle_llc(r);
    for (uint32_t t = 0; t < maxt; t++) {
        for (int j = 0; j < 3; j++)
            augur_free(c.pools[t].raw[j]);
    }
    augur_free(c.pools);
    unpin_all(&c, maxt);
    topology_release(&c);
    r->seconds = augur_now() - start;
    *out = r;
    return 0;
}

void augur_calib_free(struct augur_calib_result *res)
{
    augur_free(res);
}
