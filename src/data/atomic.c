/*
 * atomic.c -- every output file is written atomically: "<path>.tmp.XXXXXX" in the same
 * directory, fsync, rename over path. An interrupted run leaves the old file or the
 * complete new one, never a torn file; on failure the temporary file is removed. The file
 * gets the permissions a plain open would give it: an existing file's mode is kept, a new
 * file gets 0666 less the process's umask (read from /proc/self/status, never changed: umask()
 * would set it for every thread; 0644 where /proc is absent) -- mkstemp alone would leave 0600.
 */
#include "core.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the mode path would get from open(O_CREAT, 0666), or keeps when it exists */
static mode_t target_mode(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return st.st_mode & 07777;
    unsigned mask = 022;
    FILE *f = fopen("/proc/self/status", "r");
    if (f) {
        char line[128];
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "Umask: %o", &mask) == 1)
                break;
        fclose(f);
    }
    return (mode_t)(0666 & ~mask);
}

ckm_error ckm_write_file_atomic(const char *path, const char *data, size_t len, ckm_err *err)
{
    size_t pl = strlen(path);
    char *tmp = malloc(pl + 16);
    if (!tmp)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    memcpy(tmp, path, pl);
    memcpy(tmp + pl, ".tmp.XXXXXX", 12);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        ckm_error rc = ckm_fail(err, CKM_ERR_IO, "%s: cannot create temporary file: %s", path,
                                strerror(errno));
        free(tmp);
        return rc;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        off += (size_t)w;
    }
    int ok = off == len && fchmod(fd, target_mode(path)) == 0 && fsync(fd) == 0;
    int saved = errno;
    if (close(fd) != 0)
        ok = 0;
    if (ok && rename(tmp, path) != 0) {
        saved = errno;
        ok = 0;
    }
    if (!ok) {
        unlink(tmp);
        free(tmp);
        return ckm_fail(err, CKM_ERR_IO, "%s: write failed: %s", path, strerror(saved));
    }
    free(tmp);
    return CKM_OK;
}
