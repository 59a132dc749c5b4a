/* SPDX-License-Identifier: MIT */
/* C++ names demangled by libstdc++'s __cxa_demangle, loaded on first use (demangle.h). */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "stack/demangle.h"

typedef char *(*cxa_demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);

static cxa_demangle_fn cxa_demangle;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	void *h;

	/* already there in a C++ program; else the library, kept loaded for the process */
	cxa_demangle = (cxa_demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
	if (!cxa_demangle && (h = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL)))
		cxa_demangle = (cxa_demangle_fn)dlsym(h, "__cxa_demangle");
}

static cxa_demangle_fn demangler(void)
{
	pthread_once(&once, load);
	return cxa_demangle;
}

char *sdt_demangle(const char *name)
{
	cxa_demangle_fn fn;
	int status = -1;
	char *out;

	if (!name || strncmp(name, "_Z", 2) || !(fn = demangler()))
		return NULL;
	out = fn(name, NULL, NULL, &status);
	return status == 0 ? out : NULL;
}
