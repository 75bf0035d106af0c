# Arbor: a small x86_64 microkernel built around cgroup v2.
# `make run` boots it; `make test` runs every test. See README.md.

BUILD   ?= build
MEM     ?= 256
SMP     ?= 2
CMDLINE ?=
OPT     ?= -O2
GDBPORT ?= 1234
TIMEOUT ?= 60
DISK    ?=

.DEFAULT_GOAL := all
KERNEL  := $(BUILD)/arbor.elf
ISO     := $(BUILD)/arbor.iso

# -- input checks: one clear sentence instead of a wall of errors --------
ifeq ($(shell echo '$(MEM)' | grep -Ex '[0-9]+' >/dev/null && [ $(MEM) -ge 64 ] && [ $(MEM) -le 65536 ] && echo ok),)
$(error MEM=$(MEM) is not a memory size: give MiB as a whole number from 64 to 65536, e.g. make run MEM=512)
endif
ifneq ($(findstring ",$(CMDLINE))$(findstring \,$(CMDLINE)),)
$(error CMDLINE must not contain double quotes or backslashes: use words like key=value)
endif

# -- kernel ---------------------------------------------------------------
GEN := $(BUILD)/gen
CGROUP_INCLUDES := -Icgroup/core -Icgroup/fs -Icgroup/controllers
KERNEL_INCLUDES := -Ikernel/include $(CGROUP_INCLUDES) -Ilib -I$(GEN)
KERNEL_CFLAGS := -std=gnu11 $(OPT) -g -ffunction-sections -fdata-sections -Wall -Wextra -Werror \
	-ffreestanding -fno-pic -fno-pie -mno-red-zone -mno-sse -mno-sse2 -mno-mmx \
	-mno-80387 -mcmodel=kernel -fno-stack-protector -fno-asynchronous-unwind-tables \
	-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer $(KERNEL_INCLUDES) -MMD -MP
# KCOV=1 (make kcov: build/kcov) is the debug kernel: it instruments every
# basic block for the fuzzer's coverage (kernel/debug/kcov.c, which is
# itself left plain, as the lock-order checker is) and checks the order
# of every lock taken (kernel/debug/lockdep.c, CONFIG_LOCKDEP).
KCOV ?= 0
ifeq ($(KCOV),1)
KERNEL_CFLAGS += -DCONFIG_KCOV -DCONFIG_LOCKDEP
KCOV_CFLAGS := -fsanitize-coverage=trace-pc
$(BUILD)/obj/kernel/debug/kcov.c.o: KCOV_CFLAGS :=
$(BUILD)/obj/kernel/debug/lockdep.c.o: KCOV_CFLAGS :=
$(BUILD)/obj/kernel/debug/lockstat.c.o: KCOV_CFLAGS :=
endif
# LOCKDEP=1 (make lockdep: build/lockdep) is the lock-order checker alone,
# without kcov's call in every basic block: make test runs the whole
# self-test suite on it, in 60 % of the kcov kernel's time.
LOCKDEP ?= 0
ifeq ($(LOCKDEP),1)
KERNEL_CFLAGS += -DCONFIG_LOCKDEP
endif
KERNEL_ASFLAGS := $(KERNEL_INCLUDES) -Iboot -MMD -MP -g
KERNEL_LDFLAGS := -n -nostdlib -T linker.ld -z max-page-size=0x1000 --no-warn-rwx-segments

KERNEL_SRCS := $(wildcard boot/*.S) $(shell find kernel cgroup lib -name '*.c' -o -name '*.S' | sort)
KERNEL_OBJS := $(patsubst %,$(BUILD)/obj/%.o,$(KERNEL_SRCS)) $(BUILD)/obj/gen/syscall_table.c.o

# Everything that follows from the one syscall table.
SYSCALL_TBL := abi/syscalls.tbl
# fuzz_desc.h: how the fuzzer makes each argument; an argument the
# generator cannot classify stops the build here.
GEN_HEADERS := $(GEN)/syscall_nr.h $(GEN)/arbor/syscalls.h $(GEN)/arbor/syscall_names.h $(GEN)/fuzz_desc.h $(GEN)/abi
# Every build reaches the ABI headers as "abi/NAME.h" through this link in
# the generated include folder, so no build needs the repository's root
# (and with it kernel/) on its include path.
$(GEN)/abi:
	@mkdir -p $(@D)
	@ln -sfn $(abspath abi) $@
$(GEN)/syscall_nr.h $(GEN)/syscall_table.c $(GEN)/arbor/syscalls.h $(GEN)/arbor/syscall_names.h $(GEN)/fuzz_desc.h: $(SYSCALL_TBL) tools/gen-syscalls.py
	@mkdir -p $(GEN)/arbor
	@python3 tools/gen-syscalls.py --numbers $(GEN)/syscall_nr.h --kernel $(GEN)/syscall_table.c \
		--user $(GEN)/arbor/syscalls.h --fuzz $(GEN)/fuzz_desc.h --names $(GEN)/arbor/syscall_names.h
docs/syscalls.md: $(SYSCALL_TBL) tools/gen-syscalls.py
	@python3 tools/gen-syscalls.py --docs $@
docs: docs/syscalls.md
$(BUILD)/obj/gen/syscall_table.c.o: $(GEN)/syscall_table.c $(GEN_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@gcc $(KERNEL_CFLAGS) -c $< -o $@

# -- host unit tests: test name -> the kernel sources it exercises --------
# Each is tests/SUBJECT/test_NAME.c (with tests/host/tap.h); a new one
# needs only its host_srcs_NAME line here.
HOST_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
	-fno-sanitize-recover=all -iquote tests/host -Ikernel/include $(CGROUP_INCLUDES) -Ilib -I$(GEN) -pthread
HOST_TEST_SRCS := $(wildcard tests/*/test_*.c)
HOST_TESTS := $(patsubst test_%.c,%,$(notdir $(HOST_TEST_SRCS)))
host_test_src = $(filter %/test_$(1).c,$(HOST_TEST_SRCS))
# the words of $(1) that occur more than once
prog_dups = $(strip $(foreach n,$(sort $(1)),$(if $(word 2,$(filter $(n),$(1))),$(n))))
$(if $(call prog_dups,$(HOST_TESTS)),$(error two host tests named test_$(call prog_dups,$(HOST_TESTS)).c))
host_srcs_format       := lib/format.c
host_srcs_buddy        := kernel/mm/buddy.c
host_srcs_bootinfo     := kernel/bootinfo.c
host_srcs_page_counter := kernel/mm/page_counter.c kernel/mm/charge_stock.c
host_srcs_pcpu_map     := kernel/mm/pcpu_map.c
host_srcs_memprot      := kernel/mm/page_counter.c
host_srcs_rbtree       := lib/rbtree.c
host_srcs_sched_fair   := kernel/sched/fair.c lib/rbtree.c
host_srcs_initrd       := lib/initrd.c
host_srcs_elf          := kernel/lib/elf.c
host_srcs_acpi         := kernel/lib/acpi.c
host_srcs_tmpfs        := user/servers/tmpfs/tmpfs.c
host_srcs_vfs_path     := user/libc/vfs_path.c
host_srcs_cgfs_parse   := cgroup/fs/parse.c
host_srcs_lineedit     := user/bin/sh/lineedit.c user/bin/sh/history.c
host_srcs_editbuf      := user/bin/edit/buffer.c user/bin/lib/termkey.c
# the cgroup core with its own registry (the test's) and host stand-ins
# for spinlocks, the heap and the string functions (tests/host/shim); no
# process side, scheduler or inotify, not even faked: the core reaches the
# tasks and the watchers through the cg_hooks the test gives cg_init
# (cgroup/core/hooks.h), the owners' parts through the controllers' hooks
host_srcs_cgroup       := cgroup/core/cgroup.c cgroup/fs/core_files.c cgroup/fs/parse.c cgroup/fs/cgns_rules.c cgroup/core/controllers.c \
	cgroup/core/threaded.c cgroup/controllers/pids.c kernel/mm/page_counter.c cgroup/controllers/memory_stat.c \
	lib/rbtree.c lib/format.c tests/cgroup/cg_files.h
host_cflags_cgroup     := -Itests/host/shim
# the cpuset controller on the same core, with the test's registry
host_srcs_cpuset       := $(host_srcs_cgroup) cgroup/controllers/cpuset.c
host_cflags_cpuset     := -Itests/host/shim
# the ext2 core (the server's files without system calls) against images
# made and checked by the host's e2fsprogs
EXT2_CORE := super bcache balloc inode bmap file dir dindex namei
host_srcs_ext2         := $(patsubst %,user/servers/ext2/%.c,$(EXT2_CORE)) \
	$(wildcard user/servers/ext2/*.h) lib/format.c
host_cflags_ext2       := -Iuser/servers/ext2
HOST_BINS := $(patsubst %,$(BUILD)/host/test_%,$(HOST_TESTS))

.PHONY: all run debug test test-build soak stress bench iso clean deps docs libc kcov lockdep fuzz disk rootdisk cgdiff grade

$(BUILD)/.deps-%: tools/deps.sh
	@mkdir -p $(@D)
	@tools/deps.sh $*
	@touch $@
.PRECIOUS: $(BUILD)/.deps-%
deps:
	@tools/deps.sh all

$(BUILD)/obj/%.c.o: %.c | $(BUILD)/.deps-build $(GEN_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@gcc $(KERNEL_CFLAGS) $(KCOV_CFLAGS) -c $< -o $@

$(BUILD)/obj/%.S.o: %.S | $(BUILD)/.deps-build $(GEN_HEADERS)
	@mkdir -p $(@D)
	@echo "  AS      $<"
	@gcc $(KERNEL_ASFLAGS) -c $< -o $@

# Two links: the first finds where every function lands, the second embeds
# that table (.ksyms sits last, so no address it describes moves).
$(BUILD)/ksyms-empty.S: tools/gen-ksyms.sh
	@mkdir -p $(@D)
	@tools/gen-ksyms.sh > $@
$(BUILD)/ksyms-empty.o $(BUILD)/ksyms.o: %.o: %.S
	@gcc -c $< -o $@
$(BUILD)/arbor.pass1.elf: $(KERNEL_OBJS) $(BUILD)/ksyms-empty.o linker.ld kernel/hot.ld
	@ld $(KERNEL_LDFLAGS) -o $@ $(KERNEL_OBJS) $(BUILD)/ksyms-empty.o
$(BUILD)/ksyms.S: $(BUILD)/arbor.pass1.elf tools/gen-ksyms.sh
	@tools/gen-ksyms.sh $< > $@
$(KERNEL): $(KERNEL_OBJS) $(BUILD)/ksyms.o linker.ld kernel/hot.ld
	@echo "  LD      $@"
	@ld $(KERNEL_LDFLAGS) -o $@ $(KERNEL_OBJS) $(BUILD)/ksyms.o
	@tools/gen-ksyms.sh $@ | cmp -s - $(BUILD)/ksyms.S || \
		{ echo "symbol addresses moved between the two links"; rm -f $@; exit 1; }

# -- user space: the runtime library, programs, and the boot archive -------
# User-side builds (here, the C library port, servers, drivers) see abi/
# (through $(GEN)), lib/ and their own folders, never kernel/include: the
# kernel's headers are private (tools/check-boundary.py, below).
USER_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -ffreestanding -fno-pic -fno-pie \
	-fno-stack-protector -fno-omit-frame-pointer -Iuser/include -I$(GEN) -Ilib -MMD -MP
USER_LDFLAGS := -static -nostdlib -z max-page-size=0x1000 -z noexecstack -Ttext-segment=0x400000 -e _start
USER_LIB_SRCS := user/lib/start.c lib/format.c lib/string.c
USER_LIB_OBJS := $(patsubst %,$(BUILD)/user/obj/%.o,$(USER_LIB_SRCS))
USER_CRT0 := $(BUILD)/user/obj/user/lib/crt0.S.o
USER_LIB := $(BUILD)/user/libarbor.a
INITRD_DIR := $(BUILD)/initrd
USER_DRIVERS := serial	# on the small runtime; the disk drivers are below (C library)
USER_BINS := $(INITRD_DIR)/bin/init $(patsubst %,$(INITRD_DIR)/drivers/%,$(USER_DRIVERS))

# Test programs, one folder per subject (tests/SUBJECT/, docs/testing.md),
# and the benchmarks (user/bench/). In a subject folder test_NAME.c is a
# host unit test (below), diff_NAME.c a differential test (built for Linux
# and Arbor by tools/run-tests.py), linux_NAME.c a program compared with
# what Linux printed (linux_NAME.out, tools/record-linux.sh; built and run
# by tools/run-tests.py), every other NAME.c a program for
# Arbor; tests/fuzz, tests/run and tests/sh have rules of their own,
# tests/host is the host tests' harness, tests/include check.h.
# A program is built on the C library (newlib) and installed as
# /posix/NAME, unless this list puts it on the small runtime (user/lib:
# raw system calls, no servers needed): then it is /tests/NAME, or
# /bench/NAME for a benchmark (kernel/test/kbench.c runs each of those).
SMALL_RUNTIME_PROGS := tests/proc/hello tests/proc/exec tests/proc/envcheck tests/proc/exit42 \
	tests/proc/fault tests/proc/fork tests/proc/signal tests/ipc/channel tests/ipc/defer tests/ipc/server_exit tests/ipc/owner_exit \
	tests/ipc/ipc_burn tests/ipc/ipc_client tests/ipc/ipc_lend tests/ipc/ipc_server tests/ipc/ipc_sleep tests/ipc/shm tests/sched/spin \
	tests/memory/memlimit tests/memory/bigbss tests/proc/sysrq tests/console/console tests/security/efault tests/drivers/driver \
	user/bench/exec user/bench/fork user/bench/ipc user/bench/pagefault user/bench/syscall \
	user/bench/yield
TEST_OWN_RULES := tests/fuzz/ tests/run/ tests/sh/ tests/host/ tests/include/ tests/gdb/
# The folders named after runtimes are gone: a program left there (a merge
# of older work) would silently not be built.
$(if $(wildcard user/posix/*.c user/tests/*.c tests/diff/*.c),$(error $(wildcard user/posix/*.c \
	user/tests/*.c tests/diff/*.c): tests live in tests/SUBJECT/ now (a differential test as \
	diff_NAME.c), see docs/testing.md))
TEST_PROG_SRCS := $(foreach f,$(filter-out $(addsuffix %,$(TEST_OWN_RULES)),$(wildcard tests/*/*.c)),\
	$(if $(filter test_% diff_% linux_%,$(notdir $(f))),,$(f)))
