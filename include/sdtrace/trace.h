/* SPDX-License-Identifier: MIT */
/*
 * Reading a recording (sdtrace.data): its session, its event kinds, and its events one at a time
 * with their arguments decoded. The same events from samples as a recorder hands them over
 * (sdtrace/record.h), without a file: the decoder below.
 *
 * An event description (struct sdt_trace_event_desc, opaque) says what one recorded event kind
 * is: provider and name, the binary and its sites, its arguments (names, specs, types) and where
 * each lies in the raw tracefs record of a sample. A recorder hands one to its sink per event
 * before the first sample; sdtrace/trace_writer.h builds them by hand.
 *
 * The file describes itself (event layouts, binaries, build-ids, argument specs), so it is read
 * without tracefs, on any machine. It is read as a stream: memory does not grow with the number
 * of events. A file cut short (a recording killed by SIGKILL) reads up to its last complete
 * record, then sdt_trace_reader__truncated() says so; a corrupt file fails with -EINVAL and a
 * message naming the byte offset.
 *
 * Arguments are decoded as the SDT spec says: an `-1@` argument is a signed 8-bit integer
 * (-5, never 251), `8f@` a double from its raw bits, a `char *` fetched as a string a string,
 * an address immediate is rebased to the process's address, and an argument that could not be
 * fetched is SDT_VALUE_UNAVAILABLE with the reason.
 *
 * Lifetimes: an event and every string reached from it are borrowed until the next
 * sdt_trace_reader__next() or sdt_trace_reader__free(); kinds and session strings until
 * sdt_trace_reader__free().
 *
 * Example:
 *	struct sdt_trace_reader *r;
 *	const struct sdt_trace_event *ev;
 *	struct sdt_trace_value v;
 *	int err;
 *	if (sdt_trace_reader__open("sdtrace.data", NULL, &r) < 0)
 *		errx(1, "%s", sdt_errmsg());
 *	while ((err = sdt_trace_reader__next(r, &ev)) > 0) {
 *		printf("%s:%s", sdt_trace_event__provider(ev), sdt_trace_event__name(ev));
 *		for (size_t i = 0; i < sdt_trace_event__arg_count(ev); i++) {
 *			sdt_trace_event__arg(ev, i, &v);
 *			if (v.kind == SDT_VALUE_INT)
 *				printf(" %lld", (long long)v.i);
 *		}
 *		putchar('\n');
 *	}
 *	if (err < 0)
 *		warnx("%s", sdt_errmsg());
 *	else if (sdt_trace_reader__truncated(r))
 *		warnx("the recording is truncated");
 *	sdt_trace_reader__free(r);
 */
#ifndef SDTRACE_TRACE_H
#define SDTRACE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sdtrace/common.h>
#include <sdtrace/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sdt_trace_reader;
struct sdt_trace_kind;
struct sdt_trace_event;
struct sdt_trace_event_desc;

enum sdt_value_kind {
	SDT_VALUE_UNAVAILABLE = 0, /* ->unavailable says why */
	SDT_VALUE_INT,		   /* signed integer in ->i */
	SDT_VALUE_UINT,		   /* unsigned integer in ->u */
	SDT_VALUE_FLOAT,	   /* ->f (a 4-byte float widened to double) and ->ld */
	SDT_VALUE_STRING,	   /* ->str, NUL-terminated, ->len bytes before the NUL */
};

/*
 * A string the kernel did not hand back whole is SDT_VALUE_STRING with ->truncated: ->str holds
 * its first ->len bytes, and it had at least ->min_len bytes. The kernel's :string fetch gives
 * nothing of a string of 4096 bytes or more; the recorder gives each event with strings room
 * the kernel lends such a string (lib/record/DESIGN.md, "Long strings"), so that its start is
 * kept and it is known to be long. A hit's strings also share one page of the kernel's: the
 * string that overflows it is cut at the page's end, and marked the same way.
 */

