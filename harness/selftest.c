/* selftest.c — `vkbench gate-summary`: tallies the gate's own A/A false alarms and injected-slowdown
 * detections from the verdicts.csv files harness/gate.sh selftest leaves (pure: no Vulkan). */
#include <dirent.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "compare.h"
#include "result.h"

#define MAXCMP 1000

typedef struct tally {
    char key[240], kernel[40];
    int injected;
    int aa[4], inj[4];              /* SAME FASTER SLOWER INCONCLUSIVE counts */
    int inj_skip;                   /* slowed launches that SKIPped the case (calibration failed) */
    double base_s[MAXCMP], ratio[MAXCMP], mde[MAXCMP], factor[MAXCMP];
    size_t nbase, nratio, nmde, nfactor;
} tally;

static const char *const VERDICT[4] = {"SAME", "FASTER", "SLOWER", "INCONCLUSIVE"};

static double med(double *x, size_t n)
{
    if (!n) return NAN;
    gsl_sort(x, 1, n);
    return gsl_stats_median_from_sorted_data(x, 1, n);
}

static int col(char **hdr, int nf, const char *name)
{
    for (int j = 0; j < nf; j++)
        if (!strcmp(hdr[j], name)) return j;
    return -1;
}

/* Is kernel named in "K=F,K=F..."? */
static int spec_has(const char *spec, const char *kernel)
{
    size_t n = strlen(kernel);
    for (const char *p = spec; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, kernel, n) && p[n] == '=') return 1;
    return 0;
}

static double num(const char *s) { return strcmp(s, "NA") ? strtod(s, NULL) : NAN; }

/* One line for a case of >= min_s that an A/A comparison could not call SAME (too noisy) or called
 * different: its launch medians, so a bimodal launch, a slow allocation or a drift shows. */
static void print_launches(FILE *out, const char *path, const char *key, const char *verdict, const char *reason,
                           const char *mb, const char *mc)
{
    fprintf(out, "- %s: `%s` %s%s%s; launch medians (s): baseline %s; candidate %s\n", path, key, verdict,
            reason[0] ? ": " : "", reason, mb, mc);
}

/* One verdicts.csv; inj: 0 A/A, 1 injected. *alarm = a non-injected case was SLOWER/FASTER; *missed =
 * an injected case of >= min_s was not SLOWER; *hit counts injected cases >= min_s found SLOWER. A/A rows
 * of >= min_s that were not SAME get their launch medians written to noisy. */
