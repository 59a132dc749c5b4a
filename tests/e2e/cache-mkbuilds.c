/* SPDX-License-Identifier: MIT */
/*
 * cache-mkbuilds SRC DIR N [SET]: write DIR/bin-0000 .. DIR/bin-(N-1), copies of the ELF file SRC
 * each with its own build-id (the last 4 bytes of SRC's NT_GNU_BUILD_ID replaced by the copy's
 * number and SET), so that N distinct "builds" exist without N compilations; copies made with
 * different SETs differ too. Test helper only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	static const char gnu[] = "GNU";
	size_t len, i, at = 0;
	char *buf, path[4096];
	long n, k, set = 0;
	FILE *f;

	if (argc != 4 && argc != 5)
		return fprintf(stderr, "usage: cache-mkbuilds SRC DIR N [SET]\n"), 2;
	n = atol(argv[3]);
	if (argc == 5)
		set = atol(argv[4]);
	f = fopen(argv[1], "rb");
	if (!f)
		return perror(argv[1]), 1;
	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(len);
	if (!buf || fread(buf, 1, len, f) != len)
		return fprintf(stderr, "cannot read %s\n", argv[1]), 1;
	fclose(f);
	/* note header: namesz=4, descsz=20, type=3 (NT_GNU_BUILD_ID), "GNU\0", then the id */
	for (i = 0; i + 12 + 4 + 20 <= len; i++) {
		unsigned int nsz, dsz, type;

		memcpy(&nsz, buf + i, 4);
		memcpy(&dsz, buf + i + 4, 4);
		memcpy(&type, buf + i + 8, 4);
		if (nsz == 4 && dsz >= 8 && dsz <= 64 && type == 3 &&
		    !memcmp(buf + i + 12, gnu, 4) && i + 16 + dsz <= len) {
			at = i + 16 + dsz - 4;
			break;
		}
	}
	if (!at)
		return fprintf(stderr, "%s: no build-id note\n", argv[1]), 1;
	for (k = 0; k < n; k++) {
		unsigned int v = ((unsigned int)k & 0xffffu) | ((unsigned int)set << 16);

		memcpy(buf + at, &v, 4);
		snprintf(path, sizeof(path), "%s/bin-%04ld", argv[2], k);
		f = fopen(path, "wb");
		if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
			return perror(path), 1;
		chmod(path, 0755);
	}
	free(buf);
	return 0;
}
