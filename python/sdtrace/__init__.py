# SPDX-License-Identifier: MIT
"""sdtrace recordings, probes and cache, read through libsdtrace (libsdtrace.so.0).

    import sdtrace
    rec = sdtrace.Recording("sdtrace.data")
    for ev in rec:                        # every event, in file order
        print(ev.time_ns, ev.pid, ev.tid, ev.comm, ev.event, ev.args)
    df = rec.to_pandas()                  # one row per event, one column per argument, typed
    pairs = rec.latency()                 # the pairs of `sdtrace report --latency`, one a row
    sdtrace.probes("/usr/bin/python3.11") # the SDT probes of a binary
    sdtrace.cache_events()                # the events of the cache (sdtrace cache add)

A recording is read by the library's own reader (include/sdtrace/trace.h), never through JSON:
arguments come typed as the reader decodes them (int, float, str; None where the argument could
not be fetched). A corrupt recording raises sdtrace.Error with the library's message; a
recording cut short (a recorder killed) raises sdtrace.TruncatedError from to_pandas() and
latency() unless truncated=True is given, and iteration ends with Recording.truncated set.
"""
from ._lib import ffi, lib

__all__ = ["Error", "TruncatedError", "Event", "Recording", "probes", "cache_events",
           "cache_entries", "version"]

_INT = lib.SDT_VALUE_INT
_UINT = lib.SDT_VALUE_UINT
_FLOAT = lib.SDT_VALUE_FLOAT
_STRING = lib.SDT_VALUE_STRING
# The columns every event has, in to_pandas(); an argument of the same name gets "arg_" before it.
COLUMNS = ("time_ns", "cpu", "pid", "tid", "comm", "event", "stack_id")


class Error(Exception):
    """A libsdtrace failure: .errno (positive) and the library's message (sdt_errmsg())."""

    def __init__(self, err, message):
        super().__init__(message)
        self.errno = -err if err < 0 else err
        self.message = message


class TruncatedError(Error):
    """The recording stops before its end: .frame holds what was read, for a caller who wants it."""

    def __init__(self, message, frame=None):
        super().__init__(0, message)
        self.frame = frame


def _errmsg():
    m = lib.sdt_errmsg()
    return ffi.string(m).decode("utf-8", "replace") if m != ffi.NULL else "unknown error"


def _check(err):
    if err < 0:
        raise Error(err, _errmsg())
    return err


def _str(p):
    return ffi.string(p).decode("utf-8", "surrogateescape") if p != ffi.NULL else None


def version():
    """The library's version ("0.1.0")."""
    return _str(lib.sdt_version())


class Event:
    """One event: a copy of what the reader handed out (it stays valid after the next one)."""

    __slots__ = ("time_ns", "cpu", "pid", "tid", "comm", "provider", "name", "args",
                 "stack_id", "stack", "address")

    @property
    def event(self):
        """"provider:name"."""
        return self.provider + ":" + self.name

    def __repr__(self):
        return "<Event %d %s %d/%d %s %r>" % (self.time_ns, self.comm, self.pid, self.tid,
                                              self.event, self.args)


class _Kind:
    """What the module keeps of one event kind: its names, decoded once."""

    __slots__ = ("index", "provider", "name", "event", "path", "cprovider", "cname", "args")

    def __init__(self, index, k):
        d = lib.sdt_trace_kind__desc(k)
        self.index = index
        self.cprovider = lib.sdt_trace_event_desc__provider(d)  # borrowed until the reader's end
        self.cname = lib.sdt_trace_event_desc__name(d)
        self.provider = _str(self.cprovider)
        self.name = _str(self.cname)
        self.event = self.provider + ":" + self.name
        self.path = _str(lib.sdt_trace_event_desc__path(d))
        self.args = []
        for i in range(lib.sdt_trace_event_desc__arg_count(d)):
            n = _str(lib.sdt_trace_event_desc__arg_name(d, i))
            self.args.append(n if n else "arg%d" % (i + 1))


def _value(v):
    t = v.kind
    if t == _INT:
        return v.i
    if t == _UINT:
        return v.u
    if t == _FLOAT:
        return v.f
    if t == _STRING:
        return ffi.string(v.str, v.len).decode("utf-8", "surrogateescape")
    return None


