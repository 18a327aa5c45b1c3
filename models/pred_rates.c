/*
 * pred_rates.c - the machine's rates as the workload-driven models read them:
 * issue costs per operation, and the cost of a request served by each level
 * at a thread count (module: models). What a machine file does not give
 * comes from samples/machines/default-cpu.yml (augur_machine_cpu_defaults()).
 */
#include <math.h>
#include <string.h>

#include "pred_int.h"

static double or_default(double v, double def)
{
    return v > 0 ? v : def;
}

/*
 * The misses one stall of level i overlaps with a window of win accesses:
 * the simulation's epochs (augur_sim_profile.miss_epochs), log-linear
 * between the windows it counted; 0 where it measured none.
 */
static double measured_overlap(const struct augur_workload *w, unsigned i, double win)
{
    const double *o = w->overlap[i];

    if (!(o[0] > 0))
        return 0;
    if (win <= AUGUR_WORK_WINDOW(0))
        return o[0];
    for (unsigned k = 0; k + 1 < AUGUR_WORK_NWINDOWS; k++)
        if (win <= AUGUR_WORK_WINDOW(k + 1))
            return o[k] + (o[k + 1] - o[k]) * log2(win / AUGUR_WORK_WINDOW(k));
    return o[AUGUR_WORK_NWINDOWS - 1];
}

/*
 * The core keeps as many misses in flight as its window of instructions
 * holds, up to its fill buffers (mlp). An indirect read that waits for
 * level i stalls the window, and the reads of level i or beyond that
 * enter the window behind it overlap its wait: the simulation counted how
 * many per stall (its epochs, at the window's reach in accesses: the
 * window times the kernel's accesses per instruction, where a vector load,
 * gather or store is one instruction of many accesses, its lanes). Without
 * them, the mean: the
 * requests of level i or beyond among the window's instructions, so sparse
 * misses (one load in a hundred) wait nearly alone and dense ones share
 * the latency mlp ways. The instructions are the kernel's loads, stores
 * and operations. Transfers (lines from another core) count as slow as
 * memory's requests; *xfer_inflight is theirs.
 */
static void inflight_of(const struct augur_workload *w, struct pred_rates *r, double *xfer_inflight)
{
    const struct augur_work_line *t = &w->total;
    double instr = r->instr, slow = 0, reach;

    reach = instr > 0 ? r->window * t->accesses / instr : 0;
    for (unsigned i = 0; i <= r->nlevels; i++)
        slow += t->transfers[i];
    for (unsigned i = r->nlevels + 1; i-- > 0;) {
        double m, measured = i > 0 ? measured_overlap(w, i, reach) : 0;

        slow += t->served[i];
        m = measured > 0 ? measured : instr > 0 ? r->window * slow / instr : r->mlp;
        r->inflight_at[i] = m < 1 ? 1 : m > r->mlp ? r->mlp : m;
    }
    *xfer_inflight = r->inflight_at[r->nlevels];
}

int pred_rates_of(const struct augur_machine *m, const struct augur_workload *w,
                  struct pred_rates *r, struct augur_diag *diag)
{
    const struct augur_machine *d = augur_machine_cpu_defaults(); /* what m does not give */
    const char *file;
    double xfer_inflight;
    unsigned n;

