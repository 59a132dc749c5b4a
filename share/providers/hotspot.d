/*
 * HotSpot's probes (provider "hotspot"), with argument names from the HotSpot documentation
 * ("DTrace Probes in HotSpot VM": VM lifecycle, thread, class loading, GC, method compilation,
 * monitor, and method/allocation probes) and the probe list of OpenJDK's hotspot.d. Written for
 * sdtrace; the sizes follow the notes of Debian 12's OpenJDK 17 libjvm.so, which differ from the
 * `uintptr_t` lengths of OpenJDK's own file (tests/e2e/t0500-provider-types.sh checks them).
 *
 * HotSpot passes names (classes, methods, signatures, threads, pools) as a pointer to UTF-8 bytes
 * *and a length*: the bytes are not NUL-terminated. They are typed `const char *`: the kernel
 * reads on to the next NUL (at most a page per event), and the reader keeps the bytes that the
 * argument NAME_len counts (a string argument NAME followed by an integer NAME_len, in any
 * provider). Type a pointer `const void *` in a file of your own to get the address instead.
 * The JNI probes are in hotspot_jni.d.
 *
 * Some probes cost too much to be on by default, and HotSpot checks a flag before firing them
 * (OpenJDK's globals.hpp, "DTrace Probes in HotSpot VM"): method__entry/return need
 * -XX:+DTraceMethodProbes, object__alloc -XX:+DTraceAllocProbes, the monitor__* probes
 * -XX:+DTraceMonitorProbes; -XX:+ExtendedDTraceProbes sets all three. Without it they never fire,
 * and `sdtrace record/trace/stat` says so at the end: the `@sdtrace needs:` notes below (sdtrace's
 * notes, plain comments to dtrace). Debian 12's OpenJDK 17 accepts all four as product flags.
 */
