/*
 * t_base.c - tests of the base module: errors, diagnostics, allocation hooks,
 * arena, vector, string buffer, file input (gzip) and atomic output.
 */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "augur/augur.h"
#include "tap.h"

/* ---- a counting, failing allocator --------------------------------------- */

struct counting {
    long live;    /* allocations not yet freed */
    long calls;   /* allocating calls so far */
    long fail_at; /* the allocating call that fails (0: none) */
};

static struct counting counter;

static void *counting_realloc(void *ud, void *ptr, size_t size)
{
    struct counting *c = ud;

    if (size == 0) {
        if (ptr)
            c->live--;
        free(ptr);
        return NULL;
    }
    if (++c->calls == c->fail_at)
        return NULL;
    if (!ptr)
        c->live++;
    return realloc(ptr, size);
}

static jmp_buf oom_jump;
static size_t oom_size;

static void oom_to_test(size_t size)
{
    oom_size = size;
    longjmp(oom_jump, 1);
}

static void test_errors(void)
{
    struct augur_diag d;
    char buf[256];

    is_str(augur_strerror(AUGUR_EPARSE), "cannot parse input", "strerror from the table");
    is_str(augur_err_name(AUGUR_ETRUNC), "ETRUNC", "error name from the table");
    is_str(augur_strerror(-9999), "unknown error", "unknown code");
    is_str(augur_strerror(0), "success", "zero is success");
    augur_diag_init(&d);
    is_int(augur_diag_set(&d, AUGUR_EPARSE, "a.mtx", 12, 7, "bad %s", "index"), AUGUR_EPARSE,
           "diag_set returns its code");
    augur_diag_format(&d, buf, sizeof(buf));
    is_str(buf, "a.mtx:12:7: bad index", "file:line:col: message");
    augur_diag_set(&d, AUGUR_EIO, "b.txt", 3, 0, "oops");
    augur_diag_format(&d, buf, sizeof(buf));
    is_str(buf, "b.txt:3: oops", "no column");
    augur_diag_set(&d, AUGUR_EIO, NULL, 0, 0, NULL);
    augur_diag_format(&d, buf, sizeof(buf));
    is_str(buf, "input/output error", "no file, default message");
    is_int(augur_diag_set(NULL, AUGUR_ERANGE, "x", 1, 1, "ignored"), AUGUR_ERANGE,
           "NULL diag is allowed");
}

static void test_alloc(void)
{
    struct augur_arena arena;
    volatile int reached = 0;
    size_t product = 0;

    counter = (struct counting){ 0, 0, 0 };
    augur_set_allocator(counting_realloc, &counter);
    {
        struct augur_vec v;
        struct augur_buf b;

        augur_vec_init(&v, sizeof(int));
        for (int i = 0; i < 1000; i++)
            *(int *)augur_vec_push(&v) = i;
        augur_buf_init(&b);
        augur_buf_printf(&b, "%d-%s", 42, "x");
        ok(counter.live > 0, "the hook sees allocations");
        augur_vec_release(&v);
        augur_buf_release(&b);
    }
    is_int(counter.live, 0, "every allocation was freed");

    /* Fail the 3rd allocation: the OOM handler runs instead of a NULL dereference. */
    counter = (struct counting){ 0, 0, 3 };
    augur_set_oom_handler(oom_to_test);
    augur_arena_init(&arena, 128);
    if (setjmp(oom_jump) == 0) {
        for (int i = 0; i < 100; i++)
            augur_arena_alloc(&arena, 100);
    } else {
        reached = 1;
    }
    ok(reached, "failing the 3rd allocation reaches the OOM handler");
    ok(oom_size >= 100, "the handler is told the size");
    augur_arena_release(&arena);
    is_int(counter.live, 0, "the arena freed what it had before the failure");

    /* An overflowing array size is out of memory, not a short buffer. */
    reached = 0;
    if (setjmp(oom_jump) == 0)
        augur_mallocarray(SIZE_MAX / 2, 4);
    else
        reached = 1;
    ok(reached, "n * size overflow goes to the OOM handler");
    ok(augur_mul_overflows(SIZE_MAX, 2, &product), "mul_overflows detects overflow");
    ok(!augur_mul_overflows(3, 5, &product) && product == 15, "mul_overflows multiplies");
    augur_set_oom_handler(NULL);
    augur_set_allocator(NULL, NULL);
}

