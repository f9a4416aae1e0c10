/* compare_out.c — what `vkbench compare` writes: the markdown table, verdicts.csv, the plot data, the CI
 * summary (markdown) and JUnit XML (see compare.h). Pure: no Vulkan, no statistics. */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "result.h"

static const char *const VERDICTS[4] = {"SAME", "FASTER", "SLOWER", "INCONCLUSIVE"};

/* ",m1 m2 ..." (launch medians, seconds, space-separated so the field needs no quoting), or ",NA". */
static void put_medians(FILE *f, const vkb_cmp_side *s)
{
    double *m = s->k > 0 ? malloc((size_t)s->k * sizeof(*m)) : NULL;
    if (!m || vkb_cmp_side_medians(s, m)) {
        fputs(",NA", f);
        free(m);
        return;
    }
    for (int c = 0; c < s->k; c++) fprintf(f, "%s%.6g", c ? " " : ",", m[c]);
    free(m);
}

void vkb_cmp_write_markdown(FILE *f, const vkb_cmp_row *rows, size_t n, const vkb_cmp_opts *o, size_t family)
{
    int cnt[4] = {0}, regress = 0;
        fprintf(f, "| verdict | kernel | params | mode | baseline | candidate | ratio | 95%% CI | p (BH) | floor | n (launches) | correctness | reason |\n");
    fprintf(f, "|---|---|---|---|---:|---:|---:|---|---:|---:|---|---|---|\n");
    for (size_t i = 0; i < n; i++) {
        const vkb_cmp_row *r = &rows[i];
        char a[24], b[24], ci[48] = "NA", ratio[16] = "NA", p[40] = "NA";
        for (int v = 0; v < 4; v++) cnt[v] += !strcmp(r->verdict, VERDICTS[v]);
        regress += !strcmp(r->correctness, "REGRESSION");
        if (!isnan(r->ratio)) snprintf(ratio, sizeof(ratio), "%.4f", r->ratio);
        if (!isnan(r->ci_lo)) snprintf(ci, sizeof(ci), "[%.4f, %.4f]", r->ci_lo, r->ci_hi);
        if (!isnan(r->p) && !isnan(r->p_bh)) snprintf(p, sizeof(p), "%.2g (%.2g)", r->p, r->p_bh);
        else if (!isnan(r->p)) snprintf(p, sizeof(p), "%.2g (NA: not in BH)", r->p);
        /* What variant=auto chose (both sides where they differ): the params alone do not say. */
        char par[sizeof(r->params) + 2 * sizeof(r->variant) + 32];
        snprintf(par, sizeof(par), "%s", r->params);
        int moved = r->base_variant[0] && strcmp(r->variant, r->base_variant);
        if (!strncmp(r->variant, "auto:", 5) || moved)
            snprintf(par + strlen(par), sizeof(par) - strlen(par), " (%s%s%s)", r->variant, moved ? "; baseline " : "",
                     moved ? r->base_variant : "");
        fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f%% | %zu (%d) / %zu (%d) | %s | %s |\n",
                r->verdict, r->kernel, par, r->mode, vkb_fmt_time(r->med_base, a, sizeof(a)),
                vkb_fmt_time(r->med_cand, b, sizeof(b)), ratio, ci, p, 100 * r->delta, r->base.n, r->base.k, r->cand.n,
                r->cand.k, r->correctness, r->reason);
    }
    fprintf(f, "\n%d SAME, %d FASTER, %d SLOWER, %d INCONCLUSIVE; %d correctness regressions. "
               "ratio = median(candidate)/median(baseline); 95%% percentile bootstrap CI (%d resamples, launches "
               "resampled as clusters); two-sided Mann-Whitney U over the samples; with >= 2 launches a side also an exact "
               "Mann-Whitney U over the launch medians (p = the larger of the two) and the CI widened to a Welch t "
               "interval over log launch medians; "
               "Benjamini-Hochberg at q = %.3g over the %zu cases in its family (not in it: one launch a side, or too few "
               "launches or samples for p to reach q; those can be SAME, never FASTER or SLOWER).\n",
            cnt[0], cnt[1], cnt[2], cnt[3], regress, o->resamples, o->q, family);
}

