/*
 * pred_gpu.c - CUDA kernels on a GPU (module: models): the GPU forms of Model 1 (the bytes each
 * level serves over its bandwidth) and Model 2 (Pai et al. AGP'17 §6.3-6.5: the warps' memory
 * instructions are the jobs; L2 hits, DRAM row-buffer hits and misses the servers). docs/models.md,
 * "GPU kernels", states both.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pred_int.h"

#define SECTOR_BYTES 32.0 /* NVIDIA's unit of transfer below L1 */

/* Nanoseconds the launches of one call add: a BFS's rounds each make a host round trip. */
static double launch_ns(const struct augur_machine *m, const struct augur_work_gpu *g)
{
    double us =
        g->launches > 1 && m->gpu.round_trip_us > 0 ? m->gpu.round_trip_us : m->gpu.launch_us;

    return g->launches * us * 1e3;
}

/* The workload's level named L2, else its last cache. */
static unsigned l2_level(const struct augur_workload *w)
{
    for (unsigned l = 0; l < w->nlevels; l++)
        if (strcmp(w->level_name[l], "L2") == 0)
            return l;
    return w->nlevels ? w->nlevels - 1 : 0;
}

/* ---- Model 2 ----------------------------------------------------------------------------------
 */

struct gpu_opa {
    struct augur_opa_input in;
    struct augur_opa_server servers[4];
    double launch_ns;
};

/*
 * Seed 000's servers: L2 hits, row-buffer hits and misses; and, where the
 * machine gives an l1_hit curve and the kernel has a level above L2, L1 hits
 * (the K40c of the paper did not cache global loads in L1; the H100 does).
 */
static int gpu_opa_build(const struct augur_model_input *mi, struct gpu_opa *go,
                         struct augur_diag *diag)
{
    const struct augur_workload *w = mi->work;
    const struct augur_machine_gpu *g = &mi->machine->gpu;
    const struct augur_work_gpu *wg = &w->gpu;
    unsigned l2 = l2_level(w);
    double dram = wg->sector_hits[w->nlevels], row_hits = dram - wg->row_misses;
    static const char *const names[] = { "L2 hit", "row-buffer hit", "row-buffer miss", "L1 hit" };
    const struct augur_curve_point *curves[] = { g->l2_hit, g->row_hit, g->row_miss, g->l1_hit };
    const uint32_t ncurves[] = { g->nl2_hit, g->nrow_hit, g->nrow_miss, g->nl1_hit };
    static const char *const keys[] = { "l2_hit", "row_hit", "row_miss" };
    uint32_t n = 3;

    memset(go, 0, sizeof(*go));
    for (int i = 0; i < 3; i++)
        if (!ncurves[i])
            return augur_diag_set(diag, AUGUR_EMODEL, NULL, 0, 0,
                                  "operational analysis: machine '%s' has no gpu.%s curve "
                                  "(bench/gpu_calib.sh measures it)",
                                  mi->machine->name, keys[i]);
    if (!(wg->jobs > 0) || !(wg->max_warp_jobs > 0))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "operational analysis: the kernel made no memory instruction");
    go->servers[0].completions = wg->sector_hits[l2];
    /* Pai et al. AGP'17 Table 2: row-buffer hits are the DRAM transactions that opened no row */
    go->servers[1].completions = row_hits > 0 ? row_hits : 0;
    go->servers[2].completions = wg->row_misses;
    if (ncurves[3] && l2 > 0) {
        double above = 0;

        for (unsigned l = 0; l < l2; l++)
            above += wg->sector_hits[l];
        go->servers[3].completions = above;
        n = 4;
    }
    for (uint32_t i = 0; i < n; i++) {
        go->servers[i].name = names[i];
        go->servers[i].curve = curves[i];
        go->servers[i].ncurve = ncurves[i];
    }
    go->in.jobs = wg->jobs;
    /* each warp slot keeps 1 / load_steps loads in flight (an iteration's loads go together) */
    go->in.load = (wg->slots > 1 ? wg->slots : 1) / (w->load_steps > 0 ? w->load_steps : 1);
    go->in.servers = go->servers;
    go->in.nservers = n;
    go->launch_ns = launch_ns(mi->machine, wg);
    return 0;
}