static int read_verdicts(const char *path, int inj, const char *slow, double min_s, tally **t, size_t *nt,
                         int *alarm, int *hit, int *total, FILE *noisy, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char *line = NULL, *hdr = NULL, *hf[64], *fld[64];
    size_t cap = 0;
    int nf = -1, lineno = 0, rc = -1;
    if (!f) { snprintf(err, errlen, "%s: cannot open", path); return -1; }
    while (getline(&line, &cap, f) > 0) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (lineno == 1) {
            hdr = strdup(line);
            if (!hdr || (nf = vkb_csv_split(hdr, hf, 64)) < 0) goto bad;
            continue;
        }
        if (vkb_csv_split(line, fld, 64) != nf) goto bad;
        int jk = col(hf, nf, "kernel"), jp = col(hf, nf, "params"), jm = col(hf, nf, "mode"), jv = col(hf, nf, "verdict");
        int jb = col(hf, nf, "median_base_s"), jr = col(hf, nf, "ratio"), jd = col(hf, nf, "mde80");
        int jw = col(hf, nf, "reason"), jf = col(hf, nf, "injected_factor");
        int jlb = col(hf, nf, "launch_medians_base_s"), jlc = col(hf, nf, "launch_medians_cand_s");
        int js = col(hf, nf, "skipped_cand");
        if (jk < 0 || jp < 0 || jm < 0 || jv < 0 || jb < 0 || jr < 0 || jd < 0 || jw < 0) goto bad;
        char key[240];
        snprintf(key, sizeof(key), "%s %s %s", fld[jk], fld[jp], fld[jm]);
        tally *x = NULL;
        for (size_t i = 0; i < *nt; i++)
            if (!strcmp((*t)[i].key, key)) x = &(*t)[i];
        if (!x) {
            tally *nt2 = realloc(*t, (*nt + 1) * sizeof(**t));
            if (!nt2) goto bad;
            *t = nt2;
            x = &(*t)[(*nt)++];
            memset(x, 0, sizeof(*x));
            snprintf(x->key, sizeof(x->key), "%s", key);
            snprintf(x->kernel, sizeof(x->kernel), "%s", fld[jk]);
            x->injected = spec_has(slow, x->kernel);
        }
        int v = 3;
        for (int k = 0; k < 4; k++)
            if (!strcmp(fld[jv], VERDICT[k])) v = k;
        (inj ? x->inj : x->aa)[v]++;
        double b = num(fld[jb]), r = num(fld[jr]), d = num(fld[jd]), fa = jf >= 0 ? num(fld[jf]) : NAN;
        if (!isnan(b) && x->nbase < MAXCMP) x->base_s[x->nbase++] = b;
        if (inj && !isnan(r) && x->nratio < MAXCMP) x->ratio[x->nratio++] = r;
        if (inj && !isnan(fa) && x->nfactor < MAXCMP) x->factor[x->nfactor++] = fa;
        if (!inj && !isnan(d) && x->nmde < MAXCMP) x->mde[x->nmde++] = d;
        if (inj && x->injected && js >= 0) x->inj_skip += atoi(fld[js]);
        if (!inj && v != 0 && !isnan(b) && b >= min_s)
            print_launches(noisy, path, key, fld[jv], fld[jw], jlb >= 0 ? fld[jlb] : "NA", jlc >= 0 ? fld[jlc] : "NA");
        if (inj && x->injected) {
            if (!isnan(b) && b >= min_s) {
                (*total)++;
                *hit += v == 2;
            }
        } else if (v == 1 || v == 2) *alarm = 1;
    }
    rc = 0;
    goto done;
bad:
    snprintf(err, errlen, "%s:%d: not a verdicts.csv line", path, lineno);
done:
    free(line);
    free(hdr);
    fclose(f);
    return rc;
}

static int list_dirs(const char *root, char ***out, char *err, size_t errlen)
{
    DIR *d = opendir(root);
    int n = 0;
    *out = NULL;
    if (!d) { snprintf(err, errlen, "%s: cannot open", root); return -1; }
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(root) + strlen(e->d_name) + 32;
        char *path = malloc(len);
        if (!path) break;
        snprintf(path, len, "%s/%s/verdicts.csv", root, e->d_name);
        FILE *probe = e->d_name[0] == '.' ? NULL : fopen(path, "r");   /* comparison directories only */
        if (!probe) { free(path); continue; }
        fclose(probe);
        char **nv = realloc(*out, (size_t)(n + 1) * sizeof(*nv));
        if (!nv) { free(path); break; }
        *out = nv;
        (*out)[n++] = path;
    }
    closedir(d);
    return n;
}

