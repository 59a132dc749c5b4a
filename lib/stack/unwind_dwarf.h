/* SPDX-License-Identifier: MIT */
/*
 * Dwarf stacks unwound at report time (unwind_dwarf.c): a sample's user registers and the top of
 * its user stack (record --call-graph=dwarf) -> the addresses of its stack, as the kernel's
 * frame-pointer walk gives them (the probe ip first, then return addresses), for the symbolizer.
 */
#ifndef SDT_STACK_UNWIND_DWARF_H
#define SDT_STACK_UNWIND_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sdtrace/trace.h"

struct sdt_unwinder;

/* The file to read for mapping @m (found as the symbolizer finds it), or NULL; borrowed. */
typedef const char *(*sdt_unwind_find_fn)(void *ctx, const struct sdt_trace_mapping *m);

/* An unwinder over the mappings of @r (borrowed): 0 and *out, or -ENOMEM. */
int sdt_unwinder_new(const struct sdt_trace_reader *r, sdt_unwind_find_fn find, void *ctx,
		     struct sdt_unwinder **out);
void sdt_unwinder_free(struct sdt_unwinder *u);
/*
 * Unwind @us, a sample of thread @tid of process @pid, into @ips (at most @max): the count (at
 * least 1: the ip alone when nothing unwinds), -ENOTSUP (not x86-64 registers, with a message)
 * or -ENOMEM.
 */
int sdt_unwinder_run(struct sdt_unwinder *u, uint32_t pid, uint32_t tid,
		     const struct sdt_trace_user_stack *us, uint64_t *ips, size_t max);
/*
 * The caller of the first frame of an fp stack at @ip, unwound by CFI from @us (the leaf's
 * words: its stack pointer and the bytes at it): true and its return address in *@ra, or false
 * (the CFI needs more than those: a frame set up, whose caller the fp walk has; no CFI).
 */
bool sdt_unwinder_caller(struct sdt_unwinder *u, uint32_t pid, uint32_t tid,
			 const struct sdt_trace_user_stack *us, uint64_t ip, uint64_t *ra);

#endif
