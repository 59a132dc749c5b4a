/*
 * PHP's static markers (provider "php"), with the argument names and types of the Zend
 * engine's provider file (Zend/zend_dtrace.d). Written for sdtrace; checked against the notes
 * of Debian 12's /usr/bin/php8.2: 11 probes, 29 arguments, 14 sites
 * (tests/e2e/t2200-runtimes-list.sh). The same probes are in php-fpm, php-cgi and libphp.
 *
 * Every probe of PHP is semaphore-gated: sdtrace enables the semaphore when it records.
 *
 * The Zend engine fires its function, execute and compile probes only when the environment
 * variable USE_ZEND_DTRACE is set to 1 at start-up (it then runs every script through its
 * DTrace-aware executor). Measured with `sdtrace stat` on PHP 8.2 (Debian 12's php8.2-cli), a
 * script making 1000 method calls, 300 static calls and 200 function calls:
 *	                      request__startup  compile__file__entry  execute__entry  function__entry
 *	plain                                1                     0               0                0
 *	USE_ZEND_DTRACE=1                    1                     1            1501             1501
 * The request, error and exception probes fire either way.
 */
provider php {
	/*
	 * An exception is caught / thrown: its class; from throw to catch is a pair. PHP 8.2
	 * passes caught's class name as its zend_string (the characters start 24 bytes further
	 * on, on x86-64), not as characters: it is an address here, and caught has no key.
	 */
	probe exception__caught(const void *classname);
	/*
	 * @sdtrace pair: exception__caught
	 * @sdtrace key: classname
	 * @sdtrace category: excp
	 */
	probe exception__thrown(const char *classname);
	/*
	 * A request starts / ends: the script, the URI and the method (the CLI: the script, and
	 * null pointers).
	 */
	probe request__startup(const char *request_file, const char *request_uri,
			       const char *request_method);
	probe request__shutdown(const char *request_file, const char *request_uri,
				const char *request_method);
	/*
	 * A file is compiled: its name as given, and as resolved
	 * @sdtrace needs: USE_ZEND_DTRACE=1 in the target's environment
	 * @sdtrace category: cload
	 */
	probe compile__file__entry(const char *compile_file, const char *compile_file_translated);
	/* @sdtrace needs: USE_ZEND_DTRACE=1 in the target's environment */
	probe compile__file__return(const char *compile_file,
				    const char *compile_file_translated);
	/* an error: its message, the file and line */
	probe error(const char *errormsg, const char *request_file, int lineno);
	/*
	 * The executor enters / leaves a block of code: the file and line
	 * @sdtrace needs: USE_ZEND_DTRACE=1 in the target's environment
	 */
	probe execute__entry(const char *request_file, int lineno);
	/* @sdtrace needs: USE_ZEND_DTRACE=1 in the target's environment */
	probe execute__return(const char *request_file, int lineno);
	/*
	 * A PHP function is entered / returns: its name, the file and line, its class (empty
	 * for a plain function) and the call's scope ("::" or "->", empty for a function)
	 * @sdtrace needs: USE_ZEND_DTRACE=1 in the target's environment
	 * @sdtrace key: classname,function_name
	 * @sdtrace category: method
	 */
	probe function__entry(const char *function_name, const char *request_file, int lineno,
			      const char *classname, const char *scope);
	/*
	 * @sdtrace needs: USE_ZEND_DTRACE=1 in the target's environment
	 * @sdtrace key: classname,function_name
	 */
	probe function__return(const char *function_name, const char *request_file, int lineno,
			       const char *classname, const char *scope);
};