class Recording:
    """A recording (sdtrace.data), read by libsdtrace's reader.

    Each pass (iteration, to_pandas(), latency()) opens the file again and reads it as a stream;
    the session fields below are read at construction. Attributes: path, cmdline, hostname,
    kernel_release, engine, start_realtime_ns, start_monotonic_ns (time_ns of an event minus
    start_monotonic_ns plus start_realtime_ns is its wall-clock time), and after a pass:
    truncated, lost.
    """

    def __init__(self, path):
        self.path = str(path)
        self.truncated = False
        self.lost = 0
        r = self._open()
        try:
            self.cmdline = _str(lib.sdt_trace_reader__cmdline(r))
            self.hostname = _str(lib.sdt_trace_reader__hostname(r))
            self.kernel_release = _str(lib.sdt_trace_reader__kernel_release(r))
            self.engine = _str(lib.sdt_trace_reader__engine(r))
            self.start_realtime_ns = lib.sdt_trace_reader__start_realtime_ns(r)
            self.start_monotonic_ns = lib.sdt_trace_reader__start_monotonic_ns(r)
        finally:
            lib.sdt_trace_reader__free(r)

    def _open(self, time_order=False):
        """The library's reader; @time_order: events in time order, as report's analyses read
        them (the reader's reorder window), else in file order."""
        opts = ffi.new("struct sdt_trace_open_opts *")
        opts.sz = ffi.sizeof("struct sdt_trace_open_opts")
        opts.time_order = time_order
        out = ffi.new("struct sdt_trace_reader **")
        _check(lib.sdt_trace_reader__open(self.path.encode(), opts, out))
        return out[0]

    def _end(self, r):
        self.truncated = bool(lib.sdt_trace_reader__truncated(r))
        self.lost = lib.sdt_trace_reader__lost(r)

    def _truncated_message(self):
        return "'%s' is truncated: it stops before its end (a recording cut short)" % self.path

    def __iter__(self):
        """Every event in file order, as Event objects. A corrupt record raises Error."""
        return self.events()

    def events(self, time_order=False):
        """Every event as Event objects: in file order, or in time order (@time_order)."""
        r = self._open(time_order)
        try:
            pev = ffi.new("const struct sdt_trace_event **")
            v = ffi.new("struct sdt_trace_value *")
            ips = ffi.new("const uint64_t **")
            addr = ffi.new("uint64_t *")
            kinds = {}
            while True:
                err = lib.sdt_trace_reader__next(r, pev)
                if err <= 0:
                    break
                e = pev[0]
                k = lib.sdt_trace_event__kind(e)
                kind = kinds.get(k)
                if kind is None:
                    kind = kinds[k] = _Kind(len(kinds), k)
                ev = Event()
                ev.time_ns = lib.sdt_trace_event__time_ns(e)
                ev.cpu = lib.sdt_trace_event__cpu(e)
                ev.pid = lib.sdt_trace_event__pid(e)
                ev.tid = lib.sdt_trace_event__tid(e)
                ev.comm = _str(lib.sdt_trace_event__comm(e))
                ev.provider = kind.provider
                ev.name = kind.name
                args = {}
                for i, n in enumerate(kind.args):
                    lib.sdt_trace_event__arg(e, i, v)
                    args[n] = _value(v)
                ev.args = args
                ev.stack_id = lib.sdt_trace_event__stack_id(e)
                n = lib.sdt_trace_event__stack(e, ips)
                ev.stack = tuple(ips[0][0:n]) if n else ()
                ev.address = addr[0] if lib.sdt_trace_event__address(e, addr) else None
                yield ev
            _check(err)
            self._end(r)
        finally:
            lib.sdt_trace_reader__free(r)

    def _columns(self, want):
        """One pass in time order: the fixed columns as lists, and per kind its argument columns."""
        r = self._open(True)
        try:
            pev = ffi.new("const struct sdt_trace_event **")
            v = ffi.new("struct sdt_trace_value *")
            nxt = lib.sdt_trace_reader__next
            kind_of = lib.sdt_trace_event__kind
            time_of = lib.sdt_trace_event__time_ns
            cpu_of = lib.sdt_trace_event__cpu
            pid_of = lib.sdt_trace_event__pid
            tid_of = lib.sdt_trace_event__tid
            comm_of = lib.sdt_trace_event__comm
            stack_of = lib.sdt_trace_event__stack_id
            arg_of = lib.sdt_trace_event__arg
            string = ffi.string
            null = ffi.NULL
            times, cpus, pids, tids, comms, kix, stacks = [], [], [], [], [], [], []
            kinds = {}   # kind pointer -> _Kind
            plans = []   # per kind: (row indices, one (values, kinds seen) per argument)
            comm_names = {}
            row = 0
            while True:
                err = nxt(r, pev)
                if err <= 0:
                    break
                e = pev[0]
                k = kind_of(e)
                kind = kinds.get(k)
                if kind is None:
                    kind = kinds[k] = _Kind(len(plans), k)
                    plans.append((kind, [], [([], set()) for _ in kind.args]))
                if want is not None and kind.event not in want:
                    continue
                _, rows, cols = plans[kind.index]
                times.append(time_of(e))
                cpus.append(cpu_of(e))
                pids.append(pid_of(e))
                tids.append(tid_of(e))
                c = comm_of(e)
                if c == null:
                    comms.append(None)
                else:
                    b = string(c)
                    s = comm_names.get(b)
                    if s is None:
                        s = comm_names[b] = b.decode("utf-8", "surrogateescape")
                    comms.append(s)
                kix.append(kind.index)
                stacks.append(stack_of(e))
                rows.append(row)
                row += 1
                for i, (vals, seen) in enumerate(cols):
                    arg_of(e, i, v)
                    t = v.kind
                    if t == _INT:
                        vals.append(v.i)
                    elif t == _UINT:
                        vals.append(v.u)
                    elif t == _FLOAT:
                        vals.append(v.f)
                    elif t == _STRING:
                        vals.append(string(v.str, v.len).decode("utf-8", "surrogateescape"))
                    else:
                        vals.append(None)
                    seen.add(t)
            _check(err)
            self._end(r)
        finally:
            lib.sdt_trace_reader__free(r)
        return (times, cpus, pids, tids, comms, kix, stacks), plans, row

    def to_pandas(self, event=None, truncated=False):
        """A pandas DataFrame: one row per event, in time order (the reader's, as report's).

        Columns: time_ns (uint64, CLOCK_MONOTONIC), cpu, pid, tid (uint32), comm (str or None),
        event ("provider:name", categorical), stack_id (uint32, 0: none), then one column per
        argument name of the events read (an argument named as a fixed column gets "arg_"
        before its name). A column is int64, uint64, float64 or object (str) as the reader
        decoded the values; where some rows lack it (another event kind) or a value could not
        be fetched, the nullable Int64/UInt64 types (floats: NaN; strings: None).
        @event: only the events of these names ("provider:name", a str or a collection).
        """
        import numpy as np
        import pandas as pd

        want = None
        if event is not None:
            want = {event} if isinstance(event, str) else set(event)
        fixed, plans, n = self._columns(want)
        times, cpus, pids, tids, comms, kix, stacks = fixed
        names = [p[0].event for p in plans]
        data = {
            "time_ns": np.array(times, dtype=np.uint64),
            "cpu": np.array(cpus, dtype=np.uint32),
            "pid": np.array(pids, dtype=np.uint32),
            "tid": np.array(tids, dtype=np.uint32),
            "comm": np.array(comms, dtype=object),
            "event": pd.Categorical.from_codes(np.array(kix, dtype=np.int32),
                                               categories=names) if names else
            pd.Categorical([]),
            "stack_id": np.array(stacks, dtype=np.uint32),
        }
        # argument name -> [(row indices, values, value kinds seen)] over the kinds having it
        parts = {}
        for kind, rows, cols in plans:
            if not rows:  # a kind left out by @event, or with no events
                continue
            for name, (vals, seen) in zip(kind.args, cols):
                col = "arg_" + name if name in COLUMNS else name
                parts.setdefault(col, []).append((rows, vals, seen))
        for col, ps in parts.items():
            data[col] = _column(ps, n, np, pd)
        if want is not None:
            data["event"] = data["event"].remove_unused_categories()
        df = pd.DataFrame(data)
        if self.truncated:
            df.attrs["truncated"] = True
            if not truncated:
                raise TruncatedError(self._truncated_message(), df)
        return df

    def _times(self):
        """One pass in time order: per event (time, kind index, pid, tid), and the kinds."""
        r = self._open(True)
        try:
            pev = ffi.new("const struct sdt_trace_event **")
            nxt = lib.sdt_trace_reader__next
            kind_of = lib.sdt_trace_event__kind
            time_of = lib.sdt_trace_event__time_ns
            pid_of = lib.sdt_trace_event__pid
            tid_of = lib.sdt_trace_event__tid
            kinds, order = {}, []
            evs = []
            while True:
                err = nxt(r, pev)
                if err <= 0:
                    break
                e = pev[0]
                k = kind_of(e)
                ki = kinds.get(k)
                if ki is None:
                    ki = kinds[k] = len(order)
                    order.append(_Kind(ki, k))
                evs.append((time_of(e), ki, pid_of(e), tid_of(e)))
            _check(err)
            self._end(r)
            # the kinds' C strings are borrowed from the reader: kept as Python bytes
            kinds_c = [(ffi.string(k.cprovider), ffi.string(k.cname)) for k in order]
        finally:
            lib.sdt_trace_reader__free(r)
        return evs, kinds_c

    def _latency(self, pairs, truncated):
        evs, kinds_c = self._times()
        if self.truncated and not truncated:
            raise TruncatedError(self._truncated_message())
        lp = ffi.new("struct sdt_latency **")
        _check(lib.sdt_latency__new(lp))
        l = lp[0]
        try:
            for start, end in pairs or ():
                _check(lib.sdt_latency__add_pair(l, start.encode(), end.encode()))
            # the events in time order, as report --latency feeds them (the reader's window; a
            # late event, which the report pairs where it came, too); every kind described
            # first, as the report's reader has them all before their events
            cstr = [(ffi.new("char[]", p), ffi.new("char[]", n)) for p, n in kinds_c]
            for p, n in cstr:
                _check(lib.sdt_latency__add_kind(l, p, n))
            step = ffi.new("struct sdt_latency_step *")
            event = lib.sdt_latency__event
            END = lib.SDT_LATENCY_END
            out = []
            for t, ki, pid, tid in evs:
                p, n = cstr[ki]
                _check(event(l, p, n, pid, tid, t, step))
                if step.role == END and not step.skipped:
                    out.append((step.pair, pid, tid, step.start_ns, t, step.duration_ns))
            lib.sdt_latency__finish(l, ffi.NULL, ffi.NULL)
            names = [_str(lib.sdt_latency__pair_name(l, i))
                     for i in range(lib.sdt_latency__pair_count(l))]
            stats = []
            s = ffi.new("struct sdt_latency_stats *")
            for i in range(len(names)):
                if not lib.sdt_latency__pair_active(l, i):
                    continue
                lib.sdt_latency__stats(l, i, s)
                stats.append({
                    "name": names[i],
                    "start": _str(lib.sdt_latency__pair_start(l, i)),
                    "end": _str(lib.sdt_latency__pair_end(l, i)),
                    "count": s.count, "min_ns": s.min_ns if s.count else None,
                    "avg_ns": s.avg_ns if s.count else None,
                    "p50_ns": s.p50_ns if s.count else None,
                    "p90_ns": s.p90_ns if s.count else None,
                    "p99_ns": s.p99_ns if s.count else None,
                    "max_ns": s.max_ns if s.count else None,
                    "unmatched_starts": s.unmatched_starts,
                    "unmatched_ends": s.unmatched_ends,
                    "key_mismatches": s.key_mismatches,
                })
        finally:
            lib.sdt_latency__free(l)
        return out, names, stats

    def latency(self, pairs=None, truncated=False):
        """The matched pairs of `sdtrace report --latency` (sdt_latency): a DataFrame, one row a pair.

        Columns: pair ("provider:stem", or "START,END" for an explicit pair), pid, tid, start_ns,
        end_ns, duration_ns. The pairs are those of the naming conventions (job__start ->
        job__done), or @pairs: [(start_spec, end_spec)], as --pair takes them.
        """
        import numpy as np
        import pandas as pd

        out, names, _ = self._latency(pairs, truncated)
        cols = list(zip(*out)) if out else [[]] * 6
        return pd.DataFrame({
            "pair": pd.Categorical.from_codes(np.array(cols[0], dtype=np.int32),
                                              categories=names) if names else
            pd.Categorical([]),
            "pid": np.array(cols[1], dtype=np.uint32),
            "tid": np.array(cols[2], dtype=np.uint32),
            "start_ns": np.array(cols[3], dtype=np.uint64),
            "end_ns": np.array(cols[4], dtype=np.uint64),
            "duration_ns": np.array(cols[5], dtype=np.uint64),
        })

    def latency_stats(self, pairs=None, truncated=False):
        """Per pair what `report --latency --json` gives (count, min/avg/percentiles/max, unmatched)."""
        return self._latency(pairs, truncated)[2]


