/* SPDX-License-Identifier: MIT */
#ifndef PROG_STACK_LIB_H
#define PROG_STACK_LIB_H
void stack_lib_mid(void (*cb)(long), long i);
#endif
