# vkbench: one non-recursive Makefile. Every output goes to build/ (or build/san with SANITIZE=).
#   make            build build/vkbench and every kernels/*.comp -> build/spv/*.spv
#   make bench      install what is missing, run suites/default.suite on the default device, write a report
#   make test       install what is missing, run unit tests (also under ASan/UBSan), smoke suite with validation,
#                   the fuzz targets for 20000 inputs each
#   make fuzz       the libFuzzer targets (tests/fuzz/), each for FUZZ_SECONDS (default 60)
#   V=1             echo the commands;  SANITIZE=address,undefined  sanitizer build in build/san

CC      ?= cc
GLSLANG ?= glslangValidator
SANITIZE ?=
BUILD   ?= build$(if $(SANITIZE),/san)
SPV     := $(BUILD)/spv

WARN    := -Wall -Wextra -Wshadow -Wconversion -Wno-sign-conversion -Wstrict-prototypes \
           -Wmissing-prototypes -Wpointer-arith -Wcast-qual -Wwrite-strings -Wvla -Wformat=2 -Wno-format-truncation
CFLAGS  ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -Iharness -Ikernels -I$(BUILD)/gen -MMD -MP \
           $(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all)
# GSL's CBLAS calls go to OpenBLAS (the optimized CPU baselines use it too, with its LAPACK).
LDLIBS  := -lvulkan -lgsl -lopenblas -lhwloc -lm -lpthread
# cpu/: the optimized CPU baselines, OpenMP on all cores, built for this host's CPU.
CPU_ARCH ?= -march=native
CPU_CFLAGS := -fopenmp $(CPU_ARCH) -O3 -ffp-contract=off -fno-math-errno -Icpu
ALL_LDFLAGS := $(LDFLAGS) $(if $(SANITIZE),-fsanitize=$(SANITIZE))

ifeq ($(V),1)
Q :=
else
Q := @
endif

# Sources follow the folders: no list to keep.
PURE_SRC := harness/stats.c harness/suite.c harness/check.c harness/result.c harness/util.c \
            harness/compare.c harness/compare_out.c harness/export.c
