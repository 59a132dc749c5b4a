# SPDX-License-Identifier: MIT
"""The C declarations the module uses, and libsdtrace.so.0 opened with them.

cffi in ABI mode (ffi.dlopen), not ctypes, and not cffi's API mode:
- API mode compiles an extension module: a C compiler and Python headers at install time, and a
  build per Python version; ABI mode is pure Python over the installed libsdtrace.so.0, so the
  Debian package is Architecture: all.
- Against ctypes: the declarations below are the headers' own C text, read by cffi's C parser
  (no hand translation into ctypes types and argtypes, where a wrong one goes unnoticed), and
  cffi's calls and struct field reads are cheaper than ctypes', which matters at millions of
  events per recording. Both are libffi calls: about 0.2-0.45 us each here, far more than the
  C reader's own 0.1 us per event (BENCHMARKS.md, "Python").
Events are read by the batch (sdt_trace_reader__read_batch: one call for up to 65536 events, their
fields and arguments in columns that numpy reads in place), not one call per field of each event.
The structs passed by pointer (sdt_trace_value, the latency step and stats, the open options, the
batch's options and columns) are declared field for field, in the order and with the types of
include/sdtrace/*.h: their layout is the ABI. Opaque structs are declared as such.

$SDTRACE_LIBRARY names another file to open (the build tree's, for the tests).
"""
import os

from cffi import FFI