int vkb_gate_summary_cmd(int argc, char **argv)
{
    const char *slow = NULL;
    double min_s = 0;
    char err[600];
    int c;
    optind = 1;
    while ((c = getopt(argc, argv, "s:m:h")) != -1) {
        if (c == 's') slow = optarg;
        else if (c == 'm') min_s = strtod(optarg, NULL);
        else {
            fprintf(c == 'h' ? stdout : stderr, "usage: vkbench gate-summary -s KERNEL=F[,..] [-m MIN_SECONDS] AA_DIR INJ_DIR\n"
                    "  AA_DIR/*/verdicts.csv: A/A comparisons; INJ_DIR/*/verdicts.csv: the injected-slowdown ones\n");
            return c == 'h' ? VKB_GATE_OK : VKB_GATE_INPUT;
        }
    }
    if (argc - optind != 2 || !slow) {
        fprintf(stderr, "vkbench gate-summary: want -s SPEC AA_DIR INJ_DIR\n");
        return VKB_GATE_INPUT;
    }
    tally *t = NULL;
    size_t nt = 0, noisy_len = 0;
    char *noisy_buf = NULL;
    FILE *noisy = open_memstream(&noisy_buf, &noisy_len);
    if (!noisy) return VKB_GATE_INPUT;
    int n_aa = 0, n_inj = 0, aa_alarm = 0, inj_alarm = 0, hit = 0, total = 0, rc = VKB_GATE_OK;
    for (int side = 0; side < 2 && rc == VKB_GATE_OK; side++) {
        char **files;
        int n = list_dirs(argv[optind + side], &files, err, sizeof(err));
        if (n < 0) rc = VKB_GATE_INPUT;
        for (int i = 0; i < n; i++) {
            int alarm = 0, h = 0, tot = 0;
            if (rc == VKB_GATE_OK &&
                read_verdicts(files[i], side, slow, min_s, &t, &nt, &alarm, &h, &tot, noisy, err, sizeof(err)))
                rc = VKB_GATE_INPUT;
            if (side) n_inj++, inj_alarm += alarm, hit += h, total += tot;
            else n_aa++, aa_alarm += alarm;
            free(files[i]);
        }
        free(files);
    }
    fclose(noisy);
    if (rc) {
        fprintf(stderr, "vkbench gate-summary: %s\n", err);
        free(t);
        free(noisy_buf);
        return rc;
    }
    printf("| case | injected | baseline median | A/A SAME/FASTER/SLOWER/INCONCL. | A/A false alarms | injected "
           "SAME/FASTER/SLOWER/INCONCL. | slowed launches SKIPped (calibration failed) | achieved factor (median) | median injected ratio | "
           "MDE 80%% (median over A/A) |\n|---|---|---:|---|---:|---|---:|---:|---:|---:|\n");
    int aa_false_slower = 0;
    for (size_t i = 0; i < nt; i++) {
        tally *x = &t[i];
        int naa = x->aa[0] + x->aa[1] + x->aa[2] + x->aa[3];
        double b = med(x->base_s, x->nbase), r = med(x->ratio, x->nratio), d = med(x->mde, x->nmde);
        double fa = med(x->factor, x->nfactor);
        aa_false_slower += x->aa[2];
        char fas[16] = "NA";
        char rs[16] = "NA", ds[16] = "NA";   /* NA: no comparison of this case decided a ratio or an MDE */
        if (!isnan(fa)) snprintf(fas, sizeof(fas), "%.4f", fa);
        if (!isnan(r)) snprintf(rs, sizeof(rs), "%.4f", r);
        if (!isnan(d)) snprintf(ds, sizeof(ds), "%.2f%%", 100 * d);
        printf("| %s | %s | %.4g us | %d/%d/%d/%d | %d/%d | %d/%d/%d/%d | %d | %s | %s | %s |\n", x->key,
               x->injected ? "yes" : "no", 1e6 * b, x->aa[0], x->aa[1], x->aa[2], x->aa[3], x->aa[1] + x->aa[2],
               naa, x->inj[0], x->inj[1], x->inj[2], x->inj[3], x->inj_skip, fas, rs, ds);
    }
    printf("\nA/A cases of >= %.3g s that were not SAME, with their launch medians:\n%s", min_s,
           noisy_len ? noisy_buf : "- none\n");
    free(noisy_buf);
    printf("\naa_comparisons: %d\naa_false_slower: %d\naa_suite_false_alarms: %d/%d (%.1f%%; comparisons with >= 1 "
           "SLOWER or FASTER)\ninj_comparisons: %d\ninj_detected: %d/%d (injected cases with baseline median >= "
           "%.3g s found SLOWER)\ninj_other_false_alarms: %d/%d (comparisons where a non-injected case was "
           "SLOWER or FASTER)\n",
           n_aa, aa_false_slower, aa_alarm, n_aa, n_aa ? 100.0 * aa_alarm / n_aa : 0.0, n_inj, hit, total, min_s,
           inj_alarm, n_inj);
    free(t);
    return VKB_GATE_OK;
}
