/*
 * t_mtx.c - tests of the Matrix Market reader and writer (module: data):
 * every shared dataset against the manifest, gzip, round trips, bad input.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "augur/augur.h"
#include "tap.h"

#define SYM  AUGUR_SYM_SYMMETRIC
#define GEN  AUGUR_SYM_GENERAL
#define PAT  AUGUR_FIELD_PATTERN
#define REAL AUGUR_FIELD_REAL

/* /work/shared/datasets/MANIFEST.md, "Matrix Market files": rows=cols, nnz stored / full. */
static const struct expect {
    const char *file;
    uint32_t n;
    uint64_t nnz, nnz_full;
    enum augur_symmetry sym;
    enum augur_field field;
} manifest[] = {
    { "road_usa_NY.mtx.gz", 264346, 365050, 730100, SYM, PAT },
    { "road_usa_BAY.mtx.gz", 321270, 397415, 794830, SYM, PAT },
    { "road_usa_COL.mtx.gz", 435666, 521200, 1042400, SYM, PAT },
    { "road_usa_FLA.mtx.gz", 1070376, 1343951, 2687902, SYM, PAT },
    { "road_usa_NE.mtx.gz", 1524453, 1934010, 3868020, SYM, PAT },
    { "walshaw_4elt.mtx", 15606, 45878, 91756, SYM, PAT },
    { "walshaw_fe_4elt2.mtx", 11143, 32818, 65636, SYM, PAT },
    { "walshaw_wing.mtx", 62032, 121544, 243088, SYM, PAT },
    { "ss_bcsstk16.mtx", 4884, 147631, 290378, SYM, REAL },
    { "ss_bcsstk13.mtx", 2003, 42943, 83883, SYM, REAL },
    { "ss_cryg2500.mtx", 2500, 12349, 12349, GEN, REAL },
    { "ss_zenios.mtx", 2873, 15032, 27191, SYM, REAL },
    { "ginkgo_ani4.mtx", 3081, 20971, 20971, GEN, REAL },
    { "ss_watt_2.mtx", 1856, 11550, 11550, GEN, REAL },
    { "ss_bayer10.mtx", 13436, 94926, 94926, GEN, REAL },
    { "ss_bcspwr10.mtx", 5300, 13571, 21842, SYM, PAT },
    { "ss_rajat01.mtx", 6833, 43250, 43250, GEN, PAT },
    { "ss_adder_dcop_05.mtx", 1813, 11097, 11097, GEN, REAL },
    { "snap_oregon1_010331.mtx", 10670, 22002, 44004, SYM, PAT },
    { "snap_email-Enron.mtx", 36692, 183831, 367662, SYM, PAT },
    { "snap_wiki-Vote.mtx", 8298, 103689, 103689, GEN, PAT },
    { "snap_email-Eu-core.mtx", 1005, 25571, 25571, GEN, PAT },
    { "snap_ego-Facebook.mtx", 4039, 88234, 176468, SYM, PAT },
    { "pgp_giantcompo.mtx", 10680, 24316, 48632, SYM, PAT },
    { "polblogs.mtx", 1490, 16715, 33430, SYM, PAT },
    { "newman_astro-ph.mtx", 16706, 121251, 242502, SYM, PAT },
    { "fb100_MIT8.mtx", 6440, 251252, 502504, SYM, PAT },
};
#define NMANIFEST (sizeof(manifest) / sizeof(manifest[0]))

/* Round trips skip the four largest road graphs to keep the test fast under ASan. */
static bool round_trip_worth(const char *name)
{
    return strncmp(name, "road_usa_", 9) != 0 || strcmp(name, "road_usa_NY.mtx.gz") == 0;
}

static char tmpdir[256];

static void path_in_tmp(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", tmpdir, name);
}

static bool coo_equal(const struct augur_dataset *a, const struct augur_dataset *b)
{
    const struct augur_coo *x = &a->coo, *y = &b->coo;

    if (x->nrows != y->nrows || x->ncols != y->ncols || x->nnz != y->nnz ||
        a->symmetry != b->symmetry || a->field != b->field || !x->val != !y->val)
        return false;
    if (x->nnz == 0)
        return true;
    if (memcmp(x->row, y->row, x->nnz * sizeof(uint32_t)) != 0 ||
        memcmp(x->col, y->col, x->nnz * sizeof(uint32_t)) != 0)
        return false;
    for (uint64_t k = 0; x->val && k < x->nnz; k++)
        if (x->val[k] != y->val[k])
            return false;
    return true;
}

