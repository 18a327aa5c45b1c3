/*
 * io.c - whole-file input with transparent gzip and limits, safe output, the memory budget,
 * clock (module: base).
 */
#define _DEFAULT_SOURCE /* realpath() */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "augur/base.h"

/* ---- memory budget -------------------------------------------------------- */

size_t augur_memory_budget(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t phys = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : (uint64_t)8 << 30;
    uint64_t budget = phys / 2;
    struct rlimit rl;

    /* Under ulimit -v (or a container's address-space cap) half of that cap is what is safe. */
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 2 < budget)
        budget = rl.rlim_cur / 2;
    return budget > SIZE_MAX ? SIZE_MAX : (size_t)budget;
}

int augur_memory_check(uint64_t bytes, const char *what, struct augur_diag *diag)
{
    size_t budget = augur_memory_budget();

    if (bytes <= budget)
        return 0;
    return augur_diag_set(diag, AUGUR_ELIMIT, NULL, 0, 0,
                          "%s would take %.3g GB, over the memory budget of %.3g GB (half of "
                          "this machine's memory or of the address-space limit)",
                          what, 1e-9 * (double)bytes, 1e-9 * (double)budget);
}

/* ---- input ----------------------------------------------------------------- */

#define READ_CHUNK ((size_t)1 << 16)
/*
 * Under the default limit a gzip stream may not inflate beyond this many times its compressed
 * size (past the first few MiB): text formats compress a few- to a few-ten-fold, a decompression
 * bomb a thousand-fold. An explicit limit lifts the check.
 */
#define GZIP_MAX_RATIO  200
#define GZIP_RATIO_FROM ((size_t)64 << 20)

struct reader {
    int fd;
    const char *path;
    size_t limit;
    bool default_limit;
    bool fifo;
    struct augur_diag *diag;
};

static int over_limit(const struct reader *r, const char *what)
{
    if (r->default_limit)
        return augur_diag_set(r->diag, AUGUR_ELIMIT, r->path, 0, 0,
                              "%s is over the default limit of %zu bytes (a quarter of this "
                              "machine's memory); raise it with --max-bytes",
                              what, r->limit);
    return augur_diag_set(r->diag, AUGUR_ELIMIT, r->path, 0, 0, "%s is over the limit of %zu bytes",
                          what, r->limit);
}

/* Text formats only: a NUL byte means binary data (or /dev/zero), refused on sight. */
static int check_text(const struct reader *r, const char *s, size_t from, size_t to)
{
    const char *nul = memchr(s + from, '\0', to - from);

    if (!nul)
        return 0;
    return augur_diag_set(r->diag, AUGUR_EFORMAT, r->path, 0, 0,
                          "binary data (a NUL byte at offset %zu): augur reads text files, plain "
                          "or gzip-compressed",
                          (size_t)(nul - s));
}

/* Reads up to n bytes; *got is 0 at the end of the input. */
static int read_chunk(const struct reader *r, char *p, size_t n, size_t *got)
{
    for (;;) {
        ssize_t k = read(r->fd, p, n);

        if (k >= 0) {
            *got = (size_t)k;
            return 0;
        }
        if (errno != EINTR)
            return augur_diag_set(r->diag, AUGUR_EIO, r->path, 0, 0, "cannot read: %s",
                                  strerror(errno));
    }
}

/* Reads the rest of a plain input after its first bytes, already in buf. */
static int read_plain(const struct reader *r, struct augur_buf *buf)
{
    for (;;) {
        size_t got = 0;
        int rc;

        augur_buf_reserve(buf, READ_CHUNK);
        rc = read_chunk(r, buf->s + buf->len, buf->cap - buf->len - 1, &got);
        if (rc)
            return rc;
        if (got == 0)
            return 0;
        buf->len += got;
        if (buf->len > r->limit)
            return over_limit(r, "the input");
        rc = check_text(r, buf->s, buf->len - got, buf->len);
        if (rc)
            return rc;
    }
}

/*
 * Inflates one or more concatenated gzip members as they are read: in holds the first bytes
 * read; the limit applies to the output as it grows, never after the whole input is in memory.
 */
