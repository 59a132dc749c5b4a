/* SPDX-License-Identifier: MIT */
/* The note reader (note.c): the .note.stapsdt notes of an ELF file, as sites of a struct sdt_file. */
#ifndef SDT_NOTE_H
#define SDT_NOTE_H

struct sdt_elf;
struct sdt_file;

/*
 * The stapsdt notes of every .note.stapsdt section of @e, counted from their headers alone:
 * what a scan would decode, and allocate memory for.
 */
size_t sdt_notes_count(struct sdt_elf *e);
/* Read every .note.stapsdt note of @e into @f's sites. 0 or -ENOMEM. */
int sdt_notes_read(struct sdt_elf *e, struct sdt_file *f);

#endif
