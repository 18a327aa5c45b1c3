/*
 * t_calib.c - tests of calibration's decisions (module: machine): one
 * value's passes merged into the file's value, on synthetic timings whose
 * noise only ever slows a repetition down, as another process does; and the
 * check of the OS's last-level cache size on made-up latency curves.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/augur.h"
#include "tap.h"

/*
 * A pass of reps repetitions of a time whose true value is t: noise adds 0 .. noise x t; a pass
 * in a noisy minute (noise above 1) is slowed by half at least.
 */
static void pass_of(double t, double noise, unsigned reps, uint64_t *seed,
                    struct augur_calib_stat *st)
{
    memset(st, 0, sizeof(*st));
    for (unsigned r = 0; r < reps; r++) {
        double u, x;

        *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
        u = (double)(*seed >> 11) / 9007199254740992.0;
        x = t * (1 + (noise > 1 ? 0.5 : 0) + noise * u);
        st->min = r == 0 || x < st->min ? x : st->min;
        st->max = r == 0 || x > st->max ? x : st->max;
    }
    st->best = st->min;
    st->median = 0.5 * (st->min + st->max);
    st->reps = reps;
}

/*
 * A pass of a ratio (cycles against a clock timed beside each repetition):
 * reps values v (1 + noise (2u - 1)), noise either way; its best is the
 * median, as per_unit() makes it.
 */
static void ratio_pass_of(double v, double noise, unsigned reps, uint64_t *seed,
                          struct augur_calib_stat *st)
{
    double x[15];

    memset(st, 0, sizeof(*st));
    for (unsigned r = 0; r < reps; r++) {
        double u;

        *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
        u = (double)(*seed >> 11) / 9007199254740992.0;
        x[r] = v * (1 + noise * (2 * u - 1));
        for (unsigned j = r; j > 0 && x[j - 1] > x[j]; j--) {
            double t = x[j];

            x[j] = x[j - 1];
            x[j - 1] = t;
        }
    }
    st->min = x[0];
    st->max = x[reps - 1];
    st->median = st->best = x[reps / 2];
    st->reps = reps;
    st->ratio = true;
}

/* Twenty runs of three passes of a ratio noisy by 10 % either way: the passes' median repeats. */
static void ratio_cases(uint64_t *seed)
{
    struct augur_calib_stat p[3], out;
    const struct augur_calib_stat *ps[3] = { &p[0], &p[1], &p[2] };
    unsigned close = 0, low = 0;

    for (int run = 0; run < 20; run++) {
        double least = 0;

        for (int k = 0; k < 3; k++) {
            ratio_pass_of(2.0, 0.10, 7, seed, &p[k]);
            least = k == 0 || p[k].best < least ? p[k].best : least;
        }
        augur_calib_stat_merge(ps, 3, true, &out);
        close += fabs(out.best - 2.0) < 0.1;
        low += least < out.best;
    }
    ok(out.ratio, "a ratio's passes merge into a ratio");
    ok(close >= 19, "a ratio: twenty runs within 5 % of its value");
    ok(low >= 15, "a ratio's value is not its lowest pass (which noise pulls down)");
    printf("# %u of 20 runs within 5 %%; the lowest pass under the value in %u\n", close, low);
}

#define KIB 1024ull
#define MIB (1024ull * KIB)

/* A latency curve from 4 KiB by factors of four: n points, ns each. */
static void curve_of(struct augur_calib_curve *c, const double *ns, uint32_t n)
{
    memset(c, 0, sizeof(*c));
    for (uint32_t i = 0; i < n; i++) {
        c->x[i] = (double)(4 * KIB << (2 * i));
        c->y[i].best = ns[i];
    }
    c->n = n;
}

/* A load that streams at 380 GB/s up to *ud bytes and at 25 GB/s beyond. */
static double stream_to(void *ud, uint64_t bytes)
{
    return bytes <= *(uint64_t *)ud ? 380 : 25;
}

