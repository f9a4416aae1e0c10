/* report_out.c — the report's output: markdown and HTML side by side, every number registered in
 * report-numbers.csv, plots rendered from the gnuplot templates. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report_impl.h"

extern char **environ;

/* ---------------- output: markdown + HTML side by side ---------------- */

static void html_esc(FILE *f, const char *s)
{
    for (; *s; s++)
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else fputc(*s, f);
}

/* Register and render one number (or string cell); returns the text (valid for the next 64 calls). */
const char *rep_num(rep *R, const char *kind, int run, int64_t case_id, const char *a, const char *b, double scale,
                       int sig)
{
    src s = {.run = run, .case_id = case_id, .scale = scale, .sig = sig};
    snprintf(s.kind, sizeof(s.kind), "%s", kind);
    snprintf(s.a, sizeof(s.a), "%s", a ? a : "");
    snprintf(s.b, sizeof(s.b), "%s", b ? b : "");
    char *out = R->ring[R->ri++ % 64];
    rep_render(R->r, R->nr, &s, out, 200);
    for (char *p = out; *p; p++)
        if (*p == '|' || *p == '\n') *p = ' ';  /* keep tables intact */
    fprintf(R->nums, "%d,%s,%d,%lld,%s,%s,%.17g,%d,", R->nid++, s.kind, run, (long long)case_id, s.a, s.b, scale, sig);
    vkb_csv_field(R->nums, out);
    fputc('\n', R->nums);
    return out;
}

const char *rep_cst(rep *R, const char *name, int sig) { return rep_num(R, "const", -1, -1, name, NULL, 1, sig); }
const char *rep_cell(rep *R, int run, const vkb_result *r, const char *c, double scale, int sig)
{
    return rep_num(R, "cell", run, r->case_id, c, NULL, scale, sig);
}
const char *rep_ratio(rep *R, int run, const vkb_result *r, const char *a, const char *b)
{
    return rep_num(R, "ratio", run, r->case_id, a, b, 1, 3);
}
const char *rep_str(rep *R, int run, const vkb_result *r, const char *c) { return rep_num(R, "str", run, r->case_id, c, NULL, 1, 0); }
const char *rep_why(rep *R, int run, const vkb_result *r, const char *c, const char *item)
{
    return rep_num(R, "why", run, r->case_id, c, item, 1, 0);
}

/* Text to both outputs: md as given; html with **x** -> <b>, escaped, paragraphs per call. */
void rep_para(rep *R, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rep_para(rep *R, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    fprintf(R->md, "%s\n\n", buf);
    fputs("<p>", R->html);
    int bold = 0;
    for (const char *p = buf; *p; p++) {
        if (p[0] == '*' && p[1] == '*') {
            fputs(bold ? "</b>" : "<b>", R->html);
            bold = !bold;
            p++;
        } else if (*p == '`') {
            continue;
        } else {
            char c[2] = {*p, 0};
            html_esc(R->html, c);
        }
    }
    fputs("</p>\n", R->html);
}

void rep_heading(rep *R, int level, const char *text)
{
    fprintf(R->md, "%.*s %s\n\n", level, "####", text);
    fprintf(R->html, "<h%d>", level);
    html_esc(R->html, text);
    fprintf(R->html, "</h%d>\n", level);
}

void rep_row(rep *R, int header, int n, const char *const *cells)
{
    fputs("|", R->md);
    fputs("<tr>", R->html);
    for (int i = 0; i < n; i++) {
        fprintf(R->md, " %s |", cells[i]);
        /* a number (or NA) is right-aligned and kept on one line with its interval and mark */
        const char *c = cells[i] + (cells[i][0] == '-');
        fputs(header ? "<th>" : isdigit((unsigned char)c[0]) || !strcmp(c, "NA") ? "<td class=n>" : "<td>", R->html);
        html_esc(R->html, cells[i]);
        fputs(header ? "</th>" : "</td>", R->html);
    }
    fputs("\n", R->md);
    fputs("</tr>\n", R->html);
    if (header) {
        fputs("|", R->md);
        for (int i = 0; i < n; i++) fputs("---|", R->md);
        fputs("\n", R->md);
    }
}
void rep_table_begin(rep *R) { fputs("<table>\n", R->html); }
void rep_table_end(rep *R)
{
    fputs("\n", R->md);
    fputs("</table>\n", R->html);
}

/* ---------------- plots ---------------- */

/* Run gnuplot -c TEMPLATE args... without a shell; stderr goes to plots/gnuplot.log. 0 when the output
 * file exists and is non-empty. */
static int gnuplot(rep *R, const char *tmpl, const char *const *args, int nargs, const char *out)
{
    char path[700], log[700];
    char *argv[16];
    int k = 0;
    snprintf(path, sizeof(path), "%s/%s", R->tmpl, tmpl);
    argv[k++] = (char *)(uintptr_t)"gnuplot";
    argv[k++] = (char *)(uintptr_t)"-c";
    argv[k++] = path;
    for (int i = 0; i < nargs && k < 15; i++) argv[k++] = (char *)(uintptr_t)args[i];
    argv[k] = NULL;
    snprintf(log, sizeof(log), "%s/gnuplot.log", R->plotdir);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, log, O_WRONLY | O_CREAT | O_APPEND, 0644);
    pid_t pid;
    int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ), st = 0;
    posix_spawn_file_actions_destroy(&fa);
    if (rc) {
        snprintf(R->noplot, sizeof(R->noplot), "gnuplot could not be started (%s)", strerror(rc));
        return -1;
    }
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) return -1;
    struct stat sb;
    return stat(out, &sb) == 0 && sb.st_size > 0 ? 0 : -1;
}

