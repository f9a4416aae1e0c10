# bandwidth.gp — achieved bandwidth as a fraction of the run's own copy bandwidth, against bytes moved;
# one series per run. Run by vkbench report without a shell:
#   gnuplot -c plots/bandwidth.gp DATA OUT svg|png NRUNS
# DATA (tab-separated): one block per run (blocks separated by two blank lines), each starting with a
# header line "bytes<TAB>run label", then bytes bw_frac_copy.
if (ARG3 eq "svg") { set terminal svg size 1000,600 dynamic font "sans,11" } else { set terminal pngcairo size 1000,600 font "sans,10" }
set output ARG2
set datafile separator "\t"
set title "bandwidth utilization against size"
set logscale x
set xlabel "bytes moved per launch (declared minimum)"
set ylabel "fraction of the measured copy bandwidth"
set grid
set key top left opaque noenhanced
plot for [i=0:int(ARG4)-1] ARG1 index i using 1:2 with points pt 7 ps 0.7 title columnheader(2)
