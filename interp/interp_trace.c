/*
 * interp_trace.c - the interpreter's binary event trace: a header
 * naming the kernel, its arrays and access nodes, then one 24-byte record
 * per event (module: interp). docs/interpreter.md gives the format.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "interp_int.h"

#define REC_BYTES 24u

struct trace_writer {
    struct augur_out out; /* a temporary file until the trace is complete */
    FILE *fp;             /* out.fp */
    char *path;
    uint64_t nevents;
    long count_at; /* file offset of the event count */
    bool failed;
    uint8_t buf[INTERP_EVCAP * REC_BYTES];
};

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void buf16(struct augur_buf *b, uint16_t v)
{
    uint8_t x[2];

    put16(x, v);
    augur_buf_add(b, x, 2);
}

static void buf32(struct augur_buf *b, uint32_t v)
{
    uint8_t x[4];

    put32(x, v);
    augur_buf_add(b, x, 4);
}

static void buf64(struct augur_buf *b, uint64_t v)
{
    uint8_t x[8];

    put64(x, v);
    augur_buf_add(b, x, 8);
}

static void bufstr(struct augur_buf *b, const char *s)
{
    size_t n = strlen(s);

    if (n > 0xffff)
        n = 0xffff;
    buf16(b, (uint16_t)n);
    augur_buf_add(b, s, n);
}

static void on_events(void *ud, const struct augur_event *ev, size_t n)
{
    struct trace_writer *t = ud;
    size_t k = 0;

    if (t->failed)
        return;
    for (size_t i = 0; i < n; i++) {
        uint8_t *p = t->buf + k * REC_BYTES;

        put64(p, ev[i].addr);
        put32(p + 8, ev[i].node);
        put32(p + 12, ev[i].warp);
        put16(p + 16, ev[i].thread);
        put16(p + 18, ev[i].size);
        put16(p + 20, ev[i].array);
        p[22] = ev[i].lane;
        p[23] = ev[i].flags;
        if (++k == INTERP_EVCAP) {
            if (fwrite(t->buf, k * REC_BYTES, 1, t->fp) != 1)
                t->failed = true;
            k = 0;
        }
    }
    if (k && fwrite(t->buf, k * REC_BYTES, 1, t->fp) != 1)
        t->failed = true;
    t->nevents += n;
}

int augur_interp_trace_open(struct augur_interp *in, const char *path, struct augur_diag *diag)
{
    const struct augur_kernel_info *k = &in->kernel->u.kernel;
    struct trace_writer *t;
    struct augur_buf h;
    int rc;

    if (in->trace)
        return augur_diag_set(diag, AUGUR_EINVAL, path, 0, 0, "a trace is already open");
    if (in->nsubs == INTERP_MAX_SUBS)
        return augur_diag_set(diag, AUGUR_ELIMIT, path, 0, 0, "too many subscribers");
    t = augur_calloc(1, sizeof(*t));
    rc = augur_out_open(&t->out, path, diag);
    if (rc) {
        augur_free(t);
        return rc;
    }
    if (!augur_out_is_file(&t->out)) {
        augur_out_abort(&t->out);
        augur_free(t);
        return augur_diag_set(diag, AUGUR_EINVAL, path, 0, 0,
                              "a trace is written to a regular file (its event count is filled "
                              "in at the end), not to a device, a FIFO or standard output");
    }
    t->fp = t->out.fp;
    t->path = augur_strdup(path);
    augur_buf_init(&h);
    augur_buf_add(&h, AUGUR_TRACE_MAGIC, 8);
    buf32(&h, AUGUR_TRACE_VERSION);
    buf32(&h, 0); /* header bytes, set below */
    buf32(&h, REC_BYTES);
    buf32(&h, in->narrays);
    buf32(&h, in->naccesses);
    buf32(&h, in->nthreads);
    t->count_at = (long)h.len;
    buf64(&h, 0); /* events, written when the trace is closed */
    bufstr(&h, k->name);
    for (uint32_t a = 0; a < in->narrays; a++) {
        struct augur_interp_array ia;

        augur_interp_array(in, a, &ia);
        buf64(&h, ia.base);
        buf64(&h, ia.extent);
        buf32(&h, ia.elem_size);
        bufstr(&h, ia.name);
    }
    for (uint32_t i = 0; i < in->naccesses; i++) {
        const struct augur_node *n = in->skel->nodes[in->acc_node[i]];

        buf32(&h, n->id);
        buf32(&h, n->loc.line);
        buf32(&h, n->loc.col);
        buf16(&h, (uint16_t)n->u.access.array);
        buf16(&h, (uint16_t)n->u.access.mode);
    }
    put32((uint8_t *)h.s + 12, (uint32_t)h.len);
    if (fwrite(h.s, h.len, 1, t->fp) != 1) {
        augur_buf_release(&h);
        augur_out_abort(&t->out);
        augur_free(t->path);
        augur_free(t);
        return augur_diag_set(diag, AUGUR_EIO, path, 0, 0, "cannot write the trace");
    }
    augur_buf_release(&h);
    rc = augur_interp_subscribe(in, on_events, t);
    if (rc) {
        augur_out_abort(&t->out);
        augur_free(t->path);
        augur_free(t);
        return rc;
    }
    in->trace = t;
    return 0;
}

/* Frees a trace writer; a trace that was not closed is removed (never left half-written). */
void interp_trace_free(struct trace_writer *t)
{
    if (!t)
        return;
    if (t->fp)
        augur_out_abort(&t->out);
    augur_free(t->path);
    augur_free(t);
}

int augur_interp_trace_close(struct augur_interp *in, struct augur_diag *diag)
{
    struct trace_writer *t = in->trace;
    uint8_t x[8];
    int rc = 0;

    if (!t)
        return 0;
    interp_flush(in);
    put64(x, t->nevents);
    if (t->failed || fseek(t->fp, t->count_at, SEEK_SET) != 0 || fwrite(x, 8, 1, t->fp) != 1) {
        rc = augur_diag_set(diag, AUGUR_EIO, t->path, 0, 0, "cannot write the trace");
        augur_out_abort(&t->out);
    } else {
        rc = augur_out_commit(&t->out, diag);
    }
    t->fp = NULL;
    /* stop sending events to it */
    for (unsigned i = 0; i < in->nsubs; i++)
        if (in->subs[i].ud == t) {
            in->subs[i] = in->subs[--in->nsubs];
            break;
        }
    in->trace = NULL;
    interp_trace_free(t);
    return rc;
}
