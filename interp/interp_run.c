/*
 * interp_run.c - the skeleton interpreter's virtual machine and
 * scheduler: thread contexts, OpenMP teams, worksharing schedules,
 * barriers, CUDA blocks and warps, the event buffer, run statistics
 * (module: interp).
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "interp_int.h"

enum { ST_YIELD = 1, ST_BLOCK, ST_DONE, ST_FORK, ST_ERR };

#define NO_REG           0xffffu
#define DEFAULT_QUANTUM  16u
#define SHARED_MEM_BYTES (48u * 1024u) /* a __shared__ array of unknown size */

/* ---- OpenMP schedules ------------------------------------------------------------------------ */

bool augur_omp_next_chunk(struct augur_omp_loop *L, unsigned t, uint64_t *ts, uint64_t *lo,
                          uint64_t *hi)
{
    uint64_t n = L->niter, T = L->nthreads ? L->nthreads : 1, ch = L->chunk;

    switch (L->sched) {
    case AUGUR_SCHED_DYNAMIC:
    case AUGUR_SCHED_RUNTIME: /* libgomp's default run-sched-var: dynamic, 1 */
        if (ch == 0)
            ch = 1;
        if (L->next >= n)
            return false;
        *lo = L->next;
        *hi = n - *lo > ch ? *lo + ch : n;
        L->next = *hi;
        return true;
    case AUGUR_SCHED_GUIDED: {
        uint64_t rem, q;

        if (ch == 0)
            ch = 1;
        if (L->next >= n)
            return false;
        rem = n - L->next;
        q = rem / T + (rem % T != 0);
        if (q < ch)
            q = ch;
        if (q > rem)
            q = rem;
        *lo = L->next;
        *hi = *lo + q;
        L->next = *hi;
        return true;
    }
    default:
        if (t >= T)
            return false;
        if (ch == 0) {
            uint64_t q = n / T, r = n % T;

            if (*ts)
                return false;
            *ts = 1;
            *lo = t * q + (t < r ? t : r);
            *hi = *lo + q + (t < r);
            return *hi > *lo;
        } else {
            uint64_t k = *ts * T + t;

            if (k > (n - 1) / ch || n == 0)
                return false;
            *lo = k * ch;
            *hi = n - *lo > ch ? *lo + ch : n;
            (*ts)++;
            return true;
        }
    }
}

/* ---- events ---------------------------------------------------------------------------------- */

int interp_flush(struct augur_interp *in)
{
    if (in->nev == 0)
        return 0;
    for (unsigned i = 0; i < in->nsubs; i++)
        in->subs[i].fn(in->subs[i].ud, in->evbuf, in->nev);
    if (in->opts.on_progress)
        in->opts.on_progress(in->opts.ud, in->nev);
    in->stats.events += in->nev;
    in->nev = 0;
    return 0;
}

/* ---- messages -------------------------------------------------------------------------------- */

/* Describes node id for a message ("load x[col[j]]", "the loop header"). */
static void describe(const struct augur_interp *in, uint32_t node, struct augur_buf *buf)
{
    const struct augur_node *n = node < in->skel->nnodes ? in->skel->nodes[node] : NULL;
    const struct augur_kernel_info *k = &in->kernel->u.kernel;

    if (!n) {
        augur_buf_puts(buf, "the kernel");
        return;
    }
    switch (n->kind) {
    case AUGUR_NODE_ACCESS:
        augur_buf_printf(buf, "%s %s[",
                         n->u.access.mode == AUGUR_ACCESS_READ    ? "load"
                         : n->u.access.mode == AUGUR_ACCESS_WRITE ? "store"
                                                                  : "update",
                         k->arrays[n->u.access.array].name);
        augur_expr_format(in->kernel, n->u.access.index, buf);
        augur_buf_putc(buf, ']');
        break;
    case AUGUR_NODE_LOOP:
        augur_buf_puts(buf, "the loop header");
        break;
    case AUGUR_NODE_BRANCH:
        augur_buf_puts(buf, "the condition of an if");
        break;
    case AUGUR_NODE_ASSIGN:
        augur_buf_printf(buf, "set %s = ", k->syms[n->u.assign.sym].name);
        augur_expr_format(in->kernel, n->u.assign.value, buf);
        break;
    default:
        augur_buf_puts(buf, augur_node_kind_name(n->kind));
        break;
    }
}

static void instantiate(struct augur_interp *in, struct ctx *c, unsigned a, uint32_t node);

/* An index beyond an array's extent: a private array made now, or an error. */
static int index_slow(struct augur_interp *in, struct ctx *c, unsigned a, uint64_t idx,
                      uint32_t node)
{
    struct rt_arr *A = &c->arr[a];
    const struct augur_array *arr = &in->kernel->u.kernel.arrays[a];
    const struct arr_info *I = &in->ainfo[a];
    struct augur_buf what;
    int rc;

    if (I->kind != ARR_GLOBAL && A->owner == 0) {
        instantiate(in, c, a, node);
        if (in->err)
            return in->err;
        if (idx < A->extent)
            return 0;
    }
    augur_buf_init(&what);
    describe(in, node, &what);
    if ((int64_t)idx < 0)
        rc = interp_fail(in, node, "index %" PRId64 " of '%s' is negative in %s", (int64_t)idx,
                         arr->name, what.s);
    else
        rc = interp_fail(
            in, node, "index %" PRIu64 " is out of range for '%s' (%" PRIu64 " elements%s%s) in %s",
            idx, arr->name, A->extent, I->target ? ", bound to " : "", I->target ? I->target : "",
            what.s);
    augur_buf_release(&what);
    return rc;
}

/* Makes context c's instance of a private or shared array. */
static void instantiate(struct augur_interp *in, struct ctx *c, unsigned a, uint32_t node)
{
    const struct augur_array *arr = &in->kernel->u.kernel.arrays[a];
    const struct arr_info *I = &in->ainfo[a];
    struct rt_arr *A = &c->arr[a];
    uint64_t extent;

    if (arr->extent) {
        union augur_value v;

        if (interp_eval(in, arr->extent, c->r, c->arr, node, &v))
            return;
        v = interp_convert(v, arr->extent->type, AUGUR_T_I64);
        if (v.i < 0 || (uint64_t)v.i > INTERP_MAX_HELD / I->esize) {
            interp_fail(in, node, "local array '%s' would have %" PRId64 " elements", arr->name,
                        v.i);
            return;
        }
        extent = (uint64_t)v.i;
    } else if (I->kind == ARR_SHARED) {
        extent = SHARED_MEM_BYTES / I->esize;
    } else {
        interp_fail(in, node,
                    "local array '%s' has no known size (give its extent in the skeleton)",
                    arr->name);
        return;
    }
    if (in->ninst == in->capinst) {
        in->capinst = in->capinst ? 2 * in->capinst : 16;
        in->inst = augur_reallocarray(in->inst, in->capinst, sizeof(*in->inst));
    }
    A->data = I->needs_data ? augur_calloc(extent ? extent : 1, I->esize) : NULL;
    in->inst[in->ninst++] = A->data;
    A->extent = extent;
    A->esize = I->esize;
    A->base = interp_place(in, extent * I->esize);
    A->owner = c->simthread + 1;
    if (I->kind == ARR_PRIVATE) {
        in->work[c->simthread].alloc_bytes += extent * I->esize;
        in->work[c->simthread].alloc_blocks++;
    }
}

/* ---- teams ------------------------------------------------------------------------------------
 */

static void set_builtin(struct augur_interp *in, struct ctx *c, int32_t sym, int64_t v)
{
    if (sym >= 0)
        c->r[sym].i = v;
    (void)in;
}

static struct ws_shared *ws_get(struct augur_interp *in, uint64_t seq)
{
    struct ws_shared *S;

    for (unsigned i = 0; i < in->nwsh; i++)
        if (in->wsh[i].seq == seq)
            return &in->wsh[i];
    if (in->nwsh == in->capwsh) {
        in->capwsh = in->capwsh ? 2 * in->capwsh : 8;
        in->wsh = augur_reallocarray(in->wsh, in->capwsh, sizeof(*in->wsh));
    }
    S = &in->wsh[in->nwsh++];
    memset(S, 0, sizeof(*S));
    S->seq = seq;
    S->nleft = in->team_size;
    return S;
}

static void ws_leave(struct augur_interp *in, struct ws_shared *S)
{
    if (--S->nleft == 0)
        *S = in->wsh[--in->nwsh];
}

