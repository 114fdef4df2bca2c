// Test fixture: an LD_PRELOAD shim that makes the disk under $RATINGS_FAULT_DIR fail on demand.
// While the file $RATINGS_FAULT_DIR/.readonly exists, every write, truncate or sync of a file in
// that folder fails with EROFS, as on a filesystem remounted read-only; reads go through. While
// $RATINGS_FAULT_DIR/.failing-sync exists, only syncs fail, with EIO, as when a disk cannot flush
// its cache: writes land in the page cache but cannot be made durable.
// Built and used by ReadOnlyDiskTests; not part of the service.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* Whether `fd` is a file in the guarded folder while the folder holds the file `flag`. */
static int is_flagged(int fd, const char *flag_name) {
    const char *dir = getenv("RATINGS_FAULT_DIR");
    if (!dir) return 0;
    char flag[PATH_MAX];
    snprintf(flag, sizeof flag, "%s/%s", dir, flag_name);
    if (access(flag, F_OK) != 0) return 0;
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, path, sizeof path - 1);
    if (length <= 0) return 0;
    path[length] = 0;
    return strncmp(path, dir, strlen(dir)) == 0;
}

#define REFUSE_IF_READ_ONLY(fd) do { if (is_flagged(fd, ".readonly")) { errno = EROFS; return -1; } } while (0)
#define REFUSE_IF_SYNC_FAILING(fd) do { if (is_flagged(fd, ".failing-sync")) { errno = EIO; return -1; } } while (0)

ssize_t pwrite64(int fd, const void *buf, size_t count, off_t offset) {
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (!real) real = dlsym(RTLD_NEXT, "pwrite64");
    REFUSE_IF_READ_ONLY(fd);
    return real(fd, buf, count, offset);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (!real) real = dlsym(RTLD_NEXT, "pwrite");
    REFUSE_IF_READ_ONLY(fd);
    return real(fd, buf, count, offset);
}

ssize_t write(int fd, const void *buf, size_t count) {
    static ssize_t (*real)(int, const void *, size_t);
    if (!real) real = dlsym(RTLD_NEXT, "write");
    REFUSE_IF_READ_ONLY(fd);
    return real(fd, buf, count);
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = dlsym(RTLD_NEXT, "fsync");
    REFUSE_IF_READ_ONLY(fd);
    REFUSE_IF_SYNC_FAILING(fd);
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = dlsym(RTLD_NEXT, "fdatasync");
    REFUSE_IF_READ_ONLY(fd);
    REFUSE_IF_SYNC_FAILING(fd);
    return real(fd);
}

int ftruncate64(int fd, off_t length) {
    static int (*real)(int, off_t);
    if (!real) real = dlsym(RTLD_NEXT, "ftruncate64");
    REFUSE_IF_READ_ONLY(fd);
    return real(fd, length);
}

int ftruncate(int fd, off_t length) {
    static int (*real)(int, off_t);
    if (!real) real = dlsym(RTLD_NEXT, "ftruncate");
    REFUSE_IF_READ_ONLY(fd);
    return real(fd, length);
}
