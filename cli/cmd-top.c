/* SPDX-License-Identifier: MIT */
/*
 * sdtrace top: a full-screen live view of the rate of each event, counted in the kernel as
 * `sdtrace stat` counts (count_only: no ring buffer, no sample per hit), redrawn every
 * --interval.
 *
 * The terminal is driven with plain escape sequences (ECMA-48 / xterm: CUP, EL, ED, SGR 7, the
 * alternate screen 1049, cursor 25), not ncurses: a frame is a dozen lines placed and cleared,
 * which every terminal emulator in use understands, and ncurses would add a dependency (and its
 * terminfo lookups, its own SIGWINCH and SIGTSTP handlers beside the recorder's) for none of its
 * strengths. The size is asked with TIOCGWINSZ at each tick, so no SIGWINCH handler is needed.
 *
 * Time: the recorder's drain tick (on_drained, drain_interval_ms) is the clock. It runs every
 * ~100 ms: at each tick the keys are read and the size checked (so `q` and a resize take effect
 * within a tenth of a second), and every --interval the counters become a new frame.
 *
 * Keys: stdin's terminal in non-canonical mode without echo, read without waiting at each tick
 * (VMIN 0, VTIME 0; never O_NONBLOCK, which the shell's open file would keep). ISIG stays on,
 * so Ctrl-C is the SIGINT of the terminal's foreground group, which the recorder's handlers
 * turn into a stop (a command gets it too, as with stat); Ctrl-Z and Ctrl-\ are disabled
 * (VSUSP, VQUIT), since a stopped or dumped top would leave the terminal raw and the probes
 * armed. A command's stdin is /dev/null: the keys are top's.
 *
 * Restoring: termios, the cursor and the main screen are given back on every path (the end of
 * the command or the processes, --duration, q, Ctrl-C, SIGTERM, SIGHUP, an error), before any
 * message is printed, and by an atexit() handler should anything exit() meanwhile. The last
 * frame is then printed as plain text on the main screen, so that what was seen stays.
 * stdout that is not a terminal is refused: `sdtrace stat --interval` prints the same counts as
 * lines, for a file or a pipe.
 *
 * --per-process (BCC ustat's question): a row per process, a column per category, the
 * `@sdtrace category:` note of each event's provider file (method, gc, objnew, ...). The hits
 * are counted in the kernel as `stat --by pid` counts them (the same stat_agg, the key `pid`):
 * a column is the sum of its events' rows, so the two are one answer. The kernel's rows are
 * read at every tick, so that a process is named (/proc/PID/comm) while it still runs; the
 * rates are taken every --interval. --json prints each interval as a line of JSON instead of
 * the screen (any stdout), then the totals at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "json.h"
#include "record-setup.h"
#include "stat-agg.h"
#include "stat-rows.h"
#include "top-screen.h"

static const char top_usage[] =
    "usage: sdtrace top -e SPEC [-e SPEC]... [-x PATH] [-I MS] [-n N] [options] -- CMD [ARGS...]\n"
    "       sdtrace top -e SPEC... -p PID[,PID...] | -a [--duration SECS]\n"
    "\n"
    "A full-screen live view of how often each event fires: per event the rate per second\n"
    "and the hits of the last interval and the total, highest rate first, counted in the kernel\n"
    "as stat counts. Keys: q quits, s changes the order (rate, total, name); Ctrl-C quits too.\n"
    "It ends with the command (or the processes, or --duration), printing the last frame.\n"
    "Standard output must be a terminal (for lines: sdtrace stat --interval).\n"
    "\n"
    "  -I, --interval MS     redraw every MS milliseconds (100 to 3600000; default 1000)\n"
    "  -n, --top N           show at most N events (default: as many as the terminal fits)\n"
    "      --by ARGS         also the keys: hits per value of these arguments (as stat --by,\n"
    "                        counted in the kernel by the BPF engine), most first\n"
    "      --per-process     a row per process, a column per category of the provider files'\n"
    "                        `@sdtrace category:` notes (method, gc, objnew, cload, excp,\n"
    "                        thread: BCC ustat's), each its rate; busiest first (as stat --by\n"
    "                        pid counts, the BPF engine)\n"
    "      --json            with --per-process: a line of JSON per interval, then the totals,\n"
    "                        on any standard output (no screen, no keys)\n"
    "%s"
    "With q the exit status is 0 (the command is sent SIGTERM).\n"
    "\n"
    "examples:\n"
    "  sdtrace top -e '%%python:*' -- python3 script.py\n"
    "  sdtrace top -e '%%postgresql:*' -p $(pgrep -d, postgres) -n 10\n"
    "  sdtrace top --by query -e '%%postgresql:query__start' -p $(pgrep -d, postgres)\n"
    "  sdtrace top -e '%%postgresql:query__*' -a --interval 2000 --duration 60\n"
    "  sdtrace top --per-process -e '%%python:*' -e '%%ruby:*' -a   # BCC's ustat\n";

/* The terminal as top found it, to give back (static: the atexit handler needs it). */
static struct {
	int keys;	     /* stdin's terminal (a close-on-exec dup), or -1 */
	bool stdin_swapped;  /* fd 0 is /dev/null, @keys the real one */
	bool raw;	     /* @saved to restore */
	struct termios saved;
	bool screen;	     /* on the alternate screen */
	bool atexit_set;
} term = {.keys = -1};

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Everything term_keys_take() and term_screen_enter() changed, given back; again: nothing. */
static void term_restore(void)
{
	if (term.screen) {
		/* the attributes reset, the main screen back, the cursor shown */
		(void)write_all(STDOUT_FILENO, "\033[0m\033[?1049l\033[?25h", 18);
		term.screen = false;
	}
	if (term.raw) {
		tcsetattr(term.keys, TCSADRAIN, &term.saved);
		term.raw = false;
	}
	if (term.stdin_swapped) {
		dup2(term.keys, STDIN_FILENO);
		term.stdin_swapped = false;
	}
	if (term.keys >= 0) {
		close(term.keys);
		term.keys = -1;
	}
}

