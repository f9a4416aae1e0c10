/* result.h — the one result schema (pure: no Vulkan). Every column is declared once, below;
 * the CSV header, writer, reader and printers derive from this list.
 * Types: S string, I integer, D real (SI units; the unit is in the column name). A real that was
 * not measured is NAN in memory and "NA" in the CSV; the reason goes in a *_why or reason column. */
#ifndef VKB_RESULT_H
#define VKB_RESULT_H
#include <stdio.h>
#include <stdint.h>
#include <stddef.h>

#define VKB_RESULT_COLUMNS(X) \
    X(S, date_utc)      X(S, commit)       X(S, host)          X(S, cpu_model) \
    X(S, device)        X(S, device_type)  X(S, driver)        X(S, device_uuid) \
    X(S, suite)         X(I, line)         X(I, case_id) \
    X(S, kernel)        X(S, variant)      X(S, params)        X(S, dtype) \
    X(S, mode)          X(I, seed) \
    X(S, status)        X(S, reason) \
    X(S, check)         X(D, metric)       X(D, threshold)     X(D, max_abs_err) \
    X(D, max_rel_err)   X(D, nmse)         X(I, n_bad)         X(I, n_nan) \
    X(I, n_unwritten)   X(I, n_tie)        X(I, n_checked) \
    X(D, bytes)         X(D, flops) \
    X(I, samples)       X(I, batch)        X(S, stop_reason) \
    X(D, time_median_s) X(D, time_mean_s)  X(D, time_stddev_s) X(D, time_min_s) \
    X(D, time_max_s)    X(D, time_q1_s)    X(D, time_q3_s) \
    X(D, time_ci_lo_s)  X(D, time_ci_hi_s) X(D, rel_noise)     X(I, outliers) \
    X(D, bw_Bps)        X(D, flop_per_s)   X(D, copy_Bps)      X(D, bw_frac_copy) \
    X(D, timer_floor_s) X(I, below_floor) \
    X(D, e2e_time_s)    X(I, e2e_runs)     X(D, gate_delta) \
    X(D, ref_time_s)    X(D, ref_fraction) \
    X(D, cpu_fast_time_s) X(D, cpu_fast_ci_lo_s) X(D, cpu_fast_ci_hi_s) X(I, cpu_fast_runs) \
    X(I, cpu_fast_threads) X(S, cpu_fast_impl) X(S, cpu_fast_status) X(S, cpu_fast_why) X(D, cpu_fast_metric) \
    X(D, read_Bps)      X(D, write_Bps)    X(D, bw_frac_read)  X(D, bw_frac_write) \
    X(D, fma_flop_per_s) X(D, coopmat_flop_per_s) X(D, flop_frac_fma) X(D, flop_frac_coopmat) \
    X(D, theoretical_Bps) X(D, bw_frac_theoretical) X(D, dispatch_s) X(S, util_why) \
    X(D, energy_per_call_J) X(D, gflop_per_J) X(D, gb_per_J) X(D, energy_window_s) X(D, energy_updates) \
    X(D, power_mean_W)  X(D, power_max_W)  X(D, gpu_temp_max_C) \
    X(D, sm_clock_min_MHz) X(D, sm_clock_mean_MHz) X(D, mem_clock_min_MHz) X(D, mem_clock_mean_MHz) \
    X(S, clock_reasons) X(D, throttle_time_s) X(S, throttled) X(I, throttle_discarded) X(S, telemetry_why) \
    X(D, clock_MHz)     X(S, clock_check) \
    X(D, ref_energy_J)  X(D, cpu_temp_max_C) X(S, cpu_sensor_why) \
    X(S, ref_method)    X(D, check_fraction) X(S, recheck) \
    X(D, theoretical_fma_flop_per_s) X(D, theoretical_coopmat_flop_per_s) X(S, ceiling_why) \
    X(D, injected_factor) X(S, concurrent_runs) \
    X(D, wall_s)        X(D, setup_s)      X(D, ref_s)         X(D, ref_wait_s)    X(D, check_s) \
    X(D, timing_s)      X(D, energy_s)     X(D, cpu_fast_s)    X(D, cpu_wait_s)    X(D, overhead_s) \
    X(S, pipeline_stats) X(S, profile) \
    X(S, note)

/* An integer column that was not measured (a SKIP row's check counts, say): written and read back as NA. */
#define VKB_NA_I INT64_MIN
#define VKB_STR_LEN 512   /* util_why and telemetry_why gather several reasons: keep them whole */

