/* rundir.c — exclusive, locked run directories; the per-device registry of live runs; how a run ended. */
#include "rundir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fsutil.h"

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The directory part of path ("." when it has none); a trailing '/' is not a separator. */
static void parent_of(const char *path, char *out, size_t len)
{
    snprintf(out, len, "%s", path);
    size_t n = strlen(out);
    while (n > 1 && out[n - 1] == '/') out[--n] = 0;
    char *slash = strrchr(out, '/');
    if (!slash) snprintf(out, len, ".");
    else if (slash == out) out[1] = 0;
    else *slash = 0;
}

static long read_pid(int fd)
{
    char buf[32];
    ssize_t k = pread(fd, buf, sizeof(buf) - 1, 0);
    buf[k > 0 ? k : 0] = 0;
    return strtol(buf, NULL, 10);
}

/* Take DIR/.lock: 0 held (pid written), 1 held by a live run (err says whose), -1 error. The file is never
 * removed: unlinking a lock file lets two processes lock two different files of one name. */
static int lock_dir(vkb_rundir *d, const char *dir, char *err, size_t errlen)
{
    char path[700];
    snprintf(path, sizeof(path), "%s/.lock", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create results directory %s: %s", dir, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB)) {
        int busy = errno == EWOULDBLOCK;
        if (busy) snprintf(err, errlen, "%s is in use by vkbench pid %ld (a run still writing there)", dir, read_pid(fd));
        else snprintf(err, errlen, "%s: cannot lock: %s", path, strerror(errno));
        close(fd);
        return busy ? 1 : -1;
    }
    char pid[32];
    int n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) || pwrite(fd, pid, (size_t)n, 0) != n) { /* the pid is a courtesy for the message above */ }
    d->lock_fd = fd;
    return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path) && errno != ENOENT ? -1 : 0;
}

/* --force: a replaced run's report and plots would describe rows that are gone. */
static int remove_derived(const char *dir, char *err, size_t errlen)
{
    static const char *const files[] = {"report.md", "report.html", "report-numbers.csv", "plots", "compare"};
    char path[700];
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
        if (nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS) && errno != ENOENT) {
            snprintf(err, errlen, "--force: cannot remove %s: %s", path, strerror(errno));
            return -1;
        }
    }
    return 0;
}

static int holds_run(const char *dir)
{
    static const char *const files[] = {"results.csv", "samples.csv", "run.txt"};
    char path[700];
    struct stat st;
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
        if (!lstat(path, &st)) return 1;
    }
    return 0;
}

int vkb_rundir_open(vkb_rundir *d, const char *base, int exact, int force, char *err, size_t errlen)
{
    char parent[600];
    memset(d, 0, sizeof(*d));
    d->lock_fd = d->reg_fd = -1;
    parent_of(base, parent, sizeof(parent));
    if (vkb_mkdirs(parent)) {
        snprintf(err, errlen, "cannot create results directory %s: %s", parent, strerror(errno));
        return -1;
    }
    /* mkdir() is the arbiter: of two runs started in the same second, one creates the name, the other the next. */
    for (int k = 1;; k++) {
        int n = k == 1 ? snprintf(d->path, sizeof(d->path), "%s", base)
                       : snprintf(d->path, sizeof(d->path), "%s.%d", base, k);
        if (n < 0 || (size_t)n >= sizeof(d->path)) {
            snprintf(err, errlen, "cannot create results directory %s: name too long", base);
            return -1;
        }
        int created = mkdir(d->path, 0777) == 0;
        if (!created && errno != EEXIST) {
            snprintf(err, errlen, "cannot create results directory %s: %s", d->path, strerror(errno));
            return -1;
        }
        if (!created && !exact) {
            if (k < 1000) continue;
            snprintf(err, errlen, "cannot create results directory %s: %s and 998 suffixes are taken", base, base);
            return -1;
        }
        int rc = lock_dir(d, d->path, err, errlen);
        if (rc == 1 && !exact) continue;   /* someone's --dir took the name we just made */
        if (rc) return -1;
        if (!created && holds_run(d->path)) {
            if (!force) {
                snprintf(err, errlen, "%s already holds a run (results.csv, samples.csv or run.txt): give another "
                         "--dir, or --force to replace it", d->path);
                goto fail;
            }
            if (remove_derived(d->path, err, errlen)) goto fail;
        }
        return 0;
    }
fail:
    close(d->lock_fd);
    d->lock_fd = -1;
    return -1;
}