def _column(parts, n, np, pd):
    """One argument column from its parts (rows, values, kinds seen), typed as described."""
    seen = set()
    covered = 0
    for rows, vals, s in parts:
        seen |= s
        covered += len(rows)
    full = covered == n and lib.SDT_VALUE_UNAVAILABLE not in seen
    kinds = seen - {lib.SDT_VALUE_UNAVAILABLE}
    if kinds == {_FLOAT}:
        a = np.full(n, np.nan)
        for rows, vals, _ in parts:
            a[rows] = [np.nan if x is None else x for x in vals] if not full else vals
        return a
    if kinds and kinds <= {_INT, _UINT}:
        dt = np.uint64 if kinds == {_UINT} else np.int64
        if full:
            if len(parts) == 1:
                return np.array(parts[0][1], dtype=dt)
            a = np.zeros(n, dtype=dt)
            for rows, vals, _ in parts:
                a[rows] = vals
            return a
        a = np.zeros(n, dtype=dt)
        mask = np.ones(n, dtype=bool)
        for rows, vals, _ in parts:
            idx = np.array(rows, dtype=np.int64)
            ok = np.array([x is not None for x in vals], dtype=bool)
            a[idx[ok]] = [x for x in vals if x is not None]
            mask[idx[ok]] = False
        return pd.arrays.IntegerArray(a, mask)
    a = np.full(n, None, dtype=object)
    for rows, vals, _ in parts:
        a[rows] = vals
    return a


