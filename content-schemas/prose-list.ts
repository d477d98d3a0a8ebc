// Names joined as prose ("a, b or c"), for messages and help built from a registry.
export function listInProse(items: readonly string[], conjunction: 'or' | 'and'): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}