static int read_gzip(const struct reader *r, struct augur_buf *in, struct augur_buf *out)
{
    z_stream z;
    int rc = 0, zrc = Z_OK;
    size_t nin = in->len; /* compressed bytes read so far */
    bool eof = false;

    memset(&z, 0, sizeof(z));
    if (inflateInit2(&z, 15 + 16) != Z_OK)
        return augur_diag_set(r->diag, AUGUR_ENOMEM, r->path, 0, 0, "cannot start gzip decoder");
    z.next_in = (unsigned char *)in->s;
    z.avail_in = (uInt)in->len;
    for (;;) {
        size_t room, before = out->len;

        if (z.avail_in == 0 && !eof) {
            size_t got = 0;

            augur_buf_reserve(in, READ_CHUNK);
            rc = read_chunk(r, in->s, in->cap - 1, &got);
            if (rc)
                goto out;
            eof = got == 0;
            nin += got;
            z.next_in = (unsigned char *)in->s;
            z.avail_in = (uInt)got;
        }
        if (z.avail_in == 0 && eof)
            break;
        augur_buf_reserve(out, (size_t)1 << 20);
        room = out->cap - out->len - 1;
        z.next_out = (unsigned char *)out->s + out->len;
        z.avail_out = room > UINT_MAX ? UINT_MAX : (uInt)room;
        zrc = inflate(&z, Z_NO_FLUSH);
        out->len += (size_t)((char *)z.next_out - (out->s + out->len));
        if (out->len > r->limit) {
            rc = over_limit(r, "the decompressed input");
            goto out;
        }
        if (r->default_limit && out->len > GZIP_RATIO_FROM && out->len / GZIP_MAX_RATIO > nin) {
            rc = augur_diag_set(r->diag, AUGUR_ELIMIT, r->path, 0, 0,
                                "gzip stream inflates over %d-fold (%zu bytes from %zu): a "
                                "decompression bomb? give --max-bytes to read it anyway",
                                GZIP_MAX_RATIO, out->len, nin);
            goto out;
        }
        rc = check_text(r, out->s, before, out->len);
        if (rc)
            goto out;
        if (zrc == Z_STREAM_END) {
            /* Another member may follow (gzip allows concatenation). */
            if (inflateReset(&z) != Z_OK) {
                rc = augur_diag_set(r->diag, AUGUR_EPARSE, r->path, 0, 0, "corrupt gzip stream");
                goto out;
            }
            continue;
        }
        if (zrc == Z_BUF_ERROR && z.avail_in == 0)
            continue;
        if (zrc != Z_OK && zrc != Z_BUF_ERROR) {
            rc = augur_diag_set(r->diag, zrc == Z_MEM_ERROR ? AUGUR_ENOMEM : AUGUR_EPARSE, r->path,
                                0, 0, "corrupt gzip stream: %s", z.msg ? z.msg : "data error");
            goto out;
        }
    }
    /* The input ended: inside a member unless the last inflate ended one. */
    if (zrc != Z_STREAM_END)
        rc = augur_diag_set(r->diag, AUGUR_ETRUNC, r->path, 0, 0,
                            "truncated gzip stream (ends after %zu decompressed bytes)", out->len);
out:
    inflateEnd(&z);
    out->s[out->len] = '\0';
    return rc;
}

int augur_file_read(const char *path, size_t max_bytes, struct augur_buf *buf, bool *compressed,
                    struct augur_diag *diag)
{
    struct augur_buf first;
    struct reader r = { -1, strcmp(path, "-") ? path : "<stdin>", max_bytes, false, false, diag };
    bool is_stdin = strcmp(path, "-") == 0;
    struct stat st;
    size_t got = 0;
    int rc = 0;