static int do_fork(struct augur_interp *in, struct ctx *m, uint32_t f)
{
    const struct forkinfo *F = &in->forks[f];
    unsigned T = in->nthreads;

    if (m->depth > 0) {
        /* a nested parallel region: a team of one, as OpenMP runs it by default */
        if (m->depth >= INTERP_WS_DEPTH)
            return interp_fail(in, F->node, "parallel regions nested too deeply");
        m->saved_thread[m->depth] = in->sym_reg_thread >= 0 ? m->r[in->sym_reg_thread].i : 0;
        m->saved_nthreads[m->depth] = in->sym_reg_nthreads >= 0 ? m->r[in->sym_reg_nthreads].i : 1;
        set_builtin(in, m, in->sym_reg_thread, 0);
        set_builtin(in, m, in->sym_reg_nthreads, 1);
        m->depth++;
        return 0;
    }
    if (F->nt_reg != NO_REG) {
        int64_t v = m->r[F->nt_reg].i;

        if (v < 1)
            return interp_fail(in, F->node, "num_threads(%" PRId64 ") is not positive", v);
        if ((uint64_t)v < T)
            T = (unsigned)v;
    }
    for (unsigned t = 0; t < T; t++) {
        struct ctx *c = &in->ctx[t];

        if (t > 0) {
            memcpy(c->r, m->r, in->nregs * sizeof(union augur_value));
            memcpy(c->arr, m->arr, in->narrays * sizeof(struct rt_arr));
            c->pc = m->pc;
        }
        c->state = CTX_RUN;
        c->tid = t;
        c->simthread = t;
        c->cnt = in->counts + (size_t)t * (in->nnodes + 1);
        c->depth = 1;
        c->wsseq = 0;
        c->nws = 0;
        c->phase_start = c->clock;
        set_builtin(in, c, in->sym_reg_thread, t);
        set_builtin(in, c, in->sym_reg_nthreads, T);
    }
    /* the scalars the team shares start from the master's values */
    for (uint32_t i = 0; i < F->nshared; i++) {
        uint32_t s = in->fork_shared[F->shared + i];

        in->svals[s] = m->r[s];
    }
    in->cur_fork = (int32_t)f;
    in->team_size = T;
    in->team_active = true;
    in->arrived = 0;
    in->joined = 0;
    in->nwsh = 0;
    in->stats.parallel++;
    return ST_FORK;
}

/*
 * Ends a phase of the team (at a barrier every thread reached, or at the
 * join): the team waits for its busiest thread, so the phase's time is that
 * thread's events, and the next phase starts from here.
 */
static void close_phase(struct augur_interp *in)
{
    uint64_t mx = 0, sum = 0;

    for (unsigned t = 0; t < in->team_size; t++) {
        uint64_t e = in->ctx[t].clock - in->ctx[t].phase_start;

        sum += e;
        if (e > mx)
            mx = e;
        in->ctx[t].phase_start = in->ctx[t].clock;
    }
    in->stats.critical_events += mx;
    in->stats.parallel_events += sum;
    in->phase_means += (double)sum / in->team_size;
}

/* The team's last thread has joined: the master goes on alone. */
static void dissolve(struct augur_interp *in)
{
    struct ctx *m = &in->ctx[0];

    close_phase(in);
    if (in->cur_fork >= 0) {
        const struct forkinfo *F = &in->forks[in->cur_fork];

        for (uint32_t i = 0; i < F->nshared; i++) {
            uint32_t s = in->fork_shared[F->shared + i];

            m->r[s] = in->svals[s];
        }
    }
    in->cur_fork = -1;
    in->team_active = false;
    in->team_size = 1;
    m->depth = 0;
    m->state = CTX_RUN;
    m->tid = 0;
    set_builtin(in, m, in->sym_reg_thread, 0);
    set_builtin(in, m, in->sym_reg_nthreads, 1);
}

/* Thread c arrives at a barrier: returns 0 when it may go on, ST_BLOCK when it waits. */
static int barrier(struct augur_interp *in, struct ctx *c)
{
    unsigned ndone = 0;

    if (!in->team_active || c->depth != 1)
        return 0;
    if (in->kernel->u.kernel.cuda)
        for (unsigned t = 0; t < in->team_size; t++)
            ndone += in->ctx[t].state == CTX_DONE;
    if (++in->arrived + ndone >= in->team_size) {
        in->arrived = 0;
        if (!in->kernel->u.kernel.cuda)
            close_phase(in);
        for (unsigned t = 0; t < in->team_size; t++)
            if (in->ctx[t].state == CTX_BLOCKED)
                in->ctx[t].state = CTX_RUN;
        return 0;
    }
    c->state = CTX_BLOCKED;
    return ST_BLOCK;
}

/* A worksharing loop's trip count; -1 for a step that never reaches the bound. */
static int64_t trip_count(const struct wsinfo *W, const union augur_value *R, int64_t step,
                          uint64_t *n)
{
    union augur_value lo = R[W->ops + 1], hi = R[W->ops + 2];
    bool u = W->ctype == AUGUR_T_U64 || W->ctype == AUGUR_T_PTR;
    uint64_t diff, s;
    bool before, atmost;

    *n = 0;
    if (step == 0)
        return -1;
    switch (W->rel) {
    case AUGUR_OP_LT:
    case AUGUR_OP_LE:
        if (step < 0)
            return -1;
        before = u ? lo.u < hi.u : lo.i < hi.i;
        atmost = u ? lo.u <= hi.u : lo.i <= hi.i;
        if (W->rel == AUGUR_OP_LT ? !before : !atmost)
            return 0;
        diff = hi.u - lo.u;
        s = (uint64_t)step;
        *n = W->rel == AUGUR_OP_LT ? diff / s + (diff % s != 0) : diff / s + 1;
        return 0;
    case AUGUR_OP_GT:
    case AUGUR_OP_GE:
        if (step > 0)
            return -1;
        before = u ? lo.u > hi.u : lo.i > hi.i;
        atmost = u ? lo.u >= hi.u : lo.i >= hi.i;
        if (W->rel == AUGUR_OP_GT ? !before : !atmost)
            return 0;
        diff = lo.u - hi.u;
        s = (uint64_t)0 - (uint64_t)step;
        *n = W->rel == AUGUR_OP_GT ? diff / s + (diff % s != 0) : diff / s + 1;
        return 0;
    default: /* != with a unit step */
        if (step == 1 && (u ? lo.u <= hi.u : lo.i <= hi.i))
            *n = hi.u - lo.u;
        else if (step == -1 && (u ? lo.u >= hi.u : lo.i >= hi.i))
            *n = lo.u - hi.u;
        else
            return -1;
        return 0;
    }
}

/* ---- the machine -------------------------------------------------------------------------------
 */

#define JUMP()               \
    do {                     \
        cnt[I->e]++;         \
        if (++steps > limit) \
            goto runaway;    \
        pc = I->d;           \
    } while (0)

/* A conditional jump, through the thread's branch predictor (CPU) or its warp's count (CUDA). */
#define CJUMP(cond)                                                        \
    do {                                                                   \
        bool taken_ = (cond);                                              \
        if (bp) {                                                          \
            if (bp_step(&in->bps, bp, pc - 1, taken_))                     \
                in->mispredicts[in->code_node[pc - 1] - in->kernel->id]++; \
        } else if (wb && !warp_branch(wb, c->tid, pc - 1, taken_)) {       \
            goto toomany;                                                  \
        }                                                                  \
        if (taken_)                                                        \
            JUMP();                                                        \
    } while (0)

/*
 * CUDA: lane tid of the block reaches conditional jump pc, taken or not;
 * false when one warp reached it 2^31 times in one block.
 */
static bool warp_branch(struct warp_branches *wb, unsigned tid, uint32_t pc, bool taken)
{
    int32_t site = wb->site[pc];
    uint32_t occ;
    struct warp_branch_list *l;

    if (site < 0)
        return true;
    occ = wb->occ[(size_t)tid * wb->nsites + (uint32_t)site]++;
    l = &wb->lists[(size_t)(tid / 32) * wb->nsites + (uint32_t)site];
    if (occ >= l->n) {
        /* the warp's first lane to get this far: a new instruction */
        if (l->n == l->cap) {
            if (l->cap >= UINT32_C(1) << 31)
                return false;
            l->cap = l->cap ? 2 * l->cap : 16;
            l->b = augur_reallocarray(l->b, l->cap, sizeof(*l->b));
        }
        l->b[l->n++] = (struct warp_branch){ 0, 0 };
    }
    l->b[occ].reached++;
    l->b[occ].taken += taken;
    return true;
}

/* A reduction section's bound: its constant, or the scalar's value in context c. */
static int64_t red_value(const struct augur_interp *in, const struct ctx *c, int32_t sym,
                         bool shared, int64_t v)
{
    if (sym < 0)
        return v;
    return shared ? in->svals[sym].i : c->r[sym].i;
}

/*
 * The end of a worksharing loop with array-section reductions: thread c
 * combines its partial into the original, a read and a write of every
 * element of the section (libgomp's merge, one thread after the other).
 * The events take the line and count of the loop's access to the array.
 */
static int combine(struct augur_interp *in, struct ctx *c, const struct wsinfo *W, uint32_t at)
{
    for (uint32_t r = W->red; r < W->red + W->nred; r++) {
        const struct redinfo *D = &in->reds[r];
        const struct rt_arr *A = &c->arr[D->array];
        int64_t lo = red_value(in, c, D->lo_sym, D->lo_shared, D->lo);
        int64_t len = red_value(in, c, D->len_sym, D->len_shared, D->len);

        if (A->extent == 0 && in->ainfo[D->array].kind != ARR_GLOBAL)
            continue; /* a local array the thread never made */
        if (lo < 0 || (uint64_t)lo > A->extent)
            return interp_fail(in, at,
                               "reduction section of '%s' starts at %" PRId64
                               ", outside its %" PRIu64 " elements",
                               in->kernel->u.kernel.arrays[D->array].name, lo, A->extent);
        if (D->len < 0 && D->len_sym < 0)
            len = (int64_t)(A->extent - (uint64_t)lo);
        if (len < 0 || (uint64_t)len > A->extent - (uint64_t)lo)
            return interp_fail(in, at,
                               "reduction section of '%s' [%" PRId64 ":%" PRId64
                               "] is beyond its %" PRIu64 " elements",
                               in->kernel->u.kernel.arrays[D->array].name, lo, len, A->extent);
        for (uint64_t i = (uint64_t)lo; i < (uint64_t)(lo + len); i++)
            for (int w = 0; w < 2; w++) {
                struct augur_event *ev = &in->evbuf[in->nev++];

                ev->addr = A->base + i * A->esize;
                ev->index = i;
                ev->node = D->node;
                ev->warp = c->warp;
                ev->array = (uint16_t)D->array;
                ev->thread = (uint16_t)c->simthread;
                ev->size = D->size;
                ev->lane = c->lane;
                ev->flags = w ? AUGUR_EV_WRITE : 0;
                if (in->nev == INTERP_EVCAP)
                    interp_flush(in);
            }
        c->cnt[D->slot] += (uint64_t)len * D->per;
        c->clock += 2 * (uint64_t)len;
        in->work[c->simthread].events += 2 * (uint64_t)len;
    }
    return 0;
}