def probes(path):
    """The SDT probes of the ELF file @path: one dict per site, in note order.

    Keys: provider, name, event, address, file_offset, semaphore (None when none), args (a list
    of dicts: spec, size, signed, float, fetch, unavailable).
    """
    out = ffi.new("struct sdt_file **")
    _check(lib.sdt_file__open(str(path).encode(), ffi.NULL, out))
    f = out[0]
    try:
        sites = []
        for i in range(lib.sdt_file__site_count(f)):
            s = lib.sdt_file__site(f, i)
            args = []
            for j in range(lib.sdt_site__arg_count(s)):
                a = lib.sdt_site__arg(s, j)
                args.append({"spec": _str(lib.sdt_arg__spec(a)), "size": lib.sdt_arg__size(a),
                             "signed": bool(lib.sdt_arg__is_signed(a)),
                             "float": bool(lib.sdt_arg__is_float(a)),
                             "fetch": _str(lib.sdt_arg__fetch(a)),
                             "unavailable": _str(lib.sdt_arg__unavailable(a))})
            prov, name = _str(lib.sdt_site__provider(s)), _str(lib.sdt_site__name(s))
            sites.append({"provider": prov, "name": name, "event": prov + ":" + name,
                          "address": lib.sdt_site__address(s),
                          "file_offset": lib.sdt_site__file_offset(s),
                          "semaphore": lib.sdt_site__semaphore(s)
                          if lib.sdt_site__has_semaphore(s) else None,
                          "args": args})
        return sites
    finally:
        lib.sdt_file__free(f)