static int is_file(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

int vkb_report_templates(const char *given, char *dir, size_t len)
{
    char exe[512], probe[700], looked[600] = "";
    size_t n = 0;
    if (given) {
        snprintf(probe, sizeof(probe), "%s/roofline.gp", given);
        if (is_file(probe)) return snprintf(dir, len, "%s", given), 0;
        snprintf(dir, len, "%s (given)", given);
        return -1;
    }
    ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    exe[k > 0 ? k : 0] = 0;
    for (int up = 0; up < 4; up++) {
        char *s = strrchr(exe, '/');
        if (!s) break;
        *s = 0;
        snprintf(probe, sizeof(probe), "%s/plots/roofline.gp", exe);
        if (is_file(probe)) return snprintf(dir, len, "%s/plots", exe), 0;
        if (n < sizeof(looked)) n += (size_t)snprintf(looked + n, sizeof(looked) - n, "%s%s/plots", n ? ", " : "", exe);
    }
    snprintf(dir, len, "%s", n ? looked : "nowhere: /proc/self/exe unreadable");
    return -1;
}

/* Render NAME.svg and NAME.png from a template, then reference it from both documents. */
void rep_plot(rep *R, const char *tmpl, const char *name, const char *alt, const char *const *extra, int nextra)
{
    char data[700], out[700], why[700];
    const char *args[12];
    snprintf(data, sizeof(data), "%s/%s.dat", R->plotdir, name);
    snprintf(why, sizeof(why), "%s", R->noplot[0] ? R->noplot : "gnuplot failed: see plots/gnuplot.log");
    snprintf(out, sizeof(out), "%s/%s", R->tmpl, tmpl);
    int ok = !R->noplot[0];
    if (ok && !is_file(out)) {
        ok = 0;
        snprintf(why, sizeof(why), "the template %s is missing", tmpl);
        if (!R->unrendered) snprintf(R->unrendered_why, sizeof(R->unrendered_why), "%s is missing", out);
    }
    for (int t = 0; t < 2 && ok; t++) {
        const char *term = t ? "png" : "svg";
        snprintf(out, sizeof(out), "%s/%s.%s", R->plotdir, name, term);
        args[0] = data, args[1] = out, args[2] = term;
        for (int i = 0; i < nextra && i < 9; i++) args[3 + i] = extra[i];
        if (gnuplot(R, tmpl, args, 3 + (nextra < 9 ? nextra : 9), out)) ok = 0;
    }
    if (!ok) {
        if (R->noplot[0]) snprintf(why, sizeof(why), "%s", R->noplot);  /* gnuplot found missing just now */
        if (!R->unrendered++ && !R->unrendered_why[0]) snprintf(R->unrendered_why, sizeof(R->unrendered_why), "%s", why);
        rep_para(R, "*%s: not rendered here (%s); the data is in `plots/%s.dat`: run `vkbench report` on this "
                "directory where gnuplot and the templates exist.*", alt, why, name);
        return;
    }
    fprintf(R->md, "![%s](plots/%s.svg) ([PNG](plots/%s.png))\n\n", alt, name, name);
    snprintf(out, sizeof(out), "%s/%s.svg", R->plotdir, name);
    FILE *f = fopen(out, "r");
    fputs("<figure>", R->html);
    if (f) {
        char buf[8192];
        size_t n;
        int skip = 1;  /* drop the XML prolog and doctype: inline SVG starts at <svg */
        while ((n = fread(buf, 1, sizeof(buf) - 1, f)) > 0) {
            buf[n] = 0;
            char *p = buf;
            if (skip) {
                char *s = strstr(buf, "<svg");
                if (!s) continue;
                p = s, skip = 0;
            }
            fwrite(p, 1, n - (size_t)(p - buf), R->html);
        }
        fclose(f);
    }
    fputs("<figcaption>", R->html);
    html_esc(R->html, alt);
    fputs("</figcaption></figure>\n", R->html);
}

FILE *rep_data_file(rep *R, const char *name)
{
    char path[700];
    snprintf(path, sizeof(path), "%s/%s.dat", R->plotdir, name);
    return fopen(path, "w");
}

void rep_dval(FILE *f, double v, const char *sep)
{
    if (isnan(v) || isinf(v)) fprintf(f, "NA%s", sep);
    else fprintf(f, "%.6g%s", v, sep);
}