static uint32_t log2u(uint32_t v)
{
    uint32_t b = 0;

    while ((1u << b) < v)
        b++;
    return b;
}

/* The shape of cfg, or an error naming what is out of range. */
static int bp_shape_of(const struct augur_bp_config *cfg, struct bp_shape *s,
                       struct augur_diag *diag)
{
    const char *bad = NULL;

    memset(s, 0, sizeof(*s));
    if (cfg->bias_entries < 16 || cfg->bias_entries > (1u << 20) ||
        (cfg->bias_entries & (cfg->bias_entries - 1)))
        bad = "bias_entries is not a power of two in [16, 2^20]";
    else if (cfg->tagged_entries < 16 || cfg->tagged_entries > (1u << 16) ||
             (cfg->tagged_entries & (cfg->tagged_entries - 1)))
        bad = "tagged_entries is not a power of two in [16, 2^16]";
    else if (cfg->tag_bits < 4 || cfg->tag_bits > 15)
        bad = "tag_bits is not in [4, 15]";
    else if (cfg->aging_log2 < 8 || cfg->aging_log2 > 40)
        bad = "aging_log2 is not in [8, 40]";
    else if (cfg->ntables < 1 || cfg->ntables > AUGUR_INTERP_BP_MAX_TABLES)
        bad = "the tagged tables are not 1 to 8";
    for (uint32_t t = 0; !bad && t < cfg->ntables; t++)
        if (cfg->history[t] < 1 || cfg->history[t] > 4095 ||
            (t > 0 && cfg->history[t] <= cfg->history[t - 1]))
            bad = "the histories are not ascending in [1, 4095]";
    if (bad)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "branch predictor: %s", bad);
    s->ntables = cfg->ntables;
    s->tbits = log2u(cfg->tagged_entries);
    s->tagbits = cfg->tag_bits;
    s->bbits = log2u(cfg->bias_entries);
    s->age_mask = (UINT64_C(1) << cfg->aging_log2) - 1;
    memcpy(s->hist, cfg->history, cfg->ntables * sizeof(*cfg->history));
    s->hmask = (1u << log2u(cfg->history[cfg->ntables - 1] + 1)) - 1;
    return 0;
}

/* Makes a thread's predictor: its tables in one block. */
static void bp_alloc(const struct bp_shape *s, struct bpred *p)
{
    size_t nh = (size_t)s->hmask + 1, nb = (size_t)1 << s->bbits,
           nt = (size_t)s->ntables << s->tbits;

    p->bytes = nt * sizeof(struct bp_entry) + nh + nb;
    p->mem = augur_calloc(1, p->bytes);
    p->tagged = p->mem;
    p->hist = (uint8_t *)(p->tagged + nt);
    p->bias = p->hist + nh;
}

/* Empties a thread's predictor: empty tables, the folds of an all-zero history. */
static void bp_reset(const struct bp_shape *s, struct bpred *p)
{
    memset(p->mem, 0, p->bytes);
    p->head = 0;
    p->clock = 0;
    for (uint32_t t = 0; t < s->ntables; t++) {
        p->index[t] = (struct bp_fold){ 0, (uint8_t)s->tbits, (uint8_t)(s->hist[t] % s->tbits) };
        p->tag[t] = (struct bp_fold){ 0, (uint8_t)s->tagbits, (uint8_t)(s->hist[t] % s->tagbits) };
    }
}

/* The fold after outcome in entered the history and out (the outcome len back) left it. */
static inline void bp_refold(struct bp_fold *f, unsigned in, unsigned out)
{
    uint32_t v = f->value << 1 | in;

    v ^= (uint32_t)out << f->out;
    v ^= v >> f->bits;
    f->value = v & ((1u << f->bits) - 1);
}

/*
 * Predicts the jump at pc, learns its outcome; true when the prediction was wrong. nt is
 * s->ntables, a constant in each copy bp_step() dispatches to, so that the loops over the
 * tables unroll (a quarter of a jump's cost).
 */
static inline __attribute__((always_inline)) bool
bp_step_n(const struct bp_shape *s, struct bpred *p, uint32_t pc, bool taken, const uint32_t nt)
{
    const uint32_t tbits = s->tbits, tmask = (1u << tbits) - 1, tagmask = (1u << s->tagbits) - 1;
    uint32_t h = pc * UINT32_C(0x9E3779B1), idx[AUGUR_INTERP_BP_MAX_TABLES];
    uint16_t tag[AUGUR_INTERP_BP_MAX_TABLES];
    uint8_t *bias = &p->bias[h >> (32 - s->bbits)];
    struct bp_entry *tagged = p->tagged;
    int provider = -1, alt = -1;
    bool guess, alt_guess;

#pragma GCC unroll 8
    for (uint32_t t = 0; t < nt; t++) {
        idx[t] = (t << tbits) |
                 (((h >> (32 - tbits)) ^ (h >> (32 - 2 * tbits)) ^ p->index[t].value) & tmask);
        tag[t] = (uint16_t)(((h >> 3) ^ p->tag[t].value ^ p->index[t].value << 1) & tagmask) |
                 (uint16_t)(tagmask + 1);
        if (tagged[idx[t]].tag == tag[t]) {
            alt = provider;
            provider = (int)t;
        }
    }
    alt_guess = alt >= 0 ? tagged[idx[alt]].ctr >= 0 : *bias >= 2;
    guess = provider >= 0 ? tagged[idx[provider]].ctr >= 0 : *bias >= 2;
    if (provider >= 0) {
        struct bp_entry *e = &tagged[idx[provider]];

        if (guess != alt_guess)
            e->useful = guess == taken ? (uint8_t)(e->useful + (e->useful < 3))
                                       : (uint8_t)(e->useful - (e->useful > 0));
        if (taken)
            e->ctr += e->ctr < 3;
        else
            e->ctr -= e->ctr > -4;
    }
    if (provider < 0 || alt < 0) {
        if (taken)
            *bias += *bias < 3;
        else
            *bias -= *bias > 0;
    }
    /* wrong: a longer history may tell this case apart */
    if (guess != taken && provider < (int)nt - 1) {
        bool placed = false;

        for (uint32_t t = (uint32_t)(provider + 1); t < nt && !placed; t++) {
            struct bp_entry *e = &tagged[idx[t]];

            if (e->useful == 0) {
                e->tag = tag[t];
                e->ctr = taken ? 0 : -1;
                placed = true;
            }
        }
        for (uint32_t t = (uint32_t)(provider + 1); t < nt && !placed; t++)
            tagged[idx[t]].useful--;
    }
    if ((++p->clock & s->age_mask) == 0)
        for (size_t i = 0; i < ((size_t)nt << tbits); i++)
            tagged[i].useful >>= 1;
    /* the outcome enters the history; each fold drops the one its length left behind */
    p->head = (p->head + 1) & s->hmask;
    p->hist[p->head] = taken;
#pragma GCC unroll 8
    for (uint32_t t = 0; t < nt; t++) {
        unsigned out = p->hist[(p->head - s->hist[t]) & s->hmask];

        bp_refold(&p->index[t], taken, out);
        bp_refold(&p->tag[t], taken, out);
    }
    return guess != taken;
}

static inline bool bp_step(const struct bp_shape *s, struct bpred *p, uint32_t pc, bool taken)
{
    switch (s->ntables) {
    case 1:
        return bp_step_n(s, p, pc, taken, 1);
    case 2:
        return bp_step_n(s, p, pc, taken, 2);
    case 3:
        return bp_step_n(s, p, pc, taken, 3);
    case 4:
        return bp_step_n(s, p, pc, taken, 4);
    case 5:
        return bp_step_n(s, p, pc, taken, 5);
    case 6:
        return bp_step_n(s, p, pc, taken, 6);
    case 7:
        return bp_step_n(s, p, pc, taken, 7);
    default:
        return bp_step_n(s, p, pc, taken, AUGUR_INTERP_BP_MAX_TABLES);
    }
}

/* Adds the events thread c ran since budget0 to its clock and work; returns the new base. */
static inline uint64_t sync_clock(struct augur_interp *in, struct ctx *c, uint64_t budget0,
                                  uint64_t budget)
{
    c->clock += budget0 - budget;
    in->work[c->simthread].events += budget0 - budget;
    return budget;
}