/* One decoded argument; filled by sdt_trace_event__arg() (caller-owned, strings borrowed). */
struct sdt_trace_value {
	enum sdt_value_kind kind;
	unsigned int size; /* the spec's size in bytes (1, 2, 4, 8, 16) */
	bool is_address;   /* an address immediate, rebased to the process's address */
	int64_t i;
	uint64_t u;
	double f;
	const char *str;
	size_t len;
	const char *unavailable;
	bool truncated; /* SDT_VALUE_STRING: only its first ->len bytes (above) */
	size_t min_len; /* with ->truncated: the string had at least this many bytes */
	/*
	 * SDT_VALUE_FLOAT: the value as a long double. For a 16-byte long double (size 16) the
	 * value itself, decoded from the probed architecture's format (x87 extended on x86,
	 * IEEE binary128 on aarch64/s390x/riscv64, double-double on ppc), rounded to this host's
	 * long double where it has fewer bits; ->f is it rounded to a double. Else equal to ->f.
	 */
	long double ld;
};

/*
 * One sample as it leaves a ring buffer (a recorder's on_sample) or as a program builds it
 * (sdtrace/trace_writer.h): caller-owned, @raw borrowed for the duration of the call it is
 * passed to.
 */
struct sdt_trace_sample {
	uint64_t time_ns; /* CLOCK_MONOTONIC */
	uint32_t cpu;
	uint32_t pid;
	uint32_t tid;
	uint32_t event;	 /* the event's number: sdt_trace_event_desc__index() */
	const void *raw; /* the raw tracefs record (PERF_SAMPLE_RAW payload), host byte order */
	uint32_t raw_size;
	/* The user stack (record -g fp): return addresses, the probe ip first; NULL/0: none. */
	const uint64_t *callchain;
	uint32_t callchain_nr;
	/*
	 * The user registers and the top of the user stack (record --call-graph=dwarf), unwound at
	 * report time: see struct sdt_trace_user_stack. ->user_regs NULL: none.
	 */
	uint16_t user_machine;	   /* e_machine of the registers' numbering (EM_X86_64) */
	uint64_t user_regs_mask;   /* perf's register numbers (asm/perf_regs.h) of ->user_regs */
	const uint64_t *user_regs; /* one per bit of the mask, lowest bit first */
	const void *user_stack;	   /* the bytes from the user stack pointer up */
	uint32_t user_stack_size;
};

/*
 * A sample's user registers and stack bytes as recorded (borrowed as the event): perf's register
 * numbers for @machine (EM_X86_64: asm/perf_regs.h, AX 0 ... IP 8, R8-R15 16-23), the bytes from
 * the stack pointer up.
 */
struct sdt_trace_user_stack {
	uint16_t machine;
	uint64_t regs_mask;
	const uint64_t *regs; /* popcount(regs_mask), lowest bit first */
	uint32_t nregs;
	const uint8_t *stack;
	uint32_t stack_size;
};

/* The longest user stack a recording keeps (frames beyond are cut). */
#define SDT_TRACE_MAX_STACK 512

/*
 * A file mapped executable into a process (PERF_RECORD_MMAP2, or the process's /proc/PID/maps
 * when recording began): what the symbolizer needs to name a stack's addresses on any machine.
 * Caller-owned, strings borrowed for the duration of the call it is passed to.
 */
struct sdt_trace_mapping {
	uint32_t pid;
	uint64_t start, len; /* in the process */
	uint64_t pgoff;	     /* the file offset mapped at ->start */
	const char *build_id; /* hex, NULL when unknown */
	const char *path;     /* as the process named it */
};

/*
 * An event description. Strings are borrowed from @d (for a recorder's, until
 * sdt_recorder__free(); for a kind's, until sdt_trace_reader__free()). Arguments are numbered
 * from 0 in note order; out of range, the string accessors return NULL.
 */
SDT_API uint32_t sdt_trace_event_desc__index(const struct sdt_trace_event_desc *d);
SDT_API const char *sdt_trace_event_desc__provider(const struct sdt_trace_event_desc *d);
SDT_API const char *sdt_trace_event_desc__name(const struct sdt_trace_event_desc *d);
/* The binary as probed, and its build-id in hex: NULL when not known. */
SDT_API const char *sdt_trace_event_desc__path(const struct sdt_trace_event_desc *d);
SDT_API const char *sdt_trace_event_desc__build_id(const struct sdt_trace_event_desc *d);
/* The link-time addresses (note pc) of the sites the event covers; 0 out of range. */
SDT_API size_t sdt_trace_event_desc__site_count(const struct sdt_trace_event_desc *d);
SDT_API uint64_t sdt_trace_event_desc__site_address(const struct sdt_trace_event_desc *d, size_t i);
SDT_API size_t sdt_trace_event_desc__arg_count(const struct sdt_trace_event_desc *d);
SDT_API const char *sdt_trace_event_desc__arg_name(const struct sdt_trace_event_desc *d, size_t i);
SDT_API const char *sdt_trace_event_desc__arg_spec(const struct sdt_trace_event_desc *d, size_t i);
/* The argument @name names: its name, else "argN" (N from 1, as `sdtrace list` numbers them); its
 * index, or -1 when @d has none such. */