/* load -> write_mtx -> load gives the same COO, and the file starts as documented. */
static void check_round_trip(const struct augur_dataset *ds, const char *name)
{
    char out[512], msg[600], head[1024];
    struct augur_dataset *back = NULL;
    struct augur_diag diag;
    FILE *fp;
    int rc;

    path_in_tmp(out, sizeof(out), "round.mtx");
    augur_diag_init(&diag);
    rc = augur_dataset_write_mtx(ds, out, &diag);
    snprintf(msg, sizeof(msg), "%s: write_mtx", name);
    if (!is_int(rc, 0, msg)) {
        diag("%s", diag.msg);
        return;
    }
    rc = augur_dataset_load(out, NULL, &back, &diag);
    snprintf(msg, sizeof(msg), "%s: written file loads", name);
    if (!is_int(rc, 0, msg)) {
        diag("%s:%u:%u: %s", diag.file, diag.line, diag.col, diag.msg);
        return;
    }
    snprintf(msg, sizeof(msg), "%s: round trip gives the same COO", name);
    ok(coo_equal(ds, back), msg);
    fp = fopen(out, "r");
    head[0] = '\0';
    if (fp) {
        size_t n = fread(head, 1, sizeof(head) - 1, fp);

        head[n] = '\0';
        fclose(fp);
    }
    snprintf(msg, sizeof(msg), "%s: banner and source comment", name);
    {
        char want[1024];

        snprintf(want, sizeof(want),
                 "%%%%MatrixMarket matrix coordinate %s %s\n"
                 "%% written by augur from %s\n",
                 augur_field_name(ds->field), augur_symmetry_name(ds->symmetry), ds->path);
        ok(strncmp(head, want, strlen(want)) == 0, msg);
    }
    augur_dataset_free(back);
    unlink(out);
}

static void test_manifest(const char *dir)
{
    bool seen[NMANIFEST] = { false };
    struct dirent *de;
    DIR *d = opendir(dir);
    int nfiles = 0;

    if (!d) {
        skip("no dataset folder", "manifest datasets");
        return;
    }
    while ((de = readdir(d)) != NULL) {
        const char *name = de->d_name;
        size_t n = strlen(name);
        char path[2048], msg[600];
        const struct expect *e = NULL;
        struct augur_dataset *ds = NULL;
        struct augur_diag diag;
        int rc;

        if (!(n > 4 && strcmp(name + n - 4, ".mtx") == 0) &&
            !(n > 7 && strcmp(name + n - 7, ".mtx.gz") == 0))
            continue;
        nfiles++;
        for (size_t i = 0; i < NMANIFEST; i++) {
            if (strcmp(manifest[i].file, name) == 0) {
                e = &manifest[i];
                seen[i] = true;
            }
        }
        snprintf(msg, sizeof(msg), "%s is in the manifest table", name);
        if (!ok(e != NULL, msg))
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, name);
        augur_diag_init(&diag);
        rc = augur_dataset_load(path, NULL, &ds, &diag);
        snprintf(msg, sizeof(msg), "%s loads", name);
        if (!is_int(rc, 0, msg)) {
            diag("%s:%u:%u: %s", diag.file, diag.line, diag.col, diag.msg);
            continue;
        }
        snprintf(msg, sizeof(msg), "%s: format, rows, cols", name);
        ok(ds->format == AUGUR_FORMAT_MTX && ds->coo.nrows == e->n && ds->coo.ncols == e->n, msg);
        snprintf(msg, sizeof(msg), "%s: nnz stored", name);
        is_int(ds->coo.nnz, e->nnz, msg);
        snprintf(msg, sizeof(msg), "%s: nnz full", name);
        is_int(augur_dataset_nnz_full(ds), e->nnz_full, msg);
        snprintf(msg, sizeof(msg), "%s: symmetry %s, field %s", name, augur_symmetry_name(e->sym),
                 augur_field_name(e->field));
        ok(ds->symmetry == e->sym && ds->field == e->field &&
               (ds->coo.val == NULL) == (e->field == PAT),
           msg);
        snprintf(msg, sizeof(msg), "%s: entries read, no duplicates, gzip flag", name);
        ok(ds->nentries_read == e->nnz && ds->nduplicates == 0 &&
               ds->compressed == (strstr(name, ".gz") != NULL) && ds->bytes > 0,
           msg);
        if (round_trip_worth(name))
            check_round_trip(ds, name);
        augur_dataset_free(ds);
    }
    closedir(d);
    is_int(nfiles, NMANIFEST, "as many .mtx files as the manifest lists");
    for (size_t i = 0; i < NMANIFEST; i++) {
        if (!seen[i]) {
            char msg[300];

            snprintf(msg, sizeof(msg), "%s is present", manifest[i].file);
            ok(false, msg);
        }
    }
}