typedef struct vkb_result {
#define VKB_X_FIELD_S(name) char name[VKB_STR_LEN];
#define VKB_X_FIELD_I(name) int64_t name;
#define VKB_X_FIELD_D(name) double name;
#define VKB_X_FIELD(t, name) VKB_X_FIELD_##t(name)
    VKB_RESULT_COLUMNS(VKB_X_FIELD)
#undef VKB_X_FIELD
} vkb_result;

/* A fresh record: strings empty, integers 0, reals NAN. */
void vkb_result_init(vkb_result *r);

void vkb_result_write_header(FILE *f);
/* One CSV row; strings are quoted when they hold a comma, quote or newline. Flushes f. */
void vkb_result_write_row(FILE *f, const vkb_result *r);

/* Read a results.csv. Columns are matched by name (unknown ones ignored, missing ones left
 * as from vkb_result_init: a reader that needs a column asks vkb_result_require first). Returns the number of
 * rows (rows in *out, caller frees), or -1 with "file:line: message" in err: wrong field count, unterminated
 * quote, no header, a numeric cell that is empty or not a number (unmeasured is "NA"; never NA in line,
 * case_id, seed), a status vkbench does not write (vkb_result_status_known). An empty status reads as an absent
 * status column does (""), so what is read writes back and reads again; readers that count by status ask
 * vkb_result_need_status. */
long vkb_result_read(const char *path, vkb_result **out, char *err, size_t errlen);

/* The same from an open stream (read to its end, not closed); name is used in the messages. */
long vkb_result_read_stream(FILE *f, const char *name, vkb_result **out, char *err, size_t errlen);
/* 1 when s is a status the writer produces: PASS, TIMED, FAIL, SKIP, ERROR or INTERRUPTED. */
int vkb_result_status_known(const char *s);
/* 0 when every row has a status, else -1 with "path: data row K (case_id, kernel, params): no status" in err. */
int vkb_result_need_status(const char *path, const vkb_result *rows, long n, char *err, size_t errlen);
/* The statuses above, as text for messages ("PASS, TIMED, ... or INTERRUPTED"). */
extern const char vkb_result_statuses[];
/* The index of a column of the schema by name, or -1. */
int vkb_result_column(const char *name);
/* 0 when the header of the CSV file at path names every column need[0..n), else -1 with
 * "path:1: missing required column 'X'" (or the open/parse error) in err. */
int vkb_result_require(const char *path, const char *const *need, size_t n, char *err, size_t errlen);

/* Split one CSV line into at most max fields (in place, unquoting). Returns the field count or -1. */
int vkb_csv_split(char *line, char **fields, int max);
/* Write s as a CSV field. */
void vkb_csv_field(FILE *f, const char *s);

/* Raw samples: samples.csv has columns case_id,sample,time_s,batch. */
void vkb_samples_write_header(FILE *f);
void vkb_samples_write(FILE *f, int64_t case_id, const double *t, size_t n, int64_t batch);
/* samples.csv read as the analysis of finished results needs it: a header naming case_id, sample, time_s and
 * batch; on every line an integer case_id >= 0, sample >= 0 and batch >= 1, and a time_s that is a positive finite
 * number (an unmeasured time has no line: NA, 0, inf and text are refused). case_id >= 0: that case's samples
 * only; -1: all. torn_tail: a last line cut short without its newline (the case in flight when a run was killed)
 * is skipped rather than refused. Returns the count with the times in *t and, when ids is not NULL, the case ids
 * in *ids, in file order (caller frees both); or -1 with "path:LINE: ..." in err. */
long vkb_samples_load(const char *path, int64_t case_id, int torn_tail, int64_t **ids, double **t, char *err,
                      size_t errlen);
long vkb_samples_load_stream(FILE *f, const char *name, int64_t case_id, int torn_tail, int64_t **ids, double **t,
                             char *err, size_t errlen);
/* The samples of one timed case of results_csv (row r) checked the way compare checks them: read with
 * vkb_samples_load, at least one, and as many as r->samples says when it is a count. Returns the count (times in
 * *t, caller frees) or -1 with err naming samples.csv (with the line where one is at fault) and the case.
 * torn_tail as for vkb_samples_load. */
long vkb_samples_for_row(const char *samples_csv, const char *results_csv, const vkb_result *r, int torn_tail, double **t,
                         char *err, size_t errlen);
/* The count check of vkb_samples_for_row alone, for a reader that loaded samples.csv once: 0 when ns (the samples
 * found for row r) is at least one and what r->samples says, else -1 with the same message in err. */
int vkb_samples_match_row(const char *samples_csv, const char *results_csv, const vkb_result *r, long ns, char *err,
                          size_t errlen);

#endif
