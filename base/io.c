/*
 * io.c - whole-file input with transparent gzip, atomic output, clock (module: base).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "augur/base.h"

static int read_fd(int fd, const char *path, size_t max_bytes, struct augur_buf *buf,
                   struct augur_diag *diag)
{
    struct stat st;

    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        if (max_bytes && (uint64_t)st.st_size > max_bytes)
            return augur_diag_set(diag, AUGUR_ELIMIT, path, 0, 0,
                                  "file is %lld bytes, over the limit of %zu",
                                  (long long)st.st_size, max_bytes);
        augur_buf_reserve(buf, (size_t)st.st_size);
    }
    for (;;) {
        ssize_t n;

        augur_buf_reserve(buf, 1 << 16);
        n = read(fd, buf->s + buf->len, buf->cap - buf->len - 1);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return augur_diag_set(diag, AUGUR_EIO, path, 0, 0, "cannot read: %s", strerror(errno));
        }
        if (n == 0)
            break;
        buf->len += (size_t)n;
        if (max_bytes && buf->len > max_bytes)
            return augur_diag_set(diag, AUGUR_ELIMIT, path, 0, 0,
                                  "input is over the limit of %zu bytes", max_bytes);
    }
    buf->s[buf->len] = '\0';
    return 0;
}

/* Inflates one or more concatenated gzip members from in into out. */
static int gunzip(const unsigned char *in, size_t inlen, const char *path, size_t max_bytes,
                  struct augur_buf *out, struct augur_diag *diag)
{
    z_stream z;
    int rc = 0, zrc = Z_OK;

    memset(&z, 0, sizeof(z));
    if (inflateInit2(&z, 15 + 16) != Z_OK)
        return augur_diag_set(diag, AUGUR_ENOMEM, path, 0, 0, "cannot start gzip decoder");
    augur_buf_reserve(out, inlen < SIZE_MAX / 4 ? inlen * 4 : inlen);
    while (inlen > 0) {
        uInt chunk_in = inlen > UINT_MAX ? UINT_MAX : (uInt)inlen;
        size_t room;

        augur_buf_reserve(out, 1 << 20);
        room = out->cap - out->len - 1;
        z.next_in = (unsigned char *)in;
        z.avail_in = chunk_in;
        z.next_out = (unsigned char *)out->s + out->len;
        z.avail_out = room > UINT_MAX ? UINT_MAX : (uInt)room;
        zrc = inflate(&z, Z_NO_FLUSH);
        out->len += (size_t)((char *)z.next_out - (out->s + out->len));
        in += chunk_in - z.avail_in;
        inlen -= chunk_in - z.avail_in;
        if (max_bytes && out->len > max_bytes) {
            rc = augur_diag_set(diag, AUGUR_ELIMIT, path, 0, 0,
                                "decompressed input is over the limit of %zu bytes", max_bytes);
            goto out;
        }
        if (zrc == Z_STREAM_END) {
            /* Another member may follow (gzip allows concatenation). */
            if (inlen == 0)
                break;
            if (inflateReset(&z) != Z_OK) {
                rc = augur_diag_set(diag, AUGUR_EPARSE, path, 0, 0, "corrupt gzip stream");
                goto out;
            }
            continue;
        }
        if (zrc == Z_BUF_ERROR && z.avail_in == 0)
            break;
        if (zrc != Z_OK && zrc != Z_BUF_ERROR) {
            rc = augur_diag_set(diag, zrc == Z_MEM_ERROR ? AUGUR_ENOMEM : AUGUR_EPARSE, path, 0, 0,
                                "corrupt gzip stream: %s", z.msg ? z.msg : "data error");
            goto out;
        }
    }
    if (zrc != Z_STREAM_END)
        rc = augur_diag_set(diag, AUGUR_ETRUNC, path, 0, 0,
                            "truncated gzip stream (ends after %zu decompressed bytes)", out->len);
out:
    inflateEnd(&z);
    out->s[out->len] = '\0';
    return rc;
}

int augur_file_read(const char *path, size_t max_bytes, struct augur_buf *buf, bool *compressed,
                    struct augur_diag *diag)
{
    struct augur_buf raw;
    int fd = -1, rc;
    bool is_stdin = strcmp(path, "-") == 0;

    augur_buf_init(&raw);
    augur_buf_reset(buf);
    if (compressed)
        *compressed = false;
    fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return augur_diag_set(diag, errno == ENOENT ? AUGUR_ENOENT : AUGUR_EIO, path, 0, 0,
                              "cannot open: %s", strerror(errno));
    {
        struct stat st;

        if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
            rc = augur_diag_set(diag, AUGUR_EIO, path, 0, 0, "is a directory");
            goto out;
        }
    }
    rc = read_fd(fd, path, 0, &raw, diag);
    if (rc)
        goto out;
    if (raw.len >= 2 && (unsigned char)raw.s[0] == 0x1f && (unsigned char)raw.s[1] == 0x8b) {
        if (compressed)
            *compressed = true;
        rc = gunzip((unsigned char *)raw.s, raw.len, path, max_bytes, buf, diag);
        goto out;
    }
    if (max_bytes && raw.len > max_bytes) {
        rc = augur_diag_set(diag, AUGUR_ELIMIT, path, 0, 0, "input is over the limit of %zu bytes",
                            max_bytes);
        goto out;
    }
    augur_buf_release(buf);
    *buf = raw;
    augur_buf_init(&raw);
out:
    augur_buf_release(&raw);
    if (fd >= 0 && !is_stdin)
        close(fd);
    return rc;
}

int augur_out_open(struct augur_out *out, const char *path, struct augur_diag *diag)
{
    struct augur_buf tmp;
    int fd;

    out->fp = NULL;
    out->path = NULL;
    out->tmp = NULL;
    if (strcmp(path, "-") == 0) {
        out->fp = stdout;
        return 0;
    }
    augur_buf_init(&tmp);
    augur_buf_printf(&tmp, "%s.tmp.XXXXXX", path);
    fd = mkstemp(tmp.s);
    if (fd < 0) {
        int err = errno;

        augur_buf_release(&tmp);
        return augur_diag_set(diag, AUGUR_EIO, path, 0, 0, "cannot create: %s", strerror(err));
    }
    fchmod(fd, 0644);
    out->fp = fdopen(fd, "w");
    if (!out->fp) {
        int err = errno;

        close(fd);
        unlink(tmp.s);
        augur_buf_release(&tmp);
        return augur_diag_set(diag, AUGUR_EIO, path, 0, 0, "cannot open: %s", strerror(err));
    }
    out->tmp = augur_buf_detach(&tmp, NULL);
    out->path = augur_strdup(path);
    return 0;
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
    if (!out->tmp) { /* standard output */
        if (fflush(out->fp) != 0 || ferror(out->fp))
            rc = augur_diag_set(diag, AUGUR_EIO, "<stdout>", 0, 0, "write error");
        out->fp = NULL;
        return rc;
    }
    if (ferror(out->fp) | (fclose(out->fp) != 0)) {
        rc = augur_diag_set(diag, AUGUR_EIO, out->path, 0, 0, "write error: %s", strerror(errno));
        unlink(out->tmp);
    } else if (rename(out->tmp, out->path) != 0) {
        rc = augur_diag_set(diag, AUGUR_EIO, out->path, 0, 0, "cannot rename into place: %s",
                            strerror(errno));
        unlink(out->tmp);
    }
    out_clear(out);
    return rc;
}

void augur_out_abort(struct augur_out *out)
{
    if (out->fp && out->tmp) {
        fclose(out->fp);
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