SDT_API int sdt_trace_event_desc__arg_index(const struct sdt_trace_event_desc *d, const char *name);
/* Whether argument @i's name came from a type (the event spec's or a provider file's). */
SDT_API bool sdt_trace_event_desc__arg_named(const struct sdt_trace_event_desc *d, size_t i);
/*
 * The type argument @i was recorded with, for showing it (SDT_TYPE_HEX in hex, SDT_TYPE_CHAR as
 * a character); SDT_TYPE_DEFAULT when it had none (the value's kind says the rest).
 */
SDT_API enum sdt_type_kind sdt_trace_event_desc__arg_type(const struct sdt_trace_event_desc *d,
							  size_t i);
/* Why argument @i was not recorded, or NULL when it was. */
SDT_API const char *sdt_trace_event_desc__arg_unavailable(const struct sdt_trace_event_desc *d,
							  size_t i);

struct sdt_trace_open_opts {
	size_t sz;
	/* Name of the file in messages (open_mem only). */
	const char *name;
	/*
	 * Hand out the events in time order (sdt_latency needs each thread's in order), not in
	 * file order: the file holds them as the per-CPU rings were drained, and a thread that
	 * moved between CPUs may have a later event before an earlier one. They pass through a
	 * reorder window: an event is let out once it is 1 s older than the newest read, or when
	 * 65536 events (or 24 MiB of them) are held. An event that still comes after a newer one
	 * was let out is passed on and counted (sdt_trace_reader__late()). The session's
	 * accessors and the kinds run ahead of the event handed out by up to the window.
	 */
	bool time_order;
};

/*
 * Open a recording and read its header and session. Returns 0 and *out, or -ENOENT/-EACCES
 * (open), -EINVAL (not a sdtrace recording, or corrupt), -ENOTSUP (a newer format version).
 */
SDT_API int sdt_trace_reader__open(const char *path, const struct sdt_trace_open_opts *opts,
				   struct sdt_trace_reader **out);
/* The same for a recording in memory; @buf must stay valid until sdt_trace_reader__free(). */
SDT_API int sdt_trace_reader__open_mem(const void *buf, size_t len,
				       const struct sdt_trace_open_opts *opts,
				       struct sdt_trace_reader **out);
SDT_API void sdt_trace_reader__free(struct sdt_trace_reader *r);

/*
 * The next event: 1 and *ev, 0 at the end (complete or truncated: see __truncated()), or
 * -EINVAL on a corrupt record (reading cannot go on). Session records met on the way (event
 * kinds, thread names, lost counts, the end) are taken in and reflected by the accessors below.
 */
SDT_API int sdt_trace_reader__next(struct sdt_trace_reader *r, const struct sdt_trace_event **ev);

/* The session. Strings may be NULL when the recorder did not know them. */
SDT_API const char *sdt_trace_reader__path(const struct sdt_trace_reader *r);
SDT_API const char *sdt_trace_reader__cmdline(const struct sdt_trace_reader *r);
SDT_API const char *sdt_trace_reader__hostname(const struct sdt_trace_reader *r);
SDT_API const char *sdt_trace_reader__kernel_release(const struct sdt_trace_reader *r);
/* The engine that recorded it ("bpf", "tracefs"), NULL in files from before the field. */
SDT_API const char *sdt_trace_reader__engine(const struct sdt_trace_reader *r);
SDT_API uint64_t sdt_trace_reader__start_realtime_ns(const struct sdt_trace_reader *r);
SDT_API uint64_t sdt_trace_reader__start_monotonic_ns(const struct sdt_trace_reader *r);
/* After the end: true when the file stops before its END record (or inside a record). */
SDT_API bool sdt_trace_reader__truncated(const struct sdt_trace_reader *r);
/* The command's exit status from the END record: 0 and *status, or -ENODATA (not seen yet). */
SDT_API int sdt_trace_reader__exit_status(const struct sdt_trace_reader *r, int *status);
/* Events lost so far, in total and per CPU (CPUs 0..__lost_cpus()-1). */
SDT_API uint64_t sdt_trace_reader__lost(const struct sdt_trace_reader *r);
SDT_API size_t sdt_trace_reader__lost_cpus(const struct sdt_trace_reader *r);
SDT_API uint64_t sdt_trace_reader__lost_on_cpu(const struct sdt_trace_reader *r, size_t cpu);
/* Events read so far (with a filter: those that passed it). */
SDT_API uint64_t sdt_trace_reader__sample_count(const struct sdt_trace_reader *r);
/*
 * From now on, __next() hands out only the events @f (sdtrace/filter.h; NULL: none) passes;
 * the others are not counted by __sample_count() nor by their kind's __samples(), only by
 * __filtered_out(). @f must outlive its use.
 */
