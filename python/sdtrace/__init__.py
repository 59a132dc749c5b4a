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
not be fetched), the values `sdtrace report --json` gives: NaN and infinities are floats (JSON
writes "nan", "inf"), bytes that are not UTF-8 surrogate escapes (JSON writes U+FFFD for each;
s.encode("utf-8", "surrogateescape") gives the recorded bytes back), a string the kernel did not
hand back whole its first bytes, with its least length in Event.truncated (JSON: "truncated"), a
16-byte long double rounded to a float. Events are read by the batch (one library call for up to
65536, columns that numpy reads in place). A corrupt recording raises sdtrace.Error with the library's message; a
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
    """One event: a copy of what the reader handed out (it stays valid after the next one).

    .args: {name: value}; .truncated: {name: bytes} of the strings that did not reach the
    recording whole (their value is their first bytes; bytes: the least length they had), as
    `report --json` gives them ({} when none).

    .stack: the user stack as recorded (record -g), the probe's address first: the frame-pointer
    walk's addresses, not yet symbolized. `report --json`'s "stack" and `report -g` give the
    symbolizer's chain instead, which can differ: a caller put back by the file's CFI where the
    probe is in a function with no frame of its own, inlined functions as frames of their own,
    and the frames of a --call-graph=dwarf recording (whose .stack here is empty).
    """

    __slots__ = ("time_ns", "cpu", "pid", "tid", "comm", "provider", "name", "args",
                 "stack_id", "stack", "address", "truncated")

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


_NO_STRING = 0xFFFFFFFFFFFFFFFF  # SDT_TRACE_NO_STRING
_EMPTY = memoryview(b"")


def _view(ptr, n, fmt, size):
    """@n elements at @ptr (a column of the batch) as a memoryview of format @fmt, in place."""
    if not n:
        return _EMPTY.cast(fmt)
    return memoryview(ffi.buffer(ptr, n * size)).cast(fmt)


def _cstr(buf, off):
    """The NUL-terminated string at @off of the batch's strings (bytes @buf), decoded."""
    return buf[off:buf.index(b"\0", off)].decode("utf-8", "surrogateescape")


