# timing.gp — per-launch time distributions (raw samples.csv) as box plots, log scale.
# Run by vkbench report without a shell:  gnuplot -c plots/timing.gp DATA OUT svg|png TITLE [LABEL_CHARS]
# DATA (tab-separated): case_label time_s, one line per sample. LABEL_CHARS: the longest label's length;
# the bottom margin (and the canvas) grows with it so that no vertical x label is cut.
L = ARGC >= 5 ? int(ARG5) : 45
BM = L * 0.35 + 2 > 8 ? L * 0.35 + 2 : 8
H = 460 + int(BM * 16)
if (ARG3 eq "svg") { set terminal svg size 1400,H dynamic font "sans,11" } else { set terminal pngcairo size 1400,H font "sans,10" }
set output ARG2
set datafile separator "\t"
set title ARG4." — per-launch GPU time, raw samples" noenhanced
set style data boxplot
set style boxplot outliers pointtype 7
set pointsize 0.3
set logscale y
set ylabel "seconds per launch (log scale)"
set xtics rotate by 90 right noenhanced font ",7"
set bmargin BM
set grid ytics
unset key
plot ARG1 using (1):2:(0.6):1 lc rgb "#1f77b4"