static int vm(struct augur_interp *in, struct ctx *c, uint64_t budget0)
{
    const struct ins *code = in->code;
    union augur_value *R = c->r;
    struct rt_arr *arr = c->arr;
    uint64_t *cnt = c->cnt;
    struct augur_event *evb = in->evbuf;
    size_t nev = in->nev;
    uint64_t budget = budget0, steps = in->steps, limit = in->max_steps;
    uint32_t pc = c->pc;
    struct bpred *bp = in->bp && !in->bp_off ? &in->bp[c->simthread] : NULL;
    struct warp_branches *wb = in->wb.site ? &in->wb : NULL;
    int st = 0;

    for (;;) {
        const struct ins *I = &code[pc++];

        switch ((enum interp_op)I->op) {
        case OP_END:
            c->state = CTX_DONE;
            st = ST_DONE;
            goto leave;
        case OP_NOP:
            break;
        case OP_LDS:
            R[I->a] = in->svals[I->b];
            break;
        case OP_STS:
            in->svals[I->a] = R[I->b];
            break;
        case OP_JMP:
            JUMP();
            break;
        case OP_JZ:
            CJUMP(!R[I->b].i);
            break;
        case OP_JNZ:
            CJUMP(R[I->b].i);
            break;
        case OP_JLTS:
            CJUMP(R[I->b].i < R[I->c].i);
            break;
        case OP_JLTU:
            CJUMP(R[I->b].u < R[I->c].u);
            break;
        case OP_JLES:
            CJUMP(R[I->b].i <= R[I->c].i);
            break;
        case OP_JLEU:
            CJUMP(R[I->b].u <= R[I->c].u);
            break;
        case OP_JEQ:
            CJUMP(R[I->b].i == R[I->c].i);
            break;
        case OP_JNE:
            CJUMP(R[I->b].i != R[I->c].i);
            break;
        case OP_MOV:
            R[I->a] = R[I->b];
            break;
        case OP_LDI:
            R[I->a].i = I->imm.i;
            break;
        case OP_ADD:
            R[I->a].u = R[I->b].u + R[I->c].u;
            break;
        case OP_SUB:
            R[I->a].u = R[I->b].u - R[I->c].u;
            break;
        case OP_MUL:
            R[I->a].u = R[I->b].u * R[I->c].u;
            break;
        case OP_ADDI:
            R[I->a].u = R[I->b].u + (uint64_t)I->imm.i;
            break;
        case OP_ADD32S:
            R[I->a].i = (int32_t)(uint32_t)(R[I->b].u + R[I->c].u);
            break;
        case OP_ADD32U:
            R[I->a].u = (uint32_t)(R[I->b].u + R[I->c].u);
            break;
        case OP_ADDI32S:
            R[I->a].i = (int32_t)(uint32_t)(R[I->b].u + (uint64_t)I->imm.i);
            break;
        case OP_ADDI32U:
            R[I->a].u = (uint32_t)(R[I->b].u + (uint64_t)I->imm.i);
            break;
        case OP_DIVS:
        case OP_MODS: {
            int64_t x = R[I->b].i, y = R[I->c].i;

            if (y == 0)
                goto divzero;
            if (x == INT64_MIN && y == -1)
                R[I->a].i = I->op == OP_DIVS ? INT64_MIN : 0;
            else
                R[I->a].i = I->op == OP_DIVS ? x / y : x % y;
            break;
        }
        case OP_DIVU:
        case OP_MODU: {
            uint64_t x = R[I->b].u, y = R[I->c].u;

            if (y == 0)
                goto divzero;
            R[I->a].u = I->op == OP_DIVU ? x / y : x % y;
            break;
        }
        case OP_SHL:
            R[I->a].u = R[I->b].u << (R[I->c].u & 63);
            break;
        case OP_SHRS:
            R[I->a].i = R[I->b].i >> (R[I->c].u & 63);
            break;
        case OP_SHRU:
            R[I->a].u = R[I->b].u >> (R[I->c].u & 63);
            break;
        case OP_AND:
            R[I->a].u = R[I->b].u & R[I->c].u;
            break;
        case OP_OR:
            R[I->a].u = R[I->b].u | R[I->c].u;
            break;
        case OP_XOR:
            R[I->a].u = R[I->b].u ^ R[I->c].u;
            break;
        case OP_NEG:
            R[I->a].u = 0 - R[I->b].u;
            break;
        case OP_BNOT:
            R[I->a].u = ~R[I->b].u;
            break;
        case OP_LNOT:
            R[I->a].i = R[I->b].i == 0;
            break;
        case OP_MINS:
            R[I->a] = R[I->b].i <= R[I->c].i ? R[I->b] : R[I->c];
            break;
        case OP_MINU:
            R[I->a] = R[I->b].u <= R[I->c].u ? R[I->b] : R[I->c];
            break;
        case OP_MAXS:
            R[I->a] = R[I->b].i >= R[I->c].i ? R[I->b] : R[I->c];
            break;
        case OP_MAXU:
            R[I->a] = R[I->b].u >= R[I->c].u ? R[I->b] : R[I->c];
            break;
        case OP_LTS:
            R[I->a].i = R[I->b].i < R[I->c].i;
            break;
        case OP_LTU:
            R[I->a].i = R[I->b].u < R[I->c].u;
            break;
        case OP_LES:
            R[I->a].i = R[I->b].i <= R[I->c].i;
            break;
        case OP_LEU:
            R[I->a].i = R[I->b].u <= R[I->c].u;
            break;
        case OP_EQ:
            R[I->a].i = R[I->b].i == R[I->c].i;
            break;
        case OP_NE:
            R[I->a].i = R[I->b].i != R[I->c].i;
            break;
        case OP_SEXT8:
            R[I->a].i = (int8_t)(uint8_t)(R[I->b].u & 0xff);
            break;
        case OP_SEXT16:
            R[I->a].i = (int16_t)(uint16_t)(R[I->b].u & 0xffff);
            break;
        case OP_SEXT32:
            R[I->a].i = (int32_t)(uint32_t)R[I->b].u;
            break;
        case OP_ZEXT8:
            R[I->a].u = R[I->b].u & 0xff;
            break;
        case OP_ZEXT16:
            R[I->a].u = R[I->b].u & 0xffff;
            break;
        case OP_ZEXT32:
            R[I->a].u = (uint32_t)R[I->b].u;
            break;
        case OP_BOOL:
            R[I->a].i = R[I->b].i != 0;
            break;
        case OP_FADD:
            R[I->a].f = R[I->b].f + R[I->c].f;
            break;
        case OP_FSUB:
            R[I->a].f = R[I->b].f - R[I->c].f;
            break;
        case OP_FMUL:
            R[I->a].f = R[I->b].f * R[I->c].f;
            break;
        case OP_FDIV:
            R[I->a].f = R[I->b].f / R[I->c].f;
            break;
        case OP_FNEG:
            R[I->a].f = -R[I->b].f;
            break;
        case OP_FMIN:
            R[I->a].f = R[I->b].f <= R[I->c].f ? R[I->b].f : R[I->c].f;
            break;
        case OP_FMAX:
            R[I->a].f = R[I->b].f >= R[I->c].f ? R[I->b].f : R[I->c].f;
            break;
        case OP_FLT:
            R[I->a].i = R[I->b].f < R[I->c].f;
            break;
        case OP_FLE:
            R[I->a].i = R[I->b].f <= R[I->c].f;
            break;
        case OP_FEQ:
            R[I->a].i = R[I->b].f == R[I->c].f;
            break;
        case OP_FNE:
            R[I->a].i = R[I->b].f != R[I->c].f;
            break;
        case OP_F32:
            R[I->a].f = (double)(float)R[I->b].f;
            break;
        case OP_I2F:
            R[I->a].f = (double)R[I->b].i;
            break;
        case OP_U2F:
            R[I->a].f = (double)R[I->b].u;
            break;
        case OP_F2I:
            R[I->a] = interp_convert(R[I->b], AUGUR_T_F64, AUGUR_T_I64);
            break;
        case OP_F2U:
            R[I->a] = interp_convert(R[I->b], AUGUR_T_F64, AUGUR_T_U64);
            break;
        case OP_LD32U:
        case OP_LD32S:
        case OP_LD64:
        case OP_LD: {
            const struct rt_arr *A = &arr[I->c];
            uint64_t idx = R[I->b].u;
            const uint8_t *p;

            if (idx >= A->extent) {
                c->pc = pc;
                if (index_slow(in, c, I->c, idx, in->code_node[pc - 1]))
                    goto fail;
            }
            p = A->data + idx * A->esize;
            if (I->op == OP_LD32U) {
                uint32_t v;

                memcpy(&v, p, 4);
                R[I->a].u = v;
            } else if (I->op == OP_LD32S) {
                int32_t v;

                memcpy(&v, p, 4);
                R[I->a].i = v;
            } else if (I->op == OP_LD64) {
                memcpy(&R[I->a], p, 8);
            } else {
                R[I->a] = interp_read(p + (uint32_t)I->imm.i, (enum augur_type)I->x);
            }
            break;
        }
        case OP_ST: {
            const struct rt_arr *A = &arr[I->c];
            uint64_t idx = R[I->b].u;
            union augur_value v = R[I->a];

            if (idx >= A->extent) {
                c->pc = pc;
                if (index_slow(in, c, I->c, idx, in->code_node[pc - 1]))
                    goto fail;
            }
            if (A->data) {
                if (I->x != AUGUR_T_F32 && I->x != AUGUR_T_F64 &&
                    (in->ainfo[I->c].elem == AUGUR_T_F32 || in->ainfo[I->c].elem == AUGUR_T_F64))
                    v = interp_convert(v, (enum augur_type)I->x, in->ainfo[I->c].elem);
                augur_type_write(A->data + idx * A->esize + (uint32_t)I->imm.i,
                                 (enum augur_type)I->x, v);
            }
            if (in->ainfo[I->c].is_level)
                in->level_stores++;
            break;
        }
        case OP_EV:
        case OP_EVL: {
            const struct rt_arr *A = &arr[I->c];
            uint64_t idx = R[I->b].u;
            struct augur_event *ev;

            if (idx >= A->extent) {
                c->pc = pc;
                if (index_slow(in, c, I->c, idx, I->d))
                    goto fail;
            }
            ev = &evb[nev];
            ev->addr = A->base + idx * A->esize + (uint32_t)I->imm.i;
            ev->index = idx;
            ev->node = I->d;
            ev->warp = c->warp;
            ev->array = I->c;
            ev->thread = (uint16_t)c->simthread;
            ev->size = I->a;
            ev->lane = I->op == OP_EVL ? (uint8_t)R[I->imm.i >> 32].u : c->lane;
            ev->flags = I->x;
            cnt[I->e]++;
            if (++nev == INTERP_EVCAP) {
                in->nev = nev;
                interp_flush(in);
                nev = 0;
            }
            if (--budget == 0) {
                st = ST_YIELD;
                goto leave;
            }
            break;
        }
        case OP_CNT:
            cnt[I->e]++;
            break;
        case OP_PROB:
            if (augur_rand_unit(&in->rng) >= I->imm.f)
                JUMP();
            break;
        case OP_RAND:
            if (I->x == AUGUR_T_F32 || I->x == AUGUR_T_F64)
                R[I->a].f = augur_rand_unit(&in->rng);
            else
                R[I->a].i =
                    interp_norm((int64_t)(augur_rand(&in->rng) >> 33), (enum augur_type)I->x);
            break;
        case OP_TRIPS: {
            double t = I->imm.f, f = floor(t);

            R[I->a].i = (int64_t)f + (augur_rand_unit(&in->rng) < t - f);
            break;
        }
        case OP_FORK:
            c->pc = pc;
            in->steps = steps;
            st = do_fork(in, c, I->d);
            if (st == ST_FORK || in->err) {
                if (in->err)
                    st = ST_ERR;
                goto leave;
            }
            break;
        case OP_JOIN:
            if (c->depth > 1) {
                c->depth--;
                set_builtin(in, c, in->sym_reg_thread, c->saved_thread[c->depth]);
                set_builtin(in, c, in->sym_reg_nthreads, c->saved_nthreads[c->depth]);
                break;
            }
            if (c->depth == 0 || !in->team_active)
                break;
            c->pc = pc;
            /* the clock must be current before the phase is measured */
            budget0 = sync_clock(in, c, budget0, budget);
            if (c->tid != 0) {
                c->state = CTX_DONE;
                if (++in->joined == in->team_size)
                    dissolve(in);
                st = ST_DONE;
                goto leave;
            }
            if (++in->joined == in->team_size) {
                dissolve(in); /* every thread is here: the master goes on alone */
                break;
            }
            c->state = CTX_BLOCKED;
            st = ST_BLOCK;
            goto leave;
        case OP_BARRIER:
            cnt[I->e]++;
            c->pc = pc;
            /* the clock must be current before the phase is measured */
            budget0 = sync_clock(in, c, budget0, budget);
            if (barrier(in, c) == ST_BLOCK) {
                st = ST_BLOCK;
                goto leave;
            }
            break;
        case OP_WSBEGIN: {
            const struct wsinfo *W = &in->ws[I->d];
            struct ws_priv *P;
            uint64_t n;

            if (c->nws == INTERP_WS_DEPTH) {
                interp_fail(in, in->code_node[pc - 1], "worksharing loops nested too deeply");
                goto fail;
            }
            P = &c->ws[c->nws++];
            memset(P, 0, sizeof(*P));
            P->ws = I->d;
            P->lb = R[W->ops].i;
            P->step = R[W->ops + 3].i;
            if (trip_count(W, R, P->step, &n) < 0) {
                interp_fail(in, in->code_node[pc - 1],
                            "parallel loop with step %" PRId64 " never reaches its bound", P->step);
                goto fail;
            }
            P->niter = n;
            if (!in->team_active || c->depth != 1) {
                P->solo = true;
                P->cur = 0;
                P->end = n;
                if (n)
                    in->work[c->simthread].chunks++;
            } else {
                struct ws_shared *S;
                int64_t ch = W->chunk_reg != NO_REG ? R[W->chunk_reg].i : 0;

                P->seq = c->wsseq++;
                P->dealt = in->team_size > 1 &&
                           (W->sched == AUGUR_SCHED_DYNAMIC || W->sched == AUGUR_SCHED_GUIDED);
                S = ws_get(in, P->seq);
                if (S->loop.nthreads == 0) {
                    S->loop.sched = W->sched;
                    S->loop.niter = n;
                    S->loop.chunk = W->chunk_reg == NO_REG ? W->chunk : ch > 0 ? (uint64_t)ch : 1;
                    S->loop.nthreads = in->team_size;
                }
            }
            break;
        }
        case OP_WSNEXT: {
            const struct wsinfo *W = &in->ws[I->d];
            struct ws_priv *P = &c->ws[c->nws - 1];

            if (P->cur >= P->end) {
                uint64_t lo, hi;

                if (P->solo || !augur_omp_next_chunk(&ws_get(in, P->seq)->loop, c->tid, &P->tstate,
                                                     &lo, &hi)) {
                    pc = W->exit_pc;
                    break;
                }
                P->cur = lo;
                P->end = hi;
                in->work[c->simthread].chunks++;
            }
            R[W->var].i =
                interp_norm((int64_t)((uint64_t)P->lb + P->cur * (uint64_t)P->step), W->vtype);
            P->cur++;
            cnt[W->node]++;
            in->work[c->simthread].iterations++;
            in->work[c->simthread].dealt += P->dealt;
            if (++steps > limit)
                goto runaway;
            break;
        }
        case OP_WSEND: {
            const struct wsinfo *W = &in->ws[I->d];
            struct ws_priv *P = &c->ws[--c->nws];

            if (W->nred) {
                int rc;

                in->nev = nev;
                rc = combine(in, c, W, in->kernel->id + W->node - 1); /* the loop's node */
                nev = in->nev;
                if (rc)
                    goto fail;
            }

            if (!P->solo)
                ws_leave(in, ws_get(in, P->seq));
            if (!W->nowait) {
                c->pc = pc;
                budget0 = sync_clock(in, c, budget0, budget);
                if (barrier(in, c) == ST_BLOCK) {
                    st = ST_BLOCK;
                    goto leave;
                }
            }
            break;
        }
        case OP_SINGLE:
            if (in->team_active && c->depth == 1) {
                struct ws_shared *S = ws_get(in, c->wsseq++);
                bool mine = !S->taken;

                S->taken = true;
                ws_leave(in, S);
                if (!mine)
                    pc = I->d;
            }
            break;
        case OP_MASTER:
            if (in->team_active && c->depth == 1 && c->tid != 0)
                pc = I->d;
            break;
        default:
            interp_fail(in, in->code_node[pc - 1], "bad instruction %u", I->op);
            goto fail;
        }
    }
divzero:
    interp_fail(in, in->code_node[pc - 1], "division by zero");
    goto fail;
toomany:
    interp_fail(in, in->code_node[pc - 1], "a warp reached this jump 2^31 times in one block");
    goto fail;
runaway:
    interp_fail(in, in->code_node[pc - 1],
                "the kernel ran %" PRIu64
                " loop iterations without finishing (a loop that never ends?)",
                limit);
fail:
    st = ST_ERR;
leave:
    c->pc = pc;
    sync_clock(in, c, budget0, budget);
    in->nev = nev;
    in->steps = steps;
    return st;
}

