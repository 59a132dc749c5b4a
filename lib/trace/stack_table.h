/* SPDX-License-Identifier: MIT */
/*
 * User stacks by id: the writer interns each distinct stack (a hash of its ips) and writes it
 * once; the reader keeps them by id for the samples that refer to them. Ids are 1, 2, ... in
 * the order stacks were first seen; 0 means none.
 */
#ifndef SDT_TRACE_STACK_TABLE_H
#define SDT_TRACE_STACK_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* At most this many distinct stacks in one recording, and frames in all of them. */
#define SDT_TRACE_MAX_STACKS (1u << 22)
#define SDT_TRACE_MAX_STACK_IPS (1u << 26)

struct stack_table {
	uint64_t *ips; /* every stack's ips, one after the other */
	size_t nips, ips_cap;
	uint64_t *start; /* per id - 1: where its ips begin in ->ips */
	uint32_t *depth; /* per id - 1 */
	size_t n, cap;
	uint32_t *slots; /* open addressing: id or 0; a power of two, at most half full */
	size_t nslots;
};

/*
 * The id of stack @ips[0..@nr) (@nr >= 1), interned: *is_new tells whether it was not seen
 * before. 0, -ENOMEM or -E2BIG (past the bounds above; no message).
 */
int sdt_stack_table_intern(struct stack_table *t, const uint64_t *ips, uint32_t nr, uint32_t *id,
			   bool *is_new);
/* Append stack @ips as the next id (the reader: ids in file order). 0, -ENOMEM or -E2BIG. */
int sdt_stack_table_append(struct stack_table *t, const uint64_t *ips, uint32_t nr);
/* Stack @id: its depth and *ips (valid until the next change of @t), or 0 when there is none. */
uint32_t sdt_stack_table_get(const struct stack_table *t, uint32_t id, const uint64_t **ips);
void sdt_stack_table_release(struct stack_table *t);

#endif