    if (!m || !w || !r)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "model: no machine or workload");
    file = m->path && m->path[0] ? m->path : NULL;
    memset(r, 0, sizeof(*r));
    r->threads = w->threads ? w->threads : 1;
    if (!(m->clock_ghz > 0))
        return augur_diag_set(diag, AUGUR_EMODEL, file, 0, 0, "machine '%s' gives no clock_ghz",
                              m->name);
    if (!m->has_memory)
        return augur_diag_set(diag, AUGUR_EMODEL, file, 0, 0, "machine '%s' has no memory section",
                              m->name);
    r->clock_ghz = m->clock_ghz;
    r->op_fmath = or_default(m->ops.fmath, d->ops.fmath);
    r->op_idiv = or_default(m->ops.idiv, d->ops.idiv);
    r->op_conflict = or_default(m->ops.conflict, d->ops.conflict);
    r->op_reduce = or_default(m->ops.reduce, d->ops.reduce);
    r->fsqrt_per_fdiv = or_default(m->ops.fsqrt_per_fdiv, d->ops.fsqrt_per_fdiv);
    r->overlap_norm = or_default(m->model.overlap_norm, d->model.overlap_norm);
    r->loads_per_cycle = or_default(m->core.loads_per_cycle, d->core.loads_per_cycle);
    r->stores_per_cycle = or_default(m->core.stores_per_cycle, d->core.stores_per_cycle);
    r->fp_ops_per_cycle = or_default(m->core.fp_ops_per_cycle, d->core.fp_ops_per_cycle);
    r->int_ops_per_cycle = or_default(m->core.int_ops_per_cycle, d->core.int_ops_per_cycle);
    r->issue_width = or_default(m->core.issue_width, d->core.issue_width);
    r->branch_miss_cycles = or_default(m->core.branch_miss_cycles, d->core.branch_miss_cycles);
    r->region_ns = or_default(m->core.region_ns, d->core.region_ns);
    r->chain_cycles = or_default(m->core.chain_cycles, d->core.chain_cycles);
    r->chain_loop_instr = or_default(m->core.chain_loop_instr, d->core.chain_loop_instr);
    r->fadd_latency = or_default(m->core.fadd_latency, d->core.fadd_latency);
    r->fma_latency = or_default(m->core.fma_latency, d->core.fma_latency);
    r->fused_chains = m->core.fused_chains;
    r->fdiv_cycles = or_default(m->core.fdiv_cycles, d->core.fdiv_cycles);
    r->atomic_cycles = or_default(m->core.atomic_cycles, d->core.atomic_cycles);
    r->atomic_mlp = m->core.atomic_mlp; /* 0: the misses overlap as plain loads' do */
    r->chunk_ns = or_default(m->core.chunk_ns, d->core.chunk_ns);
    r->region1_ns = m->core.region1_ns > 0 ? m->core.region1_ns : 0;
    r->inflight = or_default(m->core.inflight, d->core.inflight);
    r->window = or_default(m->core.window, d->core.window);
    r->mlp = or_default(m->core.mlp, d->core.mlp);
    /*
     * Without a core.mlp, the parallelism the memory curve shows: the
     * latency over the shortest service time calibration reached.
     */
    if (!(m->core.mlp > 0) && m->memory.nmlp) {
        double lat = m->memory.latency_ns > 0 ? m->memory.latency_ns : m->memory.mlp[0].ns;

        for (uint32_t i = 0; i < m->memory.nmlp; i++)
            if (m->memory.mlp[i].ns > 0 && lat / m->memory.mlp[i].ns > r->mlp)
                r->mlp = lat / m->memory.mlp[i].ns;
    }
    /*
     * A kernel called again on the same data replays its branch outcomes:
     * the predictor learns as many of them as its history holds (the
     * calibrated curve, at the mispredictions a core meets across calls:
     * its own part of the work where a thread gets the same part every
     * call, everyone's where the parts are dealt out on demand).
     */
    r->run_cycles = m->core.branch_run_cycles;
    r->nrun_cycles = m->core.nbranch_run_cycles;
    r->run_left = m->core.branch_run_left;
    r->nrun_left = m->core.nbranch_run_left;
    r->chain_runs = m->core.chain_runs;
    r->nchain_runs = m->core.nchain_runs;
    r->branch_left = 1;
    if (m->core.nbranch_learned) {
        double left = augur_machine_curve_at(
            m->core.branch_learned, m->core.nbranch_learned,
            (w->total.branch_misses + w->total.guessed) *
                (w->busiest_share + w->dealt_share * (1 - w->busiest_share)));

        r->branch_left = left < 0 ? 0 : left > 1 ? 1 : left;
    }
    /*
     * The busiest thread's local arrays, made and first touched in every
     * call, taken as blocks of equal size: the cost per page of the largest
     * calibrated size not above a block's (a step, not an interpolation:
     * malloc switches from reused heap to fresh mmap()ed pages at a size).
     */
    r->alloc_ns = 0;
    if (m->core.nfirst_touch && w->alloc_bytes > 0) {
        const struct augur_curve_point *c = m->core.first_touch;
        double block = w->alloc_bytes / (w->alloc_blocks >= 1 ? w->alloc_blocks : 1);
        double per_page = c[0].ns;

        for (uint32_t i = 0; i < m->core.nfirst_touch && c[i].m <= block; i++)
            per_page = c[i].ns;
        r->alloc_ns = per_page > 0 ? w->alloc_bytes / 4096 * per_page : 0;
    }
    r->gather_cycles =
        or_default(m->simd.gather_cycles_per_element, d->simd.gather_cycles_per_element);
    r->scatter_cycles =
        or_default(m->simd.scatter_cycles_per_element, d->simd.scatter_cycles_per_element);

    n = w->nlevels < m->ncaches ? w->nlevels : m->ncaches;
    r->nlevels = n;
    for (unsigned i = 0; i < n; i++) {
        const struct augur_machine_cache *c = &m->caches[i];

        r->latency_ns[i] = c->latency_ns > 0 ? c->latency_ns : c->latency_cycles / m->clock_ghz;
        r->bw_gbs[i] =
            c->nbandwidth ? augur_machine_bw_at(c->bandwidth, c->nbandwidth, r->threads) : 0;
        r->line_bytes[i] = c->line ? c->line : 64;
        if (i > 0 && !(r->latency_ns[i] > 0) && !(r->bw_gbs[i] > 0))
            return augur_diag_set(diag, AUGUR_EMODEL, file, c->loc.line, c->loc.col,
                                  "cache %s gives neither a latency nor a bandwidth", c->name);
    }
    r->latency_ns[n] =
        m->memory.latency_ns > 0 ? m->memory.latency_ns : m->memory.latency_cycles / m->clock_ghz;
    r->bw_gbs[n] = m->memory.nbandwidth
                       ? augur_machine_bw_at(m->memory.bandwidth, m->memory.nbandwidth, r->threads)
                       : 0;
    r->line_bytes[n] = n ? r->line_bytes[n - 1] : 64;
    r->mem_curve = m->memory.mlp;
    r->nmem_curve = m->memory.nmlp;
    r->accesses = w->total.accesses;
    r->chained = w->total.chained;
    r->instr = w->total.loads + w->total.stores;
    for (int k = 0; k < AUGUR_OPK_COUNT; k++)
        r->instr += w->total.instr[k];
    inflight_of(w, r, &xfer_inflight);
    /*
     * The transfer curve at the transfers' misses in flight (its last point
     * beyond its end). A locked update of a line another core holds takes
     * it exclusive at the lock, one at a time: the curve at one. (The plain
     * load before it, which can run early, fetched a shared copy.)
     */
    r->atomic_transfer_ns =
        m->core.ntransfer ? augur_pred_curve_at(m->core.transfer, m->core.ntransfer, 1) : 0;
    r->transfer_ns = m->core.ntransfer
                         ? augur_pred_curve_at(m->core.transfer, m->core.ntransfer, xfer_inflight)
                         : 0;
    if (!(r->latency_ns[n] > 0) && !(r->bw_gbs[n] > 0) && !r->nmem_curve)
        return augur_diag_set(diag, AUGUR_EMODEL, file, 0, 0,
                              "machine '%s': memory gives no latency, bandwidth or mlp curve",
                              m->name);
    return 0;
}

