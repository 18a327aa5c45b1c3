/*
 * sim_workload.c - the workload the models read: a simulated run's counts per
 * call, per source line, with the operations each line executes (module: sim).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/sim.h"

/*
 * Adds one access node's simulated counts to a line. An indirect access's
 * requests are priced at the latency (irr_served) unless they land near
 * a stream the thread follows, where the simulation measured that: the
 * hardware's stream prefetchers run ahead of a gather through a banded
 * matrix's columns or a road graph's neighbours numbered near each other.
 * (Affine accesses stay streams: far steps between the columns of a
 * column-major array still overlap.)
 */
static void add_access(struct augur_work_line *l, const struct augur_node *n,
                       const struct augur_sim_group *g, unsigned nlevels, double scale,
                       bool far_measured, unsigned packed)
{
    double ev = (double)g->events * scale;

    double bytes = ev * augur_type_size(n->u.access.type);

    l->accesses += ev;
    /*
     * An update is a load and a store (its events count both, so each is
     * half of them); a vector access issues as its vector op.
     */
    if (n->u.access.lanes <= 1) {
        /* packed: a vector instruction loads or stores that many elements */
        double half = (n->u.access.mode == AUGUR_ACCESS_RMW ? ev / 2 : ev) / packed;

        if (n->u.access.mode != AUGUR_ACCESS_WRITE)
            l->loads += half;
        if (n->u.access.mode != AUGUR_ACCESS_READ)
            l->stores += half;
        if (n->u.access.mode == AUGUR_ACCESS_RMW && (n->u.access.flags & AUGUR_ACC_ATOMIC))
            l->atomics += half;
    }
    l->bytes += bytes;
    if (n->u.access.indirect) {
        l->irregular += ev;
        l->irregular_bytes += bytes;
    }
    /*
     * Memory serves reads and takes writes (dirty lines written back, by
     * evictions or by another core's request where no cache is shared):
     * both use its bandwidth, but only a read is waited for, so the
     * latency-priced part of an indirect access is its reads.
     */
    for (unsigned i = 0; i <= nlevels; i++) {
        const struct augur_cache_counts *wait = far_measured ? &g->far[i] : &g->level[i];

        l->served[i] += (double)(i < nlevels ? g->level[i].hits : g->level[i].accesses) * scale;
        l->transfers[i] += (double)g->level[i].transfers * scale;
        if (n->u.access.indirect)
            l->irr_served[i] += (double)(i < nlevels ? wait->hits : wait->reads) * scale;
        if (n->u.access.indirect && n->u.access.mode == AUGUR_ACCESS_RMW &&
            (n->u.access.flags & AUGUR_ACC_ATOMIC))
            l->atomic_served[i] += (double)(i < nlevels ? wait->hits : wait->reads) * scale;
    }
    for (unsigned i = 0; i < nlevels; i++) {
        l->fill_bytes[i] += (double)g->level[i].fill_bytes * scale;
        l->writeback_bytes[i] += (double)g->level[i].writeback_bytes * scale;
    }
    l->fill_bytes[nlevels] += (double)g->level[nlevels].fill_bytes * scale;
    l->writeback_bytes[nlevels] += (double)g->level[nlevels].writeback_bytes * scale;
    l->row_misses += (double)g->level[nlevels].row_misses * scale;
}

static struct augur_work_line *line_of(struct augur_workload *w, const struct augur_srcloc *loc)
{
    for (size_t i = 0; i < w->nlines; i++)
        if (w->lines[i].file == loc->file && w->lines[i].line == loc->line)
            return &w->lines[i];
    return NULL;
}

/* The array of the first load in e, or -1. */
static int64_t loaded_array(const struct augur_expr *e)
{
    int64_t a;

    if (!e)
        return -1;
    switch (e->kind) {
    case AUGUR_EXPR_LOAD:
        return e->u.load.array;
    case AUGUR_EXPR_UNARY:
        return loaded_array(e->u.un.a);
    case AUGUR_EXPR_BINARY:
        return (a = loaded_array(e->u.bin.a)) >= 0 ? a : loaded_array(e->u.bin.b);
    case AUGUR_EXPR_SELECT:
        if ((a = loaded_array(e->u.sel.cond)) >= 0 || (a = loaded_array(e->u.sel.a)) >= 0)
            return a;
        return loaded_array(e->u.sel.b);
    case AUGUR_EXPR_CAST:
        return loaded_array(e->u.cast.a);
    default:
        return -1;
    }
}

/*
 * Whether a constant index, or the variable of a loop of constant bounds
 * (for (j = 0; j < 4; j++)), which compilers unroll whole.
 */
static bool unrolled_index(const struct augur_node *n, const struct augur_expr *e,
                           const struct augur_codegen *cg)
{
    while (e && e->kind == AUGUR_EXPR_CAST)
        e = e->u.cast.a;
    if (!e)
        return false;
    if (e->kind == AUGUR_EXPR_INT)
        return true;
    if (e->kind != AUGUR_EXPR_SYM)
        return false;
    for (const struct augur_node *p = n->parent; p; p = p->parent)
        if (p->kind == AUGUR_NODE_LOOP && p->u.loop.var == (int32_t)e->u.sym) {
            int64_t trips = augur_skel_loop_const_trips(p);

            return trips >= 0 && trips <= cg->register_elems;
        }
    return false;
}

/*
 * Whether a kernel's local array lives in registers: a few elements
 * (acc[4]), every access scalar at an index the compiler knows once it
 * unrolls (scalar replacement). Its accesses then cost no load or store.
 */
static bool in_registers(const struct augur_skel *skel, const struct augur_node *kernel,
                         uint32_t array, const struct augur_codegen *cg)
{
    const struct augur_array *A = &kernel->u.kernel.arrays[array];

    if (A->space != AUGUR_SPACE_LOCAL || !A->extent || A->extent->kind != AUGUR_EXPR_INT ||
        A->extent->u.i < 1 || A->extent->u.i > cg->register_elems)
        return false;
    for (uint32_t id = kernel->id + 1; id < skel->nnodes; id++) {
        const struct augur_node *n = skel->nodes[id];

        if (augur_node_kernel(n) != kernel)
            break;
        if (n->kind == AUGUR_NODE_ACCESS && n->u.access.array == array &&
            (n->u.access.lanes > 1 || !unrolled_index(n, n->u.access.index, cg)))
            return false;
    }
    return true;
}

/*
 * How far an integer index steps when var grows by one: its coefficient
 * when the index is affine in var (X[4 * c + j]: 1), INT64_MIN when not
 * (var in a subscript, a product of var with a variable).
 */
static int64_t index_step(const struct augur_expr *e, uint32_t var)
{
    int64_t a, b;

    if (!e)
        return INT64_MIN;
    switch (e->kind) {
    case AUGUR_EXPR_INT:
        return 0;
    case AUGUR_EXPR_SYM:
        return e->u.sym == var ? 1 : 0;
    case AUGUR_EXPR_CAST:
        return index_step(e->u.cast.a, var);
    case AUGUR_EXPR_BINARY:
        a = index_step(e->u.bin.a, var);
        b = index_step(e->u.bin.b, var);
        if (a == INT64_MIN || b == INT64_MIN)
            return INT64_MIN;
        if (e->u.bin.op == AUGUR_OP_ADD)
            return a + b;
        if (e->u.bin.op == AUGUR_OP_SUB)
            return a - b;
        if (a == 0 && b == 0)
            return 0;
        if (e->u.bin.op == AUGUR_OP_MUL && a == 0 && e->u.bin.a->kind == AUGUR_EXPR_INT)
            return e->u.bin.a->u.i * b;
        if (e->u.bin.op == AUGUR_OP_MUL && b == 0 && e->u.bin.b->kind == AUGUR_EXPR_INT)
            return a * e->u.bin.b->u.i;
        return INT64_MIN;
    default:
        return augur_expr_uses_sym(e, var) ? INT64_MIN : 0;
    }
}

