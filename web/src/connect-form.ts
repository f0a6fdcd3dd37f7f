/** The optional name and comma-separated tags of a connect form (an account's or an organization's), as the API takes them. */
export function nameAndTags(form: FormData): { display_name?: string; tags?: string[] } {
  const displayName = String(form.get('display_name') ?? '').trim();
  const tags = String(form.get('tags') ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return { ...(displayName ? { display_name: displayName } : {}), ...(tags.length ? { tags } : {}) };
}
