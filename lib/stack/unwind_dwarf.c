/* SPDX-License-Identifier: MIT */
/*
 * Dwarf stacks (unwind_dwarf.h), unwound with elfutils' libdwfl as perf's libdw unwinder does.
 *
 * record --call-graph=dwarf keeps, per sample, the user registers at the probe and the bytes of
 * the user stack from its pointer up (8 KiB by default). Here a Dwfl stands for the process: each
 * file of its MAPPING records (recorded so far) is reported at its load bias, the runtime address
 * of the mapping's file offset minus that offset's link-time address (by the PT_LOAD holding it),
 * so libdwfl finds each pc's module and its CFI (.eh_frame, or .debug_frame of a separate debug
 * file). dwfl_attach_state() gives it thread callbacks that serve one thread, the sample's:
 *
 *	set_initial_registers  the sample's registers, perf's numbering -> DWARF's (x86-64):
 *	                       rax 0, rdx 1, rcx 2, rbx 3, rsi 4, rdi 5, rbp 6, rsp 7, r8-r15 8-15,
 *	                       rip 16 (perf: AX 0, BX 1, CX 2, DX 3, SI 4, DI 5, BP 6, SP 7, IP 8,
 *	                       R8-R15 16-23)
 *	memory_read            8 bytes from the copied stack when they lie in it; else from the
 *	                       data of the module's file at that address (a constant the CFI reads);
 *	                       else nothing, which ends the walk
 *
 * dwfl_getthread_frames() walks the frames; each frame's pc is kept as the kernel's frame-pointer
 * walk would give it: the first as it is, the others as return addresses (the symbolizer looks
 * them up at pc - 1). A frame that is an activation below the first (a signal frame: its pc is
 * where it was interrupted, not a return address) is kept as pc + 1 for the same reason.
 *
 * The Dwfl of a process is kept and used again while no MAPPING record has come since it was made.
 *
 * An fp stack (record -g) comes with the leaf's words (record/perf_event.h: the user stack
 * pointer and a few words at it): sdt_unwinder_caller() unwinds its first frame the same way,
 * the pc its ip, the stack pointer the only register, the memory those words. Where the CFI
 * finds the return address from the stack pointer (a function with no frame of its own at that
 * ip) it gives it; where it needs %rbp (a frame set up: the walk has that caller) or a word past
 * the copy, the walk stops there and it gives nothing.
 */
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#include "stack/find_debug.h"
#include "stack/unwind_dwarf.h"
#include "util/internal.h"

#define X86_64_DWARF_REGS 17
#define EM_X86_64_NUM 62
#define MAX_PROCS 64
#define NOCALLER_SLOTS 256 /* per process: ips whose first frame gave no caller (a power of 2) */
#define LEAF_BYTES 32	   /* the leaf's words record -g keeps (SDT_STACK_USER_LEAF) */

/* perf's x86-64 register number of each DWARF register 0-16 */
static const unsigned char dwarf_to_perf[X86_64_DWARF_REGS] = {
    0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8,
};
#define PERF_REG_SP 7
#define PERF_REG_IP 8

struct proc {
	uint32_t pid;
	size_t nmaps; /* the reader's mappings when it was made */
	Dwfl *dwfl;   /* NULL: nothing could be reported */
	/*
	 * sdt_unwinder_caller(): ips where the CFI gave no caller from the leaf's words (a frame
	 * set up, no CFI), direct-mapped by ip (0: empty). That depends on the ip alone (the rule
	 * and the words' span are the same at every hit with all LEAF_BYTES), so those are not
	 * unwound again: most probes are in functions with a frame, and a report of 500,000 of
	 * them took twice as long (0.65 s of CPU against 0.31 s; bench/b64's loop, farm-bench)
	 */
	uint64_t nocaller[NOCALLER_SLOTS];
};

struct sdt_unwinder {
	const struct sdt_trace_reader *r;
	sdt_unwind_find_fn find;
	void *find_ctx;
	struct proc procs[MAX_PROCS];
	size_t nprocs;
	/* the sample being unwound */
	const struct sdt_trace_user_stack *us;
	uint32_t tid;
	uint64_t sp, ip;
	uint64_t *out;
	size_t n, max;
};

static const Dwfl_Callbacks dwfl_callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = sdt_find_debuginfo,
};

int sdt_unwinder_new(const struct sdt_trace_reader *r, sdt_unwind_find_fn find, void *ctx,
		     struct sdt_unwinder **out)
{
	struct sdt_unwinder *u = calloc(1, sizeof(*u));

	*out = NULL;
	if (!u)
		return -ENOMEM;
	u->r = r;
	u->find = find;
	u->find_ctx = ctx;
	*out = u;
	return 0;
}