double pred_op_cycles(const struct pred_rates *r, enum augur_opkind k)
{
    switch (k) {
    case AUGUR_OPK_FADD:
    case AUGUR_OPK_FMUL:
    case AUGUR_OPK_FFMA:
        return 1.0 / r->fp_ops_per_cycle;
    case AUGUR_OPK_FDIV:
        return r->fdiv_cycles;
    case AUGUR_OPK_FSQRT:
        return r->fsqrt_per_fdiv * r->fdiv_cycles; /* the divider's unit */
    case AUGUR_OPK_FMATH:
        return r->op_fmath;
    case AUGUR_OPK_IADD:
    case AUGUR_OPK_IBIT:
    case AUGUR_OPK_CMP:
        return 1.0 / r->int_ops_per_cycle;
    case AUGUR_OPK_IMUL:
    case AUGUR_OPK_CVT:
        return 1.0 / r->int_ops_per_cycle;
    case AUGUR_OPK_IDIV:
        return r->op_idiv;
    case AUGUR_OPK_VLOAD:
        return 1.0 / r->loads_per_cycle;
    case AUGUR_OPK_VSTORE:
        return 1.0 / r->stores_per_cycle;
    case AUGUR_OPK_CONFLICT:
        return r->op_conflict;
    case AUGUR_OPK_REDUCE:
        return r->op_reduce;
    case AUGUR_OPK_GATHER:
    case AUGUR_OPK_SCATTER:
        return 0; /* per element: pred_gather_cycles */
    default:
        return 1.0;
    }
}