void vkb_rundir_register(vkb_rundir *d, const char *key)
{
    char root[600], slug[200], path[800];
    d->window_s = wall_now();
    parent_of(d->path, root, sizeof(root));
    vkb_slug(key, slug, sizeof(slug));
    snprintf(d->reg_dir, sizeof(d->reg_dir), "%s/.running/%s", root, slug[0] ? slug : "device");
    if (vkb_mkdirs(d->reg_dir)) {
        snprintf(d->reg_why, sizeof(d->reg_why), "cannot create %s: %s", d->reg_dir, strerror(errno));
        return;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(d->reg_name, sizeof(d->reg_name), "%ld-%lld.%09ld", (long)getpid(), (long long)ts.tv_sec, ts.tv_nsec);
    snprintf(path, sizeof(path), "%s/%s", d->reg_dir, d->reg_name);
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 || flock(fd, LOCK_EX)) {  /* blocking: a reader holds LOCK_SH only for a moment */
        snprintf(d->reg_why, sizeof(d->reg_why), "cannot register in %s: %s", d->reg_dir, strerror(errno));
        if (fd >= 0) close(fd);
        return;
    }
    dprintf(fd, "pid %ld\nstart %.6f\ndir %s\n", (long)getpid(), d->window_s, d->path);
    d->reg_fd = fd;
}

typedef struct entry {
    long pid;
    double start, end;
    char dir[600];
} entry;

/* Read one registry entry; alive: its owner still holds the lock. Returns -1 when it holds no start yet. */
static int read_entry(int dfd, const char *name, entry *e, int *alive)
{
    char buf[1024];
    int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t k = read(fd, buf, sizeof(buf) - 1);
    buf[k > 0 ? k : 0] = 0;
    e->pid = 0;
    e->start = e->end = NAN;
    e->dir[0] = 0;
    for (char *line = buf, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        if (!strncmp(line, "pid ", 4)) e->pid = strtol(line + 4, NULL, 10);
        else if (!strncmp(line, "start ", 6)) e->start = strtod(line + 6, NULL);
        else if (!strncmp(line, "end ", 4)) e->end = strtod(line + 4, NULL);
        else if (!strncmp(line, "dir ", 4)) snprintf(e->dir, sizeof(e->dir), "%s", line + 4);
    }
    *alive = flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK;
    if (!*alive) {
        struct stat st;
        if (isnan(e->end) && !fstat(fd, &st))  /* killed: its last heartbeat */
            e->end = (double)st.st_mtim.tv_sec + 1e-9 * (double)st.st_mtim.tv_nsec;
        flock(fd, LOCK_UN);
    }
    close(fd);
    return isnan(e->start) ? -1 : 0;
}

void vkb_rundir_overlap(vkb_rundir *d, char *out, size_t len)
{
    double now = wall_now(), from = d->window_s;
    size_t used = 0;
    d->window_s = now;
    out[0] = 0;
    if (d->reg_fd < 0) {
        snprintf(out, len, "NA (%s)", d->reg_why[0] ? d->reg_why : "run not registered");
        return;
    }
    futimens(d->reg_fd, NULL);
    DIR *dir = opendir(d->reg_dir);
    if (!dir) {
        snprintf(out, len, "NA (cannot read %s: %s)", d->reg_dir, strerror(errno));
        return;
    }
    for (struct dirent *de; (de = readdir(dir));) {
        entry e;
        int alive;
        if (de->d_name[0] == '.' || !strcmp(de->d_name, d->reg_name)) continue;
        if (read_entry(dirfd(dir), de->d_name, &e, &alive)) continue;
        if (!alive && e.end < now - 86400) {  /* a day old: nobody's window reaches back that far */
            unlinkat(dirfd(dir), de->d_name, 0);
            continue;
        }
        if (alive) e.end = now;
        if (e.start > now || e.end < from) continue;
        int k = snprintf(out + used, len - used, "%spid %ld (%s)", used ? "; " : "", e.pid, e.dir);
        if (k < 0 || (size_t)k >= len - used) break;  /* the cell is full: the first ones are named */
        used += (size_t)k;
    }
    closedir(dir);
    if (!out[0]) snprintf(out, len, "none");
}

