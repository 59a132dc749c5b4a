/* SPDX-License-Identifier: MIT */
/*
 * Latency between pairs of probes: which events open and close a pair, the open pairs of every
 * thread, and per pair the count, min, max, sum and a histogram of the durations. No printing:
 * `sdtrace report --latency` and `--format=chrome` are built on it, from the events of a reader
 * or a decoder (sdtrace/trace.h) in time order.
 *
 * Pairs. Without explicit pairs, the naming conventions decide: an event whose name ends in
 * `__start`, `__begin`, `__entry`, `__startup`, `_start`, `_begin`, `_send` or `_pre` opens, one
 * ending in `__done`, `__end`, `__return`, `__shutdown`, `_end`, `_complete`, `_recv`, `_done` or
 * `_post` closes, the pair of the same provider and stem (the name without its suffix, the
 * longest suffix taken): job__start/job__done, gc__begin/gc__end, function__entry/function__return,
 * request__startup/request__shutdown, read_start/read_end, req_send/req_recv (or req_done) and
 * save_pre/save_post pair up. An auto pair counts only once both sides have been described
 * (an event whose partner was not recorded stays a plain event). With sdt_latency__add_pair()
 * (`--pair START,END`, event specs, globs allowed) only the explicit pairs count.
 *
 * Threads. A start is pushed on its thread's stack; an end takes the most recent open start of
 * its pair on the same thread (a stack per thread and pair, so nesting and recursion pair
 * correctly). Between pairs, ends may cross: A opens, B opens, A ends; the step then lists the
 * entries above A (B) so that a timeline writer can end and begin them again around A's end and
 * keep slices properly nested. An end with no open start is counted (unmatched end); starts still
 * open at the end are counted by sdt_latency__finish() (unmatched starts). A thread's stack holds
 * at most SDT_LATENCY_MAX_DEPTH entries: a start beyond it is counted as unmatched and not pushed.
 *
 * Histogram and precision. Durations are counted in nanoseconds in a log-linear histogram (as
 * HdrHistogram does): values below 2^SDT_LATENCY_SUB_BITS are counted exactly, and every power of
 * two above is cut in 2^(SDT_LATENCY_SUB_BITS-1) equal buckets. A percentile (nearest rank: the
 * smallest recorded value with at least p% of the values at or below it) is reported as the
 * middle of its bucket, clamped to [min, max]: exact below 128 ns, otherwise within 1/128 (0.8%)
 * of the exact value. count, min, max, sum and the log2 buckets are exact.
 *
 * Memory: per thread its open starts, per pair a histogram (30 KiB); nothing per event.
 *
 * Lifetimes: names and steps returned are borrowed until the next call that changes @l, or
 * sdt_latency__free().
 *
 * Example:
 *	struct sdt_latency *l;
 *	struct sdt_latency_step st;
 *	struct sdt_latency_stats s;
 *	if (sdt_latency__new(&l) < 0)
 *		errx(1, "%s", sdt_errmsg());
 *	sdt_latency__event(l, "app", "job__start", 1, 1, 1000, &st);
 *	sdt_latency__event(l, "app", "job__done", 1, 1, 1500, &st);
 *	sdt_latency__finish(l, NULL, NULL);
 *	sdt_latency__stats(l, st.pair, &s);
 *	printf("%s: %llu pair(s), max %llu ns\n", sdt_latency__pair_name(l, st.pair),
 *	       (unsigned long long)s.count, (unsigned long long)s.max_ns);
 *	sdt_latency__free(l);
 */
#ifndef SDTRACE_LATENCY_H
#define SDTRACE_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sdtrace/common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SDT_LATENCY_SUB_BITS  7
#define SDT_LATENCY_MAX_DEPTH 65536
/* log2 buckets: 0 holds the value 0, bucket b >= 1 holds [2^(b-1), 2^b) */
#define SDT_LATENCY_LOG2_BUCKETS 65

struct sdt_latency;