/* The m at which curve c's service time is s: c falls with m; below its first point, as 1 / m. */
static double curve_m(const struct augur_curve_point *c, uint32_t n, double s)
{
    if (s >= c[0].ns)
        return c[0].m * c[0].ns / s;
    for (uint32_t k = 1; k < n; k++)
        if (s >= c[k].ns)
            return c[k - 1].m + (c[k].m - c[k - 1].m) * (c[k - 1].ns - s) / (c[k - 1].ns - c[k].ns);
    return c[n - 1].m;
}

/*
 * All warps busy: the throughput X (jobs per ns) at which the servers hold
 * the load between them. By the forced-flow law server i completes X V_i
 * requests per ns, which its curve gives at m_i(X) = S_i^-1(1 / (X V_i))
 * requests in flight (Little's law); X is where the m_i add up to the
 * requests in flight, n jobs of sum V_i sectors, or the largest X the
 * servers sustain (the bandwidth bound). m gets each m_i. Returns N / X in ns.
 */
static double gpu_busy_ns(const struct gpu_opa *go, double *m)
{
    double v[4], vsum = 0, xmax = INFINITY, lo = 0, hi, want;
    uint32_t ns = go->in.nservers;

    for (uint32_t i = 0; i < ns; i++) {
        const struct augur_opa_server *sv = &go->servers[i];

        v[i] = sv->completions / go->in.jobs;
        vsum += v[i];
        m[i] = 0;
        if (v[i] > 0 && 1 / (v[i] * sv->curve[sv->ncurve - 1].ns) < xmax)
            xmax = 1 / (v[i] * sv->curve[sv->ncurve - 1].ns);
    }
    if (!(vsum > 0) || !isfinite(xmax))
        return 0;
    want = go->in.load * vsum;
    hi = xmax;
    for (int it = 0; it < 100; it++) {
        double x = it ? (lo + hi) / 2 : hi, sum = 0;

        for (uint32_t i = 0; i < ns; i++)
            if (v[i] > 0)
                sum += curve_m(go->servers[i].curve, go->servers[i].ncurve, 1 / (x * v[i]));
        if (it == 0 && sum <= want)
            break; /* saturated: the bandwidth bound */
        if (sum > want)
            hi = x;
        else
            lo = x;
    }
    for (uint32_t i = 0; i < ns; i++)
        if (v[i] > 0)
            m[i] = curve_m(go->servers[i].curve, go->servers[i].ncurve, 1 / (hi * v[i]));
    return go->in.jobs / hi;
}

/* The unloaded latency (the curve at m = 1) of server i. */
static double unloaded_ns(const struct gpu_opa *go, uint32_t i)
{
    return augur_pred_curve_at(go->servers[i].curve, go->servers[i].ncurve, 1);
}

/*
 * The busiest warp alone: its W_max jobs one after another (load_steps of
 * them wait in turn), each the unloaded latency (the curve at m = 1) of the
 * level its slowest request reached, in the proportions of the busiest
 * slot's own loads: a load whose lanes touch 20 lines waits for the one
 * that missed L1. Without those counts, the levels' latencies in the
 * proportions of the launch's sectors.
 */
static double gpu_chain_ns(const struct gpu_opa *go, const struct augur_workload *w)
{
    const struct augur_work_gpu *g = &w->gpu;
    unsigned l2 = l2_level(w), nl = w->nlevels;
    double all = 0, lat = 0, dram = go->servers[1].completions + go->servers[2].completions;

    for (unsigned l = 0; l <= nl && l < AUGUR_WORK_MAX_LEVELS; l++)
        all += g->load_reach[l];
    if (all > 0) {
        /* DRAM: the row-buffer hits' and misses' latencies in their proportions */
        double mem = dram > 0 ? (go->servers[1].completions * unloaded_ns(go, 1) +
                                 go->servers[2].completions * unloaded_ns(go, 2)) /
                                    dram
                              : unloaded_ns(go, 2);

        for (unsigned l = 0; l <= nl && l < AUGUR_WORK_MAX_LEVELS; l++) {
            double ns = l == nl                         ? mem
                        : l < l2 && go->in.nservers > 3 ? unloaded_ns(go, 3)
                                                        : unloaded_ns(go, 0);

            lat += g->load_reach[l] / all * ns;
        }
    } else {
        for (uint32_t i = 0; i < go->in.nservers; i++)
            all += go->servers[i].completions;
        if (!(all > 0))
            return 0;
        for (uint32_t i = 0; i < go->in.nservers; i++)
            lat += go->servers[i].completions / all * unloaded_ns(go, i);
    }
    return g->max_warp_jobs * (w->load_steps > 0 ? w->load_steps : 1) * lat;
}