void vkb_cmp_write_csv(FILE *f, const vkb_cmp_row *rows, size_t n)
{
    fprintf(f, "kernel,variant,params,dtype,mode,base_status,cand_status,correctness,verdict,reason,n_base,n_cand,"
               "launches_base,launches_cand,median_base_s,median_cand_s,ratio,ci_lo,ci_hi,p,p_bh,min_p,delta,"
               "significant,below_floor,mde80,p_samples,p_launches,undecided,injected_factor,launch_medians_base_s,"
               "launch_medians_cand_s,skipped_base,skipped_cand\n");
    for (size_t i = 0; i < n; i++) {
        const vkb_cmp_row *r = &rows[i];
        const char *s[] = {r->kernel, r->variant, r->params, r->dtype, r->mode, r->base_status, r->cand_status,
                           r->correctness, r->verdict, r->reason};
        for (size_t j = 0; j < sizeof(s) / sizeof(s[0]); j++) {
            vkb_csv_field(f, s[j][0] ? s[j] : (j == 5 || j == 6 ? "NA" : ""));
            fputc(',', f);
        }
        fprintf(f, "%zu,%zu,%d,%d", r->base.n, r->cand.n, r->base.k, r->cand.k);
        const double d[] = {r->med_base, r->med_cand, r->ratio, r->ci_lo, r->ci_hi, r->p, r->p_bh, r->min_p, r->delta};
        for (size_t j = 0; j < sizeof(d) / sizeof(d[0]); j++)
            isnan(d[j]) ? fputs(",NA", f) : fprintf(f, ",%.10g", d[j]);
        fprintf(f, ",%d,%d,", r->significant, r->below_floor);
        isnan(r->mde80) ? fputs("NA", f) : fprintf(f, "%.6g", r->mde80);
        isnan(r->p_samples) ? fputs(",NA", f) : fprintf(f, ",%.10g", r->p_samples);
        isnan(r->p_launches) ? fputs(",NA", f) : fprintf(f, ",%.10g", r->p_launches);
        fprintf(f, ",%d,", r->undecided);
        isnan(r->injected) ? fputs("NA", f) : fprintf(f, "%.6g", r->injected);
        put_medians(f, &r->base);
        put_medians(f, &r->cand);
        fprintf(f, ",%d,%d\n", r->base.skipped, r->cand.skipped);
    }
}

size_t vkb_cmp_write_plotdata(FILE *f, const vkb_cmp_row *rows, size_t n)
{
        size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const vkb_cmp_row *r = &rows[i];
        int code = 3;
        if (isnan(r->ratio) || isnan(r->ci_lo)) continue;
        for (int v = 0; v < 4; v++)
            if (!strcmp(r->verdict, VERDICTS[v])) code = v;
        fprintf(f, "%zu\t%.10g\t%.10g\t%.10g\t%d\t%s %s %s\t%.6g\n", k++, r->ratio, r->ci_lo, r->ci_hi, code,
                r->kernel, r->params, r->mode, r->delta);
    }
    return k;
}


/* Verdict counts (SAME, FASTER, SLOWER, INCONCLUSIVE), correctness regressions, cases timed on both sides and
 * the INCONCLUSIVE among them, rows held back by the one-launch rule. */
typedef struct tally { int v[4], regress, timed, timed_inconc, one_launch, undecided; } tally;

static int timed(const char *s) { return !strcmp(s, "PASS") || !strcmp(s, "TIMED"); }

static void count(const vkb_cmp_row *rows, size_t n, tally *t)
{
    memset(t, 0, sizeof(*t));
    for (size_t i = 0; i < n; i++) {
        const vkb_cmp_row *r = &rows[i];
        int inc = !strcmp(r->verdict, "INCONCLUSIVE");
        for (int v = 0; v < 4; v++) t->v[v] += !strcmp(r->verdict, VERDICTS[v]);
        t->regress += !strcmp(r->correctness, "REGRESSION");
        t->undecided += r->undecided;
        if (timed(r->base_status) && timed(r->cand_status)) t->timed++, t->timed_inconc += inc;
        t->one_launch += inc && !strncmp(r->reason, "one launch per side", 19);
    }
}

static const char *outcome(int code)
{
    return code == VKB_GATE_OK ? "no regression" : code == VKB_GATE_PERF ? "performance regression"
           : code == VKB_GATE_CORRECTNESS ? "correctness regression" : code == VKB_GATE_INPUT ? "input error"
           : "INCONCLUSIVE";
}

void vkb_cmp_write_summary(FILE *f, const vkb_cmp_row *rows, size_t n, const vkb_cmp_opts *o, const vkb_cmp_outcome *out)
{
    tally t;
    count(rows, n, &t);
    if (t.timed && 2 * t.timed_inconc > t.timed)
        fprintf(f, "**INCONCLUSIVE: %d of the %d cases timed on both sides could not be decided, so this gate measured "
                   "little.** The reasons are in the table; more launches (ROUNDS) or a quieter device help.\n\n",
                t.timed_inconc, t.timed);
    fprintf(f, "## vkbench compare: %s (exit %d)\n\n", out->raw_code == VKB_GATE_INCONCLUSIVE && out->code == VKB_GATE_OK ?
            "INCONCLUSIVE, allowed by --allow-inconclusive" : outcome(out->code), out->code);
    fprintf(f, "baseline: %s  \ncandidate: %s\n\n", out->base, out->cand);
    if (out->note && out->note[0]) fprintf(f, "**%s**\n\n", out->note);
    if (out->why) fprintf(f, "**%s**\n\n", out->why);
    if (out->allow_inconclusive)
        fprintf(f, "- `--allow-inconclusive`: undecided cases (%d) do not fail this gate; without it they exit %d.\n",
                t.undecided, VKB_GATE_INCONCLUSIVE);
    if (o->allow_one_launch)
        fprintf(f, "- `--allow-one-launch`: FASTER/SLOWER may come from one launch on a side, where only within-launch "
                   "noise is seen (launch-to-launch drift is invisible; an A/A pair can look different).\n");
    else if (t.one_launch)
        fprintf(f, "- %d cases have one launch on a side: between-launch variance is unknown, so FASTER/SLOWER are "
                   "withheld (INCONCLUSIVE). Compare directories of >= 5 launches a side (`harness/gate.sh run` leaves "
                   "its launches in OUT/candidate), or pass `--allow-one-launch`.\n", t.one_launch);
    if (out->allow_inconclusive || o->allow_one_launch || t.one_launch) fputc('\n', f);
    vkb_cmp_write_markdown(f, rows, n, o, out->family);
}