enum sdt_latency_role {
	SDT_LATENCY_NONE = 0,  /* not part of a pair */
	SDT_LATENCY_START,     /* opened a pair (pushed) */
	SDT_LATENCY_END,       /* closed the pair opened at ->start_ns */
	SDT_LATENCY_UNMATCHED, /* an end with no open start, or a start too deep: counted */
};

/* An open start on a thread's stack. */
struct sdt_latency_open {
	size_t pair;
	uint64_t start_ns;
	uint64_t tag;	   /* as the start's sdt_latency_event_opts gave it */
	uint64_t key_hash; /* its key's (when keyed) */
	bool keyed;
	uint8_t verdict; /* enum sdt_latency_verdict */
};

/* What one event did. */
struct sdt_latency_step {
	enum sdt_latency_role role;
	bool is_end;	      /* UNMATCHED: an end (else a start that was too deep) */
	size_t pair;	      /* for every role but NONE */
	uint64_t start_ns;    /* END: when the pair opened */
	uint64_t duration_ns; /* END */
	/*
	 * END: the entries that were above the matched start on the thread's stack, bottom to top
	 * (pairs crossing this one), still open; 0 when the pair nested properly.
	 */
	const struct sdt_latency_open *crossed;
	size_t ncrossed;
	uint64_t start_tag; /* END: the start's tag */
	bool skipped;	    /* END: not counted, as the verdicts said */
	bool key_mismatch;  /* END, UNMATCHED end: the pair's most recent start had another key */
};

/* The numbers of one pair. Percentiles as described above. */
struct sdt_latency_stats {
	uint64_t count; /* matched pairs */
	uint64_t min_ns, max_ns;
	double avg_ns;
	uint64_t p50_ns, p90_ns, p99_ns;
	uint64_t unmatched_starts; /* still open at the end (after finish), or too deep */
	uint64_t unmatched_ends;   /* ends with no open start */
	uint64_t key_mismatches;   /* keyed ends whose pair's most recent start had another key */
	uint64_t skipped;	   /* pairs matched but not counted (their verdicts) */
};

SDT_API int sdt_latency__new(struct sdt_latency **out);
/* Accepts NULL. */
SDT_API void sdt_latency__free(struct sdt_latency *l);

/*
 * An explicit pair of event specs (see sdtrace/spec.h): 0, or -EINVAL (a bad spec, message in
 * sdt_errmsg()) / -ENOMEM. Once one is added, naming conventions no longer apply.
 */
SDT_API int sdt_latency__add_pair(struct sdt_latency *l, const char *start_spec,
				  const char *end_spec);

/*
 * A pair of differently named events of one provider, as a provider file states it (`@sdtrace
 * pair:`): provider:start opens it, provider:end closes it, ahead of the naming conventions.
 * Several ends of one start close the same pair; an event has one role. The pair is named by
 * the names' common prefix up to a `_` (rpc_client_msg_tx_queue, rpc_client_msg_rx:
 * provider:rpc_client_msg). Kinds described before take the rule too. Ignored once explicit
 * pairs are added. 0, or -EINVAL (an event that already has another role, an end equal to its
 * start) / -ENOMEM, message in sdt_errmsg().
 */
SDT_API int sdt_latency__add_rule(struct sdt_latency *l, const char *provider, const char *start,
				  const char *end);

/* Describe an event kind (before its first event). Kinds already described are ignored. */
SDT_API int sdt_latency__add_kind(struct sdt_latency *l, const char *provider, const char *name);

/*
 * What provider:name does (described first if it was not): SDT_LATENCY_START or _END of the
 * pair *@pair, when that pair counts (sdt_latency__pair_active(): so describe every kind
 * first), else SDT_LATENCY_NONE (also on ENOMEM).
 */
SDT_API enum sdt_latency_role sdt_latency__kind_role(struct sdt_latency *l, const char *provider,
						     const char *name, size_t *pair);

