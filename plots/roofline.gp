# roofline.gp — achieved FLOP/s against arithmetic intensity (FLOPs per byte) for one device, by kernel family,
# under the measured copy bandwidth and two compute roofs: the FMA peak (fma_flop_per_s) and the matrix-unit
# peak (coopmat_flop_per_s); theoretical peaks dotted where the run knows them. A roof that was not measured is
# not drawn: the note under the plot says why. Compute-bound rows are ringed, with a dotted line up to the roof
# they are held to. Run by vkbench report without a shell:
#   gnuplot -c plots/roofline.gp DATA OUT svg|png TITLE ROOFS NGROUPS NMARKED NOTE SLOTS
# ROOFS: "copy_Bps fma cm theoretical_fma theoretical_cm" (NA where not measured). SLOTS: each group's colour,
# an index into C below (the same family has the same colour in every plot).
# DATA (tab-separated): NGROUPS blocks, each a header line "intensity flop_per_s GROUP" then intensity flop_per_s;
# then one block of compute-bound rows: intensity flop_per_s roof_flop_per_s.
if (ARG3 eq "svg") { set terminal svg size 1400,760 dynamic font "sans,12" } else { set terminal pngcairo size 1400,760 font "sans,12" }
set output ARG2
set datafile separator "\t"
set datafile missing "NA"
set title ARG4." — roofline" noenhanced
set logscale xy
set xlabel "arithmetic intensity (FLOPs / byte, declared minimum bytes)"
set ylabel "achieved FLOP/s"
set format y "%.0s %cFLOP/s"
set format x "%g"
set grid
set key outside right top vertical Left reverse noenhanced spacing 1.3 width 1
v(i) = word(ARG5, i) eq "NA" ? NaN : real(word(ARG5, i))
bw = v(1); fma = v(2); cm = v(3); tfma = v(4); tcm = v(5)
# x from the decade below the data to the decade past the data and past 4x each roof's ridge point
stats ARG1 using 1 nooutput
xhi = STATS_max
if (bw == bw && fma == fma && 4 * fma / bw > xhi) { xhi = 4 * fma / bw }
if (bw == bw && cm == cm && 4 * cm / bw > xhi) { xhi = 4 * cm / bw }
set xrange [10 ** floor(log10(STATS_min)):10 ** ceil(log10(xhi))]
# colours by family: elementwise, reductions and rows, BitNet, matmul, decompositions, calibration, on the
# matrix units, other
array C[8] = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#17becf", "#d62728", "#7f7f7f"]
ng = int(ARG6)
roof(x, pk) = (bw == bw && pk == pk) ? (bw * x < pk ? bw * x : pk) : NaN
has(pk) = bw == bw && pk == pk
if (bw != bw) { set label 1 "no bandwidth roof: copy bandwidth not measured in this run" at screen 0.01, screen 0.02 noenhanced }
if (strlen(ARG8) > 0) { set label 2 ARG8 at screen 0.01, screen 0.02 + (bw == bw ? 0 : 0.03) noenhanced }
set bmargin 6
plot roof(x, fma) with lines lw 2 lc rgb "#333333" title (has(fma) ? "FMA roof (fma_flop_per_s)" : ""), \
     roof(x, cm) with lines lw 2 dt 2 lc rgb "#b2182b" title (has(cm) ? "matrix-unit roof (coopmat_flop_per_s)" : ""), \
     roof(x, tfma) with lines lw 1 dt 3 lc rgb "#333333" title (has(tfma) ? "FMA, theoretical" : ""), \
     roof(x, tcm) with lines lw 1 dt 3 lc rgb "#b2182b" title (has(tcm) ? "matrix units, theoretical" : ""), \
     for [g = 0:ng - 1] ARG1 index g using 1:2 with points pt (g % 6) * 2 + 5 ps 1.1 lc rgb C[int(word(ARG9, g + 1)) + 1] title columnheader(3), \
     ARG1 index ng using 1:2:(0):($3 - $2) with vectors nohead dt 3 lc rgb "#000000" notitle, \
     ARG1 index ng using 1:2 with points pt 6 ps 2.2 lw 1.5 lc rgb "#000000" title (int(ARG7) > 0 ? "compute-bound (dotted: to its roof)" : "")
