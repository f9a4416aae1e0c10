# timing.gp — per-launch time distributions (raw samples.csv) as horizontal box plots, log scale, so that each
# case's label reads left to right. Run by vkbench report without a shell:
#   gnuplot -c plots/timing.gp DATA OUT svg|png TITLE LABEL_CHARS HAS_OUTLIERS
# DATA (tab-separated): block 0, one line per case: y label whisker_lo q1 median q3 whisker_hi (Tukey whiskers:
# the farthest samples within 1.5 IQR of the box); block 1: y time_s, the samples beyond the whiskers.
# LABEL_CHARS: the longest label's length (the left margin grows with it); HAS_OUTLIERS: 1 when block 1 has any.
stats ARG1 index 0 using 1 nooutput
N = int(STATS_max) + 1
H = 170 + N * 30
L = int(ARG5)
if (ARG3 eq "svg") { set terminal svg size 1400,H dynamic font "sans,12" } else { set terminal pngcairo size 1400,H font "sans,12" }
set output ARG2
set datafile separator "\t"
set title ARG4." — per-launch GPU time, raw samples" noenhanced
set logscale x
set format x "%.0s %cs"
set xlabel "seconds per launch (log scale)"
set yrange [-0.7:N - 0.3]
set ytics scale 0 noenhanced
set lmargin (L + 2 < 90 ? L + 2 : 90)   # the browser's sans is wider than gnuplot's estimate
set grid xtics
set key outside bottom center horizontal
set bmargin 5
set style fill solid 0.25 border lc rgb "#1f77b4"
plot ARG1 index 0 using 5:1:3:7 with xerrorbars pt 0 lc rgb "#1f77b4" notitle, \
     ARG1 index 0 using (($4 + $6) / 2):1:4:6:($1 - 0.3):($1 + 0.3):ytic(2) with boxxyerror lc rgb "#1f77b4" title "quartiles and median; whiskers to 1.5 IQR", \
     ARG1 index 0 using 5:($1 - 0.3):(0):(0.6) with vectors nohead lw 2 lc rgb "#08306b" notitle, \
     ARG1 index 1 using 2:1 with points pt 7 ps 0.35 lc rgb "#d62728" title (int(ARG6) ? "samples beyond the whiskers" : "")
