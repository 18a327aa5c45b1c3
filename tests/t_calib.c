/*
 * t_calib.c - tests of calibration's statistic (module: data): one
 * value's passes merged into the file's value, on synthetic timings whose
 * noise only ever slows a repetition down, as another process does.
 */
#include <math.h>
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
    return tap_done();
}