/*
 * The elements a compiler packs into one instruction in a short loop of
 * constant bounds (2 to register_elems trips): one it vectorizes whole,
 * its body straight (no loop, branch or call), every access in registers,
 * at one place or one element further each trip (acc[j] += a * X[4 * c + j]:
 * one vector load, one vector multiply-add), and no carried floating-point
 * sum (reassociating it needs -ffast-math). As many as pack_bytes hold of
 * its widest element, at most its trips; 1 for any other loop.
 */
static unsigned packed_lanes(const struct augur_node *loop, const bool *regs,
                             const struct augur_codegen *cg)
{
    int64_t trips = augur_skel_loop_const_trips(loop);
    unsigned widest = 0, lanes;

    if (trips < 2 || trips > cg->register_elems)
        return 1;
    for (uint32_t k = 0; k < loop->nkids; k++) {
        const struct augur_node *n = loop->kids[k];
        int64_t step;

        switch (n->kind) {
        case AUGUR_NODE_ASSIGN:
            break;
        case AUGUR_NODE_OPS:
            for (uint32_t j = 0; j < n->u.ops.n; j++)
                if (n->u.ops.v[j].carried || n->u.ops.v[j].lanes > 1)
                    return 1;
            break;
        case AUGUR_NODE_ACCESS:
            if (regs[n->u.access.array])
                break;
            step = index_step(n->u.access.index, (uint32_t)loop->u.loop.var);
            if (n->u.access.lanes > 1 || (step != 0 && step != 1))
                return 1;
            if (augur_type_size(n->u.access.type) > widest)
                widest = augur_type_size(n->u.access.type);
            break;
        default:
            return 1;
        }
    }
    if (!widest)
        return 1;
    lanes = cg->pack_bytes / widest;
    if (lanes > (uint64_t)trips)
        lanes = (unsigned)trips;
    return lanes >= 2 ? lanes : 1;
}

/* An index as base + constant (X[xr + 2]: xr and 2; X[xr]: xr and 0). */
static const struct augur_expr *split_offset(const struct augur_expr *e, int64_t *off)
{
    const struct augur_expr *c = e && e->kind == AUGUR_EXPR_BINARY ? e->u.bin.b : NULL;

    while (c && c->kind == AUGUR_EXPR_CAST)
        c = c->u.cast.a;
    *off = 0;
    if (c && c->kind == AUGUR_EXPR_INT &&
        (e->u.bin.op == AUGUR_OP_ADD || e->u.bin.op == AUGUR_OP_SUB)) {
        *off = e->u.bin.op == AUGUR_OP_ADD ? c->u.i : -c->u.i;
        return e->u.bin.a;
    }
    return e;
}

/* Whether a floating-point operation of body's packs by lanes (see op_packing). */
static bool fp_packs(const struct augur_node *body, unsigned lanes)
{
    for (uint32_t k = 0; k < body->nkids; k++) {
        const struct augur_node *n = body->kids[k];

        for (uint32_t j = 0; n->kind == AUGUR_NODE_OPS && j < n->u.ops.n; j++) {
            const struct augur_opcount *oc = &n->u.ops.v[j];
            bool fp = oc->op == AUGUR_OPK_FADD || oc->op == AUGUR_OPK_FMUL ||
                      oc->op == AUGUR_OPK_FFMA || oc->op == AUGUR_OPK_FDIV;

            if (fp && oc->lanes <= 1 && oc->count >= lanes && oc->count % lanes == 0 &&
                (!oc->carried || (oc->chains >= lanes && oc->chains % lanes == 0)))
                return true;
        }
    }
    return false;
}

/*
 * Statements a compiler packs side by side (SLP): in one straight body,
 * scalar loads (or stores) of one array at base + 0, base + 1, ... base +
 * G - 1 (acc0 += a * xr[0]; acc1 += a * xr[1]; ...), G a power of two, are
 * one vector access of as many elements as pack_bytes hold (at most G);
 * operations of a kind whose count the loads' group divides (as many
 * independent accumulators as lanes, when carried) pack with them, and
 * the loads pack only when such an operation does. Fills
 * packed[id] of each such access and returns the body's widest load
 * packing (1: none).
 */
static unsigned pack_statements(const struct augur_node *body, const bool *regs, unsigned *packed,
                                const struct augur_codegen *cg)
{
    unsigned widest = 1;

    for (uint32_t k = 0; k < body->nkids; k++) {
        const struct augur_node *n = body->kids[k];
        const struct augur_expr *base;
        int64_t off, lo, hi, o;
        unsigned count = 0, lanes, size;

        if (n->kind != AUGUR_NODE_ACCESS || n->u.access.lanes > 1 || regs[n->u.access.array] ||
            n->u.access.mode == AUGUR_ACCESS_RMW || packed[n->id] > 1)
            continue;
        base = split_offset(n->u.access.index, &off);
        lo = hi = off;
        for (uint32_t j = 0; j < body->nkids; j++) {
            const struct augur_node *m = body->kids[j];

            if (m->kind != AUGUR_NODE_ACCESS || m->u.access.lanes > 1 ||
                m->u.access.array != n->u.access.array || m->u.access.mode != n->u.access.mode ||
                m->u.access.type != n->u.access.type ||
                !augur_expr_equal(split_offset(m->u.access.index, &o), base))
                continue;
            count++;
            lo = o < lo ? o : lo;
            hi = o > hi ? o : hi;
        }
        /* distinct offsets filling base + lo .. base + hi, a power of two of them */
        if (count < 2 || hi - lo + 1 != (int64_t)count || (count & (count - 1)))
            continue;
        size = augur_type_size(n->u.access.type);
        lanes = size && cg->pack_bytes / size < count ? cg->pack_bytes / size : count;
        /* loads pack when arithmetic does (rowptr[i] and rowptr[i + 1] stay scalars) */
        if (lanes < 2 || (n->u.access.mode == AUGUR_ACCESS_READ && !fp_packs(body, lanes)))
            continue;
        for (uint32_t j = 0; j < body->nkids; j++) {
            const struct augur_node *m = body->kids[j];

            if (m->kind == AUGUR_NODE_ACCESS && m->u.access.array == n->u.access.array &&
                m->u.access.mode == n->u.access.mode && m->u.access.lanes <= 1 &&
                augur_expr_equal(split_offset(m->u.access.index, &o), base))
                packed[m->id] = lanes;
        }
        if (n->u.access.mode == AUGUR_ACCESS_READ && lanes > widest)
            widest = lanes;
    }
    return widest;
}

/* The packing of n's loop (the node directly in its body), 1 outside such a loop. */
static unsigned packing_of(const struct augur_node *n, const unsigned *packed)
{
    unsigned loop = n->parent && n->parent->kind == AUGUR_NODE_LOOP ? packed[n->parent->id] : 1;

    return loop > 1 ? loop : n->kind == AUGUR_NODE_ACCESS ? packed[n->id] : 1;
}

/* The packing of one kind of operation of an ops node: its loop's, or its body's statements'. */
static unsigned op_packing(const struct augur_node *n, const struct augur_opcount *oc,
                           const unsigned *packed, const unsigned *body_lanes)
{
    unsigned loop = packing_of(n, packed), g = n->parent ? body_lanes[n->parent->id] : 1;

    if (loop > 1)
        return loop;
    if (g > 1 && oc->count % g == 0 && (!oc->carried || (oc->chains >= g && oc->chains % g == 0)))
        return g;
    return 1;
}

/* How far back from a branch its condition's load is looked for, in nodes. */
#define COND_REACH 8

/*
 * Requests of g served by level i (1 .. nl, memory at nl): of its reads far
 * from the thread's streams where that was measured (near ones the
 * prefetcher brought), else of all of them.
 */
static double far_served(const struct augur_sim_profile *prof, const struct augur_sim_group *g,
                         unsigned i, unsigned nl)
{
    const struct augur_cache_counts *c = prof->far_measured ? &g->far[i] : &g->level[i];

    return (double)(i < nl ? c->hits : c->reads);
}