/*
 * The same, but memory's rate read a little high (30 GB/s) below 1 GiB: a
 * noisy host, where a load over a few hundred MiB and one over 2 GiB differ
 * by chance.
 */
static double stream_noisy(void *ud, uint64_t bytes)
{
    return bytes <= *(uint64_t *)ud ? 380 : bytes >= 1024 * MIB ? 22 : 30;
}

/* Memory's latency: 200 ns. */
static double chase_mem(void *ud, uint64_t bytes)
{
    (void)ud;
    (void)bytes;
    return 200;
}

/* A VM that reports a host's whole L3 (508 MiB), and hosts whose curve reaches twice theirs. */
static void check_llc_cases(void)
{
    /* 4K 16K 64K 256K 1M 4M 16M 64M */
    static const double vm[] = { 1.1, 1.2, 4.0, 4.0, 10.4, 17.3, 97.5, 169.5 };
    static const double l3_32m[] = { 1.1, 1.2, 4.0, 4.0, 11.0, 12.0, 14.0, 90.0 };
    static const double l3_8m[] = { 1.1, 1.2, 4.0, 4.0, 11.0, 13.0, 95.0, 100.0 };
    /* 4K .. 1G */
    static const double vm_1g[] = { 1.1, 1.2, 4.0, 4.0, 11.0, 12.0, 14.0, 150.0, 200.0, 210.0 };
    static const double walks[] = { 1.1, 1.1, 3.9, 4.0, 8.4, 15.8, 91.8, 159.3, 220.0, 338.2 };
    struct augur_calib_curve c;
    struct augur_calib_llc_check k;
    uint64_t streams = 32 * MIB;
    struct augur_calib_probes pr = { stream_to, chase_mem, &streams };

    curve_of(&c, vm, 8);
    augur_calib_check_llc(&c, 508 * MIB, 1 * MIB, &pr, &k);
    ok(k.size_measured && k.size == 32 * MIB && k.streamed_to == 32 * MIB,
       "an OS size beyond the curve, a quarter of it as slow as memory: the size streamed");
    ok(k.chase_cap == 16 * MIB, "... and the chase measures the latency within the chase's 16 MiB");
    streams = 2 * MIB;
    augur_calib_check_llc(&c, 508 * MIB, 1 * MIB, &pr, &k);
    ok(k.size_measured && k.size == 16 * MIB && !k.streamed_to,
       "... and where streams agree with the chase, the chase's estimate");
    augur_calib_check_llc(&c, 128 * MIB, 1 * MIB, &pr, &k);
    ok(!k.size_measured && k.size == 128 * MIB,
       "a quarter of the size faster than memory leaves it unchecked");

    curve_of(&c, l3_32m, 8);
    streams = 64 * MIB;
    augur_calib_check_llc(&c, 508 * MIB, 1 * MIB, &pr, &k);
    ok(!k.size_measured && k.size == 508 * MIB && !k.chase_cap,
       "a curve under memory's latency at its end leaves the OS's size unchecked");
    augur_calib_check_llc(&c, 16 * MIB, 1 * MIB, &pr, &k);
    ok(!k.size_measured && k.size == 16 * MIB, "a curve past twice the size that agrees with it");

    curve_of(&c, l3_8m, 8);
    streams = 4 * MIB;
    augur_calib_check_llc(&c, 32 * MIB, 1 * MIB, &pr, &k);
    ok(k.size_measured && k.size == 4 * MIB && k.chase_cap == 4 * MIB,
       "a curve past twice the size that contradicts it, and streams agree: the estimate");
    streams = 8 * MIB;
    augur_calib_check_llc(&c, 32 * MIB, 1 * MIB, &pr, &k);
    ok(k.size_measured && k.size == 8 * MIB && k.streamed_to == 8 * MIB && k.chase_cap == 4 * MIB,
       "... streams a little further: as far as they stream, the chase within its estimate");
    streams = 64 * MIB;
    augur_calib_check_llc(&c, 32 * MIB, 1 * MIB, &pr, &k);
    ok(!k.size_measured && k.size == 32 * MIB && k.chase_cap == 4 * MIB,
       "... streams that keep the level's rate keep the OS's size, the chase capped");
    augur_calib_check_llc(&c, 32 * MIB, 1 * MIB, NULL, &k);
    ok(!k.size_measured && k.size == 32 * MIB, "no probes: the OS's size");

    /* a curve to 1 GiB past a 16 MiB level, the OS saying 508 MiB: its eighth is memory too */
    curve_of(&c, vm_1g, 10);
    streams = 16 * MIB;
    pr.load_gbs = stream_noisy;
    augur_calib_check_llc(&c, 508 * MIB, 1 * MIB, &pr, &k);
    ok(k.size_measured && k.size == 16 * MIB,
       "an OS size 30 times the level's: its rate probed inside the chase's estimate, not at an "
       "eighth of the OS's size (where memory's noise decided)");
    pr.load_gbs = stream_to;

    /*
     * A VM's curve that keeps rising with page walks (16 MiB: 92 ns, 1 GiB:
     * 338): 64 MiB at 159 ns is under 60 % of the end, yet nowhere near the
     * level's 16 ns; streams keep 32 MiB.
     */
    curve_of(&c, walks, 10);
    streams = 32 * MIB;
    augur_calib_check_llc(&c, 508 * MIB, 1 * MIB, &pr, &k);
    ok(k.size_measured && k.size == 32 * MIB && k.streamed_to == 32 * MIB && k.chase_cap == 4 * MIB,
       "a curve inflated by page walks: the level's latency, not memory's alone, says what it holds");
}