/* s as XML attribute or text content: markup escaped, control characters (not allowed in XML 1.0) as '?'. */
static void xml_str(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '&') fputs("&amp;", f);
        else if (ch == '<') fputs("&lt;", f);
        else if (ch == '>') fputs("&gt;", f);
        else if (ch == '"') fputs("&quot;", f);
        else if (ch == '\'') fputs("&apos;", f);
        else if (ch < 0x20 && ch != '\t' && ch != '\n') fputc('?', f);
        else fputc(ch, f);
    }
}

void vkb_cmp_write_junit(FILE *f, const vkb_cmp_row *rows, size_t n, const vkb_cmp_outcome *out)
{
    tally t;
    int failures = 0;
    count(rows, n, &t);
    for (size_t i = 0; i < n; i++)
        failures += !strcmp(rows[i].verdict, "SLOWER") || !strcmp(rows[i].correctness, "REGRESSION");
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"vkbench compare\" tests=\"%zu\" "
               "failures=\"%d\" errors=\"0\" skipped=\"%d\">\n<testsuite name=\"vkbench gate\" tests=\"%zu\" "
               "failures=\"%d\" errors=\"0\" skipped=\"%d\">\n<properties>\n",
            n, failures, t.v[3], n, failures, t.v[3]);
    const char *pk[] = {"baseline", "candidate", "outcome"}, *pv[] = {out->base, out->cand, outcome(out->code)};
    for (int i = 0; i < 3; i++) {
        fprintf(f, "<property name=\"%s\" value=\"", pk[i]);
        xml_str(f, pv[i]);
        fputs("\"/>\n", f);
    }
    fprintf(f, "<property name=\"exit_status\" value=\"%d\"/>\n</properties>\n", out->code);
    for (size_t i = 0; i < n; i++) {
        const vkb_cmp_row *r = &rows[i];
        char msg[600], ratio[120] = "";
        if (!isnan(r->ratio) && !isnan(r->ci_lo))
            snprintf(ratio, sizeof(ratio), "ratio %.4f, 95%% CI [%.4f, %.4f], p %.3g (BH %.3g), floor %.1f%%", r->ratio,
                     r->ci_lo, r->ci_hi, r->p, r->p_bh, 100 * r->delta);
        fputs("<testcase classname=\"vkbench.", f);
        xml_str(f, r->kernel);
        fputs("\" name=\"", f);
        xml_str(f, r->params[0] ? r->params : "(no parameters)");
        fprintf(f, " [%s %s %s]\" time=\"%.9g\">", r->variant, r->dtype, r->mode, isnan(r->med_cand) ? 0 : r->med_cand);
        const char *tag = !strcmp(r->correctness, "REGRESSION") || !strcmp(r->verdict, "SLOWER") ? "failure"
                          : !strcmp(r->verdict, "INCONCLUSIVE") ? "skipped" : NULL;
        if (!strcmp(r->correctness, "REGRESSION"))
            snprintf(msg, sizeof(msg), "correctness regression: baseline %s, candidate %s: %s", r->base_status,
                     r->cand_status, r->reason);
        else snprintf(msg, sizeof(msg), "%s%s%s%s%s", r->verdict, ratio[0] ? ": " : "", ratio, r->reason[0] ? "; " : "",
                      r->reason);
        if (tag) {
            fprintf(f, "\n  <%s message=\"", tag);
            xml_str(f, msg);
            fputs("\"", f);
            if (!strcmp(tag, "failure")) fprintf(f, " type=\"%s\"", strcmp(r->verdict, "SLOWER") ? "correctness" : "SLOWER");
            fputs("/>\n", f);
        } else {
            fputs("\n  <system-out>", f);
            xml_str(f, msg);
            fputs("</system-out>\n", f);
        }
        fputs("</testcase>\n", f);
    }
    fputs("</testsuite>\n</testsuites>\n", f);
}
