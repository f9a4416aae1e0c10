# speedup.gp — speedup by kernel (log scale), vs the optimized CPU (with its bootstrap interval) and vs the
# single-thread naive reference; one point per case, the cases of a kernel side by side under one label.
# Run by vkbench report without a shell:
#   gnuplot -c plots/speedup.gp DATA OUT svg|png TITLE STARTS NAMES
# DATA (tab-separated): index label fast fast_lo fast_hi naive naive_lo naive_hi ("NA" where not measured).
# STARTS: the first index of each kernel's cases, then one past the last ("0 24 36 ..."); NAMES: the kernels.
# 1400 px wide: report.html shows it at that size, so the 12 px tick labels stay 12 px.
if (ARG3 eq "svg") { set terminal svg size 1400,640 dynamic font "sans,12" } else { set terminal pngcairo size 1400,640 font "sans,12" }
set output ARG2
set datafile separator "\t"
set datafile missing "NA"
set title ARG4." — CPU time / GPU kernel time" noenhanced
set logscale y
set ylabel "speedup (log scale; 1 = parity)"
set format y "%g"
set grid ytics
set key outside bottom center horizontal noenhanced
nk = words(ARG6)
set xrange [-0.5:real(word(ARG5, nk + 1)) - 0.5]
# One label per kernel, centred under its cases; every other kernel's band shaded.
set xtics () rotate by 60 right scale 0 noenhanced font ",12"
do for [g = 1:nk] {
    a = real(word(ARG5, g)) - 0.5
    b = real(word(ARG5, g + 1)) - 0.5
    set xtics add (word(ARG6, g) (a + b) / 2)
    if (g % 2 == 0) { set object g rect from first a, graph 0 to first b, graph 1 fc rgb "#eeeeee" fs solid 1.0 noborder behind }
}
set bmargin 10
set arrow from graph 0, first 1 to graph 1, first 1 nohead dashtype 2 lc rgb "#888888"
plot ARG1 using 1:3:4:5 with yerrorbars pt 7 ps 0.7 lc rgb "#1f77b4" title "vs optimized CPU (all cores), with bootstrap CI", \
     ARG1 using 1:6:7:8 with yerrorbars pt 6 ps 0.7 lc rgb "#d62728" title "vs single-thread naive reference"