/* The server whose requests take the most time at its load: V_i S_i(m_i). */
static uint32_t gpu_bottleneck(const struct gpu_opa *go, const double *m)
{
    uint32_t b = 0;
    double most = -1;

    for (uint32_t i = 0; i < go->in.nservers; i++) {
        const struct augur_opa_server *sv = &go->servers[i];
        double d = sv->completions > 0
                       ? sv->completions * augur_pred_curve_at(sv->curve, sv->ncurve, m[i])
                       : 0;

        if (d > most) {
            most = d;
            b = i;
        }
    }
    return b;
}

int pred_gpu_opa_predict(const struct augur_model_input *mi, struct augur_prediction *out,
                         struct augur_diag *diag)
{
    const struct augur_workload *w = mi->work;
    struct gpu_opa go;
    unsigned level;
    uint32_t b;
    double total = 0, busy, chain, mem, m[4];
    int rc;

    if ((rc = gpu_opa_build(mi, &go, diag)) < 0)
        return rc;
    busy = gpu_busy_ns(&go, m);
    chain = gpu_chain_ns(&go, w);
    mem = chain > busy ? chain : busy;
    b = gpu_bottleneck(&go, m);
    out->seconds = (mem + go.launch_ns) * 1e-9;
    out->rate = w->gpu.jobs / out->seconds;
    out->rate_unit = "warp instructions/s";
    out->bottleneck = go.launch_ns > mem ? "kernel launch"
                      : chain > busy     ? "busiest warp's latency"
                                         : go.servers[b].name;
    /* the memory time shared among lines by their requests to the bottleneck's level */
    level = b == 0 ? l2_level(w) : b == 3 ? 0 : w->nlevels;
    for (size_t i = 0; i < w->nlines; i++)
        total += w->lines[i].served[level];
    if (out->line_seconds && total > 0)
        for (size_t i = 0; i < w->nlines; i++)
            out->line_seconds[i] = mem * 1e-9 * w->lines[i].served[level] / total;
    return 0;
}

int pred_gpu_opa_explain(const struct augur_model_input *mi, struct augur_buf *buf,
                         struct augur_diag *diag)
{
    struct gpu_opa go;
    double m[4], busy;
    uint32_t b;
    int rc;

    if ((rc = gpu_opa_build(mi, &go, diag)) < 0)
        return rc;
    busy = gpu_busy_ns(&go, m);
    b = gpu_bottleneck(&go, m);
    augur_buf_printf(buf,
                     "operational analysis, GPU (Pai et al. AGP'17 §6.3-6.5): N_G %.6g warp loads, "
                     "W_max %.6g (busiest of %.0f warp slots), %.4g loads in flight, "
                     "%.3g load steps per load\n",
                     go.in.jobs, mi->work->gpu.max_warp_jobs, mi->work->gpu.slots, go.in.load,
                     mi->work->load_steps);
    augur_buf_printf(buf, "%-16s %14s %10s %10s %10s %12s\n", "server", "C_i", "V_i", "m_i",
                     "S_i ns", "V_i S_i ns");
    for (uint32_t i = 0; i < go.in.nservers; i++) {
        const struct augur_opa_server *sv = &go.servers[i];
        double v = sv->completions / go.in.jobs,
               st = augur_pred_curve_at(sv->curve, sv->ncurve, m[i]);

        augur_buf_printf(buf, "%-16s %14.6g %10.4g %10.4g %10.4g %12.6g%s\n", sv->name,
                         sv->completions, v, m[i], st, v * st, i == b ? "  <- bottleneck" : "");
    }
    augur_buf_printf(buf,
                     "all warps busy N_G / X %.6g ns; the busiest warp alone %.6g ns; launches "
                     "%.6g x -> %.6g ns\n",
                     busy, gpu_chain_ns(&go, mi->work), mi->work->gpu.launches, go.launch_ns);
    return 0;
}

