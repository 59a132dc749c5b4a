/*
 * Ruby's static markers (provider "ruby"), with the argument names and types of Ruby's own
 * provider file (probes.d at the top of the Ruby sources) and Debian's tapset for them
 * (libruby3.1-x86_64-linux-gnu.stp). Written for sdtrace; checked against the notes of Debian
 * 12's libruby-3.1.so.3.1: 22 probes, 56 arguments, 40 sites (tests/e2e/t2200-runtimes-list.sh).
 *
 * Every probe of Ruby is semaphore-gated: sdtrace enables the semaphore when it records.
 *
 * What Ruby 3.1 (Debian 12's ruby3.1) fires, measured with `sdtrace stat` on a script calling
 * Foo#bar 1000 times and Foo#baz 300 times (the `@sdtrace needs:` note below):
 *	                                                    method__entry  method__return
 *	plain                                                          0               7
 *	TracePoint.new(:line) enabled around the loops                 0               7
 *	--jit                                                          0               7
 *	RUBYOPT=-rFILE, FILE: TracePoint.new(:call, :return) {}.enable  1300            1308
 *	TracePoint.new(:call, :return) enabled around the loops     1301            1307
 * A Ruby-defined method's entry and return are fired from the VM's event hook for :call and
 * :return, which runs only while a TracePoint (or set_trace_func) on those events is enabled;
 * this build has no other switch (no RUBY_DTRACE variable). The C-method probes (cmethod__*)
 * and the allocation, GC, parse, require and load probes fire whenever recorded.
 */
provider ruby {
	/*
	 * A Ruby method is entered / has returned: its class, its name, and the file and line of
	 * the call.
	 * @sdtrace needs: a TracePoint on :call and :return in the target (Ruby 3.1 fires the
	 *   Ruby-method probes from that event hook only), e.g. RUBYOPT=-rFILE with FILE holding
	 *   `TracePoint.new(:call, :return) {}.enable`
	 * @sdtrace key: classname,methodname
	 * @sdtrace category: method
	 */
	probe method__entry(const char *classname, const char *methodname, const char *filename,
			    int lineno);
	/*
	 * @sdtrace fires: on every Ruby-method return only while a TracePoint on :call and
	 *   :return is enabled; otherwise a handful of times at start-up
	 * @sdtrace key: classname,methodname
	 */
	probe method__return(const char *classname, const char *methodname, const char *filename,
			     int lineno);
	/*
	 * A C method is entered / returns: same arguments.
	 * @sdtrace key: classname,methodname
	 * @sdtrace category: method
	 */
	probe cmethod__entry(const char *classname, const char *methodname, const char *filename,
			     int lineno);
	/* @sdtrace key: classname,methodname */
	probe cmethod__return(const char *classname, const char *methodname, const char *filename,
			      int lineno);
	/* require: the file required, and the file and line that required it */
	probe require__entry(const char *requiredfile, const char *filename, int lineno);
	probe require__return(const char *requiredfile, const char *filename, int lineno);
	/* the search of $" and the load path that require makes first */
	probe find__require__entry(const char *requiredfile, const char *filename, int lineno);
	probe find__require__return(const char *requiredfile, const char *filename, int lineno);
	/*
	 * load: the file loaded, and the file and line of the call
	 * @sdtrace category: cload
	 */
	probe load__entry(const char *loadedfile, const char *filename, int lineno);
	probe load__return(const char *loadedfile, const char *filename, int lineno);
	/*
	 * an exception is raised: its class, where
	 * @sdtrace category: excp
	 */
	probe raise(const char *classname, const char *filename, int lineno);
	/*
	 * an object is about to be allocated: its class, where
	 * @sdtrace category: objnew
	 */
	probe object__create(const char *classname, const char *filename, int lineno);
	/*
	 * an Array / Hash / String is about to be allocated: its length, where
	 * @sdtrace category: objnew
	 */
	probe array__create(long length, const char *filename, int lineno);
	/* @sdtrace category: objnew */
	probe hash__create(long length, const char *filename, int lineno);
	/* @sdtrace category: objnew */
	probe string__create(long length, const char *filename, int lineno);
	/* a Symbol is about to be created: its text, where */
	probe symbol__create(const char *string, const char *filename, int lineno);
	/* a source file is about to be parsed and compiled / was: the file, its first/last line */
	probe parse__begin(const char *sourcefile, int lineno);
	probe parse__end(const char *sourcefile, int lineno);
	/*
	 * the garbage collector's mark and sweep phases begin / end (a collection: its mark begins)
	 * @sdtrace category: gc
	 */
	probe gc__mark__begin();
	probe gc__mark__end();
	probe gc__sweep__begin();
	probe gc__sweep__end();
};