def _cache(root):
    opts = ffi.new("struct sdt_cache_opts *")
    opts.sz = ffi.sizeof("struct sdt_cache_opts")
    opts.no_create = True
    out = ffi.new("struct sdt_cache **")
    _check(lib.sdt_cache__open(str(root).encode() if root else ffi.NULL, opts, out))
    return out[0]


def cache_events(root=None):
    """Every "provider:event" of the cache (~/.debug, or @root), sorted, each once."""
    c = _cache(root)
    try:
        names = ffi.new("char ***")
        n = ffi.new("size_t *")
        _check(lib.sdt_cache__event_names(c, names, n))
        try:
            return [_str(names[0][i]) for i in range(n[0])]
        finally:
            lib.sdt_cache_names__free(names[0], n[0])
    finally:
        lib.sdt_cache__free(c)


def cache_entries(root=None):
    """The binaries of the cache: one dict each (path, build_id, events, sites), by path."""
    c = _cache(root)
    try:
        out = ffi.new("struct sdt_cache_entries **")
        _check(lib.sdt_cache__entries(c, out))
        l = out[0]
        try:
            res = []
            for i in range(lib.sdt_cache_entries__count(l)):
                e = lib.sdt_cache_entries__entry(l, i)
                res.append({"path": _str(lib.sdt_cache_entry__path(e)),
                            "build_id": _str(lib.sdt_cache_entry__build_id(e)),
                            "events": lib.sdt_cache_entry__event_count(e),
                            "sites": lib.sdt_cache_entry__site_count(e)})
            return res
        finally:
            lib.sdt_cache_entries__free(l)
    finally:
        lib.sdt_cache__free(c)