/*
 * Before the run (the command is forked in it): stdin's terminal kept for the keys, in
 * non-canonical mode, and /dev/null as fd 0 for the command. stdin that is not a terminal is
 * left alone (then only Ctrl-C and the end stop top). 0, or an exit code after the message.
 */
static int term_keys_take(void)
{
	struct termios raw;
	int null_fd;

	if (!term.atexit_set) {
		atexit(term_restore);
		term.atexit_set = true;
	}
	if (!isatty(STDIN_FILENO))
		return 0;
	term.keys = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
	if (term.keys < 0 || tcgetattr(term.keys, &term.saved)) {
		cli_error("cannot set up the terminal: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	raw = term.saved;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	raw.c_cc[VSUSP] = _POSIX_VDISABLE;
	raw.c_cc[VQUIT] = _POSIX_VDISABLE;
	if (tcsetattr(term.keys, TCSANOW, &raw)) {
		cli_error("cannot set up the terminal: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	term.raw = true;
	null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null_fd < 0 || dup2(null_fd, STDIN_FILENO) < 0) {
		cli_error("cannot open /dev/null: %s", strerror(errno));
		if (null_fd >= 0)
			close(null_fd);
		return EXIT_RUNTIME;
	}
	close(null_fd);
	term.stdin_swapped = true;
	return 0;
}

static int term_screen_enter(void)
{
	/* the alternate screen, cleared, the cursor hidden */
	int err = write_all(STDOUT_FILENO, "\033[?1049h\033[H\033[2J\033[?25l", 22);

	term.screen = !err;
	return err;
}

/* The keys typed since the last tick, into @buf; how many (0 when none or no terminal). */
static size_t term_keys_read(char *buf, size_t size)
{
	struct pollfd p = {.fd = term.keys, .events = POLLIN};
	ssize_t n;

	if (term.keys < 0 || poll(&p, 1, 0) != 1 || !(p.revents & POLLIN))
		return 0;
	n = read(term.keys, buf, size);
	return n > 0 ? (size_t)n : 0;
}

struct top_args {
	unsigned long interval_ms;
	unsigned long max_rows;
	unsigned int tick_ms; /* the drain tick */
	struct stat_agg_args agg; /* --by */
	bool per_process;	  /* --per-process */
	bool json;		  /* --json */
};

struct top_ctx {
	struct stat_names names;
	struct sdt_recorder *rec;
	const struct top_args *args;
	char *target;
	const char *engine;
	uint64_t armed_ns, frame_ns;
	struct stat_row *srows; /* the counters, per provider:event (stat-rows.h) */
	uint64_t *prev;		/* per row of @srows, the total at the last frame */
	struct top_row *rows;	/* what is shown, sorted */
	size_t nrows;
	double rate;
	enum top_sort sort;
	unsigned width, height;
	bool quit; /* q */
	int err;   /* -errno: a frame could not be drawn (said at the end) */
	struct stat_agg *agg; /* --by, or NULL */
	struct top_key *keys; /* its rows, most hits first, as the last frame showed them */
	char **key_text;
	size_t nkeys;
	/* --per-process */
	const struct sdt_types *types;
	const char *cats[TOP_MAX_CATS]; /* the columns, borrowed from @types */
	size_t ncats;
	int *ev_cat;  /* per recorder event: its column, -1 none, -2 not looked up */
	size_t nev;
	struct top_proc *procs;
	size_t nprocs, procs_cap;
	uint64_t ticks;	 /* JSON intervals written */
	uint64_t frames; /* intervals taken */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The terminal's size now; false when it did not change. */
static bool size_changed(struct top_ctx *c)
{
	struct winsize ws;
	unsigned w = 80, h = 24;

	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col && ws.ws_row) {
		w = ws.ws_col;
		h = ws.ws_row;
	}
	if (w == c->width && h == c->height)
		return false;
	c->width = w;
	c->height = h;
	return true;
}

/* A new interval: the counters read, each row's hits since the last one and its rate. */
static void take_interval(struct top_ctx *c, uint64_t now)
{
	uint64_t span = now - c->frame_ns;
	size_t i, n = stat_rows_collect(&c->names, c->rec, c->srows);

	c->frame_ns = now;
	c->nrows = n;
	c->rate = 0;
	for (i = 0; i < n; i++) {
		uint64_t d = c->srows[i].count - c->prev[i];

		c->prev[i] = c->srows[i].count;
		c->rows[i].provider = c->srows[i].provider;
		c->rows[i].name = c->srows[i].name;
		c->rows[i].count = d;
		c->rows[i].total = c->srows[i].count;
		c->rows[i].rate = span ? (double)d * 1e9 / (double)span : 0;
		c->rate += c->rows[i].rate;
	}
	top_rows_sort(c->rows, n, c->sort);
}

static void header(const struct top_ctx *c, struct top_header *h, const char *status)
{
	*h = (struct top_header){
	    .target = c->target,
	    .engine = c->engine,
	    .elapsed_s = (double)(c->frame_ns - c->armed_ns) / 1e9,
	    .rate = c->rate,
	    .lost = sdt_recorder__lost(c->rec),
	    .sort = c->sort,
	    .status = status,
	};
}

static int cmp_key(const void *a, const void *b)
{
	const struct top_key *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->text, y->text);
}

/* --by: the kernel's rows (read at this drain) as top's key lines, "%p:e  a=1 b=x", sorted. */
static void take_keys(struct top_ctx *c)
{
	size_t i, p, n = sdt_recorder__agg_count(c->rec), nby;
	const char *const *by;
	char val[160];

	for (i = 0; i < c->nkeys; i++)
		free(c->key_text[i]);
	c->nkeys = 0;
	if (!c->agg || !n)
		return;
	by = stat_agg_by(c->agg, &nby);
	free(c->keys);
	free(c->key_text);
	c->keys = calloc(n, sizeof(*c->keys));
	c->key_text = calloc(n, sizeof(*c->key_text));
	if (!c->keys || !c->key_text) {
		c->err = -ENOMEM;
		return;
	}
	for (i = 0; i < n; i++) {
		const struct sdt_agg_row *r = sdt_recorder__agg_row(c->rec, i);
		const struct sdt_trace_event_desc *d = sdt_recorder__event(c->rec, r->event);
		char *t = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&t, &len);

		if (!fp) {
			c->err = -ENOMEM;
			return;
		}
		fputc('%', fp);
		cli_put_escaped(fp, d ? sdt_trace_event_desc__provider(d) : "?");
		fputc(':', fp);
		cli_put_escaped(fp, d ? sdt_trace_event_desc__name(d) : "?");
		fputc(' ', fp);
		for (p = 0; p < r->nvalues && p < nby; p++) {
			fprintf(fp, " %s=", by[p]);
			cli_put_escaped(fp, stat_agg_value_text(&r->values[p], val, sizeof(val)));
		}
		if (!r->nvalues)
			fputs(" (without the --by names)", fp);
		if (fclose(fp)) {
			free(t);
			c->err = -ENOMEM;
			return;
		}
		c->key_text[c->nkeys] = t;
		c->keys[c->nkeys] = (struct top_key){t, r->count};
		c->nkeys++;
	}
	if (c->nkeys > 1) /* qsort(NULL, 0) is undefined */
		qsort(c->keys, c->nkeys, sizeof(*c->keys), cmp_key);
}

/* The order of ustat's columns; other categories follow in the order met. */
static const char *const known_cats[] = {"method", "gc", "objnew", "cload", "excp", "thread"};

static size_t cat_rank(const char *cat)
{
	size_t i;

	for (i = 0; i < sizeof(known_cats) / sizeof(known_cats[0]); i++)
		if (!strcmp(cat, known_cats[i]))
			return i;
	return SIZE_MAX;
}

/* The category of event @e: the last `category` note (a probe's own after its provider's). */
static const char *event_cat(const struct top_ctx *c, uint32_t e)
{
	const struct sdt_trace_event_desc *d = sdt_recorder__event(c->rec, e);
	const char *prov, *name, *key, *text, *cat = NULL;
	size_t i;

	if (!d || !c->types)
		return NULL;
	prov = sdt_trace_event_desc__provider(d);
	name = sdt_trace_event_desc__name(d);
	for (i = 0; !sdt_types__note(c->types, prov, name, i, &key, &text); i++)
		if (!strcmp(key, "category"))
			cat = text;
	return cat;
}

/* The column of event @e (a new category is a new column, in ustat's order); -1: none. */
static int event_col(struct top_ctx *c, uint32_t e)
{
	const char *cat;
	size_t k, r;

	if (e >= c->nev) {
		size_t n = e + 1;
		int *v = realloc(c->ev_cat, n * sizeof(*v));

		if (!v) {
			c->err = -ENOMEM;
			return -1;
		}
		for (k = c->nev; k < n; k++)
			v[k] = -2;
		c->ev_cat = v;
		c->nev = n;
	}
	if (c->ev_cat[e] != -2)
		return c->ev_cat[e];
	c->ev_cat[e] = -1;
	cat = event_cat(c, e);
	if (!cat)
		return -1;
	for (k = 0; k < c->ncats; k++)
		if (!strcmp(c->cats[k], cat))
			return c->ev_cat[e] = (int)k;
	if (c->ncats == TOP_MAX_CATS)
		return -1;
	/* before the first column of a later rank (an unknown category goes last) */
	r = cat_rank(cat);
	for (k = 0; k < c->ncats && cat_rank(c->cats[k]) <= r; k++)
		;
	if (c->nprocs && k < c->ncats) /* the rows have columns already: at the end */
		k = c->ncats;
	memmove(&c->cats[k + 1], &c->cats[k], (c->ncats - k) * sizeof(c->cats[0]));
	c->cats[k] = cat;
	c->ncats++;
	for (r = 0; r < c->nev; r++)
		if (c->ev_cat[r] >= (int)k)
			c->ev_cat[r]++;
	return c->ev_cat[e] = (int)k;
}

/* Every event described so far has its column: the columns in order before any row. */
static void cols_learn(struct top_ctx *c)
{
	size_t e, n = sdt_recorder__event_count(c->rec);

	for (e = 0; e < n; e++)
		event_col(c, (uint32_t)e);
}

static struct top_proc *proc_get(struct top_ctx *c, int pid)
{
	struct top_proc *p;
	char path[64];
	size_t i, len;
	FILE *f;

	for (i = 0; i < c->nprocs; i++)
		if (c->procs[i].pid == pid)
			return &c->procs[i];
	if (c->nprocs == c->procs_cap) {
		size_t cap = c->procs_cap ? c->procs_cap * 2 : 16;

		p = realloc(c->procs, cap * sizeof(*p));
		if (!p)
			return NULL;
		c->procs = p;
		c->procs_cap = cap;
	}
	p = &c->procs[c->nprocs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	strcpy(p->comm, "?");
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(p->comm, sizeof(p->comm), f)) {
			len = strcspn(p->comm, "\n");
			p->comm[len] = '\0';
		}
		fclose(f);
		if (!p->comm[0])
			strcpy(p->comm, "?");
	}
	return p;
}

