/*
 * pred_skope.c - Model 3, the SKOPE-style aggregate of Zhu et al. PACT'19 section IV-D:
 * per source line, issue time at the effective SIMD width against the time
 * of the requests each level serves; the busiest thread's share; the load
 * imbalance of tiled-and-grouped code (eq. 4-6) (module: models).
 */
#include <math.h>
#include <stdio.h>

#include "pred_int.h"

/*
 * A line's issue, memory and loop-carried times overlap, but not wholly:
 * near balance each waits on the others part of the time (a chain's stall
 * fills the window that would have hidden a miss; a burst of misses holds
 * up the issue of the chain's next link). Their L^p norm is the largest when
 * one dominates and adds 2^(1/p) - 1 when two are equal; p is the machine
 * file's model.overlap_norm (default-cpu.yml says where its value comes from).
 */
static double overlap(double p, double issue, double memory, double carried)
{
    double top = issue > memory ? issue : memory;

    if (carried > top)
        top = carried;
    if (!(top > 0))
        return 0;
    issue /= top, memory /= top, carried /= top; /* no overflow, and exact when one is alone */
    return top * pow(pow(issue, p) + pow(memory, p) + pow(carried, p), 1 / p);
}

/*
 * Cycles one link of a chain of len updates costs, the kernel running
 * instr instructions per update. Chains of different elements are
 * independent, and the core works on as many at once as its window of
 * instructions holds. With the machine's chain_runs curve: the calibrated
 * loop's time per update (chain_loop_instr instructions each) for a chain
 * spanning as many instructions, less
 * the time without chains (as the aggregate composes the two), per link;
 * without it: chain_cycles x min(1, span / window).
 */
static double link_cycles(const struct pred_rates *r, double len, double instr)
{
    double m = len * instr / r->chain_loop_instr, span = len * instr, t, t1;

    if (r->nchain_runs < 2 || !(r->chain_runs[0].m <= 1))
        return r->chain_cycles * (span < r->window ? span / r->window : 1);
    t1 = r->chain_runs[0].ns;
    t = augur_machine_curve_at(r->chain_runs, r->nchain_runs, m);
    if (!(m > 1) || !(t > t1))
        return 0;
    return pow(pow(t, r->overlap_norm) - pow(t1, r->overlap_norm), 1 / r->overlap_norm) * m /
           (m - 1);
}

/*
 * Of a line's chained updates, the share of their links' cost the core
 * waits for. A link whose store lay d memory accesses back waits only when
 * the core issues those d accesses (at the kernel's instructions per access
 * over the issue width) in less than the chain's latency; farther ones find
 * the value stored. And the links of different chains that fall within
 * those d accesses wait at once, not one after another: with c of them
 * (the kernel's chained updates per access times d, at least 1), each
 * costs 1 / c of a link. A loop that updates four elements of a node per
 * edge keeps four chains in step. Within a bucket of distances the links
 * are taken as spread evenly.
 */
static double waiting_share(const struct pred_rates *r, const struct augur_work_line *l)
{
    double per = r->accesses > 0 ? r->instr / r->accesses / r->issue_width : 0, n = 0, all = 0;
    double reach = per > 0 ? r->chain_cycles / per : 1e300;
    double rate = r->accesses > 0 ? r->chained / r->accesses : 0;

    for (unsigned b = 0; b < AUGUR_CHAIN_BUCKETS; b++) {
        double lo, hi, top, mid, c;

        augur_chain_bucket_range(b, &lo, &hi);
        if (!(l->chain_dist[b] > 0))
            continue;
        all += l->chain_dist[b];
        if (reach < lo)
            continue;
        top = reach < hi ? reach : hi;
        mid = (lo + top) / 2;
        c = rate * mid > 1 ? rate * mid : 1;
        n += l->chain_dist[b] * (top - lo + 1) / (hi - lo + 1) / c;
    }
    return all > 0 ? n / all : 1; /* no distances: every link waits */
}