    augur_buf_init(&first);
    augur_buf_reset(buf);
    if (compressed)
        *compressed = false;
    if (!r.limit) {
        r.limit = augur_memory_budget() / 2;
        r.default_limit = true;
    }
    /* O_NONBLOCK: opening a FIFO that has no writer must not wait for one. */
    r.fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (r.fd < 0)
        return augur_diag_set(diag, errno == ENOENT ? AUGUR_ENOENT : AUGUR_EIO, path, 0, 0,
                              "cannot open: %s", strerror(errno));
    if (fstat(r.fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            rc = augur_diag_set(diag, AUGUR_EIO, path, 0, 0, "is a directory");
            goto out;
        }
        r.fifo = S_ISFIFO(st.st_mode) && !is_stdin;
        if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > r.limit) {
            rc = over_limit(&r, "the file");
            goto out;
        }
        if (S_ISREG(st.st_mode) && st.st_size > 0)
            augur_buf_reserve(&first, (size_t)st.st_size);
    }
    if (!is_stdin) {
        int fl = fcntl(r.fd, F_GETFL);

        if (fl >= 0)
            fcntl(r.fd, F_SETFL, fl & ~O_NONBLOCK);
    }
    augur_buf_reserve(&first, READ_CHUNK);
    rc = read_chunk(&r, first.s, first.cap - 1, &got);
    if (rc)
        goto out;
    first.len = got;
    first.s[got] = '\0';
    if (got == 0 && r.fifo) {
        rc = augur_diag_set(diag, AUGUR_EIO, path, 0, 0, "nothing to read: a FIFO with no writer");
        goto out;
    }
    if (got >= 2 && (unsigned char)first.s[0] == 0x1f && (unsigned char)first.s[1] == 0x8b) {
        if (compressed)
            *compressed = true;
        rc = read_gzip(&r, &first, buf);
        goto out;
    }
    if (got > r.limit) {
        rc = over_limit(&r, "the input");
        goto out;
    }
    rc = check_text(&r, first.s, 0, got);
    if (rc)
        goto out;
    augur_buf_release(buf);
    *buf = first;
    augur_buf_init(&first);
    rc = read_plain(&r, buf);
    if (!rc)
        buf->s[buf->len] = '\0';
out:
    augur_buf_release(&first);
    if (r.fd >= 0 && !is_stdin)
        close(r.fd);
    return rc;
}

/* ---- output ---------------------------------------------------------------- */

/* The folder part of path ("." when it has none); caller frees. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *d;

    if (!slash)
        return augur_strdup(".");
    if (slash == path)
        return augur_strdup("/");
    d = augur_malloc((size_t)(slash - path) + 1);
    memcpy(d, path, (size_t)(slash - path));
    d[slash - path] = '\0';
    return d;
}

/*
 * Where a symbolic link may be written through: its target, when that lies in the link's own
 * folder (an editor's or a build system's alias); NULL otherwise (message in diag).
 */
static char *link_target(const char *path, struct augur_diag *diag)
{
    char *target = realpath(path, NULL), *ldir = NULL, *real_ldir = NULL, *tdir = NULL;
    char *res = NULL;

    if (!target) {
        augur_diag_set(diag, AUGUR_EIO, path, 0, 0,
                       "is a symbolic link to a missing file: name the file to create");
        return NULL;
    }
    ldir = dir_of(path);
    real_ldir = realpath(ldir, NULL);
    tdir = dir_of(target);
    if (real_ldir && strcmp(real_ldir, tdir) == 0)
        res = augur_strdup(target);
    else
        augur_diag_set(diag, AUGUR_EIO, path, 0, 0,
                       "is a symbolic link to '%s', outside its folder: name that file to write "
                       "there",
                       target);
    free(target);
    free(real_ldir);
    augur_free(ldir);
    augur_free(tdir);
    return res;
}

/* Writes straight into a character device or FIFO (there is nothing to replace atomically). */
static int open_direct(struct augur_out *out, const char *path, bool fifo, struct augur_diag *diag)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC | (fifo ? O_NONBLOCK : 0));

    if (fd < 0)
        return augur_diag_set(diag, AUGUR_EIO, path, 0, 0, "cannot open: %s",
                              fifo && errno == ENXIO ? "a FIFO with no reader" : strerror(errno));
    if (fifo) {
        int fl = fcntl(fd, F_GETFL);

        if (fl >= 0)
            fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    }
    out->fp = fdopen(fd, "w");
    if (!out->fp) {
        int err = errno;

        close(fd);
        return augur_diag_set(diag, AUGUR_EIO, path, 0, 0, "cannot open: %s", strerror(err));
    }
    out->path = augur_strdup(path);
    return 0;
}