static void procs_release(struct sdt_unwinder *u)
{
	size_t i;

	for (i = 0; i < u->nprocs; i++)
		if (u->procs[i].dwfl)
			dwfl_end(u->procs[i].dwfl);
	u->nprocs = 0;
}

void sdt_unwinder_free(struct sdt_unwinder *u)
{
	if (!u)
		return;
	procs_release(u);
	free(u);
}

/* Register @perf_no of @us: true and *val, or false when it was not recorded. */
static bool perf_reg(const struct sdt_trace_user_stack *us, unsigned int perf_no, uint64_t *val)
{
	uint64_t below;

	if (perf_no >= 64 || !(us->regs_mask & (1ull << perf_no)))
		return false;
	below = us->regs_mask & ((1ull << perf_no) - 1);
	*val = us->regs[__builtin_popcountll(below)];
	return true;
}

/* ---- the thread callbacks ------------------------------------------------------------------ */

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct sdt_unwinder *u = arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return (pid_t)u->tid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	struct sdt_unwinder *u = arg;

	(void)dwfl;
	if ((uint32_t)tid != u->tid)
		return false;
	*thread_argp = u;
	return true;
}

/* 8 bytes at @addr of the file of the module holding it (its allocated, loaded sections). */
static bool read_file(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, addr);
	Elf_Scn *scn = NULL;
	GElf_Addr bias;
	GElf_Shdr sh;
	Elf *elf;

	if (!mod || !(elf = dwfl_module_getelf(mod, &bias)))
		return false;
	addr -= bias;
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    sh.sh_type == SHT_NOBITS || addr < sh.sh_addr || addr - sh.sh_addr >= sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || addr - sh.sh_addr > d->d_size ||
		    d->d_size - (addr - sh.sh_addr) < sizeof(*result))
			return false;
		memcpy(result, (const char *)d->d_buf + (addr - sh.sh_addr), sizeof(*result));
		return true;
	}
	return false;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct sdt_unwinder *u = arg;
	const struct sdt_trace_user_stack *us = u->us;

	if (addr >= u->sp && addr - u->sp <= us->stack_size &&
	    us->stack_size - (addr - u->sp) >= sizeof(*result)) {
		memcpy(result, us->stack + (addr - u->sp), sizeof(*result));
		return true;
	}
	return read_file(dwfl, addr, result);
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct sdt_unwinder *u = arg;
	Dwarf_Word w;
	uint64_t v;
	unsigned int i;

	for (i = 0; i < X86_64_DWARF_REGS; i++) {
		if (!perf_reg(u->us, dwarf_to_perf[i], &v))
			continue;
		w = v;
		if (!dwfl_thread_state_registers(thread, (int)i, 1, &w))
			return false;
	}
	dwfl_thread_state_register_pc(thread, u->ip);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
    .next_thread = next_thread,
    .get_thread = get_thread,
    .memory_read = memory_read,
    .set_initial_registers = set_initial_registers,
};

/* ---- the process's Dwfl -------------------------------------------------------------------- */

/*
 * The load bias of @path mapped as @m: the mapping's start minus the link-time address of its
 * file offset (the PT_LOAD holding it). A separate debug file has no file offsets (its PT_LOADs
 * have p_filesz 0): there the mapping is taken to start at its first executable segment's page.
 */
static bool load_bias(Elf *elf, const struct sdt_trace_mapping *m, uint64_t *bias)
{
	GElf_Phdr ph;
	size_t n, i;

	if (elf_getphdrnum(elf, &n))
		return false;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if ((ph.p_flags & PF_X) && !ph.p_filesz && ph.p_memsz) {
			*bias = m->start - (ph.p_vaddr & ~(uint64_t)0xfff);
			return true;
		}
		if (m->pgoff >= (ph.p_offset & ~(uint64_t)0xfff) &&
		    m->pgoff < ph.p_offset + ph.p_filesz) {
			*bias = m->start - (m->pgoff - ph.p_offset + ph.p_vaddr);
			return true;
		}
	}
	return false;
}