/*
 * Cycles a line's chained updates make the core wait: each link at the
 * cost of its chain's length (the middle of its bucket; the last bucket
 * endless), times the share that waits. Runs saved before the lengths were
 * counted give one length, the chains' weighted by their links.
 */
static double chain_line_cycles(const struct pred_rates *r, const struct augur_work_line *l)
{
    double updates = l->stores, instr, cyc = 0, all = 0;

    if (!(l->chained > 0) || !(updates > 0))
        return 0;
    instr = r->instr / updates;
    if (!(updates > l->chained)) /* every update chained: one chain without end */
        return l->chained * link_cycles(r, 1e300, instr) * waiting_share(r, l);
    for (unsigned b = 0; b < AUGUR_CHAIN_LENS; b++) {
        double lo, hi, len;

        augur_chain_bucket_range(b, &lo, &hi);
        len = b + 1 < AUGUR_CHAIN_LENS ? (lo + hi) / 2 + 1 : 1e300; /* links + 1 updates */
        if (l->chain_lens[b] > 0) {
            cyc += l->chain_lens[b] * link_cycles(r, len, instr);
            all += l->chain_lens[b];
        }
    }
    if (!(all > 0)) {
        double len = l->chain_len > 0 ? l->chain_len : updates / (updates - l->chained);

        cyc = l->chained * link_cycles(r, len, instr);
        all = l->chained;
    }
    return cyc * l->chained / all * waiting_share(r, l);
}

/*
 * What a carried multiply-add (s += a * b) makes the next iteration wait:
 * the fused chain's latency where the compiler keeps it fused, the add's
 * where it splits it into a multiply off the chain and an add on it (gcc
 * does for AMD's Zen, not for Intel's cores: `augur calibrate` asks the
 * compiler, core.fused_chains). Not given: the cheaper of the two.
 */
static double carried_fma_latency(const struct pred_rates *r)
{
    if (r->fused_chains == 1)
        return r->fma_latency;
    if (r->fused_chains == 0)
        return r->fadd_latency;
    return r->fadd_latency < r->fma_latency ? r->fadd_latency : r->fma_latency;
}

/*
 * Cycles a line's loop-carried operations (sum += ...) make its loop wait:
 * each iteration waits for the latency of the slowest kind's operations in
 * it. Each entry into the loop starts a new, independent chain, and the
 * core works on the next ones as far as its window reaches beyond the one
 * it waits for: window / span more, span the kernel's instructions per
 * chain, so an iteration costs latency x span / (span + window) (short
 * rows overlap, long ones wait).
 */
static double carried_cycles(const struct pred_rates *r, const struct augur_work_line *l)
{
    double per_iter = 0, runs, span, instr = r->instr, all = 0;

    if (!(l->carried_iters > 0))
        return 0;
    for (int k = 0; k < AUGUR_OPK_COUNT; k++) {
        double lat = k == AUGUR_OPK_FADD   ? r->fadd_latency
                     : k == AUGUR_OPK_FFMA ? carried_fma_latency(r)
                                           : r->fma_latency;

        if (l->carried[k] > 0 && l->carried[k] / l->carried_iters * lat > per_iter)
            per_iter = l->carried[k] / l->carried_iters * lat;
    }
    /* each chain by its own length: a hub's row waits, the short rows beside it overlap */
    for (unsigned b = 0; b < AUGUR_CARRIED_LENS; b++)
        all += l->carried_lens[b];
    if (all > 0) {
        double cyc = 0;

        for (unsigned b = 0; b < AUGUR_CARRIED_LENS; b++)
            if (l->carried_lens[b] > 0) {
                span = l->carried_lens_len[b] * instr / l->carried_iters;
                cyc += l->carried_lens[b] / all * span / (span + r->window);
            }
        return l->carried_iters * per_iter * cyc;
    }
    runs = l->carried_runs >= 1 ? l->carried_runs : 1;
    span = instr / runs; /* the kernel's instructions per chain */
    /* chains as long as their iterations weigh them (a hub's row waits long) */
    if (l->carried_len > 0)
        span = l->carried_len * instr / l->carried_iters;
    return l->carried_iters * per_iter * span / (span + r->window);
}

