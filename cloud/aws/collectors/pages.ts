/** Every page of an SDK paginator (paginateListUsers, ...): the collectors need whole lists. */
export async function allPages<T>(pages: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages) out.push(page);
  return out;
}