class _Batches:
    """The events of reader @r by the batch (sdt_trace_reader__read_batch, one library call for
    up to 65536 events): iterating gives each batch's columns (struct sdt_trace_columns, valid
    until the next); .kinds: the reader's kinds as _Kind, by their place (the kind column)."""

    def __init__(self, r):
        self.r = r
        self.kinds = []
        out = ffi.new("struct sdt_trace_batch **")
        _check(lib.sdt_trace_batch__new(ffi.NULL, out))
        self.b = ffi.gc(out[0], lib.sdt_trace_batch__free)
        self.cols = ffi.new("struct sdt_trace_columns *")
        self.cols.sz = ffi.sizeof("struct sdt_trace_columns")

    def __iter__(self):
        c = self.cols
        while True:
            n = lib.sdt_trace_reader__read_batch(self.r, self.b)
            # a corrupt record: the events before it first, as the reader handed them out
            err = Error(n, _errmsg()) if n < 0 else None
            lib.sdt_trace_batch__columns(self.b, c)
            for i in range(len(self.kinds), lib.sdt_trace_reader__kind_count(self.r)):
                self.kinds.append(_Kind(i, lib.sdt_trace_reader__kind(self.r, i)))
            if c.count:
                yield c
            if err is not None:
                raise err
            if n == 0:
                return


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
            batches = _Batches(r)
            for c in batches:
                yield from _batch_events(c, batches.kinds)
            self._end(r)
        finally:
            lib.sdt_trace_reader__free(r)

    def _columns(self, want):
        """One pass in time order, by the batch: the fixed columns (numpy arrays, one per batch),
        the kinds, and per (kind, argument index) its parts (rows, value kinds, values, strings)."""
        import numpy as np

        r = self._open(True)
        fixed = {k: [] for k in ("time_ns", "cpu", "pid", "tid", "kind", "stack_id", "comm")}
        args = {}
        names = {}  # thread names by their bytes, decoded once
        row = 0
        try:
            batches = _Batches(r)
            for c in batches:
                row += _batch_columns(np, c, batches.kinds, want, row, fixed, args, names)
            self._end(r)
            kinds = batches.kinds
        finally:
            lib.sdt_trace_reader__free(r)
        return fixed, kinds, args, row

    def to_pandas(self, event=None, truncated=False):
        """A pandas DataFrame: one row per event, in time order (the reader's, as report's).

        Columns: time_ns (uint64, CLOCK_MONOTONIC), cpu, pid, tid (uint32), comm (str or None),
        event ("provider:name", categorical), stack_id (uint32, 0: none), then one column per
        argument name of the events read (an argument named as a fixed column gets "arg_"
        before its name). A column is int64, uint64, float64 or object (str) as the reader
        decoded the values; where some rows lack it (another event kind) or a value could not
        be fetched, the nullable Int64/UInt64 types (floats: NaN; strings: None). A string
        that did not reach the recording whole holds its first bytes (Event.truncated says
        which were cut).
        @event: only the events of these names ("provider:name", a str or a collection).
        """
        import numpy as np
        import pandas as pd

        want = None
        if event is not None:
            want = {event} if isinstance(event, str) else set(event)
        fixed, kinds, args, n = self._columns(want)

        def cat(name, dt):
            return np.concatenate(fixed[name]) if fixed[name] else np.zeros(0, dtype=dt)

        kix = cat("kind", np.uint32)
        # the event names of the kinds that have rows, in the reader's order, each once
        used = np.unique(kix).tolist()
        cats = list(dict.fromkeys(kinds[k].event for k in used))
        code = np.zeros(len(kinds), dtype=np.int32)
        for k in used:
            code[k] = cats.index(kinds[k].event)
        data = {
            "time_ns": cat("time_ns", np.uint64),
            "cpu": cat("cpu", np.uint32),
            "pid": cat("pid", np.uint32),
            "tid": cat("tid", np.uint32),
            "comm": cat("comm", object),
            "event": pd.Categorical.from_codes(code[kix], categories=cats) if cats else
            pd.Categorical([]),
            "stack_id": cat("stack_id", np.uint32),
        }
        # argument name -> its parts over the kinds having it, in the kinds' and arguments' order
        parts = {}
        for (k, j) in sorted(args):
            name = kinds[k].args[j]
            col = "arg_" + name if name in COLUMNS else name
            parts.setdefault(col, []).extend(args[(k, j)])
        for col, ps in parts.items():
            data[col] = _column(ps, n, np, pd)
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
            evs = []
            batches = _Batches(r)
            for c in batches:
                n = c.count
                evs.extend(zip(_view(c.time_ns, n, "Q", 8).tolist(),
                               _view(c.kind, n, "I", 4).tolist(),
                               _view(c.pid, n, "I", 4).tolist(),
                               _view(c.tid, n, "I", 4).tolist()))
            self._end(r)
            # the kinds' C strings are borrowed from the reader: kept as Python bytes
            kinds_c = [(ffi.string(k.cprovider), ffi.string(k.cname)) for k in batches.kinds]
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
            # first, in the reader's order, as the report's reader has them before their events
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