/* A gzip file loads exactly as its uncompressed text does; half of one is an error. */
static void test_gzip(const char *dir)
{
    char gz[2048], plain[512], half[512];
    struct augur_buf raw, text;
    struct augur_dataset *a = NULL, *b = NULL;
    struct augur_diag diag;
    bool compressed = false;
    int rc;

    snprintf(gz, sizeof(gz), "%s/road_usa_NY.mtx.gz", dir);
    augur_buf_init(&raw);
    augur_buf_init(&text);
    augur_diag_init(&diag);
    if (access(gz, R_OK) != 0) {
        skip("road_usa_NY.mtx.gz missing", "gzip");
        return;
    }
    rc = augur_file_read(gz, 0, &text, &compressed, &diag);
    ok(rc == 0 && compressed, "inflate road_usa_NY.mtx.gz");
    path_in_tmp(plain, sizeof(plain), "road_usa_NY.mtx");
    rc = augur_file_write(plain, text.s, text.len, &diag);
    is_int(rc, 0, "write the uncompressed copy");
    rc = augur_dataset_load(gz, NULL, &a, &diag);
    is_int(rc, 0, "load the gzip file");
    rc = augur_dataset_load(plain, NULL, &b, &diag);
    is_int(rc, 0, "load the uncompressed copy");
    if (a && b) {
        ok(a->compressed && !b->compressed, "compressed flags");
        is_int(a->bytes, b->bytes, "same text size");
        ok(coo_equal(a, b), "gzip and uncompressed give the same COO");
    }
    augur_dataset_free(a);
    augur_dataset_free(b);
    unlink(plain);

    /* The first half of the compressed bytes: an unfinished gzip stream. */
    {
        FILE *fp = fopen(gz, "rb");
        size_t n;

        augur_buf_reserve(&raw, 8 << 20);
        n = fp ? fread(raw.s, 1, raw.cap - 1, fp) : 0;
        if (fp)
            fclose(fp);
        path_in_tmp(half, sizeof(half), "half.mtx.gz");
        rc = augur_file_write(half, raw.s, n / 2, &diag);
        is_int(rc, 0, "write half of the gzip file");
        a = NULL;
        augur_diag_init(&diag);
        rc = augur_dataset_load(half, NULL, &a, &diag);
        ok(rc == AUGUR_ETRUNC || rc == AUGUR_EPARSE, "half a gzip file is an error");
        ok(a == NULL && strcmp(diag.file, half) == 0 && diag.msg[0], "the error names the file");
        diag("%s: %s", diag.file, diag.msg);
        unlink(half);
    }
    augur_buf_release(&raw);
    augur_buf_release(&text);
}

/* ---- bad input ------------------------------------------------------------ */

static struct augur_dataset *parse_mtx(const char *text, size_t len, int *rc,
                                       struct augur_diag *diag)
{
    struct augur_load_opts opts = { 0 };
    struct augur_dataset *ds = NULL;

    opts.format = AUGUR_FORMAT_MTX;
    augur_diag_init(diag);
    *rc = augur_dataset_parse(text, len, "bad.mtx", &opts, &ds, diag);
    return ds;
}