/*
 * A read of array among the COND_REACH nodes before node from: the nearest
 * one, or with prof the one whose reads went beyond L1 most often (the load
 * that brought the line: rowptr[node] brings rowptr[node + 1]'s). -1: none.
 */
static int array_read_before(const struct augur_skel *skel, const struct augur_interp *in,
                             uint32_t from, int64_t array, const struct augur_sim_profile *prof,
                             unsigned nl)
{
    uint32_t first = augur_node_kernel(skel->nodes[from])->id, id;
    double most = 0;
    int best = -1;

    for (id = from; array >= 0 && id-- > first && from - id <= COND_REACH;) {
        const struct augur_node *m = skel->nodes[id];
        double beyond = 0;
        int a;

        if (m->kind != AUGUR_NODE_ACCESS || m->u.access.mode == AUGUR_ACCESS_WRITE ||
            m->u.access.array != (uint32_t)array)
            continue;
        a = augur_interp_node_access(in, id);
        if (!prof)
            return a;
        if (a < 0 || (unsigned)a >= prof->naccesses)
            continue;
        for (unsigned i = 1; i <= nl; i++)
            beyond += far_served(prof, &prof->accesses[a], i, nl);
        if (best < 0 || beyond > most) {
            best = a;
            most = beyond;
        }
    }
    return best;
}

/*
 * The access whose load the value of e, at node n, waits for: a load in e,
 * or the one that set a local e reads (ld = level[dst]; if (ld == INF)),
 * among the COND_REACH nodes before n. -1: none.
 */
static int source_access(const struct augur_skel *skel, const struct augur_interp *in,
                         const struct augur_node *n, const struct augur_expr *e)
{
    uint32_t first = augur_node_kernel(n)->id, from = n->id, id;
    int64_t array = loaded_array(e);

    for (id = n->id; array < 0 && id-- > first && n->id - id <= COND_REACH;) {
        const struct augur_node *m = skel->nodes[id];

        if (m->kind == AUGUR_NODE_ASSIGN && augur_expr_uses_sym(e, m->u.assign.sym)) {
            array = loaded_array(m->u.assign.value);
            from = id;
            break;
        }
    }
    return array_read_before(skel, in, from, array, NULL, 0);
}

/*
 * Adds a branch's m mispredictions that wait for access a's load: shared
 * out as a's far reads were served beyond L1.
 */
static void add_far(double *dep, const struct augur_sim_profile *prof, unsigned nl, int a, double m)
{
    const struct augur_sim_group *g;

    if (a < 0 || (unsigned)a >= prof->naccesses || !(m > 0))
        return;
    g = &prof->accesses[a];
    if (!g->events)
        return;
    for (unsigned i = 1; i <= nl; i++)
        dep[i] += m * far_served(prof, g, i, nl) / (double)g->events;
}

/*
 * Adds branch n's m mispredictions to dep by the load its condition waits
 * for and, when that load's address came from a load (level[col[e]]), that
 * one too: the core finds the misprediction when both have returned.
 */
static void add_cond_waits(double *dep, const struct augur_skel *skel,
                           const struct augur_interp *in, const struct augur_node *n,
                           const struct augur_sim_profile *prof, unsigned nl, double m)
{
    int a = source_access(skel, in, n, n->u.branch.cond);

    add_far(dep, prof, nl, a, m);
    if (a >= 0) {
        const struct augur_node *ma = skel->nodes[augur_interp_access_node(in, a)];

        add_far(dep, prof, nl, source_access(skel, in, ma, ma->u.access.index), m);
    }
}

/*
 * How often a branch's condition was evaluated: its parent loop's
 * iterations, or the part of its parent branch it sits in. 0 when the
 * parent is neither (a branch at the top of a kernel or region).
 */
static double branch_evals(const struct augur_interp *in, const struct augur_node *b)
{
    const struct augur_node *p = b->parent;
    double taken, evals;
    uint32_t k;

    if (!p)
        return 0;
    if (p->kind == AUGUR_NODE_LOOP)
        return (double)augur_interp_node_count(in, p->id, -1);
    if (p->kind != AUGUR_NODE_BRANCH)
        return 0;
    for (k = 0; k < p->nkids && p->kids[k] != b; k++)
        ;
    taken = (double)augur_interp_node_count(in, p->id, -1);
    if (k < p->u.branch.nthen)
        return taken;
    evals = branch_evals(in, p);
    return evals > taken ? evals - taken : 0;
}

/*
 * The workload's load_steps: per innermost loop, its iterations times 1 + (an
 * indirect load in it), plus the loads outside loops, over all loads.
 */
static double load_steps(const struct augur_skel *skel, const struct augur_node *kernel,
                         const struct augur_interp *in)
{
    double loads = 0, steps = 0;

    for (uint32_t id = kernel->id; id < skel->nnodes; id++) {
        const struct augur_node *n = skel->nodes[id], *p;
        double cnt, iters, indirect;

        if (augur_node_kernel(n) != kernel)
            break;
        if (n->kind != AUGUR_NODE_ACCESS || n->u.access.mode == AUGUR_ACCESS_WRITE)
            continue;
        cnt = (double)augur_interp_node_count(in, n->id, -1);
        loads += cnt;
        for (p = n->parent; p && p->kind != AUGUR_NODE_LOOP; p = p->parent)
            ;
        if (!p) {
            steps += cnt;
            continue;
        }
        /* the loop's steps, counted once: at its first load */
        for (uint32_t k = p->id + 1; k < n->id; k++) {
            const struct augur_node *q = skel->nodes[k], *r;

            if (q->kind != AUGUR_NODE_ACCESS || q->u.access.mode == AUGUR_ACCESS_WRITE)
                continue;
            for (r = q->parent; r && r->kind != AUGUR_NODE_LOOP; r = r->parent)
                ;
            if (r == p)
                goto counted;
        }
        indirect = 0;
        for (uint32_t k = p->id + 1; k < skel->nnodes; k++) {
            const struct augur_node *q = skel->nodes[k], *r;

            if (augur_node_kernel(q) != kernel)
                break;
            if (q->kind != AUGUR_NODE_ACCESS || q->u.access.mode == AUGUR_ACCESS_WRITE)
                continue;
            for (r = q->parent; r && r->kind != AUGUR_NODE_LOOP; r = r->parent)
                ;
            if (r == p && q->u.access.indirect)
                indirect = 1;
        }
        iters = (double)augur_interp_node_count(in, p->id, -1);
        steps += iters * (1 + indirect);
    counted:;
    }
    return loads > 0 && steps > 0 && steps < loads ? steps / loads : 1;
}

/* Whether the subtree of n sets scalar s: an assignment, or a loop's variable. */
static bool sets_sym(const struct augur_node *n, uint32_t s)
{
    if ((n->kind == AUGUR_NODE_ASSIGN && n->u.assign.sym == s) ||
        (n->kind == AUGUR_NODE_LOOP && n->u.loop.var == (int32_t)s))
        return true;
    for (uint32_t i = 0; i < n->nkids; i++)
        if (sets_sym(n->kids[i], s))
            return true;
    return false;
}

/* Whether n's subtree stores nowhere but through access u and makes no call or region. */
static bool only_store(const struct augur_node *n, const struct augur_node *u)
{
    if (n->kind == AUGUR_NODE_CALL || n->kind == AUGUR_NODE_REGION || n->kind == AUGUR_NODE_SYNC ||
        (n->kind == AUGUR_NODE_ACCESS && n != u && n->u.access.mode != AUGUR_ACCESS_READ))
        return false;
    for (uint32_t i = 0; i < n->nkids; i++)
        if (!only_store(n->kids[i], u))
            return false;
    return true;
}

/*
 * An update the compiler keeps in a register across its loop (y[i] +=
 * a[k] * x[col[k]] in the loop over a row): scalar, not atomic, straight in
 * the body of its innermost loop, the same element in every iteration, and
 * the loop's only store, with no call. After the store memory holds the
 * register's value whatever else points there, so the next iteration need
 * not load it again: gcc keeps the sum in a register and stores it every
 * iteration. The iterations wait for the add's latency, as a local
 * accumulator's (.c) do, not for a store forwarded to the next load.
 */
