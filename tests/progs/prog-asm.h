/* SPDX-License-Identifier: MIT */
/*
 * PROG_ASM_PROBE(provider, name, "ARGS", operands...): an SDT probe whose argument string is
 * written by hand, so that the compiler cannot choose another operand form. It emits what
 * <sys/sdt.h>'s STAP_PROBEn emits (a nop, a .note.stapsdt note of type 3 with pc, base and
 * semaphore 0, the provider, name and argument strings, and the .stapsdt.base section), but the
 * argument string is ARGS itself: "-8@%%rdx -8@(%%rdi,%%rsi,8)" (an extended asm: `%%` for a
 * register, `%[x]` for an operand). The operands pin the values where ARGS says they are:
 * "d"(v) for %rdx, "D" %rdi, "S" %rsi, "c" %rcx, "a" %rax, "b" %rbx, "m"(g) for a global.
 * x86_64 only (8-byte addresses).
 */
#ifndef SDTRACE_TEST_PROG_ASM_H
#define SDTRACE_TEST_PROG_ASM_H

#if !defined(__x86_64__)
#error "prog-asm.h writes x86_64 operands"
#endif

#define PROG_ASM_PROBE(provider, name, args, ...)                                                  \
	__asm__ __volatile__(                                                                      \
	    "990:	nop\n"                                                                           \
	    "	.pushsection .note.stapsdt,\"?\",\"note\"\n"                                         \
	    "	.balign 4\n"                                                                         \
	    "	.4byte 992f-991f, 994f-993f, 3\n"                                                    \
	    "991:	.asciz \"stapsdt\"\n"                                                            \
	    "992:	.balign 4\n"                                                                     \
	    "993:	.8byte 990b\n"                                                                   \
	    "	.8byte _.stapsdt.base\n"                                                             \
	    "	.8byte 0\n"                                                                          \
	    "	.asciz \"" #provider "\"\n"                                                        \
	    "	.asciz \"" #name "\"\n"                                                            \
	    "	.asciz \"" args "\"\n"                                                             \
	    "994:	.balign 4\n"                                                                     \
	    "	.popsection\n"                                                                       \
	    ".ifndef _.stapsdt.base\n"                                                             \
	    "	.pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n"               \
	    "	.weak _.stapsdt.base\n"                                                              \
	    "	.hidden _.stapsdt.base\n"                                                            \
	    "_.stapsdt.base:	.space 1\n"                                                           \
	    "	.size _.stapsdt.base, 1\n"                                                           \
	    "	.popsection\n"                                                                       \
	    ".endif\n" ::__VA_ARGS__)

#endif
