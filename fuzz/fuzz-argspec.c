/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: an argument string parsed and rendered for every architecture. The first byte picks
 * the architecture (every entry of the table in lib/scan/arch/arch.c, and some without a parser); the
 * rest is the note's argument text. A rendered fetcharg must never contain
 * a space or a newline (it would inject text into uprobe_events).
 */
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scan/arch/arch.h"
#include "scan/argspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct {
	unsigned int machine;
	int elfclass;
	bool be;
} arches[] = {
    {EM_X86_64, ELFCLASS64, false},  {EM_386, ELFCLASS32, false},
    {EM_AARCH64, ELFCLASS64, false}, {EM_ARM, ELFCLASS32, false},
    {EM_PPC64, ELFCLASS64, false},   {EM_PPC64, ELFCLASS64, true},
    {EM_S390, ELFCLASS64, true},     {243 /* EM_RISCV */, ELFCLASS64, false},
    {EM_PPC, ELFCLASS32, true},	     {243 /* EM_RISCV */, ELFCLASS32, false},
    {EM_X86_64, ELFCLASS32, false}, /* x32 */
    {EM_S390, ELFCLASS32, true},    /* s390 (31-bit): no parser, every arg unavailable */
    {EM_MIPS, ELFCLASS64, false},   /* an architecture without a parser */
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct sdt_arch *arch;
	struct sdt_render_ctx rc = {.text_bias = 0x1000, .have_text_bias = true};
	struct sdt_arg *args;
	size_t n, i, k;
	char *text;

	if (size < 1 || size > 4096)
		return 0;
	k = data[0] % (sizeof(arches) / sizeof(arches[0]));
	arch = sdt_arch_find(arches[k].machine, arches[k].elfclass, arches[k].be);
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	if (sdt_args_parse(arch, arches[k].elfclass, text, &args, &n) == 0) {
		for (i = 0; i < n; i++) {
			struct sdt_arg *a = &args[i];

			if (a->symbol && !a->sym_resolved) {
				a->sym_resolved = true;
				a->sym_addr = 0x4000;
			}
			if (sdt_arg_render(arch, arches[k].elfclass, a, &rc))
				continue;
			if (!a->fetch == !a->unavailable)
				__builtin_trap();
			if (a->fetch && strpbrk(a->fetch, " \t\n\r"))
				__builtin_trap();
		}
		sdt_args_free(args, n);
	}
	free(text);
	return 0;
}
