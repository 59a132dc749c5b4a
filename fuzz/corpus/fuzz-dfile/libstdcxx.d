/*
 * libstdc++'s exception probes (provider "libstdcxx"), as GCC's libstdc++ fires them from its
 * C++ ABI support (libsupc++: __cxa_throw, __cxa_rethrow and the personality routine's handler
 * search): the thrown object and its std::type_info. Written for sdtrace from the probe points
 * documented by GCC and SystemTap; checked against Debian 12's libstdc++.so.6.
 */
provider libstdcxx {
	/* An exception is thrown: the exception object, its type's std::type_info. */
	probe throw(void *object, void *tinfo);
	/* A caught exception is thrown again (throw;). */
	probe rethrow(void *object, void *tinfo);
	/* A handler catches an exception. */
	probe catch(void *object, void *tinfo);
};