/*
 * What a line asks of the issue ports, in cycles: each class's ports
 * (loads, stores, floating point, integer, and the divider for divisions
 * and square roots), all instructions over the issue width, and what
 * serialises (long-latency units, mispredicted branches).
 */
#define NPORTS 5

struct line_issue {
    double port[NPORTS], width, serial;
};

static double busiest_port(const struct line_issue *x)
{
    double c = x->width;

    for (int i = 0; i < NPORTS; i++)
        if (x->port[i] > c)
            c = x->port[i];
    return c;
}

static void line_issue(const struct pred_rates *r, const struct augur_workload *w,
                       const struct augur_work_line *l, struct line_issue *x)
{
    double simd = w->simd_util > 0 && w->simd_util <= 1 ? w->simd_util : 1;
    double instr_all = l->loads + l->stores, other = 0;

    x->port[0] = l->loads / r->loads_per_cycle;
    x->port[1] = l->stores / r->stores_per_cycle;
    x->port[2] = x->port[3] = x->port[4] = 0;
    for (int k = 0; k < AUGUR_OPK_COUNT; k++) {
        double instr = l->instr[k];

        if (!(instr > 0))
            continue;
        /* eq. 6: vector work spreads over width x utilization lanes, so idle lanes cost */
        if (l->elems[k] > instr)
            instr /= simd;
        instr_all += instr;
        /* pipelined operations share their ports; the long-latency ones wait */
        switch (k) {
        case AUGUR_OPK_FADD:
        case AUGUR_OPK_FMUL:
        case AUGUR_OPK_FFMA:
        case AUGUR_OPK_BCAST:
        case AUGUR_OPK_PERM:
        case AUGUR_OPK_MASK:
        case AUGUR_OPK_VOTHER:
            x->port[2] += instr / r->fp_ops_per_cycle;
            break;
        case AUGUR_OPK_IADD:
        case AUGUR_OPK_IBIT:
        case AUGUR_OPK_CMP:
        case AUGUR_OPK_IMUL:
        case AUGUR_OPK_CVT:
            x->port[3] += instr / r->int_ops_per_cycle;
            break;
        case AUGUR_OPK_VLOAD:
            x->port[0] += instr / r->loads_per_cycle;
            break;
        case AUGUR_OPK_VSTORE:
            x->port[1] += instr / r->stores_per_cycle;
            break;
        case AUGUR_OPK_FDIV:
        case AUGUR_OPK_FSQRT:
            /* the divider is a unit of its own: the other ports work beside it */
            x->port[4] += instr * pred_op_cycles(r, (enum augur_opkind)k);
            break;
        case AUGUR_OPK_GATHER:
            other += l->elems[k] * r->gather_cycles;
            break;
        case AUGUR_OPK_SCATTER:
            other += l->elems[k] * r->scatter_cycles;
            break;
        default: /* integer division, math calls, conflict detection, reductions */
            other += instr * pred_op_cycles(r, (enum augur_opkind)k);
        }
    }
    x->width = instr_all / r->issue_width;
    /* a locked read-modify-write orders the core's memory operations around it */
    x->serial = other + pred_branch_cycles(r, l) + l->atomics * r->atomic_cycles;
}

/*
 * The lines of one loop issue side by side: the loop's issue time is its
 * busiest port class over all its lines (or all its instructions over the
 * width), not the sum of each line's busiest, as one line's loads issue
 * beside another's arithmetic. Returns the factor that takes each line's
 * busiest to its share of the loop's: at most 1.
 */