CDEF = r"""
const char *sdt_version(void);
const char *sdt_errmsg(void);

/* sdtrace/types.h */
enum sdt_type_kind {
	SDT_TYPE_DEFAULT = 0, SDT_TYPE_INT, SDT_TYPE_HEX, SDT_TYPE_STRING, SDT_TYPE_FLOAT,
	SDT_TYPE_CHAR,
};

/* sdtrace/trace.h */
struct sdt_trace_reader;
struct sdt_trace_kind;
struct sdt_trace_event;
struct sdt_trace_event_desc;
enum sdt_value_kind {
	SDT_VALUE_UNAVAILABLE = 0, SDT_VALUE_INT, SDT_VALUE_UINT, SDT_VALUE_FLOAT,
	SDT_VALUE_STRING,
};
struct sdt_trace_value {
	enum sdt_value_kind kind;
	unsigned int size;
	bool is_address;
	int64_t i;
	uint64_t u;
	double f;
	const char *str;
	size_t len;
	const char *unavailable;
	bool truncated;
	size_t min_len;
	long double ld;
};
struct sdt_trace_open_opts {
	size_t sz;
	const char *name;
	bool time_order;
};
int sdt_trace_reader__open(const char *path, const struct sdt_trace_open_opts *opts,
			   struct sdt_trace_reader **out);
void sdt_trace_reader__free(struct sdt_trace_reader *r);
int sdt_trace_reader__next(struct sdt_trace_reader *r, const struct sdt_trace_event **ev);
const char *sdt_trace_reader__cmdline(const struct sdt_trace_reader *r);
const char *sdt_trace_reader__hostname(const struct sdt_trace_reader *r);
const char *sdt_trace_reader__kernel_release(const struct sdt_trace_reader *r);
const char *sdt_trace_reader__engine(const struct sdt_trace_reader *r);
uint64_t sdt_trace_reader__start_realtime_ns(const struct sdt_trace_reader *r);
uint64_t sdt_trace_reader__start_monotonic_ns(const struct sdt_trace_reader *r);
bool sdt_trace_reader__truncated(const struct sdt_trace_reader *r);
uint64_t sdt_trace_reader__lost(const struct sdt_trace_reader *r);
size_t sdt_trace_reader__kind_count(const struct sdt_trace_reader *r);
const struct sdt_trace_kind *sdt_trace_reader__kind(const struct sdt_trace_reader *r, size_t i);
const struct sdt_trace_event_desc *sdt_trace_kind__desc(const struct sdt_trace_kind *k);
const char *sdt_trace_event_desc__provider(const struct sdt_trace_event_desc *d);
const char *sdt_trace_event_desc__name(const struct sdt_trace_event_desc *d);
const char *sdt_trace_event_desc__path(const struct sdt_trace_event_desc *d);
size_t sdt_trace_event_desc__arg_count(const struct sdt_trace_event_desc *d);
const char *sdt_trace_event_desc__arg_name(const struct sdt_trace_event_desc *d, size_t i);
uint64_t sdt_trace_reader__late(const struct sdt_trace_reader *r);
const struct sdt_trace_kind *sdt_trace_event__kind(const struct sdt_trace_event *ev);
uint64_t sdt_trace_event__time_ns(const struct sdt_trace_event *ev);
unsigned int sdt_trace_event__cpu(const struct sdt_trace_event *ev);
unsigned int sdt_trace_event__pid(const struct sdt_trace_event *ev);
unsigned int sdt_trace_event__tid(const struct sdt_trace_event *ev);
const char *sdt_trace_event__comm(const struct sdt_trace_event *ev);
size_t sdt_trace_event__stack(const struct sdt_trace_event *ev, const uint64_t **ips);
uint32_t sdt_trace_event__stack_id(const struct sdt_trace_event *ev);
bool sdt_trace_event__address(const struct sdt_trace_event *ev, uint64_t *addr);
size_t sdt_trace_event__arg_count(const struct sdt_trace_event *ev);
int sdt_trace_event__arg(const struct sdt_trace_event *ev, size_t i, struct sdt_trace_value *out);
struct sdt_trace_batch;
struct sdt_trace_batch_opts {
	size_t sz;
	size_t max_events;
};
#define SDT_TRACE_EVENT_ADDRESS 0x1
#define SDT_TRACE_ARG_TRUNCATED 0x1
#define SDT_TRACE_ARG_ADDRESS 0x2
struct sdt_trace_columns {
	size_t sz;
	size_t count;
	const uint64_t *time_ns;
	const uint32_t *cpu;
	const uint32_t *pid;
	const uint32_t *tid;
	const uint32_t *kind;
	const uint32_t *stack_id;
	const uint64_t *comm;
	const uint64_t *address;
	const uint8_t *flags;
	const uint64_t *stack_first;
	const uint64_t *ips;
	const uint64_t *arg_first;
	const uint8_t *arg_kind;
	const uint8_t *arg_flags;
	const uint64_t *arg_value;
	const uint64_t *arg_len;
	const uint64_t *arg_min_len;
	const char *strings;
	size_t strings_len;
};
int sdt_trace_batch__new(const struct sdt_trace_batch_opts *opts, struct sdt_trace_batch **out);
void sdt_trace_batch__free(struct sdt_trace_batch *b);
int sdt_trace_reader__read_batch(struct sdt_trace_reader *r, struct sdt_trace_batch *b);
void sdt_trace_batch__columns(const struct sdt_trace_batch *b, struct sdt_trace_columns *out);

/* sdtrace/latency.h */
struct sdt_latency;
enum sdt_latency_role {
	SDT_LATENCY_NONE = 0, SDT_LATENCY_START, SDT_LATENCY_END, SDT_LATENCY_UNMATCHED,
};
struct sdt_latency_open {
	size_t pair;
	uint64_t start_ns;
	uint64_t tag;
	uint64_t key_hash;
	bool keyed;
	uint8_t verdict;
};
struct sdt_latency_step {
	enum sdt_latency_role role;
	bool is_end;
	size_t pair;
	uint64_t start_ns;
	uint64_t duration_ns;
	const struct sdt_latency_open *crossed;
	size_t ncrossed;
	uint64_t start_tag;
	bool skipped;
	bool key_mismatch;
};
struct sdt_latency_stats {
	uint64_t count;
	uint64_t min_ns, max_ns;
	double avg_ns;
	uint64_t p50_ns, p90_ns, p99_ns;
	uint64_t unmatched_starts;
	uint64_t unmatched_ends;
	uint64_t key_mismatches;
	uint64_t skipped;
};
int sdt_latency__new(struct sdt_latency **out);
void sdt_latency__free(struct sdt_latency *l);
int sdt_latency__add_pair(struct sdt_latency *l, const char *start_spec, const char *end_spec);
int sdt_latency__add_kind(struct sdt_latency *l, const char *provider, const char *name);
int sdt_latency__event(struct sdt_latency *l, const char *provider, const char *name,
		       unsigned int pid, unsigned int tid, uint64_t time_ns,
		       struct sdt_latency_step *step);
int sdt_latency__finish(struct sdt_latency *l, void *cb, void *ctx);
size_t sdt_latency__pair_count(const struct sdt_latency *l);
bool sdt_latency__pair_active(const struct sdt_latency *l, size_t pair);
const char *sdt_latency__pair_name(const struct sdt_latency *l, size_t pair);
const char *sdt_latency__pair_start(const struct sdt_latency *l, size_t pair);
const char *sdt_latency__pair_end(const struct sdt_latency *l, size_t pair);
void sdt_latency__stats(const struct sdt_latency *l, size_t pair, struct sdt_latency_stats *out);

/* sdtrace/scan.h */
struct sdt_file;
struct sdt_site;
struct sdt_arg;
struct sdt_scan_opts {
	size_t sz;
	const char *name;
};
int sdt_file__open(const char *path, const struct sdt_scan_opts *opts, struct sdt_file **out);
void sdt_file__free(struct sdt_file *f);
const char *sdt_file__build_id(const struct sdt_file *f);
const char *sdt_file__arch_name(const struct sdt_file *f);
size_t sdt_file__site_count(const struct sdt_file *f);
const struct sdt_site *sdt_file__site(const struct sdt_file *f, size_t i);
const char *sdt_site__provider(const struct sdt_site *s);
const char *sdt_site__name(const struct sdt_site *s);
uint64_t sdt_site__address(const struct sdt_site *s);
uint64_t sdt_site__file_offset(const struct sdt_site *s);
bool sdt_site__has_semaphore(const struct sdt_site *s);
uint64_t sdt_site__semaphore(const struct sdt_site *s);
size_t sdt_site__arg_count(const struct sdt_site *s);
const struct sdt_arg *sdt_site__arg(const struct sdt_site *s, size_t i);
const char *sdt_arg__spec(const struct sdt_arg *a);
unsigned int sdt_arg__size(const struct sdt_arg *a);
bool sdt_arg__is_signed(const struct sdt_arg *a);
bool sdt_arg__is_float(const struct sdt_arg *a);
const char *sdt_arg__fetch(const struct sdt_arg *a);
const char *sdt_arg__unavailable(const struct sdt_arg *a);

/* sdtrace/cache.h */
struct sdt_cache;
struct sdt_cache_entries;
struct sdt_cache_entry;
struct sdt_cache_opts {
	size_t sz;
	bool no_copy;
	bool no_create;
};
int sdt_cache__open(const char *root, const struct sdt_cache_opts *opts, struct sdt_cache **out);
void sdt_cache__free(struct sdt_cache *c);
const char *sdt_cache__root(const struct sdt_cache *c);
int sdt_cache__entries(struct sdt_cache *c, struct sdt_cache_entries **out);
size_t sdt_cache_entries__count(const struct sdt_cache_entries *l);
const struct sdt_cache_entry *sdt_cache_entries__entry(const struct sdt_cache_entries *l,
						      size_t i);
void sdt_cache_entries__free(struct sdt_cache_entries *l);
const char *sdt_cache_entry__build_id(const struct sdt_cache_entry *e);
const char *sdt_cache_entry__path(const struct sdt_cache_entry *e);
size_t sdt_cache_entry__event_count(const struct sdt_cache_entry *e);
size_t sdt_cache_entry__site_count(const struct sdt_cache_entry *e);
int sdt_cache__event_names(struct sdt_cache *c, char ***names, size_t *n);
void sdt_cache_names__free(char **names, size_t n);
"""

ffi = FFI()
ffi.cdef(CDEF)
LIBRARY = os.environ.get("SDTRACE_LIBRARY") or "libsdtrace.so.0"
lib = ffi.dlopen(LIBRARY)