# No Vulkan (unit-tested), though not pure in the strict sense: sensors through dlopen/sysfs, hwloc.
PURE_SRC += harness/telemetry.c harness/topo.c
PURE_SRC += $(wildcard harness/report_*.c)
# No Vulkan either: run directories, their locks and the per-device registry (report and compare read run.txt).
PURE_SRC += harness/rundir.c
PURE_SRC += harness/devpeak.c harness/ceiling.c
# SPIR-V rewrite, NV cooperative matrix -> KHR (workgroup scope): pure, unit-tested on a compiled test shader.
PURE_SRC += harness/spvkhr.c
HARN_SRC := $(filter-out harness/main.c $(PURE_SRC),$(wildcard harness/*.c))
REF_SRC  := $(wildcard reference/*.c)
CPU_SRC  := $(wildcard cpu/*.c)
BASELINES := $(BUILD)/gen/baselines.c
COMP     := $(wildcard kernels/*.comp) $(wildcard tests/kernels/*.comp)
SPVS     := $(patsubst %.comp,$(SPV)/%.spv,$(notdir $(COMP)))
# By-address twins (kernels/bda.glsl): a stub marked "// twin: bda" is also built with VKB_BDA as NAME_bda.spv.
BDA_COMP := $(shell grep -l '^// twin: bda' kernels/*.comp)
SPVS     += $(patsubst %.comp,$(SPV)/%_bda.spv,$(notdir $(BDA_COMP)))
REGISTRY := $(BUILD)/gen/registry.c

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
PURE_OBJ := $(call obj,$(PURE_SRC))
HARN_OBJ := $(call obj,$(HARN_SRC))
REF_OBJ  := $(call obj,$(REF_SRC))
REG_OBJ  := $(BUILD)/obj/registry.o
CPU_OBJ  := $(call obj,$(CPU_SRC)) $(BUILD)/obj/baselines.o

COMMIT := $(shell git describe --always --dirty --abbrev=10 2>/dev/null || echo unknown)

.PHONY: all clean test unit bench report deps gate gate-selftest fuzz
all: $(BUILD)/vkbench $(SPVS)

# A fresh clone: plain `make` first installs the Debian packages harness/deps.sh lists (as root), or prints the
# exact apt-get line and stops, before anything compiles. The stamp keeps later builds from asking dpkg again.
DEPS_OK := $(BUILD)/.deps-ok
$(DEPS_OK): harness/deps.sh
	@mkdir -p $(@D)
	$(Q)sh harness/deps.sh
	@touch $@

# Rebuild everything when the flags change.
FLAGS_NOW := $(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS)
$(BUILD)/.flags: FORCE | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo '$(FLAGS_NOW)' | cmp -s - $@ || echo '$(FLAGS_NOW)' > $@
FORCE:

# The kernel registry is generated from the VKB_KERNEL(name) markers in reference/*.c.
$(REGISTRY): $(REF_SRC) harness/registry.sh
	@mkdir -p $(@D)
	$(Q)sh harness/registry.sh VKB_KERNEL vkb_kernel vkb_registry registry.h $(REF_SRC) > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/%.o: %.c $(BUILD)/.flags
	@mkdir -p $(@D)
	@$(if $(Q),echo '  CC      $<')
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

# The baseline registry, likewise, from the VKB_BASELINE(name) markers in cpu/*.c.
$(BASELINES): $(CPU_SRC) harness/registry.sh
	@mkdir -p $(@D)
	$(Q)sh harness/registry.sh VKB_BASELINE vkb_baseline vkb_baselines cpu.h $(CPU_SRC) > $@.tmp && mv $@.tmp $@

$(call obj,$(CPU_SRC)) $(BUILD)/obj/baselines.o: ALL_CFLAGS += $(CPU_CFLAGS)
$(BUILD)/obj/baselines.o: $(BASELINES) $(BUILD)/.flags
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(REG_OBJ): $(REGISTRY) $(BUILD)/.flags
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/obj/harness/run.o: ALL_CFLAGS += -Icpu
$(REF_OBJ): ALL_CFLAGS += -Icpu   # reference/ calls the fast full references of cpu/fastref.h
$(call obj,reference/decomp_util.c): ALL_CFLAGS += -ffp-contract=off   # vkb_dc_matmul: the bits of plain loops
$(BUILD)/obj/harness/version.o: ALL_CFLAGS += -DVKB_COMMIT='"$(COMMIT)"'
$(BUILD)/obj/harness/version.o: FORCE

$(BUILD)/vkbench: $(call obj,harness/main.c) $(HARN_OBJ) $(PURE_OBJ) $(REF_OBJ) $(REG_OBJ) $(CPU_OBJ)
	@$(if $(Q),echo '  LD      $@')
	$(Q)$(CC) $(ALL_LDFLAGS) -fopenmp $^ -o $@ $(LDLIBS)

$(BUILD)/test_unit: $(call obj,tests/unit.c) $(PURE_OBJ) $(call obj,reference/decomp_util.c)
	@$(if $(Q),echo '  LD      $@')
	$(Q)$(CC) $(ALL_LDFLAGS) $^ -o $@ $(LDLIBS)

$(SPV)/%.spv: kernels/%.comp | $(DEPS_OK)
	@mkdir -p $(@D)
	@$(if $(Q),echo '  GLSL    $<')
	$(Q)$(GLSLANG) -V --target-env vulkan1.2 -Ikernels --quiet --depfile $@.d -o $@ $< >/dev/null || \
	  { $(GLSLANG) -V --target-env vulkan1.2 -Ikernels -o $@ $<; rm -f $@; exit 1; }

$(SPV)/%_bda.spv: kernels/%.comp | $(DEPS_OK)
	@mkdir -p $(@D)
	@$(if $(Q),echo '  GLSL    $< (VKB_BDA)')
	$(Q)$(GLSLANG) -V --target-env vulkan1.2 -Ikernels -DVKB_BDA --quiet --depfile $@.dep -o $@ $< >/dev/null || \
	  { $(GLSLANG) -V --target-env vulkan1.2 -Ikernels -DVKB_BDA -o $@ $<; rm -f $@; exit 1; }

$(SPV)/%.spv: tests/kernels/%.comp | $(DEPS_OK)
	@mkdir -p $(@D)
	@$(if $(Q),echo '  GLSL    $<')
	$(Q)$(GLSLANG) -V --target-env vulkan1.2 -Ikernels --quiet --depfile $@.d -o $@ $< >/dev/null || \
	  { $(GLSLANG) -V --target-env vulkan1.2 -Ikernels -o $@ $<; rm -f $@; exit 1; }

# deps: install the Debian packages we need when root, else print the exact line.
deps:
	$(Q)sh harness/deps.sh

unit: deps
	$(Q)$(MAKE) --no-print-directory $(BUILD)/test_unit
	$(Q)$(BUILD)/test_unit

test: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh tests/run.sh

# bench ends with the report of the run it just made (its directory is the run's last "results in" line).
bench: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q){ ./build/vkbench run suites/default.suite $(ARGS); echo "vkbench-rc=$$?"; } | tee build/bench.log
	$(Q)./build/vkbench report "$$(sed -n 's/.*results in //p' build/bench.log | tail -n 1)"
	$(Q)exit "$$(sed -n 's/^vkbench-rc=//p' build/bench.log)"

# report: RUN=dir (default: the newest results/ directory); several with RUN="dirA dirB".
report:
	$(Q)$(MAKE) --no-print-directory $(BUILD)/vkbench
	$(Q)$(BUILD)/vkbench report $(or $(RUN),$$(ls -td results/*/ | head -n 1))