/* --per-process: the kernel's rows (read by the caller) as each process's totals per column. */
static void procs_sync(struct top_ctx *c)
{
	size_t i, k, n = sdt_recorder__agg_count(c->rec);

	for (i = 0; i < c->nprocs; i++)
		memset(c->procs[i].total, 0, sizeof(c->procs[i].total));
	for (i = 0; i < n; i++) {
		const struct sdt_agg_row *r = sdt_recorder__agg_row(c->rec, i);
		struct top_proc *p;
		int col;

		if (!r || r->is_pair || r->nvalues < 1)
			continue;
		col = event_col(c, r->event);
		if (col < 0)
			continue;
		p = proc_get(c, (int)r->values[0].i);
		if (!p) {
			c->err = -ENOMEM;
			return;
		}
		p->total[col] += r->count;
	}
	for (i = 0; i < c->nprocs; i++) {
		c->procs[i].all = 0;
		for (k = 0; k < c->ncats; k++)
			c->procs[i].all += c->procs[i].total[k];
	}
}

/* --per-process: a new interval of @span ns: each process's hits since the last, their rates. */
static void procs_interval(struct top_ctx *c, uint64_t span)
{
	size_t i, k;

	c->frames++;
	c->rate = 0;
	for (i = 0; i < c->nprocs; i++) {
		struct top_proc *p = &c->procs[i];

		p->busy = 0;
		for (k = 0; k < c->ncats; k++) {
			p->count[k] = p->total[k] - p->prev[k];
			p->prev[k] = p->total[k];
			p->rate[k] = span ? (double)p->count[k] * 1e9 / (double)span : 0;
			p->busy += p->rate[k];
		}
		c->rate += p->busy;
	}
	top_procs_sort(c->procs, c->nprocs);
}

