/* report_verify.c — `vkbench report --verify` and the report command line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_impl.h"

/* ---------------- verification ---------------- */

static int cmp_len(const void *a, const void *b)
{
    size_t x = strlen(*(char *const *)a), y = strlen(*(char *const *)b);
    return x < y ? 1 : x > y ? -1 : 0;
}

static int numch(char c) { return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == '+' || c == '-'; }

/* First occurrence of t in md not glued to other number characters (so "1" does not match inside "21"). */
static char *find_token(char *md, const char *t)
{
    size_t n = strlen(t);
    for (char *at = strstr(md, t); at; at = strstr(at + 1, t))
        if ((at == md || !numch(at[-1]) || !numch(t[0])) && (!numch(at[n]) || !numch(t[n - 1]))) return at;
    return NULL;
}

int vkb_report_verify(const char *dir, FILE *out, char *err, size_t errlen)
{
    char path[700], line[4096], *fl[12];
    const char *dirs[MAX_RUNS];
    char dirbuf[MAX_RUNS][512];
    rrun runs[MAX_RUNS];
    int nr = 0, problems = 0;
    char *md = NULL;
    memset(runs, 0, sizeof(runs));
    snprintf(path, sizeof(path), "%s/report-numbers.csv", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof(line), f) && !strncmp(line, "# run ", 6) && nr < MAX_RUNS) {
        int idx;
        char d[512];
        /* run 0 is the directory the report is in (it may have been copied since); others as recorded */
        if (sscanf(line, "# run %d %511[^\n]", &idx, d) == 2)
            snprintf(dirbuf[nr], 512, "%s", nr ? d : dir), dirs[nr] = dirbuf[nr], nr++;
    }
    if (rep_read_runs(runs, dirs, nr, err, errlen)) {
        fclose(f);
        rep_free_runs(runs, nr);
        return -1;
    }
    snprintf(path, sizeof(path), "%s/report.md", dir);
    FILE *m = fopen(path, "r");
    long len = 0;
    if (m && !fseek(m, 0, SEEK_END) && (len = ftell(m)) >= 0 && !fseek(m, 0, SEEK_SET) && (md = malloc((size_t)len + 1)))
        md[fread(md, 1, (size_t)len, m)] = 0;
    if (m) fclose(m);
    if (!md) {
        snprintf(err, errlen, "%s: cannot read", path);
        fclose(f);
        rep_free_runs(runs, nr);
        return -1;
    }
    long entries = 0, ntexts = 0;
    char **texts = NULL;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (vkb_csv_split(line, fl, 12) != 9) continue;
        entries++;
        src s = {.run = atoi(fl[2]), .case_id = atoll(fl[3]), .scale = strtod(fl[6], NULL), .sig = atoi(fl[7])};
        snprintf(s.kind, sizeof(s.kind), "%s", fl[1]);
        snprintf(s.a, sizeof(s.a), "%s", fl[4]);
        snprintf(s.b, sizeof(s.b), "%s", fl[5]);
        char want[200];
        rep_render(runs, nr, &s, want, sizeof(want));
        for (char *p = want; *p; p++)
            if (*p == '|' || *p == '\n') *p = ' ';
        if (strcmp(want, fl[8])) {
            fprintf(out, "number %s (%s %s/%s of run %d case %s): report says '%s', the CSVs give '%s'\n", fl[0], s.kind,
                    s.a, s.b, s.run, fl[3], fl[8], want);
            problems++;
        }
        if (!strpbrk(fl[8], "0123456789")) continue;  /* nothing to account for */
        char **nt = realloc(texts, (size_t)(ntexts + 1) * sizeof(*texts));
        if (!nt || !(nt[ntexts] = strdup(fl[8]))) {
            texts = nt ? nt : texts;
            fprintf(out, "out of memory\n");
            problems++;
            break;
        }
        texts = nt, ntexts++;
    }
    /* Longest texts first, so a short number never takes its digits from inside a longer entry. */
    qsort(texts, (size_t)ntexts, sizeof(*texts), cmp_len);
    for (long t = 0; t < ntexts; t++) {
        char *at = find_token(md, texts[t]);
        if (!at) {
            fprintf(out, "'%s' (from report-numbers.csv) does not appear in report.md\n", texts[t]);
            problems++;
        } else {
            memset(at, '_', strlen(texts[t]));  /* accounted for */
        }
        free(texts[t]);
    }
    free(texts);
    fclose(f);
    for (char *p = md; *p; p++) {
        if (p[0] == ']' && p[1] == '(') {  /* link targets: file names */
            char *e = strchr(p, ')');
            if (e) p = e;
            continue;
        }
        if (*p >= '0' && *p <= '9') {
            char ctx[60];
            snprintf(ctx, sizeof(ctx), "%.40s", p > md + 15 ? p - 15 : md);
            for (char *q = ctx; *q; q++)
                if (*q == '\n') *q = ' ';
            fprintf(out, "report.md has a digit no entry accounts for: ...%s...\n", ctx);
            problems++;
            while (p[1] >= '0' && p[1] <= '9') p++;
        }
    }
    if (!entries) fprintf(out, "report-numbers.csv lists no numbers\n"), problems++;
    free(md);
    rep_free_runs(runs, nr);
    return problems;
}

