/* rundir.h — run directories that nothing else writes into, and that say how their run ended (no Vulkan).
 *
 * A run directory is created with mkdir() as the arbiter (a taken name gets a suffix .2, .3, ...) and locked
 * (flock on DIR/.lock, which holds the owner's pid) for the whole run. Runs of one device register under
 * ROOT/.running/DEVICE/ (ROOT: the run directory's parent), one locked entry per run, so that each row can
 * name the runs that overlapped it: concurrent timings are not comparable. run.txt ends with a status line
 * ("status: complete", "status: interrupted after I of N cases"); a run without one was killed. */
#ifndef VKB_RUNDIR_H
#define VKB_RUNDIR_H
#include <stddef.h>
#include <stdio.h>

typedef struct vkb_rundir {
    char path[600];        /* the run directory */
    int lock_fd;           /* PATH/.lock, flock LOCK_EX for the run; -1 when none */
    char reg_dir[700];     /* ROOT/.running/DEVICE */
    char reg_name[64];     /* this run's entry in reg_dir */
    int reg_fd;            /* the entry, flock LOCK_EX for the run; -1 when not registered */
    char reg_why[200];     /* why not registered (the concurrent_runs cell says NA with it) */
    double window_s;       /* wall-clock start of the current row's window (CLOCK_REALTIME) */
} vkb_rundir;

/* Create and lock a run directory (its parents as needed). exact = 0: base itself, else base.2, base.3, ... the
 * first name that mkdir() creates. exact = 1 (`--dir`): base, which may exist; a run already there (results.csv,
 * samples.csv or run.txt) is refused unless force, and with force the files derived from it (report.md,
 * report.html, report-numbers.csv, plots/, compare/) are removed. A directory locked by a live run is refused
 * even with force. Returns 0, or -1 with err set ("cannot create results directory D: ...", "D already holds a
 * run ...", "D is in use by vkbench pid P"); d->lock_fd is -1 after a failure. */
int vkb_rundir_open(vkb_rundir *d, const char *base, int exact, int force, char *err, size_t errlen);

/* Register the run for the device named by key (any text; slugged) under the run directory's parent. A failure is
 * not an error: it is kept in d->reg_why and every overlap answer says NA with it. Starts the first row's window. */
void vkb_rundir_register(vkb_rundir *d, const char *key);

/* The other runs of the device that overlapped the window since the previous call (or the registration):
 * "none", or "pid P (DIR)[; ...]", or "NA (why)". Starts the next window, and touches this run's entry (its
 * mtime is the last sign of life of a run that gets killed). Entries of runs that ended over a day ago are removed. */
void vkb_rundir_overlap(vkb_rundir *d, char *out, size_t len);

/* Flush f and fsync it to the disk. Returns 0, or -1 with errno set. */
int vkb_rundir_sync(FILE *f);

/* The end of the run: the registry entry records the end time, both locks are released. NULL or closed: no-op. */
void vkb_rundir_close(vkb_rundir *d);

/* How the run in dir ended, from the last "status:" line of dir/run.txt and its lock. */
typedef enum vkb_runstate {
    VKB_RUN_UNKNOWN = -1,  /* no run.txt: a bare results.csv, say */
    VKB_RUN_COMPLETE = 0,
    VKB_RUN_INTERRUPTED,   /* SIGINT / SIGTERM: every finished case kept, the rest never ran */
    VKB_RUN_FAILED,        /* stopped on an error after its directory was made */
    VKB_RUN_RUNNING,       /* no status line yet, and the directory is locked by a live run */
    VKB_RUN_KILLED,        /* no status line, nobody holds the lock: killed (SIGKILL, a crash, power) */
} vkb_runstate;

/* dir: a run directory, or a results.csv path (its directory is used). why (may be NULL) gets the status line's
 * text or the reason, e.g. "interrupted after 3 of 10 cases", "killed: run.txt has no status line". */
vkb_runstate vkb_rundir_state(const char *dir, char *why, size_t len);

/* 1 when dir's samples.csv may end in the cut-short line of the case in flight (the run was killed, or is still
 * running), so readers skip a torn last line there (vkb_samples_load's torn_tail); else 0. */
int vkb_rundir_torn_tail(const char *dir);

/* A word for the state with no digits in it ("interrupted", "killed", ...), for prose that must hold none. */
const char *vkb_runstate_name(vkb_runstate s);

#endif