/* text must fail with code at line:col (col 0: none) and a message holding want. */
static void bad_n(const char *name, const char *text, size_t len, int code, uint32_t line,
                  uint32_t col, const char *want)
{
    struct augur_diag diag;
    struct augur_dataset *ds;
    int rc;
    char msg[300];

    ds = parse_mtx(text, len, &rc, &diag);
    snprintf(msg, sizeof(msg), "%s: %s", name, augur_err_name(code));
    is_int(rc, code, msg);
    snprintf(msg, sizeof(msg), "%s: at line %u col %u", name, line, col);
    if (!ok(diag.line == line && diag.col == col && strcmp(diag.file, "bad.mtx") == 0, msg))
        diag("got %s:%u:%u", diag.file, diag.line, diag.col);
    snprintf(msg, sizeof(msg), "%s: message says '%s'", name, want);
    if (!ok(strstr(diag.msg, want) != NULL, msg))
        diag("got '%s'", diag.msg);
    ok(ds == NULL, "no dataset on failure");
    augur_dataset_free(ds);
}

static void bad(const char *name, const char *text, int code, uint32_t line, uint32_t col,
                const char *want)
{
    bad_n(name, text, strlen(text), code, line, col, want);
}

#define PG "%%MatrixMarket matrix coordinate pattern general\n"
#define RG "%%MatrixMarket matrix coordinate real general\n"
#define BN "%%MatrixMarket matrix "