/* Report the files of @pid's mappings into a new Dwfl with our thread state: NULL when none. */
static Dwfl *proc_dwfl(struct sdt_unwinder *u, uint32_t pid)
{
	struct sdt_trace_mapping m;
	size_t i, nmods = 0;
	Dwfl *dwfl = dwfl_begin(&dwfl_callbacks);

	if (!dwfl)
		return NULL;
	elf_version(EV_CURRENT);
	dwfl_report_begin(dwfl);
	for (i = 0; sdt_trace_reader__mapping_at(u->r, i, &m); i++) {
		const char *path;
		uint64_t bias;
		bool ok;
		Elf *elf;
		int fd;

		if (m.pid != pid || dwfl_addrmodule(dwfl, m.start))
			continue;
		path = u->find(u->find_ctx, &m);
		/* a regular file only, and the one checked is the one read (find_debug.h) */
		if (!path || (fd = sdt_open_regular(path)) < 0) {
			sdt_err_clear();
			continue;
		}
		elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		ok = elf && load_bias(elf, &m, &bias);
		elf_end(elf);
		if (ok && dwfl_report_elf(dwfl, path, path, fd, bias, true))
			nmods++;
		else
			close(fd);
	}
	dwfl_report_end(dwfl, NULL, NULL);
	if (!nmods || !dwfl_attach_state(dwfl, NULL, (pid_t)pid, &thread_callbacks, u)) {
		dwfl_end(dwfl);
		return NULL;
	}
	return dwfl;
}

static struct proc *proc_of(struct sdt_unwinder *u, uint32_t pid)
{
	size_t i, nmaps = sdt_trace_reader__mapping_count(u->r);
	struct proc *p = NULL;
	for (i = 0; i < u->nprocs; i++)
		if (u->procs[i].pid == pid) {
			p = &u->procs[i];
			break;
		}
	if (p && p->nmaps == nmaps)
		return p;
	if (p) {
		if (p->dwfl)
			dwfl_end(p->dwfl);
	} else {
		if (u->nprocs == MAX_PROCS)
			procs_release(u);
		p = &u->procs[u->nprocs++];
	}
	p->pid = pid;
	p->nmaps = nmaps;
	memset(p->nocaller, 0, sizeof(p->nocaller));
	p->dwfl = proc_dwfl(u, pid);
	return p;
}

/* ---- the walk ------------------------------------------------------------------------------ */

static int on_frame(Dwfl_Frame *state, void *arg)
{
	struct sdt_unwinder *u = arg;
	bool activation;
	Dwarf_Addr pc;

	if (!dwfl_frame_pc(state, &pc, &activation) || !pc)
		return DWARF_CB_ABORT;
	if (u->n && activation)
		pc++;
	u->out[u->n++] = pc;
	return u->n < u->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

/* Walk at most @max frames of @us (thread @tid of process @p) from @ip and @sp into @out: u->n. */
static void walk(struct sdt_unwinder *u, struct proc *p, uint32_t tid,
		 const struct sdt_trace_user_stack *us, uint64_t ip, uint64_t sp, uint64_t *out,
		 size_t max)
{
	u->us = us;
	u->tid = tid;
	u->sp = sp;
	u->ip = ip;
	u->out = out;
	u->n = 0;
	u->max = max;
	if (p->dwfl)
		dwfl_getthread_frames(p->dwfl, (pid_t)tid, on_frame, u);
	u->us = NULL;
}

int sdt_unwinder_run(struct sdt_unwinder *u, uint32_t pid, uint32_t tid,
		     const struct sdt_trace_user_stack *us, uint64_t *ips, size_t max)
{
	uint64_t ip, sp;

	if (us->machine != EM_X86_64_NUM)
		return sdt_err(-ENOTSUP,
			       "a dwarf stack of e_machine %u: only x86-64 stacks are unwound",
			       us->machine);
	if (!max || !perf_reg(us, PERF_REG_IP, &ip))
		return 0;
	if (!perf_reg(us, PERF_REG_SP, &sp)) {
		ips[0] = ip;
		return 1;
	}
	walk(u, proc_of(u, pid), tid, us, ip, sp, ips, max);
	if (!u->n) {
		ips[0] = ip;
		return 1;
	}
	return (int)u->n;
}

bool sdt_unwinder_caller(struct sdt_unwinder *u, uint32_t pid, uint32_t tid,
			 const struct sdt_trace_user_stack *us, uint64_t ip, uint64_t *ra)
{
	uint64_t sp, pcs[2], *slot;
	struct proc *p;

	if (us->machine != EM_X86_64_NUM || !perf_reg(us, PERF_REG_SP, &sp))
		return false;
	p = proc_of(u, pid);
	slot = &p->nocaller[(ip ^ (ip >> 8)) & (NOCALLER_SLOTS - 1)];
	if (ip && *slot == ip)
		return false;
	walk(u, p, tid, us, ip, sp, pcs, 2);
	if (u->n < 2) {
		if (us->stack_size >= LEAF_BYTES) /* not fewer words (a stack's end): kept */
			*slot = ip;
		return false;
	}
	*ra = pcs[1];
	return true;
}