struct sdt_filter;
SDT_API void sdt_trace_reader__set_filter(struct sdt_trace_reader *r, const struct sdt_filter *f);
SDT_API uint64_t sdt_trace_reader__filtered_out(const struct sdt_trace_reader *r);
/* With opts.time_order: the events that came too late for the window (handed out of order). */
SDT_API uint64_t sdt_trace_reader__late(const struct sdt_trace_reader *r);

/*
 * The event kinds described so far (one per recorded tracefs event), in file order; what each
 * is (provider, name, arguments) is its description, sdt_trace_kind__desc().
 */
SDT_API size_t sdt_trace_reader__kind_count(const struct sdt_trace_reader *r);
SDT_API const struct sdt_trace_kind *sdt_trace_reader__kind(const struct sdt_trace_reader *r,
							    size_t i);
/* Events of this kind read so far. */
SDT_API uint64_t sdt_trace_kind__samples(const struct sdt_trace_kind *k);
/* The kind's description, as recorded (borrowed as the kind). */
SDT_API const struct sdt_trace_event_desc *sdt_trace_kind__desc(const struct sdt_trace_kind *k);

/* One event. */
SDT_API const struct sdt_trace_kind *sdt_trace_event__kind(const struct sdt_trace_event *ev);
SDT_API uint64_t sdt_trace_event__time_ns(const struct sdt_trace_event *ev); /* CLOCK_MONOTONIC */
SDT_API unsigned int sdt_trace_event__cpu(const struct sdt_trace_event *ev);
SDT_API unsigned int sdt_trace_event__pid(const struct sdt_trace_event *ev);
SDT_API unsigned int sdt_trace_event__tid(const struct sdt_trace_event *ev);
/* The thread's name as last recorded before the event, or NULL when none was. */
SDT_API const char *sdt_trace_event__comm(const struct sdt_trace_event *ev);
SDT_API const char *sdt_trace_event__provider(const struct sdt_trace_event *ev);
SDT_API const char *sdt_trace_event__name(const struct sdt_trace_event *ev);
SDT_API const char *sdt_trace_event__path(const struct sdt_trace_event *ev);
/*
 * The event's user stack (a recording made with -g): its depth and *ips (return addresses, the
 * probe ip first; borrowed as the event), or 0 when it has none.
 */
SDT_API size_t sdt_trace_event__stack(const struct sdt_trace_event *ev, const uint64_t **ips);
/* The event's user registers and stack bytes (record --call-graph=dwarf): true and *out, or false. */
SDT_API bool sdt_trace_event__user_stack(const struct sdt_trace_event *ev,
					 struct sdt_trace_user_stack *out);
/*
 * Mapping @i of the recording read so far (file order; later ones replace earlier ones that
 * overlap): true and *out (strings borrowed until sdt_trace_reader__free()), false past the end.
 */
SDT_API bool sdt_trace_reader__mapping_at(const struct sdt_trace_reader *r, size_t i,
					  struct sdt_trace_mapping *out);
/* The mappings read so far. */
SDT_API size_t sdt_trace_reader__mapping_count(const struct sdt_trace_reader *r);
/* The stack's id in the recording (equal stacks have equal ids), 0 when none. */
SDT_API uint32_t sdt_trace_event__stack_id(const struct sdt_trace_event *ev);
/*
 * The mapping of @pid containing @ip as recorded so far (the latest one that covers it): true
 * and *out (strings borrowed until sdt_trace_reader__free()), or false.
 */
