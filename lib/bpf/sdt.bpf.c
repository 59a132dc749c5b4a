/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * The one BPF program of every SDT site (lib/bpf/DESIGN.md). Its attach cookie is the site's
 * index in `sites`, whose entry is the site's fetch plan (plan.h): the event number, the note's
 * address, and per argument what to fetch and where to put it. A hit is counted (stat) or
 * written to its CPU's fast ring (plan.h; its BPF ring buffer when that one is busy) as one
 * record shaped like a tracefs uprobe sample.
 *
 * Compiled with clang -target bpf; libbpf's usdt.bpf.h works the same way (a cookie, a spec map),
 * this one adds globals through the load bias, indexed addresses, thread-local variables, strings
 * and the record layout the recording stores.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "bpf/plan.h"

char LICENSE[] SEC("license") = "Dual MIT/GPL";

/* The few kernel fields read, relocated by CO-RE against the running kernel's BTF. */
struct thread_struct {
	unsigned long fsbase;
} __attribute__((preserve_access_index));
struct task_struct {
	int tgid;
	struct thread_struct thread;
} __attribute__((preserve_access_index));


/* Set before load. */
const volatile __u8 count_only = 0; /* stat: count per event, no record */
const volatile __u8 filter = 0;	    /* only the processes in tgids (and their children) */
const volatile __u8 agg = 0;	    /* stat --by / --latency: aggregate (plan.h), no record */
const volatile __u8 has_filters = 0; /* some event has a filter in `filters` */
const volatile __u32 max_stack = 0;  /* record -g: user stack frames per hit (0: none) */
/* --call-graph=dwarf: user stack bytes per hit, with the registers (0: none) */
const volatile __u32 stack_user = 0;
/*
 * Wake the reader once this much is waiting in a ring (a quarter of it, as the tracefs engine's
 * perf watermark), not at every record: a wake-up per record costs more than the record.
 */
const volatile __u64 wakeup_bytes = 1 << 20;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* the number of sites, set before load */
	__type(key, __u32);
	__type(value, struct sdt_bpf_site);
} sites SEC(".maps");

/* per event: its filter (plan.h), n == 0 when none */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* the number of events when filtering, set before load */
	__type(key, __u32);
	__type(value, struct sdt_bpf_filter);
} filters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1); /* the number of events, set before load */
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

/* [0]: records that found no room in the ring (reserve failures) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

/*
 * Aggregation (plan.h). Key and value sizes are set before load (the keys the run needs), so
 * they are declared by size, not by type.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1); /* the cardinality cap */
	__uint(key_size, 8);	/* head + --by parts */
	__uint(value_size, 8);
} agg_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1);
	__uint(key_size, 8); /* head (the pair) + --by parts */
	__uint(value_size, sizeof(struct sdt_bpf_lat));
} agg_lat SEC(".maps");

/*
 * The open pairs, a stack per (tid, pair, --key parts): the key's pair word holds the level in
 * its high 16 bits. Level 0's value is the stack's depth, then the bottom start's time and group
 * key; level n > 0 holds the n-th start above it the same way (its depth unused). See push().
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1);
	__uint(key_size, 8);
	__uint(value_size, 24);
} agg_starts SEC(".maps");

/*
 * Per pair, the durations whose group key found agg_lat full (the --max-keys cap): still in the
 * pair's totals, on a line of their own (a header that looks like a total is the total).
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1); /* the number of pairs, set before load */
	__type(key, __u32);
	__type(value, struct sdt_bpf_lat);
} agg_lat_over SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SDT_BPF_DROP_N);
	__type(key, __u32);
	__type(value, __u64);
} agg_drops SEC(".maps");

/* a zero value to insert (agg_lat) */
static const struct sdt_bpf_lat lat_zero;

struct agg_scratch {
	__u8 key[1024];	  /* keys, parts at dst & 511 (SDT_BPF_KEY_MAX and the verifier) */
	__u8 start[1032]; /* an open pair's value: depth, time, then the group's key */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct agg_scratch);
} agg_scratch SEC(".maps");

struct scratch {
	struct sdt_bpf_rec h;
	__u8 raw[SDT_BPF_RAW_MAX];
	/* after raw's end: -g's ips (add_stack()), or dwarf's registers and stack (add_ustack()) */
	__u64 stack_room[SDT_BPF_UREGS + SDT_BPF_USTACK_MAX / 8];
	__u8 comm[32];	/* the thread's name for a filter, zeros after its 16 bytes (filter_str()) */
	__u64 regs[32]; /* pt_regs' 21, and room for any index & 31 (the verifier's bound) */
	__u64 waiting;	/* at least the bytes waiting in this CPU's ring (ring_wakeup()) */
	__u64 woken;	/* its reader was woken, and has not taken those bytes yet */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u8);
} tgids SEC(".maps");

/*
 * The last process that passed the filter, per CPU: most hits skip the `tgids` lookup (a hash:
 * 15-20 ns). Safe because no entry of `tgids` is ever removed during a run.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} last_tgid SEC(".maps");

/* threads whose name was sent */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u8);
} seen SEC(".maps");

struct ring {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 22);
};

/*
 * one ring buffer per CPU (the user side creates them): the fast rings' wake-up words, and the
 * records of the hits that found their CPU's fast ring busy (or with SDTRACE_BPF_RINGBUF=1)
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct ring);
} rings SEC(".maps");

/*
 * The fast rings (plan.h's struct sdt_fring): one region per CPU, mapped by the reader. Every
 * record goes here, a `fast` site's written in place, the others copied from the scratch, with
 * no lock and no atomic but the busy flag's exchange, where bpf_ringbuf_output() takes the
 * ring's spin lock, copies from the scratch and commits with an atomic exchange: 81 of the 118
 * ns a record cost over a count here (BENCHMARKS.md, session 15).
 */
const volatile __u64 fring_mask = 4095; /* the ring's bytes - 1 (a power of two) */
/* 2: every record into the fast rings; 1: those written in place; 0: none (tests, benchmarks) */
const volatile __u8 fring_mode = 2;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1); /* the CPUs, set before load */
	__uint(key_size, 4);
	__uint(value_size, 8); /* sizeof(struct sdt_fring) + ring + SDT_FRING_SLACK, before load */
} frings SEC(".maps");

/* the last thread whose name was sent, per CPU: most hits skip the `seen` lookup */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} last_tid SEC(".maps");

/* x86_64 struct pt_regs (the uprobe program's context), as the kernel lays it out */
struct regs {
	__u64 r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax, cx, dx, si, di, orig_ax, ip, cs,
	    flags, sp, ss;
};

#define NREGS (sizeof(struct regs) / 8)

/*
 * The registers, copied out of the context once per hit: the verifier allows loads from the
 * context at constant offsets only, and an argument's register is a variable offset.
 */
