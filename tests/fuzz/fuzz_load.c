/*
 * fuzz_load.c - libFuzzer target for the dataset loader's file path
 * (module: data): format detection, gzip decoding and the TetGen partner
 * lookup. The first byte picks a file name; the rest is the file. Each input
 * is loaded as written and gzip-compressed (name.gz): both must give the same
 * dataset or the same error, and a failure must say what.
 * A name of .node or .ele splits the rest in two at the first NUL byte or
 * "--ele--" line, and the mesh is loaded from either file of the pair.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "augur/base.h"
#include "augur/data.h"
#include "fuzz/fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the file is called: the first byte's low bits pick one. */
static const char *const names[] = { "f.mtx", "f.el",    "f.gr",   "f.graph", "f.msh", "f.mesh",
                                     "f.txt", "f",       "f.csv",  "f.node",  "f.ele", "f.MTX",
                                     "f.tsv", "f.edges", "f.node", "f.ele" };

/* data[size] as a gzip stream, in a buffer the caller frees; aborts on failure. */
static unsigned char *gzip(const uint8_t *data, size_t size, size_t *out_len)
{
    z_stream z;
    uLong cap;
    unsigned char *out;

    memset(&z, 0, sizeof(z));
    if (deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        abort();
    cap = deflateBound(&z, (uLong)size) + 32;
    out = malloc(cap);
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)size;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END)
        abort();
    *out_len = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

static int load(const char *path, struct augur_dataset **ds, struct augur_diag *diag)
{
    struct augur_load_opts opts = { 0 };
    int rc;

    opts.max_bytes = (size_t)1 << 20;
    augur_diag_init(diag);
    *ds = NULL;
    rc = augur_dataset_load(path, &opts, ds, diag);
    if (rc != 0 && (diag->code == 0 || diag->msg[0] == '\0' || *ds != NULL))
        __builtin_trap(); /* a failure must say what */
    if (rc == 0 && *ds == NULL)
        __builtin_trap();
    return rc;
}

/* The same dataset, or both failed with the same code. */
static void same(int rc1, const struct augur_dataset *a, const struct augur_diag *d1, int rc2,
                 const struct augur_dataset *b, const struct augur_diag *d2)
{
    if (rc1 != rc2)
        __builtin_trap();
    if (rc1 != 0) {
        if (d1->code != d2->code)
            __builtin_trap();
        return;
    }
    if (a->format != b->format || a->coo.nrows != b->coo.nrows || a->coo.ncols != b->coo.ncols ||
        a->coo.nnz != b->coo.nnz || a->symmetry != b->symmetry)
        __builtin_trap();
    for (uint64_t k = 0; k < a->coo.nnz; k++)
        if (a->coo.row[k] != b->coo.row[k] || a->coo.col[k] != b->coo.col[k])
            __builtin_trap();
}

/* Loads name as written and compressed, and checks they agree. */
static void one_file(const char *name, const uint8_t *data, size_t size)
{
    struct augur_dataset *a = NULL, *b = NULL;
    struct augur_diag d1, d2;
    char path[512], gzname[64];
    unsigned char *z;
    size_t zlen;
    int rc1, rc2;

    fuzz_tmp_write(name, data, size, path);
    rc1 = load(path, &a, &d1);
    snprintf(gzname, sizeof(gzname), "%s.gz", name);
    z = gzip(data, size, &zlen);
    fuzz_tmp_remove(name);
    fuzz_tmp_write(gzname, z, zlen, path);
    free(z);
    rc2 = load(path, &b, &d2);
    fuzz_tmp_remove(gzname);
    /* Already gzip: compressing it again makes a different (binary) file. */
    if (!(size >= 2 && data[0] == 0x1f && data[1] == 0x8b))
        same(rc1, a, &d1, rc2, b, &d2);
    augur_dataset_free(a);
    augur_dataset_free(b);
}

/* A TetGen pair: .node and .ele, one of them compressed (bit 4 of mode). */
static void tetgen_pair(unsigned mode, const uint8_t *data, size_t size)
{
    static const char marker[] = "--ele--\n";
    const uint8_t *nul = memchr(data, 0, size);
    size_t nlen = size, estart = size, zlen;
    struct augur_dataset *a = NULL, *b = NULL;
    struct augur_diag d1, d2;
    char path[512], stem[512];
    unsigned char *z;
    int rc1, rc2;

    if (nul) {
        nlen = (size_t)(nul - data);
        estart = nlen + 1;
    } else {
        for (size_t i = 0; i + sizeof(marker) - 1 <= size; i++) {
            if ((i == 0 || data[i - 1] == '\n') &&
                memcmp(data + i, marker, sizeof(marker) - 1) == 0) {
                nlen = i;
                estart = i + sizeof(marker) - 1;
                break;
            }
        }
    }
    fuzz_tmp_write("t.node", data, nlen, path);
    if (mode & 16) {
        z = gzip(data + estart, size - estart, &zlen);
        fuzz_tmp_write("t.ele.gz", z, zlen, path);
        free(z);
    } else {
        fuzz_tmp_write("t.ele", data + estart, size - estart, path);
    }
    snprintf(stem, sizeof(stem), "%s/t.node", fuzz_tmp());
    rc1 = load(stem, &a, &d1);
    snprintf(stem, sizeof(stem), "%s/t.ele%s", fuzz_tmp(), mode & 16 ? ".gz" : "");
    rc2 = load(stem, &b, &d2);
    same(rc1, a, &d1, rc2, b, &d2);
    if (rc1 == 0 && (a->format != AUGUR_FORMAT_TETGEN || a->coo.nrows != a->ncells))
        __builtin_trap();
    augur_dataset_free(a);
    augur_dataset_free(b);
    fuzz_tmp_remove("t.node");
    fuzz_tmp_remove("t.ele");
    fuzz_tmp_remove("t.ele.gz");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *name;
    unsigned mode;

    if (size == 0)
        return 0;
    mode = data[0];
    name = names[mode & 15];
    data++;
    size--;
    if (strstr(name, ".node") || strstr(name, ".ele"))
        tetgen_pair(mode, data, size);
    else
        one_file(name, data, size);
    return 0;
}