static void test_bad_input(void)
{
    static const char garbage[] = "\x7f"
                                  "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0\x01\0\0\0\xff\xfe";

    bad("fewer entries than the size line", PG "3 3 4\n1 1\n2 2\n3 3\n", AUGUR_ETRUNC, 2, 5,
        "truncated: expected 4 entries");
    bad("fewer entries, with a blank line", PG "3 3 3\n1 1\n\n2 2\n", AUGUR_ETRUNC, 5, 0,
        "truncated: expected 3 entries, found 2");
    bad("fewer entries, no final newline", PG "3 3 3\n1 1\n%\n2 2", AUGUR_ETRUNC, 5, 0, "found 2");
    bad("column index out of range", PG "3 4 2\n1 1\n2 5\n", AUGUR_ERANGE, 4, 3,
        "column index 5 is out of range");
    bad("row index out of range", PG "3 4 2\n1 1\n4 1\n", AUGUR_ERANGE, 4, 1,
        "row index 4 is out of range");
    bad("zero index", PG "3 3 2\n1 1\n0 1\n", AUGUR_ERANGE, 4, 1, "row index 0");
    bad("zero column index", RG "3 3 1\n  2   0 1.0\n", AUGUR_ERANGE, 3, 7, "column index 0");
    bad("negative index", PG "3 3 2\n1 1\n1 -2\n", AUGUR_ERANGE, 4, 3, "must not be negative");
    bad("more entries than the size line", PG "3 3 2\n1 1\n2 2\n3 3\n", AUGUR_EPARSE, 5, 0,
        "more entries than the 2");
    bad("non-numeric index", PG "3 3 1\n1 x\n", AUGUR_EPARSE, 3, 3,
        "expected column index, found 'x'");
    bad("index with trailing junk", PG "3 3 1\n1 2x\n", AUGUR_EPARSE, 3, 3,
        "expected column index, found '2x'");
    bad("non-numeric value", RG "3 3 2\n1 1 1\n2 2 abc\n", AUGUR_EPARSE, 4, 5,
        "expected value, found 'abc'");
    bad("infinite value", RG "3 3 1\n1 1 inf\n", AUGUR_ERANGE, 3, 5, "not a finite number");
    bad("missing value", RG "3 3 2\n1 1 1\n2 2\n", AUGUR_EPARSE, 4, 4,
        "expected value, found end of line");
    bad("extra field in a pattern entry", PG "3 3 2\n1 1\n2 2 7\n", AUGUR_EPARSE, 4, 5,
        "extra field '7'");
    bad("extra field in a real entry", RG "3 3 1\n1 1 1.5 2\n", AUGUR_EPARSE, 3, 9,
        "extra field '2'");
    bad_n("embedded NUL byte", PG "3 3 1\n1 1\0\n", sizeof(PG "3 3 1\n1 1\0\n") - 1, AUGUR_EPARSE,
          3, 4, "NUL byte");
    bad("non-integer in an integer matrix", BN "coordinate integer general\n2 2 1\n1 1 1.5\n",
        AUGUR_EPARSE, 3, 5, "expected integer value, found '1.5'");
    bad("absurd size line", PG "1000000000000000 1000000000000000 1\n1 1\n", AUGUR_ERANGE, 2, 1,
        "must fit 32-bit indices");
    bad("columns beyond 32 bits", PG "% c\n3 4294967296 1\n1 1\n", AUGUR_ERANGE, 3, 1, "too large");
    bad("size overflowing 64 bits", PG "99999999999999999999 1 1\n1 1\n", AUGUR_ERANGE, 2, 1,
        "number of rows is too large");
    bad("size line too short", PG "3 3\n1 1\n", AUGUR_EPARSE, 2, 4,
        "expected number of entries, found end of line");
    bad("size line too long", PG "3 3 1 1\n1 1\n", AUGUR_EPARSE, 2, 7, "unexpected '1'");
    bad("missing size line", PG "% only comments\n\n", AUGUR_ETRUNC, 4, 1, "missing size line");
    bad("empty file", "", AUGUR_EPARSE, 1, 1, "empty file");
    bad("blank file", "\n  \n", AUGUR_EPARSE, 3, 1, "empty file");
    bad_n("binary garbage", garbage, sizeof(garbage) - 1, AUGUR_EPARSE, 1, 1,
          "not a Matrix Market file");
    bad("unknown banner", "%%MatrixMarkt matrix coordinate real general\n1 1 0\n", AUGUR_EPARSE, 1,
        1, "%%MatrixMarket banner");
    bad("comment before the banner", "% hello\n" PG "1 1 0\n", AUGUR_EPARSE, 1, 1,
        "not a Matrix Market file");
    bad("unknown object", "%%MatrixMarket vector coordinate real general\n", AUGUR_EFORMAT, 1, 16,
        "unsupported Matrix Market object 'vector'");
    bad("unknown format", BN "coord real general\n", AUGUR_EFORMAT, 1, 23,
        "unknown Matrix Market format 'coord'");
    bad("array format", BN "array real general\n2 2\n1\n2\n3\n4\n", AUGUR_EUNSUP, 1, 23,
        "'array' format is not supported");
    bad("unknown field", BN "coordinate float general\n", AUGUR_EFORMAT, 1, 34,
        "unknown Matrix Market field 'float'");
    bad("complex field", BN "coordinate complex general\n1 1 1\n1 1 1 0\n", AUGUR_EUNSUP, 1, 34,
        "'complex' field is not supported");
    bad("unknown symmetry", BN "coordinate real symmetrical\n", AUGUR_EFORMAT, 1, 39,
        "unknown Matrix Market symmetry 'symmetrical'");
    bad("hermitian symmetry", BN "COORDINATE REAL HERMITIAN\n", AUGUR_EUNSUP, 1, 39,
        "'HERMITIAN' symmetry is not supported");
    bad("banner cut short", BN "coordinate real\n", AUGUR_EPARSE, 1, 38, "expected the symmetry");
    bad("junk after the banner", BN "coordinate real general yes\n", AUGUR_EPARSE, 1, 47,
        "unexpected 'yes'");
    bad("skew-symmetric diagonal", BN "coordinate real skew-symmetric\n3 3 2\n2 1 1\n2 2 1\n",
        AUGUR_EPARSE, 4, 1, "diagonal entry (2, 2) in a skew-symmetric matrix");
    bad("symmetric but not square", BN "coordinate pattern symmetric\n3 4 1\n2 1\n", AUGUR_EPARSE,
        2, 1, "must be square");
}

/* Counts the largest single allocation, to prove that a huge header allocates nothing big. */
static size_t largest_request;

static void *counting_realloc(void *ud, void *ptr, size_t size)
{
    (void)ud;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    if (size > largest_request)
        largest_request = size;
    return realloc(ptr, size);
}