static bool register_update(const struct augur_node *n)
{
    const struct augur_node *l = n->parent, *k = augur_node_kernel(n);
    const struct augur_expr *ix = n->u.access.index;

    if (n->kind != AUGUR_NODE_ACCESS || n->u.access.mode != AUGUR_ACCESS_RMW ||
        (n->u.access.flags & AUGUR_ACC_ATOMIC) || n->u.access.lanes > 1 || !l ||
        l->kind != AUGUR_NODE_LOOP || !k || !ix || augur_expr_has_opaque(ix) ||
        augur_expr_uses_array(ix, n->u.access.array))
        return false;
    for (uint32_t s = 0; s < k->u.kernel.nsyms; s++)
        if (augur_expr_uses_sym(ix, s) && sets_sym(l, s))
            return false;
    return only_store(l, n);
}

/*
 * The operation a register update's chain waits for (the ops on its line in
 * its loop's body); AUGUR_OPK_COUNT when n is no register update or no
 * floating-point one (an integer add: a cycle, no chain worth pricing).
 */
static enum augur_opkind register_chain_op(const struct augur_node *n)
{
    enum augur_opkind op = AUGUR_OPK_COUNT;

    if (n->kind != AUGUR_NODE_ACCESS || !augur_type_is_float(n->u.access.type) ||
        !register_update(n))
        return AUGUR_OPK_COUNT;
    for (uint32_t i = 0; i < n->parent->nkids; i++) {
        const struct augur_node *o = n->parent->kids[i];

        if (o->kind != AUGUR_NODE_OPS || o->loc.line != n->loc.line || o->loc.file != n->loc.file)
            continue;
        for (uint32_t j = 0; j < o->u.ops.n; j++)
            if (o->u.ops.v[j].op == AUGUR_OPK_FFMA)
                op = AUGUR_OPK_FFMA;
            else if (o->u.ops.v[j].op == AUGUR_OPK_FADD && op != AUGUR_OPK_FFMA)
                op = AUGUR_OPK_FADD;
            else if (o->u.ops.v[j].op == AUGUR_OPK_FMUL && op == AUGUR_OPK_COUNT)
                op = AUGUR_OPK_FMUL;
    }
    return op;
}

/*
 * How many independent chains a loop-carried operation of ops node n
 * forms: the times the loop that carries it was entered (the iterations of
 * the code around it); one per thread and call for a loop at the top of
 * the kernel. At most its iterations, at least one.
 */
static double chains_of(const struct augur_interp *in, const struct augur_node *n, double iters,
                        double scale)
{
    const struct augur_node *loop = n->parent;
    double runs;

    while (loop && loop->kind != AUGUR_NODE_LOOP)
        loop = loop->parent;
    if (!loop)
        return iters;
    runs = branch_evals(in, loop) * scale;
    if (!(runs > 0))
        runs = augur_interp_stats(in)->nthreads ? (double)augur_interp_stats(in)->nthreads : 1;
    return runs < iters ? runs : iters;
}

/* Adds m rare outcomes after runs of mean length run to a line's branches. */
static void add_branch(struct augur_work_line *l, double m, double run)
{
    double all = l->branch_misses + m;

    if (!(m > 0))
        return;
    l->branch_run = expm1((l->branch_misses * log1p(l->branch_run) + m * log1p(run)) / all);
    l->branch_misses = all;
}