provider hotspot {
	probe vm__init__begin();
	probe vm__init__end();
	probe vm__shutdown();

	/*
	 * thread name, its length, Java thread id, native (OS) thread id, daemon
	 * @sdtrace category: thread
	 */
	probe thread__start(const char *thread_name, int thread_name_len, long long java_tid,
			    uintptr_t native_tid, bool is_daemon);
	probe thread__stop(const char *thread_name, int thread_name_len, long long java_tid,
			   uintptr_t native_tid, bool is_daemon);
	probe thread__sleep__begin(long long millis);
	probe thread__sleep__end(int interrupted);
	probe thread__yield();
	/* the parked thread's blocker, absolute deadline or not, time */
	probe thread__park__begin(uintptr_t thread, int is_absolute, long long time);
	probe thread__park__end(uintptr_t thread);
	probe thread__unpark(uintptr_t thread);

	/* VM operations: name, its length, the mode it runs in (safepoint, concurrent, ...) */
	probe vmops__request(const char *op_name, size_t op_name_len, int mode);
	probe vmops__begin(const char *op_name, size_t op_name_len, int mode);
	probe vmops__end(const char *op_name, size_t op_name_len, int mode);

	/*
	 * class name, its length, class loader id, shared (from the CDS archive)
	 * @sdtrace category: cload
	 */
	probe class__loaded(const char *class_name, int class_name_len, void *loader_id,
			    bool is_shared);
	probe class__unloaded(const char *class_name, int class_name_len, void *loader_id,
			      bool is_shared);
	/* class initialization: name, length, loader id, initializing thread's type, waited */
	probe class__initialization__required(const char *class_name, int class_name_len,
					      void *loader_id, int thread_type);
	probe class__initialization__recursive(const char *class_name, int class_name_len,
					       void *loader_id, int thread_type, bool wait);
	probe class__initialization__concurrent(const char *class_name, int class_name_len,
						void *loader_id, int thread_type, bool wait);
	probe class__initialization__erroneous(const char *class_name, int class_name_len,
					       void *loader_id, int thread_type, bool wait);
	probe class__initialization__super__failed(const char *class_name, int class_name_len,
						   void *loader_id, int thread_type, bool wait);
	probe class__initialization__clinit(const char *class_name, int class_name_len,
					    void *loader_id, int thread_type, bool wait);
	probe class__initialization__error(const char *class_name, int class_name_len,
					   void *loader_id, int thread_type, bool wait);
	probe class__initialization__end(const char *class_name, int class_name_len,
					 void *loader_id, int thread_type, bool wait);

	/*
	 * a full collection or not (mem__pool__gc__begin fires too, once per pool)
	 * @sdtrace category: gc
	 */
	probe gc__begin(bool is_full);
	probe gc__end();
	/*
	 * memory manager name, its length, pool name, its length; the pool's sizes in bytes. A
	 * collection begins every pool of its manager, then ends them in the same order: a pool's
	 * end pairs with its own begin.
	 * @sdtrace key: manager_name,pool_name
	 */
	probe mem__pool__gc__begin(const char *manager_name, size_t manager_name_len,
				   const char *pool_name, size_t pool_name_len, size_t initial_size,
				   size_t used, size_t committed, size_t max_size);
	/* @sdtrace key: manager_name,pool_name */
	probe mem__pool__gc__end(const char *manager_name, size_t manager_name_len,
				 const char *pool_name, size_t pool_name_len, size_t initial_size,
				 size_t used, size_t committed, size_t max_size);

	/*
	 * compiler name and length, then class, method and signature, each with its length
	 * @sdtrace key: class_name,method_name,signature
	 */
	probe method__compile__begin(const char *compiler_name, size_t compiler_name_len,
				     const char *class_name, int class_name_len,
				     const char *method_name, int method_name_len,
				     const char *signature, int signature_len);
	/* @sdtrace key: class_name,method_name,signature */
	probe method__compile__end(const char *compiler_name, size_t compiler_name_len,
				   const char *class_name, int class_name_len,
				   const char *method_name, int method_name_len,
				   const char *signature, int signature_len, bool success);
	/* class, method, signature (with lengths), the compiled code's address and size */
	probe compiled__method__load(const char *class_name, int class_name_len,
				     const char *method_name, int method_name_len,
				     const char *signature, int signature_len, void *code,
				     int code_size);
	probe compiled__method__unload(const char *class_name, int class_name_len,
				       const char *method_name, int method_name_len,
				       const char *signature, int signature_len);

	/*
	 * Java thread id, monitor id, the class of the object (name and length)
	 * @sdtrace needs: -XX:+ExtendedDTraceProbes (or -XX:+DTraceMonitorProbes)
	 */
	probe monitor__contended__enter(long long java_tid, uintptr_t monitor_id,
					const char *class_name, int class_name_len);
	/* @sdtrace needs: -XX:+ExtendedDTraceProbes (or -XX:+DTraceMonitorProbes) */
	probe monitor__contended__entered(long long java_tid, uintptr_t monitor_id,
					  const char *class_name, int class_name_len);
	/* @sdtrace needs: -XX:+ExtendedDTraceProbes (or -XX:+DTraceMonitorProbes) */
	probe monitor__contended__exit(long long java_tid, uintptr_t monitor_id,
				       const char *class_name, int class_name_len);
	/*
	 * ... and Object.wait()'s timeout in milliseconds
	 * @sdtrace needs: -XX:+ExtendedDTraceProbes (or -XX:+DTraceMonitorProbes)
	 */
	probe monitor__wait(long long java_tid, uintptr_t monitor_id, const char *class_name,
			    int class_name_len, long long timeout);
	/* @sdtrace needs: -XX:+ExtendedDTraceProbes (or -XX:+DTraceMonitorProbes) */
	probe monitor__waited(long long java_tid, uintptr_t monitor_id, const char *class_name,
			      int class_name_len);
	/* @sdtrace needs: -XX:+ExtendedDTraceProbes (or -XX:+DTraceMonitorProbes) */
	probe monitor__notify(long long java_tid, uintptr_t monitor_id, const char *class_name,
			      int class_name_len);
	/* @sdtrace needs: -XX:+ExtendedDTraceProbes (or -XX:+DTraceMonitorProbes) */
	probe monitor__notifyAll(long long java_tid, uintptr_t monitor_id, const char *class_name,
				 int class_name_len);

	/*
	 * Java thread id, class name and length, object size in bytes
	 * @sdtrace needs: -XX:+ExtendedDTraceProbes (or -XX:+DTraceAllocProbes)
	 * @sdtrace category: objnew
	 */
	probe object__alloc(long long java_tid, const char *class_name, int class_name_len,
			    int size);
	/*
	 * Java thread id, then class, method and signature, each with its length
	 * @sdtrace needs: -XX:+ExtendedDTraceProbes (or -XX:+DTraceMethodProbes)
	 * @sdtrace key: class_name,method_name,signature
	 * @sdtrace category: method
	 */
	probe method__entry(long long java_tid, const char *class_name, int class_name_len,
			    const char *method_name, int method_name_len, const char *signature,
			    int signature_len);
	/*
	 * @sdtrace needs: -XX:+ExtendedDTraceProbes (or -XX:+DTraceMethodProbes)
	 * @sdtrace key: class_name,method_name,signature
	 */
	probe method__return(long long java_tid, const char *class_name, int class_name_len,
			     const char *method_name, int method_name_len, const char *signature,
			     int signature_len);
};
