/* ELF64 static executable validation; rules in elf.h. Sizes from the file
 * are only ever compared against the room left (limit - start), never
 * added first, so hostile values cannot wrap past a check. */
#include "elf.h"

#define ELF_PAGE ((uint64_t)PAGE_SIZE)

/* The file may sit at any alignment: copy headers out byte by byte. */
static void copy_in(void *dst, const uint8_t *src, size_t n)
{
	uint8_t *d = dst;

	for (size_t i = 0; i < n; i++)
		d[i] = src[i];
}

static bool ident_ok(const uint8_t *id)
{
	return id[0] == 0x7f && id[1] == 'E' && id[2] == 'L' && id[3] == 'F' &&
	       id[EI_CLASS] == ELFCLASS64 && id[EI_DATA] == ELFDATA2LSB &&
	       id[EI_VERSION] == EV_CURRENT &&
	       (id[EI_OSABI] == ELFOSABI_SYSV || id[EI_OSABI] == ELFOSABI_GNU);
}

static bool ehdr_ok(const struct elf64_ehdr *eh, uint64_t len)
{
	uint64_t phsize = (uint64_t)eh->e_phnum * sizeof(struct elf64_phdr);

	return ident_ok(eh->e_ident) && eh->e_type == ET_EXEC &&
	       eh->e_machine == EM_X86_64 && eh->e_version == EV_CURRENT &&
	       eh->e_ehsize == sizeof(struct elf64_ehdr) &&
	       eh->e_phentsize == sizeof(struct elf64_phdr) &&
	       eh->e_phoff <= len && phsize <= len - eh->e_phoff;
}

/* One PT_LOAD against the file and the user range [ELF_PAGE, top), where
 * top is page-aligned: then the page-rounded end also stays below top. */
static bool load_ok(const struct elf64_phdr *ph, uint64_t len, uint64_t top)
{
	if (ph->p_filesz > ph->p_memsz)
		return false;
	if (ph->p_offset > len || ph->p_filesz > len - ph->p_offset)
		return false;
	if ((ph->p_vaddr ^ ph->p_offset) & (ELF_PAGE - 1))
		return false;
	return ph->p_vaddr >= ELF_PAGE && ph->p_memsz <= top &&
	       ph->p_vaddr <= top - ph->p_memsz;
}

static void read_phdr(const uint8_t *file, const struct elf64_ehdr *eh,
		      unsigned i, struct elf64_phdr *ph)
{
	copy_in(ph, file + eh->e_phoff + (uint64_t)i * sizeof(*ph), sizeof(*ph));
}

/* Checks every program header; counts the loads that map something. */
static int check_phdrs(const uint8_t *file, uint64_t len,
		       const struct elf64_ehdr *eh, uint64_t top,
		       unsigned *nloads)
{
	struct elf64_phdr ph;

	*nloads = 0;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		read_phdr(file, eh, i, &ph);
		if (ph.p_type == PT_INTERP || ph.p_type == PT_DYNAMIC)
			return -ENOEXEC;
		if (ph.p_type != PT_LOAD)
			continue;
		if (!load_ok(&ph, len, top))
			return -ENOEXEC;
		if (ph.p_memsz)
			(*nloads)++;
	}
	if (*nloads == 0)
		return -ENOEXEC;
	return *nloads > ELF_MAX_SEGMENTS ? -E2BIG : 0;
}

static void collect_loads(const uint8_t *file, const struct elf64_ehdr *eh,
			  struct elf_image *out)
{
	struct elf64_phdr ph;

	out->nsegs = 0;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		read_phdr(file, eh, i, &ph);
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
			continue;
		out->segs[out->nsegs++] = (struct elf_segment){
			.vaddr = ph.p_vaddr, .memsz = ph.p_memsz,
			.filesz = ph.p_filesz, .offset = ph.p_offset,
			.r = ph.p_flags & PF_R, .w = ph.p_flags & PF_W,
			.x = ph.p_flags & PF_X,
		};
	}
}

/* Loads are validated: vaddr + memsz cannot wrap, even rounded up. */
static bool pages_overlap(const struct elf_segment *a,
			  const struct elf_segment *b)
{
	uint64_t a0 = ALIGN_DOWN(a->vaddr, ELF_PAGE);
	uint64_t a1 = ALIGN_UP(a->vaddr + a->memsz, ELF_PAGE);
	uint64_t b0 = ALIGN_DOWN(b->vaddr, ELF_PAGE);
	uint64_t b1 = ALIGN_UP(b->vaddr + b->memsz, ELF_PAGE);

	return a0 < b1 && b0 < a1;
}

static bool any_overlap(const struct elf_image *img)
{
	for (unsigned i = 0; i < img->nsegs; i++)
		for (unsigned j = i + 1; j < img->nsegs; j++)
			if (pages_overlap(&img->segs[i], &img->segs[j]))
				return true;
	return false;
}

static bool entry_ok(const struct elf_image *img)
{
	for (unsigned i = 0; i < img->nsegs; i++) {
		const struct elf_segment *s = &img->segs[i];
		if (s->x && img->entry >= s->vaddr &&
		    img->entry - s->vaddr < s->memsz)
			return true;
	}
	return false;
}

static int parse(const uint8_t *file, uint64_t len, uint64_t user_top,
		 struct elf_image *out)
{
	struct elf64_ehdr eh;
	unsigned nloads;
	int err;

	if (len < sizeof(eh))
		return -ENOEXEC;
	copy_in(&eh, file, sizeof(eh));
	if (!ehdr_ok(&eh, len))
		return -ENOEXEC;
	err = check_phdrs(file, len, &eh, ALIGN_DOWN(user_top, ELF_PAGE), &nloads);
	if (err)
		return err;
	collect_loads(file, &eh, out);
	out->entry = eh.e_entry;
	if (any_overlap(out) || !entry_ok(out))
		return -ENOEXEC;
	return 0;
}

static void zero_image(struct elf_image *img)
{
	uint8_t *p = (uint8_t *)img;

	for (size_t i = 0; i < sizeof(*img); i++)
		p[i] = 0;
}

int elf_parse(const void *file, uint64_t len, uint64_t user_top,
	      struct elf_image *out)
{
	int err = parse(file, len, user_top, out);

	if (err)
		zero_image(out);
	return err;
}