SDT_API bool sdt_trace_reader__mapping(const struct sdt_trace_reader *r, uint32_t pid, uint64_t ip,
				       struct sdt_trace_mapping *out);
/* Whether the recording holds stacks (one seen so far, or made with -g). */
SDT_API bool sdt_trace_reader__has_stacks(const struct sdt_trace_reader *r);
/*
 * The link-time address of the site that fired (as `sdtrace list --json` gives it), from the
 * recorded probe ip: true and *addr, or false when it cannot be told.
 */
SDT_API bool sdt_trace_event__address(const struct sdt_trace_event *ev, uint64_t *addr);
/* The probe ip in the process (runtime address), when recorded. */
SDT_API bool sdt_trace_event__ip(const struct sdt_trace_event *ev, uint64_t *ip);
SDT_API size_t sdt_trace_event__arg_count(const struct sdt_trace_event *ev);
/* Decode argument @i into @out. Returns 0, or -ERANGE when @i is out of range. */
SDT_API int sdt_trace_event__arg(const struct sdt_trace_event *ev, size_t i,
				 struct sdt_trace_value *out);

/*
 * Events by the batch: up to a batch's size of events read at once into columns (one array per
 * field, the arguments of every event in one set of arrays, strings copied into one buffer),
 * for a caller that pays for each call (Python through cffi builds its arrays from the columns
 * with numpy.frombuffer, not an object per event). The same events, values and order as
 * __next() and __arg() give: the two may be mixed on one reader.
 *
 *	struct sdt_trace_batch *b;
 *	struct sdt_trace_columns c = {.sz = sizeof(c)};
 *	if (sdt_trace_batch__new(NULL, &b) < 0) ...
 *	while ((n = sdt_trace_reader__read_batch(r, b)) > 0) {
 *		sdt_trace_batch__columns(b, &c);
 *		for (i = 0; i < c.count; i++)
 *			for (s = c.arg_first[i]; s < c.arg_first[i + 1]; s++)
 *				if (c.arg_kind[s] == SDT_VALUE_STRING)
 *					puts(c.strings + c.arg_value[s]);
 *	}
 *	sdt_trace_batch__free(b);
 *
 * Lifetimes: the columns are the batch's, valid until the next __read_batch() on it or
 * sdt_trace_batch__free(); nothing in them is borrowed from the reader.
 */
struct sdt_trace_batch;

struct sdt_trace_batch_opts {
	size_t sz;
	size_t max_events; /* events per batch at most; 0: 65536 */
};

/* An offset of sdt_trace_columns that points nowhere (a thread without a recorded name). */
#define SDT_TRACE_NO_STRING UINT64_MAX

/* sdt_trace_columns.flags[]: the event's ->address is known. */
#define SDT_TRACE_EVENT_ADDRESS 0x1u
/* sdt_trace_columns.arg_flags[]: a truncated string (sdt_trace_value.truncated), an address. */
#define SDT_TRACE_ARG_TRUNCATED 0x1u
#define SDT_TRACE_ARG_ADDRESS	0x2u

/*
 * A batch's columns: @count events, event i in element i of the per-event arrays. Its arguments
 * are the argument slots arg_first[i] to arg_first[i + 1] - 1, in the kind's order (as many as
 * sdt_trace_event__arg_count()); its stack, ips[stack_first[i]] to ips[stack_first[i + 1] - 1].
 * Strings are NUL-terminated in @strings, named by their offset. Filled by
 * sdt_trace_batch__columns(): the caller sets ->sz (sizeof), the fields past it stay unwritten.
 */
