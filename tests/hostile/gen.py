#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write the hostile ELF files of tests/hostile/README.md into a directory, byte by byte.

    gen.py OUTDIR [--list] [--big N]

Only Python's standard library: every header is packed here with struct, so the files can be
anything a linker would never write. Each file is named after the case it exercises; the
expectation lives in t0800-hostile-elf.sh (every file: a clear error or a clean skip, no crash,
no hang, nothing in uprobe_events).
"""
import os
import struct
import sys

EM_X86_64, EM_PPC = 62, 20
SHT_PROGBITS, SHT_NOTE, SHT_STRTAB = 1, 7, 3
SHF_ALLOC, SHF_WRITE, SHF_EXEC = 2, 1, 4
PT_LOAD = 1
# The marker every injection attempt carries: the test greps uprobe_events for it.
MARK = "sdtrace_hostile_inject"


class Layout:
    """An ELF image: header, one PT_LOAD over the whole file (vaddr == offset), sections, and
    the section header table at the end. Knobs let a case break any field after layout."""

    def __init__(self, cls=64, big=False, machine=EM_X86_64):
        self.cls, self.big, self.machine = cls, big, machine
        self.e = ">" if big else "<"
        self.sections = []  # (name, type, flags, data, align)

    def add(self, name, typ, flags, data, align=4):
        self.sections.append([name, typ, flags, data, align])

    def word(self):
        return "Q" if self.cls == 64 else "I"

    def build(self, ehdr_patch=None, shdr_patch=None, phdr_patch=None):
        e, w = self.e, self.word()
        ehsize = 64 if self.cls == 64 else 52
        phentsize = 56 if self.cls == 64 else 32
        shentsize = 64 if self.cls == 64 else 40
        shstr = b"\0"
        names = []
        for s in self.sections:
            names.append(len(shstr))
            shstr += s[0].encode() + b"\0"
        shstr_name = len(shstr)
        shstr += b".shstrtab\0"
        body = bytearray()
        off = ehsize + phentsize
        placed = []
        for s in self.sections:
            pad = (-(off + len(body))) % s[4]
            body += b"\0" * pad
            placed.append(off + len(body))
            body += s[3]
        shstr_off = off + len(body)
        body += shstr
        body += b"\0" * ((-(off + len(body))) % 8)
        shoff = off + len(body)
        nsec = len(self.sections) + 2
        total = shoff + nsec * shentsize
        ident = b"\x7fELF" + bytes([2 if self.cls == 64 else 1, 2 if self.big else 1, 1])
        ident += b"\0" * (16 - len(ident))
        eh = dict(type=3, machine=self.machine, version=1, entry=placed[0] if placed else 0,
                  phoff=ehsize, shoff=shoff, flags=0, ehsize=ehsize, phentsize=phentsize,
                  phnum=1, shentsize=shentsize, shnum=nsec, shstrndx=nsec - 1)
        if ehdr_patch:
            eh.update(ehdr_patch)
        out = bytearray(ident)
        out += struct.pack(e + "HHI" + w + w + w + "IHHHHHH", eh["type"], eh["machine"],
                           eh["version"], eh["entry"], eh["phoff"], eh["shoff"], eh["flags"],
                           eh["ehsize"], eh["phentsize"], eh["phnum"], eh["shentsize"],
                           eh["shnum"], eh["shstrndx"])
        ph = dict(type=PT_LOAD, flags=5, offset=0, vaddr=0, paddr=0, filesz=total, memsz=total,
                  align=0x1000)
        if phdr_patch:
            ph.update(phdr_patch)
        if self.cls == 64:
            out += struct.pack(e + "IIQQQQQQ", ph["type"], ph["flags"], ph["offset"],
                               ph["vaddr"], ph["paddr"], ph["filesz"], ph["memsz"], ph["align"])
        else:
            out += struct.pack(e + "IIIIIIII", ph["type"], ph["offset"], ph["vaddr"],
                               ph["paddr"], ph["filesz"], ph["memsz"], ph["flags"], ph["align"])
        out += body
        shdrs = [dict(name=0, type=0, flags=0, addr=0, offset=0, size=0, link=0, info=0,
                      align=0, entsize=0)]
        for i, s in enumerate(self.sections):
            addr = placed[i] if s[2] & SHF_ALLOC else 0
            shdrs.append(dict(name=names[i], type=s[1], flags=s[2], addr=addr, offset=placed[i],
                              size=len(s[3]), link=0, info=0, align=s[4], entsize=0))
        shdrs.append(dict(name=shstr_name, type=SHT_STRTAB, flags=0,
                          addr=0, offset=shstr_off, size=len(shstr), link=0, info=0, align=1,
                          entsize=0))
        if shdr_patch:
            for name, patch in shdr_patch.items():
                for i, s in enumerate(self.sections):
                    if s[0] == name or i == name:
                        shdrs[i + 1].update(patch)
        for sh in shdrs:
            out += struct.pack(e + "II" + w * 4 + "II" + w * 2, sh["name"], sh["type"],
                               sh["flags"], sh["addr"], sh["offset"], sh["size"], sh["link"],
                               sh["info"], sh["align"], sh["entsize"])
        return bytes(out)

    def section_offset(self, image, name):
        """File offset of section @name in a built @image (from its own section table)."""
        e, w = self.e, self.word()
        if self.cls == 64:
            shoff, = struct.unpack_from(e + "Q", image, 40)
            shentsize, shnum = struct.unpack_from(e + "HH", image, 58)
        else:
            shoff, = struct.unpack_from(e + "I", image, 32)
            shentsize, shnum = struct.unpack_from(e + "HH", image, 46)
        for i, s in enumerate(self.sections):
            f = struct.unpack_from(e + "II" + w * 4, image, shoff + (i + 1) * shentsize)
            if s[0] == name:
                return f[4]
        raise KeyError(name)


def note(owner, typ, desc, big=False, namesz=None, descsz=None):
    e = ">" if big else "<"
    name = owner + b"\0"
    hdr = struct.pack(e + "III", len(name) if namesz is None else namesz,
                      len(desc) if descsz is None else descsz, typ)
    pad = lambda b: b + b"\0" * ((-len(b)) % 4)
    return hdr + pad(name) + pad(desc)


def stapsdt(pc, base, sem, provider, name, args, cls=64, big=False, descsz=None, raw=None):
    e = (">" if big else "<") + ("Q" if cls == 64 else "I")
    desc = struct.pack(e, pc) + struct.pack(e, base) + struct.pack(e, sem)
    desc += raw if raw is not None else provider + b"\0" + name + b"\0" + args + b"\0"
    return note(b"stapsdt", 3, desc, big, descsz=descsz)


TEXT = 0x100  # a text section far enough in that pcs can be computed before layout


def base_layout(notes_fn, cls=64, big=False, machine=EM_X86_64, extra=None):
    """A small valid file: .text, .stapsdt.base, .probes, a build-id, .note.stapsdt.
    notes_fn(text_addr, base_addr, sem_addr) -> the bytes of .note.stapsdt. Addresses are file
    offsets (vaddr == offset), fixed by a first layout pass."""
    def make(text, base, sem):
        lay = Layout(cls, big, machine)
        lay.add(".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXEC, b"\x90" * 64 + b"\xc3", 16)
        lay.add(".stapsdt.base", SHT_PROGBITS, SHF_ALLOC, b"\0", 1)
        lay.add(".probes", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, b"\0" * 8, 2)
        lay.add(".note.gnu.build-id", SHT_NOTE, SHF_ALLOC,
                note(b"GNU", 3, bytes(range(0x10, 0x24)), big))
        lay.add(".note.stapsdt", SHT_NOTE, 0, notes_fn(text, base, sem))
        for x in extra or []:
            lay.add(*x)
        return lay
    lay = make(0, 0, 0)
    img = lay.build()
    addrs = [lay.section_offset(img, n) for n in (".text", ".stapsdt.base", ".probes")]
    lay = make(*addrs)
    return lay, addrs


def build(notes_fn, **kw):
    patches = {k: kw.pop(k) for k in ("ehdr_patch", "shdr_patch", "phdr_patch") if k in kw}
    lay, _ = base_layout(notes_fn, **kw)
    return lay.build(**patches)


def one(provider, name, args=b"8@%rdi", sem=False):
    return lambda t, b, s: stapsdt(t + 4, b, s if sem else 0, provider, name, args)


def cases(big_count):
    c = {}
    valid = build(lambda t, b, s: stapsdt(t + 4, b, 0, b"hostile", b"ok", b"8@%rdi") +
                  stapsdt(t + 8, b, s, b"hostile", b"gated", b"-4@%esi"))
    c["valid"] = valid
    # names with bytes tracefs or uprobe_events must never see
    for tag, prov, name in [
            ("prov-space", b"my prov", b"ev"), ("name-space", b"hostile", b"e v"),
            ("prov-newline", b"hostile\np:" + MARK.encode() + b"/x /bin/sh:0x0", b"ev"),
            ("name-newline", b"hostile", b"ev\np:" + MARK.encode() + b"/x /bin/sh:0x0"),
            ("prov-colon", b"a:b", b"ev"), ("name-colon", b"hostile", b"e:v"),
            ("prov-slash", b"a/b", b"ev"), ("name-slash", b"hostile", b"../../x"),
            ("prov-percent", b"a%s%n", b"ev"), ("name-percent", b"hostile", b"%x%x%n"),
            ("prov-utf8", "prövider".encode(), b"ev"), ("name-latin1", b"hostile", b"\xe9v\xff"),
            ("prov-empty", b"", b"ev"), ("name-empty", b"hostile", b""),
            ("prov-10k", b"p" * 10240, b"ev"), ("name-10k", b"hostile", b"n" * 10240),
            ("prov-equals", b"a=b", b"ev"), ("name-tab", b"hostile", b"e\tv")]:
        c["names-" + tag] = build(one(prov, name))
    # arguments trying to add text to the p: line or a second line
    for tag, args in [
            ("newline-p", b"8@%rdi\np:" + MARK.encode() + b"/evil /bin/true:0x0"),
            ("cr-p", b"8@%rdi\rp:" + MARK.encode() + b"/evil /bin/true:0x0"),
            ("space-fetch", b"8@%rdi " + MARK.encode() + b"=+0(%sp):string"),
            ("nul-inside", None),
            ("10k", b"8@%rdi " * 1500),
            ("many", b" ".join(b"8@%rdi" for _ in range(200))),
            ("bad-operands", b"8@%nosuchreg -4@999999999999999999999(%rbp) 3@%rax 8@ @ -@ 8f@$"),
            ("format", b"8@%n%s%s%s%s 8@%p"),
            ("nonascii", "8@%rdi 4@é".encode())]:
        if args is None:
            raw = b"hostile\0nul\0" + b"8@%rdi\0p:" + MARK.encode() + b"/x /bin/true:0x0\0"
            c["args-" + tag] = build(lambda t, b, s, raw=raw: stapsdt(t, b, 0, b"", b"", b"",
                                                                      raw=raw))
        else:
            c["args-" + tag] = build(one(b"hostile", b"args", args))
    # desc shorter than three addresses; strings missing or not terminated
    for n in (0, 1, 8, 16, 23):
        c["desc-short-%d" % n] = build(
            lambda t, b, s, n=n: note(b"stapsdt", 3, struct.pack("<QQQ", t + 4, b, 0)[:n]))
    c["desc-no-strings"] = build(lambda t, b, s: stapsdt(t, b, 0, b"", b"", b"", raw=b""))
    c["desc-unterminated"] = build(lambda t, b, s: stapsdt(t, b, 0, b"", b"", b"",
                                                          raw=b"hostile\0name\0" + b"8@%rdi"))
    c["desc-short-ppc32"] = build(lambda t, b, s: note(b"stapsdt", 3, b"\0\0\0\1\0\0", True),
                                  cls=32, big=True, machine=EM_PPC)
    # note sizes that overflow or run past the section
    for tag, nsz, dsz in [("descsz-max", 8, 0xFFFFFFFF), ("namesz-max", 0xFFFFFFFF, 40),
                          ("descsz-wrap", 8, 0xFFFFFFFC), ("both-max", 0xFFFFFFFF, 0xFFFFFFFF),
                          ("descsz-past", 8, 4096)]:
        c["notesize-" + tag] = build(
            lambda t, b, s, nsz=nsz, dsz=dsz:
            stapsdt(t + 4, b, 0, b"hostile", b"ok", b"8@%rdi") +
            struct.pack("<III", nsz, dsz, 3) + b"stapsdt\0" + b"\0" * 24)
    c["notesize-header-cut"] = build(lambda t, b, s: stapsdt(t + 4, b, 0, b"hostile", b"ok",
                                                            b"8@%rdi") + b"\x08\0\0\0\x30")
    # pc or semaphore outside every segment
    for tag, pcf, semf in [("pc-past-end", lambda t: 0x7FFFFFFF0000, None),
                           ("pc-max", lambda t: 0xFFFFFFFFFFFFFFFF, None),
                           ("pc-zero", lambda t: 0, None),
                           ("sem-past-end", lambda t: t + 4, lambda s: 0x7FFFFFFF0000),
                           ("sem-max", lambda t: t + 4, lambda s: 0xFFFFFFFFFFFFFFFF),
                           ("sem-odd", lambda t: t + 4, lambda s: s + 1)]:
        c["addr-" + tag] = build(
            lambda t, b, s, pcf=pcf, semf=semf:
            stapsdt(pcf(t), b, semf(s) if semf else 0, b"hostile", b"addr", b"8@%rdi"))
    c["addr-base-wrap"] = build(lambda t, b, s: stapsdt(t + 4, b + 0x8000000000000000, 0,
                                                       b"hostile", b"prelinked", b"8@%rdi"))
    # section and program header tables pointing past the end, or absurd
    c["shoff-past-end"] = build(one(b"hostile", b"ok"), ehdr_patch={"shoff": 0x7FFFFFFF})
    c["shoff-max"] = build(one(b"hostile", b"ok"), ehdr_patch={"shoff": 0xFFFFFFFFFFFFFFF0})
    c["shnum-max"] = build(one(b"hostile", b"ok"), ehdr_patch={"shnum": 0xFFFF})
    c["shstrndx-bad"] = build(one(b"hostile", b"ok"), ehdr_patch={"shstrndx": 0xFFF0})
    c["shentsize-bad"] = build(one(b"hostile", b"ok"), ehdr_patch={"shentsize": 3})
    c["phoff-past-end"] = build(one(b"hostile", b"ok"), ehdr_patch={"phoff": 0x7FFFFFFF})
    c["phnum-max"] = build(one(b"hostile", b"ok"), ehdr_patch={"phnum": 0xFFFF})
    c["phdr-filesz-max"] = build(one(b"hostile", b"ok"),
                                 phdr_patch={"filesz": 0xFFFFFFFFFFFFFFFF,
                                             "memsz": 0xFFFFFFFFFFFFFFFF})
    c["phdr-vaddr-wrap"] = build(one(b"hostile", b"ok"),
                                 phdr_patch={"vaddr": 0xFFFFFFFFFFFFF000})
    c["note-offset-past-end"] = build(one(b"hostile", b"ok"),
                                      shdr_patch={".note.stapsdt": {"offset": 0x7FFFFFFF}})
    c["note-size-max"] = build(one(b"hostile", b"ok"),
                               shdr_patch={".note.stapsdt": {"size": 0xFFFFFFFFFFFFFFF0}})
    c["note-size-past-end"] = build(one(b"hostile", b"ok"),
                                    shdr_patch={".note.stapsdt": {"size": 0x100000}})
    c["buildid-size-max"] = build(one(b"hostile", b"ok"),
                                  shdr_patch={".note.gnu.build-id": {"size": 0xFFFFFFFF}})
    c["shstrtab-name-bad"] = build(one(b"hostile", b"ok"),
                                   shdr_patch={".note.stapsdt": {"name": 0x7FFFFFF0}})
    # a second .note.stapsdt that cannot be read: the first one's sites stay whole
    lay, _ = base_layout(lambda t, b, s: stapsdt(t + 4, b, 0, b"hostile", b"first", b"8@%rdi"),
                         extra=[(".note.stapsdt", SHT_NOTE, 0,
                                 stapsdt(0x84, 0, 0, b"hostile", b"second", b"8@%rdi"))])
    c["second-note-section-past-end"] = lay.build(shdr_patch={5: {"offset": 0x7FFFFFF0}})
    # many notes (a scan must stay linear and bounded)
    # (every site at its own address: each would be a uprobe of its own)
    c["notes-%d" % big_count] = build(
        lambda t, b, s: b"".join(stapsdt(t + 4 + 4 * i, b, 0, b"hostile", b"many", b"8@%rdi")
                                 for i in range(big_count)))
    # not ELF, or ELF cut at every header boundary of the valid file
    c["zero-bytes"] = b""
    c["not-elf"] = b"#!/bin/sh\necho hi\n"
    c["elf-magic-only"] = b"\x7fELF"
    cuts = {4, 5, 6, 16, 24, 40, 52, 63, 64, 64 + 28, 64 + 56}
    lay, _ = base_layout(lambda t, b, s: stapsdt(t + 4, b, 0, b"hostile", b"ok", b"8@%rdi"))
    img = lay.build()
    for name in (".text", ".stapsdt.base", ".probes", ".note.gnu.build-id", ".note.stapsdt"):
        o = lay.section_offset(img, name)
        cuts.update({o, o + 4, o + 12})
    shoff = struct.unpack_from("<Q", img, 40)[0]
    cuts.update(shoff + 64 * i for i in range(8))
    cuts.update({len(img) - 1})
    for n in sorted(x for x in cuts if x < len(img)):
        c["cut-at-%d" % n] = img[:n]
    return c


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    out = argv[1]
    big = 1000000
    if "--big" in argv:
        big = int(argv[argv.index("--big") + 1])
    all_cases = cases(big)
    if "--list" in argv:
        for k in all_cases:
            print(k)
        return 0
    os.makedirs(out, exist_ok=True)
    for k, data in all_cases.items():
        with open(os.path.join(out, k + ".elf"), "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