static int cmp_line(const void *a, const void *b)
{
    const struct augur_work_line *x = a, *y = b;

    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

static double flops_of(const double *elems)
{
    return elems[AUGUR_OPK_FADD] + elems[AUGUR_OPK_FMUL] + 2 * elems[AUGUR_OPK_FFMA] +
           elems[AUGUR_OPK_FDIV] + elems[AUGUR_OPK_FSQRT] + elems[AUGUR_OPK_FMATH];
}

int augur_workload_from_profile(const struct augur_skel *skel, const struct augur_node *kernel,
                                const struct augur_interp *in, const struct augur_sim_profile *prof,
                                double calls, const struct augur_codegen *cg,
                                struct augur_workload *w, struct augur_diag *diag)
{
    struct augur_codegen defaults;

    unsigned nacc, nl;
    double scale, busiest = 0, all = 0, iters = 0, dealt = 0;
    bool *regs;
    unsigned *packed, *body_lanes;
    size_t cap;

    if (!skel || !kernel || !in || !prof || !w || !(calls > 0))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "workload: bad arguments");
    if (!cg) {
        augur_codegen_from_machine(augur_machine_cpu_defaults(), &defaults);
        cg = &defaults;
    }
    if (!cg->pack_bytes || !cg->register_elems)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "workload: no code generation");
    memset(w, 0, sizeof(*w));
    nl = prof->nlevels < AUGUR_CACHESIM_MAX_LEVELS ? prof->nlevels : AUGUR_CACHESIM_MAX_LEVELS;
    w->nlevels = nl;
    w->threads = prof->stats.nthreads ? prof->stats.nthreads : 1;
    w->calls = calls;
    scale = 1.0 / calls;
    for (unsigned i = 0; i <= nl; i++)
        snprintf(w->level_name[i], sizeof(w->level_name[i]), "%s", prof->level_name[i]);

    nacc = augur_interp_naccesses(in);
    w->branches_simulated = augur_interp_node_mispredicts(in, kernel->id) >= 0;
    cap = (size_t)nacc + skel->nnodes + 1;
    w->lines = augur_calloc(cap, sizeof(*w->lines));
    if (!w->lines)
        return augur_diag_set(diag, AUGUR_ENOMEM, NULL, 0, 0, "workload: out of memory");

    /*
     * The local arrays the compiler keeps in registers, once per array, and
     * the short loops it packs into vectors (their elements per instruction)
     */
    regs = augur_calloc(kernel->u.kernel.narrays + 1, sizeof(*regs));
    packed = augur_mallocarray(skel->nnodes + 1, sizeof(*packed));
    body_lanes = augur_mallocarray(skel->nnodes + 1, sizeof(*body_lanes));
    if (!regs || !packed || !body_lanes) {
        augur_free(regs);
        augur_free(packed);
        augur_free(body_lanes);
        return augur_diag_set(diag, AUGUR_ENOMEM, NULL, 0, 0, "workload: out of memory");
    }
    for (uint32_t a = 0; a < kernel->u.kernel.narrays; a++)
        regs[a] = in_registers(skel, kernel, a, cg);
    for (uint32_t id = 0; id < skel->nnodes; id++)
        packed[id] =
            augur_node_kernel(skel->nodes[id]) == kernel && skel->nodes[id]->kind == AUGUR_NODE_LOOP
                ? packed_lanes(skel->nodes[id], regs, cg)
                : 1;
    for (uint32_t id = 0; id < skel->nnodes; id++)
        body_lanes[id] = augur_node_kernel(skel->nodes[id]) == kernel && skel->nodes[id]->nkids
                             ? pack_statements(skel->nodes[id], regs, packed, cg)
                             : 1;

    /* one line entry per source line holding an access or an ops node */
    for (uint32_t id = kernel->id; id < skel->nnodes; id++) {
        const struct augur_node *n = skel->nodes[id];
        struct augur_work_line *l;

        if (augur_node_kernel(n) != kernel)
            break;
        if (n->kind == AUGUR_NODE_LOOP) {
            /*
             * A loop's test, through the simulated predictor (without one,
             * the second pass (augur_chain_pass_new()) models its exits).
             */
            int64_t wrong = augur_interp_node_mispredicts(in, n->id);

            if (wrong > 0) {
                double m = (double)wrong * scale;
                /* the load that brought its bound's line, which the exit waits for */
                int a = array_read_before(skel, in, n->id, loaded_array(n->u.loop.cond), prof, nl);

                if (!(l = line_of(w, &n->loc))) {
                    l = &w->lines[w->nlines++];
                    l->file = n->loc.file;
                    l->line = n->loc.line;
                    l->loop = n->id + 1;
                }
                l->guessed += m;
                add_far(l->guessed_dep, prof, nl, a, m);
            }
            continue;
        }
        if (n->kind != AUGUR_NODE_ACCESS && n->kind != AUGUR_NODE_OPS &&
            n->kind != AUGUR_NODE_BRANCH)
            continue;
        if (!(l = line_of(w, &n->loc))) {
            const struct augur_node *p = n->parent;

            while (p && p->kind != AUGUR_NODE_LOOP)
                p = p->parent;
            l = &w->lines[w->nlines++];
            l->file = n->loc.file;
            l->line = n->loc.line;
            l->loop = p ? p->id + 1 : 0;
        }
        if (n->kind == AUGUR_NODE_BRANCH) {
            double evals = branch_evals(in, n) * scale;
            double taken = (double)augur_interp_node_count(in, n->id, -1) * scale;
            int64_t wrong = augur_interp_node_mispredicts(in, n->id);

            /*
             * The jumps the simulated predictor got wrong: it learns a bias,
             * patterns and correlations with other branches from the
             * outcomes themselves. Without one (a GPU kernel), a
             * data-dependent branch taken with probability p costs
             * min(p, 1 - p) misses per evaluation (a predictor learns the
             * bias, not the data).
             */
            if (wrong >= 0) {
                double m = (double)wrong * scale;

                l->guessed += m;
                add_cond_waits(l->guessed_dep, skel, in, n, prof, nl, m);
            } else if (evals > 0 && taken <= evals) {
                double rare = taken < evals - taken ? taken : evals - taken;

                add_branch(l, rare, rare > 0 ? (evals - rare) / rare : 0);
                add_cond_waits(l->dep_misses, skel, in, n, prof, nl, rare);
            }
        } else if (n->kind == AUGUR_NODE_OPS) {
            double cnt = (double)augur_interp_node_count(in, n->id, -1) * scale;
            bool carried = false;

            for (uint32_t j = 0; j < n->u.ops.n; j++) {
                const struct augur_opcount *oc = &n->u.ops.v[j];

                l->instr[oc->op] += cnt * (double)oc->count / op_packing(n, oc, packed, body_lanes);
                l->elems[oc->op] += cnt * (double)oc->count * oc->lanes;
                if (oc->carried) {
                    /* independent accumulators overlap: an iteration waits for one's ops */
                    l->carried[oc->op] +=
                        cnt * (double)oc->count / (oc->chains > 1 ? oc->chains : 1);
                    carried = true;
                }
            }
            if (carried && cnt > 0) {
                l->carried_iters += cnt;
                l->carried_runs += chains_of(in, n, cnt, scale);
            }
        } else if (register_chain_op(n) != AUGUR_OPK_COUNT) {
            double cnt = (double)augur_interp_node_count(in, n->id, -1) * scale;
            enum augur_opkind op = register_chain_op(n);

            if (cnt > 0) {
                l->carried[op] += cnt;
                l->carried_iters += cnt;
                l->carried_runs += chains_of(in, n, cnt, scale);
            }
        }
    }
    for (unsigned a = 0; a < nacc && a < prof->naccesses; a++) {
        const struct augur_node *n = skel->nodes[augur_interp_access_node(in, a)];
        const struct augur_sim_group *g = &prof->accesses[a];
        struct augur_work_line *l = line_of(w, &n->loc);

        if (l && !regs[n->u.access.array])
            add_access(l, n, g, nl, scale, prof->far_measured, packing_of(n, packed));
        if (n->u.access.indirect)
            for (unsigned i = 0; i < nl; i++) {
                w->irr_requests[i] += (double)g->level[i].accesses * scale;
                w->irr_hits[i] += (double)g->level[i].hits * scale;
            }
    }
    augur_free(regs);
    augur_free(packed);
    augur_free(body_lanes);
    qsort(w->lines, w->nlines, sizeof(*w->lines), cmp_line);
    w->load_steps = load_steps(skel, kernel, in);
    if (prof->epochs_measured)
        for (unsigned i = 1; i <= nl; i++)
            for (unsigned k = 0; k < AUGUR_WORK_NWINDOWS; k++)
                if (prof->miss_epochs[i][k])
                    w->overlap[i][k] =
                        (double)prof->miss_reads[i] / (double)prof->miss_epochs[i][k];

    /* the whole kernel: the sum of its lines */
    for (size_t i = 0; i < w->nlines; i++) {
        const struct augur_work_line *l = &w->lines[i];
        struct augur_work_line *t = &w->total;

        t->accesses += l->accesses;
        t->loads += l->loads;
        t->stores += l->stores;
        t->bytes += l->bytes;
        t->irregular += l->irregular;
        t->irregular_bytes += l->irregular_bytes;
        t->row_misses += l->row_misses;
        t->atomics += l->atomics;
        add_branch(t, l->branch_misses, l->branch_run);
        t->guessed += l->guessed;
        for (unsigned j = 1; j <= nl; j++) {
            t->dep_misses[j] += l->dep_misses[j];
            t->guessed_dep[j] += l->guessed_dep[j];
        }
        for (unsigned j = 0; j <= nl; j++) {
            t->served[j] += l->served[j];
            t->irr_served[j] += l->irr_served[j];
            t->atomic_served[j] += l->atomic_served[j];
            t->transfers[j] += l->transfers[j];
            t->fill_bytes[j] += l->fill_bytes[j];
            t->writeback_bytes[j] += l->writeback_bytes[j];
        }
        t->carried_iters += l->carried_iters;
        t->carried_runs += l->carried_runs;
        for (int k = 0; k < AUGUR_OPK_COUNT; k++) {
            t->carried[k] += l->carried[k];
            t->instr[k] += l->instr[k];
            t->elems[k] += l->elems[k];
        }
    }
    /* write-backs of the final flush belong to no access: take the level totals */
    for (unsigned j = 0; j <= nl; j++)
        w->total.writeback_bytes[j] = (double)prof->level[j].writeback_bytes * scale;
    w->flops = flops_of(w->total.elems);

    for (unsigned a = 0; a < augur_interp_narrays(in); a++) {
        struct augur_interp_array ia;

        augur_interp_array(in, a, &ia);
        if (a < prof->narrays && prof->arrays[a].events)
            w->footprint_bytes += (double)ia.extent * ia.elem_size;
    }
    for (unsigned t = 0; t < w->threads; t++) {
        double e = (double)prof->thread[t].events;

        all += e;
        if (e > busiest)
            busiest = e;
    }
    /*
     * A team waits at every barrier for its busiest thread: the critical
     * path is the serial events plus each phase's busiest thread's, at least
     * the busiest thread's total (when the phases' stragglers differ, more).
     */
    if (all > 0 && prof->stats.parallel_events > 0 && (double)prof->stats.parallel_events <= all) {
        double path =
            all - (double)prof->stats.parallel_events + (double)prof->stats.critical_events;

        if (path > busiest)
            busiest = path;
    }
    w->busiest_share = all > 0 ? busiest / all : 1.0;
    w->parallel = (double)prof->stats.parallel * scale;
    for (unsigned t = 0; t < w->threads; t++) {
        iters += (double)prof->thread[t].iterations;
        dealt += (double)prof->thread[t].dealt;
        if ((double)prof->thread[t].chunks * scale > w->chunks)
            w->chunks = (double)prof->thread[t].chunks * scale;
        if ((double)prof->thread[t].alloc_bytes * scale > w->alloc_bytes) {
            w->alloc_bytes = (double)prof->thread[t].alloc_bytes * scale;
            w->alloc_blocks = (double)prof->thread[t].alloc_blocks * scale;
        }
    }
    w->dealt_share = iters > 0 ? dealt / iters : 0;
    /*
     * SIMD utilization of tiled-and-grouped code comes from its grouping
     * (Zhu et al. PACT'19 section IV); a plain run counts full vectors.
     */
    w->simd_util = 1.0;
    return 0;
}