struct sdt_trace_columns {
	size_t sz;
	size_t count;		   /* events */
	const uint64_t *time_ns;   /* CLOCK_MONOTONIC */
	const uint32_t *cpu;
	const uint32_t *pid;
	const uint32_t *tid;
	const uint32_t *kind;	   /* the event's kind: sdt_trace_reader__kind(r, kind[i]) */
	const uint32_t *stack_id;  /* sdt_trace_event__stack_id() */
	const uint64_t *comm;	   /* offset in ->strings, SDT_TRACE_NO_STRING: none */
	const uint64_t *address;   /* sdt_trace_event__address() where flags has EVENT_ADDRESS */
	const uint8_t *flags;	   /* SDT_TRACE_EVENT_* */
	const uint64_t *stack_first; /* count + 1 elements */
	const uint64_t *ips;	   /* the stacks (-g), the probe ip first */
	const uint64_t *arg_first; /* count + 1 elements; arg_first[count]: the slots in use */
	const uint8_t *arg_kind;   /* enum sdt_value_kind */
	const uint8_t *arg_flags;  /* SDT_TRACE_ARG_* */
	/*
	 * The value's 8 bytes, as its kind says: INT an int64_t, UINT a uint64_t, FLOAT a double
	 * (->f: a 16-byte long double rounded), STRING the offset of its bytes in ->strings; 0
	 * when UNAVAILABLE.
	 */
	const uint64_t *arg_value;
	const uint64_t *arg_len;     /* STRING: its length in bytes (->len), else 0 */
	const uint64_t *arg_min_len; /* a truncated STRING: ->min_len, else 0 */
	const char *strings;
	size_t strings_len;
};

/* A batch of at most opts->max_events events: 0 and *out, or -EINVAL (opts), -ENOMEM. */
SDT_API int sdt_trace_batch__new(const struct sdt_trace_batch_opts *opts,
				 struct sdt_trace_batch **out);
SDT_API void sdt_trace_batch__free(struct sdt_trace_batch *b);
/*
 * The next events of @r into @b, which is emptied first: their number (1 to the batch's size),
 * 0 at the end (as __next()), or -EINVAL (a corrupt record: @b holds the events before it) or
 * -ENOMEM, with the message set.
 */
SDT_API int sdt_trace_reader__read_batch(struct sdt_trace_reader *r, struct sdt_trace_batch *b);
/* @b's columns into *out (out->sz set by the caller). */
SDT_API void sdt_trace_batch__columns(const struct sdt_trace_batch *b,
				      struct sdt_trace_columns *out);

/*
 * The decoder: the events of samples as a recorder's sink receives them (sdtrace/record.h),
 * decoded exactly as the reader decodes them once written to a file and read back (the bytes a
 * recording would keep of each sample, the same thread names, the same sites and load biases):
 * `sdtrace trace` prints what `sdtrace record` + `sdtrace report` would.
 *
 *	on_event_desc(ctx, d):       return sdt_trace_decoder__add_desc(dec, d);
 *	on_comm(ctx, pid, tid, comm):       sdt_trace_decoder__comm(dec, pid, tid, comm);
 *	on_sample(ctx, s):           if ((err = sdt_trace_decoder__sample(dec, s, &ev)) < 0)
 *	                                     return err;
 *	                             ... sdt_trace_event__arg(ev, 0, &v) ...
 *
 * Lifetimes: descriptions are copied; an event and every string reached from it (its kind, its
 * comm, its string values) are borrowed until the next call on @dec or sdt_trace_decoder__free();
 * the sample's @raw only for the duration of sdt_trace_decoder__sample() (the event has its
 * own copy). Samples must be in host byte order (as a recorder gives them).
 */
struct sdt_trace_decoder;

SDT_API int sdt_trace_decoder__new(struct sdt_trace_decoder **out);
SDT_API void sdt_trace_decoder__free(struct sdt_trace_decoder *dec);
/*
 * Describe an event before its first sample: 0, -EEXIST (its index is described already),
 * -EINVAL (a desc no recording could hold: the message says what), -ENOMEM.
 */
SDT_API int sdt_trace_decoder__add_desc(struct sdt_trace_decoder *dec,
					const struct sdt_trace_event_desc *d);
/*
 * Thread @tid (of process @pid) is now called @comm: the events of its later samples say so
 * (sdt_trace_event__comm()). At most 15 bytes are kept, as in a recording. 0 or -errno.
 */
SDT_API int sdt_trace_decoder__comm(struct sdt_trace_decoder *dec, uint32_t pid, uint32_t tid,
				    const char *comm);
/*
 * The event of sample @s: 0 and *ev, read with the sdt_trace_event__*() above; -EINVAL (an
 * undescribed event, a record shorter than its fields), -ENOMEM.
 */
SDT_API int sdt_trace_decoder__sample(struct sdt_trace_decoder *dec,
				      const struct sdt_trace_sample *s,
				      const struct sdt_trace_event **ev);

#ifdef __cplusplus
}
#endif

#endif
