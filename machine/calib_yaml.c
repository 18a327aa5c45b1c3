/*
 * calib_yaml.c - writes the result of `augur calibrate` as a machine file
 * (docs/machine.md): each measured field with a comment naming the
 * benchmark and the spread of its repetitions, the curves as comments
 * (module: machine).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "augur/base.h"
#include "augur/calibrate.h"
#include "calib_int.h"

#define COMMENT_COL 32

/* A number with about four significant digits, never in exponent form. */
static void put_num(struct augur_buf *b, double v)
{
    if (v >= 1000)
        augur_buf_printf(b, "%.0f", v);
    else if (v >= 100)
        augur_buf_printf(b, "%.1f", v);
    else if (v >= 10)
        augur_buf_printf(b, "%.2f", v);
    else if (v >= 0.1)
        augur_buf_printf(b, "%.3f", v);
    else
        augur_buf_printf(b, "%.4f", v);
}

static void put_size(struct augur_buf *b, uint64_t v)
{
    if (v >= (UINT64_C(1) << 30) && v % (UINT64_C(1) << 30) == 0)
        augur_buf_printf(b, "%llu GiB", (unsigned long long)(v >> 30));
    else if (v >= (UINT64_C(1) << 20) && v % (UINT64_C(1) << 20) == 0)
        augur_buf_printf(b, "%llu MiB", (unsigned long long)(v >> 20));
    else if (v >= 1024 && v % 1024 == 0)
        augur_buf_printf(b, "%llu KiB", (unsigned long long)(v >> 10));
    else
        augur_buf_printf(b, "%llu", (unsigned long long)v);
}

/* put_size's text in out (a comment's phrase built with snprintf). */
static const char *size_text(uint64_t v, char *out, size_t size)
{
    struct augur_buf tmp;

    augur_buf_init(&tmp);
    put_size(&tmp, v);
    snprintf(out, size, "%s", tmp.s ? tmp.s : "");
    augur_buf_release(&tmp);
    return out;
}

/*
 * A curve of the core section as "key: [[x, y], ...]" of the best values,
 * after a comment saying what they are; y clamped to [0, cap] when cap > 0.
 * Nothing for an empty curve.
 */
static void put_pairs(struct augur_buf *b, const char *key, const char *what,
                      const struct augur_calib_curve *cv, double cap)
{
    if (!cv->n)
        return;
    augur_buf_printf(b, "\n  # %s: %s\n  %s: [", key, what, key);
    for (uint32_t i = 0; i < cv->n; i++) {
        double y = cv->y[i].best;

        if (cap > 0)
            y = y < 0 ? 0 : y > cap ? cap : y;
        augur_buf_printf(b, "%s[%.0f, ", i ? ", " : "", cv->x[i]);
        put_num(b, y);
        augur_buf_putc(b, ']');
    }
    augur_buf_putc(b, ']');
}

/* Pads the current line to the comment column and opens a comment. */
static void comment(struct augur_buf *b)
{
    const char *nl = strrchr(b->s, '\n');
    size_t col = nl ? (size_t)(b->s + b->len - nl - 1) : b->len;

    for (; col < COMMENT_COL; col++)
        augur_buf_putc(b, ' ');
    augur_buf_puts(b, " # ");
}

/*
 * core.prefetch_streams from the streams curve, with the curve in its
 * comment; where the curve has no step, a comment saying so (the
 * default stands).
 */
static void put_prefetch_streams(struct augur_buf *b, const struct augur_calib_result *r)
{
    const struct augur_calib_curve *cv = &r->streams;
    uint32_t k = augur_calib_prefetch_streams(cv);

    if (!cv->n)
        return;
    augur_buf_puts(b,
                   "\n  # streams: [sequential streams interleaved, ns per line]: one load\n"
                   "  # instruction walks k parts of an array in memory a line of each in turn:");
    for (uint32_t i = 0; i < cv->n; i++) {
        augur_buf_printf(b, "%s %.0f: ", i % 6 ? "," : "\n  #  ", cv->x[i]);
        put_num(b, cv->y[i].best);
    }
    if (k) {
        augur_buf_printf(b, "\n  prefetch_streams: %u", k);
        comment(b);
        augur_buf_puts(b, "streams: the last count before the cost per line passes half-way "
                          "from few streams' to the most's");
    } else {
        augur_buf_puts(b, "\n  # prefetch_streams: not written, the cost per line does not step "
                          "up with the streams (the default stands)");
    }
}