def _batch_events(c, kinds):
    """The Event objects of one batch's columns @c (the reader's @kinds by place)."""
    n = c.count
    time_ns = _view(c.time_ns, n, "Q", 8).tolist()
    cpu = _view(c.cpu, n, "I", 4).tolist()
    pid = _view(c.pid, n, "I", 4).tolist()
    tid = _view(c.tid, n, "I", 4).tolist()
    kix = _view(c.kind, n, "I", 4).tolist()
    stack_id = _view(c.stack_id, n, "I", 4).tolist()
    comm = _view(c.comm, n, "Q", 8).tolist()
    address = _view(c.address, n, "Q", 8).tolist()
    flags = bytes(_view(c.flags, n, "B", 1))
    sfirst = _view(c.stack_first, n + 1, "Q", 8).tolist()
    ips = _view(c.ips, sfirst[n], "Q", 8).tolist()
    afirst = _view(c.arg_first, n + 1, "Q", 8).tolist()
    nslots = afirst[n]
    akind = bytes(_view(c.arg_kind, nslots, "B", 1))
    aflags = bytes(_view(c.arg_flags, nslots, "B", 1))
    raw = _view(c.arg_value, nslots * 8, "B", 1)
    au = raw.cast("Q").tolist() if nslots else []
    ai = raw.cast("q").tolist() if nslots else []
    af = raw.cast("d").tolist() if nslots else []
    alen = _view(c.arg_len, nslots, "Q", 8).tolist()
    amin = _view(c.arg_min_len, nslots, "Q", 8).tolist()
    sbuf = ffi.buffer(c.strings, c.strings_len)[:] if c.strings_len else b""
    comms = {_NO_STRING: None}
    trunc_flag = lib.SDT_TRACE_ARG_TRUNCATED
    for i in range(n):
        kind = kinds[kix[i]]
        ev = Event()
        ev.time_ns = time_ns[i]
        ev.cpu = cpu[i]
        ev.pid = pid[i]
        ev.tid = tid[i]
        co = comm[i]
        name = comms.get(co, comms)
        if name is comms:
            name = comms[co] = _cstr(sbuf, co)
        ev.comm = name
        ev.provider = kind.provider
        ev.name = kind.name
        args = {}
        truncated = {}
        s = afirst[i]
        for a in kind.args:
            t = akind[s]
            if t == _INT:
                args[a] = ai[s]
            elif t == _UINT:
                args[a] = au[s]
            elif t == _FLOAT:
                args[a] = af[s]
            elif t == _STRING:
                o = au[s]
                args[a] = sbuf[o:o + alen[s]].decode("utf-8", "surrogateescape")
                if aflags[s] & trunc_flag:
                    truncated[a] = amin[s]
            else:
                args[a] = None
            s += 1
        ev.args = args
        ev.truncated = truncated
        ev.stack_id = stack_id[i]
        ev.stack = tuple(ips[sfirst[i]:sfirst[i + 1]])
        ev.address = address[i] if flags[i] & 1 else None
        yield ev


def _np(np, ptr, n, dt):
    """@n elements of a batch's column at @ptr as a numpy array over the batch's memory."""
    dt = np.dtype(dt)
    if not n:
        return np.zeros(0, dtype=dt)
    return np.frombuffer(ffi.buffer(ptr, n * dt.itemsize), dtype=dt)


