/* SPDX-License-Identifier: MIT */
/*
 * Is a user probe's offset the start of an instruction? A uprobe replaces the first byte at its
 * address with a breakpoint: in the middle of an instruction that byte belongs to an operand,
 * and the program computes with a corrupted constant (or jumps into a breakpoint it never should
 * reach). x86 instructions are 1 to 15 bytes long, so the only way to know is to decode from a
 * known boundary, the function's start, up to the offset. With capstone (libcapstone-dev, an
 * optional build dependency) this file does that for x86 and x86_64; without it, or for another
 * architecture, it answers -ENOTSUP and the caller keeps only the function-bounds check.
 * (Fixed-width architectures need no decoder: a multiple of 4 is a boundary; see the caller.)
 *
 * libcapstone is loaded on the first check, not linked: its 77,000 relocations were ~80 % of the
 * start-up of every sdtrace command (1.0 M of 1.24 M instructions of `sdtrace --version`), and
 * only `probe add` with an x86 offset needs it. Not found at run time: -ENOTSUP, as without it.
 */
#include <elf.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "util/internal.h"
#include "cache/userprobe.h"

#ifdef SDT_HAVE_CAPSTONE
#include <capstone/capstone.h>
#include <dlfcn.h>

#define STR_(x)		#x
#define STR(x)		STR_(x)
#define CAPSTONE_SONAME "libcapstone.so." STR(CS_API_MAJOR)

static struct {
	bool ok;
	cs_err (*open)(cs_arch, cs_mode, csh *);
	cs_err (*close)(csh *);
	cs_insn *(*malloc)(csh);
	void (*free)(cs_insn *, size_t);
	bool (*disasm_iter)(csh, const uint8_t **, size_t *, uint64_t *, cs_insn *);
} cs;

static void load_capstone_once(void)
{
	void *h = dlopen(CAPSTONE_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return;
	*(void **)&cs.open = dlsym(h, "cs_open");
	*(void **)&cs.close = dlsym(h, "cs_close");
	*(void **)&cs.malloc = dlsym(h, "cs_malloc");
	*(void **)&cs.free = dlsym(h, "cs_free");
	*(void **)&cs.disasm_iter = dlsym(h, "cs_disasm_iter");
	cs.ok = cs.open && cs.close && cs.malloc && cs.free && cs.disasm_iter;
}

/*
 * Loaded on the first check, from whichever thread makes it (`cache add` and `cache check` run
 * several): pthread_once loads it once and makes the others wait until the table is filled; a
 * plain flag was a data race (the table read while another thread wrote it).
 */
static bool load_capstone(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, load_capstone_once);
	return cs.ok;
}

/* Decode with @h from @code's first byte up to @off: 0, -ERANGE, -EILSEQ (sdt_insn_boundary). */
static int decode_to(csh h, const unsigned char *code, size_t len, uint64_t off,
		     uint64_t *insn_start)
{
	const uint8_t *p = code;
	size_t left = len;
	uint64_t addr = 0, prev = 0;
	cs_insn *insn = cs.malloc(h);
	int err = 0;

	if (!insn)
		return -ENOMEM;
	while (addr < off) {
		prev = addr;
		if (!cs.disasm_iter(h, &p, &left, &addr, insn)) {
			/* bytes that are no instruction (data in the text): we cannot tell */
			err = -EILSEQ;
			break;
		}
	}
	if (!err && addr != off)
		err = -ERANGE;
	*insn_start = prev;
	cs.free(insn, 1);
	return err;
}

/*
 * One decode at a time: capstone 4 sorts a table of its own on first use, without a lock (TSan:
 * qsort in libcapstone from two threads at once), and a decode takes microseconds.
 */
static pthread_mutex_t decode_lock = PTHREAD_MUTEX_INITIALIZER;

int sdt_insn_boundary(unsigned int machine, int elfclass, const unsigned char *code, size_t len,
		      uint64_t off, uint64_t *insn_start)
{
	csh h;
	int err;

	*insn_start = 0;
	if (machine != EM_X86_64 && machine != EM_386)
		return -ENOTSUP;
	if (!load_capstone())
		return -ENOTSUP;
	pthread_mutex_lock(&decode_lock);
	if (cs.open(CS_ARCH_X86,
		    machine == EM_X86_64 && elfclass == ELFCLASS64 ? CS_MODE_64 : CS_MODE_32,
		    &h) != CS_ERR_OK) {
		err = -ENOTSUP;
	} else {
		err = decode_to(h, code, len, off, insn_start);
		cs.close(&h);
	}
	pthread_mutex_unlock(&decode_lock);
	return err;
}

#else

int sdt_insn_boundary(unsigned int machine, int elfclass, const unsigned char *code, size_t len,
		      uint64_t off, uint64_t *insn_start)
{
	(void)machine;
	(void)elfclass;
	(void)code;
	(void)len;
	(void)off;
	*insn_start = 0;
	return -ENOTSUP;
}

#endif