/*
 * Feed one event, in time order within its thread. Returns 0 and *step, or -ENOMEM. An event of
 * a kind not described is described first.
 */
SDT_API int sdt_latency__event(struct sdt_latency *l, const char *provider, const char *name,
			       unsigned int pid, unsigned int tid, uint64_t time_ns,
			       struct sdt_latency_step *step);

/*
 * The same with options. @key (@key_len bytes, when @keyed): a keyed end takes the most recent
 * open start of its pair on the thread with an equal key (compared by a 64-bit hash), passing
 * over starts of other keys, each such end counted as a key mismatch (never paired silently); a
 * keyed end with no such start is unmatched. A start or an end without a key pairs as without
 * keys. @tag is handed back with the start's end
 * (step->start_tag), for the caller's own data about the start. @verdict, what a filter said of
 * the event: it is paired as usual in every case, and the pair counts only when neither side is
 * SKIP and not both are FOLLOW (step->skipped otherwise); unmatched starts and ends count only
 * when COUNT.
 */
enum sdt_latency_verdict {
	SDT_LATENCY_COUNT = 0, /* counts (no filter, or it passed) */
	SDT_LATENCY_SKIP,      /* the filter failed: the pair does not count */
	SDT_LATENCY_FOLLOW,    /* the filter could not be applied: as the other side says */
};
struct sdt_latency_event_opts {
	size_t sz;
	bool keyed;
	const void *key;
	size_t key_len;
	uint64_t tag;
	enum sdt_latency_verdict verdict;
};
SDT_API int sdt_latency__event_opts(struct sdt_latency *l, const char *provider, const char *name,
				    unsigned int pid, unsigned int tid, uint64_t time_ns,
				    const struct sdt_latency_event_opts *opts,
				    struct sdt_latency_step *step);

/*
 * The end: every start still open is counted as unmatched and, when @cb is not NULL, passed to
 * it, thread by thread, the most recent first (so that a timeline can close them properly
 * nested). Returns 0, or the first non-zero value @cb returned.
 */
SDT_API int sdt_latency__finish(struct sdt_latency *l,
				int (*cb)(void *ctx, unsigned int pid, unsigned int tid,
					  const struct sdt_latency_open *o),
				void *ctx);

/*
 * How many starts are open on thread @tid (as its events were fed: 0 for every thread when they
 * were fed as pid 0, tid 0): after a start, its depth + 1 (0: outermost); after an end, the
 * depth of the matched start + step->ncrossed. 0 for a thread never seen.
 */
SDT_API size_t sdt_latency__depth(const struct sdt_latency *l, unsigned int tid);

/* Pairs, in the order they were created: explicit in order given, auto as first described. */
SDT_API size_t sdt_latency__pair_count(const struct sdt_latency *l);
/* Whether the pair counts (an explicit one, or an auto one with both sides described). */
SDT_API bool sdt_latency__pair_active(const struct sdt_latency *l, size_t pair);
/* "provider:stem" (auto) or "START,END" as given (explicit). */
SDT_API const char *sdt_latency__pair_name(const struct sdt_latency *l, size_t pair);
/* The start and end events: "provider:name" of the first kind described, or the spec given. */
SDT_API const char *sdt_latency__pair_start(const struct sdt_latency *l, size_t pair);
SDT_API const char *sdt_latency__pair_end(const struct sdt_latency *l, size_t pair);
SDT_API void sdt_latency__stats(const struct sdt_latency *l, size_t pair,
				struct sdt_latency_stats *out);
/* Any percentile (0 < p <= 100), as described above; 0 when the pair has no duration. */
SDT_API uint64_t sdt_latency__percentile(const struct sdt_latency *l, size_t pair, double p);
/* Count of durations in log2 bucket @b (see SDT_LATENCY_LOG2_BUCKETS); exact. */
SDT_API uint64_t sdt_latency__log2(const struct sdt_latency *l, size_t pair, unsigned int b);

#ifdef __cplusplus
}
#endif

#endif