/* {"method": V, ...} of one process: its counts, rates or totals. */
static void json_cats(struct json *j, const struct top_ctx *c, const char *key,
		      const uint64_t *u, const double *d)
{
	size_t k;

	json_key(j, key);
	json_begin_object(j);
	for (k = 0; k < c->ncats; k++) {
		json_key(j, c->cats[k]);
		if (u)
			json_uint(j, u[k]);
		else
			json_double(j, d[k]);
	}
	json_end_object(j);
}

/*
 * --per-process --json: one line, {"interval" (or "final": true), "elapsed_s", "interval_s",
 * "categories", "processes": [{"pid", "comm", "count", "rate", "total"}]}; the final line
 * adds "lost" and "exit_status".
 */
static void procs_json(struct top_ctx *c, double elapsed_s, double interval_s, bool final,
		       int status)
{
	struct json j;
	size_t i, k;

	json_init(&j, stdout, false);
	json_begin_object(&j);
	if (final) {
		json_key(&j, "final");
		json_bool(&j, true);
	} else {
		json_key(&j, "interval");
		json_uint(&j, ++c->ticks);
	}
	json_key(&j, "elapsed_s");
	json_double(&j, elapsed_s);
	json_key(&j, "interval_s");
	json_double(&j, interval_s);
	json_key(&j, "categories");
	json_begin_array(&j);
	for (k = 0; k < c->ncats; k++)
		json_string(&j, c->cats[k]);
	json_end_array(&j);
	json_key(&j, "processes");
	json_begin_array(&j);
	for (i = 0; i < c->nprocs; i++) {
		const struct top_proc *p = &c->procs[i];

		json_begin_object(&j);
		json_key(&j, "pid");
		json_int(&j, p->pid);
		json_key(&j, "comm");
		json_string(&j, p->comm);
		json_cats(&j, c, "count", p->count, NULL);
		json_cats(&j, c, "rate", NULL, p->rate);
		json_cats(&j, c, "total", p->total, NULL);
		json_end_object(&j);
	}
	json_end_array(&j);
	if (final) {
		json_key(&j, "lost");
		json_uint(&j, sdt_recorder__lost(c->rec));
		rec_json_exit_status(&j, status);
	}
	json_end_object(&j);
	json_newline(&j);
	fflush(stdout);
}