static void test_huge_counts(void)
{
    static const char text[] = PG "3 3 1000000000000000\n1 1\n2 2\n";
    static const char rows[] = PG "4294967295 4294967295 2\n4294967295 1\n1 4294967295\n";
    static const char wide[] = PG "16000000 16000000 2\n16000000 1\n1 16000000\n";
    struct augur_dataset *ds;
    struct augur_diag diag;
    int rc;

    largest_request = 0;
    augur_set_allocator(counting_realloc, NULL);
    ds = parse_mtx(text, sizeof(text) - 1, &rc, &diag);
    augur_set_allocator(NULL, NULL);
    is_int(rc, AUGUR_ETRUNC, "NNZ 10^15 in a tiny file: ETRUNC");
    ok(diag.line == 2 && diag.col == 5, "NNZ 10^15: names the count on the size line");
    ok(strstr(diag.msg, "expected 1000000000000000 entries") && strstr(diag.msg, "only 2 lines"),
       "NNZ 10^15: says how many lines follow");
    ok(ds == NULL && largest_request < 4096, "NNZ 10^15: nothing large was allocated");
    diag("largest allocation: %zu bytes", largest_request);

    /*
     * 2^32 - 1 rows fit the indices, but a 60-byte file announcing them would
     * make every consumer allocate gigabytes per row: refused at load.
     */
    ds = parse_mtx(rows, sizeof(rows) - 1, &rc, &diag);
    is_int(rc, AUGUR_ELIMIT, "2^32 - 1 rows in a tiny file: refused");
    ok(ds == NULL && strstr(diag.msg, "4294967295 rows or columns"), "the message says why");

    /* Many empty rows within the bound load, with no allocation sized by the rows. */
    largest_request = 0;
    augur_set_allocator(counting_realloc, NULL);
    ds = parse_mtx(wide, sizeof(wide) - 1, &rc, &diag);
    augur_set_allocator(NULL, NULL);
    is_int(rc, 0, "16 M rows, two entries: load");
    if (ds) {
        ok(ds->coo.nrows == 16000000 && ds->coo.nnz == 2 && ds->coo.row[0] == 0 &&
               ds->coo.col[0] == 15999999 && ds->coo.row[1] == 15999999 && ds->coo.col[1] == 0,
           "16 M rows: entries at the extreme indices, sorted");
        ok(largest_request < (1u << 20), "16 M rows: no allocation sized by the rows");
    }
    augur_dataset_free(ds);
}

/* ---- good input in odd shapes -------------------------------------------- */

static void test_good_input(void)
{
    static const char lenient[] = "%%matrixmarket MATRIX Coordinate Real SYMMETRIC\r\n"
                                  "% a comment\r\n"
                                  "\r\n"
                                  "   % an indented comment\n"
                                  "\n"
                                  "  3\t3   4  \r\n"
                                  "1 1 1\r\n"
                                  "\t3  1\t-2.5e0   \n"
                                  "\n"
                                  "2 3 12345678901234567890\n"
                                  "% between entries\n"
                                  "3 3 -.5\n"
                                  "\n% trailing comment\n\n";
    static const char dups[] = RG "3 3 5\n1 1 1.5\n2 2 1\n1 1 2.25\n3 1 1\n1 1 0.25\n";
    static const char pdups[] = PG "2 2 3\n2 1\n2 1\n1 2";
    static const char ints[] = "%%MatrixMarket matrix coordinate integer skew-symmetric\n"
                               "3 3 3\n2 1 7\n1 3 -4\n3 2 9223372036854775807\n";
    static const char empty[] = PG "0 0 0\n";
    struct augur_dataset *ds;
    struct augur_diag diag;
    int rc;

    ds = parse_mtx(lenient, sizeof(lenient) - 1, &rc, &diag);
    if (is_int(rc, 0, "case, comments, blank lines, CRLF and blanks are accepted") && ds) {
        const struct augur_coo *c = &ds->coo;

        ok(ds->symmetry == AUGUR_SYM_SYMMETRIC && ds->field == AUGUR_FIELD_REAL, "lenient: banner");
        ok(c->nnz == 4 && c->row[0] == 0 && c->col[0] == 0 && c->row[1] == 2 && c->col[1] == 0 &&
               c->row[2] == 2 && c->col[2] == 1 && c->row[3] == 2 && c->col[3] == 2,
           "lenient: entries sorted, the upper one mirrored");
        ok(c->val[0] == 1.0 && c->val[1] == -2.5 && c->val[2] == 12345678901234567890.0 &&
               c->val[3] == -0.5,
           "lenient: values (a 20-digit one rounded correctly)");
        is_int(ds->ndiagonal, 2, "lenient: diagonal entries");
    }
    augur_dataset_free(ds);

    ds = parse_mtx(dups, sizeof(dups) - 1, &rc, &diag);
    if (is_int(rc, 0, "duplicate entries load") && ds) {
        is_int(ds->coo.nnz, 3, "duplicates: merged to 3 entries");
        is_int(ds->nduplicates, 2, "duplicates: 2 merged");
        is_int(ds->nentries_read, 5, "duplicates: 5 read");
        ok(ds->coo.val[0] == 4.0 && ds->coo.val[1] == 1.0 && ds->coo.val[2] == 1.0,
           "duplicates: values summed");
    }
    augur_dataset_free(ds);

    ds = parse_mtx(pdups, sizeof(pdups) - 1, &rc, &diag);
    if (is_int(rc, 0, "pattern duplicates load (no final newline)") && ds)
        ok(ds->coo.nnz == 2 && ds->nduplicates == 1 && ds->coo.val == NULL && ds->coo.row[0] == 0 &&
               ds->coo.col[0] == 1 && ds->coo.row[1] == 1 && ds->coo.col[1] == 0,
           "pattern duplicates: one kept");
    augur_dataset_free(ds);

    ds = parse_mtx(ints, sizeof(ints) - 1, &rc, &diag);
    if (is_int(rc, 0, "integer skew-symmetric loads") && ds) {
        const struct augur_coo *c = &ds->coo;

        ok(ds->field == AUGUR_FIELD_INTEGER && ds->symmetry == AUGUR_SYM_SKEW && c->nnz == 3,
           "integer skew: banner and count");
        ok(c->row[0] == 1 && c->col[0] == 0 && c->val[0] == 7 && c->row[1] == 2 && c->col[1] == 0 &&
               c->val[1] == 4 && c->row[2] == 2 && c->col[2] == 1 &&
               c->val[2] == 9223372036854775807.0,
           "integer skew: the upper entry mirrored and negated");
        check_round_trip(ds, "integer skew-symmetric");
    }
    augur_dataset_free(ds);

    ds = parse_mtx(empty, sizeof(empty) - 1, &rc, &diag);
    if (is_int(rc, 0, "a 0 x 0 matrix loads") && ds) {
        ok(ds->coo.nnz == 0 && augur_dataset_nnz_full(ds) == 0, "0 x 0: no entries");
        check_round_trip(ds, "empty matrix");
    }
    augur_dataset_free(ds);
}

