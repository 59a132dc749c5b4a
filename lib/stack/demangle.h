/* SPDX-License-Identifier: MIT */
/*
 * C++ names as perf prints them: "_ZN6Thread8call_runEv" is "Thread::call_run()". libstdc++'s
 * __cxa_demangle, dlopen'ed at the first mangled name: linking libstdc++ into every sdtrace
 * would cost each start its relocation, for the reports of C++ stacks alone.
 */
#ifndef SDT_STACK_DEMANGLE_H
#define SDT_STACK_DEMANGLE_H

/* @name demangled (malloc'ed, the caller frees), or NULL: not a mangled name, or no demangler. */
char *sdt_demangle(const char *name);

#endif