/* ---- schedulers ------------------------------------------------------------------------------ */

/* The first blocked thread's node, for a deadlock message. */
static uint32_t blocked_node(const struct augur_interp *in)
{
    for (unsigned t = 0; t < in->team_size; t++)
        if (in->ctx[t].state == CTX_BLOCKED && in->ctx[t].pc > 0)
            return in->code_node[in->ctx[t].pc - 1];
    return in->kernel->id;
}

static int run_cpu(struct augur_interp *in)
{
    struct ctx *m = &in->ctx[0];
    unsigned q = in->opts.quantum;

    for (;;) {
        bool ran = false;
        int st;

        if (!in->team_active) {
            st = vm(in, m, UINT64_MAX);
            if (st == ST_ERR)
                return in->err;
            if (st == ST_DONE)
                return 0;
            if (st == ST_BLOCK)
                return interp_fail(in, blocked_node(in), "thread blocked outside a team");
            continue;
        }
        for (unsigned t = 0; t < in->team_size && in->team_active; t++) {
            struct ctx *c = &in->ctx[t];

            if (c->state != CTX_RUN)
                continue;
            ran = true;
            st = vm(in, c, q);
            if (st == ST_ERR)
                return in->err;
            if (st == ST_DONE && c == m) {
                if (!in->team_active)
                    return 0; /* the team ended and the master ran on to the end */
                return interp_fail(in, in->code_node[m->pc - 1],
                                   "the kernel ended inside a parallel region");
            }
        }
        if (!ran && in->team_active)
            return interp_fail(in, blocked_node(in),
                               "the threads of a parallel region wait at different barriers");
    }
}

/* The CUDA launch: the override, else the kernel's launch expressions. */
static int launch_size(struct augur_interp *in, uint64_t *grid, uint64_t *block)
{
    const struct augur_kernel_info *k = &in->kernel->u.kernel;
    union augur_value v;

    *grid = in->opts.grid;
    *block = in->opts.block;
    if (!*grid && k->grid) {
        if (interp_eval(in, k->grid, in->init_regs, NULL, in->kernel->id, &v))
            return in->err;
        v = interp_convert(v, k->grid->type, AUGUR_T_I64);
        *grid = v.i > 0 ? (uint64_t)v.i : 0;
    }
    if (!*block && k->block) {
        if (interp_eval(in, k->block, in->init_regs, NULL, in->kernel->id, &v))
            return in->err;
        v = interp_convert(v, k->block->type, AUGUR_T_I64);
        *block = v.i > 0 ? (uint64_t)v.i : 0;
    }
    if (!*grid || !*block)
        return interp_fail(in, in->kernel->id,
                           "CUDA kernel %s has no launch configuration (or an empty one): give "
                           "--launch GRID,BLOCK or #pragma augur launch(GRID, BLOCK)",
                           k->name);
    if (*block > 1024)
        return interp_fail(in, in->kernel->id, "a block of %" PRIu64 " threads (at most 1024)",
                           *block);
    return 0;
}

