/*
 * CPython's static markers (provider "python"), with the argument names of the CPython
 * documentation, "Instrumenting CPython with DTrace and SystemTap" (Doc/howto/instrumentation),
 * and the types of CPython's own provider file (Include/pydtrace.d). Written for sdtrace; checked
 * against the notes of Debian 12's /usr/bin/python3.11 (tests/e2e/t0500-provider-types.sh).
 *
 * Every probe of CPython is semaphore-gated: sdtrace enables the semaphore when it records.
 */
provider python {
	/* A Python function starts/returns: its file, its name, the line of its definition. */
	probe function__entry(const char *filename, const char *funcname, int lineno);
	probe function__return(const char *filename, const char *funcname, int lineno);
	/* A Python line is about to run (not fired when the interpreter runs specialized code). */
	probe line(const char *filename, const char *funcname, int lineno);
	/* The cyclic garbage collector starts collecting a generation / finished, collected N. */
	probe gc__start(int generation);
	probe gc__done(long collected);
	/* importlib's find_and_load: the module's name; whether it was found. */
	probe import__find__load__start(const char *module_name);
	probe import__find__load__done(const char *module_name, int found);
	/* sys.audit() / PySys_Audit(): the event's name and the tuple of its arguments. */
	probe audit(const char *event, void *args);
};