int vkb_report_cli(int argc, char **argv)
{
    const char *dirs[MAX_RUNS];
    vkb_report_opts o = {.runs = dirs};
    int verify = 0;
    char err[1024];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: vkbench report [--verify] [--no-plots] [--compare FILE.csv] [--plots DIR] RUN_DIR...\n"
                   "  writes report.md, report.html (plots inlined) and report-numbers.csv into the first RUN_DIR;\n"
                   "  several runs (several devices) appear side by side\n"
                   "  --verify          recompute every number in RUN_DIR/report.md from the CSVs (exit 1 on a mismatch)\n"
                   "  --no-plots        write the plot data, do not run gnuplot\n"
                   "  --compare F.csv   add the gate's ratio chart from a `vkbench compare` verdicts.csv\n"
                   "  --plots DIR       where the gnuplot templates are (default: plots/ of the checkout vkbench was built in)\n");
            return 0;
        }
        if (!strcmp(argv[i], "--verify")) verify = 1;
        else if (!strcmp(argv[i], "--no-plots")) o.no_plots = 1;
        else if (!strcmp(argv[i], "--compare") && i + 1 < argc) o.compare_csv = argv[++i];
        else if (!strcmp(argv[i], "--plots") && i + 1 < argc) o.plot_dir = argv[++i];
        else if (argv[i][0] == '-' || o.nruns == MAX_RUNS) {
            fprintf(stderr, "vkbench report: %s: expected [--verify] [--no-plots] [--compare FILE.csv] [--plots DIR] "
                            "RUN_DIR... (at most %d)\n", argv[i], MAX_RUNS);
            return 3;
        } else dirs[o.nruns++] = argv[i];
    }
    if (!o.nruns) {
        fprintf(stderr, "vkbench report: give at least one run directory\n");
        return 3;
    }
    char partial[2400];
    if (rep_partial_runs(dirs, o.nruns, 0, partial, sizeof(partial)))  /* the first line says so */
        printf("vkbench report: PARTIAL: %s\n", partial);
    if (verify) {
        int p = vkb_report_verify(dirs[0], stdout, err, sizeof(err));
        if (p < 0) fprintf(stderr, "vkbench report: %s\n", err);
        else printf("%s: %d problem%s\n", dirs[0], p, p == 1 ? "" : "s");
        return p < 0 ? 3 : p ? 1 : 0;
    }
    int w = vkb_report_write(&o, err, sizeof(err));
    if (w < 0) {
        fprintf(stderr, "vkbench report: %s\n", err);
        return 3;
    }
    if (w) fprintf(stderr, "vkbench report: WARNING: %s\n", err);
    printf("report in %s/report.md and %s/report.html\n", dirs[0], dirs[0]);
    return 0;
}
