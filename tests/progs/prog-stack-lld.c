/* SPDX-License-Identifier: MIT */
/* Two functions at known offsets of an lld-linked library (tests/progs/CMakeLists.txt says why). */
int stack_lld_fn(int x);
int stack_lld_caller(int x);

__attribute__((noinline)) int stack_lld_fn(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

__attribute__((noinline)) int stack_lld_caller(int x)
{
	__asm__ volatile("" ::: "memory");
	return stack_lld_fn(x) * 2;
}