static double loop_share(const struct augur_workload *w, const struct line_issue *iss, size_t i)
{
    struct line_issue sum = { { 0 }, 0, 0 };
    double lines = 0, loop;

    for (size_t j = 0; j < w->nlines; j++) {
        if (w->lines[j].loop != w->lines[i].loop)
            continue;
        for (int p = 0; p < NPORTS; p++)
            sum.port[p] += iss[j].port[p];
        sum.width += iss[j].width;
        lines += busiest_port(&iss[j]);
    }
    loop = busiest_port(&sum);
    return lines > 0 && loop < lines ? loop / lines : 1;
}

/*
 * One line's time: its issue time, its memory time, its loop-carried
 * chain's and its update chain, which overlap.
 */
struct line_time {
    double issue_ns, memory_ns, carried_ns, chain_ns;
};

static struct line_time line_time(const struct pred_rates *r, const struct augur_work_line *l,
                                  const struct line_issue *x, double share)
{
    struct line_time t = { 0, 0, 0, 0 };

    /* long-latency units (division, gathers, math calls) and mispredicted branches serialise */
    t.issue_ns = (busiest_port(x) * share + x->serial) / r->clock_ghz;
    t.carried_ns = carried_cycles(r, l) / r->clock_ghz;
    t.chain_ns = chain_line_cycles(r, l) / r->clock_ghz;
    /*
     * Requests served beyond L1 (L1 hits cost their issue slot only): an
     * indirect access's wait for the level's latency, shared by the misses
     * in flight; a stream's for the level's bandwidth. Lines another core
     * wrote come from its cache at the calibrated transfer cost, whatever
     * level served them in the simulation (their share of its indirect and
     * streamed requests alike).
     *
     * A locked update (atomics) waits for its line and for the loads
     * before it: fewer of its misses overlap (core.atomic_mlp), and the core
     * issues nothing past it meanwhile, so its requests' wait adds to the
     * issue time instead of hiding under it. A line another core wrote
     * comes exclusive at the lock, one at a time (the transfer curve at
     * one): as many of the line's transfers as it has locked updates.
     */
    double locked_left = r->atomic_mlp > 0 ? l->atomics : 0;

    for (unsigned i = 1; i <= r->nlevels; i++) {
        double served = l->served[i], xfer = 0, irr, atomic = 0, ax = 0;
        bool locked = l->atomic_served[i] > 0 && r->atomic_mlp > 0;

        irr = l->irr_served[i] < l->served[i] ? l->irr_served[i] : l->served[i];
        if (locked)
            atomic = l->atomic_served[i] < irr ? l->atomic_served[i] : irr;
        if (r->transfer_ns > 0 && l->transfers[i] > 0) {
            /* the locked updates' share: a line another core holds is one they wait for
               whether or not it lies near a stream (a histogram's few hot lines) */
            xfer = l->transfers[i] < served ? l->transfers[i] : served;
            ax = xfer < locked_left ? xfer : locked_left;
            locked_left -= ax;
            t.memory_ns += (xfer - ax) * r->transfer_ns;
            t.issue_ns += ax * r->atomic_transfer_ns;
        }
        if (served > 0) {
            irr *= (served - xfer) / served;
            atomic *= (served - xfer) / served;
        }
        served -= xfer;
        if (atomic > 0) {
            double m = r->inflight_at[i] < r->atomic_mlp ? r->inflight_at[i] : r->atomic_mlp;

            t.issue_ns += atomic * pred_serve_ns(r, i, m);
            irr -= atomic;
            served -= atomic;
        }
        t.memory_ns +=
            irr * pred_serve_ns(r, i, r->inflight_at[i]) + (served - irr) * pred_stream_ns(r, i);
    }
    return t;
}

/* eq. 4-5: T_MIMD = a threads / avg_MIMD, avg_MIMD = b edges / tile size (ns). */
static double mimd_ns(const struct augur_machine *m, const struct augur_workload *w)
{
    double avg;

    if (!m->model.given || w->tile_size <= 0 || w->tile_edges <= 0 || w->threads < 2)
        return 0;
    /* measured on the data when the tiling was computed; eq. 5's estimate otherwise */
    avg = w->avg_mimd > 0 ? w->avg_mimd : m->model.mimd_b * w->tile_edges / w->tile_size;
    return avg > 0 ? m->model.mimd_a * w->threads / avg * 1e9 : 0;
}