static void alloc_contexts(struct augur_interp *in, unsigned n)
{
    if (n <= in->nctx)
        return;
    augur_free(in->ctx);
    augur_free(in->regfile);
    augur_free(in->arrfile);
    in->ctx = augur_calloc(n, sizeof(struct ctx));
    in->regfile = augur_mallocarray((size_t)n * in->nregs, sizeof(union augur_value));
    in->arrfile =
        augur_mallocarray((size_t)n * (in->narrays ? in->narrays : 1), sizeof(struct rt_arr));
    for (unsigned i = 0; i < n; i++) {
        in->ctx[i].r = in->regfile + (size_t)i * in->nregs;
        in->ctx[i].arr = in->arrfile + (size_t)i * (in->narrays ? in->narrays : 1);
        in->ctx[i].state = CTX_DONE;
    }
    in->nctx = n;
}

enum cuda_builtin {
    CB_TIDX,
    CB_TIDY,
    CB_TIDZ,
    CB_BIDX,
    CB_BIDY,
    CB_BIDZ,
    CB_BDX,
    CB_BDY,
    CB_BDZ,
    CB_GDX,
    CB_GDY,
    CB_GDZ,
    CB_WARPSIZE,
};

static const char *const cuda_names[] = {
    "threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x", "blockIdx.y",
    "blockIdx.z",  "blockDim.x",  "blockDim.y",  "blockDim.z", "gridDim.x",
    "gridDim.y",   "gridDim.z",   "warpSize",
};

/* CUDA: the conditional jumps get numbers and the per-node counts their tables (none: none). */
static void wb_new(struct augur_interp *in)
{
    struct warp_branches *wb = &in->wb;

    wb->site = augur_mallocarray(in->ncode + 1, sizeof(*wb->site));
    for (uint32_t pc = 0; pc < in->ncode; pc++)
        wb->site[pc] =
            in->code[pc].op >= OP_JZ && in->code[pc].op <= OP_JNE ? (int32_t)wb->nsites++ : -1;
    if (!wb->nsites) {
        augur_free(wb->site);
        wb->site = NULL;
        return;
    }
    wb->site_node = augur_mallocarray(wb->nsites, sizeof(*wb->site_node));
    for (uint32_t pc = 0; pc < in->ncode; pc++)
        if (wb->site[pc] >= 0)
            wb->site_node[wb->site[pc]] = in->code_node[pc] - in->kernel->id;
    wb->node_instr = augur_calloc(in->nnodes + 1, sizeof(*wb->node_instr));
    wb->node_divergent = augur_calloc(in->nnodes + 1, sizeof(*wb->node_divergent));
}

static void wb_free_block_tables(struct warp_branches *wb)
{
    for (size_t i = 0; wb->lists && i < (size_t)wb->wpb * wb->nsites; i++)
        augur_free(wb->lists[i].b);
    augur_free(wb->lists);
    augur_free(wb->occ);
    wb->lists = NULL;
    wb->occ = NULL;
    wb->wpb = 0;
}

/* CUDA: the per-block tables, for blocks of `block` threads. */
static void wb_start_launch(struct warp_branches *wb, uint64_t block)
{
    uint32_t wpb = (uint32_t)((block + 31) / 32);

    if (!wb->site || wb->wpb == wpb)
        return;
    wb_free_block_tables(wb);
    wb->occ = augur_calloc((size_t)wpb * 32 * wb->nsites, sizeof(*wb->occ));
    wb->lists = augur_calloc((size_t)wpb * wb->nsites, sizeof(*wb->lists));
    wb->wpb = wpb;
}

/* CUDA: counts the block's warp branch instructions and empties the tables for the next. */
static void wb_end_block(struct augur_interp *in)
{
    struct warp_branches *wb = &in->wb;

    if (!wb->site)
        return;
    for (size_t i = 0; i < (size_t)wb->wpb * wb->nsites; i++) {
        struct warp_branch_list *l = &wb->lists[i];
        uint32_t node = wb->site_node[i % wb->nsites];

        for (uint32_t k = 0; k < l->n; k++) {
            bool divergent = l->b[k].taken && l->b[k].taken < l->b[k].reached;

            in->stats.warp_branches++;
            in->stats.branch_lanes += l->b[k].reached;
            in->stats.divergent_branches += divergent;
            wb->node_instr[node]++;
            wb->node_divergent[node] += divergent;
        }
        l->n = 0;
    }
    memset(wb->occ, 0, (size_t)wb->wpb * 32 * wb->nsites * sizeof(*wb->occ));
}

static int run_cuda(struct augur_interp *in)
{
    uint64_t grid, block, wpb;
    int rc = launch_size(in, &grid, &block);

    if (rc)
        return rc;
    in->stats.grid = grid;
    in->stats.block = block;
    alloc_contexts(in, (unsigned)block);
    wb_start_launch(&in->wb, block);
    wpb = (block + 31) / 32;
    for (uint64_t b = 0; b < grid; b++) {
        unsigned sm = (unsigned)(b % in->nthreads);
        bool running = true;

        /* a thread started counts as a step: an absurd launch ends like a runaway loop */
        in->steps += block;
        if (in->steps > in->max_steps)
            return interp_fail(in, in->kernel->id,
                               "the launch of %" PRIu64 " blocks of %" PRIu64
                               " threads ran past %" PRIu64 " steps",
                               grid, block, in->max_steps);

        for (unsigned t = 0; t < block; t++) {
            struct ctx *c = &in->ctx[t];
            int64_t vals[13] = { t, 0, 0, (int64_t)b, 0, 0, (int64_t)block, 1, 1, (int64_t)grid,
                                 1, 1, 32 };

            memcpy(c->r, in->init_regs, in->nregs * sizeof(union augur_value));
            memcpy(c->arr, in->garr, in->narrays * sizeof(struct rt_arr));
            for (int i = 0; i < 13; i++)
                set_builtin(in, c, in->cuda_sym[i], interp_norm(vals[i], AUGUR_T_U32));
            c->pc = 0;
            c->state = CTX_RUN;
            c->tid = t;
            c->simthread = sm;
            c->cnt = in->counts + (size_t)sm * (in->nnodes + 1);
            c->warp = (uint32_t)(b * wpb + t / 32);
            c->lane = (uint8_t)(t % 32);
            c->depth = 1;
            c->nws = 0;
            c->wsseq = 0;
        }
        /* this block's __shared__ arrays: made once, cleared for every block */
        for (unsigned a = 0; a < in->narrays; a++) {
            if (in->ainfo[a].kind != ARR_SHARED)
                continue;
            if (!in->garr[a].owner) {
                instantiate(in, &in->ctx[0], a, in->kernel->id);
                if (in->err)
                    return in->err;
                in->garr[a] = in->ctx[0].arr[a];
            } else if (in->garr[a].data) {
                memset(in->garr[a].data, 0, in->garr[a].extent * in->garr[a].esize);
            }
            for (unsigned t = 0; t < block; t++)
                in->ctx[t].arr[a] = in->garr[a];
        }
        in->team_active = true;
        in->team_size = (unsigned)block;
        in->arrived = 0;
        while (running) {
            bool ran = false;

            running = false;
            for (unsigned t = 0; t < block; t++) {
                struct ctx *c = &in->ctx[t];
                int st;

                if (c->state != CTX_RUN)
                    continue;
                ran = true;
                st = vm(in, c, 1);
                if (st == ST_ERR)
                    return in->err;
                if (c->state != CTX_DONE)
                    running = true;
            }
            if (!ran) {
                for (unsigned t = 0; t < block; t++)
                    if (in->ctx[t].state == CTX_BLOCKED)
                        return interp_fail(in, blocked_node(in),
                                           "the threads of a block wait at different barriers");
                break;
            }
        }
        wb_end_block(in);
    }
    in->team_active = false;
    in->team_size = 1;
    return 0;
}

/* ---- construction -------------------------------------------------------------------------------
 */

static uint32_t subtree_size(const struct augur_node *n)
{
    const struct augur_node *kid;
    uint32_t s = 1;

    augur_node_for_each_kid(n, kid) {
        s += subtree_size(kid);
    }
    return s;
}

static int32_t find_sym(const struct augur_kernel_info *k, const char *name)
{
    for (uint32_t i = 0; i < k->nsyms; i++)
        if (strcmp(k->syms[i].name, name) == 0)
            return (int32_t)i;
    return -1;
}

int augur_interp_new(const struct augur_skel *skel, const struct augur_node *kernel,
                     const struct augur_source *src, const struct augur_interp_opts *opts,
                     struct augur_interp **out, struct augur_diag *diag)
{
    struct augur_interp *in;
    const struct augur_kernel_info *k;
    int rc;