/* The frame, drawn whole with one write(). */
static void draw(struct top_ctx *c)
{
	struct top_header h;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	int err;

	if (c->err || c->args->json) /* --json: lines, no screen */
		return;
	fp = open_memstream(&buf, &len);
	if (!fp) {
		c->err = -ENOMEM;
		sdt_recorder__stop(c->rec);
		return;
	}
	if (c->args->per_process) {
		header(c, &h, term.keys >= 0 ? "q quit" : "Ctrl-C quits");
		top_render_procs(fp, &h, c->procs, c->nprocs, c->cats, c->ncats,
				 c->args->max_rows, c->width, c->height, true);
	} else {
		header(c, &h, term.keys >= 0 ? "q quit  s sort" : "Ctrl-C quits");
		/* --by: the keys under the events, most hits first (totals since armed) */
		top_render(fp, &h, c->rows, c->nrows, c->args->max_rows,
			   c->agg ? c->args->agg.by : NULL, c->keys, c->nkeys, c->width,
			   c->height, true);
	}
	if (fclose(fp)) {
		free(buf);
		c->err = -ENOMEM;
		sdt_recorder__stop(c->rec);
		return;
	}
	err = write_all(STDOUT_FILENO, buf, len);
	free(buf);
	if (err) { /* the terminal is gone (a hangup comes as SIGHUP too) */
		c->err = err;
		sdt_recorder__stop(c->rec);
	}
}