struct skope_result {
    double seconds, issue_s, memory_s, carried_s, chain_s, dram_s, mimd_s, region_s, alloc_s;
    const char *bottleneck;
};

/*
 * The aggregate of in's workload into res (and each line's seconds into
 * line_seconds, unless NULL); unlearned: as if the core learned none of
 * the branch outcomes a call replays.
 */
static int skope_eval(const struct augur_model_input *in, bool unlearned, struct skope_result *res,
                      double *line_seconds, struct augur_diag *diag)
{
    const struct augur_workload *w;
    struct pred_rates r;
    struct line_issue *iss = NULL;
    double sum = 0, issue = 0, mem = 0, carried = 0, chain = 0, dram_bytes, dram_ns = 0;
    int rc;

    if (pred_is_gpu(in))
        return augur_diag_set(
            diag, AUGUR_EMODEL, NULL, 0, 0,
            "aggregate model: it prices a CPU core's issue ports and misses; a "
            "GPU kernel's estimate is the operational analysis (Pai et al. AGP'17)");
    if (!in || !in->work || !in->machine)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "aggregate model: needs a workload and a machine");
    w = in->work;
    if ((rc = pred_rates_of(in->machine, w, &r, diag)) < 0)
        return rc;
    if (unlearned)
        r.branch_left = 1;
    if (w->nlines && !(iss = augur_mallocarray(w->nlines, sizeof(*iss))))
        return augur_diag_set(diag, AUGUR_ENOMEM, NULL, 0, 0, "aggregate model: out of memory");
    for (size_t i = 0; i < w->nlines; i++)
        line_issue(&r, w, &w->lines[i], &iss[i]);
    for (size_t i = 0; i < w->nlines; i++) {
        struct line_time t = line_time(&r, &w->lines[i], &iss[i], loop_share(w, iss, i));
        double ns = overlap(r.overlap_norm, t.issue_ns, t.memory_ns, t.carried_ns);

        chain += t.chain_ns;
        issue += t.issue_ns;
        mem += t.memory_ns;
        carried += t.carried_ns;
        sum += ns;
        if (line_seconds)
            line_seconds[i] = ns * w->busiest_share * 1e-9;
    }
    augur_free(iss);
    sum = overlap(r.overlap_norm, sum, chain, 0);
    /* the busiest thread does its share of the work; DRAM is shared by all */
    sum *= w->busiest_share;
    dram_bytes = w->total.fill_bytes[r.nlevels] + w->total.writeback_bytes[r.nlevels];
    if (r.bw_gbs[r.nlevels] > 0)
        dram_ns = dram_bytes / r.bw_gbs[r.nlevels];
    res->issue_s = issue * w->busiest_share * 1e-9;
    res->memory_s = mem * w->busiest_share * 1e-9;
    res->carried_s = carried * w->busiest_share * 1e-9;
    res->dram_s = dram_ns * 1e-9;
    res->mimd_s = mimd_ns(in->machine, w) * 1e-9;
    /*
     * A team's fork and join, and its threads contending for the chunks of a
     * dynamic loop (the shared counter's line moves between cores); one
     * thread takes its chunks uncontended, and its region costs what the
     * machine's region1_ns says (the runtime's entry and exit: nothing unless
     * calibrated).
     */
    res->region_s = w->threads > 1 ? 0 : w->parallel * r.region1_ns * 1e-9;
    if (w->threads > 1) {
        res->region_s = w->parallel * r.region_ns * 1e-9;
        if (w->chunks > w->parallel)
            res->region_s += (w->chunks - w->parallel) * r.chunk_ns * 1e-9;
    }
    res->chain_s = chain * w->busiest_share * 1e-9;
    res->bottleneck = res->issue_s >= res->memory_s ? "issue" : "memory latency";
    if (res->carried_s > res->issue_s && res->carried_s > res->memory_s)
        res->bottleneck = "loop-carried latency";
    if (res->chain_s > res->issue_s && res->chain_s > res->memory_s)
        res->bottleneck = "update chain";
    if (dram_ns > sum) {
        sum = dram_ns;
        res->bottleneck = "memory bandwidth";
    }
    /* local arrays made in every call: their pages fault before the loops run */
    res->alloc_s = r.alloc_ns * 1e-9;
    if (res->alloc_s > sum * 1e-9)
        res->bottleneck = "fresh memory";
    res->seconds = sum * 1e-9 + res->mimd_s + res->region_s + res->alloc_s;
    return 0;
}