/*
 * The last level's size from the passes' best sweep: one thread's load
 * GB/s at 16 KiB .. 256 MiB, as this development VM measured it (the L2
 * 1 MiB, the chase's estimate 8 MiB, the OS's 508 MiB, memory 34.7 GB/s).
 */
static void sweep_of(struct augur_calib_stat *g, double *bytes, const double *gbs)
{
    memset(g, 0, 15 * sizeof(*g));
    for (uint32_t i = 0; i < 15; i++) {
        bytes[i] = (double)(16 * KIB << i);
        g[i].best = gbs[i];
    }
}

static void streamed_size_cases(void)
{
    static const double vm[] = { 421.7, 426.4, 155.1, 161.3, 164.7, 218.3, 132.4, 99.0,
                                 100.1, 99.2,  89.4,  68.8,  51.6,  40.2,  36.6 };
    struct augur_calib_stat g[15];
    double bytes[15];

    sweep_of(g, bytes, vm);
    ok(augur_calib_streamed_size(bytes, g, 15, 1 * MIB, 8 * MIB, 508 * MIB, 34.7) == 32 * MIB,
       "the VM's sweep: the level streams 100.1 GB/s within 8 MiB; 32 MiB at 68.8, over its "
       "geometric mean with memory (58.9), 64 MiB under it");
    ok(augur_calib_streamed_size(bytes, g, 15, 1 * MIB, 8 * MIB, 16 * MIB, 34.7) == 16 * MIB,
       "... never past the OS's size");
    {
        /* another run: the shared L3's own size at 68.6, a hair under the midpoint 69.4 */
        static const double run2[] = { 424.2, 429.1, 156.2, 161.7, 164.4, 214.5, 138.0, 98.7,
                                       101.3, 99.9,  87.3,  68.6,  47.6,  33.4,  30.8 };
        struct augur_calib_stat g2[15];

        sweep_of(g2, bytes, run2);
        ok(augur_calib_streamed_size(bytes, g2, 15, 1 * MIB, 8 * MIB, 508 * MIB, 37.48) == 32 * MIB,
           "a run whose 32 MiB streams at 68.6 GB/s, under the midpoint of 101.3 and 37.5 but "
           "well over their geometric mean (61.6): 32 MiB, as the other runs");
    }
    g[12].best = 55.3;
    g[7].best = 96.3, g[8].best = 95.1, g[9].best = 92.0;
    ok(augur_calib_streamed_size(bytes, g, 15, 1 * MIB, 8 * MIB, 508 * MIB, 35.4) == 32 * MIB,
       "a shared L3's partial hits at twice its size (55.3 GB/s, under the geometric mean 58.4 "
       "of the sweep's 96.3 and memory's 35.4) are not the level");
    g[10].best = 50;
    ok(augur_calib_streamed_size(bytes, g, 15, 1 * MIB, 8 * MIB, 508 * MIB, 35.4) == 8 * MIB,
       "a run broken at 16 MiB: the chase's estimate, not the 32 MiB beyond");
    ok(augur_calib_streamed_size(bytes, g, 15, 1 * MIB, 8 * MIB, 508 * MIB, 200) == 0,
       "a level no faster than memory cannot decide");
    ok(augur_calib_streamed_size(bytes, g, 15, 8 * MIB, 8 * MIB, 508 * MIB, 35.4) == 0,
       "no sweep point within the level (twice the level above is past the estimate): no "
       "decision");
    ok(augur_calib_streamed_size(bytes, g, 0, 1 * MIB, 8 * MIB, 508 * MIB, 34.7) == 0,
       "an empty sweep cannot decide");
}

