/* SPDX-License-Identifier: MIT */
/* An ELF file without SDT notes: `sdtrace list` prints nothing and succeeds. Prints nothing. */
int main(void)
{
	return 0;
}