static int on_event_desc(void *ctx, const struct sdt_trace_event_desc *d)
{
	struct top_ctx *c = ctx;

	return stat_names_add(&c->names, d);
}

/* Every probe is armed: the names are known (the rows are fixed), the screen starts. */
static void on_armed(void *ctx)
{
	struct top_ctx *c = ctx;
	size_t n = c->names.n ? c->names.n : 1;

	c->armed_ns = c->frame_ns = mono_ns();
	c->engine = sdt_recorder__engine(c->rec);
	c->srows = calloc(n, sizeof(*c->srows));
	c->prev = calloc(n, sizeof(*c->prev));
	c->rows = calloc(n, sizeof(*c->rows));
	if (!c->srows || !c->prev || !c->rows) {
		c->err = -ENOMEM;
		sdt_recorder__stop(c->rec);
		return;
	}
	if (c->args->per_process)
		cols_learn(c);
	if (c->args->json)
		return; /* no screen: a line per interval */
	c->err = term_screen_enter();
	if (c->err) {
		sdt_recorder__stop(c->rec);
		return;
	}
	take_interval(c, c->frame_ns); /* the rows, at 0 */
	size_changed(c);
	draw(c);
}

/* Each drain tick (~100 ms): the keys, the size, and every --interval a new frame. */
static void on_tick(void *ctx)
{
	struct top_ctx *c = ctx;
	uint64_t now = mono_ns(), interval_ns = c->args->interval_ms * 1000000u;
	bool redraw = false;
	char keys[64];
	size_t i, n;

	if (!c->armed_ns || c->err || c->quit)
		return;
	if (c->args->per_process) {
		/* every tick: a new process is named while it runs */
		c->err = sdt_recorder__agg_refresh(c->rec);
		if (!c->err)
			procs_sync(c);
		if (c->err) {
			sdt_recorder__stop(c->rec);
			return;
		}
	}
	n = term_keys_read(keys, sizeof(keys));
	for (i = 0; i < n; i++) {
		switch (keys[i]) {
		case 'q':
		case 'Q':
		case 3: /* Ctrl-C, should the terminal not make it a SIGINT */
			c->quit = true;
			sdt_recorder__stop(c->rec);
			return;
		case 's':
		case 'S':
			c->sort = (c->sort + 1) % TOP_SORT_COUNT_;
			top_rows_sort(c->rows, c->nrows, c->sort);
			redraw = true;
			break;
		case 12: /* Ctrl-L */
			c->width = 0;
			break;
		default:
			break;
		}
	}
	if (size_changed(c))
		redraw = true;
	/* half a tick early rather than a whole tick late */
	if (now - c->frame_ns + c->args->tick_ms * 500000u >= interval_ns &&
	    c->args->per_process) {
		uint64_t span = now - c->frame_ns;

		c->frame_ns = now;
		procs_interval(c, span);
		if (c->args->json) {
			procs_json(c, (double)(now - c->armed_ns) / 1e9, (double)span / 1e9, false,
				   -1);
			return;
		}
		redraw = true;
	} else if (now - c->frame_ns + c->args->tick_ms * 500000u >= interval_ns) {
		take_interval(c, now);
		/* the kernel's rows, read only for a frame (a walk of its maps) */
		if (c->agg)
			c->err = sdt_recorder__agg_refresh(c->rec);
		take_keys(c);
		redraw = true;
	}
	if (redraw)
		draw(c);
}

