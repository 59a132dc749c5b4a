/* SPDX-License-Identifier: MIT */
/*
 * perf_event_open() on tracepoints (our uprobe events), for recording and for counting.
 *
 * One event is opened per (tracepoint, target task or -1, CPU): the kernel refuses to mmap an
 * inherited per-task event opened on "any CPU" (all children would write into one buffer), so a
 * command or a process is covered per CPU with `inherit`, as perf record does, and system-wide
 * is per CPU with pid -1. The first event of each CPU owns that CPU's ring buffer
 * (ring.h); every other event on that CPU is redirected into it with PERF_EVENT_IOC_SET_OUTPUT.
 */
#ifndef SDT_PERF_EVENT_H
#define SDT_PERF_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct sdt_perf_open_opts {
	uint64_t tp_id;
	bool sample;	     /* RAW | TID | TIME | CPU samples, one per hit (else: counting only) */
	bool inherit;	     /* follow children and new threads of the task */
	bool enable_on_exec; /* start disabled, enabled by the task's next exec */
	bool comm;	     /* also PERF_RECORD_COMM (comm_exec): one event per ring asks */
	uint32_t wakeup_bytes; /* watermark: wake the reader when this much is in the ring */
	/* The user stack by frame pointers (PERF_SAMPLE_CALLCHAIN, user only, at most this deep). */
	uint16_t callchain;
	/* Also PERF_RECORD_MMAP2 with build-ids (executable mappings): one event per ring asks. */
	bool mmap;
	/*
	 * record --call-graph=dwarf: the user registers (PERF_SAMPLE_REGS_USER, SDT_PERF_REGS_USER)
	 * and this many bytes of user stack from its pointer (PERF_SAMPLE_STACK_USER); 0: none.
	 * With ->callchain (record -g), the leaf's words instead: the stack pointer alone
	 * (SDT_PERF_REGS_LEAF) and SDT_STACK_USER_LEAF bytes at it (sdt_perf_regs_user()).
	 */
	uint32_t stack_user;
};

/*
 * The user registers of a dwarf sample, in perf's x86-64 numbering (asm/perf_regs.h: AX 0, BX 1,
 * CX 2, DX 3, SI 4, DI 5, BP 6, SP 7, IP 8, R8-R15 16-23): the 17 that libdwfl's x86-64 frame
 * state holds (DWARF 0-16), the segment registers and flags left out. 0 on other hosts: dwarf
 * stacks are recorded on x86-64 only.
 */
#if defined(__x86_64__)
#define SDT_PERF_REGS_USER 0xff01ffull
#else
#define SDT_PERF_REGS_USER 0ull
#endif

/*
 * record -g (issue 33): beside the frame-pointer walk, the user stack pointer (perf's SP, 7)
 * and SDT_STACK_USER_LEAF bytes at it, from which the report unwinds the first frame by the
 * file's CFI (lib/stack/unwind_dwarf.c) and puts back the caller of a function that has no
 * frame of its own at the probe (a leaf built -fno-omit-frame-pointer, a probe before the
 * prologue), which the walk skips. 32 bytes: the return address of such a leaf at its stack
 * pointer, or under up to 3 pushed registers. x86-64 only (0 elsewhere: no words).
 */
#if defined(__x86_64__)
#define SDT_PERF_REGS_LEAF (1ull << 7)
#else
#define SDT_PERF_REGS_LEAF 0ull
#endif
#define SDT_STACK_USER_LEAF 32

/* The registers a ring's samples carry: the leaf's with a callchain, else dwarf's. */
static inline unsigned long long sdt_perf_regs_user(int callchain)
{
	return callchain ? SDT_PERF_REGS_LEAF : SDT_PERF_REGS_USER;
}

/* Open one event. Returns the fd (O_CLOEXEC), or -errno with the message set. Disabled. */
int sdt_perf_open(const struct sdt_perf_open_opts *o, pid_t pid, int cpu);
/*
 * The watch of a ring (following): a dummy software event that samples nothing and writes
 * PERF_RECORD_MMAP2 for executable mappings (with the build-id where the kernel has it, 5.12
 * on), COMM and FORK records, with the same sample_id trailer as the tracepoints' (merging by
 * time works). @o->tp_id and ->sample are ignored. Disabled; fd or -errno.
 */
int sdt_perf_open_watch(const struct sdt_perf_open_opts *o, pid_t pid, int cpu);
/*
 * The fork guard of task @pid: a dummy software event (disabled, counts nothing, no ring) that
 * keeps the perf contexts of the processes the task forks from being swapped. The kernel swaps
 * the perf contexts of two tasks whose contexts are clones of the same one at a context switch
 * (perf_event_context_sched_out(): an optimization for inherited counters); the uprobe filter
 * (trace_uprobe.c: __uprobe_perf_filter(), uprobe_perf_close()) goes by each event's
 * hw.target->mm, which the swap leaves behind, so when a thread of the parent exits holding
 * the forked child's events, they are freed as "not exiting", no event is left for the child's
 * mm, and uprobe_apply() removes the breakpoints from it: the child's hits stop for good.
 * Two forms, the first the kernel takes:
 *  - since 6.12 (sdt_perf_fork_guard_no_swap(), asked once), the no-swap guard: inherit and
 *    PERF_SAMPLE_READ, which the kernel counts in each context holding it (list_add_event():
 *    ctx->nr_no_switch_fast) and never swaps such a context (the fast path of
 *    perf_event_context_sched_out()). Inherited
 *    into every process and thread below the task, it keeps all of them off the swap, however
 *    deep and however soon they fork. Disabled: it never samples.
 *  - before (EINVAL there), or without @no_swap (opts.fork_guard_thread): inherit_thread, which clears the
 *    kernel's inherited_all for a fork (inherit_task_group()) and so leaves the forked child's
 *    context unmarked; but the child holds no guard, and its own children are clones of it
 *    (recorder_forks.c guards them from their FORK records).
 * fd (O_CLOEXEC) or -errno with the message set.
 */
int sdt_perf_open_fork_guard(pid_t pid, bool no_swap);
/* Does this kernel take the no-swap guard (above)? Asked once, on this process. */
bool sdt_perf_fork_guard_no_swap(void);
int sdt_perf_set_output(int fd, int out_fd);
int sdt_perf_enable(int fd);
int sdt_perf_disable(int fd);
/* The event's count (counting mode). 0 or -errno. */
int sdt_perf_read_count(int fd, uint64_t *count);

/*
 * Close @n fds (entries < 0 are skipped). Closing the last perf event of a uprobe event waits for
 * the kernel's tracepoint unregistration grace period (~45-75 ms on 6.18), under the kernel's
 * event_mutex: closing in parallel does not help (measured), so this is a plain loop.
 */
void sdt_perf_close_all(const int *fds, size_t n);

/* The online CPUs, from /sys/devices/system/cpu/online. *cpus is malloc'ed. 0 or -errno. */
int sdt_online_cpus(int **cpus, size_t *n);

#endif