    if (!kernel) {
        if (skel->nkernels != 1)
            return augur_diag_set(diag, AUGUR_EINVAL, skel->nfiles ? skel->files[0] : NULL, 0, 0,
                                  "the skeleton has %" PRIu32
                                  " kernels: name the one to run (--function)",
                                  skel->nkernels);
        kernel = skel->kernels[0];
    }
    if (kernel->kind != AUGUR_NODE_KERNEL)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "not a kernel node");
    if (!src || !src->array || !src->fill || !src->scalar)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "no data source to bind to");
    k = &kernel->u.kernel;
    in = augur_calloc(1, sizeof(*in));
    in->skel = skel;
    in->kernel = kernel;
    in->src = *src;
    if (opts)
        in->opts = *opts;
    if (in->opts.nthreads == 0)
        in->opts.nthreads = 1;
    if (in->opts.quantum == 0)
        in->opts.quantum = DEFAULT_QUANTUM;
    if (in->opts.default_prob <= 0 || in->opts.default_prob > 1)
        in->opts.default_prob = 0.5;
    rc = AUGUR_EINVAL;
    if (in->opts.nthreads > AUGUR_INTERP_MAX_THREADS || in->opts.sms > AUGUR_INTERP_MAX_THREADS) {
        augur_diag_set(diag, rc, NULL, 0, 0, "at most %u threads", AUGUR_INTERP_MAX_THREADS);
        goto fail;
    }
    if (in->opts.sched_given &&
        ((in->opts.sched != AUGUR_SCHED_STATIC && in->opts.sched != AUGUR_SCHED_DYNAMIC &&
          in->opts.sched != AUGUR_SCHED_GUIDED && in->opts.sched != AUGUR_SCHED_AUTO) ||
         in->opts.chunk > AUGUR_SCHED_MAX_CHUNK ||
         (in->opts.sched == AUGUR_SCHED_AUTO && in->opts.chunk))) {
        augur_diag_set(diag, rc, NULL, 0, 0,
                       "schedule override: static, dynamic, guided or auto, a chunk in [1, "
                       "%" PRIu64 "] but for auto",
                       AUGUR_SCHED_MAX_CHUNK);
        goto fail;
    }
    if (in->opts.layout == AUGUR_LAYOUT_ALIGN &&
        (in->opts.align < 16 || (in->opts.align & (in->opts.align - 1)) ||
         in->opts.align > (UINT64_C(1) << 30))) {
        augur_diag_set(diag, rc, NULL, 0, 0,
                       "alignment %" PRIu64 " is not a power of two in [16, 2^30]", in->opts.align);
        goto fail;
    }
    in->nthreads = k->cuda ? (in->opts.sms ? in->opts.sms : 1) : in->opts.nthreads;
    in->nnodes = subtree_size(kernel);
    in->narrays = k->narrays;
    in->nsyms = k->nsyms;
    in->ainfo = augur_calloc(k->narrays + 1, sizeof(struct arr_info));
    in->rng = in->opts.seed ^ 0x5deece66du;
    in->max_steps =
        in->opts.max_steps ? in->opts.max_steps : (uint64_t)(1e4 * src->size) + UINT64_C(100000000);
    interp_prepare(in);
    rc = interp_compile(in, diag);
    if (rc)
        goto fail;
    rc = interp_bind(in, diag);
    if (rc)
        goto fail;
    in->sym_reg_thread = find_sym(k, "omp.thread");
    in->sym_reg_nthreads = find_sym(k, "omp.nthreads");
    for (int i = 0; i < 13; i++)
        in->cuda_sym[i] = find_sym(k, cuda_names[i]);
    /* builtins are not params: give omp.nthreads its value outside parallel regions */
    if (in->sym_reg_nthreads >= 0)
        in->init_regs[in->sym_reg_nthreads].i = 1;
    in->node_acc = augur_mallocarray(in->nnodes, sizeof(int32_t));
    in->acc_node = augur_mallocarray(in->nnodes, sizeof(uint32_t));
    for (uint32_t i = 0; i < in->nnodes; i++) {
        const struct augur_node *n = skel->nodes[kernel->id + i];

        in->node_acc[i] = -1;
        if (n->kind == AUGUR_NODE_ACCESS) {
            in->node_acc[i] = (int32_t)in->naccesses;
            in->acc_node[in->naccesses++] = n->id;
        }
    }
    in->svals = augur_calloc(k->nsyms + 1, sizeof(union augur_value));
    in->cur_fork = -1;
    in->garr = augur_calloc(k->narrays + 1, sizeof(struct rt_arr));
    for (uint32_t a = 0; a < k->narrays; a++) {
        in->garr[a].esize = in->ainfo[a].esize;
        if (in->ainfo[a].kind == ARR_GLOBAL) {
            in->garr[a].data = in->ainfo[a].data;
            in->garr[a].extent = in->ainfo[a].extent;
            in->garr[a].base = in->ainfo[a].base;
        }
    }
    alloc_contexts(in, k->cuda ? 1 : in->opts.nthreads);
    if (k->cuda)
        wb_new(in);
    in->counts = augur_calloc((size_t)in->nthreads * (in->nnodes + 1), sizeof(uint64_t));
    /* a GPU's warps take both sides of a branch rather than guess */
    if (!k->cuda && in->opts.predictor.ntables && in->nthreads <= BP_MAX_THREADS) {
        if ((rc = bp_shape_of(&in->opts.predictor, &in->bps, diag)) != 0)
            goto fail;
        in->bp = augur_calloc(in->nthreads, sizeof(*in->bp));
        in->mispredicts = augur_calloc(in->nnodes + 1, sizeof(uint64_t));
        for (unsigned t = 0; t < in->nthreads; t++) {
            bp_alloc(&in->bps, &in->bp[t]);
            bp_reset(&in->bps, &in->bp[t]);
        }
    }
    in->work = augur_calloc(in->nthreads, sizeof(struct augur_thread_work));
    in->evbuf = augur_mallocarray(INTERP_EVCAP, sizeof(struct augur_event));
    in->stats.nthreads = in->nthreads;
    in->stats.thread = in->work;
    *out = in;
    return 0;
fail:
    augur_interp_free(in);
    return rc;
}

static void free_instances(struct augur_interp *in)
{
    for (size_t i = 0; i < in->ninst; i++)
        augur_free(in->inst[i]);
    in->ninst = 0;
}

void augur_interp_free(struct augur_interp *in)
{
    if (!in)
        return;
    interp_trace_free(in->trace); /* an unclosed trace is incomplete: removed */
    in->trace = NULL;
    free_instances(in);
    augur_free(in->inst);
    for (uint32_t a = 0; in->ainfo && a < in->narrays; a++) {
        if (!in->ainfo[a].aliased)
            augur_free(in->ainfo[a].data);
        augur_free(in->ainfo[a].orig);
    }
    augur_free(in->ainfo);
    augur_free(in->code);
    augur_free(in->code_node);
    augur_free(in->init_regs);
    augur_free(in->ws);
    augur_free(in->forks);
    augur_free(in->reds);
    augur_free(in->fork_shared);
    augur_free(in->svals);
    augur_free(in->acc_node);
    augur_free(in->node_acc);
    augur_free(in->ctx);
    augur_free(in->regfile);
    augur_free(in->arrfile);
    augur_free(in->counts);
    for (unsigned t = 0; in->bp && t < in->nthreads; t++)
        augur_free(in->bp[t].mem);
    augur_free(in->bp);
    augur_free(in->mispredicts);
    wb_free_block_tables(&in->wb);
    augur_free(in->wb.site);
    augur_free(in->wb.site_node);
    augur_free(in->wb.node_instr);
    augur_free(in->wb.node_divergent);
    augur_free(in->wsh);
    augur_free(in->evbuf);
    augur_free(in->work);
    augur_free(in->garr);
    augur_free(in);
}

int augur_interp_subscribe(struct augur_interp *in, augur_event_fn *fn, void *ud)
{
    if (in->nsubs == INTERP_MAX_SUBS)
        return AUGUR_ELIMIT;
    in->subs[in->nsubs].fn = fn;
    in->subs[in->nsubs].ud = ud;
    in->nsubs++;
    return 0;
}

int augur_interp_set_param(struct augur_interp *in, const char *name, int64_t value,
                           struct augur_diag *diag)
{
    const struct augur_kernel_info *k = &in->kernel->u.kernel;
    int32_t s = find_sym(k, name);

    if (s < 0 || k->syms[s].kind != AUGUR_SYM_PARAM)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "'%s' is not a scalar parameter of kernel %s", name, k->name);
    if (k->syms[s].type == AUGUR_T_F32 || k->syms[s].type == AUGUR_T_F64) {
        in->init_regs[s].f = (double)value;
        return 0;
    }
    if (interp_norm(value, k->syms[s].type) != value)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "%" PRId64 " does not fit '%s' (%s)",
                              value, name, augur_type_name(k->syms[s].type));
    in->init_regs[s].i = value;
    return 0;
}

int augur_interp_set_round(struct augur_interp *in, int64_t round, struct augur_diag *diag)
{
    int64_t v;
    int rc;

    if (in->round_sym < 0)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "kernel %s has no parameter bound to the round",
                              in->kernel->u.kernel.name);
    rc = interp_round_value(in, round, &v, diag);
    if (!rc)
        in->init_regs[in->round_sym].i =
            interp_norm(v, in->kernel->u.kernel.syms[in->round_sym].type);
    return rc;
}

/* Operations an ops node stands for (every kind). */
static uint64_t ops_of(const struct augur_node *n)
{
    uint64_t s = 0;

    if (n->kind != AUGUR_NODE_OPS)
        return 0;
    for (uint32_t i = 0; i < n->u.ops.n; i++)
        s += n->u.ops.v[i].count * n->u.ops.v[i].lanes;
    return s;
}

