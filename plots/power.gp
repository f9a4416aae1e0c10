# power.gp — GPU power and temperatures per case, in run order. When nothing was measured it draws no
# line at all: only the reason. Run by vkbench report without a shell:
#   gnuplot -c plots/power.gp DATA OUT svg|png TITLE WHY
# DATA (tab-separated): case_id power_mean_W gpu_temp_max_C cpu_temp_max_C ("NA" where not measured).
# WHY: empty when DATA has measurements, else the reason there are none.
if (ARG3 eq "svg") { set terminal svg size 1000,500 dynamic font "sans,11" } else { set terminal pngcairo size 1000,500 font "sans,10" }
set output ARG2
set datafile separator "\t"
set datafile missing "NA"
set title ARG4." — power and temperature over the run" noenhanced
set xlabel "case (run order)"
if (strlen(ARG5) > 0) {
    set label 1 "no power data: ".ARG5 at graph 0.5, graph 0.5 center noenhanced
    set xrange [0:1]
    set yrange [0:1]
    unset xtics
    unset ytics
    plot NaN notitle
} else {
    set ylabel "W"
    set y2label "deg C"
    set ytics nomirror
    set y2tics
    set grid
    set key top left opaque
    plot ARG1 using 1:2 with linespoints pt 7 ps 0.5 title "GPU power, mean during sampling (W)", \
         ARG1 using 1:3 axes x1y2 with linespoints pt 6 ps 0.5 title "GPU temperature, max (C)", \
         ARG1 using 1:4 axes x1y2 with linespoints pt 4 ps 0.5 title "CPU temperature, max (C)"
}