/*
 * The second pass over the data: update chains (per thread and access, the
 * element its last store wrote) and loop exits (per thread and loop, the trip
 * count of its last instance: an exit the predictor expects after as many
 * iterations as last time is mispredicted when the count changes).
 */
#define MAX_LOOPS 64

/*
 * An update (y[u] += ...) waits for the store of an earlier one to the same
 * element, whichever access made it (an edge list's y[u] -= f after an
 * earlier edge's y[v] += f), when that store is at most CHAIN_REACH memory
 * accesses back on the thread (a window of a few hundred instructions; the
 * predictor decides which of them still wait, by their distance). The
 * latest stores are kept by a hash of their address, CHAIN_SLOTS a thread.
 */
#define CHAIN_REACH (UINT64_C(1) << AUGUR_CHAIN_BUCKETS)
#define CHAIN_SLOTS 16384

struct chain_slot {
    uint64_t addr;   /* the element's address + 1 (0: empty) */
    uint64_t pos;    /* the thread's accesses before its store */
    uint32_t run;    /* links of the element's chain so far */
    uint32_t access; /* the access that stored it */
};

/* The slot of an element's address (Fibonacci hashing of its 8-byte word). */
static size_t chain_hash(uint64_t addr)
{
    return (size_t)((addr >> 3) * UINT64_C(0x9E3779B97F4A7C15) >> 50) & (CHAIN_SLOTS - 1);
}

struct pass2 {
    const struct augur_interp *in;
    unsigned naccesses, nthreads, nloops;
    struct chain_slot *recent;  /* nthreads x CHAIN_SLOTS: the latest updates' stores */
    uint64_t *pos;              /* per thread: its memory accesses so far */
    uint32_t *pending;          /* per thread: the chain length its update in progress reaches */
    uint64_t *count;            /* chained updates per access */
    double *dist;               /* per access, AUGUR_CHAIN_BUCKETS: its links by distance */
    double *weighted;           /* per access: over the chains it ended, links x (links + 1) */
    double *lens;               /* per access, AUGUR_CHAIN_LENS: links of the chains it ended */
    uint8_t *is_rmw;            /* per access */
    uint64_t *inside;           /* per access: mask of the loops that hold it */
    int *witness;               /* per access: the loop it counts the iterations of, or -1 */
    uint64_t *trip, *prev;      /* nthreads x nloops: this instance's and the last one's trips */
    uint64_t *exits;            /* mispredicted exits per loop */
    double *trips, *trips_sq;   /* per loop: over its instances, trips and trips squared */
    double *by_len, *by_len_sq; /* per loop, AUGUR_CARRIED_LENS: the same by trips' bucket */
    const struct augur_node *loop[MAX_LOOPS];
};

/* A loop instance of trip iterations ends on a thread that last ran one of *prev. */
static void end_instance(struct pass2 *c, unsigned l, uint64_t *trip, uint64_t *prev)
{
    if (prev[l] && trip[l] != prev[l])
        c->exits[l]++;
    c->trips[l] += (double)trip[l];
    c->trips_sq[l] += (double)trip[l] * (double)trip[l];
    if (trip[l]) {
        unsigned b = 0;

        while (b + 1 < AUGUR_CARRIED_LENS && trip[l] >> (b + 1))
            b++;
        c->by_len[(size_t)l * AUGUR_CARRIED_LENS + b] += (double)trip[l];
        c->by_len_sq[(size_t)l * AUGUR_CARRIED_LENS + b] += (double)trip[l] * (double)trip[l];
    }
    prev[l] = trip[l];
    trip[l] = 0;
}

/*
 * Adds chained updates whose chains' weighted length is len, by distance
 * and by the share of their array's links in chains of each length, to a line.
 */
static void add_chains(struct augur_work_line *l, double chained, double len, const double *dist,
                       const double *lens, double scale)
{
    double all = 0;

    for (unsigned b = 0; b < AUGUR_CHAIN_BUCKETS; b++)
        l->chain_dist[b] += dist[b] * scale;
    for (unsigned b = 0; b < AUGUR_CHAIN_LENS; b++)
        all += lens[b];
    for (unsigned b = 0; all > 0 && b < AUGUR_CHAIN_LENS; b++)
        l->chain_lens[b] += chained * lens[b] / all;
    l->chain_len = (l->chain_len * l->chained + len * chained) / (l->chained + chained);
    l->chained += chained;
}

/* A chain of an element's updates ends: it weighs by its links, for the access that stored last. */
static void end_chain(struct pass2 *c, struct chain_slot *s)
{
    double links = (double)s->run;

    c->weighted[s->access] += links * (links + 1);
    c->lens[(size_t)s->access * AUGUR_CHAIN_LENS + augur_chain_bucket(s->run, AUGUR_CHAIN_LENS)] +=
        links;
    s->run = 0;
}

/* The node whose body holds n every time it runs: its parent, above any regions. */
static const struct augur_node *body_of(const struct augur_node *n)
{
    const struct augur_node *p = n->parent;

    while (p && p->kind == AUGUR_NODE_REGION && p->parent)
        p = p->parent;
    return p;
}

static void on_pass2_events(void *ud, const struct augur_event *ev, size_t n)
{
    struct pass2 *c = ud;

    for (size_t i = 0; i < n; i++) {
        int a = augur_interp_node_access(c->in, ev[i].node);
        struct chain_slot *sl;
        uint64_t pos;
        unsigned t;

        if (a < 0 || ev[i].thread >= c->nthreads)
            continue;
        if (c->nloops) {
            uint64_t *trip = c->trip + (size_t)ev[i].thread * c->nloops;
            uint64_t *prev = c->prev + (size_t)ev[i].thread * c->nloops;
            uint64_t outside = ~c->inside[a];

            /* an access outside a loop ends the instance that was running */
            for (unsigned l = 0; l < c->nloops; l++)
                if (((outside >> l) & 1) && trip[l])
                    end_instance(c, l, trip, prev);
            if (c->witness[a] >= 0 && !(ev[i].flags & AUGUR_EV_WRITE && c->is_rmw[a]))
                trip[c->witness[a]]++;
        }
        t = ev[i].thread;
        pos = c->pos[t]++;
        if (!c->is_rmw[a])
            continue;
        sl = &c->recent[(size_t)t * CHAIN_SLOTS + chain_hash(ev[i].addr)];
        if (ev[i].flags & AUGUR_EV_WRITE) {
            /* the update's store: its element's chain goes on from here */
            if (sl->addr != ev[i].addr + 1 && sl->run)
                end_chain(c, sl);
            sl->addr = ev[i].addr + 1;
            sl->pos = pos;
            sl->run = c->pending[t];
            sl->access = (unsigned)a;
        } else if (sl->addr == ev[i].addr + 1 && pos - sl->pos <= CHAIN_REACH) {
            /* an update whose element a recent one stored, whichever access did: it waits */
            c->count[a]++;
            c->dist[(size_t)a * AUGUR_CHAIN_BUCKETS +
                    augur_chain_bucket(pos - sl->pos, AUGUR_CHAIN_BUCKETS)]++;
            c->pending[t] = sl->run + 1;
        } else {
            if (sl->addr == ev[i].addr + 1 && sl->run)
                end_chain(c, sl);
            c->pending[t] = 0;
        }
    }
}

/*
 * Whether e may vary with the data: it reads an array, or a local of the
 * slice other than the loop's own variable (end = rowptr[i + 1]).
 */
