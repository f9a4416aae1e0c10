# roofline.gp — achieved FLOP/s against arithmetic intensity (FLOPs per byte) for one device, under the
# measured copy bandwidth (copy_Bps) and, where calibrated, the compute ceiling. Ceilings that were not
# measured are not drawn: the plot says so. Run by vkbench report without a shell:
#   gnuplot -c plots/roofline.gp DATA OUT svg|png TITLE COPY_BPS|NA PEAK_FLOPS|NA PEAK_NOTE
# DATA (tab-separated): intensity flop_per_s kernel
if (ARG3 eq "svg") { set terminal svg size 1000,700 dynamic font "sans,11" } else { set terminal pngcairo size 1000,700 font "sans,10" }
set output ARG2
set datafile separator "\t"
set datafile missing "NA"
set title ARG4." — roofline" noenhanced
set logscale xy
set xlabel "arithmetic intensity (FLOPs / byte, declared minimum bytes)"
set ylabel "achieved FLOP/s"
set grid
set key bottom right opaque noenhanced
set xrange [1e-3:1e4]
bw = ARG5 eq "NA" ? NaN : real(ARG5)
pk = ARG6 eq "NA" ? NaN : real(ARG6)
if (ARG5 eq "NA") { set label 1 "no bandwidth ceiling: copy bandwidth not measured in this run" at graph 0.02, graph 0.95 noenhanced }
if (ARG6 eq "NA") { set label 2 "no compute ceiling: ".ARG7 at graph 0.02, graph 0.90 noenhanced }
roof(x) = (bw == bw) ? ((pk == pk && bw * x > pk) ? pk : bw * x) : NaN
plot roof(x) with lines lw 2 lc rgb "#444444" title (ARG6 eq "NA" ? "copy bandwidth x intensity (measured)" : "roofline: min(copy bandwidth x intensity, ".ARG7.")"), \
     ARG1 using 1:2 with points pt 7 ps 0.8 lc rgb "#1f77b4" title "PASS rows"