int vkb_rundir_sync(FILE *f)
{
    if (fflush(f)) return -1;
    /* EINVAL: a pipe or a terminal, nothing to sync */
    return fsync(fileno(f)) && errno != EINVAL && errno != EROFS ? -1 : 0;
}

void vkb_rundir_close(vkb_rundir *d)
{
    if (!d) return;
    if (d->reg_fd >= 0) {
        dprintf(d->reg_fd, "end %.6f\n", wall_now());
        close(d->reg_fd);
        d->reg_fd = -1;
    }
    if (d->lock_fd >= 0) close(d->lock_fd);
    d->lock_fd = -1;
}

vkb_runstate vkb_rundir_state(const char *dir, char *why, size_t len)
{
    char d[600], path[700], line[1024], status[600] = "", legacy[600] = "";
    char scratch[8];
    size_t n = strlen(dir);
    if (!why) why = scratch, len = sizeof(scratch);
    if (n > 4 && !strcmp(dir + n - 4, ".csv")) parent_of(dir, d, sizeof(d));
    else snprintf(d, sizeof(d), "%s", dir);
    snprintf(path, sizeof(path), "%s/run.txt", d);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, len, "no run.txt in %s: completeness unknown", d);
        return VKB_RUN_UNKNOWN;
    }
    int any_status = 0;
    while (fgets(line, sizeof(line), f)) {   /* only the last line counts: an argument cannot fake it */
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0]) continue;
        any_status |= !strncmp(line, "status: ", 8);
        snprintf(status, sizeof(status), "%s", !strncmp(line, "status: ", 8) ? line + 8 : "");
        if (!strncmp(line, "finished: ", 10)) snprintf(legacy, sizeof(legacy), "%s", line + 10);
    }
    fclose(f);
    if (!any_status && legacy[0]) snprintf(status, sizeof(status), "%s", legacy);  /* runs written before the status line */
    if (status[0]) {
        snprintf(why, len, "%s", status);
        return !strncmp(status, "complete", 8) ? VKB_RUN_COMPLETE
               : !strncmp(status, "interrupted", 11) ? VKB_RUN_INTERRUPTED : VKB_RUN_FAILED;
    }
    snprintf(path, sizeof(path), "%s/.lock", d);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0 && flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK) {
        snprintf(why, len, "still running (vkbench pid %ld): run.txt has no status line yet", read_pid(fd));
        close(fd);
        return VKB_RUN_RUNNING;
    }
    if (fd >= 0) close(fd);
    snprintf(why, len, "killed: run.txt has no status line");
    return VKB_RUN_KILLED;
}

const char *vkb_runstate_name(vkb_runstate s)
{
    switch (s) {
    case VKB_RUN_COMPLETE: return "complete";
    case VKB_RUN_INTERRUPTED: return "interrupted";
    case VKB_RUN_FAILED: return "stopped on an error";
    case VKB_RUN_RUNNING: return "still running";
    case VKB_RUN_KILLED: return "killed (run.txt has no status line)";
    default: return "of unknown completeness (no run.txt)";
    }
}

int vkb_rundir_torn_tail(const char *dir)
{
    vkb_runstate st = vkb_rundir_state(dir, NULL, 0);
    return st == VKB_RUN_KILLED || st == VKB_RUN_RUNNING;
}