/* "median M, range min..max" of a stat. */
static void put_spread(struct augur_buf *b, const struct augur_calib_stat *st)
{
    augur_buf_puts(b, "median ");
    put_num(b, st->median);
    augur_buf_puts(b, ", range ");
    put_num(b, st->min);
    augur_buf_puts(b, "..");
    put_num(b, st->max);
    if (st->preempted)
        augur_buf_printf(b, " (%u of %u preempted)", st->preempted, st->reps);
    if (st->passes > 1) {
        augur_buf_printf(b, "; %u passes ", st->passes);
        put_num(b, st->pass_lo);
        augur_buf_puts(b, "..");
        put_num(b, st->pass_hi);
    }
    if (st->unstable)
        augur_buf_puts(b, "; UNSTABLE: the passes differ by more than 10 %, re-run calibrate on "
                          "a quieter machine or check it with calibrate --check");
}

/* "\n  key: value  # what; spread" for a core cost that was measured (above zero). */
static void put_core_stat(struct augur_buf *b, const char *key, const struct augur_calib_stat *st,
                          const char *what)
{
    if (!(st->best > 0))
        return;
    augur_buf_printf(b, "\n  %s: ", key);
    put_num(b, st->best);
    comment(b);
    augur_buf_printf(b, "%s; ", what);
    put_spread(b, st);
}

static void put_quoted(struct augur_buf *b, const char *s)
{
    augur_buf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            augur_buf_putc(b, '\\');
        if ((unsigned char)*s >= 0x20)
            augur_buf_putc(b, *s);
    }
    augur_buf_putc(b, '"');
}

/* "{1: 150.3, 2: 298.1}" and its comment's spreads. */
static void put_bw(struct augur_buf *b, const struct augur_calib_result *r,
                   const struct augur_calib_stat *bw, const char *what)
{
    augur_buf_putc(b, '{');
    for (uint32_t t = 0; t < r->nthreads; t++) {
        augur_buf_printf(b, "%s%u: ", t ? ", " : "", r->threads[t]);
        put_num(b, bw[t].best);
    }
    augur_buf_putc(b, '}');
    comment(b);
    augur_buf_printf(b, "%s;", what);
    for (uint32_t t = 0; t < r->nthreads; t++) {
        augur_buf_printf(b, "%s %u thread%s: ", t ? ";" : "", r->threads[t],
                         r->threads[t] == 1 ? "" : "s");
        put_spread(b, &bw[t]);
    }
    augur_buf_putc(b, '\n');
}

/* The copy and triad figures of a level, as a comment line. */
static void put_other_kernels(struct augur_buf *b, const struct augur_calib_result *r,
                              const struct augur_calib_stat bw[][AUGUR_CALIB_MAX_THREADS],
                              const char *indent)
{
    for (int k = AUGUR_CALIB_COPY; k < AUGUR_CALIB_NKERNELS; k++) {
        augur_buf_printf(b, "%s# %s, GB/s (%s):", indent, augur_calib_kernel_name(k),
                         k == AUGUR_CALIB_COPY ? "read + write" : "two reads + write");
        for (uint32_t t = 0; t < r->nthreads; t++) {
            augur_buf_printf(b, "%s %u thread%s ", t ? ";" : "", r->threads[t],
                             r->threads[t] == 1 ? "" : "s");
            put_num(b, bw[k][t].best);
            augur_buf_puts(b, " (");
            put_spread(b, &bw[k][t]);
            augur_buf_putc(b, ')');
        }
        augur_buf_putc(b, '\n');
    }
}

