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
 */
#include <elf.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "userprobe.h"

#ifdef SDT_HAVE_CAPSTONE
#include <capstone/capstone.h>

int sdt_insn_boundary(unsigned int machine, int elfclass, const unsigned char *code, size_t len,
		      uint64_t off, uint64_t *insn_start)
{
	const uint8_t *p = code;
	size_t left = len;
	uint64_t addr = 0, prev = 0;
	cs_insn *insn;
	csh h;
	int err = 0;

	if (machine != EM_X86_64 && machine != EM_386)
		return -ENOTSUP;
	if (cs_open(CS_ARCH_X86,
		    machine == EM_X86_64 && elfclass == ELFCLASS64 ? CS_MODE_64 : CS_MODE_32,
		    &h) != CS_ERR_OK)
		return -ENOTSUP;
	insn = cs_malloc(h);
	if (!insn) {
		cs_close(&h);
		return -ENOMEM;
	}
	while (addr < off) {
		prev = addr;
		if (!cs_disasm_iter(h, &p, &left, &addr, insn)) {
			/* bytes that are no instruction (data in the text): we cannot tell */
			err = -EILSEQ;
			break;
		}
	}
	if (!err && addr != off)
		err = -ERANGE;
	*insn_start = prev;
	cs_free(insn, 1);
	cs_close(&h);
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
