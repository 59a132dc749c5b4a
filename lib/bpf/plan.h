/* SPDX-License-Identifier: MIT */
/*
 * The fetch plan: what the one BPF program (sdt.bpf.c) does at a site, read from the `sites` map
 * at the index its BPF cookie names. Shared by the program and by the user side (plan.c fills
 * it from the scanner's engine-neutral struct sdt_arg); plain fixed-width fields only, no
 * pointers, so that both compilers lay it out alike.
 *
 * A hit becomes one ring record: struct sdt_bpf_rec, then the raw tracefs-shaped record the
 * recording stores (the 8-byte common header, __probe_ip at 8, each argument at its ->dst, the
 * strings after the fixed fields as __data_loc u32 (len << 16 | offset)), so that the writer,
 * the reader and the decoder treat it as a tracefs sample.
 */
#ifndef SDT_BPF_PLAN_H
#define SDT_BPF_PLAN_H

#include <linux/types.h>

#define SDT_BPF_MAX_ARGS 12	  /* <sys/sdt.h> emits at most 12 */
#define SDT_BPF_STR_MAX	 4096	  /* bytes of one string, NUL included (the kernel's :string
				     limit, MAX_STRING_SIZE); longer ones are cut and marked */
#define SDT_BPF_RAW_MAX	 16384	  /* one record: the fixed fields and every string */
#define SDT_BPF_REG_NONE 0xffff	  /* no register */
#define SDT_BPF_IP_OFF	 8	  /* __probe_ip, after the common header */
#define SDT_BPF_FIXED_LIM 256	  /* fixed fields end before this */
#define SDT_BPF_FAST_ARGS 4	  /* a `fast` site's arguments are fetched inline, not in bpf_loop */
#define SDT_BPF_STACK_MAX 127	  /* user stack frames (-g): perf's sysctl default, max_stack */
#define SDT_BPF_UREGS	 17	  /* --call-graph=dwarf: the user registers, perf's mask 0xff01ff */
#define SDT_BPF_USTACK_MAX 8192	  /* dwarf: user stack bytes per hit (the scratch's room) */
#define SDT_BPF_USTACK_CHUNK 512  /* read this much at a time, up to the stack mapping's end */
#define SDT_BPF_LEAF_BYTES 32	  /* -g: user stack bytes at SP after the ips (the leaf's words) */

enum sdt_bpf_fetch {
	SDT_BPF_NONE = 0, /* not fetched (unavailable): no field */
	SDT_BPF_REG,	  /* register */
	SDT_BPF_MEM,	  /* memory at register + disp */
	SDT_BPF_CONST,	  /* disp itself (a constant, or a link-time address rebased at report) */
	SDT_BPF_GLOBAL,	  /* memory at disp (link-time) + load bias (hit ip - site address) */
	SDT_BPF_INDEXED,  /* memory at [disp + bias] + base + index * scale */
	SDT_BPF_TLS,	  /* memory at the thread pointer (x86_64: the task's fs base) + disp */
	SDT_BPF_LADDR,	  /* disp (link-time) + load bias: a string's own address */
};

/* flags */
#define SDT_BPF_STRING	 1 /* the value is a pointer: record the string it points to */
#define SDT_BPF_REBASE	 2 /* INDEXED: disp is a symbol's link-time address (add the bias) */

struct sdt_bpf_arg {
	__u8 fetch; /* enum sdt_bpf_fetch */
	__u8 size;  /* bytes of the value: 1, 2, 4, 8, or 16 (a long double in memory) */
	__u8 flags;
	__u8 shift;   /* a register's bit field (x86 %ah: 8) */
	__u8 scale;   /* INDEXED: 1, 2, 4, 8 */
	__u8 pad;
	__u16 dst;    /* where the value (or the string's __data_loc) goes in the raw record */
	__u16 reg;    /* byte offset in struct pt_regs, or SDT_BPF_REG_NONE */
	__u16 index;  /* INDEXED: the index register's, or SDT_BPF_REG_NONE */
	__u32 pad2;
	__s64 disp;
};

/*
 * Aggregation in the kernel (stat --by, --latency): a site counts into a key, or opens or closes
 * a pair, and no record crosses to user space. A key is 8 bytes of head (the event, or the pair)
 * and its parts, each an argument's value: an integer in 8 bytes (zero extended from its size),
 * a string in SDT_BPF_KEY_STR bytes (NUL padded; its last byte 1 when the string was cut).
 */
#define SDT_BPF_KEY_PARTS 4
#define SDT_BPF_KEY_STR	  128
#define SDT_BPF_KEY_MAX	  (8 + SDT_BPF_KEY_PARTS * SDT_BPF_KEY_STR) /* 520 */
/*
 * The open starts of one (thread, pair, --key values) nest as a stack (recursion, nested calls):
 * an end closes the most recent. The stack's depth is counted past this, but only its first
 * SDT_BPF_PAIR_DEPTH levels are timed; a deeper start is counted in SDT_BPF_DROP_DEPTH.
 */