/* "-- CMD ARGS", "-p PID,PID", "-a": what the header names. */
static char *target_text(const struct rec_setup *s)
{
	char *t = NULL, *p;
	size_t i;

	if (s->argv) {
		for (i = 0; s->argv[i]; i++) {
			p = t;
			if (asprintf(&t, "%s %s", p ? p : "--", s->argv[i]) < 0)
				t = NULL;
			free(p);
			if (!t)
				return NULL;
		}
		return t;
	}
	if (s->system_wide)
		return strdup("-a");
	for (i = 0; i < s->npids; i++) {
		p = t;
		if (asprintf(&t, "%s%d", p ? p : "-p ", (int)s->pids[i]) < 0)
			t = NULL;
		if (t && i + 1 < s->npids) {
			free(p);
			p = t;
			if (asprintf(&t, "%s,", p) < 0)
				t = NULL;
		}
		free(p);
		if (!t)
			return NULL;
	}
	return t;
}

static int top_option(void *ctx, int c, const char *arg)
{
	struct top_args *a = ctx;
	char *end;

	switch (c) {
	case 'I':
		a->interval_ms = strtoul(arg, &end, 10);
		if (*end || !*arg || *arg == '-' || a->interval_ms < 100 ||
		    a->interval_ms > 3600000)
			return cli_usage_error("top",
					       "--interval: '%s' is not a number of milliseconds "
					       "(100 to 3600000)",
					       arg);
		return 0;
	case 'B':
		a->agg.by = arg;
		return 0;
	case 'P':
		a->per_process = true;
		return 0;
	case 'J':
		a->json = true;
		return 0;
	case 'n':
		a->max_rows = strtoul(arg, &end, 10);
		if (*end || !*arg || *arg == '-' || !a->max_rows || a->max_rows > 100000)
			return cli_usage_error("top", "--top: '%s' is not a number of events (1 or more)",
					       arg);
		return 0;
	default:
		return cli_usage_error("top", "bad option");
	}
}

/* After the run, on the main screen: the last frame as plain lines, then stat's messages. */
static void summary(struct top_ctx *c, const struct rec_setup *s)
{
	struct top_header h;

	if (c->rows && c->args->per_process) { /* armed */
		uint64_t now = mono_ns(), span = now - c->frame_ns;

		/*
		 * The kernel's last rows. --json: the rest since the last line (the lines add up to
		 * the totals); the screen's last frame keeps the last whole interval's rates (the
		 * rest is a sliver, its rates noise), or takes the run's when it had none.
		 */
		procs_sync(c);
		if (c->args->json || !c->frames)
			procs_interval(c, c->args->json ? span : now - c->armed_ns);
		else
			top_procs_sort(c->procs, c->nprocs);
		if (c->args->json) {
			procs_json(c, (double)sdt_recorder__elapsed_ns(s->rec) / 1e9,
				   (double)span / 1e9, true, sdt_recorder__exit_status(s->rec));
		} else {
			header(c, &h, NULL);
			h.elapsed_s = (double)sdt_recorder__elapsed_ns(s->rec) / 1e9;
			top_render_procs(stdout, &h, c->procs, c->nprocs, c->cats, c->ncats, 0,
					 0, 0, false);
		}
		if (!c->ncats)
			fprintf(stderr, "sdtrace: no event probed has a `@sdtrace category:` note "
					"(the provider files' notes: sdtrace list -v)\n");
	} else if (c->rows) { /* armed */
		take_interval(c, mono_ns()); /* the rest since the last frame */
		take_keys(c);
		header(c, &h, NULL);
		h.elapsed_s = (double)sdt_recorder__elapsed_ns(s->rec) / 1e9;
		top_render(stdout, &h, c->rows, c->nrows, 0, c->agg ? c->args->agg.by : NULL, c->keys,
			   c->nkeys, 0, 0, false);
	}
	if (sdt_recorder__lost(s->rec))
		fprintf(stderr,
			"sdtrace: %llu hits were not counted (the ring buffers were full): the "
			"counts are low\n",
			(unsigned long long)sdt_recorder__lost(s->rec));
	rec_setup_print_late(s);
	if (!c->quit)
		rec_report_command(s, false);
	rec_report_silence(s);
}