static __always_inline void copy_regs(__u64 *dst, const struct regs *r)
{
	dst[0] = r->r15;
	dst[1] = r->r14;
	dst[2] = r->r13;
	dst[3] = r->r12;
	dst[4] = r->bp;
	dst[5] = r->bx;
	dst[6] = r->r11;
	dst[7] = r->r10;
	dst[8] = r->r9;
	dst[9] = r->r8;
	dst[10] = r->ax;
	dst[11] = r->cx;
	dst[12] = r->dx;
	dst[13] = r->si;
	dst[14] = r->di;
	dst[15] = r->orig_ax;
	dst[16] = r->ip;
	dst[17] = r->cs;
	dst[18] = r->flags;
	dst[19] = r->sp;
	dst[20] = r->ss;
}

/* The register at byte @off of struct pt_regs, from the copy. */
static __always_inline __u64 reg(const __u64 *regs, __u16 off)
{
	__u32 k = (off / 8) & 31;

	return regs[k];
}

/* @size bytes at user address @addr, zero extended; 0 when it faults. */
static __always_inline __u64 rd(__u64 addr, __u8 size)
{
	__u64 v = 0;

	switch (size) {
	case 1: {
		__u8 x = 0;

		bpf_probe_read_user(&x, 1, (void *)addr);
		v = x;
		break;
	}
	case 2: {
		__u16 x = 0;

		bpf_probe_read_user(&x, 2, (void *)addr);
		v = x;
		break;
	}
	case 4: {
		__u32 x = 0;

		bpf_probe_read_user(&x, 4, (void *)addr);
		v = x;
		break;
	}
	default:
		bpf_probe_read_user(&v, 8, (void *)addr);
		break;
	}
	return v;
}

static __always_inline void count_lost(void)
{
	__u32 zero = 0;
	__u64 *l = bpf_map_lookup_elem(&lost, &zero);

	if (l)
		(*l)++;
}

/* The bytes a record of @size takes in a BPF ring: an 8-byte header, 8-byte aligned. */
static __always_inline __u64 ring_bytes(__u64 size)
{
	return (size + 8 + 7) & ~7ull;
}

/*
 * Is this the first hit of thread @tid, whose name must go first so that the report can show it?
 * Marked as sent by comm_sent() once it is in a ring.
 */
static __always_inline int comm_due_at(__u32 *last, __u32 tid)
{
	if (last && *last == tid)
		return 0;
	if (last)
		*last = tid;
	return !bpf_map_lookup_elem(&seen, &tid);
}

/* comm_due_at() with the CPU's last thread of the BPF rings (a fast ring keeps its own) */
static __always_inline int comm_due(__u32 tid)
{
	__u32 zero = 0;

	return comm_due_at(bpf_map_lookup_elem(&last_tid, &zero), tid);
}

static __always_inline void comm_sent(__u32 tid)
{
	__u8 one = 1;

	bpf_map_update_elem(&seen, &tid, &one, BPF_ANY);
}

static __always_inline void comm_head(struct sdt_bpf_rec *h, __u64 time, __u32 tgid, __u32 tid,
				      __u32 cpu)
{
	h->time_ns = time;
	h->pid = tgid;
	h->tid = tid;
	h->event = 0;
	h->cpu = (__u16)cpu;
	h->type = SDT_BPF_REC_COMM;
	h->raw_size = 16;
	h->nips = 0;
	h->nregs = 0;
	h->ustack = 0;
}

/* The thread's name into ring @rb if due (comm_due()): the bytes it took there, or 0. */
static __always_inline __u64 send_comm(void *rb, __u64 time, __u32 tgid, __u32 tid, __u32 cpu)
{
	struct sdt_bpf_rec *h;

	if (!comm_due(tid))
		return 0;
	h = bpf_ringbuf_reserve(rb, sizeof(*h) + 16, 0);
	if (!h) {
		count_lost();
		return 0;
	}
	comm_head(h, time, tgid, tid, cpu);
	bpf_get_current_comm((char *)(h + 1), 16);
	bpf_ringbuf_submit(h, 0);
	comm_sent(tid);
	return ring_bytes(sizeof(*h) + 16);
}

/*
 * The wake-up flag of a record of @size bytes about to go to ring @rb. The reader is woken once
 * wakeup_bytes wait in the ring; if it has not emptied the ring when twice that waits (it is
 * behind), every record wakes it, as before, which slows the writer to the reader's pace (the
 * wake-ups' self-IPIs) instead of filling the ring. bpf_ringbuf_query(BPF_RB_AVAIL_DATA) tells
 * what waits, but asking it at every record (and waking a reader already woken at every record
 * until it runs) cost 20-25 ns of the program's run time (bpf_stats): the query is asked only when
 * b->waiting (this CPU's ring bytes written since the last answer, plus that answer: never less
 * than what waits, as only the reader takes bytes out) reaches the next threshold, and a reader
 * already woken is not woken again below twice wakeup_bytes. The reader drains every 100 ms
 * unwoken too (the recorder's loop, lib/record/recorder_run.c).
 */
static __always_inline __u64 ring_wakeup(void *rb, struct scratch *b, __u64 size)
{
	__u64 n = ring_bytes(size), avail;

	b->waiting += n;
	if (b->waiting < (b->woken ? 2 * wakeup_bytes : wakeup_bytes))
		return BPF_RB_NO_WAKEUP;
	avail = bpf_ringbuf_query(rb, BPF_RB_AVAIL_DATA) + n;
	b->waiting = avail;
	if (avail < wakeup_bytes) {
		b->woken = 0; /* the reader has taken what it was woken for */
		return BPF_RB_NO_WAKEUP;
	}
	if (!b->woken || avail >= 2 * wakeup_bytes) {
		b->woken = 1;
		return BPF_RB_FORCE_WAKEUP;
	}
	return BPF_RB_NO_WAKEUP;
}

/*
 * One load from the context at the constant offset @off, in asm: clang merges the loads of
 * live_reg()'s cases into one at a variable offset, which the verifier refuses for the context.
 */