def _batch_columns(np, c, kinds, want, row, fixed, args, names):
    """One batch's columns @c appended to @fixed (numpy copies) and @args (per (kind place,
    argument index): [(rows, value kinds, 8-byte values, decoded strings or None)]), its rows
    numbered from @row; only the events of @want (names) when given. Returns its row count."""
    n = c.count
    kix = _np(np, c.kind, n, np.uint32)
    keep = None
    if want is not None:
        ok = np.array([k.event in want for k in kinds], dtype=bool)
        keep = np.flatnonzero(ok[kix])
        if len(keep) == n:
            keep = None
        elif not len(keep):
            return 0

    def pick(a):  # a copy: the batch's memory is reused by the next
        return a[keep] if keep is not None else a.copy()

    fixed["time_ns"].append(pick(_np(np, c.time_ns, n, np.uint64)))
    fixed["cpu"].append(pick(_np(np, c.cpu, n, np.uint32)))
    fixed["pid"].append(pick(_np(np, c.pid, n, np.uint32)))
    fixed["tid"].append(pick(_np(np, c.tid, n, np.uint32)))
    fixed["stack_id"].append(pick(_np(np, c.stack_id, n, np.uint32)))
    kk = pick(kix)
    fixed["kind"].append(kk)
    m = len(kk)
    sbuf = ffi.buffer(c.strings, c.strings_len)[:] if c.strings_len else b""
    # thread names: each distinct offset decoded once, equal names one str object
    comm = pick(_np(np, c.comm, n, np.uint64))
    offs, inv = np.unique(comm, return_inverse=True)
    strs = np.empty(len(offs), dtype=object)
    for i, o in enumerate(offs.tolist()):
        if o == _NO_STRING:
            strs[i] = None
            continue
        b = sbuf[o:sbuf.index(b"\0", o)]
        name = names.get(b)
        if name is None:
            name = names[b] = b.decode("utf-8", "surrogateescape")
        strs[i] = name
    fixed["comm"].append(strs[inv])
    nslots = c.arg_first[n]
    first = pick(_np(np, c.arg_first, n, np.uint64))  # the events' first slots
    akind = _np(np, c.arg_kind, nslots, np.uint8)
    aval = _np(np, c.arg_value, nslots, np.uint64)
    alen = _np(np, c.arg_len, nslots, np.uint64)
    for k in np.unique(kk).tolist():
        sel = np.flatnonzero(kk == k) if len(kinds) > 1 or keep is not None else \
            np.arange(m)
        rows = sel + row
        fs = first[sel]
        for j in range(len(kinds[k].args)):
            slots = fs + j
            vk = akind[slots]
            vals = aval[slots]
            decoded = None
            sm = vk == _STRING
            if sm.any():
                decoded = [sbuf[o:o + ln].decode("utf-8", "surrogateescape")
                           for o, ln in zip(vals[sm].tolist(), alen[slots][sm].tolist())]
            args.setdefault((k, j), []).append((rows, vk, vals, decoded))
    return m


def _column(parts, n, np, pd):
    """One argument column from its parts (rows, value kinds, 8-byte values, strings), typed as
    to_pandas() says."""
    unavailable = lib.SDT_VALUE_UNAVAILABLE
    seen = set()
    covered = 0
    for rows, vk, _, _ in parts:
        seen.update(np.unique(vk).tolist())
        covered += len(rows)
    full = covered == n and unavailable not in seen
    kinds = seen - {unavailable}
    if kinds == {_FLOAT}:
        a = np.full(n, np.nan)
        for rows, vk, vals, _ in parts:
            ok = vk == _FLOAT
            a[rows[ok]] = vals[ok].view(np.float64)
        return a
    if kinds and kinds <= {_INT, _UINT}:
        dt = np.uint64 if kinds == {_UINT} else np.int64
        # signed and unsigned under one name, an unsigned beyond int64: Python ints (below)
        big = np.uint64(2**63 - 1)
        if dt is np.uint64 or not any((vals[vk == _UINT] > big).any() for _, vk, vals, _ in parts):
            a = np.zeros(n, dtype=dt)
            mask = np.ones(n, dtype=bool)
            for rows, vk, vals, _ in parts:
                ok = vk != unavailable
                a[rows[ok]] = vals[ok].view(dt)
                mask[rows[ok]] = False
            return a if full else pd.arrays.IntegerArray(a, mask)
    a = np.full(n, None, dtype=object)
    for rows, vk, vals, decoded in parts:
        out = np.full(len(rows), None, dtype=object)
        if decoded:
            strs = np.empty(len(decoded), dtype=object)
            strs[:] = decoded
            out[vk == _STRING] = strs
        for t, view in ((_INT, np.int64), (_UINT, np.uint64), (_FLOAT, np.float64)):
            m = vk == t
            if m.any():
                vs = np.empty(int(m.sum()), dtype=object)
                vs[:] = vals[m].view(view).tolist()
                out[m] = vs
        a[rows] = out
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