int augur_out_open(struct augur_out *out, const char *path, struct augur_diag *diag)
{
    struct augur_buf tmp;
    char *target = NULL;
    struct stat st;
    mode_t mode;
    int fd, rc = 0;

    out->fp = NULL;
    out->path = NULL;
    out->tmp = NULL;
    if (strcmp(path, "-") == 0) {
        out->fp = stdout;
        return 0;
    }
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        target = link_target(path, diag);
        if (!target)
            return AUGUR_EIO;
        path = target;
        if (stat(path, &st) != 0)
            st.st_mode = 0;
    } else if (lstat(path, &st) != 0) {
        st.st_mode = 0; /* a new file */
    }
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
        rc = open_direct(out, path, S_ISFIFO(st.st_mode), diag);
        goto done;
    }
    if (S_ISDIR(st.st_mode)) {
        rc = augur_diag_set(diag, AUGUR_EIO, path, 0, 0, "is a directory");
        goto done;
    }
    if (st.st_mode && !S_ISREG(st.st_mode)) {
        rc = augur_diag_set(diag, AUGUR_EIO, path, 0, 0,
                            "is neither a regular file, a character device nor a FIFO: not "
                            "written");
        goto done;
    }
    if (S_ISREG(st.st_mode)) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);

        umask(mask);
        mode = 0666 & ~mask;
    }
    augur_buf_init(&tmp);
    augur_buf_printf(&tmp, "%s.tmp.XXXXXX", path);
    fd = mkstemp(tmp.s);
    if (fd < 0) {
        int err = errno;

        augur_buf_release(&tmp);
        rc = augur_diag_set(diag, err == ENOENT ? AUGUR_ENOENT : AUGUR_EIO, path, 0, 0,
                            "cannot create: %s", strerror(err));
        goto done;
    }
    fchmod(fd, mode);
    out->fp = fdopen(fd, "w");
    if (!out->fp) {
        int err = errno;

        close(fd);
        unlink(tmp.s);
        augur_buf_release(&tmp);
        rc = augur_diag_set(diag, AUGUR_EIO, path, 0, 0, "cannot open: %s", strerror(err));
        goto done;
    }
    out->tmp = augur_buf_detach(&tmp, NULL);
    out->path = augur_strdup(path);
done:
    augur_free(target);
    return rc;
}

bool augur_out_is_file(const struct augur_out *out)
{
    return out->tmp != NULL;
}

static void out_clear(struct augur_out *out)
{
    augur_free(out->tmp);
    augur_free(out->path);
    out->fp = NULL;
    out->tmp = NULL;
    out->path = NULL;
}

int augur_out_commit(struct augur_out *out, struct augur_diag *diag)
{
    int rc = 0;

    if (!out->fp)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "output is not open");
    if (!out->path) { /* standard output */
        if (fflush(out->fp) != 0 || ferror(out->fp))
            rc = augur_diag_set(diag, AUGUR_EIO, "<stdout>", 0, 0, "write error");
        out->fp = NULL;
        return rc;
    }
    if (ferror(out->fp) | (fclose(out->fp) != 0)) {
        rc = augur_diag_set(diag, AUGUR_EIO, out->path, 0, 0, "write error: %s", strerror(errno));
        if (out->tmp)
            unlink(out->tmp);
    } else if (out->tmp && rename(out->tmp, out->path) != 0) {
        rc = augur_diag_set(diag, AUGUR_EIO, out->path, 0, 0, "cannot rename into place: %s",
                            strerror(errno));
        unlink(out->tmp);
    }
    out_clear(out);
    return rc;
}

void augur_out_abort(struct augur_out *out)
{
    if (out->fp && out->path) {
        fclose(out->fp);
        if (out->tmp)
            unlink(out->tmp);
    }
    out_clear(out);
}

int augur_file_write(const char *path, const char *data, size_t len, struct augur_diag *diag)
{
    struct augur_out out;
    int rc = augur_out_open(&out, path, diag);

    if (rc)
        return rc;
    if (len && fwrite(data, 1, len, out.fp) != len) {
        augur_out_abort(&out);
        return augur_diag_set(diag, AUGUR_EIO, path, 0, 0, "write error");
    }
    return augur_out_commit(&out, diag);
}

double augur_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