#define SDT_BPF_PAIR_DEPTH 1024
#define SDT_BPF_LAT_BUCKETS 256 /* log-linear: 4 per power of two (lat_bucket() in sdt.bpf.c) */

enum sdt_bpf_role {
	SDT_BPF_ROLE_COUNT = 0, /* count into (event, --by values) */
	SDT_BPF_ROLE_START,	/* open pair `group` on the thread, under the --key values */
	SDT_BPF_ROLE_END,	/* close it: its duration into (pair, the start's --by values) */
	SDT_BPF_ROLE_SKIP,	/* neither (an event of no pair under --latency) */
};

struct sdt_bpf_keypart {
	__u8 arg; /* the argument (index into args[]), or SDT_BPF_ARG_PID */
	__u8 str; /* a string: SDT_BPF_KEY_STR bytes, else 8 */
	__u16 dst; /* its offset in the key */
	/*
	 * a string's count: the argument NAME_len of a string NAME (HotSpot's names are not
	 * NUL-terminated), as the report cuts it (lib/trace/access.c); SDT_BPF_NO_LEN: none
	 */
	__u8 len_arg;
	__u8 pad[3];
};
#define SDT_BPF_NO_LEN 0xff
/* keypart.arg: no argument, the hit's process id (tgid, as the filter's pid), an integer */
#define SDT_BPF_ARG_PID 0xfe

/* The durations of one (pair, --by values), per CPU. */
struct sdt_bpf_lat {
	__u64 count, sum, min, max;
	__u64 hist[SDT_BPF_LAT_BUCKETS];
};

/* [index] of the agg_drops counters */
enum sdt_bpf_drop {
	SDT_BPF_DROP_KEYS = 0,	/* a new key found the map full (the cardinality cap) */
	SDT_BPF_DROP_STARTS,	/* a start found the open-pairs map full */
	SDT_BPF_DROP_UNMATCHED, /* an end with no open start of its pair, thread and key */
	SDT_BPF_DROP_DEPTH,	/* a start nested SDT_BPF_PAIR_DEPTH deep already: not timed */
	SDT_BPF_DROP_N,
};

struct sdt_bpf_site {
	__u64 address;	 /* the note's pc: hit ip - address is the load bias */
	__u32 event;	 /* the recording's event number */
	__u16 nargs;	 /* entries of args[] in use */
	__u16 fixed_end; /* raw bytes before the strings */
	__u16 room;	 /* the room field's __data_loc (a string was cut), or SDT_BPF_REG_NONE */
	__u8 role;	 /* aggregating: enum sdt_bpf_role */
	__u8 nby;	 /* by[] in use: the group's values (ROLE_COUNT, ROLE_START) */
	__u8 nkey;	 /* key[] in use: the pairing key's values (ROLE_START, ROLE_END) */
	__u8 clear;	 /* fewer parts than the keys have: zero them first */
	__u8 fast;	 /* at most SDT_BPF_FAST_ARGS arguments, none a string or 16 bytes */
	__u8 any_thread; /* ROLE_START, ROLE_END: pair on the --key values alone (thread 0) */
	__u32 group;	 /* ROLE_START, ROLE_END: the pair */
	__u32 pad2;
	struct sdt_bpf_keypart by[SDT_BPF_KEY_PARTS];
	struct sdt_bpf_keypart key[SDT_BPF_KEY_PARTS];
	struct sdt_bpf_arg args[SDT_BPF_MAX_ARGS];
};

/*
 * A fast ring (sdt.bpf.c's `frings`, one per CPU in an mmapable array): the records of the
 * hits, written by their CPU's program (in place for `fast` sites with no filter or stack,
 * else copied from the scratch) and read through the mapping. Each record is a __u64 length word,
 * then the record (its head, then the raw bytes), the whole padded to 8 bytes; it starts at its
 * position masked by the ring's size and may run on past the ring's end into the slack, so none is
 * ever split.
 */
#define SDT_FRING_SLACK	  32768 /* past the ring's end: a COMM record and the largest record */
#define SDT_FRING_REC_MAX 32640 /* one record (its head, raw bytes, stack), no length word */

struct sdt_fring {
	/* the producer's line: head written at each record, the rest its own */
	__u64 head;	 /* bytes written (the records before it are whole) */
	__u64 busy;	 /* a hit is writing (taken by an atomic exchange) */
	__u64 tail_seen; /* the tail last read: the room known without the reader's line */
	__u64 wake_at;	 /* the head at which to look at the tail again (wake-ups) */
	__u32 last_tid;	 /* the thread of the last record: its name was sent */
	__u32 pad0;
	__u64 pad[3];
	/* the reader's line */
	__u64 tail; /* bytes read */
	__u64 pad2[7];
	__u8 data[];
};

enum sdt_bpf_rec_type {
	SDT_BPF_REC_SAMPLE = 0,
	SDT_BPF_REC_COMM = 1, /* the first hit of a thread: raw is its comm (16 bytes) */
};

