# bandwidth.gp — achieved bandwidth as a fraction of the run's own copy bandwidth, against bytes moved; one
# colour per kernel family (the same in every run), one point shape per run. Run by vkbench report without a shell:
#   gnuplot -c plots/bandwidth.gp DATA OUT svg|png NFAMILIES NRUNS SLOTS
# DATA (tab-separated): NRUNS x NFAMILIES blocks (separated by two blank lines), block r * NFAMILIES + f for run r
# and family f, each starting with a header line "bytes<TAB>fraction<TAB>label" (label empty: no rows), then
# bytes bw_frac_copy. SLOTS: each family's colour, an index into C below (as in roofline.gp).
if (ARG3 eq "svg") { set terminal svg size 1400,640 dynamic font "sans,12" } else { set terminal pngcairo size 1400,640 font "sans,12" }
set output ARG2
set datafile separator "\t"
set title "bandwidth utilization against size"
set logscale x
set format x "%.0s %cB"
set xlabel "bytes moved per launch (declared minimum)"
set ylabel "fraction of the measured copy bandwidth"
set grid
set key outside right top vertical Left reverse noenhanced spacing 1.3
set yrange [0:*]
nf = int(ARG4)
array C[8] = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#17becf", "#d62728", "#7f7f7f"]
P(r) = r % 6 == 0 ? 7 : (r % 6) * 2 + 3   # run A: filled circles; later runs: other shapes
plot for [b = 0:nf * int(ARG5) - 1] ARG1 index b using 1:2 with points pt P(b / nf) ps 0.9 lc rgb C[int(word(ARG6, b % nf + 1)) + 1] \
     title columnheader(3)