#define CTX_LOAD(ctx, off)                                                                         \
	({                                                                                         \
		__u64 v_;                                                                          \
		asm volatile("%0 = *(u64 *)(%1 + " #off ")" : "=r"(v_) : "r"(ctx));                \
		v_;                                                                                \
	})

/*
 * The register at byte @off of struct pt_regs, read from the context itself. Cheaper than
 * copy_regs() for the few arguments of a `fast` site.
 */
static __always_inline __u64 live_reg(const void *ctx, __u16 off)
{
	switch (off) {
	case 0:
		return CTX_LOAD(ctx, 0); /* r15 */
	case 8:
		return CTX_LOAD(ctx, 8); /* r14 */
	case 16:
		return CTX_LOAD(ctx, 16); /* r13 */
	case 24:
		return CTX_LOAD(ctx, 24); /* r12 */
	case 32:
		return CTX_LOAD(ctx, 32); /* bp */
	case 40:
		return CTX_LOAD(ctx, 40); /* bx */
	case 48:
		return CTX_LOAD(ctx, 48); /* r11 */
	case 56:
		return CTX_LOAD(ctx, 56); /* r10 */
	case 64:
		return CTX_LOAD(ctx, 64); /* r9 */
	case 72:
		return CTX_LOAD(ctx, 72); /* r8 */
	case 80:
		return CTX_LOAD(ctx, 80); /* ax */
	case 88:
		return CTX_LOAD(ctx, 88); /* cx */
	case 96:
		return CTX_LOAD(ctx, 96); /* dx */
	case 104:
		return CTX_LOAD(ctx, 104); /* si */
	case 112:
		return CTX_LOAD(ctx, 112); /* di */
	case 120:
		return CTX_LOAD(ctx, 120); /* orig_ax */
	case 128:
		return CTX_LOAD(ctx, 128); /* ip */
	case 136:
		return CTX_LOAD(ctx, 136); /* cs */
	case 144:
		return CTX_LOAD(ctx, 144); /* flags */
	case 152:
		return CTX_LOAD(ctx, 152); /* sp */
	case 160:
		return CTX_LOAD(ctx, 160); /* ss */
	}
	return 0;
}

/* A register of the hit: from the copy (@live 0: __u64[32]) or the context (@live 1). */
static __always_inline __u64 reg_of(const void *src, int live, __u16 off)
{
	return live ? live_reg(src, off) : reg(src, off);
}

/* The user address a memory operand reads (MEM, GLOBAL, INDEXED, TLS); 0 for the others. */
static __always_inline __u64 addr_in(const void *ctx, int live, const struct sdt_bpf_arg *a,
				     __u64 bias)
{
	struct task_struct *task;
	__u64 addr;

	switch (a->fetch) {
	case SDT_BPF_MEM:
		return reg_of(ctx, live, a->reg) + a->disp;
	case SDT_BPF_GLOBAL:
		return (__u64)a->disp + bias;
	case SDT_BPF_INDEXED:
		addr = (__u64)a->disp;
		if (a->flags & SDT_BPF_REBASE)
			addr += bias;
		if (a->reg != SDT_BPF_REG_NONE)
			addr += reg_of(ctx, live, a->reg);
		if (a->index != SDT_BPF_REG_NONE)
			addr += reg_of(ctx, live, a->index) * a->scale;
		return addr;
	case SDT_BPF_TLS:
		task = (struct task_struct *)bpf_get_current_task();
		return BPF_CORE_READ(task, thread.fsbase) + a->disp;
	}
	return 0;
}

/* An argument's value, its registers read as addr_in() reads them. */
static __always_inline __u64 fetch_in(const void *ctx, int live, const struct sdt_bpf_arg *a,
				      __u64 bias)
{
	switch (a->fetch) {
	case SDT_BPF_REG:
		return reg_of(ctx, live, a->reg) >> (a->shift & 63);
	case SDT_BPF_CONST:
		return (__u64)a->disp;
	case SDT_BPF_LADDR:
		return (__u64)a->disp + bias;
	}
	return rd(addr_in(ctx, live, a, bias), a->size);
}

static __always_inline __u64 addr_of(const __u64 *regs, const struct sdt_bpf_arg *a, __u64 bias)
{
	return addr_in(regs, 0, a, bias);
}

static __always_inline __u64 fetch(const __u64 *regs, const struct sdt_bpf_arg *a, __u64 bias)
{
	return fetch_in(regs, 0, a, bias);
}

static __always_inline void put(__u8 *raw, __u16 dst, __u8 size, __u64 v)
{
	dst &= SDT_BPF_FIXED_LIM - 1;
	switch (size) {
	case 1:
		*(__u8 *)(raw + dst) = (__u8)v;
		break;
	case 2:
		*(__u16 *)(raw + dst) = (__u16)v;
		break;
	case 4:
		*(__u32 *)(raw + dst) = (__u32)v;
		break;
	default:
		*(__u64 *)(raw + dst) = v;
		break;
	}
}

/* One hit's state, for one_arg(). */
struct hit {
	struct scratch *b;
	const struct sdt_bpf_site *s;
	__u64 bias;
	__u32 end; /* where the next string goes */
	__u32 cut; /* the end of the first string that was cut, or 0 */
};

/*
 * Argument @i of the site: fetched and put at its field (a string after the fixed fields).
 * A bpf_loop() callback, so that the verifier checks it once, not once per argument and path.
 */
static long one_arg(__u64 i, void *data)
{
	struct hit *hs = data;
	struct scratch *b = hs->b;
	const struct sdt_bpf_arg *a;
	__u64 v;

	if (i >= SDT_BPF_MAX_ARGS)
		return 1;
	a = &hs->s->args[i];
	if (a->fetch == SDT_BPF_NONE)
		return 0;
	if (a->size == 16) {
		/* a long double: its bytes as memory holds them (zeros if unreadable); plan.c */
		bpf_probe_read_user(b->raw + (a->dst & (SDT_BPF_FIXED_LIM - 1)), 16,
				    (void *)addr_of(b->regs, a, hs->bias));
		return 0;
	}
	v = fetch(b->regs, a, hs->bias);
	if (a->flags & SDT_BPF_STRING) {
		__u32 off = hs->end, loc = 0;
		long n;

		if (off <= SDT_BPF_RAW_MAX - SDT_BPF_STR_MAX) {
			n = bpf_probe_read_user_str(b->raw + off, SDT_BPF_STR_MAX, (void *)v);
			if (n > 0 && n <= SDT_BPF_STR_MAX) {
				__u8 next = 0;

				/* a full buffer: cut unless its last byte was the string's NUL */
				if (n == SDT_BPF_STR_MAX)
					bpf_probe_read_user(&next, 1,
							    (void *)(v + SDT_BPF_STR_MAX - 1));
				if (next && hs->cut) {
					/* as tracefs: one long string has the room, later ones none */
					n = 0;
				} else {
					if (next)
						hs->cut = off + (__u32)n;
					loc = ((__u32)n << 16) | off;
					hs->end = off + (__u32)n;
				}
			}
		} else if (!hs->cut) {
			hs->cut = off; /* no room left: said as tracefs says it (lib/trace/decode.c) */
		}
		put(b->raw, a->dst, 4, loc);
	} else {
		put(b->raw, a->dst, a->size, v);
	}
	return 0;
}


static __always_inline void count_drop(__u32 which)
{
	__u64 *d = bpf_map_lookup_elem(&agg_drops, &which);

	if (d)
		(*d)++;
}

/* One key part's work, for key_part(). */
struct keyjob {
	const __u64 *regs;
	const struct sdt_bpf_site *s;
	const struct sdt_bpf_keypart *parts;
	__u8 *key;
	__u64 bias;
};

/* Part @i of a key: the argument's value at its place (plan.h). A bpf_loop() callback. */
static long key_part(__u64 i, void *data)
{
	struct keyjob *j = data;
	const struct sdt_bpf_keypart *kp;
	const struct sdt_bpf_arg *a;
	__u8 *dst;
	__u64 v;

	if (i >= SDT_BPF_KEY_PARTS)
		return 1;
	kp = &j->parts[i];
	if (kp->arg == SDT_BPF_ARG_PID) {
		dst = j->key + (kp->dst & 511);
		*(__u64 *)dst = bpf_get_current_pid_tgid() >> 32;
		return 0;
	}
	if (kp->arg >= SDT_BPF_MAX_ARGS)
		return 0;
	a = &j->s->args[kp->arg];
	dst = j->key + (kp->dst & 511);
	v = a->fetch == SDT_BPF_NONE ? 0 : fetch(j->regs, a, j->bias);
	if (kp->str) {
		__u32 size = SDT_BPF_KEY_STR - 1;
		long n;

		__builtin_memset(dst, 0, SDT_BPF_KEY_STR);
		if (kp->len_arg < SDT_BPF_MAX_ARGS) {
			/* a counted string: its count's bytes, up to a NUL as without one */
			const struct sdt_bpf_arg *la = &j->s->args[kp->len_arg];
			__u64 len = la->fetch == SDT_BPF_NONE ? 0 : fetch(j->regs, la, j->bias);

			if (la->size < 8)
				len &= (1ull << (la->size * 8)) - 1;
			if (len < SDT_BPF_KEY_STR - 2)
				size = (__u32)len + 1;
		}
		n = bpf_probe_read_user_str(dst, size & (SDT_BPF_KEY_STR - 1), (void *)v);
		if (n == SDT_BPF_KEY_STR - 1) {
			__u8 next = 0;

			bpf_probe_read_user(&next, 1, (void *)(v + SDT_BPF_KEY_STR - 2));
			if (next)
				dst[SDT_BPF_KEY_STR - 1] = 1; /* cut */
		}
		return 0;
	}
	if (a->size < 8)
		v &= (1ull << (a->size * 8)) - 1;
	*(__u64 *)dst = v;
	return 0;
}

static __always_inline void key_build(struct keyjob *j, const struct sdt_bpf_keypart *parts,
				      __u8 n, __u8 *key)
{
	j->parts = parts;
	j->key = key;
	if (n)
		bpf_loop(n < SDT_BPF_KEY_PARTS ? n : SDT_BPF_KEY_PARTS, key_part, j, 0);
}

/* The bucket of duration @d: exact below 4, then 4 per power of two (plan.h). */
static __always_inline __u32 lat_bucket(__u64 d)
{
	__u32 b = 0;
	__u64 v = d;

	if (d < 4)
		return (__u32)d;
	if (v >> 32) { v >>= 32; b += 32; }
	if (v >> 16) { v >>= 16; b += 16; }
	if (v >> 8) { v >>= 8; b += 8; }
	if (v >> 4) { v >>= 4; b += 4; }
	if (v >> 2) { v >>= 2; b += 2; }
	if (v >> 1) { b += 1; }
	/* b >= 2: the two bits below the top one */
	return (b * 4 + (__u32)((d >> (b - 2)) & 3)) & (SDT_BPF_LAT_BUCKETS - 1);
}

static __always_inline void lat_add(void *gkey, __u64 d)
{
	struct sdt_bpf_lat *v = bpf_map_lookup_elem(&agg_lat, gkey);

	if (!v) {
		/* EEXIST (another CPU's insert) is as good as success */
		bpf_map_update_elem(&agg_lat, gkey, &lat_zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&agg_lat, gkey);
		if (!v) {
			/* past the cap: into the pair's own line (the key's head is the pair) */
			count_drop(SDT_BPF_DROP_KEYS);
			v = bpf_map_lookup_elem(&agg_lat_over, gkey);
			if (!v)
				return;
		}
	}
	if (!v->count || d < v->min)
		v->min = d;
	if (d > v->max)
		v->max = d;
	v->count++;
	v->sum += d;
	v->hist[lat_bucket(d) & (SDT_BPF_LAT_BUCKETS - 1)]++;
}

/*
 * Open a pair: push the start (as->start) on the stack of its thread, pair and key (as->key, its
 * level bits 0). The bottom start's entry holds the depth, so that a flat pair costs one insert
 * and one delete, as a single open start did; a nested one adds an entry per level. A start past
 * SDT_BPF_PAIR_DEPTH is counted and not kept, and its depth still counted, so that the ends
 * below it pair with their own starts.
 */
static __always_inline void push(struct agg_scratch *as, __u32 group)
{
	__u64 *base = bpf_map_lookup_elem(&agg_starts, as->key);
	__u64 d;

	if (!base) {
		if (bpf_map_update_elem(&agg_starts, as->key, as->start, BPF_ANY))
			count_drop(SDT_BPF_DROP_STARTS);
		return;
	}
	d = __sync_fetch_and_add(base, 1);
	if (d >= SDT_BPF_PAIR_DEPTH) {
		count_drop(SDT_BPF_DROP_DEPTH);
		return;
	}
	*(__u32 *)(as->key + 4) = group | (__u32)d << 16;
	if (bpf_map_update_elem(&agg_starts, as->key, as->start, BPF_ANY))
		count_drop(SDT_BPF_DROP_STARTS); /* its end finds no level d: not timed */
}

/* Close a pair: pop the most recent start of the stack at as->key (level bits 0), time it. */
static __always_inline void pop(struct agg_scratch *as, __u32 group, __u64 now)
{
	__u64 *base = bpf_map_lookup_elem(&agg_starts, as->key);
	__u8 *start;
	__u64 d;

	if (!base || !*base) {
		count_drop(SDT_BPF_DROP_UNMATCHED);
		return;
	}
	d = __sync_fetch_and_add(base, -1) - 1;
	if (!d) {
		start = (__u8 *)base;
		lat_add(start + 16, now - *(__u64 *)(start + 8));
		bpf_map_delete_elem(&agg_starts, as->key);
		return;
	}
	if (d >= SDT_BPF_PAIR_DEPTH)
		return; /* its start was too deep, and counted */
	*(__u32 *)(as->key + 4) = group | (__u32)d << 16;
	start = bpf_map_lookup_elem(&agg_starts, as->key);
	if (!start)
		return; /* its start found the map full, and was counted */
	lat_add(start + 16, now - *(__u64 *)(start + 8));
	bpf_map_delete_elem(&agg_starts, as->key);
}

/* A hit when aggregating: counted into its key, or a pair opened or closed. */
static __always_inline int aggregate(void *ctx, const struct sdt_bpf_site *s, __u32 tid)
{
	__u32 zero = 0;
	struct agg_scratch *as = bpf_map_lookup_elem(&agg_scratch, &zero);
	struct scratch *b = bpf_map_lookup_elem(&scratch, &zero);
	struct keyjob j;
	__u64 now, *c, one = 1;
	__u32 ev = s->event;

	/* every hit counts (stat's totals, and why an event had none) */
	c = bpf_map_lookup_elem(&counts, &ev);
	if (c)
		(*c)++;
	if (!as || !b || s->role == SDT_BPF_ROLE_SKIP)
		return 0;
	copy_regs(b->regs, ctx);
	j.regs = b->regs;
	j.s = s;
	j.bias = b->regs[16] - s->address;
	if (s->clear) {
		__builtin_memset(as->key, 0, SDT_BPF_KEY_MAX);
		__builtin_memset(as->start, 0, 16 + SDT_BPF_KEY_MAX);
	}
	if (s->role == SDT_BPF_ROLE_COUNT) {
		*(__u32 *)as->key = s->event;
		*(__u32 *)(as->key + 4) = 0;
		key_build(&j, s->by, s->nby, as->key);
		c = bpf_map_lookup_elem(&agg_counts, as->key);
		if (c) {
			(*c)++;
			return 0;
		}
		/* a new key: this CPU's slot 1, the others 0; another CPU may have beaten us to it */
		if (bpf_map_update_elem(&agg_counts, as->key, &one, BPF_NOEXIST)) {
			c = bpf_map_lookup_elem(&agg_counts, as->key);
			if (c)
				(*c)++;
			else
				count_drop(SDT_BPF_DROP_KEYS);
		}
		return 0;
	}
	/* only a pair needs the time: a counted hit skips its ~70 ns (kvm-clock, BENCHMARKS.md) */
	now = bpf_ktime_get_ns();
	/* the open pair's key: the thread (none with --pair-by key), the pair, the --key values */
	*(__u32 *)as->key = s->any_thread ? 0 : tid;
	*(__u32 *)(as->key + 4) = s->group;
	key_build(&j, s->key, s->nkey, as->key);
	if (s->role == SDT_BPF_ROLE_START) {
		/* the depth (set by push()), the time, then the group's key: the pair, --by values */
		*(__u64 *)as->start = 1;
		*(__u64 *)(as->start + 8) = now;
		*(__u32 *)(as->start + 16) = s->group;
		*(__u32 *)(as->start + 20) = 0;
		key_build(&j, s->by, s->nby, as->start + 16);
		push(as, s->group);
		return 0;
	}
	pop(as, s->group, now);
	return 0;
}

/* A hit counted (stat): per event, per CPU. */
static __always_inline int count_hit(__u32 ev)
{
	__u64 *c = bpf_map_lookup_elem(&counts, &ev);

	if (c)
		(*c)++;
	return 0;
}

/* A filter's test on one value (plan.h: struct sdt_bpf_fstep), as filter_eval.c decides it. */
static __always_inline __u32 filter_test(const struct sdt_bpf_fstep *p, const __u8 *raw, __u32 tgid,
					 __u32 tid, __u32 cpu)
{
	const __u8 *at = raw + (p->off & (SDT_BPF_FIXED_LIM - 1));
	__u64 v;
	__s64 sv;
	__u32 sh;

	switch (p->src) {
	case SDT_BPF_FSRC_PID:
		v = tgid;
		break;
	case SDT_BPF_FSRC_TID:
		v = tid;
		break;
	case SDT_BPF_FSRC_CPU:
		v = cpu;
		break;
	default:
		switch (p->size) {
		case 1:
			v = *at;
			break;
		case 2:
			v = *(const __u16 *)at;
			break;
		case 4:
			v = *(const __u32 *)at;
			break;
		default:
			v = *(const __u64 *)at;
			break;
		}
	}
	if (p->has_mask)
		v &= p->mask;
	if (p->cmp == SDT_BPF_FCMP_NZ)
		return v != 0;
	if (p->is_signed && !p->has_mask) {
		sh = 64 - 8 * (p->size & 15);
		sv = sh < 64 ? (__s64)(v << sh) >> sh : (__s64)v;
		switch (p->cmp) {
		case SDT_BPF_FCMP_EQ:
			return sv == p->value;
		case SDT_BPF_FCMP_NE:
			return sv != p->value;
		case SDT_BPF_FCMP_LT:
			return sv < p->value;
		case SDT_BPF_FCMP_LE:
			return sv <= p->value;
		case SDT_BPF_FCMP_GT:
			return sv > p->value;
		default:
			return sv >= p->value;
		}
	}
	switch (p->cmp) {
	case SDT_BPF_FCMP_EQ:
		return v == (__u64)p->value;
	case SDT_BPF_FCMP_NE:
		return v != (__u64)p->value;
	case SDT_BPF_FCMP_LT:
		return v < (__u64)p->value;
	case SDT_BPF_FCMP_LE:
		return v <= (__u64)p->value;
	case SDT_BPF_FCMP_GT:
		return v > (__u64)p->value;
	default:
		return v >= (__u64)p->value;
	}
}

/* Where a filter may read a string in struct scratch: from raw's start to comm's end. */
#define STR_LIM (offsetof(struct scratch, comm) + 32 - offsetof(struct scratch, raw))

/*
 * Are the @len bytes at @raw + @at those of literal @lit (zero padded)? Eight at a time, the
 * last word masked (little-endian: its first bytes are its low ones). @raw is a scratch's raw,
 * @at an index below STR_LIM: the thread's name lies there too, after the record.
 */
static __always_inline __u32 bytes_eq(const __u8 *raw, __u64 at, const __u8 *lit, __u32 len)
{
	__u64 m, i;
	__u32 w, n;

#pragma unroll
	for (w = 0; w < SDT_BPF_FSTR_MAX / 8; w++) {
		if (w * 8 >= len)
			break;
		i = at + w * 8;
		/* bound this word's own index: the verifier must see it, not a hoisted pointer */
		asm volatile("" : "+r"(i));
		if (i > STR_LIM - 8)
			return 0;
		n = len - w * 8;
		m = n >= 8 ? ~0ull : (1ull << (n * 8)) - 1;
		if ((*(const __u64 *)(raw + i) & m) != *(const __u64 *)(lit + w * 8))
			return 0;
	}
	return 1;
}

/* A string test (SDT_BPF_FSRC_STR, _COMM) of filter @f, as filter_eval.c's test_string(). */
static __always_inline __u32 filter_str(const struct sdt_bpf_filter *f,
					const struct sdt_bpf_fstep *p, const struct scratch *b)
{
	const __u8 *lit = f->strs[p->value & (SDT_BPF_FILTER_STRS - 1)];
	__u32 len = (__u32)p->mask, tlen, loc, r;
	__u64 at;

	if (len >= SDT_BPF_FSTR_MAX)
		return 0;
	if (p->src == SDT_BPF_FSRC_COMM) {
		at = offsetof(struct scratch, comm) - offsetof(struct scratch, raw);
		for (tlen = 0; tlen < 16 && b->comm[tlen & 15]; tlen++)
			;
	} else {
		/* the __data_loc word: (length with the NUL) << 16 | offset; 0 when unread */
		loc = *(const __u32 *)(b->raw + (p->off & (SDT_BPF_FIXED_LIM - 1)));
		if (!(loc >> 16))
			return 0;
		at = loc & 0xffff;
		tlen = (loc >> 16) - 1;
	}
	switch (p->cmp) {
	case SDT_BPF_FCMP_SEQ:
		r = tlen == len && bytes_eq(b->raw, at, lit, len);
		break;
	case SDT_BPF_FCMP_SPRE:
		r = tlen >= len && bytes_eq(b->raw, at, lit, len);
		break;
	case SDT_BPF_FCMP_SSUF:
		r = tlen >= len && bytes_eq(b->raw, at + tlen - len, lit, len);
		break;
	case SDT_BPF_FCMP_SNZ:
		r = tlen > 0;
		break;
	default:
		r = 1;
		break;
	}
	return r ^ (p->negate & 1);
}

/* Does the hit whose fields are in @b->raw pass filter @f? A stack of bits, in postfix. */
static __always_inline int filter_pass(const struct sdt_bpf_filter *f, struct scratch *b,
				       __u32 tgid, __u32 tid, __u32 cpu)
{
	const __u8 *raw = b->raw;
	__u64 st = 0, bit;
	__u32 k;

	if (f->comm) {
		__builtin_memset(b->comm, 0, sizeof(b->comm));
		bpf_get_current_comm(b->comm, 16);
	}

#pragma unroll
	for (k = 0; k < SDT_BPF_FILTER_STEPS; k++) {
		const struct sdt_bpf_fstep *p = &f->steps[k];

		if (k >= f->n)
			break;
		switch (p->op) {
		case SDT_BPF_FOP_TEST:
			st = st << 1 | (p->src >= SDT_BPF_FSRC_STR
						? filter_str(f, p, b)
						: filter_test(p, raw, tgid, tid, cpu));
			break;
		case SDT_BPF_FOP_CONST:
			st = st << 1 | (p->value & 1);
			break;
		case SDT_BPF_FOP_NOT:
			st ^= 1;
			break;
		case SDT_BPF_FOP_AND:
			bit = st & (st >> 1) & 1;
			st = (st >> 2) << 1 | bit;
			break;
		default:
			bit = (st | (st >> 1)) & 1;
			st = (st >> 2) << 1 | bit;
			break;
		}
	}
	return st & 1;
}

/*
 * record -g: the user stack by frame pointers (the kernel's perf callchain walk, as the tracefs
 * engine's PERF_SAMPLE_CALLCHAIN) right after the raw record's @end bytes, at an 8-byte boundary,
 * then the leaf's words (plan.h): the user SP and SDT_BPF_LEAF_BYTES at it, from which the report
 * puts back the caller of a frameless function (issue 33), as the tracefs engine's
 * SDT_STACK_USER_LEAF. The record's new length; the stack is left out (nips 0) when the walk
 * fails, the words (nregs 0) when they cannot be read.
 */
static __always_inline __u32 add_stack(void *ctx, struct scratch *b, __u32 end)
{
	__u32 off = (end + 7) & ~7u, size = max_stack * 8, at;
	__u64 sp;
	long n;

	if (off > SDT_BPF_RAW_MAX || size > SDT_BPF_STACK_MAX * 8)
		return end;
	n = bpf_get_stack(ctx, b->raw + off, size, BPF_F_USER_STACK);
	if (n <= 0 || n > size)
		return end;
	b->h.nips = (__u32)n / 8;
	at = off + (__u32)n;
	if (at > SDT_BPF_RAW_MAX + SDT_BPF_STACK_MAX * 8)
		return at;
	sp = b->regs[19];
	*(__u64 *)(b->raw + at) = sp;
	if (bpf_probe_read_user(b->raw + at + 8, SDT_BPF_LEAF_BYTES, (void *)sp))
		return at;
	b->h.nregs = 1;
	b->h.ustack = SDT_BPF_LEAF_BYTES;
	return at + 8 + SDT_BPF_LEAF_BYTES;
}

/* One dwarf stack copy's state, for ustack_chunk(). */
struct ucopy {
	struct scratch *b;
	__u64 sp;
	__u32 dst;  /* where the stack's bytes go in raw */
	__u32 want; /* stack_user */
	__u32 got;
};

/*
 * Chunk @i of the user stack: bpf_probe_read_user() fails whole when its range crosses the end
 * of the stack's mapping, so the copy goes in chunks and, at the first that faults, takes the
 * bytes to the end of its page (the mapping ends at a page boundary) and stops: the bytes the
 * kernel's PERF_SAMPLE_STACK_USER copy would have (its dyn_size). A bpf_loop() callback.
 */
static long ustack_chunk(__u64 i, void *data)
{
	struct ucopy *u = data;
	__u32 done, len, at;
	__u64 src;

	/* from @i, not from u->got: a value the verifier tracks exactly per round never converges */
	if (i >= SDT_BPF_USTACK_MAX / SDT_BPF_USTACK_CHUNK)
		return 1;
	done = (__u32)i * SDT_BPF_USTACK_CHUNK;
	if (done >= u->want)
		return 1;
	len = u->want - done;
	if (len >= SDT_BPF_USTACK_CHUNK) {
		len = SDT_BPF_USTACK_CHUNK;
	} else {
		/* bounded where the verifier sees it (the compiler's min() loses the sign) */
		asm volatile("" : "+r"(len)); /* first: else the mask is dropped as redundant */
		len &= SDT_BPF_USTACK_CHUNK - 1;
	}
	at = u->dst + done;
	if (at > SDT_BPF_RAW_MAX + SDT_BPF_UREGS * 8 + SDT_BPF_USTACK_MAX - SDT_BPF_USTACK_CHUNK)
		return 1;
	src = u->sp + done;
	if (!bpf_probe_read_user(u->b->raw + at, len, (void *)src)) {
		u->got = done + len;
		return 0;
	}
	len = 4096 - (__u32)(src & 4095);
	if (len >= SDT_BPF_USTACK_CHUNK)
		return 1;
	asm volatile("" : "+r"(len));
	len &= SDT_BPF_USTACK_CHUNK - 1; /* the verifier's bound */
	if (len && !bpf_probe_read_user(u->b->raw + at, len, (void *)src))
		u->got = done + len;
	return 1;
}

/*
 * --call-graph=dwarf: after the raw record's @end bytes, at an 8-byte boundary, the user
 * registers in perf's order for mask 0xff01ff (AX BX CX DX SI DI BP SP IP R8-R15; plan.h) and
 * the stack from SP up, as the tracefs engine's PERF_SAMPLE_REGS_USER and _STACK_USER carry them.
 * The record's new length.
 */
static __always_inline __u32 add_ustack(struct scratch *b, __u32 end)
{
	__u32 off = (end + 7) & ~7u, dst, got;
	struct ucopy u;
	__u64 *r;

	if (off > SDT_BPF_RAW_MAX)
		return end;
	r = (__u64 *)(b->raw + off);
	r[0] = b->regs[10];  /* ax */
	r[1] = b->regs[5];   /* bx */
	r[2] = b->regs[11];  /* cx */
	r[3] = b->regs[12];  /* dx */
	r[4] = b->regs[13];  /* si */
	r[5] = b->regs[14];  /* di */
	r[6] = b->regs[4];   /* bp */
	r[7] = b->regs[19];  /* sp */
	r[8] = b->regs[16];  /* ip */
	r[9] = b->regs[9];   /* r8 */
	r[10] = b->regs[8];  /* r9 */
	r[11] = b->regs[7];  /* r10 */
	r[12] = b->regs[6];  /* r11 */
	r[13] = b->regs[3];  /* r12 */
	r[14] = b->regs[2];  /* r13 */
	r[15] = b->regs[1];  /* r14 */
	r[16] = b->regs[0];  /* r15 */
	b->h.nregs = SDT_BPF_UREGS;
	u.b = b;
	u.sp = b->regs[19];
	dst = off + SDT_BPF_UREGS * 8;
	u.dst = dst;
	u.want = stack_user < SDT_BPF_USTACK_MAX ? stack_user : SDT_BPF_USTACK_MAX;
	u.got = 0;
	bpf_loop(SDT_BPF_USTACK_MAX / SDT_BPF_USTACK_CHUNK, ustack_chunk, &u, 0);
	/* bounded again: the verifier knows nothing of what the callback left in u */
	got = u.got;
	if (got > SDT_BPF_USTACK_MAX)
		got = 0;
	b->h.ustack = got;
	return dst + got;
}

/* The sample's head, for the records of either ring. */
static __always_inline void sample_head(struct sdt_bpf_rec *h, __u32 tgid, __u32 tid, __u32 ev,
					__u32 cpu)
{
	h->pid = tgid;
	h->tid = tid;
	h->event = ev;
	h->cpu = (__u16)cpu;
	h->type = SDT_BPF_REC_SAMPLE;
	h->nips = 0;
	h->nregs = 0;
	h->ustack = 0;
}

/*
 * The raw bytes of a `fast` site's hit: the common header's zeros, __probe_ip and its integer
 * arguments, fetched inline (a bpf_loop() callback costs more than the fetch of such an
 * argument; BENCHMARKS.md, b62), their registers from @src as reg_of() reads them.
 */
static __always_inline void fast_args(__u8 *raw, const struct sdt_bpf_site *s, const void *src,
				      int live, __u64 ip, __u64 bias)
{
	__u32 k;

	*(__u64 *)raw = 0;
	*(__u64 *)(raw + SDT_BPF_IP_OFF) = ip;
#pragma unroll
	for (k = 0; k < SDT_BPF_FAST_ARGS; k++) {
		const struct sdt_bpf_arg *a = &s->args[k];

		if (k < s->nargs && a->fetch != SDT_BPF_NONE)
			put(raw, a->dst, a->size, fetch_in(src, live, a, bias));
	}
}

/* A record of @raw raw bytes in a fast ring, its length word and padding included. */
static __always_inline __u64 fring_bytes(__u64 raw)
{
	return (8 + sizeof(struct sdt_bpf_rec) + raw + 7) & ~7ull;
}

/*
 * The reader is woken (a word through the CPU's BPF ring, BPF_RB_FORCE_WAKEUP; its reader
 * drains the fast rings with the BPF rings) as ring_wakeup() wakes it: once when a quarter of
 * the ring waits, and at every record once half waits, which slows the traced program to the
 * reader's pace instead of losing records (t1800). The reader's tail is read only at the head
 * wake_at says: most hits touch no line the reader writes.
 */
static __always_inline void fring_wakeup(struct sdt_fring *r, __u64 head, __u32 cpu)
{
	__u64 tail, word = 0;
	__u32 zero = 0;
	struct scratch *b;
	void *rb;

	if (head < r->wake_at)
		return;
	tail = *(volatile __u64 *)&r->tail;
	r->tail_seen = tail;
	if (head - tail < wakeup_bytes) {
		r->wake_at = tail + wakeup_bytes;
		return;
	}
	r->wake_at = head - tail < 2 * wakeup_bytes ? tail + 2 * wakeup_bytes : head;
	rb = bpf_map_lookup_elem(&rings, &cpu);
	if (!rb || bpf_ringbuf_output(rb, &word, sizeof(word), BPF_RB_FORCE_WAKEUP))
		return;
	b = bpf_map_lookup_elem(&scratch, &zero);
	if (b)
		b->waiting += ring_bytes(sizeof(word));
}

enum { FRING_BUSY, FRING_TAKEN, FRING_FULL };

/*
 * CPU @cpu's fast ring taken for records of @need bytes and a COMM record (fring_comm()):
 * FRING_TAKEN (*rp set; give it back with fring_give()), FRING_FULL (the loss counted), or
 * FRING_BUSY: held by a hit of another task that was preempted on this CPU while writing (a
 * preemptible kernel), which this one must not wait for; it takes the BPF ring instead. The
 * reader's tail is read only when the room known from the last read is short.
 */
static __always_inline int fring_take(struct sdt_fring **rp, __u32 cpu, __u64 need)
{
	struct sdt_fring *r = bpf_map_lookup_elem(&frings, &cpu);
	__u64 head;

	if (!r || __sync_lock_test_and_set(&r->busy, 1))
		return FRING_BUSY;
	need += fring_bytes(16);
	head = r->head;
	if (head + need - r->tail_seen > fring_mask + 1) {
		r->tail_seen = *(volatile __u64 *)&r->tail;
		if (head + need - r->tail_seen > fring_mask + 1) {
			count_lost();
			asm volatile("" ::: "memory");
			r->busy = 0;
			return FRING_FULL;
		}
	}
	*rp = r;
	return FRING_TAKEN;
}

/* The thread's name at @head if due (comm_due()): the head after it. */
static __always_inline __u64 fring_comm(struct sdt_fring *r, __u64 head, __u64 time, __u32 tgid,
					__u32 tid, __u32 cpu)
{
	struct sdt_bpf_rec *h;
	__u8 *at;

	if (!comm_due_at(&r->last_tid, tid))
		return head;
	at = r->data + (head & fring_mask);
	*(__u64 *)at = sizeof(*h) + 16;
	h = (struct sdt_bpf_rec *)(at + 8);
	comm_head(h, time, tgid, tid, cpu);
	bpf_get_current_comm((char *)(h + 1), 16);
	comm_sent(tid);
	return head + fring_bytes(16);
}

/*
 * The records before @head published, the reader woken if due, the ring given back. The head is
 * stored after the records' bytes, which x86_64 (the only architecture whose registers the
 * program reads) makes visible in that order; the barriers keep the compiler from reordering.
 */
static __always_inline void fring_give(struct sdt_fring *r, __u64 head, __u32 cpu)
{
	asm volatile("" ::: "memory");
	r->head = head;
	fring_wakeup(r, head, cpu);
	asm volatile("" ::: "memory");
	r->busy = 0;
}

/*
 * A hit of a `fast` site with no filter and no stack, written in place into its CPU's fast ring
 * (plan.h): the thread's name first if due, then the sample, each record at its own position,
 * timed once the ring is taken (so that each ring's records are in time order), its registers
 * read from the context (no copy_regs()). 1: done (recorded, or counted as lost), 0: the ring
 * was busy.
 */
static __always_inline int fast_hit(void *ctx, const struct sdt_bpf_site *s, __u32 tgid, __u32 tid,
				    __u32 cpu)
{
	__u64 ip = ((const struct regs *)ctx)->ip, head, n, raw = s->fixed_end, time;
	struct sdt_bpf_rec *h;
	struct sdt_fring *r;
	__u8 *at;
	int k;

	if (raw > SDT_BPF_FIXED_LIM)
		return 0;
	n = fring_bytes(raw);
	k = fring_take(&r, cpu, n);
	if (k != FRING_TAKEN)
		return k == FRING_FULL;
	time = bpf_ktime_get_ns();
	head = fring_comm(r, r->head, time, tgid, tid, cpu);
	at = r->data + (head & fring_mask);
	*(__u64 *)at = sizeof(*h) + raw;
	h = (struct sdt_bpf_rec *)(at + 8);
	h->time_ns = time;
	sample_head(h, tgid, tid, s->event, cpu);
	h->raw_size = (__u32)raw;
	fast_args((__u8 *)(h + 1), s, ctx, 1, ip, ip - s->address);
	if (s->room != SDT_BPF_REG_NONE)
		put((__u8 *)(h + 1), s->room, 4, (1u << 16) | (__u32)raw);
	fring_give(r, head + n, cpu);
	return 1;
}

/*
 * The record built in the scratch (@size bytes from its head; time_ns not yet set) copied into
 * its CPU's fast ring, after the thread's name if due. 1: done (recorded, or counted as lost),
 * 0: the ring was busy.
 */
static __always_inline int fring_copy(struct scratch *b, __u32 size, __u32 tgid, __u32 tid,
				      __u32 cpu)
{
	struct sdt_fring *r;
	__u64 head;
	__u8 *at;
	int k;

	if (size > SDT_FRING_REC_MAX)
		return 0;
	k = fring_take(&r, cpu, (8 + size + 7) & ~7u);
	if (k != FRING_TAKEN)
		return k == FRING_FULL;
	b->h.time_ns = bpf_ktime_get_ns();
	head = fring_comm(r, r->head, b->h.time_ns, tgid, tid, cpu);
	at = r->data + (head & fring_mask);
	*(__u64 *)at = size;
	bpf_probe_read_kernel(at + 8, size, b);
	fring_give(r, head + ((8 + size + 7) & ~7u), cpu);
	return 1;
}

/* Is process @tgid followed (filter: in `tgids`)? */
static __always_inline int followed(__u32 tgid)
{
	__u32 zero = 0, *last = bpf_map_lookup_elem(&last_tgid, &zero);

	if (last && *last == tgid)
		return 1;
	if (!bpf_map_lookup_elem(&tgids, &tgid))
		return 0;
	if (last)
		*last = tgid;
	return 1;
}

SEC("uprobe")
int sdt_hit(void *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid(), ip, bias;
	__u32 tgid = pid_tgid >> 32, tid = (__u32)pid_tgid, idx, cpu, zero = 0, end;
	struct hit hs;
	__u64 flags;
	struct sdt_bpf_site *s;
	const struct sdt_bpf_filter *f = NULL;
	struct scratch *b;
	void *rb;

	if (filter && !followed(tgid))
		return 0;
	idx = (__u32)bpf_get_attach_cookie(ctx);
	s = bpf_map_lookup_elem(&sites, &idx);
	if (!s)
		return 0;
	if (has_filters) {
		idx = s->event;
		f = bpf_map_lookup_elem(&filters, &idx);
		if (f && !f->n)
			f = NULL;
	}
	if (agg && !f)
		return aggregate(ctx, s, tid);
	if (count_only && !f)
		return count_hit(s->event);
	cpu = bpf_get_smp_processor_id();
	if (fring_mode && s->fast && !f && !max_stack && !stack_user &&
	    fast_hit(ctx, s, tgid, tid, cpu))
		return 0;
	b = bpf_map_lookup_elem(&scratch, &zero);
	if (!b)
		return 0;
	copy_regs(b->regs, ctx);
	ip = b->regs[16];
	bias = ip - s->address;
	sample_head(&b->h, tgid, tid, s->event, cpu);
	end = s->fixed_end;
	if (end > SDT_BPF_FIXED_LIM)
		return 0;
	hs.b = b;
	hs.s = s;
	hs.bias = bias;
	hs.end = end;
	hs.cut = 0;
	if (s->fast) {
		fast_args(b->raw, s, b->regs, 0, ip, bias);
	} else {
		*(__u64 *)b->raw = 0;
		*(__u64 *)(b->raw + SDT_BPF_IP_OFF) = ip;
		bpf_loop(s->nargs < SDT_BPF_MAX_ARGS ? s->nargs : SDT_BPF_MAX_ARGS, one_arg, &hs,
			 0);
	}
	end = hs.end;
	if (f) {
		/* every argument is in place, strings too */
		if (!filter_pass(f, b, tgid, tid, cpu))
			return 0;
		if (agg)
			return aggregate(ctx, s, tid);
		if (count_only)
			return count_hit(s->event);
	}
	/*
	 * The room field, as tracefs's: empty at the end of the string that was cut (the reader
	 * marks it truncated), else one byte long (its bytes are never read)
	 */
	if (s->room != SDT_BPF_REG_NONE)
		put(b->raw, s->room, 4, hs.cut ? hs.cut : (1u << 16) | end);
	if (end > SDT_BPF_RAW_MAX)
		end = SDT_BPF_RAW_MAX;
	b->h.raw_size = end;
	if (max_stack)
		end = add_stack(ctx, b, end);
	else if (stack_user)
		end = add_ustack(b, end);
	/*
	 * Timed only now: a hit the filter drops, or one counted or aggregated (aggregate() takes
	 * its own), reads no clock (about 23 ns here)
	 */
	if (fring_mode == 2 && fring_copy(b, sizeof(b->h) + end, tgid, tid, cpu))
		return 0;
	b->h.time_ns = bpf_ktime_get_ns();
	rb = bpf_map_lookup_elem(&rings, &cpu);
	if (!rb) {
		count_lost();
		return 0;
	}
	b->waiting += send_comm(rb, b->h.time_ns, tgid, tid, cpu);
	flags = ring_wakeup(rb, b, sizeof(b->h) + end);
	if (bpf_ringbuf_output(rb, b, sizeof(b->h) + end, flags))
		count_lost();
	return 0;
}

/* A followed process's children are followed too (-p, the command). */
SEC("raw_tp/sched_process_fork")
int sdt_fork(struct bpf_raw_tracepoint_args *ctx)
{
	struct task_struct *parent = (struct task_struct *)ctx->args[0];
	struct task_struct *child = (struct task_struct *)ctx->args[1];
	__u32 ptgid, ctgid;
	__u8 one = 1;

	if (!filter)
		return 0;
	ptgid = BPF_CORE_READ(parent, tgid);
	if (!bpf_map_lookup_elem(&tgids, &ptgid))
		return 0;
	ctgid = BPF_CORE_READ(child, tgid);
	bpf_map_update_elem(&tgids, &ctgid, &one, BPF_ANY);
	return 0;
}
