/*
 * Every probe's:
 * @sdtrace fires: only in tests
 */
provider sizes {
	/*
	 * The smallest values.
	 * @sdtrace needs: --min, a switch whose text
	 *   runs over two lines
	 * @sdtrace pair: sizes:max
	 */
	probe min(signed char, unsigned char, short, unsigned short, int, unsigned int, long long,
		  unsigned long long);
	probe small();
};