static void put_curve_comment(struct augur_buf *b, const struct augur_calib_curve *cv, bool sizes)
{
    for (uint32_t i = 0; i < cv->n; i++) {
        if (i % 6 == 0)
            augur_buf_puts(b, i ? "\n#  " : "#  ");
        augur_buf_puts(b, " ");
        if (sizes)
            put_size(b, (uint64_t)cv->x[i]);
        else
            put_num(b, cv->x[i]);
        augur_buf_puts(b, ": ");
        put_num(b, cv->y[i].best);
        augur_buf_puts(b, i + 1 < cv->n ? "," : "");
    }
    augur_buf_putc(b, '\n');
}

void augur_calib_yaml(const struct augur_calib_result *r, struct augur_buf *b)
{
    double ghz = r->clock_ghz.best;
    const char *kernel = r->avx512 ? "AVX-512" : "scalar C";

    augur_buf_printf(b,
                     "# This machine, measured by `augur calibrate`%s (augur %s, method %d) on "
                     "%s, %s.\n",
                     r->quick ? " --quick" : "", augur_version(), AUGUR_CALIB_METHOD,
                     r->host[0] ? r->host : "?", r->date);
    augur_buf_printf(b, "# CPU: %s%s%s%s; %u cores, %u thread%s per core (topology: %s).\n",
                     r->cpu_model[0] ? r->cpu_model : "unknown", r->cpu_vendor[0] ? " [" : "",
                     r->cpu_vendor, r->cpu_vendor[0] ? "]" : "", r->cores, r->threads_per_core,
                     r->threads_per_core == 1 ? "" : "s", r->topology_source);
    augur_buf_printf(b,
                     "# Each measured value is the best of %u passes (each pass measures\n"
                     "# everything once, so a noisy minute disturbs one pass of every value) of\n"
                     "# %u repetitions each of at least %g ms (the fastest: other load only\n"
                     "# ever slows a repetition down), after a warm-up, timed with\n"
                     "# CLOCK_MONOTONIC, threads pinned one per core. A value \"in cycles\" is\n"
                     "# each repetition's time against the add chain of clock_ghz run before\n"
                     "# and after it; a pass takes the repetitions' median, the value the\n"
                     "# passes' median. Each comment names the benchmark and gives the median\n"
                     "# and range of the repetitions and the range of the passes. %u value%s\n"
                     "# a prediction reads %s unstable (passes over\n"
                     "# 10 %% apart). The whole run took %.1f s.\n",
                     r->passes, r->reps, r->min_rep_seconds * 1e3, r->nunstable,
                     r->nunstable == 1 ? "" : "s", r->nunstable == 1 ? "is" : "are", r->seconds);
    augur_buf_puts(b, "name: ");
    {
        char name[200];

        /* The loader takes 64 characters: the model's first 50, then the day. */
        snprintf(name, sizeof(name), "%.50s %.10s", r->cpu_model[0] ? r->cpu_model : "calibrated",
                 r->date);
        put_quoted(b, name);
    }
    augur_buf_puts(b, "\nkind: cpu");
    if (r->host_id[0]) {
        augur_buf_puts(b, "\nhost_id: ");
        put_quoted(b, r->host_id);
        comment(b);
        augur_buf_puts(b, "the processor measured (vendor, model, stepping, CPUs, caches)");
    }
    augur_buf_puts(b, "\nclock_ghz: ");
    put_num(b, ghz);
    comment(b);
    augur_buf_puts(b, "clock: chains of 16 dependent integer adds (1 cycle each); ");
    put_spread(b, &r->clock_ghz);
    if (r->os_mhz > 0)
        augur_buf_printf(b, "; the OS reports %.0f MHz", r->os_mhz);
    augur_buf_printf(b, "\ncores: %u", r->cores);
    comment(b);
    augur_buf_printf(b, "%s\nthreads_per_core: %u", r->topology_source, r->threads_per_core);
    comment(b);
    augur_buf_printf(b, "%s\n", r->topology_source);

    augur_buf_printf(b, "simd:\n  width_bits: %u", r->simd_bits);
    comment(b);
    augur_buf_printf(b, "cpuid: %s\n  gather_cycles_per_element: ",
                     r->simd_bits == 512   ? "avx512f"
                     : r->simd_bits == 256 ? "avx2"
                                           : "baseline");
    put_num(b, r->gather_cycles.best);
    comment(b);
    augur_buf_printf(b, "gather: %s, random indices in half of L1, in cycles; ",
                     r->avx512 ? "_mm512_i32gather_pd" : "scalar loads");
    put_spread(b, &r->gather_cycles);
    augur_buf_puts(b, "\n  scatter_cycles_per_element: ");
    put_num(b, r->scatter_cycles.best);
    comment(b);
    augur_buf_printf(b, "scatter: %s, random indices in half of L1, in cycles; ",
                     r->avx512 ? "_mm512_i32scatter_pd" : "scalar stores");
    put_spread(b, &r->scatter_cycles);
    augur_buf_putc(b, '\n');

    /* the core's data-dependent costs; its issue rates are left to the defaults or a fit */
    augur_buf_puts(b, "core:");
    put_core_stat(b, "chain_cycles", &r->chain_cycles,
                  "update chain: y[i[e]] += w[e] with every i[e] equal, in L1, in cycles");
    put_core_stat(b, "fadd_latency", &r->fadd_cycles, "s += w[e], in L1, in cycles");
    put_core_stat(b, "fma_latency", &r->fma_cycles, "s = fma(w[e], k, s), in L1, in cycles");
    if (r->fused_chains >= 0) {
        augur_buf_printf(b, "\n  fused_chains: %s", r->fused_chains ? "true" : "false");
        comment(b);
        augur_buf_printf(b, "%s -O3 -march=native %s s += a[i] * x[c[i]] as one multiply-add",
                         r->fused_cc, r->fused_chains ? "keeps" : "does not keep");
    }
    put_core_stat(b, "fdiv_cycles", &r->fdiv_cycles,
                  "8 independent scalar divisions a = k / (a + w), per division, in cycles");
    put_core_stat(b, "atomic_cycles", &r->atomic_cycles,
                  "y[i[e]] += w[e] under omp atomic against plain, i a permutation in L1, per "
                  "update, in cycles");
    put_core_stat(b, "atomic_mlp", &r->atomic_mlp,
                  "memory latency over what an omp atomic update at random over 4x the last "
                  "level adds to one in L1");
    put_core_stat(b, "branch_miss_cycles", &r->branch_miss_cycles,
                  "jumps on random bits against never taken, per miss (half), in cycles");
    /* a share in [0, 1]: noise can put a learned pattern a little below zero */
    put_pairs(b, "branch_learned",
              "[mispredictions per repeat, share left]: a pattern of\n"
              "  # 2m random jumps repeated, its cost over never taken, as a share of\n"
              "  # a 4M-long one's",
              &r->branch_learned, 1);
    put_pairs(b, "branch_run_cycles",
              "[mean run, cycles per rare outcome]: jumps rare\n"
              "  # after runs of random length, against never taken, in cycles",
              &r->branch_run_cycles, 0);
    put_pairs(b, "branch_run_left",
              "[mean run, share left]: the same with 2048 rare\n"
              "  # outcomes repeated, as a share of the fresh pattern's cost",
              &r->branch_run_left, 1);
    put_pairs(b, "chain_runs",
              "[run length, cycles per update]: y[i[e]] += w[e] with runs of\n"
              "  # equal i[e], each run its own element, in L1, in cycles",
              &r->chain_runs, 0);
    if (r->chain_runs.n) {
        augur_buf_printf(b, "\n  chain_loop_instr: %d", CALIB_UPDATE_INSTR);
        comment(b);
        augur_buf_puts(b, "instructions of one update of chain_runs's loop: three loads, the "
                          "store, the add, the loop's add and compare");
    }
    put_prefetch_streams(b, r);
    put_pairs(b, "first_touch",
              "[bytes, ns per 4 KiB page]: malloc, a store to every page,\n"
              "  # free, repeated (a local array made in every call; best of the reps)",
              &r->first_touch, 0);
    if (r->region1_ns.best > 0) {
        augur_buf_puts(b, "\n  region1_ns: ");
        put_num(b, r->region1_ns.best);
        comment(b);
        augur_buf_puts(b, "an empty omp parallel region, 1 thread; ");
        put_spread(b, &r->region1_ns);
    }
    if (r->region_threads >= 2) {
        augur_buf_puts(b, "\n  region_ns: ");
        put_num(b, r->region_ns.best);
        comment(b);
        augur_buf_printf(b, "an empty omp parallel region, %u threads; ", r->region_threads);
        put_spread(b, &r->region_ns);
        if (r->chunk_ns.best > 0) {
            augur_buf_puts(b, "\n  chunk_ns: ");
            put_num(b, r->chunk_ns.best);
            comment(b);
            augur_buf_printf(b,
                             "schedule(dynamic, 1) over %u threads, beyond the region, per chunk "
                             "of one thread; ",
                             r->region_threads);
            put_spread(b, &r->chunk_ns);
        }
    }
    put_pairs(b, "transfer",
              "[loads in flight, ns per line]: one core stores into 256 KiB of\n"
              "  # lines, the other then chases through them (against both on one core)",
              &r->transfer, 0);
    augur_buf_putc(b, '\n');

    if (r->ncaches)
        augur_buf_puts(b, "caches:\n");
    for (uint32_t i = 0; i < r->ncaches; i++) {
        const struct augur_calib_cache *cc = &r->caches[i];
        char what[200], sz[32];

        augur_buf_printf(b, "  - name: %s\n    size: ", cc->name);
        put_size(b, cc->size);
        comment(b);
        if (cc->size_measured && cc->streamed_to) {
            augur_buf_puts(b, "load: the largest working set streamed nearer the level's rate "
                              "than memory's, doubling from the chase's estimate ");
            augur_buf_puts(b, r->nsweep ? "(the passes' best sweep)" : "(one probe, --quick)");
            augur_buf_puts(b, "; the OS reports ");
            put_size(b, cc->os_size);
            augur_buf_puts(b, ", but a chase over working sets well inside that is as slow as "
                              "memory\n");
        } else if (cc->size_measured) {
            augur_buf_puts(b, "chase: the largest working set whose latency is nearer the "
                              "level's than memory's; the OS reports ");
            put_size(b, cc->os_size);
            augur_buf_puts(b, ", but working sets well inside that are as slow as memory\n");
        } else if (cc->chase_cap) {
            augur_buf_printf(b, "%s; a chase stays under half of memory's latency up to ",
                             r->topology_source);
            put_size(b, cc->chase_cap);
            augur_buf_puts(b, " only, but a load streams half the level at ");
            put_num(b, cc->streamed_half_gbs);
            augur_buf_puts(b, " GB/s, nearer the cache's rate than memory's\n");
        } else {
            augur_buf_printf(b, "%s%s\n", r->topology_source,
                             i + 1 == r->ncaches && !r->quick ? "; the latency curve agrees"
                             : i + 1 == r->ncaches            ? "; not checked (--quick)"
                                                              : "");
        }
        if (cc->line) {
            augur_buf_printf(b, "    line: %u", cc->line);
            comment(b);
            augur_buf_printf(b, "%s\n", r->topology_source);
        }
        if (cc->ways >= 0 && !cc->size_measured) {
            augur_buf_printf(b, "    ways: %d", cc->ways);
            comment(b);
            augur_buf_printf(b, "%s%s\n", r->topology_source,
                             cc->ways == 0 ? " (0: fully associative)" : "");
        }
        if (cc->latency_2x_ns > 0) {
            augur_buf_printf(b, "    replacement: %s", cc->adaptive ? "adaptive" : "lru");
            comment(b);
            augur_buf_puts(b, "chase over twice the size: ");
            put_num(b, cc->latency_2x_ns);
            augur_buf_printf(b, " ns, %s 80 %% of memory's latency\n",
                             cc->adaptive ? "under" : "not under");
        }
        augur_buf_printf(b, "    shared_by: %u", cc->shared_by);
        comment(b);
        augur_buf_printf(b, "%s: cores sharing one instance\n    latency_ns: ", r->topology_source);
        put_num(b, cc->latency_ns.best);
        comment(b);
        augur_buf_puts(b, "chase: one random cycle through the 64-B lines of ");
        put_size(b, cc->ws_chase);
        augur_buf_puts(b, ", one thread; ");
        put_spread(b, &cc->latency_ns);
        augur_buf_puts(b, "\n    latency_cycles: ");
        put_num(b, cc->latency_ns.best * ghz);
        comment(b);
        augur_buf_puts(b, "latency_ns x clock_ghz\n    bandwidth_gbs: ");
        snprintf(what, sizeof(what), "load: %s sum over %s at one thread (%s)", kernel,
                 size_text(cc->ws_thread, sz, sizeof(sz)),
                 cc->shared_by > 1 ? "threads sharing the level split it" : "private");
        put_bw(b, r, cc->bw[AUGUR_CALIB_LOAD], what);
        put_other_kernels(b, r, cc->bw, "    ");
    }

    augur_buf_puts(b, "memory:\n  bandwidth_gbs: ");
    {
        char what[200], sz[32];

        snprintf(what, sizeof(what), "load: %s sum over %s (all threads together)", kernel,
                 size_text(r->mem_ws_thread, sz, sizeof(sz)));
        put_bw(b, r, r->mem_bw[AUGUR_CALIB_LOAD], what);
    }
    put_other_kernels(b, r, r->mem_bw, "  ");
    augur_buf_puts(b, "  latency_ns: ");
    put_num(b, r->mem_latency_ns.best);
    comment(b);
    augur_buf_puts(b, "chase: one random cycle through the 64-B lines of ");
    put_size(b, r->mem_ws_chase);
    augur_buf_puts(b, "; ");
    put_spread(b, &r->mem_latency_ns);
    augur_buf_puts(b, "\n  latency_cycles: ");
    put_num(b, r->mem_latency_ns.best * ghz);
    comment(b);
    augur_buf_puts(b, "latency_ns x clock_ghz\n");
    augur_buf_puts(b,
                   "  # mlp: m independent chases in flight over the same cycle (m heads spread\n"
                   "  # evenly along it); ns between completed loads, the service time S(m)\n");
    augur_buf_puts(b, "  mlp: [");
    for (uint32_t i = 0; i < r->mlp.n; i++) {
        augur_buf_printf(b, "%s%g", i ? ", [" : "[", r->mlp.x[i]);
        augur_buf_puts(b, ", ");
        put_num(b, r->mlp.y[i].best);
        augur_buf_putc(b, ']');
    }
    augur_buf_puts(b, "]\n  # spread:");
    for (uint32_t i = 0; i < r->mlp.n; i++) {
        augur_buf_printf(b, " m=%g ", r->mlp.x[i]);
        put_spread(b, &r->mlp.y[i]);
        augur_buf_puts(b, i + 1 < r->mlp.n ? ";" : "");
        if (i % 3 == 2 && i + 1 < r->mlp.n)
            augur_buf_puts(b, "\n  #");
    }
    augur_buf_putc(b, '\n');

    augur_buf_puts(b, "\n# ---- Curves (comments: the loader does not read them;"
                      " `augur --json calibrate` prints them)\n");
    augur_buf_puts(b,
                   "# Load-to-use latency (ns) by working set, random cyclic chase, one thread:\n");
    put_curve_comment(b, &r->latency, true);
    augur_buf_printf(b,
                     "# Gather cost (ns per element, %s) by the range its random indices fall in;\n"
                     "# sequential loads cost ",
                     r->avx512 ? "_mm512_i32gather_pd" : "scalar loads");
    put_num(b, r->load_ns_per_element.best);
    augur_buf_puts(b, " ns per element (in L1):\n");
    put_curve_comment(b, &r->gather, true);
    if (r->nsweep) {
        augur_buf_puts(
            b,
            "# Bandwidth (GB/s, all threads) by working set (all threads), kernel:threads:\n#   size    ");
        for (int k = 0; k < AUGUR_CALIB_NKERNELS; k++) {
            for (uint32_t t = 0; t < r->nthreads; t++)
                augur_buf_printf(b, " %6s:%-2u", augur_calib_kernel_name(k), r->threads[t]);
        }
        augur_buf_putc(b, '\n');
        for (uint32_t p = 0; p < r->nsweep; p++) {
            struct augur_buf tmp;

            augur_buf_init(&tmp);
            put_size(&tmp, (uint64_t)r->sweep_bytes[p]);
            augur_buf_printf(b, "#   %-8s", tmp.s);
            augur_buf_release(&tmp);
            for (int k = 0; k < AUGUR_CALIB_NKERNELS; k++) {
                for (uint32_t t = 0; t < r->nthreads; t++) {
                    augur_buf_printf(b, " %9.1f", r->sweep[k][t][p].best);
                }
            }
            augur_buf_putc(b, '\n');
        }
    }
}