# The regression gate (harness/gate.sh; exit codes in `vkbench compare --help`, 4 = inconclusive): run
# suites/gate.suite on this device ROUNDS times (default 5) and compare with BASELINE (a run directory, or a
# directory of runs; never build/gate/candidate itself, which the gate rewrites).
gate: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)test -n "$(BASELINE)" || { echo 'usage: make gate BASELINE=results/<run>'; exit 3; }
	$(Q)VKB=$(BUILD)/vkbench ROUNDS='$(ROUNDS)' sh harness/gate.sh run '$(BASELINE)' $(BUILD)/gate

# The gate measuring itself: K A/A and K injected-slowdown comparisons of ROUNDS launches per side
# (defaults K=20 ROUNDS=5, SLOW = 5% on the suite's >= 50 us kernels, SUITE=suites/gate.suite); summary in
# build/gate-selftest/summary.md. FROM=i adds blocks i..K-1 to an earlier run's (a self-test split over commands).
gate-selftest: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)VKB=$(BUILD)/vkbench K='$(K)' ROUNDS='$(ROUNDS)' SLOW='$(SLOW)' SUITE='$(SUITE)' FROM='$(FROM)' \
	  sh harness/gate.sh selftest $(BUILD)/gate-selftest

# Fuzzing (tests/fuzz/*.c): libFuzzer targets for the suite parser and the results.csv and samples.csv readers,
# built with clang under ASan/UBSan; `make fuzz` runs each for FUZZ_SECONDS (default 60) from tests/fuzz/corpus/.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -Iharness -fno-omit-frame-pointer \
              -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_BINS := $(patsubst tests/fuzz/%.c,build/fuzz/%,$(wildcard tests/fuzz/*.c))
build/fuzz/fuzz_suite: harness/suite.c
build/fuzz/fuzz_results build/fuzz/fuzz_samples: harness/result.c
build/fuzz/%: tests/fuzz/%.c $(wildcard harness/*.h)
	@mkdir -p $(@D)
	@$(if $(Q),echo '  FUZZ    $@')
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) $(filter-out -Wno-format-truncation,$(WARN)) $(filter %.c,$^) -o $@ -lm

fuzz: deps
	$(Q)$(MAKE) --no-print-directory -s $(FUZZ_BINS)
	$(Q)FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run.sh $(FUZZ_BINS)

clean:
	rm -rf build

# Twins' dependencies are NAME_bda.spv.dep: a NAME_bda.spv.d is from a build when twins were stubs of their own
# (kernels/NAME_bda.comp, gone since), and would ask make for that file.
-include $(filter-out %_bda.spv.d,$(shell find build -name '*.d' -o -name '*.dep' 2>/dev/null))