/* augur_alloc_fail_nth: the N-th allocating call fails as the allocator would. */
static void test_alloc_fail_nth(void)
{
    static char *volatile p, *volatile q;
    volatile int reached = 0;

    /* Counting only: every allocating call counts, augur_free does not. */
    augur_alloc_fail_nth(UINT64_MAX);
    p = augur_malloc(8);
    p = augur_realloc(p, 64);
    q = augur_strdup("x");
    augur_free(q);
    augur_free(p);
    augur_free(augur_calloc(3, 4));
    is_int(augur_alloc_calls(), 4, "malloc, realloc, strdup, calloc count; free does not");

    /* The 2nd call from here fails: a realloc, whose block stays the caller's. */
    counter = (struct counting){ 0, 0, 0 };
    augur_set_allocator(counting_realloc, &counter);
    augur_set_oom_handler(oom_to_test);
    augur_alloc_fail_nth(2);
    is_int(augur_alloc_calls(), 0, "arming resets the count");
    q = augur_malloc(16);
    if (setjmp(oom_jump) == 0)
        p = augur_realloc(q, 1000);
    else
        reached = 1;
    ok(reached, "the 2nd call reaches the out-of-memory handler");
    is_int(oom_size, 1000, "the handler is told the size");
    is_int(counter.calls, 1, "the installed allocator never saw the failing call");
    augur_free(q);
    is_int(counter.live, 0, "the block a failed realloc kept is freed once");

    /* Only the N-th fails: later calls succeed (a handler that longjmps goes on). */
    p = augur_malloc(32);
    ok(p != NULL, "the 3rd call succeeds");
    augur_free(p);
    is_int(augur_alloc_calls(), 3, "the count goes on");
    augur_alloc_fail_nth(0);
    augur_free(augur_malloc(1));
    is_int(augur_alloc_calls(), 0, "disarmed: nothing counts");
    augur_set_oom_handler(NULL);
    augur_set_allocator(NULL, NULL);
}

static void test_arena(void)
{
    struct augur_arena a;
    char *s, *t;
    int *big;
    void *p;

    augur_arena_init(&a, 256);
    p = augur_arena_alloc(&a, 3);
    ok(((uintptr_t)p % _Alignof(max_align_t)) == 0, "arena memory is aligned");
    s = augur_arena_strdup(&a, "rowptr");
    t = augur_arena_strfmt(&a, "%s[%d]", s, 7);
    is_str(t, "rowptr[7]", "arena strfmt");
    big = augur_arena_alloc(&a, 10000 * sizeof(int));
    big[9999] = 5;
    ok(big[0] == 0 && big[9999] == 5, "a large object is zeroed and usable");
    is_str(s, "rowptr", "earlier strings survive a large allocation");
    ok(a.total >= 10000 * sizeof(int), "the arena counts its bytes");
    augur_arena_release(&a);
    ok(a.head == NULL && a.total == 0, "release empties the arena");
}

static void test_vec_buf(void)
{
    struct augur_vec v;
    struct augur_buf b;
    uint64_t *arr;
    size_t n;
    char *s;

    augur_vec_init(&v, sizeof(uint64_t));
    for (uint64_t i = 0; i < 100; i++)
        *(uint64_t *)augur_vec_push(&v) = i * i;
    augur_vec_append(&v, (uint64_t[]){ 7, 8 }, 2);
    is_int(v.len, 102, "vector length");
    is_int(AUGUR_VEC_AT(&v, uint64_t, 99), 9801, "vector element");
    arr = augur_vec_take(&v, &n);
    ok(n == 102 && arr[101] == 8 && v.len == 0 && v.data == NULL, "take hands the array over");
    augur_free(arr);

    augur_buf_init(&b);
    is_str(b.s, "", "a new buffer is the empty string");
    augur_buf_puts(&b, "x=");
    augur_buf_printf(&b, "%d", 12345);
    augur_buf_putc(&b, ';');
    is_str(b.s, "x=12345;", "buffer appends");
    augur_buf_reset(&b);
    is_int(b.len, 0, "reset empties");
    augur_buf_puts(&b, "kept");
    s = augur_buf_detach(&b, &n);
    ok(n == 4 && strcmp(s, "kept") == 0 && b.len == 0, "detach hands the string over");
    augur_free(s);
    augur_buf_release(&b);
}

static char tmpdir[256];

static void path_in_tmp(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", tmpdir, name);
}

static void write_gzip(const char *path, const char *text, size_t len)
{
    gzFile gz = gzopen(path, "wb");

    gzwrite(gz, text, (unsigned)len);
    gzclose(gz);
}