/* fn(ud, name) when st is flagged unstable; name is printf's format over the rest. */
static void name_unstable(const struct augur_calib_stat *st, void (*fn)(void *, const char *),
                          void *ud, const char *fmt, ...) AUGUR_PRINTF(4, 5);

static void name_unstable(const struct augur_calib_stat *st, void (*fn)(void *, const char *),
                          void *ud, const char *fmt, ...)
{
    char name[96];
    va_list ap;

    if (!st->unstable)
        return;
    va_start(ap, fmt);
    vsnprintf(name, sizeof(name), fmt, ap);
    va_end(ap);
    fn(ud, name);
}

void augur_calib_each_unstable(const struct augur_calib_result *r,
                               void (*fn)(void *ud, const char *name), void *ud)
{
    const struct {
        const struct augur_calib_stat *st;
        const char *name;
    } core[] = {
        { &r->gather_cycles, "simd.gather_cycles_per_element" },
        { &r->scatter_cycles, "simd.scatter_cycles_per_element" },
        { &r->chain_cycles, "core.chain_cycles" },
        { &r->branch_miss_cycles, "core.branch_miss_cycles" },
        { &r->region_ns, "core.region_ns" },
        { &r->region1_ns, "core.region1_ns" },
        { &r->fadd_cycles, "core.fadd_latency" },
        { &r->fma_cycles, "core.fma_latency" },
        { &r->atomic_cycles, "core.atomic_cycles" },
    };

    name_unstable(&r->clock_ghz, fn, ud, "clock_ghz");
    for (uint32_t i = 0; i < r->ncaches; i++) {
        const struct augur_calib_cache *c = &r->caches[i];

        name_unstable(&c->latency_ns, fn, ud, "%s.latency_ns", c->name);
        for (uint32_t t = 0; t < r->nthreads; t++)
            name_unstable(&c->bw[AUGUR_CALIB_LOAD][t], fn, ud, "%s.bandwidth_gbs.%u", c->name,
                          r->threads[t]);
    }
    name_unstable(&r->mem_latency_ns, fn, ud, "memory.latency_ns");
    for (uint32_t t = 0; t < r->nthreads; t++)
        name_unstable(&r->mem_bw[AUGUR_CALIB_LOAD][t], fn, ud, "memory.bandwidth_gbs.%u",
                      r->threads[t]);
    for (uint32_t k = 0; k < r->mlp.n; k++)
        name_unstable(&r->mlp.y[k], fn, ud, "memory.mlp.%g", r->mlp.x[k]);
    for (uint32_t k = 0; k < r->streams.n; k++)
        name_unstable(&r->streams.y[k], fn, ud, "core.prefetch_streams (its curve at %g streams)",
                      r->streams.x[k]);
    for (size_t k = 0; k < sizeof(core) / sizeof(core[0]); k++)
        name_unstable(core[k].st, fn, ud, "%s", core[k].name);
}
