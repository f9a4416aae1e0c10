# gate_ratios.gp — per-case time ratio candidate/baseline with its 95% bootstrap CI (vkbench compare).
# Run by vkbench compare without a shell:  gnuplot -c plots/gate_ratios.gp DATA OUT png|svg DELTA
# DATA is tab-separated, one line per compared case: index ratio ci_lo ci_hi verdict label delta
#   verdict: 0 SAME, 1 FASTER, 2 SLOWER, 3 INCONCLUSIVE; delta: the case's effect floor.
# DELTA: compare's default floor (the y range always shows it).
data = ARG1
delta = real(ARG4)
set datafile separator "\t"
# vertical case labels: the bottom margin and the canvas grow with the longest one
stats data using (strlen(strcol(6))) name "L" nooutput
BM = L_max * 0.45 + 3
H = 520 + int(BM * 17)
if (ARG3 eq "svg") {
    set terminal svg size 1400,H dynamic font "sans,12"
} else {
    set terminal pngcairo size 1400,H font "sans,12"
}
set output ARG2
stats data using 1 nooutput
set xrange [-0.7:STATS_max + 0.7]
stats data using 3 name "LO" nooutput
stats data using 4 name "HI" nooutput
stats data using 7 name "D" nooutput
delta = D_max > delta ? D_max : delta
ylo = LO_min < 1 / (1 + delta) ? LO_min : 1 / (1 + delta)
yhi = HI_max > 1 + delta ? HI_max : 1 + delta
pad = (yhi - ylo) * 0.08
set yrange [ylo - pad:yhi + pad]
set title "candidate / baseline: ratio of median times with 95% bootstrap CI" noenhanced
set ylabel "time ratio (candidate / baseline; > 1 = slower)"
set grid ytics
set xtics rotate by 90 right noenhanced font ",11"
set bmargin BM
set key outside top center horizontal
sel(v) = column(5) == v ? column(2) : NaN
plot data using 1:2:xtic(6) with points ps 0 notitle, \
     1 with lines lc rgb "gray50" notitle, \
     data using 1:(1 + column(7)):(0.35) with xerrorbars pt 0 lw 2 lc rgb "#d62728" title "floor [1/(1+d), 1+d] of the case", \
     data using 1:(1 / (1 + column(7))):(0.35) with xerrorbars pt 0 lw 2 lc rgb "#d62728" notitle, \
     data using 1:(sel(0)):3:4 with yerrorbars pt 7 ps 0.9 lc rgb "#2ca02c" title "SAME", \
     data using 1:(sel(1)):3:4 with yerrorbars pt 9 ps 1.1 lc rgb "#1f77b4" title "FASTER", \
     data using 1:(sel(2)):3:4 with yerrorbars pt 11 ps 1.1 lc rgb "#d62728" title "SLOWER", \
     data using 1:(sel(3)):3:4 with yerrorbars pt 6 ps 0.9 lc rgb "#7f7f7f" title "INCONCLUSIVE"