int cmd_top(int argc, char **argv)
{
	static const struct option own[] = {
	    {"interval", required_argument, NULL, 'I'},
	    {"top", required_argument, NULL, 'n'},
	    {"by", required_argument, NULL, 'B'},
	    {"per-process", no_argument, NULL, 'P'},
	    {"json", no_argument, NULL, 'J'},
	    {NULL, 0, NULL, 0},
	};
	struct top_args args = {.interval_ms = 1000};
	const struct rec_command cmd = {"top", top_usage, "I:n:", own, top_option, &args};
	struct rec_setup s = {0};
	struct top_ctx c = {.args = &args};
	struct sdt_recorder_sink sink = {.ctx = &c,
					 .on_event_desc = on_event_desc,
					 .on_armed = on_armed,
					 .on_drained = on_tick};
	int ret;

	ret = rec_setup_parse(&s, &cmd, argc, argv);
	if (ret) {
		ret = ret == REC_HELP ? 0 : ret;
		goto out;
	}
	if (args.json && !args.per_process) {
		ret = cli_usage_error("top", "--json goes with --per-process (sdtrace stat "
					     "--interval --json prints the events' rates)");
		goto out;
	}
	if (args.per_process && args.agg.by) {
		ret = cli_usage_error("top", "--per-process and --by: one or the other (stat "
					     "--by pid,ARGS counts both)");
		goto out;
	}
	if (args.per_process)
		args.agg.by = "pid"; /* stat --by pid: one answer */
	/* before any probe is placed */
	if (!args.json && !isatty(STDOUT_FILENO)) {
		ret = cli_usage_error("top", "standard output is not a terminal (sdtrace stat "
					     "--interval prints the counts as lines)");
		goto out;
	}
	/* a tick of ~100 ms that divides the interval: keys and resizes are prompt */
	args.tick_ms = (unsigned int)(args.interval_ms / ((args.interval_ms + 99) / 100));
	s.drain_interval_ms = args.tick_ms;
	if (args.agg.by) { /* counted per key in the kernel (stat --by) */
		ret = stat_agg_new(&args.agg, NULL, &c.agg);
		if (ret)
			goto out;
		s.agg_for = stat_agg_for;
		s.agg_ctx = c.agg;
	}
	ret = rec_setup_finish(&s, argc, argv, true);
	if (ret)
		goto out;
	c.rec = s.rec;
	c.types = s.types;
	c.target = target_text(&s);
	if (!c.target) {
		cli_error("out of memory");
		ret = EXIT_RUNTIME;
		goto out;
	}
	ret = args.json ? 0 : term_keys_take();
	if (ret)
		goto out;
	if (sdt_recorder__run(s.rec, &sink)) {
		term_restore();
		if (!c.agg || !stat_agg_failed(c.agg))
			cli_error("%s", sdt_errmsg());
		ret = EXIT_RUNTIME;
		goto out;
	}
	term_restore();
	if (c.err) {
		cli_error("cannot draw on the terminal: %s", strerror(-c.err));
		ret = EXIT_RUNTIME;
		goto out;
	}
	summary(&c, &s);
	/* q: top was asked to end, which is no failure of the command's */
	if (c.quit)
		goto out;
	ret = rec_exit_code(&s, 0);
out:
	term_restore();
	stat_names_free(&c.names);
	for (size_t k = 0; k < c.nkeys; k++)
		free(c.key_text[k]);
	free(c.key_text);
	free(c.keys);
	stat_agg_free(c.agg);
	free(c.srows);
	free(c.prev);
	free(c.rows);
	free(c.target);
	free(c.ev_cat);
	free(c.procs);
	rec_setup_release(&s);
	return ret;
}