/* The streams curve: counts and ns per line. */
static void streams_of(struct augur_calib_curve *c, const double *ns)
{
    static const uint32_t counts[] = { 1, 2, 4, 8, 12, 16, 20, 24, 32, 48, 64 };

    memset(c, 0, sizeof(*c));
    for (uint32_t i = 0; i < 11; i++) {
        c->x[i] = counts[i];
        c->y[i].best = ns[i];
    }
    c->n = 11;
}

static void prefetch_streams_cases(void)
{
    static const double step16[] = { 2.6, 2.5, 2.6, 2.7, 2.8, 3.0, 9.5, 11.0, 12.0, 12.5, 12.0 };
    static const double noisy[] = { 2.6, 3.9, 2.5, 2.7, 2.8, 3.0, 3.1, 3.4, 11.0, 12.5, 12.0 };
    static const double flat[] = { 2.6, 2.5, 2.6, 2.7, 2.8, 3.0, 3.1, 3.2, 3.3, 3.4, 3.5 };
    struct augur_calib_curve c;

    streams_of(&c, step16);
    is_int(augur_calib_prefetch_streams(&c), 16, "a step after 16 streams: 16");
    streams_of(&c, noisy);
    is_int(augur_calib_prefetch_streams(&c), 24, "one noisy point below half-way does not move it");
    streams_of(&c, flat);
    is_int(augur_calib_prefetch_streams(&c), 0, "no step: nothing to write");
    c.n = 2;
    is_int(augur_calib_prefetch_streams(&c), 0, "too few points: nothing");
    is_int(augur_calib_prefetch_streams(NULL), 0, "no curve: nothing");
}

/* Collects the names augur_calib_each_unstable() gives, comma-separated. */
static void collect(void *ud, const char *name)
{
    char *out = ud;
    size_t n = strlen(out);

    snprintf(out + n, 256 - n, "%s%s", n ? "," : "", name);
}

