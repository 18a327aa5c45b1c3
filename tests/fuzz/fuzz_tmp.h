/*
 * fuzz_tmp.h - a private temporary folder for fuzz targets whose code under
 * test reads files: made once per process, emptied and removed at exit.
 */
#ifndef AUGUR_FUZZ_TMP_H
#define AUGUR_FUZZ_TMP_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_tmp_dir[256];

static void fuzz_tmp_cleanup(void)
{
    DIR *d = opendir(fuzz_tmp_dir);
    struct dirent *e;
    char p[512];

    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof(p), "%s/%s", fuzz_tmp_dir, e->d_name);
            unlink(p);
        }
    }
    closedir(d);
    rmdir(fuzz_tmp_dir);
}

/* The folder, made on the first call; aborts when it cannot be made. */
static inline const char *fuzz_tmp(void)
{
    if (!fuzz_tmp_dir[0]) {
        const char *t = getenv("TMPDIR");

        snprintf(fuzz_tmp_dir, sizeof(fuzz_tmp_dir), "%s/augur-fuzz-XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(fuzz_tmp_dir))
            abort();
        atexit(fuzz_tmp_cleanup);
    }
    return fuzz_tmp_dir;
}

/* Writes data[size] to name in the folder; path (size 512) gets its path. */
static inline void fuzz_tmp_write(const char *name, const void *data, size_t size, char *path)
{
    FILE *fp;

    snprintf(path, 512, "%s/%s", fuzz_tmp(), name);
    fp = fopen(path, "wb");
    if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
        abort();
}

/* Removes name from the folder (no error when it is absent). */
static inline void fuzz_tmp_remove(const char *name)
{
    char p[512];

    snprintf(p, sizeof(p), "%s/%s", fuzz_tmp(), name);
    unlink(p);
}

#endif
