/*
 * CPython's static markers (provider "python"), with the argument names of the CPython
 * documentation, "Instrumenting CPython with DTrace and SystemTap" (Doc/howto/instrumentation),
 * and the types of CPython's own provider file (Include/pydtrace.d). Written for sdtrace; checked
 * against the notes of Debian 12's /usr/bin/python3.11 (tests/e2e/t0500-provider-types.sh).
 *
 * Every probe of CPython is semaphore-gated: sdtrace enables the semaphore when it records.
 *
 * What CPython 3.11 (Debian 12's /usr/bin/python3.11) fires, measured with `sdtrace stat` on a
 * script calling a one-line function 1000 times (the `@sdtrace fires:` note below):
 *	                                   function__entry  function__return  line
 *	plain                                          5          3249          -
 *	sys.setprofile(f) around the loop           1005          5250          -
 *	sys.settrace(f) around the loop             1005          4249          -
 *	plain, recording line too                   3249          3249      16510
 *	plain, `-c 'import json'`                     12          6179          -
 * function__entry is fired on the evaluation loop's tracing path only: while a profile or trace
 * function is set, or while the line probe's semaphore is raised (which sends every instruction
 * through that path, at a cost); otherwise only by a few generator frames at start-up.
 * function__return fires on every return; line on every line, once recorded.
 */
provider python {
	/*
	 * A Python function starts/returns: its file, its name, the line of its definition.
	 * @sdtrace fires: only on CPython 3.11's tracing path: while sys.setprofile() or
	 *   sys.settrace() is set, or while %python:line is recorded too (then for every call);
	 *   otherwise a handful of times at start-up
	 * @sdtrace key: filename,funcname
	 * @sdtrace category: method
	 */
	probe function__entry(const char *filename, const char *funcname, int lineno);
	/* @sdtrace key: filename,funcname */
	probe function__return(const char *filename, const char *funcname, int lineno);
	/*
	 * A Python line is about to run. Recording it sends every instruction through the
	 * evaluation loop's tracing path (CPython 3.11): slower, and function__entry then fires too.
	 */
	probe line(const char *filename, const char *funcname, int lineno);
	/*
	 * The cyclic garbage collector starts collecting a generation / finished, collected N.
	 * @sdtrace category: gc
	 */
	probe gc__start(int generation);
	probe gc__done(long collected);
	/* importlib's find_and_load: the module's name; whether it was found. */
	probe import__find__load__start(const char *module_name);
	probe import__find__load__done(const char *module_name, int found);
	/* sys.audit() / PySys_Audit(): the event's name and the tuple of its arguments. */
	probe audit(const char *event, void *args);
};