/* The unstable values are named as the machine file names them. */
static void unstable_names_cases(void)
{
    struct augur_calib_result *r = calloc(1, sizeof(*r));
    char names[256] = "";

    if (!r)
        return;
    r->ncaches = 2;
    strcpy(r->caches[0].name, "L1");
    strcpy(r->caches[1].name, "L3");
    r->nthreads = 2;
    r->threads[0] = 1;
    r->threads[1] = 2;
    r->caches[1].latency_ns.unstable = true;
    r->mem_bw[AUGUR_CALIB_LOAD][1].unstable = true;
    r->mem_bw[AUGUR_CALIB_TRIAD][0].unstable = true; /* no prediction reads it: never flagged */
    r->mlp.n = 2;
    r->mlp.x[0] = 1;
    r->mlp.x[1] = 4;
    r->mlp.y[1].unstable = true;
    r->region_ns.unstable = true;
    augur_calib_each_unstable(r, collect, names);
    is_str(names, "L3.latency_ns,memory.bandwidth_gbs.2,memory.mlp.4,core.region_ns",
           "unstable values named as in the machine file");
    names[0] = '\0';
    memset(r, 0, sizeof(*r));
    augur_calib_each_unstable(r, collect, names);
    is_str(names, "", "none unstable: none named");
    free(r);
}

int main(void)
{
    struct augur_calib_stat p[5], out;
    const struct augur_calib_stat *ps[5] = { &p[0], &p[1], &p[2], &p[3], &p[4] };
    uint64_t seed = 42;
    unsigned close = 0;

    /* Three quiet passes and two in a noisy minute: the quiet ones decide. */
    pass_of(10.0, 0.02, 3, &seed, &p[0]);
    pass_of(10.0, 3.0, 3, &seed, &p[1]);
    pass_of(10.0, 0.02, 3, &seed, &p[2]);
    pass_of(10.0, 3.0, 3, &seed, &p[3]);
    pass_of(10.0, 0.02, 3, &seed, &p[4]);
    for (int k = 0; k < 5; k++)
        p[k].best = p[k].min;
    ok(augur_calib_stat_merge(ps, 5, true, &out), "two noisy passes of five: unstable");
    ok(out.unstable && out.passes == 5 && out.reps == 15, "flagged, with every pass counted");
    ok(fabs(out.best - 10.0) < 0.2, "a time's value is its quietest pass: within 2 %");
    ok(out.pass_lo <= out.best && out.best <= out.pass_hi, "inside the passes' range");
    ok(!augur_calib_stat_merge(ps, 5, false, &out), "a value no prediction reads is not flagged");

    /* A rate: the same passes seen as GB/s (best at the top end of each pass). */
    for (int k = 0; k < 5; k++) {
        struct augur_calib_stat t = p[k];

        p[k].min = 100.0 / t.max;
        p[k].max = 100.0 / t.min;
        p[k].best = p[k].max;
        p[k].median = 100.0 / t.median;
    }
    augur_calib_stat_merge(ps, 5, true, &out);
    ok(fabs(out.best - 10.0) < 0.2, "a rate's value is its fastest pass: within 2 %");

    /* Twenty runs of three passes, each pass noisy with probability 1/3: the values repeat. */
    for (int run = 0; run < 20; run++) {
        for (int k = 0; k < 3; k++)
            pass_of(10.0, (seed >> 33) % 3 == 0 ? 3.0 : 0.02, 3, &seed, &p[k]);
        augur_calib_stat_merge(ps, 3, true, &out);
        close += fabs(out.best - 10.0) < 0.25;
    }
    ok(close >= 19, "twenty runs agree within 2.5 % (one noisy run of twenty allowed)");
    printf("# %u of 20 runs within 2.5 %%\n", close);

    /* Quiet passes are stable. */
    for (int k = 0; k < 3; k++)
        pass_of(10.0, 0.05, 5, &seed, &p[k]);
    ok(!augur_calib_stat_merge(ps, 3, true, &out) && !out.unstable, "quiet passes: stable");
    ok(!augur_calib_stat_merge(ps, 0, true, &out), "no pass: nothing merged");
    ratio_cases(&seed);
    check_llc_cases();
    streamed_size_cases();
    prefetch_streams_cases();
    unstable_names_cases();
    return tap_done();
}
