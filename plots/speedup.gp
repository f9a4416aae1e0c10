# speedup.gp — speedup by kernel and size (log scale), vs the optimized CPU (with its bootstrap interval)
# and vs the single-thread naive reference. Run by vkbench report without a shell:
#   gnuplot -c plots/speedup.gp DATA OUT svg|png TITLE
# DATA (tab-separated): index label fast fast_lo fast_hi naive naive_lo naive_hi ("NA" where not measured).
if (ARG3 eq "svg") { set terminal svg size 1400,700 dynamic font "sans,11" } else { set terminal pngcairo size 1400,700 font "sans,10" }
set output ARG2
set datafile separator "\t"
set datafile missing "NA"
set title ARG4." — CPU time / GPU kernel time" noenhanced
set logscale y
set ylabel "speedup (log scale; 1 = parity)"
set grid ytics
set xtics rotate by -60 left noenhanced font ",7"
set bmargin 16
set key top left opaque
stats ARG1 using 1 nooutput
set xrange [-1:STATS_max + 1]
set arrow from graph 0, first 1 to graph 1, first 1 nohead dashtype 2 lc rgb "#888888"
plot ARG1 using 1:3:4:5:xtic(2) with yerrorbars pt 7 ps 0.6 lc rgb "#1f77b4" title "vs optimized CPU (all cores) with bootstrap CI", \
     ARG1 using 1:6:7:8 with yerrorbars pt 6 ps 0.6 lc rgb "#d62728" title "vs single-thread naive reference"
