/* SPDX-License-Identifier: MIT */
/* Stacks interned by their ips (stack_table.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/stack_table.h"
#include "util/internal.h"

static uint64_t hash_ips(const uint64_t *ips, uint32_t nr)
{
	uint64_t h = 0xcbf29ce484222325ull ^ nr;
	uint32_t i;

	for (i = 0; i < nr; i++) {
		h ^= ips[i];
		h *= 0x100000001b3ull;
		h ^= h >> 29;
	}
	return h;
}

static int push(struct stack_table *t, const uint64_t *ips, uint32_t nr)
{
	size_t cap;

	if (t->n >= SDT_TRACE_MAX_STACKS || nr > SDT_TRACE_MAX_STACK_IPS - t->nips)
		return -E2BIG;
	if (sdt_grow((void **)&t->ips, &t->ips_cap, t->nips + nr, sizeof(*t->ips)))
		return -ENOMEM;
	cap = t->cap;
	if (sdt_grow((void **)&t->start, &cap, t->n + 1, sizeof(*t->start)))
		return -ENOMEM;
	cap = t->cap;
	if (sdt_grow((void **)&t->depth, &cap, t->n + 1, sizeof(*t->depth)))
		return -ENOMEM;
	t->cap = cap;
	memcpy(t->ips + t->nips, ips, nr * sizeof(*ips));
	t->start[t->n] = t->nips;
	t->depth[t->n] = nr;
	t->nips += nr;
	t->n++;
	return 0;
}

static bool same(const struct stack_table *t, uint32_t id, const uint64_t *ips, uint32_t nr)
{
	return t->depth[id - 1] == nr &&
	       !memcmp(t->ips + t->start[id - 1], ips, nr * sizeof(*ips));
}

/* Twice the slots, every id placed again. */
static int rehash(struct stack_table *t)
{
	size_t n = t->nslots ? t->nslots * 2 : 1024, i;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < t->n; i++) {
		size_t k = hash_ips(t->ips + t->start[i], t->depth[i]) & (n - 1);

		while (slots[k])
			k = (k + 1) & (n - 1);
		slots[k] = (uint32_t)(i + 1);
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = n;
	return 0;
}

int sdt_stack_table_intern(struct stack_table *t, const uint64_t *ips, uint32_t nr, uint32_t *id,
			   bool *is_new)
{
	size_t k;
	int err;

	if ((t->n + 1) * 2 > t->nslots && (err = rehash(t)))
		return err;
	k = hash_ips(ips, nr) & (t->nslots - 1);
	for (; t->slots[k]; k = (k + 1) & (t->nslots - 1)) {
		if (same(t, t->slots[k], ips, nr)) {
			*id = t->slots[k];
			*is_new = false;
			return 0;
		}
	}
	err = push(t, ips, nr);
	if (err)
		return err;
	t->slots[k] = (uint32_t)t->n;
	*id = (uint32_t)t->n;
	*is_new = true;
	return 0;
}

int sdt_stack_table_append(struct stack_table *t, const uint64_t *ips, uint32_t nr)
{
	return push(t, ips, nr);
}

uint32_t sdt_stack_table_get(const struct stack_table *t, uint32_t id, const uint64_t **ips)
{
	if (!id || id > t->n)
		return 0;
	*ips = t->ips + t->start[id - 1];
	return t->depth[id - 1];
}

void sdt_stack_table_release(struct stack_table *t)
{
	free(t->ips);
	free(t->start);
	free(t->depth);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