static bool reads_data(const struct augur_node *k, const struct augur_expr *e, int32_t var)
{
    if (!e)
        return false;
    switch (e->kind) {
    case AUGUR_EXPR_LOAD:
        return true;
    case AUGUR_EXPR_SYM:
        return (int32_t)e->u.sym != var && e->u.sym < k->u.kernel.nsyms &&
               k->u.kernel.syms[e->u.sym].kind == AUGUR_SYM_LOCAL;
    case AUGUR_EXPR_UNARY:
        return reads_data(k, e->u.un.a, var);
    case AUGUR_EXPR_BINARY:
        return reads_data(k, e->u.bin.a, var) || reads_data(k, e->u.bin.b, var);
    case AUGUR_EXPR_SELECT:
        return reads_data(k, e->u.sel.cond, var) || reads_data(k, e->u.sel.a, var) ||
               reads_data(k, e->u.sel.b, var);
    case AUGUR_EXPR_CAST:
        return reads_data(k, e->u.cast.a, var);
    default:
        return false;
    }
}

/* The second pass over the data, set up: its own interpreter, subscribed. */
struct augur_chain_pass {
    struct pass2 c;
    struct augur_interp *in;
    const struct augur_skel *skel;
    const struct augur_node *kernel;
    bool rounds, ran;
};

void augur_chain_pass_free(struct augur_chain_pass *cp)
{
    struct pass2 *c;

    if (!cp)
        return;
    c = &cp->c;
    augur_free(c->recent);
    augur_free(c->pos);
    augur_free(c->pending);
    augur_free(c->dist);
    augur_free(c->lens);
    augur_free(c->count);
    augur_free(c->weighted);
    augur_free(c->is_rmw);
    augur_free(c->inside);
    augur_free(c->witness);
    augur_free(c->trip);
    augur_free(c->prev);
    augur_free(c->exits);
    augur_free(c->trips);
    augur_free(c->trips_sq);
    augur_free(c->by_len);
    augur_free(c->by_len_sq);
    augur_interp_free(cp->in);
    augur_free(cp);
}

int augur_chain_pass_new(const struct augur_skel *skel, const struct augur_node *kernel,
                         struct augur_bound *data, const struct augur_interp_opts *opts,
                         bool rounds, struct augur_chain_pass **out, struct augur_diag *diag)
{
    struct augur_chain_pass *cp;
    struct augur_interp *in = NULL;
    struct augur_interp_opts o;
    struct pass2 *c;
    int rc;

    *out = NULL;
    o = *opts;
    o.predictor.ntables = 0; /* this pass needs the data's values, not the branches' */
    o.on_warn = NULL;        /* the simulated run warns of the same */
    o.on_progress = NULL;
    if ((rc = augur_interp_new_bound(skel, kernel, data, &o, &in, diag)) < 0)
        return rc;
    cp = augur_calloc(1, sizeof(*cp));
    cp->in = in;
    cp->skel = skel;
    cp->kernel = kernel;
    cp->rounds = rounds;
    c = &cp->c;
    c->in = in;
    c->naccesses = augur_interp_naccesses(in);
    c->nthreads = opts && opts->nthreads ? opts->nthreads : 1;
    /* loops whose bounds the data decides (not parallel ones: each thread's share is fixed) */
    for (uint32_t id = kernel->id; id < skel->nnodes && c->nloops < MAX_LOOPS; id++) {
        const struct augur_node *n = skel->nodes[id];

        if (augur_node_kernel(n) != kernel)
            break;
        if (n->kind == AUGUR_NODE_LOOP && !n->u.loop.parallel &&
            (reads_data(kernel, n->u.loop.cond, n->u.loop.var) ||
             reads_data(kernel, n->u.loop.init, n->u.loop.var)))
            c->loop[c->nloops++] = n;
    }
    c->recent = augur_calloc((size_t)c->nthreads * CHAIN_SLOTS, sizeof(*c->recent));
    c->pos = augur_calloc(c->nthreads, sizeof(*c->pos));
    c->pending = augur_calloc(c->nthreads, sizeof(*c->pending));
    c->count = augur_calloc(c->naccesses + 1, sizeof(*c->count));
    c->dist = augur_calloc((size_t)(c->naccesses + 1) * AUGUR_CHAIN_BUCKETS, sizeof(*c->dist));
    c->lens = augur_calloc((size_t)(c->naccesses + 1) * AUGUR_CHAIN_LENS, sizeof(*c->lens));
    c->weighted = augur_calloc(c->naccesses + 1, sizeof(*c->weighted));
    c->is_rmw = augur_calloc(c->naccesses + 1, 1);
    c->inside = augur_calloc(c->naccesses + 1, sizeof(*c->inside));
    c->witness = augur_mallocarray(c->naccesses + 1, sizeof(*c->witness));
    c->trip = augur_calloc((size_t)c->nthreads * (c->nloops + 1), sizeof(*c->trip));
    c->prev = augur_calloc((size_t)c->nthreads * (c->nloops + 1), sizeof(*c->prev));
    c->exits = augur_calloc(c->nloops + 1, sizeof(*c->exits));
    c->trips = augur_calloc(c->nloops + 1, sizeof(*c->trips));
    c->trips_sq = augur_calloc(c->nloops + 1, sizeof(*c->trips_sq));
    c->by_len = augur_calloc((size_t)(c->nloops + 1) * AUGUR_CARRIED_LENS, sizeof(*c->by_len));
    c->by_len_sq =
        augur_calloc((size_t)(c->nloops + 1) * AUGUR_CARRIED_LENS, sizeof(*c->by_len_sq));
    if (!c->recent || !c->pos || !c->pending || !c->count || !c->dist || !c->lens || !c->weighted ||
        !c->is_rmw || !c->inside || !c->witness || !c->trip || !c->prev || !c->exits || !c->trips ||
        !c->trips_sq || !c->by_len || !c->by_len_sq) {
        augur_chain_pass_free(cp);
        return augur_diag_set(diag, AUGUR_ENOMEM, NULL, 0, 0, "workload: out of memory");
    }
    for (unsigned a = 0; a < c->naccesses; a++) {
        const struct augur_node *n = skel->nodes[augur_interp_access_node(in, a)];

        /* an update kept in a register chains through the add, not through memory */
        c->is_rmw[a] = n->u.access.mode == AUGUR_ACCESS_RMW && !register_update(n);
        c->witness[a] = -1;
        for (unsigned l = 0; l < c->nloops; l++) {
            for (const struct augur_node *p = n->parent; p; p = p->parent)
                if (p == c->loop[l]) {
                    c->inside[a] |= UINT64_C(1) << l;
                    break;
                }
            /* a scalar access directly in the loop's body counts its iterations (through
               an atomic or critical region, which runs every iteration too) */
            if (body_of(n) == c->loop[l] && n->u.access.lanes <= 1 && c->witness[a] < 0) {
                bool taken = false;

                for (unsigned b = 0; b < a; b++)
                    taken |= c->witness[b] == (int)l;
                if (!taken)
                    c->witness[a] = (int)l;
            }
        }
    }
    if ((rc = augur_interp_subscribe(in, on_pass2_events, c)) < 0) {
        augur_chain_pass_free(cp);
        return rc;
    }
    *out = cp;
    return 0;
}

int augur_chain_pass_run(struct augur_chain_pass *cp, struct augur_diag *diag)
{
    uint32_t nr;
    int rc =
        cp->rounds ? augur_interp_run_rounds(cp->in, 0, &nr, diag) : augur_interp_run(cp->in, diag);

    cp->ran = rc >= 0;
    return rc < 0 ? rc : 0;
}

int augur_chain_pass_finish(struct augur_chain_pass *cp, double scale,
                            const struct augur_sim_profile *prof, struct augur_workload *w,
                            struct augur_diag *diag)
{
    const struct augur_skel *skel = cp->skel;
    const struct augur_node *kernel = cp->kernel;
    const struct augur_interp *in = cp->in;
    struct pass2 *c = &cp->c;
    unsigned nl = 0;
    int rc = 0;