static int skope_predict(const struct augur_model_input *in, struct augur_prediction *out,
                         struct augur_diag *diag)
{
    struct skope_result res, none;
    int rc;

    if (!out)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "aggregate model: no output");
    if ((rc = skope_eval(in, false, &res, out->line_seconds, diag)) < 0 ||
        (rc = skope_eval(in, true, &none, NULL, diag)) < 0)
        return rc;
    out->model = augur_model_skope.name;
    out->seconds = res.seconds;
    /* a thousandth apart: the learning counted on moves the estimate */
    out->unlearned_seconds = none.seconds > res.seconds * 1.001 ? none.seconds : 0;
    out->rate = res.seconds > 0 ? 1.0 / res.seconds : 0;
    out->rate_unit = "calls/s";
    out->bottleneck = res.bottleneck;
    return 0;
}

static int skope_explain(const struct augur_model_input *in, struct augur_buf *buf,
                         struct augur_diag *diag)
{
    struct skope_result res;
    struct pred_rates r;
    int rc;

    if (!buf)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "aggregate model: no output");
    if ((rc = skope_eval(in, false, &res, NULL, diag)) < 0)
        return rc;
    pred_rates_of(in->machine, in->work, &r, NULL);
    augur_buf_printf(
        buf,
        "aggregate model (Zhu et al. PACT'19 IV-D, eq. 4-6): busiest thread's share %.4f, "
        "SIMD utilization %.3f\n",
        in->work->busiest_share, in->work->simd_util);
    augur_buf_printf(buf,
                     "  issue %.4g s, memory %.4g s, loop-carried chains %.4g s (lines: their "
                     "%g-norm); update chains %.4g s, DRAM %.4g s (the kernel: the max)\n",
                     res.issue_s, res.memory_s, res.carried_s, r.overlap_norm, res.chain_s,
                     res.dram_s);
    augur_buf_printf(buf, "  request cost (ns) at mlp %g:", r.mlp);
    for (unsigned i = 1; i <= r.nlevels; i++)
        augur_buf_printf(buf, " %s %.3g", in->work->level_name[i], pred_serve_ns(&r, i, r.mlp));
    augur_buf_printf(
        buf,
        "\n  T_MIMD %.4g s; parallel regions and chunks %.4g s; fresh memory (%.4g bytes of local "
        "arrays, busiest thread) %.4g s; total %.6g s per call\n",
        res.mimd_s, res.region_s, in->work->alloc_bytes, res.alloc_s, res.seconds);
    if (in->work->total.guessed + in->work->total.branch_misses > 0) {
        struct skope_result none;

        if ((rc = skope_eval(in, true, &none, NULL, diag)) < 0)
            return rc;
        augur_buf_printf(buf,
                         "  branch replay: %.4g mispredictions per call, %.3g of them left after "
                         "the core learns across calls; none learned: %.6g s per call\n",
                         in->work->total.guessed + in->work->total.branch_misses, r.branch_left,
                         none.seconds);
    }
    return 0;
}

const struct augur_model_ops augur_model_skope = {
    .name = "skope",
    .source = "Zhu et al. PACT'19 section IV-D, eq. 4-6",
    .predict = skope_predict,
    .explain = skope_explain,
};