/*
 * The head of each ring record; raw_size bytes follow, then at the next 8-byte boundary
 * (record -g) nips user stack addresses (__u64, innermost first: the probe's ip, then the return
 * addresses found by frame pointers), then (when they could be read) the leaf's words: nregs 1,
 * the user SP, and ustack SDT_BPF_LEAF_BYTES bytes at it (the tracefs engine's
 * SDT_PERF_REGS_LEAF and SDT_STACK_USER_LEAF: the report unwinds the first frame by CFI); or
 * (--call-graph=dwarf) nregs user registers (__u64, in perf's order for mask 0xff01ff: AX BX CX
 * DX SI DI BP SP IP R8-R15, as PERF_SAMPLE_REGS_USER) and ustack bytes of the user stack from SP
 * up (those read before the first fault, as PERF_SAMPLE_STACK_USER's dyn_size).
 */
struct sdt_bpf_rec {
	__u64 time_ns; /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 pid, tid;
	__u32 event;
	__u16 cpu;
	__u16 type; /* enum sdt_bpf_rec_type */
	__u32 raw_size;
	__u32 nips; /* at most SDT_BPF_STACK_MAX */
	__u32 nregs;  /* 0, SDT_BPF_UREGS (dwarf) or 1 (-g: SP) */
	__u32 ustack; /* dwarf: at most SDT_BPF_USTACK_MAX; -g: SDT_BPF_LEAF_BYTES */
};

/*
 * A filter in the program (include/sdtrace/filter.h): its tests on integer arguments, the
 * process, the thread and the CPU, in postfix, read from the `filters` map at the event's index
 * (lib/record/bpf/filter.c compiles them). Each TEST or CONST pushes a bit, NOT flips the top one,
 * AND and OR take two; the event passes when the last bit is 1. A string (a recorded string
 * argument, or the thread's comm) is compared with one of the filter's literals: equal, starts
 * with, ends with (a glob `P*` or `*S`), not empty, or present (`*`); a missing string fails
 * every test, its negation too, as filter_eval.c has it. What the program cannot say (other
 * globs, literals of 64 bytes or more, floats, addresses before their rebase) is evaluated in
 * user space instead.
 */
#define SDT_BPF_FILTER_STEPS 16
#define SDT_BPF_FILTER_STRS  4	/* string literals per filter */
#define SDT_BPF_FSTR_MAX     64 /* bytes of one, zero padded: 63 at most */

enum sdt_bpf_fop {
	SDT_BPF_FOP_TEST = 0,
	SDT_BPF_FOP_CONST, /* push value & 1: a test whose answer the compiler knew */
	SDT_BPF_FOP_NOT,
	SDT_BPF_FOP_AND,
	SDT_BPF_FOP_OR,
};

enum sdt_bpf_fsrc {
	SDT_BPF_FSRC_RAW = 0, /* the raw record's field at off, size bytes */
	SDT_BPF_FSRC_PID,
	SDT_BPF_FSRC_TID,
	SDT_BPF_FSRC_CPU,
	SDT_BPF_FSRC_STR,  /* the string whose __data_loc word is at off (a recorded argument) */
	SDT_BPF_FSRC_COMM, /* the thread's name (bpf_get_current_comm) */
};

enum sdt_bpf_fcmp {
	SDT_BPF_FCMP_NZ = 0, /* not zero */
	SDT_BPF_FCMP_EQ,
	SDT_BPF_FCMP_NE,
	SDT_BPF_FCMP_LT,
	SDT_BPF_FCMP_LE,
	SDT_BPF_FCMP_GT,
	SDT_BPF_FCMP_GE,
	/* strings (STR, COMM): with literal `value` of `mask` bytes */
	SDT_BPF_FCMP_SEQ,    /* equal */
	SDT_BPF_FCMP_SPRE,   /* starts with it */
	SDT_BPF_FCMP_SSUF,   /* ends with it */
	SDT_BPF_FCMP_SNZ,    /* not empty */
	SDT_BPF_FCMP_SANY,   /* there is a string */
};

struct sdt_bpf_fstep {
	__u8 op;	/* enum sdt_bpf_fop */
	__u8 src;	/* TEST: enum sdt_bpf_fsrc */
	__u8 cmp;	/* TEST: enum sdt_bpf_fcmp */
	__u8 size;	/* RAW: 1, 2, 4, 8 */
	__u8 is_signed; /* RAW: sign-extend, compare signed (never with a mask) */
	__u8 has_mask;	/* the value & mask first (then compared unsigned) */
	__u16 off;	/* RAW, STR: the field's offset, below SDT_BPF_FIXED_LIM */
	__u64 mask;	/* strings: the literal's length */
	__s64 value;	/* what is compared with (CONST: the bit; strings: the literal's index) */
	__u8 negate;	/* strings: the answer flipped (!=, !~), a missing string still fails */
	__u8 pad[7];
};

struct sdt_bpf_filter {
	__u32 n;    /* steps in use; 0: no filter */
	__u32 comm; /* a step reads the thread's name */
	struct sdt_bpf_fstep steps[SDT_BPF_FILTER_STEPS];
	__u8 strs[SDT_BPF_FILTER_STRS][SDT_BPF_FSTR_MAX];
};

#endif
