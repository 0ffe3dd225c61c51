/** A page number, or a gap between numbers. */
export type PageItem = number | 'gap-start' | 'gap-end';

const MAX_NUMBERS = 5;

/** Total pages: total count divided by page size, rounded up (at least 1). */
export function totalPages(totalCount: number, pageSize: number): number {
  return Math.max(1, Math.ceil(totalCount / pageSize));
}

/**
 * At most five page numbers, always the first and the last, ellipses where pages are skipped
 * (spec 9): 1 … 4 5 6 … 20.
 */
export function pageItems(page: number, pages: number): PageItem[] {
  if (pages <= MAX_NUMBERS) return Array.from({ length: pages }, (_, i) => i + 1);
  const current = Math.min(Math.max(page, 1), pages);
  const middleCount = MAX_NUMBERS - 2;
  let start = Math.max(2, current - 1);
  let end = start + middleCount - 1;
  if (end > pages - 1) {
    end = pages - 1;
    start = end - middleCount + 1;
  }
  const items: PageItem[] = [1];
  if (start > 2) items.push('gap-start');
  for (let n = start; n <= end; n += 1) items.push(n);
  if (end < pages - 1) items.push('gap-end');
  items.push(pages);
  return items;
}
