# power.gp — GPU power and temperatures per case, in run order. vkbench report draws it only when something
# was measured (otherwise the report says why in a sentence). Run by vkbench report without a shell:
#   gnuplot -c plots/power.gp DATA OUT svg|png TITLE
# DATA (tab-separated): case_id power_mean_W gpu_temp_max_C cpu_temp_max_C ("NA" where not measured).
if (ARG3 eq "svg") { set terminal svg size 1400,520 dynamic font "sans,12" } else { set terminal pngcairo size 1400,520 font "sans,12" }
set output ARG2
set datafile separator "\t"
set datafile missing "NA"
set title ARG4." — power and temperature over the run" noenhanced
set xlabel "case (run order)"
set ylabel "W"
set y2label "deg C"
set ytics nomirror
set y2tics
set grid
set key outside bottom center horizontal
plot ARG1 using 1:2 with linespoints pt 7 ps 0.5 title "GPU power, mean during sampling (W)", \
     ARG1 using 1:3 axes x1y2 with linespoints pt 6 ps 0.5 title "GPU temperature, max (C)", \
     ARG1 using 1:4 axes x1y2 with linespoints pt 4 ps 0.5 title "CPU temperature, max (C)"