static void finish_stats(struct augur_interp *in)
{
    for (unsigned t = 0; t < in->nthreads; t++) {
        const uint64_t *cnt = in->counts + (size_t)t * (in->nnodes + 1);
        uint64_t ops = 0;

        for (uint32_t i = 0; i < in->nnodes; i++) {
            uint64_t o = ops_of(in->skel->nodes[in->kernel->id + i]);

            if (o)
                ops += o * cnt[i + 1];
        }
        in->work[t].ops = ops;
    }
    in->stats.steps = in->steps;
    in->stats.imbalance =
        in->phase_means > 0 ? (double)in->stats.critical_events / in->phase_means : 0;
}

int augur_interp_run(struct augur_interp *in, struct augur_diag *diag)
{
    struct ctx *m;
    int rc;

    in->err = 0;
    in->diag = diag;
    in->level_stores = 0;
    free_instances(in);
    in->heap_cur = in->layout_heap0;
    in->map_cur = in->layout_map0;
    for (uint32_t a = 0; a < in->narrays; a++)
        if (in->ainfo[a].kind != ARR_GLOBAL) {
            memset(&in->garr[a], 0, sizeof(in->garr[a]));
            in->garr[a].esize = in->ainfo[a].esize;
        }
    in->team_active = false;
    in->team_size = 1;
    in->nwsh = 0;
    if (in->kernel->u.kernel.cuda) {
        rc = run_cuda(in);
    } else {
        m = &in->ctx[0];
        memcpy(m->r, in->init_regs, in->nregs * sizeof(union augur_value));
        memcpy(m->arr, in->garr, in->narrays * sizeof(struct rt_arr));
        m->pc = 0;
        m->state = CTX_RUN;
        m->tid = 0;
        m->simthread = 0;
        m->cnt = in->counts;
        m->depth = 0;
        m->nws = 0;
        m->wsseq = 0;
        m->warp = 0;
        m->lane = 0;
        for (unsigned t = 1; t < in->nctx; t++)
            in->ctx[t].state = CTX_DONE;
        rc = run_cpu(in);
    }
    interp_flush(in);
    in->stats.runs++;
    finish_stats(in);
    in->diag = NULL;
    return rc;
}

int augur_interp_run_rounds(struct augur_interp *in, uint32_t max_rounds, uint32_t *nrounds,
                            struct augur_diag *diag)
{
    bool level = false;
    uint32_t r;
    int rc = 0;

    for (uint32_t a = 0; a < in->narrays; a++)
        level |= in->ainfo[a].is_level && in->ainfo[a].data;
    if (in->round_sym < 0 || !level)
        return augur_diag_set(
            diag, AUGUR_EINVAL, NULL, 0, 0,
            "kernel %s has no round parameter and bfs.level array to run rounds of",
            in->kernel->u.kernel.name);
    if (max_rounds == 0) {
        double n = 0;

        in->src.scalar(in->src.ud, "n", in->nthreads, 0, &n, NULL);
        max_rounds = n + 1 > UINT32_MAX ? UINT32_MAX : (uint32_t)n + 1;
    }
    interp_levels_for_round(in, 1);
    for (r = 1; r <= max_rounds; r++) {
        rc = augur_interp_set_round(in, r, diag);
        if (rc)
            break;
        rc = augur_interp_run(in, diag);
        if (rc || in->level_stores == 0)
            break;
    }
    *nrounds = r > max_rounds ? max_rounds : r;
    return rc;
}

void augur_interp_reset_data(struct augur_interp *in)
{
    for (uint32_t a = 0; a < in->narrays; a++)
        if (in->ainfo[a].orig)
            memcpy(in->ainfo[a].data, in->ainfo[a].orig, in->ainfo[a].extent * in->ainfo[a].esize);
}

const struct augur_node *augur_interp_kernel(const struct augur_interp *in)
{
    return in->kernel;
}

unsigned augur_interp_narrays(const struct augur_interp *in)
{
    return in->narrays;
}

void augur_interp_array(const struct augur_interp *in, unsigned a, struct augur_interp_array *out)
{
    const struct arr_info *I = &in->ainfo[a];

    memset(out, 0, sizeof(*out));
    if (a >= in->narrays)
        return;
    out->name = in->kernel->u.kernel.arrays[a].name;
    out->target = I->kind == ARR_GLOBAL ? I->target : NULL;
    out->elem_size = I->esize;
    out->has_data = I->needs_data;
    if (I->kind == ARR_GLOBAL) {
        out->base = I->base;
        out->extent = I->extent;
    } else if (in->nctx && in->ctx[0].arr[a].owner) {
        out->base = in->ctx[0].arr[a].base;
        out->extent = in->ctx[0].arr[a].extent;
    }
}

const void *augur_interp_array_data(const struct augur_interp *in, unsigned a, uint64_t *extent)
{
    if (a >= in->narrays || in->ainfo[a].kind != ARR_GLOBAL || !in->ainfo[a].data) {
        *extent = 0;
        return NULL;
    }
    *extent = in->ainfo[a].extent;
    return in->ainfo[a].data;
}

unsigned augur_interp_naccesses(const struct augur_interp *in)
{
    return in->naccesses;
}

uint32_t augur_interp_access_node(const struct augur_interp *in, unsigned acc)
{
    return acc < in->naccesses ? in->acc_node[acc] : UINT32_MAX;
}

int augur_interp_node_access(const struct augur_interp *in, uint32_t node)
{
    if (node < in->kernel->id || node - in->kernel->id >= in->nnodes)
        return -1;
    return in->node_acc[node - in->kernel->id];
}

const int32_t *augur_interp_node_access_map(const struct augur_interp *in)
{
    return in->node_acc;
}

unsigned augur_interp_nthreads(const struct augur_interp *in)
{
    return in->nthreads;
}

const struct augur_thread_work *augur_interp_thread_work(const struct augur_interp *in)
{
    return in->work;
}

void augur_interp_unsubscribe_all(struct augur_interp *in)
{
    in->nsubs = 0;
}

const struct augur_interp_stats *augur_interp_stats(const struct augur_interp *in)
{
    return &in->stats;
}

void augur_interp_predict_branches(struct augur_interp *in, bool on)
{
    if (in)
        in->bp_off = !on;
}

void augur_interp_reset_stats(struct augur_interp *in)
{
    memset(in->counts, 0, (size_t)in->nthreads * (in->nnodes + 1) * sizeof(uint64_t));
    /*
     * The counts are a fresh predictor's, one that never saw this call's
     * outcomes: how much of a replay a core learns is the calibrated
     * branch_learned curve's to say (docs/models.md).
     */
    if (in->mispredicts) {
        memset(in->mispredicts, 0, (in->nnodes + 1) * sizeof(uint64_t));
        for (unsigned t = 0; t < in->nthreads; t++)
            bp_reset(&in->bps, &in->bp[t]);
    }
    if (in->wb.node_instr) {
        memset(in->wb.node_instr, 0, (in->nnodes + 1) * sizeof(*in->wb.node_instr));
        memset(in->wb.node_divergent, 0, (in->nnodes + 1) * sizeof(*in->wb.node_divergent));
    }
    memset(in->work, 0, in->nthreads * sizeof(*in->work));
    memset(&in->stats, 0, sizeof(in->stats));
    in->stats.nthreads = in->nthreads;
    in->stats.thread = in->work;
    in->steps = 0;
    in->phase_means = 0;
    for (unsigned t = 0; t < in->nctx; t++)
        in->ctx[t].clock = in->ctx[t].phase_start = 0;
}

uint64_t augur_interp_node_count(const struct augur_interp *in, uint32_t node, int thread)
{
    uint64_t s = 0;
    uint32_t slot;

    if (node < in->kernel->id || node - in->kernel->id >= in->nnodes)
        return 0;
    slot = node - in->kernel->id + 1;
    if (thread >= 0)
        return (unsigned)thread < in->nthreads
                   ? in->counts[(size_t)thread * (in->nnodes + 1) + slot]
                   : 0;
    for (unsigned t = 0; t < in->nthreads; t++)
        s += in->counts[(size_t)t * (in->nnodes + 1) + slot];
    return s;
}

int64_t augur_interp_node_mispredicts(const struct augur_interp *in, uint32_t node)
{
    if (!in->mispredicts)
        return -1;
    if (node < in->kernel->id || node - in->kernel->id >= in->nnodes)
        return 0;
    return (int64_t)in->mispredicts[node - in->kernel->id];
}

int64_t augur_interp_node_warp_branches(const struct augur_interp *in, uint32_t node,
                                        uint64_t *divergent)
{
    *divergent = 0;
    if (!in->kernel->u.kernel.cuda)
        return -1;
    if (!in->wb.node_instr || node < in->kernel->id || node - in->kernel->id >= in->nnodes)
        return 0;
    *divergent = in->wb.node_divergent[node - in->kernel->id];
    return (int64_t)in->wb.node_instr[node - in->kernel->id];
}

void augur_interp_op_totals(const struct augur_interp *in, uint64_t *out)
{
    memset(out, 0, AUGUR_OPK_COUNT * sizeof(*out));
    for (uint32_t i = 0; i < in->nnodes; i++) {
        const struct augur_node *n = in->skel->nodes[in->kernel->id + i];
        uint64_t cnt;

        if (n->kind != AUGUR_NODE_OPS)
            continue;
        cnt = augur_interp_node_count(in, n->id, -1);
        for (uint32_t j = 0; j < n->u.ops.n; j++)
            out[n->u.ops.v[j].op] += cnt * n->u.ops.v[j].count * n->u.ops.v[j].lanes;
    }
}