    if (!cp->ran)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "workload: the second pass has not run");
    for (size_t k = 0; k < (size_t)c->nthreads * CHAIN_SLOTS; k++)
        if (c->recent[k].run)
            end_chain(c, &c->recent[k]);
    /* the instances still running at the end (they count no exit: none was predicted) */
    for (unsigned t = 0; t < c->nthreads; t++)
        for (unsigned l = 0; l < c->nloops; l++) {
            uint64_t *trip = c->trip + (size_t)t * c->nloops,
                     *prev = c->prev + (size_t)t * c->nloops;

            if (trip[l]) {
                prev[l] = 0;
                end_instance(c, l, trip, prev);
            }
        }
    /* a carried chain's line learns its loop's trips weighted by themselves */
    for (uint32_t id = kernel->id; id < skel->nnodes; id++) {
        const struct augur_node *n = skel->nodes[id], *p = n->parent;
        struct augur_work_line *l;
        bool carried = false;

        if (augur_node_kernel(n) != kernel)
            break;
        if ((n->kind != AUGUR_NODE_OPS && n->kind != AUGUR_NODE_ACCESS) ||
            !(l = line_of(w, &n->loc)))
            continue;
        for (uint32_t j = 0; n->kind == AUGUR_NODE_OPS && j < n->u.ops.n; j++)
            carried |= n->u.ops.v[j].carried;
        carried |= register_chain_op(n) != AUGUR_OPK_COUNT;
        while (p && p->kind != AUGUR_NODE_LOOP)
            p = p->parent;
        for (unsigned k = 0; carried && p && k < c->nloops; k++)
            if (c->loop[k] == p && c->trips[k] > 0) {
                const double *it = &c->by_len[(size_t)k * AUGUR_CARRIED_LENS];
                const double *sq = &c->by_len_sq[(size_t)k * AUGUR_CARRIED_LENS];

                l->carried_len = c->trips_sq[k] / c->trips[k];
                for (unsigned b = 0; b < AUGUR_CARRIED_LENS; b++) {
                    l->carried_lens[b] = it[b] * scale;
                    l->carried_lens_len[b] = it[b] > 0 ? sq[b] / it[b] : 0;
                }
            }
    }
    for (unsigned a = 0; a < c->naccesses; a++) {
        const struct augur_node *n = skel->nodes[augur_interp_access_node(in, a)];
        struct augur_work_line *l = line_of(w, &n->loc);
        double weighted = 0, count = 0, len, lens[AUGUR_CHAIN_LENS] = { 0 };

        if (!c->count[a])
            continue;
        /* a chain runs through every access that updates its element: the array's lengths */
        for (unsigned b = 0; b < c->naccesses; b++) {
            const struct augur_node *m = skel->nodes[augur_interp_access_node(in, b)];

            if (m->u.access.array != n->u.access.array)
                continue;
            weighted += c->weighted[b];
            count += (double)c->count[b];
            for (unsigned k = 0; k < AUGUR_CHAIN_LENS; k++)
                lens[k] += c->lens[(size_t)b * AUGUR_CHAIN_LENS + k];
        }
        len = weighted / count;
        if (l)
            add_chains(l, (double)c->count[a] * scale, len,
                       &c->dist[(size_t)a * AUGUR_CHAIN_BUCKETS], lens, scale);
        add_chains(&w->total, (double)c->count[a] * scale, len,
                   &c->dist[(size_t)a * AUGUR_CHAIN_BUCKETS], lens, scale);
    }
    if (prof)
        nl = prof->nlevels < AUGUR_CACHESIM_MAX_LEVELS ? prof->nlevels : AUGUR_CACHESIM_MAX_LEVELS;
    /* loop exits, where no simulated predictor counted them */
    for (unsigned k = 0; k < c->nloops && !w->branches_simulated; k++) {
        struct augur_work_line *l = line_of(w, &c->loop[k]->loc);
        double exits = (double)c->exits[k] * scale;
        /* the load that brought its bound's line, which the exit's condition waits for */
        int a = prof ? array_read_before(skel, in, c->loop[k]->id,
                                         loaded_array(c->loop[k]->u.loop.cond), prof, nl)
                     : -1;

        if (!c->exits[k])
            continue;
        if (!l && w->nlines) /* a loop line without accesses or ops: its first body line */
            l = &w->lines[0];
        /*
         * No run: an exit follows its loop's own back edges, not random
         * outcomes, and the capacity curve alone says how many of them a
         * replay learns (priced as random runs of the mean trip count, the
         * rows' exits of SpMV cost 27 % more time than measured). A
         * mispredicted exit is found when its bound's load returns: where
         * that load went far (a BFS's frontier node numbered anywhere),
         * the exit waits for it as a branch waits for its condition's load.
         */
        if (l) {
            add_branch(l, exits, 0);
            add_far(l->dep_misses, prof, nl, a, exits);
        }
        add_branch(&w->total, exits, 0);
        add_far(w->total.dep_misses, prof, nl, a, exits);
    }
    return rc;
}

/* Feeds a round's events to the cache simulator (CUDA shared memory is not cached). */
struct round_sink {
    struct augur_cachesim *sim;
    uint64_t events;
};

static void on_round_events(void *ud, const struct augur_event *ev, size_t n)
{
    struct round_sink *rs = ud;

    for (size_t i = 0; i < n; i++) {
        if (ev[i].flags & AUGUR_EV_LOCAL)
            continue;
        augur_cachesim_access(rs->sim, ev[i].thread, ev[i].addr, ev[i].size,
                              (ev[i].flags & AUGUR_EV_WRITE) != 0, 0);
        rs->events++;
    }
}

int augur_workload_add_rounds(const struct augur_skel *skel, const struct augur_node *kernel,
                              struct augur_bound *data, const struct augur_cache_config *cfg,
                              const struct augur_interp_opts *opts, uint32_t nrounds,
                              struct augur_workload *w, struct augur_diag *diag)
{
    struct augur_interp *in = NULL;
    struct round_sink rs = { NULL, 0 };
    const char *round = NULL;
    unsigned nthreads = opts && opts->nthreads ? opts->nthreads : 1, nl;
    double before[AUGUR_WORK_MAX_LEVELS] = { 0 };
    int rc;

    for (uint32_t i = 0; i < kernel->u.kernel.nsyms; i++)
        if (augur_bind_uses_round(kernel->u.kernel.syms[i].bind))
            round = kernel->u.kernel.syms[i].name;
    if (!round || nrounds == 0)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "rounds: kernel %s has no parameter bound to round",
                              kernel->u.kernel.name);
    augur_free(w->rounds);
    w->nrounds = 0;
    w->rounds = augur_calloc(nrounds, sizeof(*w->rounds));
    if (!w->rounds)
        return augur_diag_set(diag, AUGUR_ENOMEM, NULL, 0, 0, "rounds: out of memory");
    if ((rc = augur_cachesim_new(cfg, nthreads, 1, &rs.sim, diag)) < 0)
        return rc;
    nl = augur_cachesim_nlevels(rs.sim);
    if (nl > AUGUR_CACHESIM_MAX_LEVELS)
        nl = AUGUR_CACHESIM_MAX_LEVELS;
    if ((rc = augur_interp_new_bound(skel, kernel, data, opts, &in, diag)) < 0 ||
        (rc = augur_interp_subscribe(in, on_round_events, &rs)) < 0)
        goto out;
    for (uint32_t r = 1; r <= nrounds; r++) {
        struct augur_work_round *wr = &w->rounds[r - 1];
        uint64_t ev0 = rs.events;

        if ((rc = augur_interp_set_round(in, r, diag)) < 0 || (rc = augur_interp_run(in, diag)) < 0)
            goto out;
        wr->accesses = (double)(rs.events - ev0);
        /* the counts so far, less those before the round */
        for (unsigned l = 0; l <= nl; l++) {
            struct augur_cache_counts c;
            double served;

            augur_cachesim_counts(rs.sim, l, -1, &c);
            served = l < nl ? (double)c.hits : (double)c.accesses;
            wr->served[l] = served - before[l];
            before[l] = served;
        }
        w->nrounds = r;
    }
out:
    augur_interp_free(in);
    augur_cachesim_free(rs.sim);
    return rc;
}