PROG_SRCS := $(TEST_PROG_SRCS) $(wildcard user/bench/*.c)
SMALL_PROG_SRCS := $(filter $(addsuffix .c,$(SMALL_RUNTIME_PROGS)),$(PROG_SRCS))
POSIX_PROG_SRCS := $(filter-out $(SMALL_PROG_SRCS),$(PROG_SRCS))
$(foreach p,$(SMALL_RUNTIME_PROGS),$(if $(filter $(p).c,$(PROG_SRCS)),,\
	$(error SMALL_RUNTIME_PROGS names $(p), but there is no $(p).c)))
small_prog_out = $(INITRD_DIR)/$(if $(filter user/bench/%,$(1)),bench,tests)/$(basename $(notdir $(1)))
posix_prog_out = $(INITRD_DIR)/posix/$(basename $(notdir $(1)))
# Two programs of one name would be one file in the boot archive.
$(if $(call prog_dups,$(foreach s,$(SMALL_PROG_SRCS),$(call small_prog_out,$(s))) \
	$(foreach s,$(POSIX_PROG_SRCS),$(call posix_prog_out,$(s)))),\
	$(error two test or benchmark programs install as $(call prog_dups,$(foreach s,$(SMALL_PROG_SRCS),\
	$(call small_prog_out,$(s))) $(foreach s,$(POSIX_PROG_SRCS),$(call posix_prog_out,$(s))))))
USER_BINS += $(foreach s,$(SMALL_PROG_SRCS),$(call small_prog_out,$(s)))
INITRD := $(BUILD)/initrd.cpio
all: $(KERNEL) $(INITRD) docs/syscalls.md

$(BUILD)/user/obj/%.c.o: %.c | $(BUILD)/.deps-build $(GEN_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC      $< (user)"
	@gcc $(USER_CFLAGS) -c $< -o $@
$(BUILD)/user/obj/%.S.o: %.S | $(BUILD)/.deps-build $(GEN_HEADERS)
	@mkdir -p $(@D)
	@gcc $(USER_CFLAGS) -c $< -o $@
$(USER_LIB): $(USER_LIB_OBJS)
	@rm -f $@
	@ar rcs $@ $^
define user_prog
$(1): $(BUILD)/user/obj/$(2).o $(USER_CRT0) $(USER_LIB)
	@mkdir -p $$(@D)
	@echo "  LD      $$@"
	@ld $(USER_LDFLAGS) -o $$@ $(USER_CRT0) $(BUILD)/user/obj/$(2).o $(USER_LIB)
endef
$(eval $(call user_prog,$(INITRD_DIR)/bin/init,user/init/init.c))
$(foreach s,$(SMALL_PROG_SRCS),$(eval $(call user_prog,$(call small_prog_out,$(s)),$(s))))
$(foreach d,$(USER_DRIVERS),$(eval $(call user_prog,$(INITRD_DIR)/drivers/$(d),drivers/$(d)/$(d).c)))

# -- the C library: newlib with Arbor's port (user/libc) -------------------
NEWLIB_DIR := $(BUILD)/newlib
NEWLIB := $(NEWLIB_DIR)/install/x86_64-elf
NEWLIB_LIBC := $(NEWLIB)/lib/libc.a
$(NEWLIB_LIBC): tools/build-newlib.sh $(shell find user/newlib/overlay -type f) | $(BUILD)/.deps-build
	@echo "  NEWLIB  (built once, about a minute)"
	@tools/build-newlib.sh $(NEWLIB_DIR)
LIBC_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -nostdinc \
	-isystem $(shell gcc -print-file-name=include) -isystem $(NEWLIB)/include \
	-fno-pie -fno-pic -fno-stack-protector -iquote $(GEN) -iquote lib \
	-iquote user/libc -iquote user/include -MMD -MP
LIBC_PORT_SRCS := $(wildcard user/libc/*.c)
LIBC_PORT_OBJS := $(patsubst %,$(BUILD)/libc/obj/%.o,$(LIBC_PORT_SRCS))
LIBC_CRT0 := $(BUILD)/libc/obj/user/lib/crt0.S.o
LIBC_PORT := $(BUILD)/libc/libarbor-c.a
LIBC_LINK = $(LIBC_CRT0) $(1) --start-group $(LIBC_PORT) $(NEWLIB)/lib/libc.a \
	$(NEWLIB)/lib/libm.a $(shell gcc -print-libgcc-file-name) --end-group

$(BUILD)/libc/obj/%.c.o: %.c $(NEWLIB_LIBC) | $(GEN_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC      $< (libc)"
	@gcc $(LIBC_CFLAGS) -c $< -o $@
$(BUILD)/libc/obj/%.S.o: %.S | $(GEN_HEADERS)
	@mkdir -p $(@D)
	@gcc $(LIBC_CFLAGS) -DCRT0_START=__libc_start -c $< -o $@
$(LIBC_PORT): $(LIBC_PORT_OBJS)
	@rm -f $@
	@ar rcs $@ $^
# posix_prog OUT,SRC,EXTRA_LDFLAGS,EXTRA_OBJS
define posix_prog
$(1): $(BUILD)/libc/obj/$(2).o $(4) $(LIBC_CRT0) $(LIBC_PORT) $(NEWLIB_LIBC)
	@mkdir -p $$(@D)
	@echo "  LD      $$@"
	@ld $(USER_LDFLAGS) $(3) -o $$@ $(call LIBC_LINK,$(BUILD)/libc/obj/$(2).o $(4))
endef
# The test and benchmark programs on the C library (above), with the
# helpers of tests/include (check.h).
$(BUILD)/libc/obj/tests/%.c.o $(BUILD)/libc/obj/user/bench/%.c.o: LIBC_CFLAGS += -iquote tests/include
$(foreach s,$(POSIX_PROG_SRCS),$(eval $(call posix_prog,$(call posix_prog_out,$(s)),$(s))))
USER_BINS += $(foreach s,$(POSIX_PROG_SRCS),$(call posix_prog_out,$(s)))

# The system-call fuzzer (tests/fuzz, docs/testing.md), on the C library.
FUZZ_OBJS := $(patsubst %,$(BUILD)/libc/obj/%.o,$(filter-out tests/fuzz/fuzz.c,$(wildcard tests/fuzz/*.c)))
$(eval $(call posix_prog,$(INITRD_DIR)/tests/fuzz,tests/fuzz/fuzz.c,,$(FUZZ_OBJS)))
USER_BINS += $(INITRD_DIR)/tests/fuzz

# The small tools of /bin, one file each (user/bin/NAME.c) plus the
# helpers they share (user/bin/lib/*.c, an archive: each takes what it
# calls), and the tools of several files,
# every .c of user/bin/NAME/ (the shell), all shipped without debug
# sections (-S; the objects in build/libc/obj keep them for gdb).
BIN_TOOLS := $(basename $(notdir $(wildcard user/bin/*.c)))
BIN_DIR_TOOLS := $(filter-out lib,$(notdir $(patsubst %/,%,$(wildcard user/bin/*/))))
BIN_LIB := $(BUILD)/libc/libtool.a
$(BIN_LIB): $(patsubst %,$(BUILD)/libc/obj/%.o,$(wildcard user/bin/lib/*.c))
	@rm -f $@
	@ar rcs $@ $^
$(foreach p,$(BIN_TOOLS),$(eval $(call posix_prog,$(INITRD_DIR)/bin/$(p),user/bin/$(p).c,-S,$(BIN_LIB))))
bin_dir_objs = $(patsubst %,$(BUILD)/libc/obj/%.o,$(wildcard user/bin/$(1)/*.c))
define bin_dir_tool
$(INITRD_DIR)/bin/$(1): $(call bin_dir_objs,$(1)) $(BIN_LIB) $(LIBC_CRT0) $(LIBC_PORT) $(NEWLIB_LIBC)
	@mkdir -p $$(@D)
	@echo "  LD      $$@"
	@ld $(USER_LDFLAGS) -S -o $$@ $$(call LIBC_LINK,$(call bin_dir_objs,$(1)) $(BIN_LIB))
endef
$(if $(filter $(BIN_DIR_TOOLS),$(BIN_TOOLS)),$(error user/bin: a tool both as NAME.c and NAME/: $(filter $(BIN_DIR_TOOLS),$(BIN_TOOLS))))
$(foreach p,$(BIN_DIR_TOOLS),$(eval $(call bin_dir_tool,$(p))))
USER_BINS += $(patsubst %,$(INITRD_DIR)/bin/%,$(BIN_TOOLS) $(BIN_DIR_TOOLS))
# /bin/[ is /bin/test (it reads its name to want the closing "]").
$(INITRD_DIR)/bin/[: $(INITRD_DIR)/bin/test
	@cp $< $@
USER_BINS += $(INITRD_DIR)/bin/[

# Servers: every .c of user/servers/NAME/ (on the C library), with the
# server skeleton of user/servers/lib (the VFS uses its cgroup2 paths), and
# for tmpfs the boot-archive reader (lib/initrd.c), for ext2 the formatter
# its core logs with (lib/format.c).
SERVERS := vfs tmpfs devfs procfs cgfs ext2 sysfs
FSSRV_SRCS := $(wildcard user/servers/lib/*.c)
server_srcs = $(wildcard user/servers/$(1)/*.c) $(FSSRV_SRCS) \
	$(if $(filter tmpfs,$(1)),lib/initrd.c) $(if $(filter ext2,$(1)),lib/format.c)
define server
$(BUILD)/libc/obj/user/servers/$(1)/%.c.o: LIBC_CFLAGS += -iquote user/servers/$(1) -iquote user/servers/lib
$(INITRD_DIR)/servers/$(1): $(patsubst %,$(BUILD)/libc/obj/%.o,$(call server_srcs,$(1))) $(LIBC_CRT0) $(LIBC_PORT) $(NEWLIB_LIBC)
	@mkdir -p $$(@D)
	@echo "  LD      $$@"
	@ld $(USER_LDFLAGS) -o $$@ $$(call LIBC_LINK,$(patsubst %,$(BUILD)/libc/obj/%.o,$(call server_srcs,$(1))))
endef
$(BUILD)/libc/obj/user/servers/lib/%.c.o: LIBC_CFLAGS += -iquote user/servers/lib
$(foreach s,$(SERVERS),$(eval $(call server,$(s))))
USER_BINS += $(patsubst %,$(INITRD_DIR)/servers/%,$(SERVERS))

# Disk drivers: every .c of drivers/NAME/ with the block layer
# (drivers/block), on the C library.
BLK_DRIVERS := virtio_blk
BLK_LIB_SRCS := $(wildcard drivers/block/*.c)
blk_driver_srcs = $(wildcard drivers/$(1)/*.c) $(BLK_LIB_SRCS)
define blk_driver
$(INITRD_DIR)/drivers/$(1): $(patsubst %,$(BUILD)/libc/obj/%.o,$(call blk_driver_srcs,$(1))) $(LIBC_CRT0) $(LIBC_PORT) $(NEWLIB_LIBC)
	@mkdir -p $$(@D)
	@echo "  LD      $$@"
	@ld $(USER_LDFLAGS) -o $$@ $$(call LIBC_LINK,$(patsubst %,$(BUILD)/libc/obj/%.o,$(call blk_driver_srcs,$(1))))
endef
$(BUILD)/libc/obj/drivers/%.c.o: LIBC_CFLAGS += -iquote drivers/block
$(foreach d,$(BLK_DRIVERS),$(eval $(call blk_driver,$(d))))
USER_BINS += $(patsubst %,$(INITRD_DIR)/drivers/%,$(BLK_DRIVERS))

# What tools/arbor-cc links with.
libc: $(NEWLIB_LIBC) $(LIBC_PORT) $(LIBC_CRT0)
	@# written aside and renamed: arbor-cc runs in parallel (tools/posixts.py)
	@# reads it while another one's make rewrites it
	@printf 'NEWLIB_INCLUDE=%s\nNEWLIB_LIB=%s\nPORT_LIB=%s\nCRT0=%s\n' "$(NEWLIB)/include" \
		"$(NEWLIB)/lib" "$(abspath $(LIBC_PORT))" "$(abspath $(LIBC_CRT0))" > $(BUILD)/libc/arbor-cc.conf.$$$$ && \
		mv -f $(BUILD)/libc/arbor-cc.conf.$$$$ $(BUILD)/libc/arbor-cc.conf

$(INITRD_DIR)/etc/motd: user/motd
	@mkdir -p $(@D)
	@cp $< $@
# The users (root, and nobody as on Debian: a user other than root for
# programs that look one up, as the Open POSIX tests do) and root's home, where the console's login shell
# keeps its history (HOME, user/bin/sh/login.c).
$(INITRD_DIR)/etc/passwd: user/passwd
	@mkdir -p $(@D) $(INITRD_DIR)/root
	@chmod 700 $(INITRD_DIR)/root
	@cp $< $@
# The groups (getgrnam & co., initgroups: user/libc/pwd.c).
$(INITRD_DIR)/etc/group: user/group
	@mkdir -p $(@D)
	@cp $< $@
# Shell scripts the tests run on Arbor.
SH_TESTS := $(patsubst tests/sh/%,$(INITRD_DIR)/tests/sh/%,$(wildcard tests/sh/*.sh))
$(INITRD_DIR)/tests/sh/%.sh: tests/sh/%.sh
	@mkdir -p $(@D)
	@cp $< $@

# The kernel/user boundary: user space is built with abi/, lib/ and its own
# include folders only; this check fails the build if a user-side source or
# object reaches a kernel-private header anyway (tools/check-boundary.py).
$(BUILD)/boundary.ok: $(USER_BINS) tools/check-boundary.py
	@python3 tools/check-boundary.py --build $(BUILD)
	@touch $@

$(INITRD): $(USER_BINS) $(SH_TESTS) $(INITRD_DIR)/etc/motd $(INITRD_DIR)/etc/passwd $(INITRD_DIR)/etc/group tools/mkinitrd.py $(BUILD)/boundary.ok
	@python3 tools/mkinitrd.py --strip-cache $(BUILD)/initrd-strip $@ $(INITRD_DIR)

# The ISO embeds CMDLINE in grub.cfg: rebuild it whenever CMDLINE changes.
$(BUILD)/cmdline.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(CMDLINE)' | cmp -s - $@ || echo '$(CMDLINE)' > $@
$(ISO): $(KERNEL) $(INITRD) $(BUILD)/cmdline.txt tools/mkiso.sh | $(BUILD)/.deps-iso
	@echo "  ISO     $@"
	@tools/mkiso.sh $(KERNEL) $(INITRD) "$(CMDLINE)" $@
iso: $(ISO)

# The runner boots this one to check the GRUB path end to end.
$(BUILD)/arbor-test.iso: $(KERNEL) $(INITRD) tools/mkiso.sh | $(BUILD)/.deps-iso
	@tools/mkiso.sh $(KERNEL) $(INITRD) "test=boot_info_sane mem=256" $@
# ... and this one (the shell, as make run boots it) for the scripted session.
$(BUILD)/arbor-shell.iso: $(KERNEL) $(INITRD) tools/mkiso.sh | $(BUILD)/.deps-iso
	@tools/mkiso.sh $(KERNEL) $(INITRD) "" $@

# With ROOT=/dev/vda (the default when DISK's first image is a *root.img,
# as `make rootdisk` makes) the kernel boots with root=ROOT: "/" is that
# disk's ext2 file system, so the machine keeps what is written.
ROOT ?= $(if $(filter %root.img,$(firstword $(DISK))),/dev/vda)
run: | $(BUILD)/.deps-run
	@$(MAKE) --no-print-directory CMDLINE="$(strip $(CMDLINE) $(if $(ROOT),root=$(ROOT)))" $(ISO)
	@echo "Booting Arbor from $(ISO) with $(MEM) MiB and $(SMP) CPUs (quit: Ctrl-A then X)"
	@tools/qemu.sh --iso $(ISO) --mem $(MEM) --smp $(SMP) $(foreach d,$(DISK),--disk $(d)) || true

# An ext2 disk image (mke2fs -t ext2 -d) holding the boot archive's tree
# (/bin, the tools, the tests): make run DISK=build/disk.img, then
# mount -t ext2 /dev/vda /mnt. Remade each time (the old one is replaced).
disk: $(INITRD)
	@echo "  MKEXT2  $(BUILD)/disk.img"
	@python3 tools/mkext2.py $(BUILD)/disk.img --size 128 --dir $(INITRD_DIR) > /dev/null

# A root disk (make run DISK=build/root.img boots with "/" on it): the
# boot archive's tree plus the mount points and /tmp. Made only if
# missing, since it is the persistent machine's disk; `make rootdisk
# NEW=1` replaces it.
rootdisk: $(INITRD)
	@if [ ! -e $(BUILD)/root.img ] || [ -n "$(NEW)" ]; then \
		echo "  MKEXT2  $(BUILD)/root.img (root file system)"; \
		python3 tools/mkext2.py $(BUILD)/root.img --size 256 --dir $(INITRD_DIR) --root > /dev/null; \
	else echo "  $(BUILD)/root.img exists (NEW=1 remakes it)"; fi

# A debug build (-Og) of its own, QEMU stopped at the first instruction,
# gdb attached with symbols and a breakpoint on the C entry.
# make debug PROG=path/to/prog [ARGS="..."]: debug a user program instead
# (tools/arbor-run --gdb, docs/debugging.md); without PROG: the kernel.
debug: | $(BUILD)/.deps-debug
ifneq ($(PROG),)
	@ARBOR_BUILD=$(abspath $(BUILD)) tools/arbor-run --gdb $(if $(filter command line environment,$(origin GDBPORT)),--gdb-port $(GDBPORT)) $(PROG) $(ARGS)
else
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/debug OPT=-Og $(BUILD)/debug/arbor.elf
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/debug OPT=-Og $(BUILD)/debug/initrd.cpio
	@tools/debug.sh $(BUILD)/debug/arbor.elf $(BUILD)/debug/initrd.cpio "$(CMDLINE)" $(MEM) $(GDBPORT)
endif

# -- tests ----------------------------------------------------------------
.SECONDEXPANSION:
$(BUILD)/host/test_%: $$(call host_test_src,$$*) $$(host_srcs_$$*) tests/host/tap.h | $(BUILD)/.deps-build $(GEN)/abi
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	@gcc $(host_cflags_$*) $(HOST_CFLAGS) $(filter %.c,$^) -o $@

TEST_BUILD := libc $(KERNEL) $(INITRD) $(BUILD)/arbor-test.iso $(BUILD)/arbor-shell.iso $(HOST_BINS) kcov lockdep

test: $(TEST_BUILD) | $(BUILD)/.deps-test
	@python3 tools/run-tests.py --build $(BUILD) --timeout $(TIMEOUT) $(HOST_BINS)

# All that make test runs, built and nothing run: `make -j2 test-build`
# first builds it in parallel (.ci/run does: a cold build takes about 3.5
# minutes instead of 5 on two cores), then `make test` only tests.
test-build: $(TEST_BUILD) | $(BUILD)/.deps-test

# The kcov kernel (KCOV=1, kernel/debug/kcov.c) in a build directory of
# its own; it boots with the normal boot archive.
KCOV_KERNEL := $(BUILD)/kcov/arbor.elf
kcov: | $(BUILD)/.deps-build
	@mkdir -p $(BUILD)/kcov
	@cp -p $(BUILD)/.deps-build $(BUILD)/kcov/ 2>/dev/null || true
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/kcov KCOV=1 $(KCOV_KERNEL)

# The lock-order checker's kernel (LOCKDEP=1), built as the kcov one is.
LOCKDEP_KERNEL := $(BUILD)/lockdep/arbor.elf
lockdep: | $(BUILD)/.deps-build
	@mkdir -p $(BUILD)/lockdep
	@cp -p $(BUILD)/.deps-build $(BUILD)/lockdep/ 2>/dev/null || true
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/lockdep LOCKDEP=1 $(LOCKDEP_KERNEL)

# make fuzz SECONDS=N [SEED=S] [MODE=unpriv|root|both]: a longer fuzz run
# (N seconds per mode) on the kcov kernel, from a random seed unless SEED
# is given (make test runs 45 s of each mode from seed 1).
SECONDS ?= 600
SEED ?=
MODE ?= both
fuzz: $(INITRD) kcov | $(BUILD)/.deps-test
	@python3 tools/run-tests.py --build $(BUILD) --timeout $(TIMEOUT) --fuzz-only \
		--fuzz-seconds $(SECONDS) $(if $(SEED),--fuzz-seed $(SEED)) --fuzz-mode $(MODE)

# The differential cgroup fuzzer live on Arbor and Linux 6.1 (tools/cgdiff.py,
# docs/cgroups.md): the first divergence of each sequence, a minimal replay.
SEEDS ?= 1-100
cgdiff: $(KERNEL) $(INITRD) libc
	@python3 tools/cgdiff.py live $(SEEDS) $(if $(OPS),-n $(OPS))

# A lab's grader (labs/NN-name/, docs/labs.md): make grade LAB=03; without
# LAB, every lab's.
grade: $(KERNEL) $(INITRD) libc
	@$(if $(LAB),tools/lab grade $(LAB),s=0; for l in $$(tools/lab list | cut -c1-2); do tools/lab grade $$l || s=1; done; exit $$s)

# The churn/leak soak alone, SECONDS long (make test runs it for 20 s).
soak: $(KERNEL) $(INITRD) | $(BUILD)/.deps-test
	@python3 tools/run-tests.py --build $(BUILD) --timeout $(TIMEOUT) --soak --churn $(SECONDS)

# make stress [RUNS=20] [SMP=4] [TESTS=name,name] [KEEP_GOING=1]: the whole
# suite (or one boot of the named self-tests) RUNS times in a row on SMP
# CPUs that all schedule, stopping at the first failure (tools/stress.py).
# Twenty whole runs take hours: make test does not run it.
RUNS ?= 20
stress: $(TEST_BUILD) | $(BUILD)/.deps-test
	@python3 tools/stress.py --build $(BUILD) --timeout $(TIMEOUT) --runs $(RUNS) --smp $(if $(filter command line environment,$(origin SMP)),$(SMP),4) \
		$(if $(TESTS),--tests $(TESTS)) $(if $(KEEP_GOING),--keep-going) $(HOST_BINS)

bench: $(KERNEL) $(INITRD) kcov | $(BUILD)/.deps-bench
	@python3 tools/bench.py --build $(BUILD)

clean:
	rm -rf $(BUILD)

FORCE:
-include $(shell find $(BUILD)/obj $(BUILD)/user $(BUILD)/libc -name '*.d' 2>/dev/null)