static void test_files(void)
{
    struct augur_buf b;
    struct augur_diag d;
    struct augur_out out;
    char plain[300], gz[300], cat[300], cut[300], dst[300];
    const char *text = "line one\nline two\n";
    bool compressed = false;
    FILE *fp;
    long size;
    char *bytes;

    augur_buf_init(&b);
    augur_diag_init(&d);
    path_in_tmp(plain, sizeof(plain), "plain.txt");
    path_in_tmp(gz, sizeof(gz), "text.gz");
    path_in_tmp(cat, sizeof(cat), "cat.gz");
    path_in_tmp(cut, sizeof(cut), "cut.gz");
    path_in_tmp(dst, sizeof(dst), "out.txt");

    is_int(augur_file_write(plain, text, strlen(text), &d), 0, "atomic write");
    is_int(augur_file_read(plain, 0, &b, &compressed, &d), 0, "read a plain file");
    ok(strcmp(b.s, text) == 0 && !compressed, "plain content, not compressed");

    write_gzip(gz, text, strlen(text));
    is_int(augur_file_read(gz, 0, &b, &compressed, &d), 0, "read a gzip file");
    ok(strcmp(b.s, text) == 0 && compressed, "gzip is inflated transparently");

    /* Two gzip members back to back read as one text. */
    fp = fopen(gz, "rb");
    fseek(fp, 0, SEEK_END);
    size = ftell(fp);
    rewind(fp);
    bytes = malloc((size_t)size);
    ok(fread(bytes, 1, (size_t)size, fp) == (size_t)size, "read the gzip bytes back");
    fclose(fp);
    fp = fopen(cat, "wb");
    fwrite(bytes, 1, (size_t)size, fp);
    fwrite(bytes, 1, (size_t)size, fp);
    fclose(fp);
    is_int(augur_file_read(cat, 0, &b, NULL, &d), 0, "concatenated gzip members");
    is_int(b.len, 2 * strlen(text), "both members are read");

    /* A gzip file cut short is a truncation error, not a short read. */
    fp = fopen(cut, "wb");
    fwrite(bytes, 1, (size_t)size - 6, fp);
    fclose(fp);
    is_int(augur_file_read(cut, 0, &b, NULL, &d), AUGUR_ETRUNC, "truncated gzip is refused");
    ok(strstr(d.msg, "truncated") != NULL && strcmp(d.file, cut) == 0, "message names the file");
    /* Corrupt deflate data. */
    bytes[12] ^= 0x55;
    bytes[14] ^= 0x2a;
    fp = fopen(cut, "wb");
    fwrite(bytes, 1, (size_t)size, fp);
    fclose(fp);
    ok(augur_file_read(cut, 0, &b, NULL, &d) < 0, "corrupt gzip is refused");
    free(bytes);

    is_int(augur_file_read(plain, 4, &b, NULL, &d), AUGUR_ELIMIT, "max_bytes limits a plain file");
    is_int(augur_file_read(gz, 4, &b, NULL, &d), AUGUR_ELIMIT, "max_bytes limits inflation");
    is_int(augur_file_read("/nonexistent/file", 0, &b, NULL, &d), AUGUR_ENOENT, "missing file");
    is_int(augur_file_read(tmpdir, 0, &b, NULL, &d), AUGUR_EIO, "a directory is refused");

    /* Atomic output: abort leaves the old file, commit replaces it. */
    augur_file_write(dst, "old\n", 4, &d);
    is_int(augur_out_open(&out, dst, &d), 0, "open atomic output");
    fputs("new content\n", out.fp);
    augur_out_abort(&out);
    augur_file_read(dst, 0, &b, NULL, &d);
    is_str(b.s, "old\n", "abort leaves the old file in place");
    augur_out_open(&out, dst, &d);
    fputs("new content\n", out.fp);
    {
        struct augur_buf mid;

        augur_buf_init(&mid);
        augur_file_read(dst, 0, &mid, NULL, &d);
        is_str(mid.s, "old\n", "readers see the old file until commit");
        augur_buf_release(&mid);
    }
    is_int(augur_out_commit(&out, &d), 0, "commit");
    augur_file_read(dst, 0, &b, NULL, &d);
    is_str(b.s, "new content\n", "commit replaces the file");
    ok(augur_out_open(&out, "/nonexistent/dir/x", &d) == AUGUR_ENOENT,
       "an output in a missing folder fails");
    augur_buf_release(&b);
}