/* A thread's share of level i's bandwidth, as ns per line; 0 when the machine gives none. */
static double share_ns(const struct pred_rates *r, unsigned i)
{
    return r->bw_gbs[i] > 0 ? r->line_bytes[i] * r->threads / r->bw_gbs[i] : 0; /* bytes per ns */
}

double pred_serve_ns(const struct pred_rates *r, unsigned i, double m)
{
    double lat, floor_ns;

    if (i > r->nlevels)
        return 0;
    if (m < 1)
        m = 1;
    if (m > r->mlp)
        m = r->mlp;
    floor_ns = share_ns(r, i);
    if (i == r->nlevels && r->nmem_curve)
        lat = augur_pred_curve_at(r->mem_curve, r->nmem_curve, m);
    else
        lat = r->latency_ns[i] / m;
    return lat > floor_ns ? lat : floor_ns;
}

double pred_stream_ns(const struct pred_rates *r, unsigned i)
{
    if (i > r->nlevels)
        return 0;
    return r->bw_gbs[i] > 0 ? share_ns(r, i) : pred_serve_ns(r, i, r->mlp);
}

/*
 * Cycles mispredictions wait beyond their own cost, dep[i] of them for a
 * load level i served: each is found only when that load returns.
 */
static double load_waits(const struct pred_rates *r, const double *dep)
{
    double cyc = 0;

    for (unsigned i = 1; i <= r->nlevels; i++)
        cyc += dep[i] * r->latency_ns[i] * r->clock_ghz;
    return cyc;
}

double pred_branch_cycles(const struct pred_rates *r, const struct augur_work_line *l)
{
    double per = r->branch_miss_cycles, left = r->branch_left, run = l->branch_run;
    /* the simulated predictor's: no run curve, only how much of a replay the core learns */
    double guessed =
        (l->guessed * r->branch_miss_cycles + load_waits(r, l->guessed_dep)) * r->branch_left;

    if (!(l->branch_misses > 0))
        return guessed;
    if (run > 0 && r->nrun_cycles && r->run_cycles[0].ns > 0)
        per *= augur_machine_curve_at(r->run_cycles, r->nrun_cycles, run) / r->run_cycles[0].ns;
    if (run > 0 && r->nrun_left) {
        double h = augur_machine_curve_at(r->run_left, r->nrun_left, run);

        h = h < 0 ? 0 : h > 1 ? 1 : h;
        left = h > left ? h : left;
    }
    return (l->branch_misses * per + load_waits(r, l->dep_misses)) * left + guessed;
}