/* ---- Model 1 ----------------------------------------------------------------------------------
 */

struct gpu_bw {
    unsigned n;
    const char *name[AUGUR_WORK_MAX_LEVELS];
    double bytes[AUGUR_WORK_MAX_LEVELS], gbs[AUGUR_WORK_MAX_LEVELS];
    unsigned bottleneck;
    double memory_ns, launch_ns;
};

/*
 * Each level with a bandwidth in the machine file reads what reaches it:
 * the sectors served there or further down (DRAM also writes).
 */
static int gpu_bw_build(const struct augur_model_input *mi, struct gpu_bw *b,
                        struct augur_diag *diag)
{
    const struct augur_workload *w = mi->work;
    const struct augur_machine *m = mi->machine;
    uint32_t sms = m->gpu.sms ? m->gpu.sms : m->cores;

    memset(b, 0, sizeof(*b));
    for (unsigned l = 0; l <= w->nlevels; l++) {
        const struct augur_machine_cache *c = NULL;
        double sectors = 0, gbs;

        for (unsigned k = l; k <= w->nlevels; k++)
            sectors += w->gpu.sector_hits[k];
        if (l < w->nlevels) {
            for (uint32_t k = 0; k < m->ncaches; k++)
                if (strcmp(m->caches[k].name, w->level_name[l]) == 0)
                    c = &m->caches[k];
            gbs = c ? augur_machine_bw_at(c->bandwidth, c->nbandwidth, sms) : 0;
        } else {
            gbs = augur_machine_bw_at(m->memory.bandwidth, m->memory.nbandwidth, sms);
        }
        if (!(gbs > 0))
            continue;
        b->name[b->n] = w->level_name[l];
        b->bytes[b->n] = sectors * SECTOR_BYTES + (l == w->nlevels ? w->gpu.dram_write_bytes : 0);
        b->gbs[b->n] = gbs;
        if (b->bytes[b->n] / gbs > b->memory_ns) {
            b->memory_ns = b->bytes[b->n] / gbs;
            b->bottleneck = b->n;
        }
        b->n++;
    }
    if (!b->n)
        return augur_diag_set(diag, AUGUR_EMODEL, NULL, 0, 0,
                              "bandwidth model: machine '%s' gives no bandwidth for L2 or memory",
                              m->name);
    b->launch_ns = launch_ns(m, &w->gpu);
    return 0;
}

int pred_gpu_bw_predict(const struct augur_model_input *mi, struct augur_prediction *out,
                        struct augur_diag *diag)
{
    struct gpu_bw b;
    int rc;

    if ((rc = gpu_bw_build(mi, &b, diag)) < 0)
        return rc;
    out->seconds = (b.memory_ns + b.launch_ns) * 1e-9;
    out->rate = b.bytes[b.bottleneck] / out->seconds * 1e-9;
    out->rate_unit = "GB/s";
    out->bottleneck = b.launch_ns > b.memory_ns ? "kernel launch" : b.name[b.bottleneck];
    return 0;
}

int pred_gpu_bw_explain(const struct augur_model_input *mi, struct augur_buf *buf,
                        struct augur_diag *diag)
{
    struct gpu_bw b;
    int rc;

    if ((rc = gpu_bw_build(mi, &b, diag)) < 0)
        return rc;
    augur_buf_printf(
        buf, "bandwidth model, GPU (Langguth et al. JPDC'15 eq. 2, 4-5 with measured hits):\n");
    augur_buf_printf(buf, "%-8s %14s %10s %12s\n", "level", "bytes", "GB/s", "ns");
    for (unsigned i = 0; i < b.n; i++)
        augur_buf_printf(buf, "%-8s %14.6g %10.5g %12.6g%s\n", b.name[i], b.bytes[i], b.gbs[i],
                         b.bytes[i] / b.gbs[i], i == b.bottleneck ? "  <- bottleneck" : "");
    augur_buf_printf(buf, "launches %.6g -> %.6g ns\n", mi->work->gpu.launches, b.launch_ns);
    return 0;
}