/* Inputs that must be refused at once, never read to the end or waited for. */
static void test_hostile_inputs(void)
{
    struct augur_buf b;
    struct augur_diag d;
    char fifo[300], bin[300];
    FILE *fp;

    augur_buf_init(&b);
    augur_diag_init(&d);
    path_in_tmp(fifo, sizeof(fifo), "in.fifo");
    path_in_tmp(bin, sizeof(bin), "bin.txt");
    if (mkfifo(fifo, 0600) == 0) {
        is_int(augur_file_read(fifo, 0, &b, NULL, &d), AUGUR_EIO, "a FIFO with no writer");
        ok(strstr(d.msg, "no writer") != NULL, "the message says why");
    } else {
        skip("mkfifo failed", "fifo");
        skip("mkfifo failed", "fifo");
    }
    is_int(augur_file_read("/dev/zero", 0, &b, NULL, &d), AUGUR_EFORMAT,
           "/dev/zero is refused at its first bytes");
    fp = fopen(bin, "wb");
    fwrite("1 2\n\0\0", 1, 6, fp);
    fclose(fp);
    is_int(augur_file_read(bin, 0, &b, NULL, &d), AUGUR_EFORMAT, "a NUL byte is binary data");
    ok(strstr(d.msg, "offset 4") != NULL, "the message gives its offset");
    write_gzip(bin, "1 2\n\0", 5);
    is_int(augur_file_read(bin, 0, &b, NULL, &d), AUGUR_EFORMAT, "also inside a gzip stream");
    is_int(augur_memory_check(1, "one byte", &d), 0, "a byte fits the memory budget");
    is_int(augur_memory_check(UINT64_MAX, "everything", &d), AUGUR_ELIMIT,
           "an absurd size does not");
    ok(strstr(d.msg, "everything") != NULL, "the message names what");
    augur_buf_release(&b);
}

/* Outputs over special files: written through, or refused; never replaced. */
static void test_special_outputs(void)
{
    struct augur_diag d;
    struct augur_buf b;
    struct stat st;
    char fifo[300], inside[300], target[300], outside[300], sub[300];

    augur_diag_init(&d);
    augur_buf_init(&b);
    is_int(augur_file_write("/dev/null", "x\n", 2, &d), 0, "writing to /dev/null");
    ok(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode), "/dev/null is still a device");
    if (stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode)) {
        ok(augur_file_write("/dev/full", "x\n", 2, &d) == AUGUR_EIO, "/dev/full: write error");
        ok(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode), "/dev/full is still a device");
    } else {
        skip("no /dev/full", "dev full");
        skip("no /dev/full", "dev full");
    }
    path_in_tmp(fifo, sizeof(fifo), "out.fifo");
    if (mkfifo(fifo, 0600) == 0) {
        is_int(augur_file_write(fifo, "x\n", 2, &d), AUGUR_EIO, "a FIFO with no reader fails");
        ok(strstr(d.msg, "no reader") != NULL, "and says why");
        ok(stat(fifo, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO is still a FIFO");
    } else {
        skip("mkfifo failed", "fifo");
        skip("mkfifo failed", "fifo");
        skip("mkfifo failed", "fifo");
    }
    /* A link to a file in its own folder writes the file and keeps the link. */
    path_in_tmp(target, sizeof(target), "target.txt");
    path_in_tmp(inside, sizeof(inside), "link.txt");
    augur_file_write(target, "old\n", 4, &d);
    ok(symlink("target.txt", inside) == 0, "make a link in the same folder");
    is_int(augur_file_write(inside, "new\n", 4, &d), 0, "write through a link beside its file");
    ok(lstat(inside, &st) == 0 && S_ISLNK(st.st_mode), "the link stays a link");
    augur_file_read(target, 0, &b, NULL, &d);
    is_str(b.s, "new\n", "its file has the new contents");
    /* A link out of its folder is refused. */
    path_in_tmp(sub, sizeof(sub), "sub");
    mkdir(sub, 0700);
    path_in_tmp(outside, sizeof(outside), "sub/away.txt");
    ok(symlink(target, outside) == 0, "make a link to another folder");
    is_int(augur_file_write(outside, "x\n", 2, &d), AUGUR_EIO, "a link out of its folder");
    ok(strstr(d.msg, "outside its folder") != NULL, "is refused, saying why");
    augur_file_read(target, 0, &b, NULL, &d);
    is_str(b.s, "new\n", "and its target is untouched");
    augur_buf_release(&b);
}

int main(void)
{
    char cmd[300];

    snprintf(tmpdir, sizeof(tmpdir), "/tmp/augur-t_base-XXXXXX");
    if (!mkdtemp(tmpdir))
        return 1;
    test_errors();
    test_alloc();
    test_alloc_fail_nth();
    test_arena();
    test_vec_buf();
    test_files();
    test_hostile_inputs();
    test_special_outputs();
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        diag("could not remove %s", tmpdir);
    return tap_done();
}