/* Values that need the exact slow path come back bit for bit. */
static void test_value_round_trip(void)
{
    static const char text[] =
        RG "1 8 8\n1 1 0.1\n1 2 -1.7976931348623157e308\n1 3 4.9406564584124654e-324\n"
           "1 4 2.2250738585072014e-308\n1 5 0.30000000000000004\n1 6 123456789012345678\n"
           "1 7 1e22\n1 8 9007199254740993\n";
    struct augur_dataset *ds;
    struct augur_diag diag;
    int rc;

    ds = parse_mtx(text, sizeof(text) - 1, &rc, &diag);
    if (is_int(rc, 0, "extreme values load") && ds) {
        const double *v = ds->coo.val;

        ok(v[0] == 0.1 && v[1] == -1.7976931348623157e308 && v[2] == 4.9406564584124654e-324 &&
               v[3] == 2.2250738585072014e-308 && v[4] == 0.30000000000000004 &&
               v[5] == 123456789012345678.0 && v[6] == 1e22 && v[7] == 9007199254740992.0,
           "extreme values are rounded correctly");
        check_round_trip(ds, "extreme values");
    } else {
        diag("%u:%u: %s", diag.line, diag.col, diag.msg);
    }
    augur_dataset_free(ds);
}

int main(void)
{
    const char *data = tap_datasets();
    const char *tmp = getenv("TMPDIR");
    char dir[1024];

    snprintf(tmpdir, sizeof(tmpdir), "%s/t_mtx.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmpdir)) {
        ok(false, "make a temporary folder");
        return tap_done();
    }
    test_bad_input();
    test_huge_counts();
    test_good_input();
    test_value_round_trip();
    if (data && *data) {
        snprintf(dir, sizeof(dir), "%s/mtx", data);
        test_manifest(dir);
        test_gzip(dir);
    } else {
        skip("AUGUR_DATASETS is not set", "shared datasets");
    }
    rmdir(tmpdir);
    return tap_done();
}
